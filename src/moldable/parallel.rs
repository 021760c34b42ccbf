//! The GA's islands run apart: the step API the page's Web Workers use (SPEC §5, "parallel GA
//! variants: multistart"). Each worker hosts one or more [`IslandRun`]s; the page advances every
//! island to the same cycles, and at each exchange cycle ([`ga::exchange_due`]) hands island `i`
//! the best of island `i - 1` ([`ga::migrants`]) as [`IslandRun::migrant`] words; once all `V`
//! cycles have run (and the last exchange, if due at `V`, is done) it passes every island's
//! [`IslandRun::result_words`] to [`finish`], which builds the report. The result depends only on
//! the scenario (seed, islands, `exchangeEvery`), never on the number of workers or on timing:
//! [`finish`] returns exactly the bytes [`crate::api::run`] returns for the same text, which runs
//! the same islands one after another with the same exchanges.
//!
//! Words: an individual is `[packer, m, variants.., o, order..]` (`packer` 0 NFDH, 1 FFDH,
//! 2 BFDH; `o` is 0 or `m`); its makespan is recomputed on arrival, so no float crosses in it.
//! An island result is `[index, evaluations (lo, hi), initFfdh, initBfdh, c, curve..,
//! individual..]`, each float as its IEEE-754 bits in two words (low first); [`finish`] takes
//! `[count, len_0, result_0.., len_1, result_1..]`. Words that do not decode are an error, never
//! a panic.

use super::ga::{self, GaOutcome, GaParams, Individual, Island, IslandResult};
use super::model::Instance;
use super::scenario::{self, Decoder, Method, MoldableScenario};
use super::shelf::Packer;
use crate::engines::Engine;
use crate::error::{Result, ScenarioError};
use crate::progress::NoProgress;
use crate::scenario::{parse_engine_fields, parse_envelope, Meta, ReportEnvelope};
use serde::Serialize;

/// A parsed and validated moldable scenario with its instance.
pub struct Prepared {
    pub meta: Meta,
    pub scenario: MoldableScenario,
    pub inst: Instance,
}

/// Parses scenario text as [`crate::api::run`] does and builds its instance.
///
/// # Errors
/// Every error of the scenario, at its path; a scenario of another engine at `$.engine`.
pub fn prepare(text: &str) -> Result<Prepared> {
    let env = parse_envelope(text, &crate::engines::engine_ids())?;
    if env.meta.engine != super::Moldable::ID {
        return Err(ScenarioError::at(
            "engine",
            format!(
                "the islands run moldable scenarios only, got {:?}",
                env.meta.engine
            ),
        ));
    }
    let scenario: MoldableScenario =
        parse_engine_fields(env.fields, &<super::Moldable as Engine>::params())?;
    // admitted as the dispatcher admits it (Engine::validate), then built for its seed
    scenario::validate(&scenario)?;
    let inst = scenario::instance(&scenario, env.meta.seed)?;
    Ok(Prepared {
        meta: env.meta,
        scenario,
        inst,
    })
}

/// How the page runs a scenario's islands in workers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    pub islands: u32,
    pub cycles: u32,
    pub exchange_every: u32,
    /// Workers asked for (`ga.workers`); the page caps it by `islands` and its hardware threads.
    pub workers: u32,
    /// Cycles between two partial results (the live curve), as [`super::run`] posts them.
    pub partial_every: u32,
}

/// The plan of a scenario that asks for several workers for a GA with several islands; `None`
/// when it runs as one ([`crate::api::run`]).
pub fn plan(p: &Prepared) -> Option<Plan> {
    let g = &p.scenario.ga;
    if !p.scenario.methods.contains(&Method::Ga) || g.islands < 2 || g.workers < 2 {
        return None;
    }
    Some(Plan {
        islands: g.islands,
        cycles: g.cycles,
        exchange_every: g.exchange_every,
        workers: g.workers.min(g.islands),
        partial_every: super::partial_every(g.cycles),
    })
}

/// The plan of scenario text ([`plan`]); `None` also for text that does not name `workers`
/// (checked first, so other scenarios are not parsed twice) or that is refused.
pub fn plan_of_text(text: &str) -> Option<Plan> {
    if !text.contains("\"workers\"") {
        return None;
    }
    prepare(text).ok().as_ref().and_then(plan)
}

/// One island of a scenario, with the instance it runs on.
pub struct IslandRun {
    prepared: Prepared,
    params: GaParams,
    island: Island,
    lower_bound: f64,
}

impl IslandRun {
    /// Island `index` of the scenario `text`, its initial population built.
    ///
    /// # Errors
    /// The scenario's errors; `index` not below `ga.islands`.
    pub fn new(text: &str, index: u32) -> Result<IslandRun> {
        let prepared = prepare(text)?;
        let params = super::ga_params(&prepared.scenario);
        if index >= params.islands {
            return Err(ScenarioError::at(
                "ga.islands",
                format!("island {index} of {}", params.islands),
            ));
        }
        let island = Island::new(&prepared.inst, params, prepared.meta.seed, index);
        let lower_bound = super::bound::lower_bound(&prepared.inst).value;
        Ok(IslandRun {
            prepared,
            params,
            island,
            lower_bound,
        })
    }

    /// Runs cycles until `cycle` (at most `V`) have run.
    pub fn run_to(&mut self, cycle: u32) {
        self.island.run_to(&self.prepared.inst, cycle);
    }

    pub fn cycle(&self) -> u32 {
        self.island.cycle()
    }

    /// The island's best makespan now.
    pub fn makespan(&self) -> f64 {
        self.island.best().makespan
    }

    /// The island's best makespan after each cycle from `from` on.
    pub fn curve_from(&self, from: u32) -> Vec<f64> {
        let c = self.island.curve();
        c[(from as usize).min(c.len())..].to_vec()
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

    /// The partial result of this island's best ([`super::partial_doc`]) with `curve` (the
    /// curve over all islands so far) after cycle `cycle`.
    pub fn partial(&self, cycle: u32, curve: &[f64]) -> serde_json::Value {
        super::partial_doc(
            &self.prepared.inst,
            &self.prepared.scenario,
            self.lower_bound,
            cycle,
            self.island.best(),
            curve,
        )
    }

    /// The island's result as words, for [`finish`].
    pub fn result_words(&self) -> Vec<u32> {
        result_words(&self.island.result())
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

/// Reads `[count, len_0, result_0.., ...]`: one result per island, each island once.
fn read_results(p: &Prepared, words: &[u32]) -> std::result::Result<Vec<IslandResult>, String> {
    let islands = p.scenario.ga.islands;
    let cycles = p.scenario.ga.cycles as usize;
    let mut at = 0;
    let count = take(words, &mut at, 1, "the island count")?[0];
    if count != islands {
        return Err(format!("{count} island results for {islands} islands"));
    }
    let mut out: Vec<Option<IslandResult>> = vec![None; islands as usize];
    for _ in 0..count {
        let len = take(words, &mut at, 1, "a result's length")?[0] as usize;
        let w = take(words, &mut at, len, "a result")?;
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
    if at != words.len() {
        return Err("trailing words after the results".into());
    }
    Ok(out.into_iter().flatten().collect())
}

/// The report of a scenario whose islands ran elsewhere: byte for byte what
/// [`crate::api::run`] returns for `text` when the results are those of its islands.
///
/// # Errors
/// The scenario's errors; results that do not decode or do not match the scenario, at `$`.
pub fn finish(text: &str, results: &[u32]) -> Result<String> {
    let p = prepare(text)?;
    let results = read_results(&p, results)
        .map_err(|e| ScenarioError::at("", format!("the islands' results: {e}")))?;
    let outcome: GaOutcome = ga::merge(&p.inst, p.scenario.ga.decoder, &results);
    let mut once = Some(outcome);
    let report = super::assemble(&p.inst, &p.scenario, &mut NoProgress, &mut |_, _, _| {
        once.take().expect("one GA per scenario")
    });
    let doc = ReportEnvelope {
        version: 1,
        engine: super::Moldable::ID,
        name: &p.meta.name,
        seed: p.meta.seed,
        preview: false,
        report: &report,
    };
    Ok(serde_json::to_string(&doc).expect("reports serialize"))
}

/// `[count, len_0, result_0.., ...]` of results' words, in the order given.
pub fn pack_results(results: &[Vec<u32>]) -> Vec<u32> {
    let mut out = vec![results.len() as u32];
    for r in results {
        out.push(r.len() as u32);
        out.extend_from_slice(r);
    }
    out
}
