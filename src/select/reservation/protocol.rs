//! The reservation protocol of Qi & Ju, simulated as a discrete-event system in
//! logical time, with its failure modes and the two fixes we offer.
//!
//! # The protocol (the paper's, "broadcast" mode)
//! Every station runs a load server holding its `load` and `id` (`-1` when free, else the `tid`
//! of the initiator holding it).
//! 1. An initiator broadcasts `request(tid, threshold)` to every station.
//! 2. A station answers (`reply`, carrying its load) only if `id == -1` (or already `tid`) and
//!    `load < threshold`, and sets `id = tid` as it answers.
//! 3. When its reply window closes, the initiator keeps the `wants` least-loaded repliers (ties
//!    by station number) and broadcasts `occupy`, telling each station whether it was chosen;
//!    unchosen stations holding `tid` reset `id = -1`. With fewer than `wants` replies it
//!    broadcasts `cancel` (every station holding `tid` resets) and retries `retryAfter` later, at
//!    most `maxRetries` times, then gives up (*starved*).
//! 4. After `holdFor` the job ends and the initiator broadcasts `release`; stations holding `tid`
//!    reset.
//!
//! Messages take a delay drawn uniformly from `delay.min..=delay.max` and are lost with
//! probability `loss` (`lossOfRelease` for releases). Each channel (one initiator to one station,
//! or back) is FIFO, like a TCP connection: a message never overtakes an earlier one on the same
//! channel, so an old round's `cancel` always reaches a station before the next round's
//! `request`.
//!
//! # Invariant: no double allocation
//! A job *uses* its chosen stations from its decision until it sends `release` (or aborts). The
//! simulation checks, at every grant (a station setting `id = tid`) and every decision, that no
//! station is used by one job while held by or granted to another; any breach is listed in
//! `checks.violations` and sets `checks.doubleAllocation`. Why it holds: only the holder's own
//! messages (or its lease expiring) reset a station, the holder's messages reach it in order,
//! and replies from an earlier round are ignored; with leases, a job stops using a station one
//! renewal period before the last lease end it has been told of (see below), and a station's
//! lease only grows until it expires.
//!
//! # Failure modes
//! - **Partial reservations**: two initiators starting together each reserve part of the
//!   stations (whichever request reaches a station first wins it); if neither gets `wants`, both
//!   cancel and retry together, and split again: with large `wants` they starve.
//! - **Lost release**: a station whose `release` is lost keeps `id = tid` forever; nobody can
//!   use it again (`checks.stationsHeldAtEnd`).
//!
//! # Fixes (options)
//! - `fixes.orderedClaims`: instead of a broadcast, each initiator claims stations one at a time
//!   in the global order (station 0, 1, 2, ...): `claim` is answered `grant`, `ineligible`
//!   (load over the threshold: skip it, and never ask it again) or `busy`. An initiator skips a
//!   busy station while the stations after it, less those it knows refuse, are at least as many
//!   as it still needs; otherwise it waits at it (the station queues the claim, FIFO, and grants
//!   it when freed). Only stations it has not yet learnt refuse can leave it short at the end of
//!   the order; it then releases and retries, knowing them all, so without losses a second pass
//!   never comes up short unless too few stations are under its threshold. *Theorem*: no deadlock. Every station an initiator holds is
//!   numbered below the one it waits at, so along a chain "X waits at a station held by Y" the
//!   waited-at numbers strictly increase, and a cycle would need a number above itself
//!   (skipping adds no waits, so any skipping rule keeps this). The cost: claims are sequential
//!   (one round trip per station), and jobs that together want more than there is run one after
//!   the other, crowding the low-numbered stations.
//! - `fixes.leaseTimeout = L`: a grant is a lease ending `L` after it; the holder renews every
//!   `p = max(1, (L - 3D - 3) / 4)` ticks (`D = delay.max`) with `renew` (acknowledged by
//!   `renewAck`, carrying the new end), and a station whose lease ends resets itself (`expire`).
//!   A lost release heals within `L`. A job that, at a renewal tick `t`, knows a lease ending at
//!   or before `t + p + 1` aborts (releases everything and retries), so it never uses a station
//!   past its lease: leases trade the leak for an abort when renewals are lost. Without losses no
//!   job aborts: the ack of a renewal sent at tick `u` is back by `u + 2D`, so at tick `t` the
//!   known end is at least `t - 2D - p + L` (or, before the first ack, the grant's
//!   `t - 3D - p - 1 + L`), which exceeds `t + p + 1` because `L >= 3D + 2p + 3`; hence the
//!   lower bound `max(4 (D + 1), 3D + 5)` on `L`. Where `L >= 3D + 4p + 3` (whenever `p > 1`),
//!   one lost renewal or ack in a row costs nothing either: the known end is then at least
//!   `t - 2D - 2p + L`.
//!
//! The scenario's part (`ReservationSpec`, its defaults and ranges) is in the selection engine's
//! field table, [`crate::select::scenario`].
//!
//! # Determinism
//! Events are ordered by `(time, sequence number)`, a total order; all times are integers and
//! every random draw is a `u64` from [`crate::rng::Rng`], so a seed gives the same trace natively and in wasm.
//!
//! # Complexity
//! `O(E log E)` for `E` events processed (bounded by `maxSteps`); memory `O(I·S + E)` for `I`
//! initiators and `S` stations (per-channel FIFO clocks and per-initiator lease tables).

pub use super::limits::*;
use crate::select::scenario::ReservationSpec;

impl ReservationSpec {
    pub(super) fn reply_window(&self) -> u64 {
        self.reply_window.unwrap_or(2 * self.delay.max + 1)
    }
    pub(super) fn claim_timeout(&self) -> u64 {
        self.claim_timeout.unwrap_or(2 * self.delay.max + 1)
    }
    pub(super) fn retry_after(&self) -> u64 {
        self.retry_after.unwrap_or(4 * self.delay.max + 4)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Request,
    Reply,
    Occupy,
    Cancel,
    Release,
    Claim,
    Grant,
    Busy,
    Ineligible,
    Renew,
    RenewAck,
}

/// Names of the message kinds, in the order of `counts.byKind`.
pub const KIND_NAMES: [&str; 11] = [
    "request",
    "reply",
    "occupy",
    "cancel",
    "release",
    "claim",
    "grant",
    "busy",
    "ineligible",
    "renew",
    "renewAck",
];

impl Kind {
    pub(super) fn name(self) -> &'static str {
        KIND_NAMES[self as usize]
    }
}
