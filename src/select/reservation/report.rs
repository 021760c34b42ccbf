//! What a simulation of the reservation protocol reports (see `docs/format.md`).

use serde::Serialize;

/// The simulation's outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReservationReport {
    pub stations: u32,
    pub initiators: u32,
    /// `"broadcast"` or `"ordered"`.
    pub mode: &'static str,
    pub lease_timeout: Option<u64>,
    /// Messages and local events in time order (the first `maxEvents`).
    pub events: Vec<EventRow>,
    /// Events beyond `maxEvents`, counted but not listed.
    pub events_omitted: u64,
    /// One per initiator, in input order.
    pub outcomes: Vec<InitiatorOutcome>,
    /// Who held each station when (`id = tid` intervals), in start order.
    pub holds: Vec<HoldRow>,
    pub holds_omitted: u64,
    pub checks: Checks,
    pub counts: Counts,
    /// Logical time of the last processed event.
    pub end_time: u64,
}

/// A message (`arrive` set unless lost) or a local event (`from == to`, `arrive == time`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EventRow {
    pub time: u64,
    pub arrive: Option<u64>,
    pub kind: &'static str,
    /// `I<tid>` or `S<station>`.
    pub from: String,
    pub to: String,
    pub tid: Option<u32>,
    pub station: Option<u32>,
    pub lost: bool,
}

/// What became of one initiator.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InitiatorOutcome {
    pub tid: u32,
    pub wanted: u32,
    /// Stations of its last run (0 unless it ran; a run given up after a lapse does not count).
    pub got: u32,
    /// New attempts after too few stations or an abort.
    pub retries: u32,
    /// Runs abandoned because a lease could lapse.
    pub aborts: u32,
    /// `"done"`, `"starved"` (gave up after `maxRetries`) or `"unfinished"` (still trying or
    /// running when the simulation stopped).
    pub status: &'static str,
    /// When its last run started.
    pub occupied_at: Option<u64>,
    /// When it sent its release.
    pub finish: Option<u64>,
    /// The stations of its last run, ascending.
    pub chosen: Vec<u32>,
}

/// Station `station` had `id = tid` from `from` until `to` (`None`: still at the end).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HoldRow {
    pub station: u32,
    pub tid: u32,
    pub from: u64,
    pub to: Option<u64>,
}

/// The checked invariants.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Checks {
    /// Whether any station was ever used by one job while held by or granted to another.
    pub double_allocation: bool,
    pub violation_count: u64,
    pub violations: Vec<Violation>,
    /// Stations with `id != -1` when the simulation stopped, with their holder.
    pub stations_held_at_end: Vec<HeldAtEnd>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Violation {
    pub time: u64,
    pub station: u32,
    /// The job using the station.
    pub user: u32,
    /// The other initiator the station was held by or granted to.
    pub other: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HeldAtEnd {
    pub station: u32,
    pub tid: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Counts {
    pub messages: u64,
    pub lost: u64,
    /// Per message kind, in [`super::KIND_NAMES`] order, kinds never sent omitted.
    pub by_kind: Vec<KindCount>,
    pub steps: u64,
    /// Stopped by `maxSteps`.
    pub step_limit_reached: bool,
    /// Stopped by `maxTime` with events pending.
    pub time_limit_reached: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KindCount {
    pub kind: &'static str,
    pub sent: u64,
    pub lost: u64,
}
