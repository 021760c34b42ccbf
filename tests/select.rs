//! The selection engine, story by story: workstation selection (Qi & Ju) against brute force
//! and the source's table 2; the formula language (precedence, errors, fuzz); subsystem
//! selection (branch and bound against brute force, the heuristic's gap); all-to-all layouts on
//! the source's 2-, 4- and 8-process cases.

use placelab::api;
use placelab::progress::NoProgress;
use placelab::select::expr;
use placelab::select::qiju::{self, Terms};
use placelab::select::scenario::Objective;
use placelab::select::scenario::{self, Load, ModelSpec, PSet, Preset, Station};
use placelab::select::subsystem::{self, Weights};
use proptest::prelude::*;
use serde_json::Value;

fn run(text: &str) -> Value {
    let out = api::run(text, &mut NoProgress).unwrap_or_else(|e| panic!("{e}"));
    serde_json::from_str::<Value>(&out).unwrap()["report"].clone()
}

fn run_err(text: &str) -> placelab::ScenarioError {
    api::run(text, &mut NoProgress).unwrap_err()
}

fn example(name: &str) -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("playground-examples")
            .join(name),
    )
    .unwrap()
}

fn model(preset: Preset) -> ModelSpec {
    let mut m = ModelSpec {
        preset,
        ..ModelSpec::default()
    };
    if preset == Preset::Custom {
        m.ts = Some("P * alpha + beta * N".into());
        m.tc = Some("nstep * alpha * log2(P + 1)".into());
        m.tr = Some("P * alpha".into());
        m.to = Some("nstep * N / P * t_mult".into());
        m.p_set = Some(PSet::Even);
    }
    m
}

/// `T(G)` for an arbitrary subset, straight from the model's definition.
fn t_of_subset(stations: &[Station], set: &[usize], terms: &Terms) -> f64 {
    let p = set.len() as f64;
    let pace = set
        .iter()
        .map(|&i| 1.0 / qiju::rate(stations[i].speed, stations[i].load.mid()))
        .fold(0.0, f64::max);
    let t = terms.at(p, &mut Vec::new());
    t[0] + t[1] + t[2] + t[3] * pace
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Workstation selection: on small station sets the least-loaded prefix is as good
    /// as the best of every subset (equal speeds, and with speeds when ordered by rate).
    #[test]
    fn least_loaded_prefix_is_optimal_over_every_subset(
        loads in prop::collection::vec(0u32..95, 1..9),
        speeds in prop::collection::vec(prop::sample::select(vec![1.0, 0.5, 2.0, 1.5]), 9),
        hetero in any::<bool>(),
        preset in prop::sample::select(Preset::ALL.to_vec()),
    ) {
        let stations: Vec<Station> = loads.iter().enumerate().map(|(i, &l)| Station {
            name: String::new(),
            load: Load::Exact(l as f64 / 100.0),
            speed: if hetero { speeds[i] } else { 1.0 },
        }).collect();
        let m = model(preset);
        let terms = Terms::compile(&scenario::formulas_of(&m), &scenario::constants_of(&m)).unwrap();
        let p_set = scenario::p_set_of(&m);
        let sel = qiju::select(&stations, &terms, p_set, &mut |_| {});
        let q = stations.len();
        let mut brute: Option<f64> = None;
        for mask in 1u32..(1 << q) {
            let set: Vec<usize> = (0..q).filter(|&i| mask & (1 << i) != 0).collect();
            if !p_set.allows(set.len() as u32) {
                continue;
            }
            let t = t_of_subset(&stations, &set, &terms);
            if brute.is_none_or(|b| t < b) {
                brute = Some(t);
            }
        }
        match (brute, &sel.best) {
            (None, None) => {}
            (Some(b), Some(best)) => prop_assert_eq!(b.to_bits(), best.t.to_bits()),
            other => prop_assert!(false, "brute force and selection disagree: {:?}", other.0),
        }
    }

    /// The formula parser never panics, whatever the string, and compiled programs never panic
    /// when evaluated.
    #[test]
    fn formula_parser_never_panics(text in "\\PC{0,60}") {
        let c = scenario::constants_of(&ModelSpec::default());
        if let Ok(e) = expr::parse(&text) {
            if let Ok(p) = e.compile(&c) {
                let _ = p.eval(3.0, &mut Vec::new());
            }
        }
    }

    /// Token soup: strings made of the language's own pieces reach deep into the parser.
    #[test]
    fn formula_token_soup_never_panics(
        toks in prop::collection::vec(prop::sample::select(vec![
            "P", "N", "alpha", "(", ")", "+", "-", "*", "/", "^", ",", "sqrt(", "min(", "max(",
            "log2(", "1", "2.5", "1e3", ".", "e", " ", "Pp", "exp(", "floor(",
        ]), 0..40),
    ) {
        let text: String = toks.concat();
        let c = scenario::constants_of(&ModelSpec::default());
        match expr::compile(&text, &c) {
            Ok(p) => { let _ = p.eval(7.0, &mut Vec::new()); }
            Err(e) => prop_assert!(e.offset <= text.chars().count()),
        }
    }

    /// All-to-all: the branch and bound finds the brute-force optimum on small inputs.
    #[test]
    #[allow(clippy::needless_range_loop)] // fills both [i][j] and [j][i]
    fn branch_and_bound_equals_brute_force(
        n in 4usize..11,
        m_frac in 0.2f64..0.8,
        values in prop::collection::vec(1u32..30, 55),
        bandwidth in any::<bool>(),
    ) {
        let m = ((n as f64 * m_frac) as usize).clamp(2, n - 1);
        let mut mat = vec![vec![0.0; n]; n];
        let mut k = 0;
        for i in 0..n {
            for j in i + 1..n {
                let v = values[k % values.len()] as f64 / 3.0 + 1.0;
                k += 1;
                mat[i][j] = v;
                mat[j][i] = v;
            }
        }
        let obj = if bandwidth { Objective::Bandwidth } else { Objective::Distance };
        let wt = Weights::from_matrix(&mat, obj);
        let brute = subsystem::brute_force(&wt, m);
        let first: Vec<u32> = (0..m as u32).collect();
        let ex = subsystem::exact(&wt, m, &first, u64::MAX, &mut |_| {});
        prop_assert!(ex.proven);
        let (a, b) = (wt.cost(&ex.set), wt.cost(&brute));
        prop_assert!((a - b).abs() <= 1e-9 * (1.0 + b.abs()), "exact {a} vs brute {b}");
    }
}

/// The source's table 2, the three load patterns select W1-W7, W1-W6 and W1-W5, and
/// our computed times are within 2 % of the source's computed ones.
#[test]
fn table2_selects_w1_w7_then_w1_w6_then_w1_w5() {
    for (k, want) in [(1, 7), (2, 6), (3, 5)] {
        let r = run(&example(&format!("select-table2-run{k}.json")));
        let w = &r["workstations"];
        let mut chosen: Vec<String> = w["best"]["stations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect();
        chosen.sort();
        let expect: Vec<String> = (1..=want).map(|i| format!("W{i}")).collect();
        assert_eq!(chosen, expect, "run {k}");
        let reference = &w["reference"];
        let computed = reference["computed"].as_f64().unwrap();
        let ours = w["best"]["t"].as_f64().unwrap() / 1000.0;
        assert!(
            (ours - computed).abs() / computed < 0.02,
            "run {k}: ours {ours} s vs the source's {computed} s"
        );
        let theirs: Vec<&str> = reference["selected"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        assert_eq!(
            theirs,
            expect.iter().map(String::as_str).collect::<Vec<_>>()
        );
        // using all 8 is slower, and the report says by how much
        let all = w["all"]["t"].as_f64().unwrap();
        assert!((w["lost"].as_f64().unwrap() - (all - ours * 1000.0)).abs() < 1e-6);
    }
}

/// The PMR preset allows only perfect squares, and the curve says which P were skipped.
#[test]
fn pmr_allows_only_perfect_squares() {
    let r = run(&example("select-pmr.json"));
    let w = &r["workstations"];
    for pt in w["curve"].as_array().unwrap() {
        let p = pt["p"].as_u64().unwrap();
        let square = [1, 4, 9, 16].contains(&p);
        assert_eq!(pt["allowed"].as_bool().unwrap(), square, "P = {p}");
        assert_eq!(pt["t"].is_null(), !square);
    }
    assert!([1, 4, 9, 16].contains(&w["best"]["p"].as_u64().unwrap()));
}

/// Loads as ranges: the band contains the nominal curve, and the worst-case regret the engine
/// computes is never exceeded by any sampled load vector and is reached within a grid's step.
#[test]
fn regret_bounds_every_sampled_load_vector() {
    let stations: Vec<Station> = [(0.0, 0.2), (0.1, 0.5), (0.3, 0.35), (0.05, 0.7)]
        .iter()
        .map(|&(lo, hi)| Station {
            name: String::new(),
            load: Load::Range(lo, hi),
            speed: 1.0,
        })
        .collect();
    let m = model(Preset::Wave1d);
    let terms = Terms::compile(&scenario::formulas_of(&m), &scenario::constants_of(&m)).unwrap();
    let sel = qiju::select(&stations, &terms, PSet::Any, &mut |_| {});
    let order: Vec<usize> = sel.order.iter().map(|&i| i as usize).collect();
    let steps = 20;
    let mut sampled = [0.0f64; 4];
    let mut idx = [0usize; 4];
    loop {
        let s: Vec<Station> = stations
            .iter()
            .zip(idx)
            .map(|(st, k)| {
                let (lo, hi) = (st.load.lo(), st.load.hi());
                Station {
                    name: String::new(),
                    load: Load::Exact(lo + (hi - lo) * k as f64 / steps as f64),
                    speed: 1.0,
                }
            })
            .collect();
        let t: Vec<f64> = (1..=4)
            .map(|p| t_of_subset(&s, &order[..p], &terms))
            .collect();
        let best = t.iter().copied().fold(f64::INFINITY, f64::min);
        for p in 0..4 {
            sampled[p] = sampled[p].max(t[p] - best);
        }
        let mut d = 0;
        while d < 4 && idx[d] == steps {
            idx[d] = 0;
            d += 1;
        }
        if d == 4 {
            break;
        }
        idx[d] += 1;
    }
    for (p, pt) in sel.curve.iter().enumerate() {
        let r = pt.regret.unwrap();
        assert!(
            sampled[p] <= r + 1e-6,
            "P={}: sampled {} > computed {r}",
            p + 1,
            sampled[p]
        );
        assert!(
            r - sampled[p] <= 0.02 * r.max(1.0),
            "P={}: computed {r} far above sampled {}",
            p + 1,
            sampled[p]
        );
        let (lo, hi, t) = (pt.t_lo.unwrap(), pt.t_hi.unwrap(), pt.t.unwrap());
        assert!(lo <= t && t <= hi);
    }
    let unc = sel.uncertainty.unwrap();
    let regrets: Vec<f64> = sel.curve.iter().map(|p| p.regret.unwrap()).collect();
    let min = regrets.iter().copied().fold(f64::INFINITY, f64::min);
    assert_eq!(unc.min_regret.unwrap().t, min);
}

/// Formula errors name the term's JSON path and the character.
#[test]
fn formula_errors_name_the_path_and_character() {
    let base = r#"{"version":1,"engine":"select","stations":[{"load":0.1}],"model":{"preset":"custom","to":"N / P + Pp"}}"#;
    let e = run_err(base);
    assert_eq!(e.path, "$.model.to");
    assert!(e.message.contains("unknown name 'Pp'"), "{}", e.message);
    assert!(e.message.ends_with("at character 8"), "{}", e.message);
    let e = run_err(&base.replace("N / P + Pp", "(N / P"));
    assert!(e.message.ends_with("at character 6"), "{}", e.message);
    // formulas belong to the custom preset
    let e = run_err(&base.replace("custom", "wave1d"));
    assert_eq!(e.path, "$.model.to");
}

#[test]
fn validation_errors_name_json_paths() {
    let cases = [
        (r#"{"stations":[{"load":5}]}"#, "$.stations[0].load"),
        (r#"{"stations":[{"load":[0.5,0.1]}]}"#, "$.stations[0].load"),
        (
            r#"{"stations":[{"load":0.1,"speed":0}]}"#,
            "$.stations[0].speed",
        ),
        (
            r#"{"stations":[{"load":0.1}],"model":{"constants":{"P":1}}}"#,
            "$.model.constants.P",
        ),
        (r#"{}"#, "$.stations"),
        (
            r#"{"alltoall":{"subsystem":{"m":2,"matrix":[[0,1],[2,0]]}}}"#,
            "$.alltoall.subsystem.matrix[0][1]",
        ),
        (
            r#"{"alltoall":{"subsystem":{"m":3,"matrix":[[0,1],[1,0]]}}}"#,
            "$.alltoall.subsystem.m",
        ),
        (
            r#"{"alltoall":{"layouts":{"ranks":[4],"nodes":2,"table":"socket,1,1\nnode,1,1\nnet,1,1"}}}"#,
            "$.alltoall.layouts.table",
        ),
        (
            r#"{"alltoall":{"layouts":{"ranks":[40],"nodes":2}}}"#,
            "$.alltoall.layouts.ranks[0]",
        ),
    ];
    for (fields, path) in cases {
        let text = if fields == "{}" {
            r#"{"version":1,"engine":"select"}"#.to_string()
        } else {
            format!(r#"{{"version":1,"engine":"select",{}"#, &fields[1..])
        };
        let e = run_err(&text);
        assert_eq!(e.path, path, "{text}: {}", e.message);
    }
}

/// The heuristic is within 1 % of the exact product on every case small enough to
/// check: random matrices (integer and real distances, bandwidths), meshes and hierarchies.
#[test]
#[allow(clippy::needless_range_loop)] // fills both [i][j] and [j][i]
fn heuristic_is_within_one_percent_of_exact_on_checkable_cases() {
    let mut rng = placelab::rng::Rng::seeded(0x5e1ec7);
    let mut worst: (f64, String) = (0.0, String::new());
    let mut over = Vec::new();
    let mut cases = 0;
    for case in 0..300u32 {
        let n = 8 + (case % 17) as usize;
        let m = 2 + (case as usize * 7) % (n - 3);
        let kind = case % 3;
        let mut mat = vec![vec![0.0; n]; n];
        for i in 0..n {
            for j in i + 1..n {
                let v = match kind {
                    0 => 1.0 + rng.in_range(0, 5) as f64,
                    1 => 1.0 + rng.unit_f64() * 20.0,
                    _ => 1.0 + (i / 4).abs_diff(j / 4) as f64 + rng.in_range(0, 1) as f64,
                };
                mat[i][j] = v;
                mat[j][i] = v;
            }
        }
        for obj in Objective::ALL {
            let wt = Weights::from_matrix(&mat, obj);
            let (h, _) = subsystem::heuristic(&wt, m);
            let ex = subsystem::exact(&wt, m, &h, u64::MAX, &mut |_| {});
            assert!(ex.proven);
            let gap = subsystem::gap_percent(wt.cost(&h), wt.cost(&ex.set));
            cases += 1;
            let label = format!("case {case} n={n} m={m} kind={kind} {obj:?}");
            if gap > worst.0 {
                worst = (gap, label.clone());
            }
            if gap > 1.0 {
                over.push(format!("{label}: {gap:.3} %"));
            }
        }
    }
    eprintln!(
        "{cases} cases; worst heuristic gap {:.4} % ({})",
        worst.0, worst.1
    );
    assert!(
        over.is_empty(),
        "heuristic over 1 % on {} of {cases} cases: {over:?}",
        over.len()
    );
}

/// The exact search proves its optimum for N = 64, M = 12 on an 8 x 8 torus (the example).
#[test]
fn exact_search_proves_n64_m12_torus() {
    let r = run(&example("select-subsystem-torus64.json"));
    let s = &r["subsystem"];
    assert_eq!(s["machines"], 64);
    assert_eq!(s["exact"]["proven"], true);
    assert_eq!(s["exact"]["set"].as_array().unwrap().len(), 12);
    assert!(s["gapPercent"].as_f64().unwrap() <= 1.0);
}

/// The source's 2-, 4- and 8-process cases: our ranking of the symmetric layouts is the
/// source's established order (2: 1x2, 2x1; 4: 4x1, 1x4, 2x2; 8: 1x8, 4x2, 2x4).
#[test]
fn layouts_rank_the_source_cases_in_the_source_order() {
    let r = run(&example("select-alltoall-layouts.json"));
    let ranks = r["layouts"]["ranks"].as_array().unwrap();
    let want = [
        (2, vec!["1x2", "2x1"]),
        (4, vec!["4x1", "1x4", "2x2"]),
        (8, vec!["1x8", "4x2", "2x4"]),
    ];
    for (rr, (rank, order)) in ranks.iter().zip(want) {
        assert_eq!(rr["rank"], rank);
        let got: Vec<&str> = rr["layouts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["label"].as_str().unwrap())
            .collect();
        assert_eq!(got, order, "rank {rank}");
        assert_eq!(rr["reference"].as_array().unwrap().len(), order.len());
        // the steps add up to the time
        for l in rr["layouts"].as_array().unwrap() {
            let sum: f64 = l["steps"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["time"].as_f64().unwrap())
                .sum();
            assert!((sum - l["time"].as_f64().unwrap()).abs() < 1e-6 * sum);
            assert_eq!(l["steps"].as_array().unwrap().len(), rank - 1);
        }
    }
}

/// First-fit on a partly busy machine is slower than the best symmetric layout, and the gain
/// is reported as defined.
#[test]
fn best_layout_beats_first_fit_on_a_busy_machine() {
    let r = run(&example("select-alltoall-busy.json"));
    for rr in r["layouts"]["ranks"].as_array().unwrap() {
        let best = rr["layouts"][0]["time"].as_f64().unwrap();
        let ff = rr["firstFit"]["time"].as_f64().unwrap();
        assert!(best < ff);
        let gain = rr["gainPercent"].as_f64().unwrap();
        assert!((gain - (ff - best) / ff * 100.0).abs() < 1e-9);
        let per: u64 = rr["firstFit"]["perNode"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .sum();
        assert_eq!(per, rr["rank"].as_u64().unwrap());
    }
}

/// The form's defaults are what the parser fills in.
#[test]
fn parameter_table_defaults_match_the_parser() {
    let engines: Value = serde_json::from_str(&api::engines_json()).unwrap();
    let sel = engines
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == "select")
        .unwrap();
    let param = |path: &str| {
        sel["params"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["path"] == path)
            .unwrap_or_else(|| panic!("{path}"))["default"]
            .clone()
    };
    let r = run(r#"{"version":1,"engine":"select","stations":[{"load":0.1}]}"#);
    let w = &r["workstations"];
    assert_eq!(param("model.preset"), w["preset"]);
    for (p, k) in [
        ("model.alpha", "alpha"),
        ("model.beta", "beta"),
        ("model.nstep", "nstep"),
        ("model.tMult", "t_mult"),
        ("model.tAdd", "t_add"),
    ] {
        assert_eq!(param(p), w["constants"][k], "{p}");
    }
    let r = run(
        r#"{"version":1,"engine":"select","alltoall":{"layouts":{"ranks":[2],"nodes":2},"subsystem":{"m":2,"matrix":[[0,1],[1,0]]}}}"#,
    );
    assert_eq!(
        param("alltoall.layouts.messageBytes"),
        r["layouts"]["messageBytes"]
    );
    assert_eq!(
        param("alltoall.subsystem.objective"),
        r["subsystem"]["objective"]
    );
    assert_eq!(
        param("alltoall.subsystem.exactNodes").as_u64().unwrap(),
        scenario::d::exact_nodes()
    );
    // The reservation form's defaults are the parser's: spelling them out changes nothing.
    let base = r#"{"stations":6,"initiators":[{"wants":2,"holdFor":10},{"start":3,"wants":3,"holdFor":8}]}"#;
    let mut spelled: Value = serde_json::from_str(base).unwrap();
    for p in sel["params"].as_array().unwrap() {
        let path = p["path"].as_str().unwrap();
        let Some(rest) = path.strip_prefix("reservation.") else {
            continue;
        };
        assert_eq!(p["showIf"]["path"], "reservation", "{path}");
        assert_eq!(p["showIf"]["present"], true, "{path}");
        if p["default"].is_null() || rest == "stations" {
            continue;
        }
        let mut at = &mut spelled;
        let keys: Vec<&str> = rest.split('.').collect();
        for k in &keys[..keys.len() - 1] {
            at = at
                .as_object_mut()
                .unwrap()
                .entry(k.to_string())
                .or_insert_with(|| serde_json::json!({}));
        }
        at[keys[keys.len() - 1]] = p["default"].clone();
    }
    let scenario =
        |r: &str| format!(r#"{{"version":1,"engine":"select","seed":3,"reservation":{r}}}"#);
    assert_eq!(run(&scenario(base)), run(&scenario(&spelled.to_string())));
    assert!(spelled["delay"]["max"].is_u64() && spelled["fixes"]["orderedClaims"] == false);
}

/// A user formula gives the same curve as the preset it spells out.
#[test]
fn custom_formulas_reproduce_a_preset() {
    let preset = run(&example("select-table2-run2.json"));
    let f = &preset["workstations"]["formulas"];
    let mut doc: Value = serde_json::from_str(&example("select-table2-run2.json")).unwrap();
    doc["model"]["preset"] = "custom".into();
    for k in ["ts", "tc", "tr", "to"] {
        doc["model"][k] = f[k].clone();
    }
    let custom = run(&doc.to_string());
    assert_eq!(
        preset["workstations"]["curve"],
        custom["workstations"]["curve"]
    );
}

/// Size limits are refused before any work, naming the field.
#[test]
fn station_limits_are_refused_before_running() {
    let many = |n: usize, load: &str| {
        format!(
            r#"{{"version":1,"engine":"select","stations":[{}]}}"#,
            vec![format!(r#"{{"load":{load}}}"#); n].join(",")
        )
    };
    let e = run_err(&many(scenario::MAX_STATIONS + 1, "0.1"));
    assert_eq!(e.path, "$.stations");
    let e = run_err(&many(scenario::MAX_STATIONS_WITH_RANGES + 1, "[0.1,0.2]"));
    assert_eq!(e.path, "$.stations");
    assert!(e.message.contains("ranges"), "{}", e.message);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any one-byte change of an example is a report or an error naming a path, never a panic,
    /// and no message names a Rust type.
    #[test]
    fn mutated_select_examples_never_panic(pos in 0usize..4000, byte in any::<u8>(), which in 0usize..4) {
        let texts = [
            include_str!("../playground-examples/select-custom-formula.json"),
            include_str!("../playground-examples/select-wave-uncertain.json"),
            include_str!("../playground-examples/select-alltoall-layouts.json"),
            include_str!("../playground-examples/select-subsystem-racks.json"),
        ];
        let mut bytes = texts[which].as_bytes().to_vec();
        let at = pos % bytes.len();
        bytes[at] = byte;
        if let Ok(text) = String::from_utf8(bytes) {
            if let Err(e) = api::run(&text, &mut NoProgress) {
                prop_assert!(e.path.starts_with('$'));
                for rust in ["f64", "u32", "usize", "Vec<", "Option<", "struct "] {
                    prop_assert!(!e.message.contains(rust), "{}", e.message);
                }
            }
        }
    }
}

struct Recorder(Vec<(u64, u64)>);

impl placelab::progress::Progress for Recorder {
    fn tick(&mut self, done: u64, total: u64) {
        self.0.push((done, total));
    }
}

/// Progress never goes back, keeps one total, and ends at it, through every part of a
/// scenario that asks for all of them.
#[test]
fn progress_moves_forward_through_every_part() {
    let mut doc: Value = serde_json::from_str(&example("select-wave-uncertain.json")).unwrap();
    let sub: Value = serde_json::from_str(&example("select-subsystem-racks.json")).unwrap();
    let lay: Value = serde_json::from_str(&example("select-alltoall-layouts.json")).unwrap();
    doc["alltoall"] = serde_json::json!({
        "subsystem": sub["alltoall"]["subsystem"],
        "layouts": lay["alltoall"]["layouts"],
    });
    doc["reservation"] =
        serde_json::json!({"stations": 4, "initiators": [{"wants": 2, "holdFor": 5}]});
    let mut rec = Recorder(Vec::new());
    let out = api::run(&doc.to_string(), &mut rec).unwrap();
    let report: Value = serde_json::from_str(&out).unwrap();
    for part in ["workstations", "subsystem", "layouts", "reservation"] {
        assert!(report["report"][part].is_object(), "{part} missing");
    }
    let ticks = rec.0;
    assert!(!ticks.is_empty());
    let total = ticks[0].1;
    for w in ticks.windows(2) {
        assert!(w[1].0 >= w[0].0, "progress went back: {:?}", w);
        assert_eq!(w[1].1, total);
    }
    assert!(ticks.iter().all(|t| t.0 <= total));
    assert_eq!(ticks.last().unwrap().0, total);
}

/// `q` stations with seeded loads (some as ranges), the wave model as the user's formulas.
fn many_stations(q: u32, ranges: bool) -> String {
    let mut rng = placelab::rng::Rng::seeded(7);
    let stations: Vec<String> = (0..q)
        .map(|i| {
            let load = (rng.below(900) as f64) / 1000.0;
            if ranges && i % 3 == 0 {
                format!(r#"{{"name":"W{}","load":[{load},{}]}}"#, i + 1, load + 0.05)
            } else {
                format!(r#"{{"name":"W{}","load":{load}}}"#, i + 1)
            }
        })
        .collect();
    format!(
        r#"{{"version":1,"engine":"select","name":"many","seed":1,"stations":[{}],
        "model":{{"preset":"custom","N":10000000,"nstep":1000,
        "ts":"P * (alpha + 8 * beta * N / P)","tc":"2 * nstep * (alpha + 8 * beta) * min(P - 1, 1)",
        "tr":"P * (alpha + 8 * beta * N / P)","to":"nstep * (N / P) * (3 * t_mult + 4 * t_add)"}}}}"#,
        stations.join(",")
    )
}

#[test]
fn a_live_preview_keeps_complete_points_and_every_extreme() {
    // Without ranges the curve is thinned; with 1,000 stations (ranges) only the rows are.
    for (q, ranges) in [(10_000u64, false), (1_000, true)] {
        let thinned = q > 8 * placelab::select::preview::BUCKETS as u64;
        let text = many_stations(q as u32, ranges);
        let full: Value = serde_json::from_str(&api::run(&text, &mut NoProgress).unwrap()).unwrap();
        let prev: Value =
            serde_json::from_str(&api::run_preview(&text, &mut NoProgress).unwrap()).unwrap();
        assert_eq!(prev["preview"], true);
        assert!(
            full.get("preview").is_none(),
            "complete reports never say preview"
        );
        let (f, p) = (
            &full["report"]["workstations"],
            &prev["report"]["workstations"],
        );
        let fc = f["curve"].as_array().unwrap();
        let pc = p["curve"].as_array().unwrap();
        assert_eq!(p["previewOf"]["curvePoints"], q);
        assert_eq!(p["previewOf"]["stations"], q);
        if thinned {
            assert!(
                pc.len() <= 8 * placelab::select::preview::BUCKETS + 5,
                "{}",
                pc.len()
            );
            assert!(pc.len() >= 1000, "a chart's worth of points: {}", pc.len());
        } else {
            assert_eq!(pc, fc);
        }
        let mut last = 0;
        for point in pc {
            let at = point["p"].as_u64().unwrap();
            assert!(at > last, "ascending, distinct P");
            last = at;
            assert_eq!(
                point,
                &fc[at as usize - 1],
                "the complete report's point at P = {at}"
            );
        }
        assert_eq!(last, q, "P = Q kept: the axis still runs to Q");
        for key in ["t", "tLo", "tHi"] {
            let vals =
                |c: &[Value]| -> Vec<f64> { c.iter().filter_map(|x| x[key].as_f64()).collect() };
            let (fv, pv) = (vals(fc), vals(pc));
            if fv.is_empty() {
                continue;
            }
            let min = |v: &[f64]| v.iter().cloned().fold(f64::INFINITY, f64::min);
            let max = |v: &[f64]| v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            assert_eq!(min(&fv), min(&pv), "{key} minimum kept");
            assert_eq!(max(&fv), max(&pv), "{key} maximum kept");
        }
        let best = f["best"]["p"].as_u64().unwrap();
        assert!(pc.iter().any(|c| c["p"] == best), "the chosen P is kept");
        assert_eq!(p["best"], f["best"]);
        assert_eq!(
            p["stations"].as_array().unwrap()[..],
            f["stations"].as_array().unwrap()[..500]
        );
        assert_eq!(
            p["order"].as_array().unwrap()[..],
            f["order"].as_array().unwrap()[..500]
        );
        let (fb, pb) = (
            serde_json::to_string(&full).unwrap().len(),
            serde_json::to_string(&prev).unwrap().len(),
        );
        assert!(
            !thinned || pb * 5 < fb,
            "the preview is much smaller: {pb} of {fb} bytes"
        );
    }
}

#[test]
fn a_preview_of_a_small_report_is_the_complete_report_byte_for_byte() {
    let mut texts = placelab::api::sample_scenarios();
    texts.push(many_stations(300, true));
    for text in texts {
        let full = api::run(&text, &mut NoProgress);
        let prev = api::run_preview(&text, &mut NoProgress);
        match (full, prev) {
            (Ok(f), Ok(p)) => assert_eq!(f, p, "{text}"),
            (Err(f), Err(p)) => assert_eq!(f.to_json(), p.to_json()),
            (f, p) => panic!("run and run_preview disagree on {text}: {f:?} / {p:?}"),
        }
    }
}

/// One rule for ranges: loads written `[a, a]` are ranges, as the station limit counts them, so
/// the report carries the band and the regret (zero-width here) that `docs/format.md` promises
/// whenever ranges are given; the same loads written as numbers have none.
#[test]
fn degenerate_load_ranges_still_get_the_uncertainty_outputs() {
    let scenario = |load: Value| {
        serde_json::json!({"version": 1, "engine": "select", "seed": 1,
            "stations": [{"load": load.clone()}, {"load": load.clone()}, {"load": load}]})
        .to_string()
    };
    let ranged = run(&scenario(serde_json::json!([0.1, 0.1])));
    let exact = run(&scenario(serde_json::json!(0.1)));
    let curve = |r: &Value| r["workstations"]["curve"].as_array().unwrap().clone();
    let best = curve(&ranged)
        .iter()
        .filter_map(|pt| pt["t"].as_f64())
        .fold(f64::INFINITY, f64::min);
    for pt in curve(&ranged) {
        assert_eq!(pt["tLo"], pt["t"], "a zero-width band: {pt}");
        assert_eq!(pt["tHi"], pt["t"], "a zero-width band: {pt}");
        // with nothing uncertain, the regret of a choice is its distance from the best time
        let (t, r) = (pt["t"].as_f64().unwrap(), pt["regret"].as_f64().unwrap());
        assert!((r - (t - best)).abs() <= 1e-9 * t, "{pt}");
    }
    assert!(!ranged["workstations"]["uncertainty"].is_null());
    for pt in curve(&exact) {
        assert!(pt.get("tLo").is_none_or(Value::is_null), "{pt}");
    }
    assert!(exact["workstations"]["uncertainty"].is_null());
}
