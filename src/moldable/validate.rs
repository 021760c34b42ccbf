//! An independent check of a schedule against the model (it shares no code with the packers
//! and decoders): every job placed once with an existing variant that fits, not before its
//! release; its machine runs inside `0..n`, disjoint, and as many machines as the variant's
//! ranks; no machine used by two jobs at overlapping times (which also bounds the busy
//! machines by `n` at any time); the efficiency constraint met.
//!
//! # Complexity
//! `O(R log R)` for `R` machine runs: a sweep in time order keeps the runs in use in an ordered
//! map and checks each new run against its neighbours.

use super::model::{Instance, Schedule};
use std::collections::BTreeMap;

/// Checks `s` against `inst`; `Err` says the first violation found.
pub fn validate(inst: &Instance, s: &Schedule) -> Result<(), String> {
    let n = inst.machines;
    if s.placements.len() != inst.jobs.len() {
        return Err(format!(
            "{} placements for {} jobs",
            s.placements.len(),
            inst.jobs.len()
        ));
    }
    let mut events: Vec<(f64, u8, usize)> = Vec::new();
    for (i, (p, job)) in s.placements.iter().zip(&inst.jobs).enumerate() {
        let Some(v) = job.variants.get(p.variant as usize) else {
            return Err(format!("job {i}: variant {} does not exist", p.variant));
        };
        if v.ranks > n {
            return Err(format!(
                "job {i}: variant {} needs {} > n machines",
                p.variant, v.ranks
            ));
        }
        if !p.start.is_finite() || p.start < job.release {
            return Err(format!(
                "job {i}: starts at {} before its release {}",
                p.start, job.release
            ));
        }
        let mut total = 0u64;
        let mut prev_end = 0u64;
        for (k, &(first, count)) in p.machines.iter().enumerate() {
            let end = first as u64 + count as u64;
            if count == 0 || end > n as u64 {
                return Err(format!(
                    "job {i}: machine run {first}+{count} outside 0..{n}"
                ));
            }
            if k > 0 && (first as u64) < prev_end {
                return Err(format!("job {i}: machine runs overlap or are unordered"));
            }
            prev_end = end;
            total += count as u64;
        }
        if total != v.ranks as u64 {
            return Err(format!("job {i}: {total} machines for {} ranks", v.ranks));
        }
        events.push((p.start, 1, i));
        events.push((p.start + v.time, 0, i));
    }
    events.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    // run first machine -> (end machine, job)
    let mut used: BTreeMap<u32, (u64, usize)> = BTreeMap::new();
    for &(t, kind, i) in &events {
        let runs = &s.placements[i].machines;
        if kind == 0 {
            for &(first, _) in runs {
                used.remove(&first);
            }
            continue;
        }
        for &(first, count) in runs {
            let end = first as u64 + count as u64;
            if let Some((_, &(pe, j))) = used.range(..=first).next_back() {
                if pe > first as u64 {
                    return Err(format!(
                        "jobs {j} and {i} share machine {first} at time {t}"
                    ));
                }
            }
            if let Some((&nf, &(_, j))) = used.range(first..).next() {
                if (nf as u64) < end {
                    return Err(format!("jobs {j} and {i} share machine {nf} at time {t}"));
                }
            }
            used.insert(first, (end, i));
        }
    }
    if !inst.meets_constraint(&s.variants()) {
        return Err(format!(
            "mean relative weight {} below the constraint {}",
            inst.mean_relative_weight(&s.variants()),
            inst.efficiency.unwrap_or(0.0)
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moldable::model::{Job, Placement, Variant};

    fn inst() -> Instance {
        let v = |r, t, w| Variant {
            ranks: r,
            time: t,
            weight: w,
        };
        Instance {
            machines: 4,
            jobs: vec![
                Job {
                    name: "a".into(),
                    variants: vec![v(2, 2.0, 1.0), v(4, 1.0, 0.5)],
                    release: 0.0,
                },
                Job {
                    name: "b".into(),
                    variants: vec![v(2, 2.0, 1.0)],
                    release: 1.0,
                },
            ],
            efficiency: Some(0.8),
            optimum: None,
        }
    }

    fn place(variant: u32, start: f64, machines: Vec<(u32, u32)>) -> Placement {
        Placement {
            variant,
            start,
            machines,
        }
    }

    #[test]
    fn accepts_a_feasible_schedule_and_names_each_violation() {
        let i = inst();
        let ok = Schedule {
            placements: vec![place(0, 0.0, vec![(0, 2)]), place(0, 1.0, vec![(2, 2)])],
        };
        assert_eq!(validate(&i, &ok), Ok(()));
        let shared = Schedule {
            placements: vec![place(0, 0.0, vec![(0, 2)]), place(0, 1.0, vec![(1, 2)])],
        };
        assert!(validate(&i, &shared).unwrap_err().contains("share machine"));
        let early = Schedule {
            placements: vec![place(0, 0.0, vec![(0, 2)]), place(0, 0.5, vec![(2, 2)])],
        };
        assert!(validate(&i, &early).unwrap_err().contains("release"));
        let count = Schedule {
            placements: vec![place(0, 0.0, vec![(0, 3)]), place(0, 2.0, vec![(0, 2)])],
        };
        assert!(validate(&i, &count).unwrap_err().contains("machines for"));
        let outside = Schedule {
            placements: vec![place(0, 0.0, vec![(3, 2)]), place(0, 2.0, vec![(0, 2)])],
        };
        assert!(validate(&i, &outside).unwrap_err().contains("outside"));
        // variant 1 has relative weight 0.5: mean (0.5 + 1) / 2 = 0.75 < 0.8
        let weak = Schedule {
            placements: vec![place(1, 0.0, vec![(0, 4)]), place(0, 1.0, vec![(0, 2)])],
        };
        assert!(validate(&i, &weak).unwrap_err().contains("constraint"));
        let nov = Schedule {
            placements: vec![place(5, 0.0, vec![(0, 2)]), place(0, 2.0, vec![(0, 2)])],
        };
        assert!(validate(&i, &nov).unwrap_err().contains("does not exist"));
        // back to back on the same machines is fine
        let seq = Schedule {
            placements: vec![place(0, 0.0, vec![(0, 2)]), place(0, 2.0, vec![(0, 2)])],
        };
        assert_eq!(validate(&i, &seq), Ok(()));
    }
}
