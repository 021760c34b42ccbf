//! The slack recomputation after flows end ([`Lazy::Slack`](super::Lazy::Slack)): the
//! lazy recomputation of [`Net::lazy`] without summing the capacities it touches.
//!
//! On a scattered placement nearly every flow the lazy recomputation perturbs does change
//! rate (measured on the 4,096-task random grid under LV08: 95 % of 2.7 M perturbed flows, 83 %
//! by more than 1e-6), so perturbing fewer flows cannot help; what costs is reading, for every
//! capacity a perturbed flow crosses, all the flows on it (their rates for its residual, their
//! levels for rule (b)), one cache miss each. This method reads only the flows whose rate may
//! change, from two facts kept between recomputations:
//!
//! - *spare capacity*: `resid = C_c - sum_{g active on c} a_{g,c} r_g`. It holds after every
//!   recomputation (a recomputation ends with every touched capacity's residual minus its
//!   frozen flows, and leaves the others' flows unchanged), a flow's end adds its load back,
//!   a starting flow has rate 0. So a capacity becomes dirty with residual `resid` (every flow
//!   clean at its rate), and each perturbed flow adds back its load and joins the growing
//!   usage, as the full sum would give;
//! - *bottleneck lists*: the flows each capacity froze. A flow frozen by capacity `c` at level
//!   `L` can rise only if `c` gains spare capacity at `L`, hence only if `c` is dirty: while
//!   no flow on `c` changes, `c` stays saturated with the same flows. So rule (b) of
//!   [`Net::lazy`] perturbs the listed flows of level at least `L_min` when `c` becomes dirty;
//!   a clean flow that another capacity froze at the same level stays bounded by that one, or
//!   is perturbed through it when it is dirty.
//!
//! Rule (a) (a clean flow above the level at which a dirty capacity saturates must fall) is
//! [`Net::lazy`]'s, guarded by `maxclean`, which bounds the levels of a capacity's flows
//! across recomputations (every freeze raises it, every read of the capacity's flows resets
//! it). So a flow keeps its rate exactly when [`Net::lazy`]'s argument says it may, and the
//! rates are the full water-filling's (theorem there) up to floating-point rounding: the spare
//! capacity is updated by additions, not summed afresh, but each addition's rounding error is
//! kept (an exact two-sum) and folded in when the capacity is next read (Neumaier's
//! compensated summation), so it stays within about one rounding of the fresh sum however many
//! updates it has seen (the tests check 1e-12 of the capacity after every event).
//!
//! # Starts
//! Flows that become active are recomputed the same way, from level 0 (`L_min = 0`, so no flow
//! is clean by its level): each starts perturbed at rate 0, which leaves the spare capacities
//! as they are, and joins the growing usage of its capacities, which become dirty. Every
//! capacity it crosses may now saturate lower; the flows it froze are perturbed when it
//! becomes dirty (rule (b)), and any other clean flow above the level at which it saturates by
//! rule (a). So the argument of [`Net::lazy`] holds unchanged: a clean flow keeps its rate
//! exactly, and the rates are the full water-filling's up to rounding, for the cost of the
//! flows whose rate may change instead of the whole connected component (the tests compare
//! every event with [`Net::always_full`]).
//!
//! Two more savings, both exact: a freeze leaves the queued keys of the capacities that still
//! have growing flows (their keys only rise, [`Net::rekey`]), and a capacity whose key is above
//! every flow's bound level is not queued at all (every growing flow on it freezes, at its
//! bound at the latest, before it could saturate).
//!
//! # Complexity
//! `O(P * h * log H + B + R)` for `P` perturbed flows of `h` capacities (heap of `H`
//! capacities), `B` the bottleneck-list entries read and `R` the flows on capacities read
//! in full (rule (a) and saturation): against [`Net::lazy`]'s `O(sum of the degrees of the
//! dirty capacities + P * h * log H)`.

use super::{Net, NONE};

impl Net {
    /// [`Net::lazy`] reading spare capacities and bottleneck lists (module doc).
    pub(super) fn lazy_slack(&mut self, st: u32, l_min: f64) {
        self.begin_lazy(l_min);
        self.in_slack = true;
        // The ended flows' loads were added back when they ended.
        for k in 0..self.ended.len() {
            let f = self.ended[k] as usize;
            for e in self.f_elems[f]..self.f_elems[f + 1] {
                let c = self.e_cap[e as usize] as usize;
                if self.cs[c].mark != st {
                    self.make_dirty_slack(c, st);
                }
            }
        }
        // Starts: a flow just attached (active at rate 0; those that ended at once are idle,
        // those on FATPIPE links only send at their bound) grows from level 0.
        for k in 0..self.activated.len() {
            let f = self.activated[k];
            let h = self.fh[f as usize];
            if h.active && h.rate == 0.0 && h.mark != st {
                self.perturb(f, st);
            }
        }
        self.settle_slack(st);
        self.drain(st, true, true);
        self.in_slack = false;
        self.solved_flows += self.set.len() as u64;
        self.work += self.set.len() as u64;
        self.reschedule(st);
    }

    /// Adds every flow of `self.pending` to its capacities (making them dirty first): its
    /// load back to the residual, its weight to the growing usage.
    pub(super) fn settle_slack(&mut self, st: u32) {
        while let Some(g) = self.pending.pop() {
            let gi = g as usize;
            let (rate, phi) = (self.fh[gi].rate, self.fh[gi].phi);
            let (a, b) = (self.f_elems[gi], self.f_elems[gi + 1]);
            self.work += u64::from(b - a);
            for e in a..b {
                let eu = e as usize;
                let c = self.e_cap[eu] as usize;
                if self.cs[c].mark != st {
                    self.make_dirty_slack(c, st);
                }
                let coef = self.e_coef[eu];
                self.add_resid(c, coef * rate);
                if coef > 0.0 {
                    self.cs[c].usage += coef * phi;
                    self.cs[c].unfixed += 1;
                }
                if self.cs[c].touch != self.touch_stamp {
                    self.cs[c].touch = self.touch_stamp;
                    self.touched.push(c as u32);
                }
            }
        }
        // Re-queue each changed capacity once (nothing is popped meanwhile).
        for i in 0..self.touched.len() {
            let c = self.touched[i] as usize;
            self.rekey(c);
        }
        self.touched.clear();
        self.touch_stamp = self.touch_stamp.wrapping_add(1);
        if self.touch_stamp == 0 {
            self.cs.iter_mut().for_each(|x| x.touch = 0);
            self.touch_stamp = 1;
        }
    }

    /// Capacity `c` becomes dirty with every flow on it clean: residual its spare capacity
    /// (its compensation folded in), no growing flow; the flows it froze, of level at least
    /// the floor, are perturbed (rule (b)).
    fn make_dirty_slack(&mut self, c: usize, st: u32) {
        self.cs[c].mark = st;
        self.queue.push(c as u32);
        // Every flow on `c` is clean or perturbed and not yet added: all at their rates.
        self.cs[c].resid += self.cs[c].comp;
        self.cs[c].comp = 0.0;
        self.cs[c].usage = 0.0;
        self.cs[c].unfixed = 0;
        self.cs[c].level = f64::INFINITY;
        let fixed = st + 1;
        let mut g = self.cs[c].bhead;
        let mut read = 0u64;
        while g != NONE {
            read += 1;
            let gi = g as usize;
            let next = self.f_bnext[gi];
            let h = self.fh[gi];
            if h.active && h.mark != st && h.mark != fixed && h.level >= self.cur_floor {
                self.perturb(g, st);
            }
            g = next;
        }
        self.work += read;
        self.rekey(c);
    }
}
