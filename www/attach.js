// Files a scenario names instead of carrying (src/attach.rs): workload logs of any size. A worker
// that hosts an engine reads each chosen file once, as a stream, chunk by chunk through the
// engine's SWF reader (memory follows the jobs kept, not the file), and attaches it under its
// name; the page sends the files ([{name, file}]) with every run or study.

/**
 * Streams `file` through `new SwfAttach(name)` (the engine's reader, from the worker's wasm) and
 * attaches it; returns its summary {name, digest, jobs, skipped, beyond, widest, ...}. A bad line
 * throws {path: name, message} naming its line and column.
 */
export async function readSwf(SwfAttach, name, file) {
  const reader = new SwfAttach(name);
  const stream = file.stream().getReader();
  try {
    for (;;) {
      const { done, value } = await stream.read();
      if (done) break;
      reader.push(value);
    }
    return JSON.parse(reader.finish());
  } catch (e) {
    let message = e?.message ?? String(e);
    try { message = JSON.parse(message).message ?? message; } catch { /* a plain message */ }
    throw { path: name, message };
  }
}

/**
 * attachAll(attachments, onReading?) for one worker: attaches every file not attached yet (a
 * posted File arrives as a new object each time, so a file is known by name, size and time).
 */
export function createAttacher(SwfAttach) {
  const attached = new Map(); // name → `size:lastModified`
  return async (attachments = [], onReading = () => {}) => {
    for (const { name, file } of attachments) {
      const key = `${file.size}:${file.lastModified}`;
      if (attached.get(name) === key) continue;
      onReading(name);
      await readSwf(SwfAttach, name, file);
      attached.set(name, key);
    }
  };
}
