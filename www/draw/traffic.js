// How many running jobs cross each router and link: the contention heat map's numbers.
// The report lists which routers and links are contended (crossed by two or more running jobs) and,
// per job, how many routers and links its traffic uses; the routes themselves follow the rules of
// docs/format.md (mesh: XY routing; tree: up to the lowest common ancestor and down), so they are
// recomputed here from each job's nodes. A job's traffic pattern (`comm`) is not in the report: it
// is recognised by its counts. `neighbor` routes are a subset of the all-pairs routes, so when the
// all-pairs footprint has the job's counts it is the job's footprint whatever its pattern.

/**
 * A job's traffic footprint (`approximate` when no pattern gives the report's counts: then the
 * all-pairs routes, a superset, and the report's contended lists decide what is shared). Either {spans} for all-pairs traffic on a mesh
 * (rows and columns holding the job's nodes and the spans they cover: O(rows + columns), whatever
 * the job's size) or {routers: [ids], links: [ids]} (ids may repeat).
 * `job`: {ranges: [[first, count], ...] (its nodes, ascending), tasks, routers, links} (counts may
 * be undefined when the page holds only part of the job: all-pairs is assumed).
 */
export function jobFootprint(topo, job) {
  const all = allPairs(topo, job.ranges);
  if (job.routers === undefined || job.links === undefined) return all;
  const c = counts(all);
  if (c.routers === job.routers && c.links === job.links) return all;
  if (job.routers === 0 && job.links === 0) return { routers: [], links: [] };
  const nb = neighbor(topo, nodesOf(job.ranges), job.tasks, topo.coresPerNode || 1);
  const d = counts(nb);
  if (d.routers === job.routers && d.links === job.links) return nb;
  // Unrecognised (e.g. `neighbor` ranks in an order the ranges do not keep): all-pairs routes hold
  // every route the job can use, so the job is still counted where it may be.
  return { ...all, approximate: true };
}

/** Distinct routers and links of a footprint. Mesh spans: every row span and every column span,
 *  less the routers where a job row crosses a job column (in both). */
function counts(f) {
  if (f.spans) {
    const { rows, cols, x0, x1, y0, y1 } = f.spans;
    if (!rows.length) return { routers: 0, links: 0 };
    return {
      routers: rows.length * (x1 - x0 + 1) + cols.length * (y1 - y0 + 1) - rows.length * cols.length,
      links: rows.length * (x1 - x0) + cols.length * (y1 - y0),
    };
  }
  if (f.distinct) return { routers: f.routers.length, links: f.links.length };
  return { routers: new Set(f.routers).size, links: new Set(f.links).size };
}

/** Node ids of ascending [first, count] ranges. */
function nodesOf(ranges) {
  const out = [];
  for (const [first, n] of ranges) for (let v = first; v < first + n; v++) out.push(v);
  return out;
}

/**
 * Per router and per link, the number of jobs in `jobs` whose traffic crosses it.
 * Returns {routers: Uint16Array, links: Uint16Array, unknown: jobs counted on approximate routes}.
 * Mesh spans add through difference arrays (O(rows + columns) per job, plus one subtraction per
 * crossing of a job row and a job column); listed ids are counted once per job.
 */
export function trafficHeat(topo, jobs) {
  const nR = topo.routers, nL = topo.links;
  const routers = new Int32Array(nR), links = new Int32Array(nL);
  const W = topo.width, H = topo.height, mesh = topo.kind !== 'tree';
  // Difference arrays along rows (index y * (W + 1) + x) and along columns (x * (H + 1) + y).
  const rowR = mesh ? new Int32Array(H * (W + 1)) : null, colR = mesh ? new Int32Array(W * (H + 1)) : null;
  const rowL = mesh ? new Int32Array(H * (W + 1)) : null, colL = mesh ? new Int32Array(W * (H + 1)) : null;
  let seenR = null, seenL = null; // made on the first job with listed ids
  let unknown = 0;
  jobs.forEach((job, j) => {
    const f = jobFootprint(topo, job);
    if (f.approximate) unknown++;
    if (f.spans) {
      const { rows, cols, x0, x1, y0, y1 } = f.spans;
      for (const y of rows) {
        rowR[y * (W + 1) + x0]++; rowR[y * (W + 1) + x1 + 1]--;
        if (x1 > x0) { rowL[y * (W + 1) + x0]++; rowL[y * (W + 1) + x1]--; }
      }
      for (const x of cols) {
        colR[x * (H + 1) + y0]++; colR[x * (H + 1) + y1 + 1]--;
        if (y1 > y0) { colL[x * (H + 1) + y0]++; colL[x * (H + 1) + y1]--; }
      }
      for (const y of rows) for (const x of cols) routers[y * W + x]--;
      return;
    }
    if (!seenR) { seenR = new Int32Array(nR).fill(-1); seenL = new Int32Array(nL).fill(-1); }
    for (const r of f.routers) if (seenR[r] !== j) { seenR[r] = j; routers[r]++; }
    for (const l of f.links) if (seenL[l] !== j) { seenL[l] = j; links[l]++; }
  });
  if (mesh) {
    const hLinks = H * (W - 1);
    for (let y = 0; y < H; y++) {
      let r = 0, l = 0;
      for (let x = 0; x < W; x++) {
        r += rowR[y * (W + 1) + x]; l += rowL[y * (W + 1) + x];
        routers[y * W + x] += r;
        if (x < W - 1) links[hlink(W, x, y)] += l;
      }
    }
    for (let x = 0; x < W; x++) {
      let r = 0, l = 0;
      for (let y = 0; y < H; y++) {
        r += colR[x * (H + 1) + y]; l += colL[x * (H + 1) + y];
        routers[y * W + x] += r;
        if (y < H - 1) links[hLinks + y * W + x] += l;
      }
    }
  }
  const clamp = (a) => {
    const out = new Uint16Array(a.length);
    for (let i = 0; i < a.length; i++) out[i] = a[i] > 65535 ? 65535 : a[i] < 0 ? 0 : a[i];
    return out;
  };
  return { routers: clamp(routers), links: clamp(links), unknown };
}

// ---- mesh ---------------------------------------------------------------------------------------
const hlink = (W, x, y) => y * (W - 1) + x;
const vlink = (W, H, x, y) => H * (W - 1) + y * W + x;

/** The XY routes between every pair, as spans: on each row holding a node the span [x0, x1], on
 *  each column holding a node the span [y0, y1] (x0..x1, y0..y1: the job's bounding box).
 *  Read from the node ranges: O(ranges + rows + columns), not O(nodes). */
function meshAllPairs(topo, ranges) {
  const W = topo.width;
  const rows = [], cols = [];
  let total = 0;
  for (const r of ranges) total += r[1];
  if (total < 2) return { spans: { rows, cols, x0: 0, x1: 0, y0: 0, y1: 0 } };
  const mark = new Uint8Array(W);
  let all = false;
  const markCols = (a, b) => { for (let x = a; x <= b; x++) mark[x] = 1; };
  for (const [f, n] of ranges) {
    if (!n) continue;
    const yA = Math.floor(f / W), yB = Math.floor((f + n - 1) / W);
    for (let y = yA; y <= yB; y++) if (rows[rows.length - 1] !== y) rows.push(y);
    if (all) continue;
    const a = f % W, b = (f + n - 1) % W;
    if (n >= W || yB > yA + 1) all = true;
    else if (yA === yB) markCols(a, b);
    else { markCols(a, W - 1); markCols(0, b); }
  }
  for (let x = 0; x < W; x++) if (all || mark[x]) cols.push(x);
  return { spans: { rows, cols, x0: cols[0], x1: cols[cols.length - 1], y0: rows[0], y1: rows[rows.length - 1] } };
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
  const L = topo.levelSizes.length, start = [0];
  for (let l = 0; l < L; l++) start.push(start[l] + topo.levelSizes[l]);
  const leafLink = (i) => topo.routers - 1 + i;
  if (topo.switches) {
    // an imported (irregular) tree: parents and leaf ranges per router, every leaf at depth L
    const sw = topo.switches, leafSwitch = new Int32Array(topo.nodes);
    for (let u = start[L - 1]; u < topo.routers; u++) {
      for (let v = sw[u].firstNode; v < sw[u].firstNode + sw[u].nodeCount; v++) leafSwitch[v] = u;
    }
    const ancestor = (leaf, l) => { let u = leafSwitch[leaf]; for (let k = L - 1; k > l; k--) u = sw[u].parent; return u; };
    const lca = (a, b) => {
      let u = leafSwitch[a], w = leafSwitch[b], l = L - 1;
      while (u !== w && l > 0) { u = sw[u].parent; w = sw[w].parent; l--; }
      return l;
    };
    const range = (u) => [sw[u].firstNode, sw[u].nodeCount];
    return { L, ancestor, lca, leafLink, range };
  }
  const sub = [];
  for (let l = 0; l < L; l++) sub.push(topo.arities.slice(l).reduce((a, b) => a * b, 1));
  const ancestor = (leaf, l) => start[l] + Math.floor(leaf / sub[l]);
  const lca = (a, b) => { let l = L - 1; while (l > 0 && Math.floor(a / sub[l]) !== Math.floor(b / sub[l])) l--; return l; };
  const range = (u) => { let l = L - 1; while (l > 0 && start[l] > u) l--; return [(u - start[l]) * sub[l], sub[l]]; };
  return { L, ancestor, lca, leafLink, range };
}

/** Every ancestor of the job's leaves up to their lowest common switch, the links below those
 *  and each leaf's link: listed once each, read level by level from the ranges. */
function treeAllPairs(topo, ranges) {
  const routers = [], links = [];
  let total = 0;
  for (const r of ranges) total += r[1];
  if (total < 2) return { routers, links, distinct: true };
  const t = treeShape(topo);
  const lo = ranges[0][0], last = ranges[ranges.length - 1], hi = last[0] + last[1] - 1;
  const top = t.lca(lo, hi);
  for (const [f, n] of ranges) for (let v = f; v < f + n; v++) links.push(t.leafLink(v));
  for (let l = top; l < t.L; l++) {
    let prev = -1;
    for (const [f, n] of ranges) {
      if (!n) continue;
      for (let u = Math.max(t.ancestor(f, l), prev + 1); u <= t.ancestor(f + n - 1, l); u++) {
        routers.push(u);
        if (l > top) links.push(u - 1);
        prev = u;
      }
    }
  }
  return { routers, links, distinct: true };
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
function allPairs(topo, ranges) {
  return topo.kind === 'tree' ? treeAllPairs(topo, ranges) : meshAllPairs(topo, ranges);
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

/**
 * The nodes job `job` holds but leaves idle, which the report gives only as a count: a closed job's
 * region is the smallest closed region around its nodes (mesh: their bounding rectangle; tree: the
 * leaves under their lowest common switch), so when that region has exactly `ownedIdle` nodes
 * besides the job's own, those are its reserved nodes (the ones no job uses: `owner[v] < 0`).
 * Otherwise (not closed, or none reserved): [].
 */
export function reservedNodes(topo, ranges, ownedIdle, owner, job) {
  if (!ownedIdle || !ranges.length) return [];
  let total = 0;
  for (const r of ranges) total += r[1];
  const out = [];
  if (topo.kind === 'tree') {
    const t = treeShape(topo);
    const lo = ranges[0][0], last = ranges[ranges.length - 1], hi = last[0] + last[1] - 1;
    const l = t.lca(lo, hi);
    const [first, size] = t.range(t.ancestor(lo, l));
    if (size - total !== ownedIdle) return [];
    for (let v = first; v < first + size; v++) if (owner[v] < 0) out.push(v);
    return out;
  }
  const W = topo.width;
  const { spans } = meshAllPairs(topo, total < 2 ? [[ranges[0][0], 1], [ranges[0][0], 1]] : ranges);
  const { x0, x1, y0, y1 } = spans;
  if ((x1 - x0 + 1) * (y1 - y0 + 1) - total !== ownedIdle) return [];
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) if (owner[y * W + x] < 0) out.push(y * W + x);
  return out;
}
