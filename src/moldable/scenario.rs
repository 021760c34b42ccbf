//! The moldable engine's scenario fields, their limits, the admission estimate and the form.
//! Exactly one job source: `jobs` (listed), `torque` (TORQUE/Maui `-L` requests), `swf` (a
//! Standard Workload Format log with an optional speedup model) or `generate` (seeded random or
//! guillotine sets). Format reference: `docs/format.md`, "Engine `moldable`".

pub use super::limits::{MAX_MACHINES, MAX_TIME, MAX_VARIANTS};
use super::model::{Instance, Job, Variant};
use crate::error::{Result, ScenarioError};
use crate::params::{choices, static_table, table_defaults, Param};
use serde::Deserialize;
use serde_json::json;

/// Most jobs in a set.
pub const MAX_JOBS: usize = 20_000;
/// Most weight of a variant.
pub const MAX_WEIGHT: f64 = 1e9;
/// Most variants per job of a generated set.
pub const MAX_GENERATED_VARIANTS: u32 = 8;
/// Tallest guillotine strip.
pub const MAX_HEIGHT: u32 = 1_000_000_000;
/// Most GA cycles, population and islands.
pub const MAX_CYCLES: u32 = 100_000;
pub const MAX_POPULATION: u32 = 256;
pub const MAX_ISLANDS: u32 = 16;
/// Most Web Workers the page runs the islands in.
pub const MAX_WORKERS: u32 = 8;
/// The estimated work ([`estimate_work`]) the budget ([`crate::engine::MAX_SECONDS`]) admits at
/// [`NS_PER_STEP`]; the source's scale (m = 3000, K = 16, V = 1000, shelves) is admitted at
/// every n.
pub const MAX_WORK: f64 = crate::engine::MAX_SECONDS * 1e9 / NS_PER_STEP;
/// What one step of the list decoder's estimate costs against a shelf step: its `2 m` profile
/// segments per job are an upper bound rarely approached (`cargo bench --bench bounds --
/// moldable`: the list decoder with n = 64, m = 3,000 at its largest admitted cycles ran in a
/// twentieth of its estimate with a weight of 0.25).
pub const LIST_STEP_WEIGHT: f64 = 0.1;

/// The cost of one step of a shelf packing (a comparison of the sort, a level of the shelf
/// search) in estimate steps. With 4, `bounds` measures at most 1.41 ns per estimated step on
/// shelf families (the source's scale at the limit), against 0.95 for one machine.
pub const SHELF_STEP_WEIGHT: f64 = 4.0;

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MoldableScenario {
    /// Machine size `n`.
    pub machines: u32,
    pub jobs: Option<Vec<JobSpec>>,
    /// TORQUE/Maui request text: one job per line, one `-L` request per variant.
    pub torque: Option<String>,
    pub swf: Option<SwfSpec>,
    pub generate: Option<GenerateSpec>,
    /// The efficiency constraint `w`: the mean relative weight of the chosen variants must be at
    /// least this (0..1); absent: no constraint.
    pub efficiency: Option<f64>,
    #[serde(default = "d::methods")]
    pub methods: Vec<Method>,
    #[serde(default)]
    pub ga: GaSpec,
}

/// One listed job: a rigid `(ranks, time)` or a list of `variants`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct JobSpec {
    #[serde(default)]
    pub name: String,
    pub ranks: Option<u32>,
    pub time: Option<f64>,
    pub weight: Option<f64>,
    pub variants: Option<Vec<VariantSpec>>,
    #[serde(default = "d::release")]
    pub release: f64,
}

impl JobSpec {
    /// A rigid job's weight, its default when absent.
    pub fn weight(&self) -> f64 {
        self.weight.unwrap_or_else(d::job_weight)
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VariantSpec {
    pub ranks: u32,
    pub time: f64,
    #[serde(default = "d::variant_weight")]
    pub weight: f64,
}

/// An SWF log, as text or as a file attached beside the scenario ([`crate::attach`]), and how
/// its rigid jobs become moldable.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SwfSpec {
    pub text: Option<String>,
    /// The name of an attached log (instead of `text`).
    pub file: Option<String>,
    /// The attached log's fingerprint: another file is refused.
    pub digest: Option<String>,
    /// Amdahl serial fraction `s` (0..1): adds variants at 1/4, 1/2 and 2 times the requested
    /// processors; absent: the jobs stay rigid.
    pub serial_fraction: Option<f64>,
    /// Keep submit times as release times (default false: the whole log is one set at time 0,
    /// as the source schedules sets).
    #[serde(default = "d::releases")]
    pub releases: bool,
}

choices! {
    pub enum GenerateKind {
        /// Random moldable set (see [`super::generate::random_set`]).
        Random = ("random", "Random moldable set"),
        /// Guillotine cut of an `n x H` strip: optimum exactly `H`.
        Guillotine = ("guillotine", "Guillotine cut (optimum known)"),
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GenerateSpec {
    pub kind: GenerateKind,
    /// Number of jobs `m`.
    pub jobs: u32,
    /// Most variants per job (each job gets 1 to this many).
    #[serde(default = "d::max_variants")]
    pub max_variants: u32,
    /// Height `H` of the guillotine strip (its optimum makespan).
    #[serde(default = "d::height")]
    pub height: u32,
}

choices! {
    /// The methods, in the order reports list them.
    #[derive(PartialOrd, Ord)]
    pub enum Method {
        Nfdh = ("nfdh", "NFDH"),
        Ffdh = ("ffdh", "FFDH"),
        Bfdh = ("bfdh", "BFDH"),
        Ga = ("ga", "Genetic algorithm"),
    }
}

choices! {
    /// How the GA turns a chromosome into a schedule.
    pub enum Decoder {
        /// The source's: variants per job, packed by the individual's FFDH or BFDH.
        Shelf = ("shelf", "Shelves (the source: FFDH/BFDH)"),
        /// Ours: variants and a job order, placed by list scheduling with backfilling.
        List = ("list", "List scheduling with backfilling"),
    }
}

/// The genetic algorithm's parameters (defaults in the field table: the source's K = 16,
/// P = 90 %, G = 2).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GaSpec {
    #[serde(default = "d::population")]
    pub population: u32,
    #[serde(default = "d::cycles")]
    pub cycles: u32,
    #[serde(default = "d::crossover")]
    pub crossover: f64,
    #[serde(default = "d::parts")]
    pub parts: u32,
    #[serde(default = "d::decoder")]
    pub decoder: Decoder,
    /// Multistart islands, each with its own seed stream, exchanging their best.
    #[serde(default = "d::islands")]
    pub islands: u32,
    /// Cycles between two exchanges of the islands' best.
    #[serde(default = "d::exchange_every")]
    pub exchange_every: u32,
    /// Web Workers the page runs the islands in (at most the islands, the browser's hardware
    /// threads and [`MAX_WORKERS`]); the CLI runs the islands one after another. The report
    /// does not depend on it.
    #[serde(default = "d::workers")]
    pub workers: u32,
}

impl Default for GaSpec {
    /// Every field at its table default.
    fn default() -> Self {
        GaSpec {
            population: d::population(),
            cycles: d::cycles(),
            crossover: d::crossover(),
            parts: d::parts(),
            decoder: d::decoder(),
            islands: d::islands(),
            exchange_every: d::exchange_every(),
            workers: d::workers(),
        }
    }
}

/// Serde's defaults, read from the field table ([`params`]).
pub mod d {
    use super::*;
    table_defaults!(super::table;
        methods: Vec<Method> = "methods",
        population: u32 = "ga.population",
        cycles: u32 = "ga.cycles",
        crossover: f64 = "ga.crossover",
        parts: u32 = "ga.parts",
        decoder: Decoder = "ga.decoder",
        islands: u32 = "ga.islands",
        exchange_every: u32 = "ga.exchangeEvery",
        workers: u32 = "ga.workers",
        job_weight: f64 = "jobs[].weight",
        release: f64 = "jobs[].release",
        variant_weight: f64 = "jobs[].variants[].weight",
        releases: bool = "swf.releases",
        max_variants: u32 = "generate.maxVariants",
        height: u32 = "generate.height",
    );
}

/// Checks values, limits, the job source and the admission estimate; builds nothing heavy
/// except the jobs themselves (parsed TORQUE/SWF text, at most [`MAX_JOBS`]).
pub fn validate(s: &MoldableScenario) -> Result<()> {
    build(s, 0).map(|_| ())
}

/// The instance of a scenario (validated on the way), refused when its estimated work
/// ([`estimate_work`]) is over [`MAX_WORK`].
///
/// # Errors
/// The first problem, at its JSON path (TORQUE and SWF errors name the line and column).
pub fn build(s: &MoldableScenario, seed: u64) -> Result<Instance> {
    let inst = instance(s, seed)?;
    estimate(&inst, s).admit(
        "",
        "steps",
        &format!("m = {}, {} GA evaluations", inst.jobs.len(), evaluations(s)),
        "use fewer jobs, cycles, islands or a smaller population",
    )?;
    Ok(inst)
}

/// Native nanoseconds per estimated step ([`estimate_work`]), the moldable engine's work unit:
/// `cargo bench --bench bounds -- moldable` measured 0.15 (the list decoder) to 0.87 (16
/// variants a job under a 0.97 constraint, 256 individuals on 16 islands) times the estimated
/// time on the families that stress the estimate, on our shared 2-core machine.
pub const NS_PER_STEP: f64 = 1.5;

/// The engine-wide estimate of an instance: [`estimate_work`] at [`NS_PER_STEP`]; memory: the
/// jobs and variants, and every island's population (variants and order per individual).
pub fn estimate(inst: &Instance, s: &MoldableScenario) -> crate::engine::Estimate {
    let m = inst.jobs.len() as f64;
    let variants: f64 = inst.jobs.iter().map(|j| j.variants.len() as f64).sum();
    let individuals = if s.methods.contains(&Method::Ga) {
        f64::from(s.ga.population) * f64::from(s.ga.islands) * 2.0
    } else {
        0.0
    };
    let bytes = 96.0 * m + 24.0 * variants + individuals * (8.0 * m + 64.0) + 8.0 * 1048576.0;
    crate::engine::Estimate::new(estimate_work(inst, s), NS_PER_STEP, bytes)
}

/// The instance of a scenario with every check but admission. Admission ([`validate`]) sees no
/// seed, so a generated set is admitted on the set seed 0 draws; the run builds the set of its
/// own seed with this (whose estimate may differ a little), so an admitted scenario always runs.
///
/// # Errors
/// As [`build`], admission aside.
pub fn instance(s: &MoldableScenario, seed: u64) -> Result<Instance> {
    let n = s.machines;
    if s.methods.is_empty() {
        return Err(ScenarioError::at("methods", "choose at least one method"));
    }
    for (i, m) in s.methods.iter().enumerate() {
        if s.methods[..i].contains(m) {
            return Err(ScenarioError::at(
                format!("methods[{i}]"),
                format!("{:?} is listed twice", m.id()),
            ));
        }
    }
    let sources = [
        s.jobs.is_some(),
        s.torque.is_some(),
        s.swf.is_some(),
        s.generate.is_some(),
    ];
    match sources.iter().filter(|&&b| b).count() {
        0 => {
            return Err(ScenarioError::at(
                "",
                "give the jobs: one of \"jobs\", \"torque\", \"swf\" or \"generate\"",
            ))
        }
        1 => {}
        _ => {
            return Err(ScenarioError::at(
                "",
                "give exactly one of \"jobs\", \"torque\", \"swf\" and \"generate\"",
            ))
        }
    }
    let (jobs, optimum) = if let Some(list) = &s.jobs {
        (listed_jobs(list, n)?, None)
    } else if let Some(text) = &s.torque {
        let jobs = super::torque::parse(text, MAX_JOBS)
            .map_err(|e| ScenarioError::at("torque", e.to_string()))?;
        (jobs, None)
    } else if let Some(sw) = &s.swf {
        let log = swf_log(sw)?;
        let mut log = (*log).clone();
        log.jobs.truncate(MAX_JOBS);
        (
            super::generate::from_swf(&log, n, sw.serial_fraction, sw.releases),
            None,
        )
    } else {
        let gspec = s.generate.as_ref().expect("one source");
        match gspec.kind {
            GenerateKind::Random => (
                super::generate::random_set(n, gspec.jobs, gspec.max_variants, seed),
                None,
            ),
            GenerateKind::Guillotine => {
                if (gspec.jobs as u64) > n as u64 * gspec.height as u64 {
                    return Err(ScenarioError::at(
                        "generate.jobs",
                        format!(
                            "a {n} x {} strip cannot be cut into {} pieces",
                            gspec.height, gspec.jobs
                        ),
                    ));
                }
                (
                    super::guillotine::generate(
                        n,
                        gspec.height,
                        gspec.jobs,
                        gspec.max_variants,
                        seed,
                    ),
                    Some(gspec.height as f64),
                )
            }
        }
    };
    if jobs.is_empty() {
        return Err(ScenarioError::at("", "the job set is empty"));
    }
    if jobs.len() > MAX_JOBS {
        return Err(ScenarioError::at(
            "",
            format!("at most {MAX_JOBS} jobs, got {}", jobs.len()),
        ));
    }
    for (i, j) in jobs.iter().enumerate() {
        if !j.variants.iter().any(|v| v.ranks <= n) {
            return Err(ScenarioError::at(
                job_path(s, i),
                format!(
                    "no variant of job {} fits on {n} machines (the smallest asks for {} ranks)",
                    j.name,
                    j.variants.iter().map(|v| v.ranks).min().unwrap_or(0)
                ),
            ));
        }
    }
    Ok(Instance {
        machines: n,
        jobs,
        efficiency: s.efficiency,
        optimum,
    })
}

/// The log of `sw`: its text, or the attached file it names, fingerprint checked.
fn swf_log(sw: &SwfSpec) -> Result<std::sync::Arc<crate::formats::swf::SwfLog>> {
    crate::attach::SwfSource {
        text: sw.text.as_deref(),
        file: sw.file.as_deref(),
        digest: sw.digest.as_deref(),
        paths: ["swf.text", "swf.file", "swf.digest"],
    }
    .log(MAX_JOBS)
}

fn job_path(s: &MoldableScenario, i: usize) -> String {
    if s.jobs.is_some() {
        format!("jobs[{i}]")
    } else if s.torque.is_some() {
        "torque".into()
    } else if let Some(sw) = &s.swf {
        if sw.file.is_some() {
            "swf.file"
        } else {
            "swf.text"
        }
        .into()
    } else {
        "generate".into()
    }
}

/// GA evaluations: the initial population and `K` children per cycle, per island.
pub fn evaluations(s: &MoldableScenario) -> u64 {
    if !s.methods.contains(&Method::Ga) {
        return 0;
    }
    let g = &s.ga;
    g.population as u64 * (g.cycles as u64 + 1) * g.islands as u64
}

/// Most shelves NFDH, FFDH or BFDH can open on `inst` (any variants): `min(m, floor(2 W / n) + 1)`
/// with `W` the sum over jobs of their widest fitting variant, when no job has a release time;
/// `m` otherwise. Why: a job opens shelf `k >= 2` only when it does not fit on shelf `k - 1`, so
/// `used(k - 1) + width(opener k) > n`; summed over `k = 2..S` both sums are at most `W`, so
/// `(S - 1) n < 2 W`. (A release time may open a shelf that has room, so then only `S <= m`.)
pub fn shelf_bound(inst: &Instance) -> f64 {
    let m = inst.jobs.len() as f64;
    if inst.jobs.iter().any(|j| j.release > 0.0) {
        return m;
    }
    let n = inst.machines as f64;
    let w: f64 = inst
        .jobs
        .iter()
        .map(|j| {
            j.variants
                .iter()
                .filter(|v| v.ranks <= inst.machines)
                .map(|v| v.ranks)
                .max()
                .unwrap_or(0) as f64
        })
        .sum();
    m.min((2.0 * w / n).floor() + 1.0)
}

/// Steps charged to every GA evaluation besides its decoding: building the child (crossover or
/// mutation, repair), allocating its vectors and its share of sorting the population,
/// `16 m + 1000` (measured by `bounds`: 0.4 to 2.3 us per evaluation of 2- and 20-job sets with
/// K = 256 and 16 islands). Without it a
/// set of a few jobs with the largest population, cycles and islands (4e8 evaluations) would be
/// admitted as nearly free.
pub fn per_evaluation_overhead(m: f64) -> f64 {
    16.0 * m + 1000.0
}

/// Steps of one repair of a child's variants under an efficiency constraint `w`
/// (`Instance::repair`): the check of the mean relative weight, `V m` (each relative weight scans
/// the job's `V` variants); when the constraint is above what a uniformly random choice of
/// variants averages (so children of repaired parents usually miss it), the jobs sorted by
/// relative weight, two relative weights per comparison, `2 V m log2 m`, then up to `m` switches.
/// With 16 variants under a 0.97 constraint a repair costs several shelf packings: without this
/// term such a set ran 4.5 ns per estimated step, three times the others. 0 without a
/// constraint.
pub fn repair_steps(inst: &Instance) -> f64 {
    let Some(w) = inst.efficiency else {
        return 0.0;
    };
    let m = inst.jobs.len() as f64;
    let v = inst
        .jobs
        .iter()
        .map(|j| j.variants.len())
        .max()
        .unwrap_or(1) as f64;
    let check = v * m;
    let random_mean = inst
        .jobs
        .iter()
        .map(|j| {
            (0..j.variants.len())
                .map(|k| j.relative_weight(k))
                .sum::<f64>()
                / j.variants.len().max(1) as f64
        })
        .sum::<f64>()
        / m.max(1.0);
    if w <= random_mean {
        check
    } else {
        check + 2.0 * v * m * libm::log2(m.max(2.0)) + v * m
    }
}

/// Steps of one shelf packing, weighted by [`SHELF_STEP_WEIGHT`]: `m log2 m` to sort, then per
/// job the shelf search over at most `S` = [`shelf_bound`] shelves, `log2 S + 1` for the indexed
/// search (`super::shelf`) or `S` when release times make BFDH scan.
pub fn shelf_packing_steps(inst: &Instance) -> f64 {
    let m = inst.jobs.len() as f64;
    let shelves = shelf_bound(inst);
    let per_job = if inst.jobs.iter().any(|j| j.release > 0.0) {
        shelves
    } else {
        libm::log2(shelves.max(1.0)) + 1.0
    };
    SHELF_STEP_WEIGHT * (m * per_job + m * libm::log2(m.max(2.0)))
}

/// Upper estimate of the work in steps: each shelf packing [`shelf_packing_steps`]; each list
/// decoding at most `2m` profile segments per job (weighted by [`LIST_STEP_WEIGHT`]); GA evaluations each cost one decoding
/// (the list decoder's initial population also one packing) and [`per_evaluation_overhead`].
pub fn estimate_work(inst: &Instance, s: &MoldableScenario) -> f64 {
    let m = inst.jobs.len() as f64;
    let sort = m * libm::log2(m.max(2.0));
    let shelf = shelf_packing_steps(inst);
    let list = LIST_STEP_WEIGHT * 2.0 * m * m + sort;
    let per_eval = match s.ga.decoder {
        Decoder::Shelf => shelf,
        Decoder::List => list + shelf,
    } + per_evaluation_overhead(m)
        + repair_steps(inst);
    4.0 * shelf + evaluations(s) as f64 * per_eval
}

fn listed_jobs(list: &[JobSpec], n: u32) -> Result<Vec<Job>> {
    if list.len() > MAX_JOBS {
        return Err(ScenarioError::at(
            "jobs",
            format!("at most {MAX_JOBS} jobs, got {}", list.len()),
        ));
    }
    let _ = n;
    let mut out = Vec::with_capacity(list.len());
    for (i, j) in list.iter().enumerate() {
        let p = format!("jobs[{i}]");
        let variants: Vec<VariantSpec> = match (&j.variants, j.ranks, j.time) {
            (Some(v), None, None) => {
                if j.weight.is_some() {
                    return Err(ScenarioError::at(
                        format!("{p}.weight"),
                        "give each variant its own weight",
                    ));
                }
                v.clone()
            }
            (None, Some(r), Some(t)) => vec![VariantSpec {
                ranks: r,
                time: t,
                weight: j.weight(),
            }],
            (Some(_), _, _) => {
                return Err(ScenarioError::at(
                    p,
                    "give either \"variants\" or \"ranks\" and \"time\", not both",
                ))
            }
            (None, _, _) => {
                return Err(ScenarioError::at(
                    p,
                    "a job needs \"ranks\" and \"time\" (rigid) or \"variants\" (moldable)",
                ))
            }
        };
        if variants.is_empty() || variants.len() > MAX_VARIANTS {
            return Err(ScenarioError::at(
                format!("{p}.variants"),
                format!("from 1 to {MAX_VARIANTS} variants, got {}", variants.len()),
            ));
        }
        let mut vs = Vec::with_capacity(variants.len());
        for v in variants.iter() {
            vs.push(Variant {
                ranks: v.ranks,
                time: v.time,
                weight: v.weight,
            });
        }
        out.push(Job {
            name: if j.name.is_empty() {
                format!("J{}", i + 1)
            } else {
                j.name.chars().take(64).collect()
            },
            variants: vs,
            release: j.release,
        });
    }
    Ok(out)
}

/// The moldable engine's field table: each field's path, label, kind, default, range and
/// options, stated once (see [`crate::params`]).
pub fn params() -> Vec<Param> {
    table().to_vec()
}

/// The field table, built once.
pub fn table() -> &'static [Param] {
    static_table!(build_table)
}

fn build_table() -> Vec<Param> {
    vec![
        Param::new("machines", "Machines n", "int", json!(null)).range(1.0, MAX_MACHINES as f64),
        Param::new(
            "efficiency",
            "Efficiency constraint w",
            "number",
            json!(null),
        )
        .range(0.0, 1.0)
        .step(0.05)
        .empty("none")
        .help("mean relative weight of the chosen variants, at least w (the source: 0.75)"),
        Param::new("methods", "Methods", "multi", json!(Method::IDS)).options(Method::options()),
        Param::new("ga.population", "Population K", "int", json!(16))
            .range(2.0, MAX_POPULATION as f64),
        Param::new("ga.cycles", "Cycles V", "int", json!(1000)).range(0.0, MAX_CYCLES as f64),
        Param::new(
            "ga.crossover",
            "Crossover probability P",
            "number",
            json!(0.9),
        )
        .range(0.0, 1.0)
        .step(0.05),
        Param::new("ga.parts", "Crossover parts G", "int", json!(2)).range(2.0, 64.0),
        Param::new("ga.decoder", "Decoder", "enum", json!("shelf")).options(Decoder::options()),
        Param::new("ga.islands", "Islands (multistart)", "int", json!(1))
            .range(1.0, MAX_ISLANDS as f64),
        Param::new("ga.exchangeEvery", "Exchange every", "int", json!(50))
            .range(1.0, MAX_CYCLES as f64)
            .unit("cycles"),
        Param::new("ga.workers", "Web Workers", "int", json!(1))
            .range(1.0, MAX_WORKERS as f64)
            .help("the page runs the islands in this many workers at once (capped by the islands and the machine's threads); same report"),
        Param::rule("jobs[].ranks", "int").range(1.0, MAX_MACHINES as f64),
        Param::rule_with_default("jobs[].weight", "number", json!(1.0)).range(0.0, MAX_WEIGHT),
        Param::rule_with_default("jobs[].release", "number", json!(0.0)).range(0.0, MAX_TIME),
        Param::rule("jobs[].variants[].ranks", "int").range(1.0, MAX_MACHINES as f64),
        Param::rule("jobs[].time", "number").range_above(0.0, MAX_TIME),
        Param::rule("jobs[].variants[].time", "number").range_above(0.0, MAX_TIME),
        Param::rule_with_default("jobs[].variants[].weight", "number", json!(1.0))
            .range(0.0, MAX_WEIGHT),
        Param::rule("swf.serialFraction", "number").range(0.0, 1.0),
        Param::rule_with_default("swf.releases", "bool", json!(false)),
        Param::rule("generate.kind", "enum").options(GenerateKind::options()),
        Param::rule("generate.jobs", "int").range(1.0, MAX_JOBS as f64),
        Param::rule_with_default("generate.maxVariants", "int", json!(3))
            .range(1.0, MAX_GENERATED_VARIANTS as f64),
        Param::rule_with_default("generate.height", "int", json!(1000))
            .range(1.0, MAX_HEIGHT as f64),
        Param::new("seed", "Seed", "uint64", json!(1))
            .help("random variants, crossover and mutation draws, generated sets"),
    ]
}
