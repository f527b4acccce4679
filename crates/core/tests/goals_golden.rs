//! Golden tests: goal-priority game logs and case answers as players read them, so changes get reviewed.

use std::path::PathBuf;
use std::sync::Arc;

use foehold_core::rules::goals::{Game, Goals, log};
use foehold_core::rules::{Rules, TieBreaker, ToMove, case};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every log line of a headless game of `scenario` with `seed`, ties broken by the seeded pick.
fn game_log(scenario: &str, seed: u64) -> Vec<String> {
    let path = root().join("scenarios").join(scenario);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{scenario}: {e}"));
    let s = Arc::new(Goals::parse_scenario(scenario, &text).unwrap_or_else(|e| panic!("{e}")));
    let mut game = Game::new(s, scenario, seed, TieBreaker::Seeded).unwrap();
    let mut lines = Vec::new();
    game.play_out(20_000, |state, _, events| {
        lines.extend(events.iter().filter_map(|e| log::describe(state, e)));
    });
    assert!(
        matches!(game.to_move(), ToMove::Over { .. }),
        "the game ends"
    );
    lines
}

#[test]
fn a_whole_dome_crossing_win_reads_the_same() {
    // The heroes explore two adventures while the foes capture one; the unleashed Bone Hound goes out.
    insta::assert_snapshot!(game_log("dome-crossing.ron", 8).join("\n"));
}

#[test]
fn a_whole_dome_crossing_loss_reads_the_same() {
    // The twelve rounds run out: the longest kind of game, every foe's option walk in every round.
    insta::assert_snapshot!(game_log("dome-crossing.ron", 0).join("\n"));
}

#[test]
fn the_public_cases_are_explained_the_same() {
    let dir = root().join("tests/conformance/goals");
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
