//! Benchmark: each public Brimstone case answered by its rule stage from the parsed situation (the
//! file is parsed once, outside the timing), one bench per case, plus the full answer for all of them.

use criterion::{Criterion, criterion_group, criterion_main};
use foehold_core::rules::brimstone::case::Parsed;
use std::hint::black_box;
use std::path::PathBuf;
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

criterion_group!(benches, bench);
criterion_main!(benches);
