// A tiny static server for www/ (no dependencies): correct MIME types, including application/wasm,
// so WebAssembly.instantiateStreaming works. Listens on 127.0.0.1, port 0 (any free port).
import http from 'node:http';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const WWW = path.join(REPO, 'www');

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/**
 * Starts a server over `roots` (the first root holding a path wins).
 * Returns {url, close(), requests: [paths]}.
 */
export async function startServer({ roots = [WWW] } = {}) {
  const requests = [];
  const server = http.createServer(async (req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    requests.push(urlPath);
    const rel = path.normalize(urlPath).replace(/^([/\\])+/, '');
    for (const root of roots) {
      let file = path.join(root, rel);
      if (!file.startsWith(root)) break;
      try {
        let stat = await fs.stat(file);
        if (stat.isDirectory()) { file = path.join(file, 'index.html'); stat = await fs.stat(file); }
        const body = await fs.readFile(file);
        res.writeHead(200, {
          'Content-Type': MIME[path.extname(file)] || 'application/octet-stream',
          'Content-Length': body.length,
          'Cache-Control': 'no-store',
        });
        res.end(req.method === 'HEAD' ? undefined : body);
        return;
      } catch { /* try the next root */ }
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('not found');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve); }),
  };
}
