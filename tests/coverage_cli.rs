//! `foehold coverage`: a table of every rule with its games and times, the results, claims
//! checked, and bad input refused.

use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn foehold(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_foehold"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the binary runs")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn every_module_prints_its_rules_and_the_results_of_the_games() {
    for (file, rule) in [
        ("scenarios/dome-crossing.ron", "Attack 2"),
        ("scenarios/cinder-adit.ron", "hero-shot"),
        ("scenarios/tutorial.ron", "Monster focus"),
    ] {
        let out = foehold(&["coverage", file, "--seeds", "4", "--first-seed", "7"]);
        let t = text(&out);
        assert!(matches!(out.status.code(), Some(0 | 1)), "{t}");
        assert!(t.contains("4 games, seeds 7 to 10"), "{t}");
        let row = t
            .lines()
            .find(|l| l.starts_with(rule))
            .unwrap_or_else(|| panic!("no row for {rule}: {t}"));
        let numbers: Vec<u64> = row[rule.len()..]
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        assert!(
            numbers.len() == 2 && numbers[0] >= 1 && numbers[0] <= 4 && numbers[1] >= numbers[0],
            "{row}"
        );
        let won: u32 = t
            .split("won ")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(99);
        let lost: u32 = t
            .split("lost ")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(99);
        assert!(won + lost <= 4, "{t}");
        // The same seeds give the same table.
        let again = foehold(&["coverage", file, "--seeds", "4", "--first-seed", "7"]);
        assert_eq!(text(&again), t);
    }
}

#[test]
fn a_claim_that_is_no_rule_is_refused_where_it_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let text_in = std::fs::read_to_string(root().join("scenarios/dome-crossing.ron")).unwrap();
    let bad = text_in.replacen("exercises: [", "exercises: [\"Attack 9\", ", 1);
    assert_ne!(bad, text_in);
    let path = dir.path().join("bad.ron");
    std::fs::write(&path, bad).unwrap();
    let out = foehold(&["coverage", path.to_str().unwrap(), "--seeds", "1"]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    assert!(
        t.contains("bad.ron:") && t.contains("`Attack 9` is no rule"),
        "{t}"
    );
}

#[test]
fn bad_arguments_are_refused() {
    for args in [
        &["coverage", "scenarios/dome-crossing.ron", "--seeds", "0"][..],
        &[
            "coverage",
            "scenarios/dome-crossing.ron",
            "--seeds",
            "100001",
        ],
        &["coverage", "scenarios/no-such-file.ron"],
    ] {
        let out = foehold(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out));
    }
}
