//! Puzzle tests: every public Frosthaven board position in `tests/conformance/frosthaven` is solved and
//! compared, as sets, with its expected focus and outcomes.

use foehold_core::puzzle;
use std::path::PathBuf;

fn puzzle_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance/frosthaven")
}

#[test]
fn every_public_frosthaven_puzzle_is_solved_as_expected() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(puzzle_dir())
        .expect("puzzle folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 40,
        "expected the public puzzles, found {}",
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
