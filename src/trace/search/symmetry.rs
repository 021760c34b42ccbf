//! Identical ranks: permutations of the ranks that leave the compiled trace unchanged
//! (its automorphisms), found among a few families, and the reduction they give the searches.
//!
//! # Theorem
//! Let `g` be a permutation of the ranks such that, for every rank `x`, the operations on the
//! clock of rank `g(x)` in program order (computes, posts, waits, sleeps, blocking sends and
//! receives) are those of `x` with every peer `y` renamed `g(y)`, the message side completing
//! `g(x)`'s `k`-th request is that of `x`'s `k`-th renamed likewise (same computation, bytes,
//! protocol, link weights and request numbers, bit for bit), and `g(x)`'s last computation is
//! `x`'s. Then for every assignment `a`, the assignment `a ∘ g` (rank `x` on the node of
//! `g(x)`) has a predicted time equal to `a`'s, to the last bit.
//!
//! Proof: the replay is a recurrence over a graph whose vertices are the ranks' operations and
//! requests and whose edges join each to its rank's previous operation and the two sides of a
//! message (the `k`-th send from `s` to `d` with the `k`-th receive of `d` from `s`, first in
//! first out, a non-blocking side at its post). The condition makes `g` an isomorphism of that
//! graph that keeps every vertex's numbers (the `k`-th send from `s` to `d` is the `k`-th from
//! `g(s)` to `g(d)`, since the prefixes of the two ranks' sequences correspond), and the node
//! pair of a message under `a ∘ g` is the node pair of its image under `a`. So each vertex's
//! time is computed by the same operations on the same numbers, whatever order the compiled
//! trace lists the transfers in, and the time, the largest rank clock, is the same.
//!
//! The permutations meeting the condition form a group `G`. Checking all `R!` is out of
//! reach; [`detect`] checks the families SPMD programs have: cyclic shifts `x -> x + d mod R`
//! (a ring, a periodic 1D decomposition), shifts inside blocks of `b` consecutive ranks (the
//! other axis of a periodic 2D grid in row-major order), reflections `x -> R - 1 - x` (also
//! inside blocks), and `x -> x xor m` for `R` a power of two (recursive doubling, butterfly
//! exchanges). Those that hold generate a subgroup of `G`.
//!
//! # The reduction
//! Take the orbit `O` of a *pivot* rank `p` under the found group (every rank some element
//! maps `p` to), the largest orbit, `p` its first rank in search order. Among the assignments
//! equivalent to `a` there is one where `p`'s node has the least class ([`super::classes`])
//! of all nodes the ranks of `O` use: if `r` in `O` is on such a node, some `g` maps `p` to
//! `r`, and `a ∘ g` puts `p` there and every other rank of `O` on a node of `a`'s for `O`.
//! Renaming identical nodes ([`super::representative`]) keeps every rank's class, so the
//! condition *class(node(p)) <= class(node(r)) for every r in O* ([`RankSymmetry::allows`])
//! keeps, in every class of equivalent assignments, at least one representative: the searches
//! keep their answers and proofs while looking at about `1/|O|` of the assignments when the
//! nodes are all different. The ranking lists only assignments meeting the condition.
//!
//! # Complexity
//! `O(I + R)` to index the operations of `I` instructions by rank, then `O(I)` per family
//! member checked (at most `3 d(R) + log R` of them for `d(R)` divisors, most rejected at
//! their first differing operation); memory at most 8 bytes a message and 4 a request or other
//! instruction, plus a request's side (48 bytes).

use super::FREE;
use crate::trace::replay::{Compiled, Ins, NONE};

/// Traces with more instructions than this are not checked for identical ranks (module doc,
/// Complexity: the index would take more than about 32 MiB).
pub const MAX_CHECKED_INSTRUCTIONS: usize = 1 << 22;

/// A permutation family member found to be an automorphism.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Generator {
    /// `x -> x + d mod R`.
    Shift(u32),
    /// `x -> x + 1 mod b` inside each block of `b` consecutive ranks.
    BlockShift(u32),
    /// `x -> R - 1 - x`.
    Reflect,
    /// `x -> b - 1 - x` inside each block of `b` consecutive ranks.
    BlockReflect(u32),
    /// `x -> x xor m`.
    Xor(u32),
}

impl Generator {
    /// The image of rank `x` among `r` ranks.
    pub fn apply(self, x: u32, r: u32) -> u32 {
        match self {
            Generator::Shift(d) => (x + d) % r,
            Generator::BlockShift(b) => x - x % b + (x % b + 1) % b,
            Generator::Reflect => r - 1 - x,
            Generator::BlockReflect(b) => x - x % b + (b - 1 - x % b),
            Generator::Xor(m) => x ^ m,
        }
    }

    /// How the report names it.
    pub fn name(self) -> String {
        match self {
            Generator::Shift(d) => format!("shift by {d}"),
            Generator::BlockShift(b) => format!("shift by 1 within blocks of {b}"),
            Generator::Reflect => "reflection".to_string(),
            Generator::BlockReflect(b) => format!("reflection within blocks of {b}"),
            Generator::Xor(m) => format!("xor {m}"),
        }
    }
}

/// The identical ranks found: generators, the pivot and its orbit.
#[derive(Debug, Clone, PartialEq)]
pub struct RankSymmetry {
    pub generators: Vec<Generator>,
    /// The rank whose node must have the least class among the orbit's.
    pub pivot: usize,
    /// The pivot's orbit, ascending (at least two ranks).
    pub orbit: Vec<u32>,
    /// Per rank, whether it is in the orbit.
    in_orbit: Vec<bool>,
    /// Per orbit rank `r` (by index in `orbit`): a permutation mapping the pivot to `r`.
    maps: Vec<Vec<u32>>,
}

impl RankSymmetry {
    /// Whether the partial assignment `assign` (unplaced ranks [`FREE`]) may be completed to
    /// one meeting the condition of the module doc: checked once the pivot is placed.
    pub fn allows(&self, assign: &[u8], class: &[u32]) -> bool {
        let p = assign[self.pivot];
        if p == FREE {
            return true;
        }
        let cp = class[p as usize];
        self.orbit.iter().all(|&r| {
            let u = assign[r as usize];
            u == FREE || class[u as usize] >= cp
        })
    }

    /// Whether placing rank `x` on node `u` keeps the partial assignment `assign` (which meets
    /// the condition; `x`'s own entry is ignored) meeting it.
    pub fn allows_placing(&self, assign: &[u8], class: &[u32], x: usize, u: usize) -> bool {
        if !self.in_orbit[x] {
            return true;
        }
        let cu = class[u];
        if x == self.pivot {
            return self.orbit.iter().all(|&r| {
                let v = assign[r as usize];
                r as usize == x || v == FREE || class[v as usize] >= cu
            });
        }
        let p = assign[self.pivot];
        p == FREE || cu >= class[p as usize]
    }

    /// An equivalent assignment meeting the condition: `a ∘ g` for the `g` mapping the pivot
    /// to the orbit's rank of least class (least index on ties).
    pub fn canonical(&self, assign: &[u8], class: &[u32]) -> Vec<u8> {
        let (mut best, mut at) = (u32::MAX, 0);
        for (i, &r) in self.orbit.iter().enumerate() {
            let c = class[assign[r as usize] as usize];
            if c < best {
                best = c;
                at = i;
            }
        }
        let g = &self.maps[at];
        (0..assign.len()).map(|x| assign[g[x] as usize]).collect()
    }
}

/// Per rank, the operations on its clock as (instruction, side) in program order, and its
/// request slots with the message side each one names.
struct Index {
    start: Vec<u32>,
    ops: Vec<u32>,
    /// Per request slot, its number among its rank's slots.
    slot_local: Vec<u32>,
    /// Per rank, its slots in order (`slot_start` delimits them in `slots`).
    slot_start: Vec<u32>,
    slots: Vec<u32>,
    /// Per slot, the message side that completes it (if any).
    slot_key: Vec<Option<Key>>,
}

/// One side of a message as its rank sees it, the peer as a rank number.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Side {
    recv: bool,
    peer: u32,
    c: u64,
    bytes: u64,
    eager: bool,
    slot: u32,
    w: [u64; 2],
}

/// One operation as a rank sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Key {
    Msg(Side),
    Post { c: u64, slot: u32 },
    Wait { c: u64, slot: u32 },
    Delay { c: u64, d: u64 },
}

/// The ranks whose clock instruction `ins` reads or writes (sides 0 and 1): a message side
/// of a non-blocking call works on its request slot instead, posted and waited for by the
/// rank's [`Ins::Post`] and [`Ins::Wait`].
fn clock_ranks(ins: &Ins) -> [u32; 2] {
    match *ins {
        Ins::Msg(it) => [
            if it.sq == NONE { it.src as u32 } else { NONE },
            if it.rq == NONE { it.dst as u32 } else { NONE },
        ],
        Ins::Post { x, .. } | Ins::Wait { x, .. } | Ins::Delay { x, .. } => [x as u32, NONE],
    }
}

fn index(c: &Compiled) -> Index {
    let r = c.ranks;
    let mut count = vec![0u32; r + 1];
    for i in 0..c.len_ins() {
        for x in clock_ranks(&c.ins(i)) {
            if x != NONE {
                count[x as usize + 1] += 1;
            }
        }
    }
    for x in 0..r {
        count[x + 1] += count[x];
    }
    let start = count.clone();
    let mut ops = vec![0u32; count[r] as usize];
    for i in 0..c.len_ins() {
        for (side, x) in clock_ranks(&c.ins(i)).into_iter().enumerate() {
            if x != NONE {
                ops[count[x as usize] as usize] = (i as u32) << 1 | side as u32;
                count[x as usize] += 1;
            }
        }
    }
    let ns = c.slot_info.len();
    let mut next = vec![0u32; r + 1];
    let slot_local: Vec<u32> = c
        .slot_info
        .iter()
        .map(|&(x, _, _)| {
            let k = next[x as usize];
            next[x as usize] += 1;
            k
        })
        .collect();
    let mut slot_start = vec![0u32; r + 1];
    for x in 0..r {
        slot_start[x + 1] = slot_start[x] + next[x];
    }
    let mut slots = vec![0u32; ns];
    for (q, &(x, _, _)) in c.slot_info.iter().enumerate() {
        slots[(slot_start[x as usize] + slot_local[q]) as usize] = q as u32;
    }
    let mut ix = Index {
        start,
        ops,
        slot_local,
        slot_start,
        slots,
        slot_key: vec![None; ns],
    };
    for i in 0..c.len_ins() {
        if let Ins::Msg(it) = c.ins(i) {
            if it.sq != NONE {
                ix.slot_key[it.sq as usize] = Some(key(c, &ix, (i as u32) << 1));
            }
            if it.rq != NONE {
                ix.slot_key[it.rq as usize] = Some(key(c, &ix, (i as u32) << 1 | 1));
            }
        }
    }
    ix
}

fn key(c: &Compiled, ix: &Index, op: u32) -> Key {
    let i = (op >> 1) as usize;
    let slot = |q: u32| {
        if q == NONE {
            NONE
        } else {
            ix.slot_local[q as usize]
        }
    };
    match c.ins(i) {
        Ins::Msg(it) => {
            let w = c.weight(i, it.bytes);
            let w = [w[0].to_bits(), w[1].to_bits()];
            let recv = op & 1 == 1;
            Key::Msg(Side {
                recv,
                peer: if recv { it.src } else { it.dst } as u32,
                c: if recv { it.cd } else { it.cs }.to_bits(),
                bytes: it.bytes.to_bits(),
                eager: it.eager,
                slot: slot(if recv { it.rq } else { it.sq }),
                w,
            })
        }
        Ins::Post { c: cc, slot: q, .. } => Key::Post {
            c: cc.to_bits(),
            slot: slot(q),
        },
        Ins::Wait { c: cc, slot: q, .. } => Key::Wait {
            c: cc.to_bits(),
            slot: slot(q),
        },
        Ins::Delay { c: cc, d, .. } => Key::Delay {
            c: cc.to_bits(),
            d: d.to_bits(),
        },
    }
}

/// `k` with its peer renamed by `g`.
fn renamed(k: Key, g: &[u32]) -> Key {
    match k {
        Key::Msg(side) => Key::Msg(Side {
            peer: g[side.peer as usize],
            ..side
        }),
        other => other,
    }
}

/// Whether the permutation `g` (rank `x` to `g[x]`) meets the theorem's condition.
fn holds(c: &Compiled, ix: &Index, g: &[u32]) -> bool {
    let r = c.ranks;
    for x in 0..r {
        let y = g[x] as usize;
        if c.tail[x].to_bits() != c.tail[y].to_bits() {
            return false;
        }
        let (a, b) = (ix.start[x] as usize, ix.start[x + 1] as usize);
        let (a2, b2) = (ix.start[y] as usize, ix.start[y + 1] as usize);
        let slots = |z: usize| ix.slot_start[z + 1] - ix.slot_start[z];
        if b - a != b2 - a2 || slots(x) != slots(y) {
            return false;
        }
    }
    for x in 0..r {
        // the requests' message sides, then the clock operations, `x`'s renamed against `g(x)`'s
        let (s, y) = (ix.slot_start[x] as usize, g[x] as usize);
        let requests = (s..ix.slot_start[x + 1] as usize).map(|k| {
            let q = ix.slot_start[y] as usize + k - s;
            (
                ix.slot_key[ix.slots[k] as usize],
                ix.slot_key[ix.slots[q] as usize],
            )
        });
        let (a, a2) = (ix.start[x] as usize, ix.start[y] as usize);
        let ops = (a..ix.start[x + 1] as usize).map(|k| {
            (
                Some(key(c, ix, ix.ops[k])),
                Some(key(c, ix, ix.ops[a2 + k - a])),
            )
        });
        for (mine, theirs) in requests.chain(ops) {
            if mine.map(|k| renamed(k, g)) != theirs {
                return false;
            }
        }
    }
    true
}

/// The family members [`detect`] checks for `r` ranks.
pub fn candidates(r: u32) -> Vec<Generator> {
    let mut out = Vec::new();
    let divisors: Vec<u32> = (1..r).filter(|d| r % d == 0).collect();
    out.extend(divisors.iter().map(|&d| Generator::Shift(d)));
    out.extend(
        divisors
            .iter()
            .filter(|&&b| b > 1)
            .map(|&b| Generator::BlockShift(b)),
    );
    out.push(Generator::Reflect);
    out.extend(
        divisors
            .iter()
            .filter(|&&b| b > 1)
            .map(|&b| Generator::BlockReflect(b)),
    );
    if r.is_power_of_two() {
        let mut m = 1;
        while m < r {
            out.push(Generator::Xor(m));
            m <<= 1;
        }
    }
    out
}

/// The identical ranks of `c` among the families of the module doc, given the search order of
/// the ranks; `None` when no member of them holds (or the trace has fewer than 2 ranks or more
/// than [`MAX_CHECKED_INSTRUCTIONS`] instructions).
pub fn detect(c: &Compiled, order: &[usize]) -> Option<RankSymmetry> {
    let r = c.ranks;
    if r < 2 || c.len_ins() > MAX_CHECKED_INSTRUCTIONS {
        return None;
    }
    let ix = index(c);
    let mut gens: Vec<Generator> = Vec::new();
    for g in candidates(r as u32) {
        // a shift by d holds when one by a divisor of d does, and xor R/2 is a shift by R/2
        let implied = |d: u32| {
            gens.iter()
                .any(|h| matches!(h, Generator::Shift(e) if d % e == 0))
        };
        match g {
            Generator::Shift(d) if implied(d) => continue,
            Generator::Xor(m) if 2 * m == r as u32 && implied(m) => continue,
            _ => {}
        }
        let perm: Vec<u32> = (0..r as u32).map(|x| g.apply(x, r as u32)).collect();
        if holds(c, &ix, &perm) {
            gens.push(g);
        }
    }
    if gens.is_empty() {
        return None;
    }
    // orbits, each rank reached with a permutation mapping the orbit's first rank to it
    let mut orbit_of = vec![u32::MAX; r];
    let mut best: Option<(usize, Vec<u32>)> = None;
    for &s in order {
        if orbit_of[s] != u32::MAX {
            continue;
        }
        orbit_of[s] = s as u32;
        let mut members = vec![s as u32];
        let mut i = 0;
        while i < members.len() {
            let x = members[i];
            i += 1;
            for g in &gens {
                let y = g.apply(x, r as u32);
                if orbit_of[y as usize] == u32::MAX {
                    orbit_of[y as usize] = s as u32;
                    members.push(y);
                }
            }
        }
        if members.len() > best.as_ref().map_or(1, |b| b.1.len()) {
            best = Some((s, members));
        }
    }
    let (pivot, members) = best?;
    // a permutation mapping the pivot to each member, composed along the search above
    let id: Vec<u32> = (0..r as u32).collect();
    let mut map_of: Vec<Option<Vec<u32>>> = vec![None; r];
    map_of[pivot] = Some(id);
    let mut queue = vec![pivot as u32];
    let mut i = 0;
    while i < queue.len() {
        let x = queue[i] as usize;
        i += 1;
        for g in &gens {
            let y = g.apply(x as u32, r as u32) as usize;
            if map_of[y].is_none() {
                let m = map_of[x].as_ref().expect("reached");
                map_of[y] = Some(m.iter().map(|&z| g.apply(z, r as u32)).collect());
                queue.push(y as u32);
            }
        }
    }
    let mut orbit = members;
    orbit.sort_unstable();
    let mut in_orbit = vec![false; r];
    for &x in &orbit {
        in_orbit[x as usize] = true;
    }
    let maps = orbit
        .iter()
        .map(|&x| map_of[x as usize].clone().expect("in the orbit"))
        .collect();
    Some(RankSymmetry {
        generators: gens,
        pivot,
        orbit,
        in_orbit,
        maps,
    })
}
