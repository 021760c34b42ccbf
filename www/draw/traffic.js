// How many running jobs cross each router and link: the contention heat map's numbers.
// The report lists which routers and links are contended (crossed by two or more running jobs) and,
// per job, how many routers and links its traffic uses; the routes themselves follow the rules of
// docs/format.md (mesh: XY routing; tree: up to the lowest common ancestor and down), so they are
// recomputed here from each job's nodes. A job's traffic pattern (`comm`) is not in the report: it
// is recognised by its counts. `neighbor` routes are a subset of the all-pairs routes, so when the
// all-pairs footprint has the job's counts it is the job's footprint whatever its pattern.

/**
 * A job's traffic footprint: {routers: [ids], links: [ids]} (may repeat ids), or null when no
 * pattern gives the report's counts (then the caller falls back to the report's contended lists).
 * `job`: {nodes: Uint32Array|number[] (sorted node ids), tasks, routers, links} (counts may be
 * undefined when the page holds only a summary of the job: all-pairs is assumed).
 */
export function jobFootprint(topo, job) {
  const all = allPairs(topo, job.nodes);
  if (job.routers === undefined || job.links === undefined) return all;
  if (count(all.routers) === job.routers && count(all.links) === job.links) return all;
  if (job.routers === 0 && job.links === 0) return { routers: [], links: [] };
  const nb = neighbor(topo, job.nodes, job.tasks, topo.coresPerNode || 1);
  if (count(nb.routers) === job.routers && count(nb.links) === job.links) return nb;
  return null;
}

const count = (ids) => new Set(ids).size;

/**
 * Per router and per link, the number of jobs in `jobs` whose traffic crosses it.
 * Returns {routers: Uint16Array, links: Uint16Array, unknown: number of jobs without a footprint}.
 */
export function trafficHeat(topo, jobs) {
  const routers = new Uint16Array(topo.routers), links = new Uint16Array(topo.links);
  const seenR = new Int32Array(topo.routers).fill(-1), seenL = new Int32Array(topo.links).fill(-1);
  let unknown = 0;
  jobs.forEach((job, j) => {
    const f = jobFootprint(topo, job);
    if (!f) { unknown++; return; }
    for (const r of f.routers) if (seenR[r] !== j) { seenR[r] = j; if (routers[r] < 65535) routers[r]++; }
    for (const l of f.links) if (seenL[l] !== j) { seenL[l] = j; if (links[l] < 65535) links[l]++; }
  });
  return { routers, links, unknown };
}

// ---- mesh ---------------------------------------------------------------------------------------
const hlink = (W, x, y) => y * (W - 1) + x;
const vlink = (W, H, x, y) => H * (W - 1) + y * W + x;

/** Union of the XY routes between every pair: on each row holding a node the span [min x, max x],
 *  on each column holding a node the span [min y, max y]. */
function meshAllPairs(topo, nodes) {
  const W = topo.width, H = topo.height, routers = [], links = [];
  if (nodes.length < 2) return { routers, links };
  let x0 = W, x1 = -1, y0 = H, y1 = -1;
  const rows = new Set(), cols = new Set();
  for (const n of nodes) {
    const x = n % W, y = (n - x) / W;
    x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
    rows.add(y); cols.add(x);
  }
  for (const y of rows) {
    for (let x = x0; x <= x1; x++) { routers.push(y * W + x); if (x < x1) links.push(hlink(W, x, y)); }
  }
  for (const x of cols) {
    for (let y = y0; y <= y1; y++) { routers.push(y * W + x); if (y < y1) links.push(vlink(W, H, x, y)); }
  }
  return { routers, links };
}

function meshRoute(topo, a, b, routers, links) {
  const W = topo.width, H = topo.height;
  let x = a % W;
  const y0 = (a - x) / W, xb = b % W, yb = (b - xb) / W;
  routers.push(a);
  while (x !== xb) { const nx = xb > x ? x + 1 : x - 1; links.push(hlink(W, Math.min(x, nx), y0)); x = nx; routers.push(y0 * W + x); }
  let y = y0;
  while (y !== yb) { const ny = yb > y ? y + 1 : y - 1; links.push(vlink(W, H, x, Math.min(y, ny))); y = ny; routers.push(y * W + x); }
}

// ---- tree ---------------------------------------------------------------------------------------
function treeShape(topo) {
  const L = topo.arities.length, sub = [], start = [0];
  for (let l = 0; l < L; l++) sub.push(topo.arities.slice(l).reduce((a, b) => a * b, 1));
  for (let l = 0; l < L; l++) start.push(start[l] + topo.levelSizes[l]);
  const ancestor = (leaf, l) => start[l] + Math.floor(leaf / sub[l]);
  const lca = (a, b) => { let l = L - 1; while (l > 0 && Math.floor(a / sub[l]) !== Math.floor(b / sub[l])) l--; return l; };
  return { L, ancestor, lca, leafLink: (i) => topo.routers - 1 + i };
}

function treeAllPairs(topo, nodes) {
  const routers = [], links = [];
  if (nodes.length < 2) return { routers, links };
  const t = treeShape(topo);
  let lo = Infinity, hi = -Infinity;
  for (const n of nodes) { lo = Math.min(lo, n); hi = Math.max(hi, n); }
  const top = t.lca(lo, hi);
  for (const n of nodes) {
    links.push(t.leafLink(n));
    for (let l = top; l < t.L; l++) { const u = t.ancestor(n, l); routers.push(u); if (l > top) links.push(u - 1); }
  }
  return { routers, links };
}

function treeRoute(topo, a, b, routers, links) {
  if (a === b) return;
  const t = treeShape(topo), top = t.lca(a, b);
  links.push(t.leafLink(a));
  for (let l = t.L - 1; l >= top; l--) { const u = t.ancestor(a, l); routers.push(u); if (l > top) links.push(u - 1); }
  for (let l = top + 1; l < t.L; l++) { const u = t.ancestor(b, l); routers.push(u); links.push(u - 1); }
  links.push(t.leafLink(b));
}

// ---- patterns -----------------------------------------------------------------------------------
function allPairs(topo, nodes) {
  return topo.kind === 'tree' ? treeAllPairs(topo, nodes) : meshAllPairs(topo, nodes);
}

/** Ranks `i <-> i+1` and `i <-> (i-1)/2`, ranks placed `cores` per node in node order. */
function neighbor(topo, nodes, tasks, cores) {
  const routers = [], links = [];
  if (!nodes.length) return { routers, links };
  const route = topo.kind === 'tree' ? treeRoute : meshRoute;
  const nodeOf = (rank) => nodes[Math.min(Math.floor(rank / cores), nodes.length - 1)];
  const seen = new Set();
  for (let r = 1; r < tasks; r++) {
    for (const other of [r - 1, Math.floor((r - 1) / 2)]) {
      const a = nodeOf(other), b = nodeOf(r);
      const key = Math.min(a, b) * 4294967296 + Math.max(a, b);
      if (a !== b && !seen.has(key)) {
        seen.add(key);
        route(topo, a, b, routers, links);
        route(topo, b, a, routers, links);
      }
    }
  }
  return { routers, links };
}
