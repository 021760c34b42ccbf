// Archives of a trace folder, opened in a worker: a .tar, .tar.gz / .tgz (gzip through the
// browser's DecompressionStream, the tar read as it streams) or a .zip (its central directory
// read from the end of the file, each member inflated with DecompressionStream('deflate-raw')).
// Members become File objects named by their base name; directories and links are skipped.
// ZIP64 and encrypted members are refused with a message.

/** Whether `name` is an archive this module opens. */
export function isArchive(name) {
  return /\.(zip|tar|tar\.gz|tgz)$/i.test(name);
}

/** The members of archive `file` as Files (base names), in the archive's order. */
export async function openArchive(file) {
  const name = file.name.toLowerCase();
  if (name.endsWith('.zip')) return unzip(file);
  let stream = file.stream();
  if (name.endsWith('.gz') || name.endsWith('.tgz')) stream = stream.pipeThrough(new DecompressionStream('gzip'));
  return untar(stream, file.name);
}

const baseName = (path) => path.split('/').filter(Boolean).pop() ?? path;

/** A NUL-terminated ASCII field of a tar header. */
function field(block, at, len) {
  let end = at;
  while (end < at + len && block[end] !== 0) end++;
  return new TextDecoder().decode(block.subarray(at, end));
}

/** A tar header's octal number (or GNU base-256 for large sizes). */
function octal(block, at, len) {
  if (block[at] & 0x80) {
    let v = 0;
    for (let i = at + 1; i < at + len; i++) v = v * 256 + block[i];
    return v;
  }
  const s = field(block, at, len).trim();
  return s ? parseInt(s, 8) : 0;
}

/**
 * Reads a tar stream (POSIX ustar, with GNU long names and pax `path` records) into Files.
 * Throws a message naming the archive when a header is damaged or the stream ends early.
 */
async function untar(stream, archive) {
  const reader = stream.getReader();
  const out = [];
  let buf = new Uint8Array(0);
  let done = false;
  /** Ensures `n` bytes are buffered; false at the end of the stream. */
  async function fill(n) {
    while (buf.length < n && !done) {
      const r = await reader.read();
      if (r.done) { done = true; break; }
      const next = new Uint8Array(buf.length + r.value.length);
      next.set(buf);
      next.set(r.value, buf.length);
      buf = next;
    }
    return buf.length >= n;
  }
  /** Takes `n` bytes as Blob parts, streaming (never more than one chunk buffered). */
  async function take(n) {
    const parts = [];
    while (n > 0) {
      if (buf.length === 0 && !(await fill(1))) throw new Error(`${archive}: the archive ends inside a member`);
      const k = Math.min(n, buf.length);
      parts.push(buf.slice(0, k));
      buf = buf.subarray(k);
      n -= k;
    }
    return parts;
  }
  let longName = null;
  for (;;) {
    if (!(await fill(512))) break;
    const block = buf.subarray(0, 512);
    if (block.every((b) => b === 0)) break; // the end-of-archive blocks
    const stored = octal(block, 148, 8);
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : block[i];
    if (sum !== stored) throw new Error(`${archive}: not a tar archive (a header's checksum is wrong)`);
    const size = octal(block, 124, 12);
    const type = String.fromCharCode(block[156] || 48);
    const prefix = field(block, 345, 155);
    let path = field(block, 0, 100);
    if (prefix) path = `${prefix}/${path}`;
    buf = buf.subarray(512);
    const pad = (512 - (size % 512)) % 512;
    const parts = await take(size);
    await take(pad);
    if (type === 'L') { // GNU long name of the next member
      longName = new TextDecoder().decode(await new Blob(parts).arrayBuffer()).replace(/\0.*$/s, '');
      continue;
    }
    if (type === 'x') { // pax extended header: its `path` names the next member
      const text = new TextDecoder().decode(await new Blob(parts).arrayBuffer());
      const m = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(text);
      if (m) longName = m[1];
      continue;
    }
    if (type === 'g') continue;
    if (longName !== null) { path = longName; longName = null; }
    if (type === '0' || type === '7') out.push(new File(parts, baseName(path)));
  }
  return out;
}

const u16 = (v, at) => v.getUint16(at, true);
const u32 = (v, at) => v.getUint32(at, true);

/** Reads a .zip's members (stored or deflated) into Files. */
async function unzip(file) {
  const tail = Math.min(file.size, 22 + 65535);
  const end = new DataView(await file.slice(file.size - tail).arrayBuffer());
  let eocd = -1;
  for (let i = end.byteLength - 22; i >= 0; i--) {
    if (u32(end, i) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd < 0) throw new Error(`${file.name}: not a zip archive (no end of central directory)`);
  const count = u16(end, eocd + 10);
  const dirSize = u32(end, eocd + 12);
  const dirAt = u32(end, eocd + 16);
  if (count === 0xffff || dirAt === 0xffffffff) throw new Error(`${file.name}: ZIP64 archives are not read; give the folder as a .tar.gz`);
  const dir = new DataView(await file.slice(dirAt, dirAt + dirSize).arrayBuffer());
  const out = [];
  let at = 0;
  for (let k = 0; k < count; k++) {
    if (u32(dir, at) !== 0x02014b50) throw new Error(`${file.name}: damaged zip central directory (entry ${k + 1})`);
    const flags = u16(dir, at + 8);
    const method = u16(dir, at + 10);
    const compressed = u32(dir, at + 20);
    const nameLen = u16(dir, at + 28);
    const extraLen = u16(dir, at + 30);
    const commentLen = u16(dir, at + 32);
    const local = u32(dir, at + 42);
    const path = new TextDecoder().decode(new Uint8Array(dir.buffer, dir.byteOffset + at + 46, nameLen));
    at += 46 + nameLen + extraLen + commentLen;
    if (path.endsWith('/')) continue;
    if (flags & 1) throw new Error(`${file.name}: ${path} is encrypted`);
    if (compressed === 0xffffffff || local === 0xffffffff) throw new Error(`${file.name}: ZIP64 archives are not read; give the folder as a .tar.gz`);
    const head = new DataView(await file.slice(local, local + 30).arrayBuffer());
    if (u32(head, 0) !== 0x04034b50) throw new Error(`${file.name}: damaged zip member ${path}`);
    const dataAt = local + 30 + u16(head, 26) + u16(head, 28);
    const data = file.slice(dataAt, dataAt + compressed);
    let member;
    if (method === 0) member = new File([data], baseName(path));
    else if (method === 8) member = new File([await new Response(data.stream().pipeThrough(new DecompressionStream('deflate-raw'))).blob()], baseName(path));
    else throw new Error(`${file.name}: ${path} uses compression method ${method} (stored and deflate are read)`);
    out.push(member);
  }
  return out;
}
