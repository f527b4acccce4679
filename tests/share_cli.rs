//! `foehold share`: a scenario naming a player's own monster type, shared as a code and a bundle
//! file from one library and opened into another, through the binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn foehold(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_foehold"))
        .args(args)
        .current_dir(root())
        // No test reads or writes the real player's library.
        .env("FOEHOLD_DATA_DIR", root().join("target/no-such-data-dir"))
        .output()
        .expect("runs")
}

fn said(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A library folder holding the Mire Rat, a player's own cousin of the Cellar Rat.
fn library_with_the_mire_rat(dir: &Path) {
    let rat = std::fs::read_to_string(root().join("assets/monsters/cellar-rat.ron")).unwrap();
    std::fs::create_dir_all(dir.join("monsters")).unwrap();
    std::fs::write(
        dir.join("monsters/mire-rat.ron"),
        rat.replace("Cellar Rat", "Mire Rat"),
    )
    .unwrap();
}

#[test]
fn a_scenario_with_its_own_monster_is_shared_by_code_and_bundle_and_opens_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    let (mine, friend) = (dir.path().join("mine"), dir.path().join("friend"));
    library_with_the_mire_rat(&mine);
    let larder = std::fs::read_to_string(root().join("scenarios/rat-kings-larder.ron")).unwrap();
    let scenario = dir.path().join("larder.ron");
    std::fs::write(
        &scenario,
        larder.replacen("\"Cellar Rat\"", "\"Mire Rat\"", 1),
    )
    .unwrap();
    let (lib, file) = (mine.to_str().unwrap(), scenario.to_str().unwrap());
    // Without the library that holds its rat, there is nothing to share.
    let out = foehold(&["share", file]);
    assert_eq!(out.status.code(), Some(2), "{}", said(&out));
    assert!(said(&out).contains("Mire Rat"), "{}", said(&out));
    let bundle = dir.path().join("larder-bundle.ron");
    let out = foehold(&[
        "share",
        "--library",
        lib,
        "--bundle",
        bundle.to_str().unwrap(),
        file,
    ]);
    assert!(out.status.success(), "{}", said(&out));
    let code = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert!(code.starts_with("FS1."), "{code}");
    assert!(said(&out).contains("1 monster type(s)"), "{}", said(&out));
    // Opened into a friend's empty library: the scenario under its name, and the rat.
    let theirs = friend.to_str().unwrap();
    let out = foehold(&["share", "--library", theirs, "--open", &code]);
    assert!(out.status.success(), "{}", said(&out));
    let placed = friend.join("scenarios/the-rat-king-s-larder.ron");
    assert!(said(&out).contains("mire-rat.ron"), "{}", said(&out));
    assert_eq!(
        std::fs::read_to_string(&placed).unwrap(),
        std::fs::read_to_string(&scenario).unwrap()
    );
    let out = foehold(&["check", "--library", theirs, placed.to_str().unwrap()]);
    assert!(out.status.success(), "{}", said(&out));
    // The bundle file opens the same, and again adds nothing.
    let out = foehold(&[
        "share",
        "--library",
        theirs,
        "--open",
        bundle.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", said(&out));
    assert!(said(&out).contains("nothing to add"), "{}", said(&out));
    // A damaged code is refused with its reason, and the library is as it was.
    let out = foehold(&["share", "--library", theirs, "--open", "FS1.***"]);
    assert_eq!(out.status.code(), Some(2), "{}", said(&out));
    assert!(said(&out).contains("damaged"), "{}", said(&out));
    let files = std::fs::read_dir(friend.join("scenarios")).unwrap().count();
    assert_eq!(files, 1);
}
