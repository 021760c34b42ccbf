// A tiny static server (no dependencies) for the built page, dist/, mounted under a sub-path as
// GitHub Pages serves a project site (`/placelab/`): the page must work from any folder. Correct
// MIME types, including application/wasm, so WebAssembly.instantiateStreaming works. Listens on
// 127.0.0.1, port 0 (any free port); every requested path is recorded.
import http from 'node:http';
import fs from 'node:fs/promises';
import fsSync from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const WWW = path.join(REPO, 'www');
export const DIST = path.join(REPO, 'dist');
/** The sub-path the page is served from, as on GitHub Pages (https://<owner>.github.io/placelab/). */
export const BASE = '/placelab/';

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

/** dist/manifest.json: source path (e.g. `draw/common.js`) → hashed path in dist/. */
export function manifest(root = DIST) {
  const file = path.join(root, 'manifest.json');
  if (!fsSync.existsSync(file)) throw new Error(`${file} is missing: run scripts/build.sh`);
  return JSON.parse(fsSync.readFileSync(file, 'utf8'));
}

/**
 * Starts a server over `roots` (the first root holding a path wins), mounted at `base`: a path
 * outside `base` is 404, and `base` without its trailing slash redirects to it, as static hosts do.
 * Returns {url, base, close(), requests: [paths]}.
 */
export async function startServer({ roots = [DIST], base = BASE } = {}) {
  const requests = [];
  const server = http.createServer(async (req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    requests.push(urlPath);
    if (urlPath === base.replace(/\/$/, '') && base !== '/') {
      res.writeHead(301, { Location: base });
      res.end();
      return;
    }
    if (!urlPath.startsWith(base)) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end(`not found: ${urlPath} is outside ${base}`);
      return;
    }
    const rel = path.normalize(urlPath.slice(base.length)).replace(/^([/\\])+/, '');
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
    url: `http://127.0.0.1:${port}${base}`,
    origin: `http://127.0.0.1:${port}`,
    base,
    requests,
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve); }),
  };
}
