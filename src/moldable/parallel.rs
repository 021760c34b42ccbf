//! The GA's islands run apart, in several workers at once: the moldable engine's
//! [`crate::split::Split`] (what it means for the host: `src/split.rs`). Each island is a part
//! ([`IslandRun`]); the coordinator ([`Islands`]) advances every island to the same stops, one
//! round each: every `partial_every` cycles (a live partial result of the best island, with the
//! curve over all islands, as [`super::run`] offers) and every exchange cycle
//! ([`ga::exchange_due`]), after which island `i` receives the best of island `i - 1`
//! ([`ga::migrants`]) as words; once all `V` cycles have run, a last round hands the last
//! migrants over and collects every island's result words, which [`ga::merge`] and
//! [`super::run::assemble`] turn into the report. The result depends only on the scenario (seed,
//! islands, `exchangeEvery`), never on the number of workers or on timing: it is byte for byte
//! the report [`crate::api::run`] returns for the same text, which runs the same islands one after
//! another with the same exchanges.
//!
//! Words: an individual is `[packer, m, variants.., o, order..]` (`packer` 0 NFDH, 1 FFDH,
//! 2 BFDH; `o` is 0 or `m`); its makespan is recomputed on arrival, so no float crosses in it.
//! Mail to an island is `[kind, to, wantBest, migrant..]` (kind 0: run to cycle `to`; kind 1:
//! the end; the migrant, when the last round was an exchange, is received first). An island
//! answers kind 0 with `[makespan (lo, hi), c, curve (c floats).., best..]` (its curve since its
//! last answer, its best when `wantBest`) and kind 1 with its result `[index, evaluations (lo,
//! hi), initFfdh, initBfdh, c, curve.., individual..]`; each float is its IEEE-754 bits in two
//! words (low first). Words that do not decode are an error, never a panic.

use super::ga::{self, GaOutcome, GaParams, Individual, Island, IslandResult};
use super::model::Instance;
use super::report::MoldableReport;
use super::scenario::{self, Decoder, Method, MoldableScenario};
use super::shelf::Packer;
use crate::error::{Result, ScenarioError};
use crate::progress::{NoProgress, Progress};
use crate::scenario::Meta;
use crate::split::{Part, Round, Split};
use std::rc::Rc;

/// An admitted moldable scenario with its instance.
pub struct Prepared {
    pub meta: Meta,
    pub scenario: MoldableScenario,
    pub inst: Instance,
}

/// Builds the instance of an admitted scenario (text is admitted by the dispatcher,
/// [`crate::engines::admit_text`], which the engine itself never calls: the registry depends on
/// the engines, not the other way round).
///
/// # Errors
/// What building the instance refuses for this seed, at its path.
pub fn prepare(meta: Meta, scenario: MoldableScenario) -> Result<Prepared> {
    let inst = scenario::instance(&scenario, meta.seed)?;
    Ok(Prepared {
        meta,
        scenario,
        inst,
    })
}

/// The split of an admitted scenario ([`crate::engines::Engine::split`]): its islands in
/// several workers when it asks for several workers (`ga.workers`) for a GA with several islands.
///
/// # Errors
/// The instance's errors for this seed.
#[allow(clippy::type_complexity)]
pub fn split(
    scenario: MoldableScenario,
    meta: &Meta,
) -> Result<Option<Box<dyn Split<Report = MoldableReport>>>> {
    let g = &scenario.ga;
    if !scenario.methods.contains(&Method::Ga) || g.islands < 2 || g.workers < 2 {
        return Ok(None);
    }
    let inst = scenario::instance(&scenario, meta.seed)?;
    Ok(Some(Box::new(Islands::new(Prepared {
        meta: meta.clone(),
        scenario,
        inst,
    }))))
}

const STEP: u32 = 0;
const END: u32 = 1;

/// Where the coordinator is.
enum Stage {
    Start,
    /// The islands run to `to`; their best comes back when `want_best`.
    Stepping {
        to: u32,
        want_best: bool,
    },
    /// The islands hand over their results.
    Ending,
    Over,
}

/// The coordinator of a scenario's islands (see the module's documentation).
pub struct Islands {
    prepared: Rc<Prepared>,
    params: GaParams,
    lower_bound: f64,
    /// Cycles between two partial results.
    partial_every: u32,
    /// Cycles every island has run.
    done: u32,
    stage: Stage,
    /// The smallest makespan over the islands after each cycle so far.
    curve: Vec<f64>,
}

impl Islands {
    pub fn new(prepared: Prepared) -> Islands {
        let params = super::run::ga_params(&prepared.scenario);
        let lower_bound = super::bound::lower_bound(&prepared.inst).value;
        Islands {
            partial_every: super::run::partial_every(params.cycles),
            prepared: Rc::new(prepared),
            params,
            lower_bound,
            done: 0,
            stage: Stage::Start,
            curve: Vec::new(),
        }
    }

    /// The next round's mail: to the next stop, or the end; `migrants` received first. The
    /// islands send their best at exchanges, and at partial stops when `partials` are listened to.
    fn round(&mut self, migrants: Option<Vec<Vec<u32>>>, partials: bool) -> Round<MoldableReport> {
        let (cycles, every, pe) = (
            self.params.cycles,
            self.params.exchange_every.max(1),
            self.partial_every,
        );
        let (kind, to, want_best) = if self.done < cycles {
            let next_exchange = (self.done / every + 1) * every;
            let to = cycles
                .min(self.done + pe - self.done % pe)
                .min(next_exchange);
            let want =
                ga::exchange_due(&self.params, to) || (partials && to % pe == 0 && to < cycles);
            self.stage = Stage::Stepping {
                to,
                want_best: want,
            };
            (STEP, to, want)
        } else {
            self.stage = Stage::Ending;
            (END, 0, false)
        };
        let n = self.params.islands as usize;
        let mail = (0..n)
            .map(|i| {
                let mut m = vec![kind, to, want_best as u32];
                if let Some(w) = &migrants {
                    m.extend_from_slice(&w[i]);
                }
                m
            })
            .collect();
        Round::Mail(mail)
    }

    /// Reads the islands' answers after a stop: the curve, the progress, the partial result
    /// (at a partial stop) and the migrants (at an exchange).
    fn stopped(
        &mut self,
        to: u32,
        want_best: bool,
        answers: &[Vec<u32>],
        progress: &mut dyn Progress,
    ) -> std::result::Result<Option<Vec<Vec<u32>>>, String> {
        let base = self.curve.len();
        let expect = to as usize + 1 - base;
        let mut makespans = Vec::with_capacity(answers.len());
        let mut bests = Vec::with_capacity(answers.len());
        for (i, a) in answers.iter().enumerate() {
            let mut at = 0;
            makespans.push(read_f64(a, &mut at, "the makespan")?);
            let c = take(a, &mut at, 1, "the curve length")?[0] as usize;
            if c != expect {
                return Err(format!("island {i} sent {c} curve points, not {expect}"));
            }
            for k in 0..c {
                let x = read_f64(a, &mut at, "the curve")?;
                if i == 0 {
                    self.curve.push(x);
                } else if x < self.curve[base + k] {
                    self.curve[base + k] = x;
                }
            }
            if want_best {
                // decoded where it is received: by the next island, by the partial result below
                if at == a.len() {
                    return Err(format!("island {i} sent no best"));
                }
                bests.push(a[at..].to_vec());
            } else if at != a.len() {
                return Err(format!("island {i}: trailing words"));
            }
        }
        self.done = to;
        progress.tick(3 + to as u64, self.ticks());
        if !want_best {
            return Ok(None);
        }
        if to % self.partial_every == 0 && to < self.params.cycles && progress.wants_partial() {
            // the first island with the smallest makespan, as the one-worker run draws
            let mut b = 0;
            for i in 1..makespans.len() {
                if makespans[i] < makespans[b] {
                    b = i;
                }
            }
            let p = &self.prepared;
            let mut at = 0;
            let best = read_individual(&p.inst, self.params.decoder, &bests[b], &mut at)?;
            if at != bests[b].len() {
                return Err(format!("island {b}: trailing words after its best"));
            }
            let doc = super::run::partial_doc(
                &p.inst,
                &p.scenario,
                self.lower_bound,
                to,
                &best,
                &self.curve,
            );
            progress.partial(&doc);
        }
        Ok(ga::exchange_due(&self.params, to).then(|| ga::migrants(&bests)))
    }

    /// The report from the islands' results.
    fn report(&self, answers: &[Vec<u32>]) -> std::result::Result<MoldableReport, String> {
        let p = &self.prepared;
        let results = read_results(p, answers)?;
        let outcome: GaOutcome = ga::merge(&p.inst, p.scenario.ga.decoder, &results);
        let mut once = Some(outcome);
        Ok(super::run::assemble(
            &p.inst,
            &p.scenario,
            &mut NoProgress,
            &mut |_, _, _| once.take().expect("one GA per scenario"),
        ))
    }
}

impl Split for Islands {
    type Report = MoldableReport;

    fn parts(&self) -> u32 {
        self.params.islands
    }

    fn workers(&self) -> u32 {
        self.prepared.scenario.ga.workers
    }

    /// As [`super::run`] ticks: 3 for the heuristics, then one per cycle and one for the start.
    fn ticks(&self) -> u64 {
        3 + self.params.cycles as u64 + 1
    }

    fn part(&self, index: u32) -> Result<Box<dyn Part>> {
        Ok(Box::new(IslandRun::new(self.prepared.clone(), index)?))
    }

    fn next(
        &mut self,
        answers: &[Vec<u32>],
        progress: &mut dyn Progress,
    ) -> Result<Round<MoldableReport>> {
        let n = self.params.islands as usize;
        let bad = |e: String| ScenarioError::at("", format!("the islands' answers: {e}"));
        if !matches!(self.stage, Stage::Start) && answers.len() != n {
            return Err(bad(format!("{} answers for {n} islands", answers.len())));
        }
        match std::mem::replace(&mut self.stage, Stage::Over) {
            Stage::Start => {
                progress.phase("ga");
                Ok(self.round(None, progress.wants_partial()))
            }
            Stage::Stepping { to, want_best } => {
                let migrants = self
                    .stopped(to, want_best, answers, progress)
                    .map_err(bad)?;
                Ok(self.round(migrants, progress.wants_partial()))
            }
            Stage::Ending => {
                let report = self.report(answers).map_err(bad)?;
                progress.tick(self.ticks(), self.ticks());
                progress.phase("end");
                Ok(Round::Done(report))
            }
            Stage::Over => Err(bad("the run is over".into())),
        }
    }
}

/// One island of a scenario, with the instance it runs on: a part of [`Islands`].
pub struct IslandRun {
    prepared: Rc<Prepared>,
    params: GaParams,
    island: Island,
    /// Curve points already sent to the coordinator.
    sent: usize,
}

impl IslandRun {
    /// Island `index` of the scenario, its initial population built.
    ///
    /// # Errors
    /// `index` not below `ga.islands`.
    pub fn new(prepared: Rc<Prepared>, index: u32) -> Result<IslandRun> {
        let params = super::run::ga_params(&prepared.scenario);
        if index >= params.islands {
            return Err(ScenarioError::at(
                "ga.islands",
                format!("island {index} of {}", params.islands),
            ));
        }
        let island = Island::new(&prepared.inst, params, prepared.meta.seed, index);
        Ok(IslandRun {
            prepared,
            params,
            island,
            sent: 0,
        })
    }

    /// Runs cycles until `cycle` (at most `V`) have run.
    pub fn run_to(&mut self, cycle: u32) {
        self.island.run_to(&self.prepared.inst, cycle);
    }

    pub fn cycle(&self) -> u32 {
        self.island.cycle()
    }

    /// The island's best as words (for the next island, at an exchange).
    pub fn migrant(&self) -> Vec<u32> {
        individual_words(self.island.best())
    }

    /// A migrant arrives ([`Island::inject`]).
    ///
    /// # Errors
    /// Words that are not an admissible individual of this scenario.
    pub fn inject(&mut self, words: &[u32]) -> std::result::Result<(), String> {
        let mut at = 0;
        let ind = read_individual(&self.prepared.inst, self.params.decoder, words, &mut at)?;
        if at != words.len() {
            return Err("trailing words after the individual".into());
        }
        self.island.inject(&ind);
        Ok(())
    }

    /// The island's result as words.
    pub fn result_words(&self) -> Vec<u32> {
        result_words(&self.island.result())
    }
}

impl Part for IslandRun {
    fn step(&mut self, mail: &[u32]) -> Result<Vec<u32>> {
        let index = self.island.index();
        let bad = |e: String| ScenarioError::at("", format!("the mail of island {index}: {e}"));
        if mail.len() < 3 {
            return Err(bad("fewer than 3 words".into()));
        }
        let (kind, to, want_best) = (mail[0], mail[1], mail[2]);
        if mail.len() > 3 {
            self.inject(&mail[3..])
                .map_err(|e| bad(format!("the migrant: {e}")))?;
        }
        match kind {
            STEP => {
                self.run_to(to);
                let curve = &self.island.curve()[self.sent.min(self.island.curve().len())..];
                let mut out = Vec::with_capacity(3 + 2 * curve.len());
                push_f64(&mut out, self.island.best().makespan);
                out.push(curve.len() as u32);
                for &c in curve {
                    push_f64(&mut out, c);
                }
                self.sent = self.island.curve().len();
                if want_best != 0 {
                    out.extend(self.migrant());
                }
                Ok(out)
            }
            END => Ok(self.result_words()),
            k => Err(bad(format!("kind {k} is not 0 (step) or 1 (end)"))),
        }
    }
}

fn push_f64(out: &mut Vec<u32>, x: f64) {
    let b = x.to_bits();
    out.push(b as u32);
    out.push((b >> 32) as u32);
}

fn individual_words(ind: &Individual) -> Vec<u32> {
    let mut out = Vec::with_capacity(3 + ind.variants.len() + ind.order.len());
    out.push(match ind.packer {
        Packer::Nfdh => 0,
        Packer::Ffdh => 1,
        Packer::Bfdh => 2,
    });
    out.push(ind.variants.len() as u32);
    out.extend_from_slice(&ind.variants);
    out.push(ind.order.len() as u32);
    out.extend_from_slice(&ind.order);
    out
}

/// An island's result as words (see the module's documentation).
pub fn result_words(r: &IslandResult) -> Vec<u32> {
    let mut out = vec![r.index, r.evaluations as u32, (r.evaluations >> 32) as u32];
    push_f64(&mut out, r.init_ffdh);
    push_f64(&mut out, r.init_bfdh);
    out.push(r.curve.len() as u32);
    for &c in &r.curve {
        push_f64(&mut out, c);
    }
    out.extend(individual_words(&r.best));
    out
}

fn take<'a>(
    words: &'a [u32],
    at: &mut usize,
    n: usize,
    what: &str,
) -> std::result::Result<&'a [u32], String> {
    if words.len() - *at < n {
        return Err(format!("the words end inside {what}"));
    }
    let s = &words[*at..*at + n];
    *at += n;
    Ok(s)
}

fn read_f64(words: &[u32], at: &mut usize, what: &str) -> std::result::Result<f64, String> {
    let w = take(words, at, 2, what)?;
    Ok(f64::from_bits(w[0] as u64 | ((w[1] as u64) << 32)))
}

/// Reads an individual at `*at`: admissible variants meeting the constraint, a permutation as
/// order (list decoder) or none (shelf decoder); its makespan recomputed.
fn read_individual(
    inst: &Instance,
    decoder: Decoder,
    words: &[u32],
    at: &mut usize,
) -> std::result::Result<Individual, String> {
    let packer = match take(words, at, 1, "the packer")?[0] {
        0 => Packer::Nfdh,
        1 => Packer::Ffdh,
        2 => Packer::Bfdh,
        p => return Err(format!("packer {p} is not 0, 1 or 2")),
    };
    let m = inst.jobs.len();
    let nv = take(words, at, 1, "the variant count")?[0] as usize;
    if nv != m {
        return Err(format!("{nv} variants for {m} jobs"));
    }
    let variants = take(words, at, nv, "the variants")?.to_vec();
    for (i, &k) in variants.iter().enumerate() {
        if k as usize >= inst.jobs[i].variants.len() || !inst.fits(i, k) {
            return Err(format!("variant {k} of job {i} is not admissible"));
        }
    }
    if !inst.meets_constraint(&variants) {
        return Err("the variants miss the efficiency constraint".into());
    }
    let no = take(words, at, 1, "the order length")?[0] as usize;
    let want = if decoder == Decoder::List { m } else { 0 };
    if no != want {
        return Err(format!("an order of {no} jobs, expected {want}"));
    }
    let order = take(words, at, no, "the order")?.to_vec();
    let mut seen = vec![false; no];
    for &j in &order {
        if j as usize >= no || seen[j as usize] {
            return Err(format!("the order is not a permutation (job {j})"));
        }
        seen[j as usize] = true;
    }
    let mut ind = Individual {
        variants,
        order,
        packer,
        makespan: f64::INFINITY,
    };
    ga::recompute(inst, decoder, &mut ind);
    Ok(ind)
}

/// Reads the islands' results (`answers[i]` from island `i`'s worker, in any order of
/// islands): one result per island, each island once.
fn read_results(
    p: &Prepared,
    answers: &[Vec<u32>],
) -> std::result::Result<Vec<IslandResult>, String> {
    let islands = p.scenario.ga.islands;
    let cycles = p.scenario.ga.cycles as usize;
    if answers.len() != islands as usize {
        return Err(format!(
            "{} island results for {islands} islands",
            answers.len()
        ));
    }
    let mut out: Vec<Option<IslandResult>> = vec![None; islands as usize];
    for w in answers {
        let mut k = 0;
        let h = take(w, &mut k, 3, "a result's header")?;
        let (index, evaluations) = (h[0], h[1] as u64 | ((h[2] as u64) << 32));
        if index >= islands || out[index as usize].is_some() {
            return Err(format!("island {index} is unknown or given twice"));
        }
        let init_ffdh = read_f64(w, &mut k, "initFfdh")?;
        let init_bfdh = read_f64(w, &mut k, "initBfdh")?;
        let c = take(w, &mut k, 1, "the curve length")?[0] as usize;
        if c != cycles + 1 {
            return Err(format!(
                "island {index} ran {} cycles, not {cycles}",
                c as i64 - 1
            ));
        }
        let mut curve = Vec::with_capacity(c);
        for _ in 0..c {
            curve.push(read_f64(w, &mut k, "the curve")?);
        }
        let best = read_individual(&p.inst, p.scenario.ga.decoder, w, &mut k)?;
        if k != w.len() {
            return Err(format!("island {index}: trailing words"));
        }
        out[index as usize] = Some(IslandResult {
            index,
            best,
            curve,
            evaluations,
            init_ffdh,
            init_bfdh,
        });
    }
    Ok(out.into_iter().flatten().collect())
}
