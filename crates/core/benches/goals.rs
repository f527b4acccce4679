//! Benchmark: deciding each public goal-priority case (situation already parsed), one bench per case.

use criterion::{Criterion, criterion_group, criterion_main};
use foehold_core::rules::goals::{self, Situation, case};
use std::hint::black_box;
use std::path::PathBuf;
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
}

criterion_group!(benches, bench);
criterion_main!(benches);
