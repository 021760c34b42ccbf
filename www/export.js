// Downloads: the drawing as PNG, the report as JSON (the exact text the engine returned), tables as CSV.
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

export function exportJson(reportText, baseName) {
  download(new Blob([reportText], { type: 'application/json' }), `${baseName}.report.json`);
}

export function exportCsv(text, baseName, part) {
  download(new Blob([text], { type: 'text/csv' }), `${baseName}.${part}.csv`);
}
