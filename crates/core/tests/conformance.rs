//! Puzzle tests: every public Frosthaven board position in `tests/conformance/frosthaven`, and our own
//! positions in `tests/puzzles`, is solved and compared, as sets, with its expected focus and outcomes.

use foehold_core::rules::gloomhaven::case as puzzle;
use std::path::PathBuf;

fn puzzle_dir(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests")
        .join(rel)
}

#[test]
fn every_public_frosthaven_puzzle_is_solved_as_expected() {
    solve_all("conformance/frosthaven", 40);
}

#[test]
fn every_public_gloomhaven_puzzle_is_solved_as_expected() {
    solve_all("conformance/gloomhaven", 40);
}

#[test]
fn every_public_jotl_puzzle_is_solved_as_expected() {
    solve_all("conformance/jotl", 40);
}

/// Edge cases of our own: monsters that start on traps, hazards or obstacles.
#[test]
fn our_own_puzzles_are_solved_as_expected() {
    solve_all("puzzles", 6);
}

fn solve_all(rel: &str, at_least: usize) {
    let mut files: Vec<PathBuf> = std::fs::read_dir(puzzle_dir(rel))
        .expect("puzzle folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    assert!(
        files.len() >= at_least,
        "expected at least {at_least} puzzles in {rel}, found {}",
        files.len()
    );
    let mut failures = Vec::new();
    for f in &files {
        let (p, pos) = puzzle::load(f).unwrap_or_else(|e| panic!("{e}"));
        let d = pos.decide();
        let v = puzzle::check(&p, &d).expect("public puzzles carry expectations");
        if !v.passed() {
            failures.push(format!(
                "{}: focus {:?} (ok: {}), missing {:?}, extra {:?}\n  trace: {}",
                p.id,
                d.focus.iter().map(|h| (h.x, h.y)).collect::<Vec<_>>(),
                v.focus_ok,
                v.missing,
                v.extra,
                d.trace.join("\n         ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} puzzles fail:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
