//! Benchmark: one edit in the position lab, as a player makes it after every click: the brush on a
//! copy, the case written out and read back through its loader, and the rules' answer; then its
//! undo. One bench per shipped case of each module the lab opens, and one per whole set.

use criterion::{Criterion, criterion_group, criterion_main};
use foehold_core::kit::open_any;
use foehold_core::lab::any::AnyBench;
use foehold_core::rules::view::Ground;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

/// The shipped cases the lab opens (the Brimstone cases without a board are no lab positions).
fn cases() -> Vec<(String, String)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out = Vec::new();
    for dir in [
        "tests/conformance/frosthaven",
        "tests/puzzles",
        "tests/conformance/brimstone",
        "tests/conformance/goals",
    ] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .expect("a case folder")
            .map(|e| e.expect("entry").path())
            .filter(|f| f.extension().is_some_and(|x| x == "ron"))
            .collect();
        files.sort();
        for f in files {
            let text = std::fs::read_to_string(&f).expect("a readable case");
            let name: String = f.file_stem().unwrap_or_default().to_string_lossy().into();
            if open_any(&name, &text).is_ok() {
                out.push((name, text));
            }
        }
    }
    out
}

/// A bench on the case and a cell off its board, where floor may be painted.
fn bench_of(name: &str, text: &str) -> (Box<dyn AnyBench>, (i32, i32)) {
    let bench = open_any(name, text).expect("a lab position");
    let cell = bench
        .view()
        .cells
        .iter()
        .find(|c| c.ground == Ground::Outside)
        .map(|c| c.key)
        .expect("a cell off the board");
    (bench, cell)
}

/// One edit and its undo.
fn edit(bench: &mut dyn AnyBench, cell: (i32, i32)) {
    bench
        .paint("floor", cell, None)
        .expect("floor off the board");
    black_box(bench.answer());
    bench.undo();
}

fn bench(c: &mut Criterion) {
    let all = cases();
    let mut group = c.benchmark_group("lab-edit");
    group
        .warm_up_time(Duration::from_millis(100))
        .measurement_time(Duration::from_millis(400))
        .sample_size(10);
    for (name, text) in &all {
        let (mut b, cell) = bench_of(name, text);
        group.bench_function(name, |x| x.iter(|| edit(&mut *b, cell)));
    }
    group.finish();
    let mut whole = c.benchmark_group("lab-edit-all");
    whole.sample_size(10);
    let mut benches: Vec<_> = all.iter().map(|(n, t)| bench_of(n, t)).collect();
    whole.bench_function(format!("{} shipped cases", all.len()), |x| {
        x.iter(|| {
            for (b, cell) in &mut benches {
                edit(&mut **b, *cell);
            }
        });
    });
    whole.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
