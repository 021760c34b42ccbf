// Share links: the scenario travels in the hash as `#v1.` + base64url(gzip(scenario JSON)); a
// scenario with the Study panel's study (study/spec.js) as `#v2.` + base64url(gzip(JSON
// {"scenario": "<the scenario text>", "study": {axes, replicates, metrics}})). A link without a
// study is still written v1, so such links read as before.
// Every decoder ever shipped stays in DECODERS, keyed by its version prefix, so old links keep working.
// A link carries the scenario text byte for byte (never re-encoded), so it runs exactly as written.
// Decoding treats the hash as hostile: sizes are capped before and after decompression, and
// what comes out is only ever parsed as JSON, never inserted as HTML. Both directions run in
// textworker.js, off the main thread.

export const MAX_ENCODED_CHARS = 2_000_000;      // characters after the prefix
export const MAX_DECODED_BYTES = 4 * 1024 * 1024; // the scenario size limit (docs/format.md)
export const CURRENT_PREFIX = 'v1';
export const STUDY_PREFIX = 'v2';

export class LinkError extends Error {}

function toBase64Url(bytes) {
  let bin = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new LinkError('the link is damaged (characters outside base64url)');
  if (text.length % 4 === 1) throw new LinkError('the link is damaged (truncated base64url)');
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4);
  let bin;
  try { bin = atob(b64); } catch { throw new LinkError('the link is damaged (bad base64url)'); }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function gzip(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Gunzips with a cap on the output, so a small "zip bomb" link cannot exhaust memory. */
async function gunzipCapped(bytes, cap) {
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip')).getReader();
  const parts = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > cap) {
        reader.cancel().catch(() => {});
        throw new LinkError(`the scenario in the link is larger than ${cap} bytes`);
      }
      parts.push(value);
    }
  } catch (e) {
    if (e instanceof LinkError) throw e;
    throw new LinkError('the link is damaged (not valid gzip data)');
  }
  const out = new Uint8Array(total);
  let off = 0;
  for (const p of parts) { out.set(p, off); off += p.length; }
  return out;
}

/** The JSON text a link's payload holds (capped, UTF-8, parsed): {text, value}. */
async function payloadJson(payload) {
  if (payload.length > MAX_ENCODED_CHARS) throw new LinkError(`the link is too long (${payload.length} characters, at most ${MAX_ENCODED_CHARS})`);
  const bytes = await gunzipCapped(fromBase64Url(payload), MAX_DECODED_BYTES);
  let text;
  try { text = new TextDecoder('utf-8', { fatal: true }).decode(bytes); } catch { throw new LinkError('the link does not hold UTF-8 text'); }
  let value;
  try { value = JSON.parse(text); } catch (e) { throw new LinkError(`the link does not hold JSON (${e.message})`); }
  return { text, value };
}

function checkScenario(text) {
  let value;
  try { value = JSON.parse(text); } catch (e) { throw new LinkError(`the link does not hold JSON (${e.message})`); }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new LinkError('the link does not hold a scenario object');
  if (typeof value.engine !== 'string') throw new LinkError('the scenario in the link names no engine');
}

async function decodeV1(payload) {
  const { text } = await payloadJson(payload);
  checkScenario(text);
  return { text, study: null };
}

async function decodeV2(payload) {
  const { value } = await payloadJson(payload);
  if (!value || typeof value !== 'object' || typeof value.scenario !== 'string') throw new LinkError('the link does not hold a scenario and a study');
  checkScenario(value.scenario);
  const study = value.study ?? null;
  if (study !== null && (typeof study !== 'object' || Array.isArray(study) || (study.axes !== undefined && !Array.isArray(study.axes)))) {
    throw new LinkError('the study in the link is not a study (axes, replicates, metrics)');
  }
  return { text: value.scenario, study };
}

/** Decoders by version prefix; never remove one. Each gives {text, study}. */
const DECODERS = { v1: decodeV1, v2: decodeV2 };

/**
 * Encodes scenario text, as is, into a hash: `#v1.…`, or with the Study panel's `study` `#v2.…`
 * (the scenario still as its exact text, a string inside the JSON).
 */
export async function encodeLink(text, study = null) {
  if (!study) return `#${CURRENT_PREFIX}.${toBase64Url(await gzip(new TextEncoder().encode(text)))}`;
  const json = JSON.stringify({ scenario: text, study });
  return `#${STUDY_PREFIX}.${toBase64Url(await gzip(new TextEncoder().encode(json)))}`;
}

/** Decodes a hash (with or without `#`) into the scenario text; throws LinkError with a sentence. */
export async function decodeLink(hash) {
  return (await decodeLinkState(hash)).text;
}

/** Decodes a hash into {text, study} (study null but in a v2 link with a study). */
export async function decodeLinkState(hash) {
  const h = hash.startsWith('#') ? hash.slice(1) : hash;
  if (h.length > MAX_ENCODED_CHARS + 16) throw new LinkError(`the link is too long (${h.length} characters)`);
  const dot = h.indexOf('.');
  const prefix = dot < 0 ? h : h.slice(0, dot);
  const decoder = Object.hasOwn(DECODERS, prefix) ? DECODERS[prefix] : null;
  if (!decoder || dot < 0) throw new LinkError(`unknown link format "${prefix.slice(0, 12)}" (expected ${CURRENT_PREFIX}.… or ${STUDY_PREFIX}.…)`);
  return decoder(h.slice(dot + 1));
}

/** Writes the hash without adding a history entry. */
export function saveLinkHash(hash) {
  history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
}
