//! Golden tests: goal-priority game logs and case answers as players read them, so changes get reviewed.

use std::path::PathBuf;

use foehold_core::game::check::{case_answers, whole_log};
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
    insta::assert_snapshot!(case_answers(&dir).unwrap_or_else(|e| panic!("{e}")));
}
