//! Runs every public goal-priority case (`tests/conformance/goals/*.ron`) and lists each one whose
//! answer differs from its `expect`.

use foehold_core::kit;
use std::path::PathBuf;

#[test]
fn every_public_goal_case_passes() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance/goals");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the goals case folder")
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no cases in {}", dir.display());
    let mut failures = Vec::new();
    for f in &files {
        let name = f
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let text = std::fs::read_to_string(f).expect("a readable case");
        match kit::solve(&name, &text) {
            Ok(answer) => match answer.verdict {
                Some(Ok(())) => {}
                Some(Err(why)) => failures.push(format!("{name}: {why}\n{}", answer.text)),
                None => failures.push(format!("{name}: no expected answer")),
            },
            Err(e) => failures.push(format!("{e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases fail:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
