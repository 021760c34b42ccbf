// Downloads: the drawing as PNG; the report as JSON and the tables as CSV arrive as Blobs from the
// workers (the JSON file is byte for byte what `placelab run` prints: the report and one newline).
import { composeCanvases } from './draw/common.js';

export function safeFileName(name, fallback = 'placelab') {
  const s = String(name || '').normalize('NFKD').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60);
  return s || fallback;
}

function download(blob, fileName) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

export async function exportPng(canvasRows, baseName) {
  const canvas = composeCanvases(canvasRows);
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('the drawing could not be encoded as PNG');
  download(blob, `${baseName}.png`);
}

/** Downloads a Blob made by a worker (report JSON, CSV) under `fileName`. */
export function exportBlob(blob, fileName) {
  download(blob, fileName);
}
