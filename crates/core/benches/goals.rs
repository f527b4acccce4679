//! Benchmark: deciding each public goal-priority case (situation already parsed), one bench per case;
//! and whole headless games of a goal-priority scenario, seeded, from setup to the result.

use criterion::{Criterion, criterion_group, criterion_main};
use foehold_core::rules::goals::{self, Game, Goals, Situation, case};
use foehold_core::rules::{Rules, TieBreaker, ToMove};
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

fn cases() -> Vec<(String, Situation)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance/goals");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("the goals cases")
        .map(|e| e.expect("entry").path())
        .filter(|f| f.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let name = f
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .to_string();
            let text = std::fs::read_to_string(&f).expect("a readable case");
            let (_, situation, _) = case::load(&name, &text).expect("a valid case");
            (name, situation)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let all = cases();
    let mut group = c.benchmark_group("goals");
    group
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_millis(600))
        .sample_size(20);
    for (id, s) in &all {
        group.bench_function(id, |b| b.iter(|| black_box(goals::decide(s))));
    }
    group.finish();
    let mut whole = c.benchmark_group("goals-all");
    whole.sample_size(20);
    whole.bench_function(format!("{} public cases", all.len()), |b| {
        b.iter(|| {
            for (_, s) in &all {
                black_box(goals::decide(s));
            }
        });
    });
    whole.finish();
    game(c);
}

/// Whole games of Dome Crossing: the autopilot heroes, the seeded dice and tie-breaker, every foe
/// turn asking the decision; one bench for a game and one for ten seeds in a row.
fn game(c: &mut Criterion) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/dome-crossing.ron");
    let text = std::fs::read_to_string(&path).expect("the scenario");
    let scenario = Arc::new(Goals::parse_scenario("dome-crossing.ron", &text).expect("valid"));
    let play = |seed: u64| {
        let mut g = Game::new(
            scenario.clone(),
            "dome-crossing.ron",
            seed,
            TieBreaker::Seeded,
        )
        .expect("sets up");
        let n = g.play_out(100_000, |_, _, _| {});
        assert!(matches!(g.to_move(), ToMove::Over { .. }), "seed {seed}");
        n
    };
    let mut group = c.benchmark_group("game");
    group.sample_size(20);
    group.bench_function("dome-crossing seed 1", |b| b.iter(|| black_box(play(1))));
    group.bench_function("dome-crossing seeds 0-9", |b| {
        b.iter(|| (0..10).map(&play).sum::<usize>());
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
