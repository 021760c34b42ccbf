//! The reservation protocol ([`super::protocol`]) simulated as a discrete-event system in
//! logical time: messages with random delays and losses on FIFO channels, stations, initiators.

use super::protocol::{Kind, KIND_NAMES, MAX_HOLD_ROWS, MAX_VIOLATION_ROWS};
use super::report::{
    Checks, Counts, EventRow, HeldAtEnd, HoldRow, InitiatorOutcome, KindCount, ReservationReport,
    Violation,
};
use crate::progress::Progress;
use crate::rng::Rng;
use crate::select::scenario::{InitiatorSpec, ReservationSpec};
use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

/// One message. `to_station` gives the direction; `flag` is `chosen` for `occupy` and `wait`
/// for `claim`; `value` is the lease end for `reply`, `grant` and `renewAck`.
#[derive(Debug, Clone, Copy)]
struct Msg {
    kind: Kind,
    tid: u32,
    station: u32,
    round: u32,
    to_station: bool,
    flag: bool,
    value: u64,
}

#[derive(Debug, Clone, Copy)]
enum Ev {
    Start(u32),
    Deliver(Msg),
    WindowClose { tid: u32, round: u32 },
    JobEnd { tid: u32, round: u32 },
    Retry(u32),
    ClaimTimeout { tid: u32, round: u32, pos: u32 },
    RenewTick { tid: u32, round: u32 },
    Expire { station: u32, until: u64 },
}

struct Item {
    time: u64,
    seq: u64,
    ev: Ev,
}

impl PartialEq for Item {
    fn eq(&self, o: &Self) -> bool {
        (self.time, self.seq) == (o.time, o.seq)
    }
}
impl Eq for Item {}
impl PartialOrd for Item {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Item {
    /// Reversed: the heap's top is the earliest `(time, seq)`.
    fn cmp(&self, o: &Self) -> Ordering {
        (o.time, o.seq).cmp(&(self.time, self.seq))
    }
}

const FREE: u32 = u32::MAX;

struct Station {
    load: f64,
    /// Holder tid or [`FREE`].
    id: u32,
    /// Lease end (leases only).
    lease_until: u64,
    /// Waiting claims `(tid, round)` (ordered claims only).
    queue: VecDeque<(u32, u32)>,
    /// Index in `holds` of the open interval.
    hold_row: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Waiting,
    Collecting,
    Claiming,
    Running,
    Done,
    Starved,
}

struct Init {
    spec: InitiatorSpec,
    phase: Phase,
    round: u32,
    retries: u32,
    aborts: u32,
    /// Stations held this round, in the order obtained.
    held: Vec<u32>,
    /// Load of each held station, as replied (broadcast mode).
    held_load: Vec<f64>,
    /// Lease end last heard of, per station (0: not held).
    known_lease: Vec<u64>,
    /// Ordered claims: the station being claimed.
    pos: u32,
    /// Ordered claims: stations that answered `ineligible` (loads are fixed, so this holds),
    /// how many, and how many of them are numbered `pos` or above this pass.
    known_ineligible: Vec<bool>,
    ineligible_total: u32,
    ineligible_ahead: u32,
    /// The round whose renewal ticks are scheduled, if any.
    renew_round: Option<u32>,
    occupied_at: Option<u64>,
    finish: Option<u64>,
    chosen: Vec<u32>,
}

struct Sim<'a> {
    spec: &'a ReservationSpec,
    rng: Rng,
    now: u64,
    seq: u64,
    heap: BinaryHeap<Item>,
    stations: Vec<Station>,
    inits: Vec<Init>,
    /// Last arrival time per channel: `[tid * S + station]` to stations, then back.
    channel: Vec<u64>,
    /// Which job uses each station (the checker's truth), [`FREE`] when none.
    in_use: Vec<u32>,
    events: Vec<EventRow>,
    events_omitted: u64,
    holds: Vec<HoldRow>,
    holds_omitted: u64,
    violations: Vec<Violation>,
    violation_count: u64,
    sent: [u64; 11],
    lost: [u64; 11],
    lease: Option<u64>,
    ordered: bool,
}

/// Runs the protocol simulation of `spec` (validated by [`crate::select::scenario::validate_reservation`]) with `seed`.
///
/// # Returns
/// The trace (capped), each initiator's outcome, holder intervals and the checked invariants.
///
/// # Complexity
/// See the module documentation: `O(E log E)` for `E <= maxSteps` events.
pub fn simulate(
    spec: &ReservationSpec,
    seed: u64,
    progress: &mut dyn Progress,
) -> ReservationReport {
    let s = spec.stations as usize;
    let n = spec.initiators.len();
    let mut sim = Sim {
        spec,
        rng: Rng::seeded(seed),
        now: 0,
        seq: 0,
        heap: BinaryHeap::new(),
        stations: (0..s)
            .map(|i| Station {
                load: spec.loads.as_ref().map_or(0.0, |l| l[i]),
                id: FREE,
                lease_until: 0,
                queue: VecDeque::new(),
                hold_row: None,
            })
            .collect(),
        inits: spec
            .initiators
            .iter()
            .map(|i| Init {
                spec: i.clone(),
                phase: Phase::Waiting,
                round: 0,
                retries: 0,
                aborts: 0,
                held: Vec::new(),
                held_load: Vec::new(),
                known_lease: vec![0; s],
                pos: 0,
                known_ineligible: if spec.fixes.ordered_claims {
                    vec![false; s]
                } else {
                    Vec::new()
                },
                ineligible_total: 0,
                ineligible_ahead: 0,
                renew_round: None,
                occupied_at: None,
                finish: None,
                chosen: Vec::new(),
            })
            .collect(),
        channel: vec![0; 2 * s * n],
        in_use: vec![FREE; s],
        events: Vec::new(),
        events_omitted: 0,
        holds: Vec::new(),
        holds_omitted: 0,
        violations: Vec::new(),
        violation_count: 0,
        sent: [0; 11],
        lost: [0; 11],
        lease: spec.fixes.lease_timeout,
        ordered: spec.fixes.ordered_claims,
    };
    for (tid, i) in spec.initiators.iter().enumerate() {
        sim.push(i.start, Ev::Start(tid as u32));
    }
    let mut steps = 0u64;
    let mut step_limit = false;
    let mut time_limit = false;
    let mut end_time = 0;
    while let Some(item) = sim.heap.pop() {
        if item.time > spec.max_time {
            time_limit = true;
            break;
        }
        if steps == spec.max_steps {
            step_limit = true;
            break;
        }
        steps += 1;
        sim.now = item.time;
        end_time = item.time;
        sim.handle(item.ev);
        if steps % 4096 == 0 {
            progress.tick(item.time.min(spec.max_time), spec.max_time);
        }
    }
    progress.tick(spec.max_time, spec.max_time);
    sim.finish(steps, step_limit, time_limit, end_time)
}

impl Sim<'_> {
    fn push(&mut self, time: u64, ev: Ev) {
        self.seq += 1;
        self.heap.push(Item {
            time,
            seq: self.seq,
            ev,
        });
    }

    /// Whether the next event is listed (the first `maxEvents` are); counts it as omitted if
    /// not, so rows are only built when kept.
    fn keep_row(&mut self) -> bool {
        if self.events.len() < self.spec.max_events as usize {
            true
        } else {
            self.events_omitted += 1;
            false
        }
    }

    fn local(&mut self, kind: &'static str, tid: Option<u32>, station: Option<u32>) {
        if !self.keep_row() {
            return;
        }
        let who = match (station, tid) {
            (Some(s), _) => format!("S{s}"),
            (None, Some(t)) => format!("I{t}"),
            (None, None) => String::new(),
        };
        let now = self.now;
        self.events.push(EventRow {
            time: now,
            arrive: Some(now),
            kind,
            from: who.clone(),
            to: who,
            tid,
            station,
            lost: false,
        });
    }

    /// Sends `m`: draws its delay and loss, keeps its channel FIFO, records it.
    fn send(&mut self, m: Msg) {
        let d = &self.spec.delay;
        let delay = if d.min == d.max {
            d.min
        } else {
            self.rng.in_range(d.min, d.max)
        };
        let p = if m.kind == Kind::Release {
            self.spec.loss_of_release.unwrap_or(self.spec.loss)
        } else {
            self.spec.loss
        };
        let lost = p > 0.0 && (p >= 1.0 || self.rng.unit_f64() < p);
        let k = m.kind as usize;
        self.sent[k] += 1;
        let s = self.stations.len();
        let ch = m.tid as usize * s
            + m.station as usize
            + if m.to_station {
                0
            } else {
                s * self.inits.len()
            };
        let arrive = (self.now + delay).max(self.channel[ch]);
        if self.keep_row() {
            let (from, to) = if m.to_station {
                (format!("I{}", m.tid), format!("S{}", m.station))
            } else {
                (format!("S{}", m.station), format!("I{}", m.tid))
            };
            self.events.push(EventRow {
                time: self.now,
                arrive: if lost { None } else { Some(arrive) },
                kind: m.kind.name(),
                from,
                to,
                tid: Some(m.tid),
                station: Some(m.station),
                lost,
            });
        }
        if lost {
            self.lost[k] += 1;
            return;
        }
        self.channel[ch] = arrive;
        self.push(arrive, Ev::Deliver(m));
    }

    fn send_to_station(&mut self, kind: Kind, tid: u32, station: u32, flag: bool) {
        let round = self.inits[tid as usize].round;
        self.send(Msg {
            kind,
            tid,
            station,
            round,
            to_station: true,
            flag,
            value: 0,
        });
    }

    fn send_to_initiator(&mut self, kind: Kind, tid: u32, station: u32, round: u32, value: u64) {
        self.send(Msg {
            kind,
            tid,
            station,
            round,
            to_station: false,
            flag: false,
            value,
        });
    }

    fn violation(&mut self, station: u32, user: u32, other: u32) {
        self.violation_count += 1;
        if self.violations.len() < MAX_VIOLATION_ROWS {
            self.violations.push(Violation {
                time: self.now,
                station,
                user,
                other,
            });
        }
    }

    /// The station sets `id = tid` (or renews it): checker, lease, holder interval.
    fn grant(&mut self, station: u32, tid: u32) -> u64 {
        let u = self.in_use[station as usize];
        if u != FREE && u != tid {
            self.violation(station, u, tid);
        }
        let now = self.now;
        let st = &mut self.stations[station as usize];
        let fresh = st.id != tid;
        st.id = tid;
        let mut until = 0;
        if let Some(l) = self.lease {
            until = now + l;
            st.lease_until = until;
            self.push(until, Ev::Expire { station, until });
        }
        if fresh {
            if self.holds.len() < MAX_HOLD_ROWS {
                self.stations[station as usize].hold_row = Some(self.holds.len());
                self.holds.push(HoldRow {
                    station,
                    tid,
                    from: now,
                    to: None,
                });
            } else {
                self.stations[station as usize].hold_row = None;
                self.holds_omitted += 1;
            }
        }
        until
    }

    /// The station resets `id = -1`; with ordered claims it grants the next queued claim.
    fn reset(&mut self, station: u32) {
        let now = self.now;
        let st = &mut self.stations[station as usize];
        if st.id == FREE {
            return;
        }
        st.id = FREE;
        st.lease_until = 0;
        if let Some(r) = st.hold_row.take() {
            self.holds[r].to = Some(now);
        }
        if let Some((tid, round)) = self.stations[station as usize].queue.pop_front() {
            let until = self.grant(station, tid);
            self.send_to_initiator(Kind::Grant, tid, station, round, until);
        }
    }

    fn handle(&mut self, ev: Ev) {
        match ev {
            Ev::Start(tid) => {
                let i = tid as usize;
                self.local("start", Some(tid), None);
                self.begin_round(i);
            }
            Ev::Retry(tid) => {
                self.local("retry", Some(tid), None);
                self.begin_round(tid as usize);
            }
            Ev::Deliver(m) => {
                if m.to_station {
                    self.at_station(m)
                } else {
                    self.at_initiator(m)
                }
            }
            Ev::WindowClose { tid, round } => {
                let i = tid as usize;
                if self.inits[i].round == round && self.inits[i].phase == Phase::Collecting {
                    self.decide(i);
                }
            }
            Ev::JobEnd { tid, round } => {
                let i = tid as usize;
                if self.inits[i].round == round && self.inits[i].phase == Phase::Running {
                    self.inits[i].finish = Some(self.now);
                    self.inits[i].phase = Phase::Done;
                    self.local("done", Some(tid), None);
                    self.release_all(i, true);
                }
            }
            Ev::ClaimTimeout { tid, round, pos } => {
                let i = tid as usize;
                let it = &self.inits[i];
                if it.round == round && it.phase == Phase::Claiming && it.pos == pos {
                    self.claim(i);
                }
            }
            Ev::RenewTick { tid, round } => self.renew_tick(tid as usize, round),
            Ev::Expire { station, until } => {
                let st = &self.stations[station as usize];
                if st.id != FREE && st.lease_until == until {
                    let holder = st.id;
                    self.local("expire", Some(holder), Some(station));
                    self.reset(station);
                }
            }
        }
    }

    fn begin_round(&mut self, i: usize) {
        let tid = i as u32;
        self.inits[i].round += 1;
        self.inits[i].held.clear();
        self.inits[i].held_load.clear();
        if self.ordered {
            self.inits[i].phase = Phase::Claiming;
            self.inits[i].pos = 0;
            self.inits[i].ineligible_ahead = self.inits[i].ineligible_total;
            self.claim_next(i);
        } else {
            self.inits[i].phase = Phase::Collecting;
            for s in 0..self.stations.len() as u32 {
                self.send_to_station(Kind::Request, tid, s, false);
            }
            let round = self.inits[i].round;
            let w = self.spec.reply_window();
            self.push(self.now + w, Ev::WindowClose { tid, round });
        }
    }

    /// Ordered claims: claims the station at `pos`, or finishes the pass.
    /// Ordered claims: moves past the station at `pos`.
    fn advance(&mut self, i: usize) {
        let it = &mut self.inits[i];
        if it.known_ineligible[it.pos as usize] {
            it.ineligible_ahead -= 1;
        }
        it.pos += 1;
    }

    fn claim_next(&mut self, i: usize) {
        // Stations known to refuse are not asked again.
        while (self.inits[i].pos as usize) < self.stations.len()
            && self.inits[i].known_ineligible[self.inits[i].pos as usize]
        {
            self.advance(i);
        }
        let it = &self.inits[i];
        if it.held.len() as u32 >= it.spec.wants {
            self.occupy_ordered(i);
        } else if it.pos as usize >= self.stations.len() {
            self.too_few(i);
        } else {
            self.claim(i);
        }
    }

    fn claim(&mut self, i: usize) {
        let tid = i as u32;
        let it = &self.inits[i];
        let (pos, round, wait) = (it.pos, it.round, self.must_wait(i));
        self.send_to_station(Kind::Claim, tid, pos, wait);
        let t = self.spec.claim_timeout();
        self.push(self.now + t, Ev::ClaimTimeout { tid, round, pos });
    }

    /// Ordered claims: whether a busy station at `pos` must be waited for (too few stations
    /// after it for what the initiator still needs) rather than skipped.
    fn must_wait(&self, i: usize) -> bool {
        let it = &self.inits[i];
        let here = u32::from(it.known_ineligible[it.pos as usize]);
        let after = self.stations.len() as u64
            - u64::from(it.pos)
            - 1
            - u64::from(it.ineligible_ahead - here);
        after < u64::from(it.spec.wants) - it.held.len() as u64
    }

    fn threshold_ok(&self, tid: u32, station: u32) -> bool {
        self.stations[station as usize].load < self.inits[tid as usize].spec.threshold
    }

    fn at_station(&mut self, m: Msg) {
        let s = m.station as usize;
        let id = self.stations[s].id;
        match m.kind {
            Kind::Request => {
                if (id == FREE || id == m.tid) && self.threshold_ok(m.tid, m.station) {
                    let until = self.grant(m.station, m.tid);
                    self.send_to_initiator(Kind::Reply, m.tid, m.station, m.round, until);
                }
            }
            Kind::Occupy => {
                if id == m.tid && !m.flag {
                    self.reset(m.station);
                }
            }
            Kind::Cancel | Kind::Release => {
                if id == m.tid {
                    self.reset(m.station);
                }
                self.stations[s].queue.retain(|&(t, _)| t != m.tid);
            }
            Kind::Claim => {
                if !self.threshold_ok(m.tid, m.station) {
                    self.send_to_initiator(Kind::Ineligible, m.tid, m.station, m.round, 0);
                } else if id == FREE || id == m.tid {
                    let until = self.grant(m.station, m.tid);
                    self.send_to_initiator(Kind::Grant, m.tid, m.station, m.round, until);
                } else {
                    if m.flag {
                        let q = &mut self.stations[s].queue;
                        match q.iter_mut().find(|e| e.0 == m.tid) {
                            Some(e) => e.1 = m.round,
                            None => q.push_back((m.tid, m.round)),
                        }
                    }
                    self.send_to_initiator(Kind::Busy, m.tid, m.station, m.round, 0);
                }
            }
            Kind::Renew => {
                if id == m.tid {
                    let until = self.grant(m.station, m.tid);
                    self.send_to_initiator(Kind::RenewAck, m.tid, m.station, m.round, until);
                }
            }
            Kind::Reply | Kind::Grant | Kind::Busy | Kind::Ineligible | Kind::RenewAck => {}
        }
    }

    fn hold(&mut self, i: usize, station: u32, until: u64, load: f64) {
        let it = &mut self.inits[i];
        it.held.push(station);
        it.held_load.push(load);
        it.known_lease[station as usize] = until;
        if self.lease.is_some() && it.renew_round != Some(it.round) {
            let round = it.round;
            it.renew_round = Some(round);
            self.push(
                self.now + self.renew_period(),
                Ev::RenewTick {
                    tid: i as u32,
                    round,
                },
            );
        }
    }

    fn at_initiator(&mut self, m: Msg) {
        let i = m.tid as usize;
        let current = self.inits[i].round == m.round;
        match m.kind {
            Kind::Reply => {
                if current && self.inits[i].phase == Phase::Collecting {
                    let load = self.stations[m.station as usize].load;
                    self.hold(i, m.station, m.value, load);
                }
            }
            Kind::Grant => {
                let it = &self.inits[i];
                if it.phase == Phase::Claiming && it.pos == m.station {
                    // Even an old round's queued claim: the station is held by `tid` now, and
                    // the only message of `tid` in flight to it is this round's claim, which
                    // grants again.
                    let load = self.stations[m.station as usize].load;
                    self.hold(i, m.station, m.value, load);
                    self.advance(i);
                    self.claim_next(i);
                } else if !it.held.contains(&m.station) {
                    // A grant nobody waits for any more (an old round's queued claim): give it
                    // back. No claim of `tid` to this station is in flight (claims go to `pos`
                    // only), so nothing grants it again behind this release.
                    self.send_to_station(Kind::Release, m.tid, m.station, false);
                }
            }
            Kind::Busy => {
                let it = &self.inits[i];
                if current
                    && it.phase == Phase::Claiming
                    && it.pos == m.station
                    && !self.must_wait(i)
                {
                    self.advance(i);
                    self.claim_next(i);
                }
            }
            Kind::Ineligible => {
                let it = &self.inits[i];
                if current && it.phase == Phase::Claiming && it.pos == m.station {
                    let it = &mut self.inits[i];
                    if !it.known_ineligible[m.station as usize] {
                        it.known_ineligible[m.station as usize] = true;
                        it.ineligible_total += 1;
                        it.ineligible_ahead += 1;
                    }
                    self.advance(i);
                    self.claim_next(i);
                }
            }
            Kind::RenewAck => {
                let it = &mut self.inits[i];
                if current && it.known_lease[m.station as usize] != 0 {
                    let k = &mut it.known_lease[m.station as usize];
                    *k = (*k).max(m.value);
                }
            }
            Kind::Request
            | Kind::Occupy
            | Kind::Cancel
            | Kind::Release
            | Kind::Claim
            | Kind::Renew => {}
        }
    }

    /// `p = max(1, (L - 3D - 3) / 4)`: short enough that, without losses, a renewal's ack is
    /// always back before the at-risk test could fire, and that one lost renewal is survived
    /// (see the module documentation).
    fn renew_period(&self) -> u64 {
        let d = self.spec.delay.max;
        self.lease
            .map_or(1, |l| (l.saturating_sub(3 * d + 3) / 4).max(1))
    }

    /// Whether a held station's lease could lapse before the next renewal check.
    fn at_risk(&self, i: usize, station: u32) -> bool {
        self.lease.is_some()
            && self.inits[i].known_lease[station as usize] <= self.now + self.renew_period() + 1
    }

    fn renew_tick(&mut self, i: usize, round: u32) {
        let it = &self.inits[i];
        if it.round != round {
            return;
        }
        if it.held.is_empty() {
            self.inits[i].renew_round = None;
            return;
        }
        if it.phase == Phase::Running || it.phase == Phase::Claiming {
            let risky = it.held.iter().any(|&s| self.at_risk(i, s));
            if risky {
                self.abort(i);
                return;
            }
        }
        let held = self.inits[i].held.clone();
        for s in held {
            self.send_to_station(Kind::Renew, i as u32, s, false);
        }
        self.push(
            self.now + self.renew_period(),
            Ev::RenewTick {
                tid: i as u32,
                round,
            },
        );
    }

    /// A job gives up its stations because a lease could lapse, and tries again.
    fn abort(&mut self, i: usize) {
        self.inits[i].aborts += 1;
        self.inits[i].occupied_at = None;
        self.local("abort", Some(i as u32), None);
        self.release_all(i, false);
        self.schedule_retry(i);
    }

    /// Broadcast mode: the reply window closed.
    fn decide(&mut self, i: usize) {
        let tid = i as u32;
        let it = &self.inits[i];
        let wants = it.spec.wants as usize;
        let mut cands: Vec<(f64, u32)> = it
            .held
            .iter()
            .zip(&it.held_load)
            .filter(|(&s, _)| !self.at_risk(i, s))
            .map(|(&s, &l)| (l, s))
            .collect();
        if cands.len() < wants {
            self.too_few(i);
            return;
        }
        cands.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut chosen: Vec<u32> = cands[..wants].iter().map(|c| c.1).collect();
        chosen.sort_unstable();
        let mut is_chosen = vec![false; self.stations.len()];
        for &s in &chosen {
            is_chosen[s as usize] = true;
        }
        self.start_use(i, &chosen);
        for s in 0..self.stations.len() as u32 {
            self.send_to_station(Kind::Occupy, tid, s, is_chosen[s as usize]);
        }
        let it = &mut self.inits[i];
        for (k, &c) in it.known_lease.iter_mut().zip(&is_chosen) {
            if !c {
                *k = 0;
            }
        }
        it.held = chosen;
        self.run_job(i);
    }

    /// Ordered claims: holding `wants` stations, the job starts.
    fn occupy_ordered(&mut self, i: usize) {
        if self.inits[i].held.iter().any(|&s| self.at_risk(i, s)) {
            self.abort(i);
            return;
        }
        let mut chosen = self.inits[i].held.clone();
        chosen.sort_unstable();
        self.start_use(i, &chosen);
        for &s in &chosen {
            self.send_to_station(Kind::Occupy, i as u32, s, true);
        }
        self.run_job(i);
    }

    /// The checker: job `i` starts using `chosen`; each must be held by it and used by nobody.
    fn start_use(&mut self, i: usize, chosen: &[u32]) {
        let tid = i as u32;
        for &s in chosen {
            let id = self.stations[s as usize].id;
            if id != tid {
                self.violation(s, tid, id);
            }
            let u = self.in_use[s as usize];
            if u != FREE && u != tid {
                self.violation(s, tid, u);
            }
            self.in_use[s as usize] = tid;
        }
        self.inits[i].chosen = chosen.to_vec();
    }

    fn run_job(&mut self, i: usize) {
        let tid = i as u32;
        let it = &mut self.inits[i];
        it.phase = Phase::Running;
        it.occupied_at = Some(self.now);
        let (round, hold) = (it.round, it.spec.hold_for);
        self.local("run", Some(tid), None);
        self.push(self.now + hold, Ev::JobEnd { tid, round });
    }

    /// Sends `release` (a broadcast in broadcast mode, else to the held stations) and forgets
    /// every station; the checker's use ends now. A finished job keeps `chosen` for its outcome.
    fn release_all(&mut self, i: usize, job_done: bool) {
        let tid = i as u32;
        for k in 0..self.inits[i].chosen.len() {
            let s = self.inits[i].chosen[k] as usize;
            if self.in_use[s] == tid {
                self.in_use[s] = FREE;
            }
        }
        if !job_done {
            self.inits[i].chosen.clear();
        }
        let held = self.forget_held(i);
        if self.ordered {
            for s in held {
                self.send_to_station(Kind::Release, tid, s, false);
            }
        } else {
            for s in 0..self.stations.len() as u32 {
                self.send_to_station(Kind::Release, tid, s, false);
            }
        }
    }

    /// Empties the held set (and its known leases), returning it.
    fn forget_held(&mut self, i: usize) -> Vec<u32> {
        let it = &mut self.inits[i];
        let held = std::mem::take(&mut it.held);
        it.held_load.clear();
        for &s in &held {
            it.known_lease[s as usize] = 0;
        }
        held
    }

    /// Too few stations this round: cancel them all and retry, or give up.
    fn too_few(&mut self, i: usize) {
        let tid = i as u32;
        let held = self.forget_held(i);
        self.local("tooFew", Some(tid), None);
        if self.ordered {
            for s in held {
                self.send_to_station(Kind::Release, tid, s, false);
            }
        } else {
            for s in 0..self.stations.len() as u32 {
                self.send_to_station(Kind::Cancel, tid, s, false);
            }
        }
        self.schedule_retry(i);
    }

    fn schedule_retry(&mut self, i: usize) {
        let it = &mut self.inits[i];
        if it.retries >= self.spec.max_retries {
            it.phase = Phase::Starved;
            self.local("starved", Some(i as u32), None);
            return;
        }
        it.retries += 1;
        it.phase = Phase::Waiting;
        // A new round number now, so stale answers to this one are ignored while waiting.
        it.round += 1;
        let t = self.now + self.spec.retry_after();
        self.push(t, Ev::Retry(i as u32));
    }

    fn finish(
        self,
        steps: u64,
        step_limit: bool,
        time_limit: bool,
        end_time: u64,
    ) -> ReservationReport {
        let outcomes = self
            .inits
            .iter()
            .enumerate()
            .map(|(t, it)| InitiatorOutcome {
                tid: t as u32,
                wanted: it.spec.wants,
                got: it.chosen.len() as u32,
                retries: it.retries,
                aborts: it.aborts,
                status: match it.phase {
                    Phase::Done => "done",
                    Phase::Starved => "starved",
                    _ => "unfinished",
                },
                occupied_at: it.occupied_at,
                finish: it.finish,
                chosen: it.chosen.clone(),
            })
            .collect();
        let stations_held_at_end = self
            .stations
            .iter()
            .enumerate()
            .filter(|(_, s)| s.id != FREE)
            .map(|(i, s)| HeldAtEnd {
                station: i as u32,
                tid: s.id,
            })
            .collect();
        let by_kind = (0..KIND_NAMES.len())
            .filter(|&k| self.sent[k] > 0)
            .map(|k| KindCount {
                kind: KIND_NAMES[k],
                sent: self.sent[k],
                lost: self.lost[k],
            })
            .collect();
        ReservationReport {
            stations: self.spec.stations,
            initiators: self.inits.len() as u32,
            mode: if self.ordered { "ordered" } else { "broadcast" },
            lease_timeout: self.lease,
            events: self.events,
            events_omitted: self.events_omitted,
            outcomes,
            holds: self.holds,
            holds_omitted: self.holds_omitted,
            checks: Checks {
                double_allocation: self.violation_count > 0,
                violation_count: self.violation_count,
                violations: self.violations,
                stations_held_at_end,
            },
            counts: Counts {
                messages: self.sent.iter().sum(),
                lost: self.lost.iter().sum(),
                by_kind,
                steps,
                step_limit_reached: step_limit,
                time_limit_reached: time_limit,
            },
            end_time,
        }
    }
}
