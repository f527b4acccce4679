//! Benchmark: each public Brimstone case answered by its rule stage from the parsed situation (the
//! file is parsed once, outside the timing), one bench per case, plus the full answer for all of them;
//! and whole headless fights of the shipped Brimstone scenarios (`-- fight`).

use criterion::{Criterion, criterion_group, criterion_main};
use foehold_core::game::Game;
use foehold_core::rules::brimstone::Brimstone;
use foehold_core::rules::brimstone::case::Parsed;
use foehold_core::rules::{Rules, TieBreaker, ToMove};
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

fn cases() -> Vec<(String, Parsed)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance/brimstone");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("the brimstone cases")
        .map(|e| e.expect("entry").path())
        .filter(|f| f.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let name = f
                .file_stem()
                .expect("a file name")
                .to_string_lossy()
                .to_string();
            let text = std::fs::read_to_string(&f).expect("readable case");
            let parsed = Parsed::parse(&f.display().to_string(), &text).expect("a valid case");
            (name, parsed)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let all = cases();
    let mut group = c.benchmark_group("brimstone");
    group
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_millis(600))
        .sample_size(20);
    for (id, case) in &all {
        group.bench_function(id, |b| b.iter(|| black_box(case.run_rules())));
    }
    group.finish();
    let mut whole = c.benchmark_group("brimstone-answers");
    whole.sample_size(20);
    whole.bench_function("14 public cases, rules + JSON + words + verdict", |b| {
        b.iter(|| {
            for (_, case) in &all {
                black_box(case.answer());
            }
        });
    });
    whole.finish();
}

/// One whole fight, set up and played headless to its end: the number of actions it took.
fn fight(scenario: &Arc<<Brimstone as Rules>::Scenario>, seed: u64) -> usize {
    let mut g = Game::<Brimstone>::new(scenario.clone(), "fight.ron", seed, TieBreaker::Seeded)
        .expect("the fight sets up");
    let n = g.play_out(100_000, |_, _, _| {});
    assert!(matches!(g.to_move(), ToMove::Over { .. }), "the fight ends");
    n
}

fn fights(c: &mut Criterion) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let load = |name: &str| {
        let path = root.join(name);
        let text = std::fs::read_to_string(&path).expect("the scenario exists");
        Arc::new(Brimstone::parse_scenario(name, &text).expect("a valid scenario"))
    };
    let mine = load("cinder-adit.ron");
    let ambush = load("cinder-adit-ambush.ron");
    let mut group = c.benchmark_group("brimstone-fight");
    group.sample_size(20);
    group.bench_function("cinder-adit seed 1, whole fight", |b| {
        b.iter(|| black_box(fight(&mine, 1)));
    });
    group.bench_function("cinder-adit-ambush seed 1, whole fight", |b| {
        b.iter(|| black_box(fight(&ambush, 1)));
    });
    group.bench_function("both scenarios, seeds 0-7, 16 whole fights", |b| {
        b.iter(|| {
            (0..8)
                .map(|seed| fight(&mine, seed) + fight(&ambush, seed))
                .sum::<usize>()
        });
    });
    group.finish();
}

criterion_group!(benches, bench, fights);
criterion_main!(benches);
