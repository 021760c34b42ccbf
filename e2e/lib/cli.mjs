// The native CLI as the tests' oracle: `placelab run` of the release binary (built once per test
// file with `cargo build --release`; a no-op when it is up to date).
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import zlib from 'node:zlib';
import { REPO } from './server.mjs';

export const CLI = path.join(path.resolve(REPO, process.env.CARGO_TARGET_DIR || 'target'), 'release', 'placelab');

export function buildCli() {
  execFileSync('cargo', ['build', '--release', '--bin', 'placelab'], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'] });
}

/**
 * `placelab run -` on `text` (`args`: more arguments, e.g. `--attach LOG`): {stdout: Buffer} or
 * {error: 'path: message'} (stderr without its prefix).
 */
export function cli(text, args = []) {
  const r = spawnSync(CLI, ['run', '-', ...args], { input: text, maxBuffer: 1 << 30 });
  if (r.status === 0) return { stdout: r.stdout };
  return { error: r.stderr.toString().trim().replace(/^placelab: -: /, '') };
}

export const sha256 = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');

/** A v1 share link (`#v1.` + base64url(gzip(text))) made by node's zlib, independent of the page. */
export const link = (text) => `#v1.${Buffer.from(zlib.gzipSync(Buffer.from(text))).toString('base64url')}`;

/** The scenario text inside a v1 share URL. */
export const linkText = (url) => zlib.gunzipSync(Buffer.from(url.slice(url.indexOf('#v1.') + 4), 'base64url')).toString('utf8');
