//! The genetic algorithm of SPEC §5 (Peryshkova):
//! 1. a population of `K` feasible schedules built by FFDH (even members) and BFDH (odd
//!    members) with random variant choices (members 0 and 1 take the heuristics' own preferred
//!    variants, so the GA starts from the FFDH and BFDH schedules themselves);
//! 2. new individuals: two parents drawn at random are crossed with probability `P` (both cut
//!    into `G` parts at the same `G - 1` random points, parts taken alternately from each: two
//!    children), otherwise each is mutated (1 or 2 random jobs take another admissible
//!    variant), until there are `K` children;
//! 3. parents and children sorted by makespan (stable: parents first among ties), the best `K`
//!    kept;
//! 4. back to 2 for `V` cycles;
//! 5. the best individual is the result. Keeping the best (elitism) means the result is never
//!    worse than the best of the initial population.
//!
//! A child that misses the efficiency constraint is repaired ([`Instance::repair`]).
//!
//! Chromosome and decoder: with [`Decoder::Shelf`] (the source's) an individual is a variant
//! per job and a packer (FFDH or BFDH, inherited from the first parent), decoded by packing
//! in decreasing height. With [`Decoder::List`] (ours) it also holds a job order, crossed as
//! an order crossover (the first parent's jobs in its parts, the rest in the second parent's
//! order) and mutated by swapping two jobs; it is decoded by list scheduling with backfilling
//! ([`super::list`]); initial orders are the FFDH/BFDH schedules' start order.
//!
//! Multistart ("islands"): `I` independent populations, island `i` drawing from its own
//! generator seeded by [`island_seed`]; every `E` cycles each island's best is copied into the
//! next island (a ring), replacing that island's worst when better. The same seed and island
//! count give the same result on every target.
//!
//! # Complexity
//! `O(K m + K T_pack + V (K T_pack + K log K))` per island, `T_pack` one decoding, as the
//! source states (`T = O(Km + K T_2DSPP + V K log K + V K)`).

use super::list::{self, ListDecoder};
use super::model::{Instance, Schedule};
use super::scenario::Decoder;
use super::shelf::{self, Packer};
use crate::rng::Rng;

/// The GA's parameters.
#[derive(Debug, Clone, Copy)]
pub struct GaParams {
    pub population: u32,
    pub cycles: u32,
    pub crossover: f64,
    pub parts: u32,
    pub decoder: Decoder,
    pub islands: u32,
    pub exchange_every: u32,
}

impl Default for GaParams {
    /// The source's: `K = 16`, `V = 1000`, `P = 0.9`, `G = 2`.
    fn default() -> Self {
        GaParams {
            population: 16,
            cycles: 1000,
            crossover: 0.9,
            parts: 2,
            decoder: Decoder::Shelf,
            islands: 1,
            exchange_every: 50,
        }
    }
}

/// One individual: a variant per job, a job order (list decoder only) and a packer (shelf
/// decoder only), with its makespan.
#[derive(Debug, Clone, PartialEq)]
pub struct Individual {
    pub variants: Vec<u32>,
    pub order: Vec<u32>,
    pub packer: Packer,
    pub makespan: f64,
}

/// What a run gives.
#[derive(Debug, Clone)]
pub struct GaOutcome {
    pub best: Individual,
    pub schedule: Schedule,
    /// Best makespan after each cycle (index 0: the initial population), over all islands.
    pub curve: Vec<f64>,
    /// Best shelf makespan among the initial schedules built by FFDH and by BFDH.
    pub init_ffdh: f64,
    pub init_bfdh: f64,
    /// Best fitness in the initial population (under the decoder).
    pub init_best: f64,
    pub evaluations: u64,
}

/// The seed of island `i`: the scenario seed mixed with the island index (SplitMix64's
/// finalizer of `seed + (i + 1) * golden`), so islands draw independent streams.
pub fn island_seed(seed: u64, island: u32) -> u64 {
    let mut z = seed.wrapping_add((island as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

struct Ctx<'a> {
    inst: &'a Instance,
    params: GaParams,
    list: ListDecoder,
    /// Fitting variant indices per job.
    admissible: Vec<Vec<u32>>,
    /// Jobs with more than one admissible variant.
    moldable: Vec<u32>,
    evaluations: u64,
}

impl Ctx<'_> {
    fn evaluate(&mut self, ind: &mut Individual) {
        self.evaluations += 1;
        ind.makespan = match self.params.decoder {
            Decoder::Shelf => shelf::pack_starts(self.inst, &ind.variants, ind.packer).1,
            Decoder::List => self.list.decode(self.inst, &ind.order, &ind.variants),
        };
    }

    fn random_variants(&self, rng: &mut Rng) -> Vec<u32> {
        let mut v: Vec<u32> = self
            .admissible
            .iter()
            .map(|a| a[rng.index_below(a.len())])
            .collect();
        self.inst.repair(&mut v);
        v
    }

    /// The initial population of one island; returns it sorted, with the best shelf makespans
    /// of its FFDH- and BFDH-built members.
    fn initial(&mut self, rng: &mut Rng) -> (Vec<Individual>, f64, f64) {
        let k = self.params.population as usize;
        let mut pop = Vec::with_capacity(k);
        let (mut ff, mut bf) = (f64::INFINITY, f64::INFINITY);
        for i in 0..k {
            let packer = if i % 2 == 0 {
                Packer::Ffdh
            } else {
                Packer::Bfdh
            };
            let variants = if i < 2 {
                self.inst.preferred_variants()
            } else {
                self.random_variants(rng)
            };
            let (starts, t) = shelf::pack_starts(self.inst, &variants, packer);
            if packer == Packer::Ffdh {
                ff = ff.min(t);
            } else {
                bf = bf.min(t);
            }
            let order = match self.params.decoder {
                Decoder::Shelf => Vec::new(),
                Decoder::List => {
                    let mut o: Vec<u32> = (0..self.inst.jobs.len() as u32).collect();
                    o.sort_by(|&a, &b| {
                        let (sa, xa) = starts[a as usize];
                        let (sb, xb) = starts[b as usize];
                        sa.total_cmp(&sb).then(xa.cmp(&xb)).then(a.cmp(&b))
                    });
                    o
                }
            };
            let mut ind = Individual {
                variants,
                order,
                packer,
                makespan: t,
            };
            if self.params.decoder == Decoder::List {
                self.evaluate(&mut ind);
            } else {
                self.evaluations += 1;
            }
            pop.push(ind);
        }
        sort_population(&mut pop);
        (pop, ff, bf)
    }

    /// Cut points: `G - 1` distinct positions in `1..m` (fewer when `m` is small), sorted.
    fn cuts(&self, rng: &mut Rng) -> Vec<usize> {
        let m = self.inst.jobs.len();
        let want = (self.params.parts as usize - 1).min(m.saturating_sub(1));
        let mut cuts: Vec<usize> = Vec::with_capacity(want);
        while cuts.len() < want {
            let c = 1 + rng.index_below(m - 1);
            if !cuts.contains(&c) {
                cuts.push(c);
            }
        }
        cuts.sort_unstable();
        cuts
    }

    fn crossover(&self, a: &Individual, b: &Individual, rng: &mut Rng) -> (Individual, Individual) {
        let cuts = self.cuts(rng);
        let m = self.inst.jobs.len();
        // part parity of each position
        let mut from_first = vec![true; m];
        let mut part = 0usize;
        let mut next = 0usize;
        for (x, f) in from_first.iter_mut().enumerate() {
            while next < cuts.len() && cuts[next] == x {
                part += 1;
                next += 1;
            }
            *f = part % 2 == 0;
        }
        let child = |p: &Individual, q: &Individual, mine: bool| {
            let variants: Vec<u32> = (0..m)
                .map(|x| {
                    if from_first[x] == mine {
                        p.variants[x]
                    } else {
                        q.variants[x]
                    }
                })
                .collect();
            let order = if self.params.decoder == Decoder::List {
                order_crossover(&p.order, &q.order, &from_first, mine)
            } else {
                Vec::new()
            };
            let mut c = Individual {
                variants,
                order,
                packer: p.packer,
                makespan: f64::INFINITY,
            };
            self.inst.repair(&mut c.variants);
            c
        };
        (child(a, b, true), child(b, a, true))
    }

    fn mutate(&self, a: &Individual, rng: &mut Rng) -> Individual {
        let mut c = a.clone();
        if !self.moldable.is_empty() {
            let times = 1 + rng.below(2);
            for _ in 0..times {
                let j = self.moldable[rng.index_below(self.moldable.len())] as usize;
                let adm = &self.admissible[j];
                let mut k = adm[rng.index_below(adm.len() - 1)];
                if k == c.variants[j] {
                    k = adm[adm.len() - 1];
                }
                c.variants[j] = k;
            }
            self.inst.repair(&mut c.variants);
        }
        if self.params.decoder == Decoder::List && c.order.len() > 1 {
            let x = rng.index_below(c.order.len());
            let y = rng.index_below(c.order.len());
            c.order.swap(x, y);
        }
        c.makespan = f64::INFINITY;
        c
    }

    fn cycle(&mut self, pop: &mut Vec<Individual>, rng: &mut Rng) {
        let k = pop.len();
        let mut children: Vec<Individual> = Vec::with_capacity(k + 1);
        while children.len() < k {
            let a = rng.index_below(k);
            let mut b = rng.index_below(k - 1);
            if b >= a {
                b += 1;
            }
            if rng.unit_f64() < self.params.crossover {
                let (c1, c2) = self.crossover(&pop[a], &pop[b], rng);
                children.push(c1);
                children.push(c2);
            } else {
                children.push(self.mutate(&pop[a], rng));
                children.push(self.mutate(&pop[b], rng));
            }
        }
        children.truncate(k);
        for c in &mut children {
            self.evaluate(c);
        }
        pop.extend(children);
        sort_population(pop);
        pop.truncate(k);
    }
}

/// The child's order: positions whose part belongs to `p` (`from_first == mine`) keep `p`'s
/// job; the other positions take the remaining jobs in `q`'s order.
fn order_crossover(p: &[u32], q: &[u32], from_first: &[bool], mine: bool) -> Vec<u32> {
    let m = p.len();
    let mut used = vec![false; m];
    let mut out = vec![u32::MAX; m];
    for x in 0..m {
        if from_first[x] == mine {
            out[x] = p[x];
            used[p[x] as usize] = true;
        }
    }
    let mut rest = q.iter().filter(|&&j| !used[j as usize]);
    for slot in out.iter_mut() {
        if *slot == u32::MAX {
            *slot = *rest.next().expect("as many free slots as unused jobs");
        }
    }
    out
}

/// Stable sort by makespan (ties keep their order: parents before children).
fn sort_population(pop: &mut [Individual]) {
    pop.sort_by(|a, b| a.makespan.total_cmp(&b.makespan));
}

/// Runs the GA on `inst`. `on_cycle(cycle, best)` is called after the initial population
/// (cycle 0) and after every cycle with the best individual over all islands.
pub fn run(
    inst: &Instance,
    params: GaParams,
    seed: u64,
    on_cycle: &mut dyn FnMut(u32, &Individual),
) -> GaOutcome {
    let admissible: Vec<Vec<u32>> = inst
        .jobs
        .iter()
        .enumerate()
        .map(|(i, j)| {
            (0..j.variants.len() as u32)
                .filter(|&k| inst.fits(i, k))
                .collect()
        })
        .collect();
    let moldable = (0..inst.jobs.len() as u32)
        .filter(|&i| admissible[i as usize].len() > 1)
        .collect();
    let mut ctx = Ctx {
        inst,
        params,
        list: ListDecoder::default(),
        admissible,
        moldable,
        evaluations: 0,
    };
    let islands = params.islands.max(1);
    let mut rngs: Vec<Rng> = (0..islands)
        .map(|i| Rng::seeded(island_seed(seed, i)))
        .collect();
    let (mut init_ffdh, mut init_bfdh) = (f64::INFINITY, f64::INFINITY);
    let mut pops: Vec<Vec<Individual>> = Vec::new();
    for rng in rngs.iter_mut() {
        let (pop, ff, bf) = ctx.initial(rng);
        init_ffdh = init_ffdh.min(ff);
        init_bfdh = init_bfdh.min(bf);
        pops.push(pop);
    }
    let best_of = |pops: &[Vec<Individual>]| -> usize {
        let mut b = 0;
        for (i, p) in pops.iter().enumerate() {
            if p[0].makespan < pops[b][0].makespan {
                b = i;
            }
        }
        b
    };
    let b0 = best_of(&pops);
    let init_best = pops[b0][0].makespan;
    let mut curve = Vec::with_capacity(params.cycles as usize + 1);
    curve.push(init_best);
    on_cycle(0, &pops[b0][0]);
    for v in 1..=params.cycles {
        for (pop, rng) in pops.iter_mut().zip(rngs.iter_mut()) {
            ctx.cycle(pop, rng);
        }
        if islands > 1 && v % params.exchange_every == 0 {
            let bests: Vec<Individual> = pops.iter().map(|p| p[0].clone()).collect();
            let n = pops.len();
            for (i, pop) in pops.iter_mut().enumerate() {
                let incoming = &bests[(i + n - 1) % n];
                let last = pop.len() - 1;
                if incoming.makespan < pop[last].makespan {
                    pop[last] = incoming.clone();
                    sort_population(pop);
                }
            }
        }
        let b = best_of(&pops);
        curve.push(pops[b][0].makespan);
        on_cycle(v, &pops[b][0]);
    }
    let best = pops[best_of(&pops)][0].clone();
    let schedule = decode_schedule(inst, &best, params.decoder);
    GaOutcome {
        best,
        schedule,
        curve,
        init_ffdh,
        init_bfdh,
        init_best,
        evaluations: ctx.evaluations,
    }
}

/// The complete schedule of an individual.
pub fn decode_schedule(inst: &Instance, ind: &Individual, decoder: Decoder) -> Schedule {
    match decoder {
        Decoder::Shelf => shelf::pack(inst, &ind.variants, ind.packer),
        Decoder::List => list::schedule(inst, &ind.order, &ind.variants),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_crossover_keeps_a_permutation() {
        let p = [0, 1, 2, 3, 4, 5];
        let q = [5, 4, 3, 2, 1, 0];
        let parts = [true, true, false, false, true, true];
        let c = order_crossover(&p, &q, &parts, true);
        let mut sorted = c.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, vec![0, 1, 2, 3, 4, 5]);
        assert_eq!(&c[..2], &[0, 1]);
        assert_eq!(&c[4..], &[4, 5]);
        assert_eq!(&c[2..4], &[3, 2]);
    }

    #[test]
    fn island_seeds_differ() {
        assert_ne!(island_seed(1, 0), island_seed(1, 1));
        assert_ne!(island_seed(1, 0), island_seed(2, 0));
    }
}
