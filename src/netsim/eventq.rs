//! The engine's event queue: at most one pending event per flow (its activation while in
//! latency, its end while active), in an indexed 4-ary min-heap ordered by `(time, flow)`.
//!
//! Moving a flow's event (its rate changed) updates its entry in place, so the heap never
//! holds stale entries: its size is at most the number of running flows.
//!
//! # Complexity
//! `set`, `remove` and `pop` are `O(log n)` for `n` queued flows; `peek` is `O(1)`. Memory:
//! 12 bytes per queued flow plus 4 per flow template.

const ABSENT: u32 = u32::MAX;

/// Children per node: a 4-ary heap is half as deep as a binary one, and a node's children
/// share a cache line or two.
const ARITY: usize = 4;

/// Indexed min-heap of `(time, flow)`; times are non-negative finite f64 compared by bits.
#[derive(Clone, Default)]
pub(crate) struct EventQueue {
    /// Heap of (time bits, flow).
    heap: Vec<(u64, u32)>,
    /// Position of each flow in `heap`, `ABSENT` if not queued.
    pos: Vec<u32>,
}

impl EventQueue {
    /// Makes room for flow ids below `n`.
    pub fn grow(&mut self, n: usize) {
        if self.pos.len() < n {
            self.pos.resize(n, ABSENT);
        }
    }

    /// Empties the queue. `O(queued)`.
    pub fn clear(&mut self) {
        for &(_, f) in &self.heap {
            self.pos[f as usize] = ABSENT;
        }
        self.heap.clear();
    }

    /// Queues `f` at time `t` (>= 0), replacing its pending event if any.
    pub fn set(&mut self, f: u32, t: f64) {
        debug_assert!(t >= 0.0);
        let k = (t.to_bits(), f);
        let p = self.pos[f as usize];
        if p == ABSENT {
            self.heap.push(k);
            let i = self.heap.len() - 1;
            self.pos[f as usize] = i as u32;
            self.up(i);
        } else {
            let i = p as usize;
            let old = self.heap[i];
            self.heap[i] = k;
            if k < old {
                self.up(i);
            } else {
                self.down(i);
            }
        }
    }

    /// Removes `f`'s pending event, if any.
    pub fn remove(&mut self, f: u32) {
        let p = self.pos[f as usize];
        if p == ABSENT {
            return;
        }
        let i = p as usize;
        self.pos[f as usize] = ABSENT;
        let last = self.heap.pop().expect("queued");
        if i < self.heap.len() {
            let old = self.heap[i];
            self.heap[i] = last;
            self.pos[last.1 as usize] = i as u32;
            if last < old {
                self.up(i);
            } else {
                self.down(i);
            }
        }
    }

    /// `f`'s queued time, if any.
    #[inline]
    pub fn time_of(&self, f: u32) -> Option<f64> {
        let p = self.pos[f as usize];
        (p != ABSENT).then(|| f64::from_bits(self.heap[p as usize].0))
    }

    /// The earliest `(time, flow)`.
    pub fn peek(&self) -> Option<(f64, u32)> {
        self.heap.first().map(|&(t, f)| (f64::from_bits(t), f))
    }

    /// Removes and returns the earliest `(time, flow)`.
    pub fn pop(&mut self) -> Option<(f64, u32)> {
        let top = *self.heap.first()?;
        self.remove(top.1);
        Some((f64::from_bits(top.0), top.1))
    }

    fn up(&mut self, mut i: usize) {
        let k = self.heap[i];
        while i > 0 {
            let parent = (i - 1) / ARITY;
            let pk = self.heap[parent];
            if pk <= k {
                break;
            }
            self.heap[i] = pk;
            self.pos[pk.1 as usize] = i as u32;
            i = parent;
        }
        self.heap[i] = k;
        self.pos[k.1 as usize] = i as u32;
    }

    fn down(&mut self, mut i: usize) {
        let n = self.heap.len();
        let k = self.heap[i];
        loop {
            let l = ARITY * i + 1;
            if l >= n {
                break;
            }
            let mut c = l;
            let mut ck = self.heap[l];
            for j in l + 1..(l + ARITY).min(n) {
                if self.heap[j] < ck {
                    c = j;
                    ck = self.heap[j];
                }
            }
            if k <= ck {
                break;
            }
            self.heap[i] = ck;
            self.pos[ck.1 as usize] = i as u32;
            i = c;
        }
        self.heap[i] = k;
        self.pos[k.1 as usize] = i as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn event_queue_pops_in_time_then_flow_order_after_moves_and_removals() {
        let mut rng = Rng::seeded(7);
        let mut q = EventQueue::default();
        q.grow(200);
        let mut model: Vec<Option<f64>> = vec![None; 200];
        for _ in 0..5000 {
            let f = rng.below(200) as u32;
            match rng.below(3) {
                0 => {
                    q.remove(f);
                    model[f as usize] = None;
                }
                _ => {
                    let t = rng.below(50) as f64 * 0.25;
                    q.set(f, t);
                    model[f as usize] = Some(t);
                }
            }
            let want = model
                .iter()
                .enumerate()
                .filter_map(|(i, t)| t.map(|t| (t.to_bits(), i as u32)))
                .min()
                .map(|(t, f)| (f64::from_bits(t), f));
            assert_eq!(q.peek(), want);
        }
        let mut last = (0u64, 0u32);
        while let Some((t, f)) = q.pop() {
            assert!((t.to_bits(), f) >= last);
            last = (t.to_bits(), f);
            model[f as usize] = None;
        }
        assert!(model.iter().all(Option::is_none));
    }

    #[test]
    fn a_cleared_queue_is_empty_and_takes_every_flow_again() {
        let mut q = EventQueue::default();
        q.grow(10);
        for f in 0..10 {
            q.set(f, f64::from(10 - f));
        }
        q.clear();
        assert_eq!(q.peek(), None);
        q.set(3, 2.0);
        q.set(7, 1.0);
        q.set(3, 0.5);
        assert_eq!(q.pop(), Some((0.5, 3)));
        assert_eq!(q.pop(), Some((1.0, 7)));
        assert_eq!(q.pop(), None);
    }
}
