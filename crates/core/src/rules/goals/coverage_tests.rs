//! Seeded autopilot games of every shipped goal-priority scenario: each claimed rule fires, the
//! autopilot wins a fifth to four fifths of its games, and the median game lasts past round 2.

use std::sync::Arc;

use super::Goals;
use crate::game::coverage::{Report, cover};
use crate::rules::Rules;

/// Every shipped goal-priority scenario, by file name.
const SHIPPED: &[(&str, &str)] = &[(
    "dome-crossing.ron",
    include_str!("../../../../../scenarios/dome-crossing.ron"),
)];

fn report(file: &str, text: &str, seeds: u64) -> Report {
    let scenario = Arc::new(Goals::parse_scenario(file, text).unwrap_or_else(|e| panic!("{e}")));
    cover::<Goals>(&scenario, file, 0..seeds).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// The report as a table: rule → games fired / times, then the results.
fn table(file: &str, r: &Report) -> String {
    let mut out = format!("{file}\n");
    for (rule, c) in &r.rules {
        out.push_str(&format!("  {rule:<24} {:>3} / {}\n", c.games, c.times));
    }
    out.push_str(&format!(
        "  won {} lost {} unfinished {} median round {:?}\n",
        r.won,
        r.lost,
        r.unfinished,
        r.median_round()
    ));
    out
}

/// What a shipped scenario must show over its seeds.
fn check(file: &str, r: &Report) {
    let t = table(file, r);
    assert!(r.unknown.is_empty(), "{file}: unknown {:?}\n{t}", r.unknown);
    assert!(
        r.missing.is_empty(),
        "{file}: never fired {:?}\n{t}",
        r.missing
    );
    assert_eq!(r.unfinished, 0, "{t}");
    let games = r.games();
    assert!(
        r.won * 5 >= games && r.won * 5 <= games * 4,
        "{file}: won {} of {games}\n{t}",
        r.won
    );
    assert!(
        r.median_round().is_some_and(|m| m > 2),
        "{file}: games end too soon\n{t}"
    );
}

/// Seeds per scenario: a hundred games play in well under a second, even in a debug build.
const SEEDS: u64 = 100;

#[test]
fn every_shipped_scenario_fires_its_claimed_rules_and_is_neither_easy_nor_hopeless() {
    for (file, text) in SHIPPED {
        let r = report(file, text, SEEDS);
        assert!(
            !Goals::parse_scenario(file, text)
                .expect("parsed above")
                .file
                .exercises
                .is_empty(),
            "{file} claims what it exercises"
        );
        check(file, &r);
    }
}

/// `cargo test -p foehold-core --release --features testing coverage_table -- --ignored --nocapture`
#[test]
#[ignore = "prints the 100-seed coverage table of every shipped scenario"]
fn coverage_table_of_100_seeds() {
    for (file, text) in SHIPPED {
        println!("{}", table(file, &report(file, text, 100)));
    }
}
