//! Benchmark: solving each public Frosthaven puzzle and each of our heavy ones (large areas, many
//! targets and heroes; position already loaded), one bench per puzzle, and whole sets in a row (the
//! other presets' public sets too), also from their texts to their JSON answers.

use criterion::{Criterion, criterion_group, criterion_main};
use foehold_core::error::{parse_ron, parse_ron_fully};
use foehold_core::kit;
use foehold_core::rules::gloomhaven::case as puzzle;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

/// The `.ron` files of a folder of the repository whose names start with `prefix`, in name order.
fn ron_files(dir: &str, prefix: &str) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("puzzles")
        .map(|e| e.expect("entry").path())
        .filter(|f| {
            f.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
                && f.extension().is_some_and(|x| x == "ron")
        })
        .collect();
    files.sort();
    files
}

fn puzzles(dir: &str, prefix: &str) -> Vec<(String, puzzle::Position)> {
    ron_files(dir, prefix)
        .into_iter()
        .map(|f| {
            let (p, pos) = puzzle::load(&f).expect("valid puzzle");
            (p.id, pos)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let all = puzzles("tests/conformance/frosthaven", "");
    let mut group = c.benchmark_group("solve");
    group
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_millis(600))
        .sample_size(20);
    for (id, pos) in &all {
        group.bench_function(id, |b| b.iter(|| black_box(pos.decide())));
    }
    group.finish();
    let mut whole = c.benchmark_group("solve-all");
    whole.sample_size(20);
    whole.bench_function("49 public puzzles", |b| {
        b.iter(|| {
            for (_, pos) in &all {
                black_box(pos.decide());
            }
        });
    });
    let editions: Vec<(String, puzzle::Position)> = ["gloomhaven", "jotl"]
        .iter()
        .flat_map(|set| puzzles(&format!("tests/conformance/{set}"), ""))
        .collect();
    whole.bench_function("the public puzzles of the other two presets", |b| {
        b.iter(|| {
            for (_, pos) in &editions {
                black_box(pos.decide());
            }
        });
    });
    let ours = puzzles("tests/puzzles", "");
    whole.bench_function("every puzzle, public and our own", |b| {
        b.iter(|| {
            for (_, pos) in all.iter().chain(&ours) {
                black_box(pos.decide());
            }
        });
    });
    // The heaviest shape players set up: a focus tie on three or more heroes, each solved in full.
    let tied: Vec<&(String, puzzle::Position)> = ours
        .iter()
        .filter(|(id, pos)| id.starts_with("heavy-") && pos.decide().focus.len() >= 3)
        .collect();
    whole.bench_function("the tied-focus heavy puzzles", |b| {
        b.iter(|| {
            for (_, pos) in &tied {
                black_box(pos.decide());
            }
        });
    });
    whole.finish();
    let mut heavy = c.benchmark_group("solve-heavy");
    heavy.sample_size(20);
    for (id, pos) in ours.iter().filter(|(id, _)| id.starts_with("heavy-")) {
        heavy.bench_function(id, |b| b.iter(|| black_box(pos.decide())));
    }
    heavy.finish();
    // What `solve --json` does for each file once it is read into memory: parse, check, answer and
    // build the JSON.
    let texts: Vec<(String, String)> = ["tests/conformance/frosthaven", "tests/puzzles"]
        .iter()
        .flat_map(|dir| ron_files(dir, ""))
        .map(|f| {
            let text = std::fs::read_to_string(&f).expect("readable");
            (f.display().to_string(), text)
        })
        .collect();
    let mut read = c.benchmark_group("read-and-answer");
    read.sample_size(20);
    read.bench_function("every puzzle's text to its JSON answer", |b| {
        b.iter(|| {
            for (file, text) in &texts {
                black_box(kit::solve_json(file, text).expect("valid puzzle"));
            }
        });
    });
    // Reading alone, with and without the quick reader: why `quick_ron` is kept beside `ron`.
    read.bench_function("every puzzle's text read, the quick reader first", |b| {
        b.iter(|| {
            for (file, text) in &texts {
                black_box(parse_ron::<puzzle::Puzzle>(file, text).expect("valid puzzle"));
            }
        });
    });
    read.bench_function("every puzzle's text read by the ron crate alone", |b| {
        b.iter(|| {
            for (file, text) in &texts {
                black_box(parse_ron_fully::<puzzle::Puzzle>(file, text).expect("valid puzzle"));
            }
        });
    });
    read.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
