//! Golden tests: Brimstone fight logs and case answers as players read them, so changes get reviewed.

use std::path::PathBuf;
use std::sync::Arc;

use foehold_core::game::Game;
use foehold_core::rules::brimstone::{Brimstone, log};
use foehold_core::rules::{Rules, TieBreaker, ToMove, case};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every log line of a headless fight of `scenario` with `seed`, ties broken by the seeded pick.
fn fight_log(scenario: &str, seed: u64) -> Vec<String> {
    let path = root().join("scenarios").join(scenario);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{scenario}: {e}"));
    let s = Arc::new(Brimstone::parse_scenario(scenario, &text).unwrap_or_else(|e| panic!("{e}")));
    let mut game: Game<Brimstone> = Game::new(s, scenario, seed, TieBreaker::Seeded).unwrap();
    let mut lines = Vec::new();
    game.play_out(50_000, |state, _, events| {
        lines.extend(events.iter().filter_map(|e| log::describe(state, e)));
    });
    assert!(
        matches!(game.to_move(), ToMove::Over { .. }),
        "the fight ends"
    );
    lines
}

#[test]
fn a_whole_cinder_adit_fight_reads_the_same() {
    // A short win with table ties, kills, loot and catching breath at the end.
    insta::assert_snapshot!(fight_log("cinder-adit.ron", 8).join("\n"));
}

#[test]
fn a_whole_ambushed_fight_reads_the_same() {
    // The ambush, then a loss: heroes knocked out one by one.
    insta::assert_snapshot!(fight_log("cinder-adit-ambush.ron", 5).join("\n"));
}

#[test]
fn the_public_cases_are_explained_the_same() {
    let dir = root().join("tests/conformance/brimstone");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    // By file name, so the snapshot does not follow the folder's listing order.
    files.sort();
    let answers: Vec<String> = files
        .iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            let text = std::fs::read_to_string(p).unwrap();
            let answer = case::solve(&name, &text).unwrap_or_else(|e| panic!("{e}"));
            format!("== {name}\n{}", answer.text.trim_end())
        })
        .collect();
    insta::assert_snapshot!(answers.join("\n\n"));
}
