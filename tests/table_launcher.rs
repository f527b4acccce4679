//! `foehold` without a subcommand starts the 3D table, a program of its own beside it, with the same
//! arguments; without one it says how to build it.

use std::path::Path;
use std::process::Command;

/// A copy of the `foehold` command alone in a scratch folder.
fn alone() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let copy = dir.path().join("foehold");
    std::fs::copy(env!("CARGO_BIN_EXE_foehold"), &copy).expect("the command copies");
    (dir, copy)
}

// One test, not two: a file written by one test thread while another forks can be held open in
// the other's child and refuse to run ("text file busy").
#[test]
fn the_command_starts_the_table_beside_it_or_says_how_to_build_it() {
    let (dir, foehold) = alone();
    let out = Command::new(&foehold).output().expect("it runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("foehold-table"), "{err}");
    assert!(
        err.contains("cargo build --release -p foehold-table"),
        "{err}"
    );
    #[cfg(unix)]
    beside(dir.path(), &foehold);
}

/// With a table beside it, the command gives its place to the table with the same arguments.
#[cfg(unix)]
fn beside(dir: &Path, foehold: &Path) {
    use std::os::unix::fs::PermissionsExt;
    // A stand-in for the table that tells what it was given and exits with a status of its own.
    let table = dir.join("foehold-table");
    std::fs::write(&table, "#!/bin/sh\necho \"table: $*\"\nexit 7\n").expect("written");
    std::fs::set_permissions(&table, std::fs::Permissions::from_mode(0o755)).expect("executable");
    let scenario = Path::new("scenarios/cinder-adit.ron");
    let out = Command::new(foehold)
        .arg(scenario)
        .args(["--seed", "4", "--autoplay"])
        .output()
        .expect("it runs");
    assert_eq!(out.status.code(), Some(7), "the table's own status");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "table: scenarios/cinder-adit.ron --seed 4 --autoplay\n"
    );
    // A subcommand never starts the table; a bad option never does either.
    let out = Command::new(foehold)
        .args(["--seed", "x"])
        .output()
        .expect("it runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}
