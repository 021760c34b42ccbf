//! The moldable engine: every schedule passes the independent validator, the GA never returns
//! worse than its initial population, the same seed gives the same result, guillotine sets
//! have their known optimum, and bad input is refused naming the path, line and column.

use placelab::api;
use placelab::moldable::ga::{self, GaParams};
use placelab::moldable::model::{Instance, Job, Variant};
use placelab::moldable::scenario::Decoder;
use placelab::moldable::shelf::{self, Packer};
use placelab::moldable::{bound, guillotine, list, validate};
use placelab::progress::{NoProgress, Progress};
use placelab::rng::Rng;
use proptest::prelude::*;
use serde_json::Value;

fn report(text: &str) -> Value {
    let r = api::run(text, &mut NoProgress).unwrap_or_else(|e| panic!("{e}"));
    serde_json::from_str::<Value>(&r).unwrap()["report"].clone()
}

fn random_instance(seed: u64, n: u32, m: u32, w: Option<f64>, releases: bool) -> Instance {
    let mut rng = Rng::seeded(seed);
    let jobs = (0..m)
        .map(|i| {
            let q = rng.in_range(1, 4);
            let variants = (0..q)
                .map(|_| Variant {
                    ranks: rng.in_range(1, n as u64) as u32,
                    time: rng.in_range(1, 20) as f64,
                    weight: rng.in_range(1, 10) as f64 / 10.0,
                })
                .collect();
            Job {
                name: format!("J{i}"),
                variants,
                release: if releases {
                    rng.in_range(0, 15) as f64
                } else {
                    0.0
                },
            }
        })
        .collect();
    Instance {
        machines: n,
        jobs,
        efficiency: w,
        optimum: None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn every_packer_decoder_and_ga_schedule_is_valid(seed in any::<u64>(), n in 1u32..40, m in 1u32..30,
            constrained in any::<bool>(), releases in any::<bool>()) {
        let inst = random_instance(seed, n, m, constrained.then_some(0.7), releases);
        let pref = inst.preferred_variants();
        let lb = bound::lower_bound(&inst);
        for p in [Packer::Nfdh, Packer::Ffdh, Packer::Bfdh] {
            let s = shelf::pack(&inst, &pref, p);
            prop_assert_eq!(validate::validate(&inst, &s), Ok(()));
            prop_assert!(s.makespan(&inst) >= lb.value - 1e-9);
        }
        let order: Vec<u32> = (0..m).rev().collect();
        let s = list::schedule(&inst, &order, &pref);
        prop_assert_eq!(validate::validate(&inst, &s), Ok(()));
        for decoder in [Decoder::Shelf, Decoder::List] {
            let params = GaParams { population: 6, cycles: 15, parts: 3, decoder, islands: 2, exchange_every: 4, ..GaParams::default() };
            let out = ga::run(&inst, params, seed, &mut |_, _| {});
            prop_assert_eq!(validate::validate(&inst, &out.schedule), Ok(()));
            prop_assert_eq!(out.schedule.makespan(&inst), out.best.makespan);
            // never worse than the initial population, and the curve never rises
            prop_assert!(out.best.makespan <= out.init_best);
            prop_assert!(out.curve.windows(2).all(|w| w[1] <= w[0]));
            if decoder == Decoder::Shelf {
                prop_assert!(out.best.makespan <= out.init_ffdh.min(out.init_bfdh));
            }
        }
    }
}

#[test]
fn list_decoding_reaches_the_optimum_of_guillotine_sets_more_closely_than_shelves() {
    let jobs = guillotine::generate(256, 200, 150, 3, 3);
    let inst = Instance {
        machines: 256,
        jobs,
        efficiency: None,
        optimum: Some(200.0),
    };
    assert_eq!(bound::lower_bound(&inst).area, 200.0);
    let ff = shelf::pack(&inst, &inst.preferred_variants(), Packer::Ffdh).makespan(&inst);
    let params = GaParams {
        cycles: 50,
        decoder: Decoder::List,
        ..GaParams::default()
    };
    let out = ga::run(&inst, params, 1, &mut |_, _| {});
    assert!(out.best.makespan >= 200.0);
    assert!(out.best.makespan < ff, "{} vs FFDH {ff}", out.best.makespan);
    assert_eq!(validate::validate(&inst, &out.schedule), Ok(()));
}

#[test]
fn the_same_seed_gives_the_same_report_and_another_seed_may_not() {
    let text = |seed: u64, islands: u32| {
        format!(
            r#"{{"version":1,"engine":"moldable","seed":{seed},"machines":128,
            "ga":{{"cycles":40,"islands":{islands},"exchangeEvery":5}},
            "generate":{{"kind":"random","jobs":120}}}}"#
        )
    };
    assert_eq!(report(&text(7, 1)), report(&text(7, 1)));
    assert_eq!(report(&text(7, 3)), report(&text(7, 3)));
    assert_ne!(
        report(&text(7, 1))["jobList"],
        report(&text(8, 1))["jobList"]
    );
}

#[test]
fn every_example_schedule_is_valid_and_the_deltas_follow_the_source() {
    for f in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/playground-examples")).unwrap()
    {
        let path = f.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if !name.starts_with("moldable-") {
            continue;
        }
        let r = report(&std::fs::read_to_string(&path).unwrap());
        let lb = r["lowerBound"]["value"].as_f64().unwrap();
        for m in r["methods"].as_array().unwrap() {
            assert_eq!(m["valid"], "ok", "{name} {}", m["method"]);
            assert!(m["makespan"].as_f64().unwrap() >= lb - 1e-9, "{name}");
        }
        let g = &r["ga"];
        let t = r["methods"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["method"] == "ga")
            .unwrap()["makespan"]
            .as_f64()
            .unwrap();
        let d2 = (g["ffdh"].as_f64().unwrap() - t) / t;
        assert_eq!(g["delta2"].as_f64().unwrap(), d2, "{name}");
        assert!(d2 >= 0.0, "{name}: the GA starts from the FFDH schedule");
    }
}

#[test]
fn torque_and_swf_errors_name_their_line() {
    let e = api::run(r#"{"version":1,"engine":"moldable","machines":8,"torque":"-L nodes=1@walltime=10\n-L nodes=2@ppn=x@walltime=5"}"#, &mut NoProgress).unwrap_err();
    assert_eq!(e.path, "$.torque");
    assert_eq!(
        e.message,
        "line 2, column 16: ppn must be a whole number from 1, got \"x\""
    );
    let e = api::run(r#"{"version":1,"engine":"moldable","machines":8,"swf":{"text":"; h\n1 0 0 10 2 -1 -1 2 10 -1 1 1 1 1 1 -1 -1 -1\n2 0 0"}}"#, &mut NoProgress).unwrap_err();
    assert_eq!(e.path, "$.swf.text");
    assert!(e.message.starts_with("line 3:"), "{}", e.message);
}

#[test]
fn bad_scenarios_are_refused_at_their_path() {
    let cases = [
        (
            r#"{"machines":8,"jobs":[{"ranks":2,"time":1,"colour":1}]}"#,
            "$.jobs[0].colour",
        ),
        (
            r#"{"machines":8,"jobs":[{"ranks":9,"time":1}]}"#,
            "$.jobs[0]",
        ),
        (
            r#"{"machines":8,"jobs":[{"variants":[{"ranks":2,"time":0}]}]}"#,
            "$.jobs[0].variants[0].time",
        ),
        (r#"{"machines":8,"jobs":[{"ranks":2}]}"#, "$.jobs[0]"),
        (
            r#"{"machines":0,"jobs":[{"ranks":2,"time":1}]}"#,
            "$.machines",
        ),
        (r#"{"machines":8}"#, "$"),
        (r#"{"machines":8,"torque":"","jobs":[]}"#, "$"),
        (
            r#"{"machines":8,"efficiency":1.5,"jobs":[{"ranks":2,"time":1}]}"#,
            "$.efficiency",
        ),
        (
            r#"{"machines":8,"ga":{"parts":1},"jobs":[{"ranks":2,"time":1}]}"#,
            "$.ga.parts",
        ),
        (
            r#"{"machines":8,"methods":["ga","ga"],"jobs":[{"ranks":2,"time":1}]}"#,
            "$.methods[1]",
        ),
        (
            r#"{"machines":4,"generate":{"kind":"guillotine","jobs":100,"height":2}}"#,
            "$.generate.jobs",
        ),
    ];
    for (fields, path) in cases {
        let text = format!(r#"{{"version":1,"engine":"moldable",{}"#, &fields[1..]);
        let e = api::check(&text).unwrap_err();
        assert_eq!(e.path, path, "{fields}: {e}");
    }
    // admission: the source's largest scale with a million cycles is refused before running
    let e = api::check(r#"{"version":1,"engine":"moldable","machines":65536,"ga":{"cycles":100000,"population":64},"generate":{"kind":"random","jobs":3000}}"#).unwrap_err();
    assert!(
        e.message.starts_with("refused before running: estimated"),
        "{e}"
    );
}

struct Recorder(Vec<String>);
impl Progress for Recorder {
    fn tick(&mut self, _: u64, _: u64) {}
    fn wants_partial(&self) -> bool {
        true
    }
    fn partial(&mut self, value: &Value) {
        self.0.push(value.to_string());
    }
}

#[test]
fn the_ga_offers_its_curve_and_best_schedule_while_it_runs() {
    let text = r#"{"version":1,"engine":"moldable","machines":64,"ga":{"cycles":100},"generate":{"kind":"random","jobs":50}}"#;
    let mut rec = Recorder(Vec::new());
    let final_report = api::run(text, &mut rec).unwrap();
    assert!(rec.0.len() >= 10, "{} partial results", rec.0.len());
    let first: Value = serde_json::from_str(&rec.0[0]).unwrap();
    let last: Value = serde_json::from_str(rec.0.last().unwrap()).unwrap();
    assert_eq!(first["method"], "ga");
    assert!(last["curve"].as_array().unwrap().len() > first["curve"].as_array().unwrap().len());
    assert_eq!(last["schedule"].as_array().unwrap().len(), 50);
    // the final report does not depend on who listens
    assert_eq!(final_report, api::run(text, &mut NoProgress).unwrap());
}
