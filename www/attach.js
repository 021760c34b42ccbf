// Files a scenario names instead of carrying (src/attach.rs): workload logs of any size. A worker
// that hosts an engine reads each chosen file once, as a stream, chunk by chunk through the
// engine's SWF reader (memory follows the jobs kept, not the file), and attaches it under its
// name; the page sends the files with every run or study: [{name, file}] for a workload log,
// [{name, files}] for a trace (its rank files in rank order).

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
 * Streams a time-independent trace's rank files (`files`, in rank order: an SMPI index's order)
 * through `new TraceAttach(name)` and attaches it; returns {name, digest, files, ranks, events}.
 * A bad line throws {path: name, message} naming the file and line.
 */
export async function readTrace(TraceAttach, name, files) {
  const reader = new TraceAttach(name);
  try {
    for (const file of files) {
      reader.begin(file.name);
      const stream = file.stream().getReader();
      for (;;) {
        const { done, value } = await stream.read();
        if (done) break;
        reader.push(value);
      }
      reader.end();
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
export function createAttacher({ SwfAttach, TraceAttach }) {
  const attached = new Map(); // name → the files' `size:lastModified`
  return async (attachments = [], onReading = () => {}) => {
    for (const { name, file, files } of attachments) {
      const key = (files ?? [file]).map((f) => `${f.size}:${f.lastModified}`).join(',');
      if (attached.get(name) === key) continue;
      onReading(name);
      if (files) await readTrace(TraceAttach, name, files);
      else await readSwf(SwfAttach, name, file);
      attached.set(name, key);
    }
  };
}
