// The built folder (dist/, what GitHub Pages publishes) works as any static host serves it: from a
// sub-path (/placelab/), with relative paths only, nothing fetched from another origin, and content
// hashes in the names of the scripts, the stylesheet and the wasm (a new release never mixes with a
// cached old one).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { useBrowser, waitSettled } from '../lib/harness.mjs';
import { DIST, WWW, REPO, manifest } from '../lib/server.mjs';

const SITE = process.env.PLACELAB_SITE || DIST;
const HASHED = /\.([0-9a-f]{10})\.(js|css|wasm)$/;
const sha = (file) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex').slice(0, 10);

function filesUnder(dir, rel = '') {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((d) => {
    const r = path.posix.join(rel, d.name);
    return d.isDirectory() ? filesUnder(dir, r) : [r];
  });
}

describe('hosting', () => {
  const env = useBrowser();

  it('runs from the /placelab/ sub-path, requesting nothing outside it or from another origin', async () => {
    const page = await env.page();
    const urls = [];
    page.context().on('request', (r) => urls.push(r.url()));
    await page.goto(env.url);
    await page.waitForFunction(() => window.placelab);
    await page.evaluate(() => window.placelab.ready);
    assert.equal(await waitSettled(page), 'done');
    assert.ok(await page.evaluate(() => document.querySelectorAll('[data-testid=canvas]').length) > 0, 'drawn');
    const outside = urls.filter((u) => !u.startsWith(env.url) && !/^(data|blob):/.test(u));
    assert.deepEqual(outside, [], 'requests outside the page\'s folder');
    assert.deepEqual(env.server.requests.filter((p) => !p.startsWith(env.server.base)), []);
    assert.ok(urls.some((u) => u.endsWith('.wasm')), 'the wasm was requested');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  it('names every script, stylesheet and wasm it loads by a hash of its bytes', async () => {
    const page = await env.page();
    const urls = [];
    page.context().on('request', (r) => urls.push(r.url()));
    await page.goto(env.url);
    await page.waitForFunction(() => window.placelab);
    await page.evaluate(() => window.placelab.ready);
    await waitSettled(page);
    const assets = urls.filter((u) => /\.(js|css|wasm)$/.test(new URL(u).pathname));
    assert.ok(assets.length >= 5, `${assets.length} assets`);
    for (const u of assets) {
      const rel = new URL(u).pathname.slice(env.server.base.length);
      const m = rel.match(HASHED);
      assert.ok(m, `${rel} has no content hash in its name`);
      assert.equal(m[1], sha(path.join(SITE, rel)), `${rel}: the name's hash is not the hash of its bytes`);
    }
    await page.context().close();
  });

  it('is one folder: only index.html, the examples and the manifest keep plain names', () => {
    const files = filesUnder(SITE);
    const plain = files.filter((f) => !HASHED.test(f));
    assert.deepEqual(plain.filter((f) => !['index.html', 'manifest.json', '.nojekyll'].includes(f) && !f.startsWith('examples/')), []);
    const names = manifest(SITE);
    for (const [src, built] of Object.entries(names)) {
      assert.ok(files.includes(built), `${src} → ${built} is missing`);
      assert.equal(built.match(HASHED)?.[1], sha(path.join(SITE, built)), built);
    }
    const html = fs.readFileSync(path.join(SITE, 'index.html'), 'utf8');
    for (const [, ref] of html.matchAll(/(?:src|href)="([^"]+)"/g)) {
      assert.ok(!/^(\/|[a-z]+:\/\/)/i.test(ref), `index.html refers to ${ref}: not relative`);
    }
  });

  it('a change to one module renames it and every module that imports it, and nothing else', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'placelab-dist-'));
    try {
      const src = path.join(tmp, 'www');
      fs.cpSync(WWW, src, { recursive: true });
      const build = (out) => {
        execFileSync('python3', [path.join(REPO, 'scripts', 'dist.py'), src, path.join(tmp, out)], { stdio: 'pipe' });
        return manifest(path.join(tmp, out));
      };
      const before = build('a');
      fs.appendFileSync(path.join(src, 'draw', 'common.js'), '\n// a new release\n');
      const after = build('b');
      const changed = Object.keys(before).filter((k) => before[k] !== after[k]).sort();
      // draw/common.js and its importers, up to the entry (main.js) and the worker's bundle of views.
      for (const k of ['draw/common.js', 'draw/allocation.js', 'engines/allocation.js', 'engines/index.js', 'main.js']) {
        assert.ok(changed.includes(k), `${k} kept its name after draw/common.js changed`);
      }
      for (const k of ['pkg/placelab_bg.wasm', 'pkg/placelab.js', 'dom.js', 'style.css']) {
        assert.ok(!changed.includes(k), `${k} was renamed although it did not change`);
      }
      const html = (d) => fs.readFileSync(path.join(tmp, d, 'index.html'), 'utf8');
      assert.notEqual(html('a'), html('b'), 'index.html points to the new entry');
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
