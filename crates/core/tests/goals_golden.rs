//! Golden tests: goal-priority game logs and case answers as players read them, so changes get reviewed.

use std::path::PathBuf;

use foehold_core::game::check::whole_log;
use foehold_core::kit::case_answers;
use foehold_core::rules::goals::Goals;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every log line of a headless game of `scenario` with `seed`, ties broken by the seeded pick.
fn game_log(scenario: &str, seed: u64) -> Vec<String> {
    let path = root().join("scenarios").join(scenario);
    whole_log::<Goals>(&path, seed, 20_000).unwrap_or_else(|e| panic!("{scenario}: {e}"))
}

#[test]
fn a_whole_dome_crossing_win_reads_the_same() {
    // The heroes explore two adventures; the unleashed Bone Hound goes out.
    let log = game_log("dome-crossing.ron", 8);
    assert_eq!(
        log.last().map(String::as_str),
        Some("Victory: the heroes explored 2 adventures.")
    );
    assert!(log.iter().any(|l| l == "Bone Hound is out of the game."));
    insta::assert_snapshot!(log.join("\n"));
}

#[test]
fn a_whole_dome_crossing_loss_reads_the_same() {
    // A long game of eleven rounds: two heroes fall and the foes capture two adventures.
    let log = game_log("dome-crossing.ron", 6);
    assert_eq!(
        log.last().map(String::as_str),
        Some("Defeat: the foes captured 2 adventures.")
    );
    insta::assert_snapshot!(log.join("\n"));
}

#[test]
fn the_public_cases_are_explained_the_same() {
    let dir = root().join("tests/conformance/goals");
    insta::assert_snapshot!(case_answers(&dir).unwrap_or_else(|e| panic!("{e}")));
}
