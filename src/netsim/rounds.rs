//! Bulk-synchronous jobs: each job repeats `rounds` times "compute, then send all its messages
//! at once"; a round ends when its last message arrives. Several jobs run at the same time
//! (a partially filled cluster) and share links. A job that shares no capacity with another
//! repeats its first round exactly (the model is shift-invariant in time), so it is simulated
//! for one round: a job alone in [`simulate_rounds`], every such job in
//! [`simulate_rounds_with`]; [`simulate_every_round`] simulates every round.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::maxmin::{Lazy, ModelParams, Net};
use super::{check_flow, Model, Platform};
use crate::progress::Progress;

/// One message of a round: `bytes` from host `src` to host `dst`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Message {
    pub src: u32,
    pub dst: u32,
    pub bytes: f64,
}

/// A job's traffic: the same `messages` every round, `compute` seconds of computation before
/// them, `rounds` rounds, the first starting at `start` (s).
#[derive(Debug, Clone, PartialEq)]
pub struct JobTraffic {
    pub messages: Vec<Message>,
    pub compute: f64,
    pub rounds: u32,
    pub start: f64,
}

/// What [`simulate_rounds`] returns; vectors are indexed by job.
#[derive(Debug, Clone, PartialEq)]
pub struct RoundsResult {
    /// When the job's last round ended (s); its `start` when it has no rounds.
    pub job_end: Vec<f64>,
    /// `job_end - start`: the job's run time.
    pub job_time: Vec<f64>,
    /// Sum over rounds of the communication phase (from sending to the last arrival).
    pub comm_time: Vec<f64>,
    /// Latest `job_end`.
    pub makespan: f64,
    /// Payload bytes carried by every directed link, all jobs and rounds.
    pub link_bytes: Vec<f64>,
    /// Sharing recomputations done, and the flows they covered in total.
    pub solves: u64,
    pub solved_flows: u64,
    /// The engine's work: flow-capacity incidences visited by recomputations plus flows
    /// rescheduled (what its time follows, see [`super::maxmin`]).
    pub work: u64,
    /// Flows that ended early, batched with an earlier end ([`Sharing::end_tolerance`]).
    pub batched_ends: u64,
}

/// How a simulation recomputes the sharing: the method for ends, and the share of its bytes a
/// flow may have left and still end with an earlier end (0, exact; otherwise the approximation
/// of [`super::maxmin`], "Batched ends": every flow sends at least `1 - end_tolerance` of its
/// bytes at the sharing's rates).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sharing {
    pub lazy: Lazy,
    pub end_tolerance: f64,
}

impl From<Lazy> for Sharing {
    fn from(lazy: Lazy) -> Sharing {
        Sharing {
            lazy,
            end_tolerance: 0.0,
        }
    }
}

/// What a budgeted simulation counts against its budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// The flows covered by rate recomputations (`solved_flows`).
    Flows(u64),
    /// The engine's `work`.
    Work(u64),
}

impl Budget {
    fn exceeded(self, solved_flows: u64, work: u64) -> bool {
        match self {
            Budget::Flows(b) => solved_flows > b,
            Budget::Work(b) => work > b,
        }
    }
}

/// Runs `jobs` together on `p` under `model` (module doc).
///
/// # Errors
/// A message with a host out of range or bad bytes, or a bad `compute`/`start` (named
/// `jobs[j].messages[i]`, `jobs[j].compute`, `jobs[j].start`).
///
/// A job alone is simulated for one round, repeated `rounds` times (every round starts on an
/// empty network, so all take the same time; theorem at [`by_groups`]); several jobs are
/// simulated round by round ([`simulate_rounds_with`] also splits them into groups that share
/// no capacity).
///
/// # Complexity
/// Templates of all messages are built once (`O(total route length)` memory); each round
/// re-launches them. Time: see [`super::maxmin`].
pub fn simulate_rounds(
    p: &Platform,
    jobs: &[JobTraffic],
    model: Model,
    progress: &mut dyn Progress,
) -> Result<RoundsResult, String> {
    simulate_rounds_within(p, jobs, model, u64::MAX, Lazy::Auto, progress)
}

/// [`simulate_rounds`] that gives up once its rate recomputations have covered more than
/// `budget` flows in all (the engine's `solved_flows`, which its work follows): an engine that must finish in seconds whatever the placement passes its budget and
/// reports the case as not simulated; `sharing` as in [`simulate_rounds_with`].
///
/// # Errors
/// As [`simulate_rounds`], and a sentence saying where the budget ran out.
pub fn simulate_rounds_within(
    p: &Platform,
    jobs: &[JobTraffic],
    model: Model,
    budget: u64,
    sharing: impl Into<Sharing>,
    progress: &mut dyn Progress,
) -> Result<RoundsResult, String> {
    check_jobs(p, jobs)?;
    by_groups(
        p,
        jobs,
        model,
        Budget::Flows(budget),
        sharing.into(),
        false,
        progress,
    )
}

/// [`simulate_rounds`] that gives up once the count `budget` names passes its value (a
/// simulation may overshoot by one event's recomputation).
///
/// # Errors
/// As [`simulate_rounds_within`].
pub fn simulate_rounds_budgeted(
    p: &Platform,
    jobs: &[JobTraffic],
    model: Model,
    budget: Budget,
    progress: &mut dyn Progress,
) -> Result<RoundsResult, String> {
    check_jobs(p, jobs)?;
    by_groups(p, jobs, model, budget, Lazy::Auto.into(), false, progress)
}

/// [`simulate_rounds`] recomputing flow ends as `sharing` says ([`simulate_every_round_with`]), and
/// with several jobs split into groups that share no capacity, each job alone in its group
/// simulated for one round (theorem at [`by_groups`]; `placelab netsim` uses it).
///
/// [`simulate_rounds`] keeps several jobs together: separating them may move the last bits of
/// their times (see [`by_groups`]), and the engines' reports must not move.
///
/// # Errors
/// As [`simulate_rounds`].
pub fn simulate_rounds_with(
    p: &Platform,
    jobs: &[JobTraffic],
    model: Model,
    sharing: impl Into<Sharing>,
    progress: &mut dyn Progress,
) -> Result<RoundsResult, String> {
    check_jobs(p, jobs)?;
    by_groups(
        p,
        jobs,
        model,
        Budget::Flows(u64::MAX),
        sharing.into(),
        true,
        progress,
    )
}

/// Simulates `jobs` (checked) group by group, a job alone in its group for one round only;
/// without `split`, all jobs are one group (so a single job is the only one simulated for one
/// round).
///
/// **Theorem (a round that repeats).** The model is invariant under a shift in time: its rates
/// depend only on which flows are active and how many bytes they have left, and a flow's
/// latency and sending time do not depend on when it starts; so flows launched at `t + d`
/// evolve as those launched at `t`, shifted by `d` (exactly in real arithmetic). The rates of
/// a flow depend only on the flows of its connected component (flows linked through shared
/// capacities, ACK loads included; [`super::maxmin`]). Hence a job that shares no capacity with
/// any other job finds, at the start of each of its rounds, no flow that can ever change its
/// rates (its own previous round has ended), launches the same messages, and so every round
/// lasts as long as the first: its end is `start + rounds * (first round)` and each link
/// carries `rounds` times one round's bytes. Jobs that share capacities (transitively: the
/// groups are the connected components of "loads a common capacity") are simulated together
/// round by round; their rounds need not repeat (one job's round may meet another's round at a
/// different phase each time), so the shortcut does not apply to them.
///
/// In floating point the multiplication may differ from the round-by-round sums in the last
/// bits, and separating groups changes when their events are merged (events closer than
/// 1e-9 s are handled together, [`super::maxmin`]), by at most that tolerance per event. A
/// single job, and jobs that form one group, are simulated exactly as before.
fn by_groups(
    p: &Platform,
    jobs: &[JobTraffic],
    model: Model,
    budget: Budget,
    sharing: Sharing,
    split: bool,
    progress: &mut dyn Progress,
) -> Result<RoundsResult, String> {
    let groups = if split && jobs.len() > 1 {
        groups_of(p, jobs, model)
    } else {
        vec![(0..jobs.len()).collect()]
    };
    if let [g] = groups.as_slice() {
        if g.len() > 1 {
            return run(p, jobs, model, budget, sharing, Until::AllJobs, progress);
        }
    }
    let nj = jobs.len();
    let mut out = RoundsResult {
        job_end: jobs.iter().map(|j| j.start).collect(),
        job_time: vec![0.0; nj],
        comm_time: vec![0.0; nj],
        makespan: 0.0,
        link_bytes: vec![0.0; p.links() as usize],
        solves: 0,
        solved_flows: 0,
        work: 0,
        batched_ends: 0,
    };
    for g in &groups {
        let left = match budget {
            Budget::Flows(b) => Budget::Flows(b.saturating_sub(out.solved_flows)),
            Budget::Work(b) => Budget::Work(b.saturating_sub(out.work)),
        };
        let sub: Vec<JobTraffic> = g.iter().map(|&j| jobs[j].clone()).collect();
        let r = match sub.as_slice() {
            [job] if job.rounds > 1 => one_round_repeated(p, job, model, left, sharing, progress)?,
            _ => run(p, &sub, model, left, sharing, Until::AllJobs, progress)?,
        };
        for (k, &j) in g.iter().enumerate() {
            out.job_end[j] = r.job_end[k];
            out.job_time[j] = r.job_time[k];
            out.comm_time[j] = r.comm_time[k];
        }
        if groups.len() == 1 {
            return Ok(r);
        }
        for (a, b) in out.link_bytes.iter_mut().zip(&r.link_bytes) {
            *a += b;
        }
        out.solves += r.solves;
        out.solved_flows += r.solved_flows;
        out.work += r.work;
        out.batched_ends += r.batched_ends;
    }
    out.makespan = out.job_end.iter().copied().fold(0.0, f64::max);
    Ok(out)
}

/// A job alone in its group: one round simulated, then repeated (theorem at [`by_groups`]).
fn one_round_repeated(
    p: &Platform,
    job: &JobTraffic,
    model: Model,
    budget: Budget,
    sharing: Sharing,
    progress: &mut dyn Progress,
) -> Result<RoundsResult, String> {
    let one = JobTraffic {
        rounds: 1,
        ..job.clone()
    };
    let mut r = run(
        p,
        std::slice::from_ref(&one),
        model,
        budget,
        sharing,
        Until::AllJobs,
        progress,
    )?;
    let k = f64::from(job.rounds);
    let round = r.job_end[0] - job.start;
    r.job_end[0] = job.start + k * round;
    r.job_time[0] = k * round;
    r.comm_time[0] *= k;
    r.makespan = r.job_end[0];
    r.link_bytes.iter_mut().for_each(|b| *b *= k);
    Ok(r)
}

/// The jobs' groups: connected components of "loads a common capacity", each in job order,
/// ordered by their first job. A job without messages is a group of its own.
fn groups_of(p: &Platform, jobs: &[JobTraffic], model: Model) -> Vec<Vec<usize>> {
    let mut net = Net::new(p, ModelParams::of(model));
    // Union-find over jobs; `owner[c]`: the first job seen loading capacity c.
    let mut parent: Vec<usize> = (0..jobs.len()).collect();
    fn root(parent: &mut [usize], mut j: usize) -> usize {
        while parent[j] != j {
            parent[j] = parent[parent[j]];
            j = parent[j];
        }
        j
    }
    let mut owner: Vec<usize> = Vec::new();
    for (j, job) in jobs.iter().enumerate() {
        for m in &job.messages {
            let f = net.add_flow(p, m.src, m.dst, m.bytes, 0);
            for &c in net.capacities_of(f) {
                let c = c as usize;
                if owner.len() <= c {
                    owner.resize(c + 1, usize::MAX);
                }
                if owner[c] == usize::MAX {
                    owner[c] = j;
                } else {
                    let (a, b) = (root(&mut parent, owner[c]), root(&mut parent, j));
                    if a != b {
                        parent[a.max(b)] = a.min(b);
                    }
                }
            }
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut slot = vec![usize::MAX; jobs.len()];
    for j in 0..jobs.len() {
        let r = root(&mut parent, j);
        if slot[r] == usize::MAX {
            slot[r] = groups.len();
            groups.push(Vec::new());
        }
        groups[slot[r]].push(j);
    }
    groups
}

/// [`simulate_rounds`] without the one-job shortcut: every round of every job is simulated
/// (benchmarks use it to compare like for like with SimGrid).
///
/// # Errors
/// As [`simulate_rounds`].
pub fn simulate_every_round(
    p: &Platform,
    jobs: &[JobTraffic],
    model: Model,
    progress: &mut dyn Progress,
) -> Result<RoundsResult, String> {
    simulate_every_round_with(p, jobs, model, Lazy::Auto, progress)
}

/// [`simulate_every_round`] recomputing flow ends as `sharing` says (benchmarks compare the methods;
/// all give the same rates but for the order of floating-point sums).
///
/// # Errors
/// As [`simulate_rounds`].
pub fn simulate_every_round_with(
    p: &Platform,
    jobs: &[JobTraffic],
    model: Model,
    sharing: impl Into<Sharing>,
    progress: &mut dyn Progress,
) -> Result<RoundsResult, String> {
    check_jobs(p, jobs)?;
    run(
        p,
        jobs,
        model,
        Budget::Flows(u64::MAX),
        sharing.into(),
        Until::AllJobs,
        progress,
    )
}

/// Where [`run`] stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Until {
    /// Every job's last round has ended.
    AllJobs,
    /// Job 0's last round has ended ([`simulate_first_job_within`]).
    FirstJob,
}

/// Job 0's time among `jobs`, all simulated round by round together (as
/// [`simulate_rounds_within`] keeps several jobs), stopping as soon as job 0's last round
/// ends: the engine that measures one job among background jobs needs nothing later.
///
/// **Theorem (causality).** The simulation is a sequence of events in time order, and each
/// event's effect (a recomputation, a round's relaunch) reads only the state the earlier events
/// left; so stopping after the step in which job 0 ends leaves every value computed up to then,
/// job 0's end included, exactly as the whole simulation computes it, to the last bit (events
/// within [`super::maxmin::EVENT_TOLERANCE`] of that end are handled in the same step either
/// way). Only the other jobs' fields and the counters differ: `job_end` and `job_time` of a job
/// still running are its start and 0, `comm_time` covers its finished rounds, `link_bytes`
/// the bytes of the flows launched by then, and `solves`, `solved_flows`, `work` and
/// `batched_ends` count the simulated part (a job that would have run on for long costs
/// nothing). A job alone is simulated for one round and repeated, as [`simulate_rounds_within`]
/// does (theorem at [`by_groups`]).
///
/// # Errors
/// As [`simulate_rounds_within`].
pub fn simulate_first_job_within(
    p: &Platform,
    jobs: &[JobTraffic],
    model: Model,
    budget: u64,
    sharing: impl Into<Sharing>,
    progress: &mut dyn Progress,
) -> Result<RoundsResult, String> {
    check_jobs(p, jobs)?;
    if jobs.is_empty() {
        return Err("jobs: at least one job (job 0 is the one measured)".to_string());
    }
    if jobs.len() == 1 {
        // alone: one round, repeated (to the last bit as before)
        return simulate_rounds_within(p, jobs, model, budget, sharing, progress);
    }
    run(
        p,
        jobs,
        model,
        Budget::Flows(budget),
        sharing.into(),
        Until::FirstJob,
        progress,
    )
}

/// [`simulate_every_round`] on checked inputs.
fn run(
    p: &Platform,
    jobs: &[JobTraffic],
    model: Model,
    budget: Budget,
    sharing: Sharing,
    until: Until,
    progress: &mut dyn Progress,
) -> Result<RoundsResult, String> {
    let mut net = Net::new(p, ModelParams::of(model));
    net.lazy_method = sharing.lazy;
    net.end_tolerance = sharing.end_tolerance;
    // Templates of job j: first[j]..first[j+1].
    let mut first = Vec::with_capacity(jobs.len() + 1);
    for (j, job) in jobs.iter().enumerate() {
        first.push(net.flows());
        for m in &job.messages {
            net.add_flow(p, m.src, m.dst, m.bytes, j as u32);
        }
    }
    first.push(net.flows());
    let total: u64 = jobs
        .iter()
        .map(|j| u64::from(j.rounds) * (j.messages.len() as u64).max(1))
        .sum();
    let tick_every = (total / 200).max(1);
    let mut done_units = 0u64;

    let nj = jobs.len();
    let mut round = vec![0u32; nj];
    let mut outstanding = vec![0u32; nj];
    let mut comm_start = vec![0.0f64; nj];
    let mut comm_time = vec![0.0f64; nj];
    let mut job_end: Vec<f64> = jobs.iter().map(|j| j.start).collect();
    // Wake-ups: (time bits, job) when a compute phase ends.
    let mut wakes: BinaryHeap<Reverse<(u64, u32)>> = BinaryHeap::new();
    for (j, job) in jobs.iter().enumerate() {
        if job.rounds > 0 {
            wakes.push(Reverse(((job.start + job.compute).to_bits(), j as u32)));
        }
    }
    let mut done = Vec::new();
    loop {
        let limit = wakes
            .peek()
            .map(|Reverse((t, _))| f64::from_bits(*t))
            .unwrap_or(f64::INFINITY);
        done.clear();
        let moved = net.step(limit, &mut done);
        let now = net.now();
        if budget.exceeded(net.solved_flows, net.work) {
            let over = match budget {
                Budget::Flows(b) => format!("over the budget of {b} flows"),
                Budget::Work(b) => format!("{} units of work, over the budget of {b}", net.work),
            };
            return Err(format!(
                "not simulated to the end: the sharing was recomputed {} times for {} flows in all, {over} that keeps a run to seconds (stopped at simulated time {now:.6} s)",
                net.solves, net.solved_flows
            ));
        }
        for &f in &done {
            let j = net.tag(f) as usize;
            outstanding[j] -= 1;
            done_units += 1;
            if done_units % tick_every == 0 {
                progress.tick(done_units, total);
            }
            if outstanding[j] == 0 {
                end_round(
                    j,
                    now,
                    jobs,
                    &mut round,
                    &comm_start,
                    &mut comm_time,
                    &mut job_end,
                    &mut wakes,
                );
            }
        }
        if until == Until::FirstJob && round[0] >= jobs[0].rounds {
            break;
        }
        if moved {
            continue;
        }
        // No network event before `limit`: wake the jobs due now.
        let Some(&Reverse((t, _))) = wakes.peek() else {
            break;
        };
        let t = f64::from_bits(t);
        while let Some(&Reverse((tb, j))) = wakes.peek() {
            if f64::from_bits(tb) > t {
                break;
            }
            wakes.pop();
            let j = j as usize;
            comm_start[j] = now;
            let (a, b) = (first[j], first[j + 1]);
            if a == b {
                done_units += 1;
                end_round(
                    j,
                    now,
                    jobs,
                    &mut round,
                    &comm_start,
                    &mut comm_time,
                    &mut job_end,
                    &mut wakes,
                );
            } else {
                outstanding[j] = b - a;
                for f in a..b {
                    net.launch(f);
                }
            }
        }
    }
    progress.tick(total, total);
    let makespan = job_end.iter().copied().fold(0.0, f64::max);
    Ok(RoundsResult {
        job_time: job_end.iter().zip(jobs).map(|(e, j)| e - j.start).collect(),
        job_end,
        comm_time,
        makespan,
        link_bytes: net.link_bytes().to_vec(),
        solves: net.solves,
        solved_flows: net.solved_flows,
        work: net.work,
        batched_ends: net.batched_ends,
    })
}

/// Checks every job's messages, compute and start.
fn check_jobs(p: &Platform, jobs: &[JobTraffic]) -> Result<(), String> {
    for (j, job) in jobs.iter().enumerate() {
        for (i, m) in job.messages.iter().enumerate() {
            check_flow(p, m.src, m.dst, m.bytes)
                .map_err(|e| format!("jobs[{j}].messages[{i}]: {e}"))?;
        }
        if !(job.compute.is_finite() && job.compute >= 0.0) {
            return Err(format!(
                "jobs[{j}].compute: must be a finite time >= 0, got {}",
                job.compute
            ));
        }
        if !(job.start.is_finite() && job.start >= 0.0) {
            return Err(format!(
                "jobs[{j}].start: must be a finite time >= 0, got {}",
                job.start
            ));
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn end_round(
    j: usize,
    now: f64,
    jobs: &[JobTraffic],
    round: &mut [u32],
    comm_start: &[f64],
    comm_time: &mut [f64],
    job_end: &mut [f64],
    wakes: &mut BinaryHeap<Reverse<(u64, u32)>>,
) {
    comm_time[j] += now - comm_start[j];
    round[j] += 1;
    if round[j] < jobs[j].rounds {
        wakes.push(Reverse(((now + jobs[j].compute).to_bits(), j as u32)));
    } else {
        job_end[j] = now;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::netsim::{LinkParams, System};
    use crate::progress::NoProgress;

    #[test]
    fn rounds_add_compute_and_the_slowest_message() {
        let link = LinkParams {
            bandwidth: 100.0,
            latency: 1.0,
        };
        let p = Platform::build(&System::Mesh2d { x: 3, y: 1 }, link).unwrap();
        let job = JobTraffic {
            messages: vec![
                Message {
                    src: 0,
                    dst: 2,
                    bytes: 100.0,
                },
                Message {
                    src: 1,
                    dst: 0,
                    bytes: 100.0,
                },
            ],
            compute: 0.5,
            rounds: 3,
            start: 1.0,
        };
        let r = simulate_rounds(&p, &[job], Model::MaxMin, &mut NoProgress).unwrap();
        // Each round: 0.5 compute, then 0->2 takes 2 + 1 = 3 s (no sharing with 1->0).
        assert!((r.job_end[0] - (1.0 + 3.0 * 3.5)).abs() < 1e-9, "{:?}", r);
        assert!((r.comm_time[0] - 9.0).abs() < 1e-9);
        assert_eq!(r.link_bytes.iter().sum::<f64>(), 3.0 * 300.0);
    }

    #[test]
    fn concurrent_jobs_slow_each_other_down_on_shared_links() {
        let p = Platform::build(&System::Mesh2d { x: 4, y: 1 }, LinkParams::SOURCE).unwrap();
        let a = JobTraffic {
            messages: vec![Message {
                src: 0,
                dst: 2,
                bytes: 1e6,
            }],
            compute: 0.0,
            rounds: 2,
            start: 0.0,
        };
        let b = JobTraffic {
            messages: vec![Message {
                src: 1,
                dst: 3,
                bytes: 1e6,
            }],
            ..a.clone()
        };
        let alone = simulate_rounds(
            &p,
            std::slice::from_ref(&a),
            Model::SimgridLv08,
            &mut NoProgress,
        )
        .unwrap();
        let both = simulate_rounds(&p, &[a, b], Model::SimgridLv08, &mut NoProgress).unwrap();
        assert!(both.job_time[0] > 1.8 * alone.job_time[0]);
        assert!((both.job_time[0] - both.job_time[1]).abs() < 1e-9);
    }

    #[test]
    fn one_job_repeats_its_round_as_the_full_simulation_does() {
        let p = Platform::build(&System::Torus2d { x: 4, y: 3 }, LinkParams::SOURCE).unwrap();
        let job = JobTraffic {
            messages: (0..12)
                .map(|i| Message {
                    src: i,
                    dst: (i * 5 + 1) % 12,
                    bytes: 1e6,
                })
                .collect(),
            compute: 0.001,
            rounds: 4,
            start: 0.5,
        };
        let short = simulate_rounds(
            &p,
            std::slice::from_ref(&job),
            Model::SimgridLv08,
            &mut NoProgress,
        )
        .unwrap();
        let full = run(
            &p,
            std::slice::from_ref(&job),
            Model::SimgridLv08,
            Budget::Flows(u64::MAX),
            Lazy::Auto.into(),
            Until::AllJobs,
            &mut NoProgress,
        )
        .unwrap();
        assert!((short.job_end[0] - full.job_end[0]).abs() < 1e-12);
        assert!((short.comm_time[0] - full.comm_time[0]).abs() < 1e-12);
        assert_eq!(short.link_bytes, full.link_bytes);
    }

    #[test]
    fn stopping_at_the_first_jobs_end_gives_its_time_to_the_bit_for_less_work() {
        // A short job 0 among longer jobs that share its links, scattered at random: job 0's
        // end, time and communication time are the whole simulation's exactly, under both
        // models, exact and with batched ends; the stopped simulation recomputes fewer flows.
        let p = Platform::build(&System::Torus2d { x: 8, y: 8 }, LinkParams::SOURCE).unwrap();
        let mut rng = crate::rng::Rng::seeded(11);
        let mut job = |n: usize, rounds: u32, bytes: f64, start: f64| JobTraffic {
            messages: (0..n)
                .map(|_| Message {
                    src: rng.below(64) as u32,
                    dst: rng.below(64) as u32,
                    bytes: bytes * (1.0 + rng.below(8) as f64 / 8.0),
                })
                .collect(),
            compute: 1e-4,
            rounds,
            start,
        };
        let jobs = vec![
            job(40, 3, 2e5, 0.0),
            job(60, 8, 1e6, 0.0),
            job(30, 10, 5e5, 1e-3),
        ];
        for model in [Model::MaxMin, Model::SimgridLv08] {
            for eps in [0.0, 0.02] {
                let sharing = Sharing {
                    lazy: Lazy::Auto,
                    end_tolerance: eps,
                };
                let full = run(
                    &p,
                    &jobs,
                    model,
                    Budget::Flows(u64::MAX),
                    sharing,
                    Until::AllJobs,
                    &mut NoProgress,
                )
                .unwrap();
                let first =
                    simulate_first_job_within(&p, &jobs, model, u64::MAX, sharing, &mut NoProgress)
                        .unwrap();
                assert_eq!(first.job_end[0].to_bits(), full.job_end[0].to_bits());
                assert_eq!(first.job_time[0].to_bits(), full.job_time[0].to_bits());
                assert_eq!(first.comm_time[0].to_bits(), full.comm_time[0].to_bits());
                // the others were still running: the stop saved their later rounds
                assert!(full.job_end[1] > first.job_end[0] && full.job_end[2] > first.job_end[0]);
                assert!(
                    first.solved_flows < full.solved_flows,
                    "{model:?} {eps}: {} vs {}",
                    first.solved_flows,
                    full.solved_flows
                );
            }
        }
        assert!(
            simulate_first_job_within(&p, &[], Model::MaxMin, 1, Lazy::Auto, &mut NoProgress)
                .is_err()
        );
    }

    #[test]
    fn among_background_jobs_the_slack_method_gives_the_scanned_times_for_less_work() {
        // The placement engine's experiment 2 in small: a control job among many background
        // jobs on the same links, every job starting its rounds at its own times. The slack
        // method (what the placement engine uses from the first recomputation) gives job 0 the
        // time of the scanning method with whole components at starts, up to the order of
        // floating-point sums, and reads fewer flows: a start's component is most of the
        // machine, its changed flows are not.
        let p = Platform::build(&System::Torus2d { x: 8, y: 8 }, LinkParams::SOURCE).unwrap();
        let mut rng = crate::rng::Rng::seeded(29);
        for bytes in [1.0, 1e6] {
            let mut jobs = Vec::new();
            for j in 0..12 {
                let n = if j == 0 { 48 } else { 16 };
                jobs.push(JobTraffic {
                    messages: (0..n)
                        .map(|_| Message {
                            src: rng.below(64) as u32,
                            dst: rng.below(64) as u32,
                            bytes,
                        })
                        .collect(),
                    compute: 1e-5 * (1 + rng.below(4)) as f64,
                    rounds: 6,
                    start: 1e-5 * rng.below(10) as f64,
                });
            }
            for model in [Model::MaxMin, Model::SimgridLv08] {
                let go = |lazy| {
                    simulate_first_job_within(&p, &jobs, model, u64::MAX, lazy, &mut NoProgress)
                        .unwrap()
                };
                let (scan, slack) = (go(Lazy::Scan), go(Lazy::Slack));
                let rel = (slack.job_end[0] - scan.job_end[0]).abs() / scan.job_end[0];
                assert!(rel <= 1e-12, "{model:?} {bytes}: {rel}");
                assert!(
                    slack.work < scan.work,
                    "{model:?} {bytes}: {} vs {}",
                    slack.work,
                    scan.work
                );
            }
        }
    }

    #[test]
    fn jobs_without_messages_or_rounds_only_compute() {
        let p = Platform::build(&System::Torus2d { x: 2, y: 2 }, LinkParams::SOURCE).unwrap();
        let j = |rounds| JobTraffic {
            messages: vec![],
            compute: 2.0,
            rounds,
            start: 1.0,
        };
        let r = simulate_rounds(&p, &[j(3), j(0)], Model::MaxMin, &mut NoProgress).unwrap();
        assert_eq!(r.job_end, vec![7.0, 1.0]);
        assert_eq!(r.job_time, vec![6.0, 0.0]);
    }
}
