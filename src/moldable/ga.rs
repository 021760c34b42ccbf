//! The genetic algorithm of Peryshkova et al.:
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
    /// The scenario's defaults (the field table's: the source's `K = 16`, `V = 1000`, `P = 0.9`,
    /// `G = 2`).
    fn default() -> Self {
        GaParams::of(&super::scenario::GaSpec::default())
    }
}

impl GaParams {
    /// The parameters a scenario's `ga` gives (its page-only `workers` aside).
    pub fn of(g: &super::scenario::GaSpec) -> Self {
        GaParams {
            population: g.population,
            cycles: g.cycles,
            crossover: g.crossover,
            parts: g.parts,
            decoder: g.decoder,
            islands: g.islands,
            exchange_every: g.exchange_every,
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

/// One island of the GA: its population, its generator and what it has counted. Islands are
/// independent between exchanges, so they may run one after another (natively, [`run`]) or in
/// separate workers (the page), with the same result: the caller advances each island to the
/// same cycles ([`Island::run_to`]) and, at every exchange cycle ([`exchange_due`]), hands each
/// island its ring neighbour's best ([`migrants`], [`Island::inject`]); [`merge`] then combines
/// the islands' [`IslandResult`]s.
pub struct Island {
    index: u32,
    params: GaParams,
    list: ListDecoder,
    /// Fitting variant indices per job.
    admissible: Vec<Vec<u32>>,
    /// Jobs with more than one admissible variant.
    moldable: Vec<u32>,
    rng: Rng,
    pop: Vec<Individual>,
    cycle: u32,
    /// The island's best makespan after each cycle (index 0: its initial population).
    curve: Vec<f64>,
    evaluations: u64,
    init_ffdh: f64,
    init_bfdh: f64,
}

/// What one island hands over at the end: its best, its curve and its counts.
#[derive(Debug, Clone, PartialEq)]
pub struct IslandResult {
    pub index: u32,
    pub best: Individual,
    pub curve: Vec<f64>,
    pub evaluations: u64,
    pub init_ffdh: f64,
    pub init_bfdh: f64,
}

/// Fitting variant indices per job, and the jobs with more than one.
fn admissible(inst: &Instance) -> (Vec<Vec<u32>>, Vec<u32>) {
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
    (admissible, moldable)
}

/// True when the islands exchange their best after cycle `v`.
pub fn exchange_due(params: &GaParams, v: u32) -> bool {
    params.islands > 1 && v > 0 && v % params.exchange_every.max(1) == 0
}

/// The ring: island `i` receives the best of island `i - 1` (island 0 that of the last).
pub fn migrants<T: Clone>(bests: &[T]) -> Vec<T> {
    let n = bests.len();
    (0..n).map(|i| bests[(i + n - 1) % n].clone()).collect()
}

impl Island {
    /// Island `index` with its initial population (generator [`island_seed`]`(seed, index)`).
    pub fn new(inst: &Instance, params: GaParams, seed: u64, index: u32) -> Island {
        let (admissible, moldable) = admissible(inst);
        let mut island = Island {
            index,
            params,
            list: ListDecoder::default(),
            admissible,
            moldable,
            rng: Rng::seeded(island_seed(seed, index)),
            pop: Vec::new(),
            cycle: 0,
            curve: Vec::with_capacity(params.cycles as usize + 1),
            evaluations: 0,
            init_ffdh: f64::INFINITY,
            init_bfdh: f64::INFINITY,
        };
        island.initial(inst);
        island.curve.push(island.pop[0].makespan);
        island
    }

    pub fn index(&self) -> u32 {
        self.index
    }

    /// Cycles run so far.
    pub fn cycle(&self) -> u32 {
        self.cycle
    }

    /// The best individual now (the first of the sorted population).
    pub fn best(&self) -> &Individual {
        &self.pop[0]
    }

    /// The island's best makespan after each cycle so far (index 0: the initial population).
    pub fn curve(&self) -> &[f64] {
        &self.curve
    }

    /// Runs one cycle (nothing once all `V` have run).
    pub fn step(&mut self, inst: &Instance) {
        if self.cycle >= self.params.cycles {
            return;
        }
        let mut pop = std::mem::take(&mut self.pop);
        self.cycle_once(inst, &mut pop);
        self.pop = pop;
        self.cycle += 1;
        self.curve.push(self.pop[0].makespan);
    }

    /// Runs cycles until `cycle` (at most `V`) have run.
    pub fn run_to(&mut self, inst: &Instance, cycle: u32) {
        while self.cycle < cycle.min(self.params.cycles) {
            self.step(inst);
        }
    }

    /// A migrant arrives: it replaces the worst individual when strictly better (the population
    /// stays sorted, the migrant after its equals).
    pub fn inject(&mut self, incoming: &Individual) {
        let last = self.pop.len() - 1;
        if incoming.makespan < self.pop[last].makespan {
            self.pop[last] = incoming.clone();
            sort_population(&mut self.pop);
            if let Some(c) = self.curve.last_mut() {
                *c = self.pop[0].makespan;
            }
        }
    }

    /// What the island hands over.
    pub fn result(&self) -> IslandResult {
        IslandResult {
            index: self.index,
            best: self.pop[0].clone(),
            curve: self.curve.clone(),
            evaluations: self.evaluations,
            init_ffdh: self.init_ffdh,
            init_bfdh: self.init_bfdh,
        }
    }

    fn evaluate(&mut self, inst: &Instance, ind: &mut Individual) {
        self.evaluations += 1;
        ind.makespan = fitness(inst, self.params.decoder, &mut self.list, ind);
    }

    fn random_variants(&mut self, inst: &Instance) -> Vec<u32> {
        let rng = &mut self.rng;
        let mut v: Vec<u32> = self
            .admissible
            .iter()
            .map(|a| a[rng.index_below(a.len())])
            .collect();
        inst.repair(&mut v);
        v
    }

    /// The initial population, sorted, with the best shelf makespans of its FFDH- and
    /// BFDH-built members.
    fn initial(&mut self, inst: &Instance) {
        let k = self.params.population as usize;
        let mut pop = Vec::with_capacity(k);
        for i in 0..k {
            let packer = if i % 2 == 0 {
                Packer::Ffdh
            } else {
                Packer::Bfdh
            };
            let variants = if i < 2 {
                inst.preferred_variants()
            } else {
                self.random_variants(inst)
            };
            let (starts, t) = shelf::pack_starts(inst, &variants, packer);
            if packer == Packer::Ffdh {
                self.init_ffdh = self.init_ffdh.min(t);
            } else {
                self.init_bfdh = self.init_bfdh.min(t);
            }
            let order = match self.params.decoder {
                Decoder::Shelf => Vec::new(),
                Decoder::List => {
                    let mut o: Vec<u32> = (0..inst.jobs.len() as u32).collect();
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
                self.evaluate(inst, &mut ind);
            } else {
                self.evaluations += 1;
            }
            pop.push(ind);
        }
        sort_population(&mut pop);
        self.pop = pop;
    }

    /// Cut points: `G - 1` distinct positions in `1..m` (fewer when `m` is small), sorted.
    fn cuts(&mut self, m: usize) -> Vec<usize> {
        let want = (self.params.parts as usize - 1).min(m.saturating_sub(1));
        let mut cuts: Vec<usize> = Vec::with_capacity(want);
        while cuts.len() < want {
            let c = 1 + self.rng.index_below(m - 1);
            if !cuts.contains(&c) {
                cuts.push(c);
            }
        }
        cuts.sort_unstable();
        cuts
    }

    fn crossover(
        &mut self,
        inst: &Instance,
        a: &Individual,
        b: &Individual,
    ) -> (Individual, Individual) {
        let m = inst.jobs.len();
        let cuts = self.cuts(m);
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
        let decoder = self.params.decoder;
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
            let order = if decoder == Decoder::List {
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
            inst.repair(&mut c.variants);
            c
        };
        (child(a, b, true), child(b, a, true))
    }

    fn mutate(&mut self, inst: &Instance, a: &Individual) -> Individual {
        let mut c = a.clone();
        if !self.moldable.is_empty() {
            let times = 1 + self.rng.below(2);
            for _ in 0..times {
                let j = self.moldable[self.rng.index_below(self.moldable.len())] as usize;
                let adm = &self.admissible[j];
                let mut k = adm[self.rng.index_below(adm.len() - 1)];
                if k == c.variants[j] {
                    k = adm[adm.len() - 1];
                }
                c.variants[j] = k;
            }
            inst.repair(&mut c.variants);
        }
        if self.params.decoder == Decoder::List && c.order.len() > 1 {
            let x = self.rng.index_below(c.order.len());
            let y = self.rng.index_below(c.order.len());
            c.order.swap(x, y);
        }
        c.makespan = f64::INFINITY;
        c
    }

    fn cycle_once(&mut self, inst: &Instance, pop: &mut Vec<Individual>) {
        let k = pop.len();
        let mut children: Vec<Individual> = Vec::with_capacity(k + 1);
        while children.len() < k {
            let a = self.rng.index_below(k);
            let mut b = self.rng.index_below(k - 1);
            if b >= a {
                b += 1;
            }
            if self.rng.unit_f64() < self.params.crossover {
                let (c1, c2) = self.crossover(inst, &pop[a], &pop[b]);
                children.push(c1);
                children.push(c2);
            } else {
                let c1 = self.mutate(inst, &pop[a]);
                let c2 = self.mutate(inst, &pop[b]);
                children.push(c1);
                children.push(c2);
            }
        }
        children.truncate(k);
        for c in &mut children {
            self.evaluate(inst, c);
        }
        pop.extend(children);
        sort_population(pop);
        pop.truncate(k);
    }
}

/// The makespan of an individual under `decoder`.
fn fitness(inst: &Instance, decoder: Decoder, list: &mut ListDecoder, ind: &Individual) -> f64 {
    match decoder {
        Decoder::Shelf => shelf::pack_starts(inst, &ind.variants, ind.packer).1,
        Decoder::List => list.decode(inst, &ind.order, &ind.variants),
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

/// The index of the first island holding the smallest best makespan.
fn best_island<T>(items: &[T], makespan: impl Fn(&T) -> f64) -> usize {
    let mut b = 0;
    for (i, x) in items.iter().enumerate() {
        if makespan(x) < makespan(&items[b]) {
            b = i;
        }
    }
    b
}

/// Runs the GA on `inst`, every island in turn, one cycle at a time. `on_cycle(cycle, best)`
/// is called after the initial population (cycle 0) and after every cycle with the best
/// individual over all islands.
pub fn run(
    inst: &Instance,
    params: GaParams,
    seed: u64,
    on_cycle: &mut dyn FnMut(u32, &Individual),
) -> GaOutcome {
    let params = GaParams {
        islands: params.islands.max(1),
        ..params
    };
    let mut islands: Vec<Island> = (0..params.islands)
        .map(|i| Island::new(inst, params, seed, i))
        .collect();
    let b = best_island(&islands, |x| x.best().makespan);
    on_cycle(0, islands[b].best());
    for v in 1..=params.cycles {
        for island in islands.iter_mut() {
            island.step(inst);
        }
        if exchange_due(&params, v) {
            let bests: Vec<Individual> = islands.iter().map(|x| x.best().clone()).collect();
            for (island, incoming) in islands.iter_mut().zip(migrants(&bests)) {
                island.inject(&incoming);
            }
        }
        let b = best_island(&islands, |x| x.best().makespan);
        on_cycle(v, islands[b].best());
    }
    let results: Vec<IslandResult> = islands.iter().map(Island::result).collect();
    merge(inst, params.decoder, &results)
}

/// Combines the islands' results (in island order): the best is the first island's with the
/// smallest makespan, the curve the smallest makespan over the islands at each cycle, counts
/// summed.
pub fn merge(inst: &Instance, decoder: Decoder, results: &[IslandResult]) -> GaOutcome {
    let b = best_island(results, |r| r.best.makespan);
    let len = results.iter().map(|r| r.curve.len()).min().unwrap_or(0);
    let curve: Vec<f64> = (0..len)
        .map(|v| {
            let mut best = results[0].curve[v];
            for r in &results[1..] {
                if r.curve[v] < best {
                    best = r.curve[v];
                }
            }
            best
        })
        .collect();
    let best = results[b].best.clone();
    let schedule = decode_schedule(inst, &best, decoder);
    GaOutcome {
        init_ffdh: results
            .iter()
            .fold(f64::INFINITY, |a, r| a.min(r.init_ffdh)),
        init_bfdh: results
            .iter()
            .fold(f64::INFINITY, |a, r| a.min(r.init_bfdh)),
        init_best: curve.first().copied().unwrap_or(best.makespan),
        evaluations: results.iter().map(|r| r.evaluations).sum(),
        best,
        schedule,
        curve,
    }
}

/// The makespan of `ind` recomputed by the decoder (for an individual that arrived from
/// elsewhere).
pub fn recompute(inst: &Instance, decoder: Decoder, ind: &mut Individual) {
    ind.makespan = fitness(inst, decoder, &mut ListDecoder::default(), ind);
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
