//! Golden tests: what players read (decision traces, a whole headless game's log) is kept in snapshots,
//! so a change to it is a reviewed change (`cargo insta review`, or `INSTA_UPDATE=always`).

use std::path::PathBuf;
use std::sync::Arc;

use foehold_core::rules::gloomhaven::case as puzzle;
use foehold_core::rules::gloomhaven::{Event, Game, Scenario, TieBreaker, log};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every log line of a headless game of `scenario` with `seed`, ties broken by the seeded pick.
fn game_log(scenario: &str, seed: u64) -> (Vec<String>, Vec<Vec<String>>) {
    let path = root().join("scenarios").join(scenario);
    let s = Arc::new(Scenario::load(&path).unwrap_or_else(|e| panic!("{e}")));
    let mut game = Game::new(s, scenario, seed, TieBreaker::Seeded).unwrap();
    let mut lines = Vec::new();
    let mut traces = Vec::new();
    game.play_out(5000, |state, _, events| {
        lines.extend(log::lines(state, events));
        for e in events {
            if let Event::FoeTargeted { trace, .. } = e {
                traces.push(trace.clone());
            }
        }
    });
    assert!(game.state.phase.is_over(), "the game ends");
    (lines, traces)
}

#[test]
fn a_whole_tutorial_game_reads_the_same() {
    let (lines, _) = game_log("tutorial.ron", 3);
    insta::assert_snapshot!(lines.join("\n"));
}

#[test]
fn a_whole_ember_orchard_game_reads_the_same() {
    // Summons, spawns, blessings and the heroes' tied initiative in one log.
    let (lines, _) = game_log("ember-orchard.ron", 2);
    insta::assert_snapshot!(lines.join("\n"));
}

#[test]
fn the_first_foe_decisions_of_the_kiln_read_the_same() {
    let (_, traces) = game_log("sunken-kiln.ron", 5);
    let shown: Vec<String> = traces
        .iter()
        .take(6)
        .enumerate()
        .map(|(i, t)| format!("decision {}\n  {}", i + 1, t.join("\n  ")))
        .collect();
    insta::assert_snapshot!(shown.join("\n\n"));
}

#[test]
fn our_own_puzzles_are_explained_the_same() {
    let dir = root().join("tests/puzzles");
    let files = foehold_core::game::check::ron_files(&dir).expect("the cases are readable");
    let answers: Vec<String> = files
        .iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            let (_, position) = puzzle::load(p).unwrap_or_else(|e| panic!("{e}"));
            format!("== {name}\n{}", position.decide().trace.join("\n"))
        })
        .collect();
    insta::assert_snapshot!(answers.join("\n\n"));
}
