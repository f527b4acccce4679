//! Benchmarks of the game loop: one foe phase of 40 monsters on a 1,000-hex board, how one monster's
//! turn and a foe phase scale with the board and the number of foes, and whole headless games
//! (autopilot heroes, seeded ties) on the shipped scenarios.

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use foehold_core::rules::gloomhaven::autopilot::next_action;
use foehold_core::rules::gloomhaven::{Game, Phase, Scenario, State, TieBreaker};

/// A 40 × 25 board (1,000 hexes with its walls), four heroes in the middle whose cards all have
/// initiative 99, and 40 monsters of two types around them, so that the monsters act first.
fn big_scenario() -> Scenario {
    field(40, 25, 40)
}

/// A `w` × `h` board of the same make as [`big_scenario`]'s (walls round it, scattered obstacles and
/// traps), the four heroes in the middle and `monsters` monsters spread around them.
fn field(w: usize, h: usize, monsters: usize) -> Scenario {
    field_within(w, h, monsters, (h, w))
}

/// [`field`], with the monsters only within `(rows, columns)` of the middle: on any board they stand
/// as far from the heroes as on the smallest that holds that window.
fn field_within(w: usize, h: usize, monsters: usize, window: (usize, usize)) -> Scenario {
    let mut rows: Vec<Vec<char>> = (0..h).map(|_| vec!['.'; w]).collect();
    for (r, row) in rows.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            if r == 0 || c == 0 || r == h - 1 || c == w - 1 {
                *cell = '#';
            } else if (r * 7 + c * 3) % 23 == 0 {
                *cell = 'o';
            } else if (r * 5 + c * 11) % 41 == 0 {
                *cell = '^';
            }
        }
    }
    let (mr, mc) = (h / 2, w / 2);
    for (i, (r, c)) in [
        (mr - 1, mc - 1),
        (mr - 1, mc + 1),
        (mr + 1, mc - 1),
        (mr + 1, mc + 1),
    ]
    .into_iter()
    .enumerate()
    {
        rows[r][c] = char::from(b'1' + i as u8);
    }
    // Monsters around the heroes, row by row from the top: melee brutes and ranged archers, some
    // elite. Their grid is as coarse as the board allows for their number, and the heroes keep a
    // margin free (on the 40 × 25 board: the layout its figures were first measured on).
    let (hr, hc) = (3.min(h / 8), 5.min(w / 8));
    let spots = |dr: usize, dc: usize| -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for r in (2..h - 2).step_by(dr) {
            for c in (2..w - 2).step_by(dc) {
                let inside = r.abs_diff(mr) <= window.0 && c.abs_diff(mc) <= window.1;
                if inside && (r.abs_diff(mr) > hr || c.abs_diff(mc) > hc) {
                    out.push((r, c));
                }
            }
        }
        out
    };
    let grid = [(3, 4), (2, 3), (2, 2), (1, 2), (1, 1)]
        .into_iter()
        .map(|(dr, dc)| spots(dr, dc))
        .find(|s| s.len() >= monsters)
        .expect("room for the monsters");
    for (placed, (r, c)) in grid.into_iter().take(monsters).enumerate() {
        rows[r][c] = ['a', 'A', 'b', 'B'][placed % 4];
    }
    let map: Vec<String> = rows
        .iter()
        .map(|r| format!("        \"{}\",", r.iter().collect::<String>()))
        .collect();
    let card = |n: usize| {
        format!(
            "(name: \"Card {n}\", initiative: 99, top: (effects: [Attack(value: 2)]), bottom: (effects: [Move(2)]))"
        )
    };
    let cards: Vec<String> = (0..8).map(card).collect();
    let hero = |name: &str| format!("(name: \"{name}\", hp: 30, cards: [{}])", cards.join(", "));
    let heroes: Vec<String> = ["Ada", "Bo", "Cy", "Di"].iter().map(|n| hero(n)).collect();
    let deck = |range: u32| {
        (0..8)
            .map(|i| {
                format!(
                    "(name: \"Step {i}\", initiative: {}, actions: [Move({}), Attack(value: 0, range: {range})])",
                    10 + i * 7,
                    i % 3
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let text = format!(
        "#![enable(implicit_some)]\nScenario(\n    rules: Gloomhaven,\n    name: \"Bench Field\",\n    grid: Hex,\n    map: [\n{}\n    ],\n    legend: {{\n        'a': (monster: \"Brute\"),\n        'A': (monster: \"Brute\", elite: true),\n        'b': (monster: \"Archer\"),\n        'B': (monster: \"Archer\", elite: true),\n    }},\n    heroes: [{}],\n    monsters: [\n        (name: \"Brute\", standees: 64, normal: (hp: 8, move: 3, attack: 3), elite: (hp: 12, move: 3, attack: 4), deck: [{}]),\n        (name: \"Archer\", standees: 64, normal: (hp: 5, move: 2, attack: 2, range: 4), elite: (hp: 7, move: 2, attack: 3, range: 5), deck: [{}]),\n    ],\n    victory: AllFoesDead,\n)\n",
        map.join("\n"),
        heroes.join(", "),
        deck(0),
        deck(4)
    );
    Scenario::parse("bench.ron", &text).unwrap_or_else(|e| panic!("{e}"))
}

/// The state just before the first monster turn of round 1.
fn before_foe_phase(s: &Arc<Scenario>) -> State {
    let mut state = State::new(s.clone(), 1, TieBreaker::Seeded).expect("sets up");
    while !matches!(state.phase, Phase::FoeTurn { .. }) {
        let a = next_action(&state).expect("an action");
        state.apply(a).expect("accepted");
    }
    state
}

/// Runs every monster turn of the round (ties and draws by the seeded pick), up to the heroes' turns.
fn foe_phase(state: &mut State) -> usize {
    let mut steps = 0;
    while matches!(state.phase, Phase::FoeTurn { .. }) {
        // The rules' steps, ties and modifier cards drawn by the seeded pick.
        let a = next_action(state).expect("an action");
        state.apply(a).expect("accepted");
        steps += 1;
    }
    steps
}

/// The first monster to act, when the foe phase begins.
fn first_monster(state: &State) -> usize {
    match state.phase {
        Phase::FoeTurn { monster, .. } => monster,
        _ => unreachable!("the foe phase begins with a monster"),
    }
}

fn bench(c: &mut Criterion) {
    let big = Arc::new(big_scenario());
    let start = before_foe_phase(&big);
    assert_eq!(start.monsters.len(), 40);
    assert!(start.map.0.len() >= 1000);
    let mut group = c.benchmark_group("game");
    group
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(4))
        .sample_size(30);
    group.bench_function("foe phase: 40 monsters, 1000 hexes", |b| {
        b.iter_batched(
            || start.clone(),
            |mut s| black_box(foe_phase(&mut s)),
            BatchSize::SmallInput,
        );
    });
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    for name in ["tutorial.ron", "sunken-kiln.ron"] {
        let s = Arc::new(Scenario::load(&root.join(name)).unwrap_or_else(|e| panic!("{e}")));
        let mut seed = 0u64;
        group.bench_function(format!("full headless game: {name}"), |b| {
            b.iter(|| {
                seed += 1;
                let mut g = Game::new(s.clone(), name, seed, TieBreaker::Seeded).expect("sets up");
                black_box(g.play_out(100_000, |_, _, _| {}))
            });
        });
    }
    group.finish();
}

/// One monster's turn decided alone (nothing worked out before on the board) and a whole foe phase,
/// as the board grows with 10 monsters (spread over it, then kept near the heroes) and as the
/// monsters grow on the 1,000-hex board.
fn scaling(c: &mut Criterion) {
    let mut group = c.benchmark_group("scaling");
    group
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2))
        .sample_size(15);
    // The last two: 10 monsters within 6 rows and 10 columns of the heroes, whatever the board.
    let spread = (usize::MAX, usize::MAX);
    let near = (6, 10);
    let cases = [
        (10, 10, 10, spread),
        (40, 25, 10, spread),
        (125, 80, 10, spread),
        (40, 25, 1, spread),
        (40, 25, 40, spread),
        (40, 25, 100, spread),
        (40, 25, 10, near),
        (125, 80, 10, near),
    ];
    for (w, h, monsters, window) in cases {
        let s = Arc::new(field_within(w, h, monsters, window));
        let near = if window == spread {
            ""
        } else {
            " near the heroes"
        };
        let start = before_foe_phase(&s);
        assert_eq!(start.monsters.len(), monsters);
        let hexes = start.map.0.len();
        let m = first_monster(&start);
        group.bench_function(
            format!("one monster: {monsters} monsters{near}, {hexes} hexes"),
            |b| {
                b.iter(|| black_box(start.foe_options(m)));
            },
        );
        group.bench_function(
            format!("foe phase: {monsters} monsters{near}, {hexes} hexes"),
            |b| {
                b.iter_batched(
                    || start.clone(),
                    |mut s| black_box(foe_phase(&mut s)),
                    BatchSize::SmallInput,
                );
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench, scaling);
criterion_main!(benches);
