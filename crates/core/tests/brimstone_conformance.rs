//! Brimstone conformance: every public case in `tests/conformance/brimstone` is answered through
//! `kit::solve` and must match its expected answer; the test lists every case that does not.

use foehold_core::kit;
use std::path::PathBuf;

#[test]
fn every_public_brimstone_case_is_answered_as_expected() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance/brimstone");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the brimstone case folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 14,
        "expected the 14 public cases, found {}",
        files.len()
    );
    let mut failures = Vec::new();
    for f in &files {
        let name = f.display().to_string();
        let text = std::fs::read_to_string(f).expect("readable case");
        match kit::solve(&name, &text) {
            Ok(answer) => match answer.verdict {
                Some(Ok(())) => {}
                Some(Err(why)) => failures.push(format!("{name}: {why}\n{}", answer.text)),
                None => failures.push(format!("{name}: the case carries no expected answer")),
            },
            Err(e) => failures.push(e.to_string()),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
