//! Golden tests: Brimstone fight logs and case answers as players read them, so changes get reviewed.

use std::path::PathBuf;

use foehold_core::game::check::whole_log;
use foehold_core::kit::case_answers;
use foehold_core::rules::brimstone::Brimstone;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every log line of a headless game of `scenario` with `seed`, ties broken by the seeded pick.
fn fight_log(scenario: &str, seed: u64) -> Vec<String> {
    let path = root().join("scenarios").join(scenario);
    whole_log::<Brimstone>(&path, seed, 50_000).unwrap_or_else(|e| panic!("{scenario}: {e}"))
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
    insta::assert_snapshot!(case_answers(&dir).unwrap_or_else(|e| panic!("{e}")));
}
