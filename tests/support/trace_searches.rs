//! The trace engine's searches against a brute-force ranking: the check `trace_search.rs`,
//! `trace_nonblocking.rs` and `trace_cores.rs` share.

use placelab::trace::search::{self, Outcome, Problem, Ranked, Stop};
use proptest::prelude::*;

/// Exhaustive search (eight lanes and one) and branch and bound (with and without the bounds
/// that need no replay) give exactly the first `top` rows of `want`, the whole ranking by brute
/// force (ties in order); branch and bound completes, proves it, and its lower bound is the best
/// time. Returns the two exhaustive searches' outcomes (eight lanes, one) for further checks;
/// leaves `prob.cheap_bounds` on.
pub fn searches_give_the_ranking(
    prob: &mut Problem,
    top: usize,
    want: &[Ranked],
) -> Result<(Outcome, Outcome), TestCaseError> {
    let k = top.min(want.len());
    let ex = search::exhaustive(prob, top);
    prop_assert_eq!(&ex.top.rows[..], &want[..k]);
    let plain = search::exhaustive_with(prob, top, false, &mut |_| {});
    prop_assert_eq!(&plain.top.rows[..], &want[..k]);
    for cheap in [false, true] {
        prob.cheap_bounds = cheap;
        let bb = search::branch_and_bound(prob, top, u64::MAX);
        prop_assert_eq!(bb.stop, Stop::Complete);
        prop_assert!(bb.proven);
        prop_assert_eq!(&bb.top.rows[..], &want[..k]);
        prop_assert_eq!(bb.lower_bound, want[0].time);
    }
    Ok((ex, plain))
}
