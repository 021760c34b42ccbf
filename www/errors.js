// Errors as the page shows them. The engine's errors all leave wasm through one funnel
// (src/wasm.rs) as a JS Error whose message is the JSON {"path": ..., "message": ...}.

/** An error as {path, message}: the engine's own, or (a panic, a JS error) marked `internal`. */
export function asError(e) {
  if (e && typeof e.path === 'string' && typeof e.message === 'string' && !(e instanceof Error)) return e; // already one
  const text = e && e.message !== undefined ? String(e.message) : String(e);
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed.message === 'string') {
      return { path: String(parsed.path ?? ''), message: parsed.message };
    }
  } catch { /* not one of ours: a panic or a JS error */ }
  return { path: '', message: text, internal: true };
}
