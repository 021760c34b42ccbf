//! 2D mesh `k1 x k2` (width x height) without wraparound; every compute node hangs off its own
//! router; routing is deterministic dimension-order: first along X on the source's row, then along
//! Y on the destination's column.
//!
//! Numbering: node and router `i = y * width + x`. Links: horizontal `(x,y)-(x+1,y)` has id
//! `y * (width - 1) + x`; vertical `(x,y)-(x,y+1)` has id `height * (width - 1) + y * width + x`.
//!
//! Theorem 2 (Zhang & Lin): a rectangle is closed under XY routing: every route between two of its
//! nodes stays inside it. Conversely a set holding `(xa, ya)` and `(xb, yb)` needs the corner
//! `(xb, ya)` for the route a→b and `(xa, yb)` for b→a, so the closed sets are exactly rectangles
//! (checked by brute force in the tests).

/// A 2D mesh.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mesh {
    pub width: usize,
    pub height: usize,
}

impl Mesh {
    pub fn new(width: usize, height: usize) -> Self {
        Mesh { width, height }
    }
    pub fn nodes(&self) -> usize {
        self.width * self.height
    }
    pub fn links(&self) -> usize {
        self.height * (self.width - 1) + (self.height - 1) * self.width
    }
    #[inline]
    pub fn xy(&self, i: usize) -> (usize, usize) {
        (i % self.width, i / self.width)
    }
    #[inline]
    pub fn id(&self, x: usize, y: usize) -> usize {
        y * self.width + x
    }
    /// Id of the horizontal link between `(x, y)` and `(x + 1, y)`.
    #[inline]
    pub fn hlink(&self, x: usize, y: usize) -> usize {
        y * (self.width - 1) + x
    }
    /// Id of the vertical link between `(x, y)` and `(x, y + 1)`.
    #[inline]
    pub fn vlink(&self, x: usize, y: usize) -> usize {
        self.height * (self.width - 1) + y * self.width + x
    }
    /// Manhattan distance, which is the XY route's hop count.
    #[inline]
    pub fn hops(&self, a: usize, b: usize) -> usize {
        let (xa, ya) = self.xy(a);
        let (xb, yb) = self.xy(b);
        xa.abs_diff(xb) + ya.abs_diff(yb)
    }

    /// Appends the routers (source and destination included) and links of the XY route a→b.
    pub fn route(&self, a: usize, b: usize, routers: &mut Vec<u32>, links: &mut Vec<u32>) {
        let (mut x, y0) = self.xy(a);
        let (xb, yb) = self.xy(b);
        routers.push(a as u32);
        while x != xb {
            let nx = if xb > x { x + 1 } else { x - 1 };
            links.push(self.hlink(x.min(nx), y0) as u32);
            x = nx;
            routers.push(self.id(x, y0) as u32);
        }
        let mut y = y0;
        while y != yb {
            let ny = if yb > y { y + 1 } else { y - 1 };
            links.push(self.vlink(x, y.min(ny)) as u32);
            y = ny;
            routers.push(self.id(x, y) as u32);
        }
    }

    /// Routers and links used by the routes between every ordered pair of `nodes`, without
    /// enumerating the pairs, in time proportional to the result (not to the bounding box). An
    /// XY route runs along its source's row, then its destination's column, and each leg starts
    /// inside the nodes' bounding box; so a row holding a node is covered from the leftmost to
    /// the rightmost column, a column holding a node from the lowest to the highest row, and
    /// nothing else. Sorted, no duplicates. Equal to the union of [`Mesh::route`] over all pairs
    /// (tested).
    pub fn all_pairs_footprint(&self, nodes: &[u32]) -> (Vec<u32>, Vec<u32>) {
        if nodes.len() < 2 {
            return (Vec::new(), Vec::new());
        }
        let (mut minx, mut maxx, mut miny, mut maxy) = (usize::MAX, 0, usize::MAX, 0);
        let mut rows = vec![false; self.height];
        let mut cols = vec![false; self.width];
        for &n in nodes {
            let (x, y) = self.xy(n as usize);
            minx = minx.min(x);
            maxx = maxx.max(x);
            miny = miny.min(y);
            maxy = maxy.max(y);
            rows[y] = true;
            cols[x] = true;
        }
        let xs: Vec<usize> = (minx..=maxx).filter(|&x| cols[x]).collect();
        let mut routers = Vec::new();
        for (y, &full) in rows.iter().enumerate().take(maxy + 1).skip(miny) {
            if full {
                routers.extend((minx..=maxx).map(|x| self.id(x, y) as u32));
            } else {
                routers.extend(xs.iter().map(|&x| self.id(x, y) as u32));
            }
        }
        // horizontal links (all numbered before the vertical ones), then vertical, each row-major
        let mut links = Vec::new();
        for (y, &full) in rows.iter().enumerate().take(maxy + 1).skip(miny) {
            if full {
                links.extend((minx..maxx).map(|x| self.hlink(x, y) as u32));
            }
        }
        for y in miny..maxy {
            links.extend(xs.iter().map(|&x| self.vlink(x, y) as u32));
        }
        (routers, links)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn route_length_is_manhattan_distance() {
        let m = Mesh::new(5, 4);
        for a in 0..m.nodes() {
            for b in 0..m.nodes() {
                let (mut r, mut l) = (Vec::new(), Vec::new());
                m.route(a, b, &mut r, &mut l);
                assert_eq!(l.len(), m.hops(a, b));
                assert_eq!(r.len(), m.hops(a, b) + 1);
                assert!(l.iter().all(|&id| (id as usize) < m.links()));
            }
        }
    }

    #[test]
    fn link_ids_are_a_bijection() {
        let m = Mesh::new(4, 3);
        let mut seen = vec![false; m.links()];
        for y in 0..m.height {
            for x in 0..m.width {
                if x + 1 < m.width {
                    assert!(!std::mem::replace(&mut seen[m.hlink(x, y)], true));
                }
                if y + 1 < m.height {
                    assert!(!std::mem::replace(&mut seen[m.vlink(x, y)], true));
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    /// Theorem 2 and its converse, by brute force over every node set of a 3x3 mesh and every
    /// set of up to 4 nodes of a 4x3 mesh: a set is closed iff it is a rectangle.
    #[test]
    fn closed_sets_are_exactly_rectangles() {
        fn check(m: Mesh, max_size: u32) {
            let n = m.nodes();
            for mask in 1u32..(1 << n) {
                if mask.count_ones() > max_size {
                    continue;
                }
                let nodes: Vec<usize> = (0..n).filter(|&i| mask >> i & 1 == 1).collect();
                let mut closed = true;
                'pairs: for &a in &nodes {
                    for &b in &nodes {
                        let (mut r, mut l) = (Vec::new(), Vec::new());
                        m.route(a, b, &mut r, &mut l);
                        if r.iter().any(|&x| mask >> x & 1 == 0) {
                            closed = false;
                            break 'pairs;
                        }
                    }
                }
                let xs = nodes.iter().map(|&i| m.xy(i).0);
                let ys = nodes.iter().map(|&i| m.xy(i).1);
                let (x0, x1) = (xs.clone().min().unwrap(), xs.max().unwrap());
                let (y0, y1) = (ys.clone().min().unwrap(), ys.max().unwrap());
                let rect = nodes.len() == (x1 - x0 + 1) * (y1 - y0 + 1);
                assert_eq!(closed, rect, "set {nodes:?}");
            }
        }
        check(Mesh::new(3, 3), 9);
        check(Mesh::new(4, 3), 4);
    }

    #[test]
    fn footprint_equals_union_of_routes() {
        let m = Mesh::new(6, 5);
        let mut state = 12345u64;
        for _ in 0..300 {
            let mut nodes = Vec::new();
            for i in 0..m.nodes() {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                if (state >> 33) % 5 == 0 {
                    nodes.push(i as u32);
                }
            }
            let (mut r, mut l) = (Vec::new(), Vec::new());
            for &a in &nodes {
                for &b in &nodes {
                    if a != b {
                        m.route(a as usize, b as usize, &mut r, &mut l);
                    }
                }
            }
            r.sort_unstable();
            r.dedup();
            l.sort_unstable();
            l.dedup();
            if nodes.len() < 2 {
                continue;
            }
            assert_eq!(m.all_pairs_footprint(&nodes), (r, l));
        }
    }
}
