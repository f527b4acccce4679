//! Benchmark: line of sight between every pair of open hexes, on a shipped scenario and on a seeded
//! board with wall hexes and thin walls.

use criterion::{Criterion, criterion_group, criterion_main};
use foehold_core::hex::sight::Sight;
use foehold_core::hex::{Hex, HexMap, Terrain, hex, step};
use foehold_core::rules::gloomhaven::Scenario;
use rand::{RngExt, SeedableRng};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

/// The board of the largest shipped scenario.
fn kiln() -> HexMap {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/sunken-kiln.ron");
    let text = std::fs::read_to_string(&path).expect("the shipped scenario");
    let scenario = Scenario::parse("sunken-kiln.ron", &text).expect("a valid scenario");
    scenario
        .layout("sunken-kiln.ron", &text)
        .expect("a valid layout")
        .map
}

/// A 14 × 12 board, a fifth of it wall hexes and a dozen thin walls, from a fixed seed.
fn seeded() -> HexMap {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2024);
    let (mut open, mut walls) = (Vec::new(), Vec::new());
    for q in 0..14 {
        for r in -6..6 {
            if rng.random_range(0..100) < 20 {
                walls.push(hex(q, r));
            } else {
                open.push(hex(q, r));
            }
        }
    }
    let mut map = HexMap::new(&open, &walls).expect("a valid board");
    let mut added = 0;
    while added < 12 {
        let a = open[rng.random_range(0..open.len())];
        if map
            .add_thin_wall(a, step(a, rng.random_range(0..6)))
            .is_ok()
        {
            added += 1;
        }
    }
    map
}

fn open_hexes(map: &HexMap) -> Vec<Hex> {
    map.hexes()
        .iter()
        .copied()
        .filter(|h| map.terrain(*h) != Some(Terrain::Wall))
        .collect()
}

/// How many ordered pairs `(a, b)`, `a` before `b`, see each other.
fn all_pairs(sight: &Sight, open: &[Hex]) -> usize {
    let mut seen = 0;
    for (i, &a) in open.iter().enumerate() {
        for &b in &open[i + 1..] {
            seen += usize::from(sight.visible(a, b));
        }
    }
    seen
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("sight");
    group
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .sample_size(20);
    for (name, map) in [("sunken-kiln", kiln()), ("seeded-thin-walls", seeded())] {
        let open = open_hexes(&map);
        let pairs = open.len() * (open.len() - 1) / 2;
        group.bench_function(format!("{name}: build"), |b| {
            b.iter(|| black_box(Sight::new(black_box(&map))));
        });
        let sight = Sight::new(&map);
        group.bench_function(format!("{name}: {pairs} pairs"), |b| {
            b.iter(|| black_box(all_pairs(&sight, black_box(&open))));
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
