//! `foehold replay` names where a replay parts from its save, a scenario edited since the save,
//! and a save of an earlier format it rebuilt.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use foehold_core::rules::gloomhaven::Save;
use foehold_desktop::files::Files;

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

fn play(scenario: &Path, save: &Path) {
    let out = foehold(&[
        "play",
        "--headless",
        scenario.to_str().unwrap(),
        "--seed",
        "4",
        "--heroes",
        "auto",
        "--quiet",
        "--save",
        save.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_replay_that_parts_from_the_save_names_the_first_differing_action() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.ron");
    play(&root().join("scenarios/tutorial.ron"), &save);
    let mut s = Save::load(&Files, &save).unwrap();
    assert_eq!(s.hashes.len(), s.actions.len(), "one hash per action");
    assert!(s.scenario_hash.is_some());
    // As if the rules had given another state from the fifth action on.
    for h in &mut s.hashes[4..] {
        *h = "0000000000000000".into();
    }
    s.state_hash = "0000000000000000".into();
    let bad = dir.path().join("parted.ron");
    s.write(&mut Files, &bad).unwrap();
    let out = foehold(&["replay", bad.to_str().unwrap(), "--quiet"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("parts from the saved game at action 5 (")
            && err.contains("instead of 0000000000000000"),
        "{err}"
    );
}

#[test]
fn a_wrong_per_action_hash_is_caught_even_when_the_final_hash_matches() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.ron");
    play(&root().join("scenarios/tutorial.ron"), &save);
    let mut s = Save::load(&Files, &save).unwrap();
    // One action's hash altered; the final state's hash left as the game gave it.
    s.hashes[2] = "0000000000000000".into();
    let bad = dir.path().join("altered.ron");
    s.write(&mut Files, &bad).unwrap();
    let out = foehold(&["replay", bad.to_str().unwrap(), "--quiet"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("parts from the saved game at action 3 (")
            && err.contains("instead of 0000000000000000"),
        "{err}"
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("but an action's does not"), "{said}");
}

#[test]
fn a_scenario_edited_since_the_save_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("cellar.ron");
    // The format-1 Root Cellar: its rats' statistics are in the file, so an edit can change them.
    let text = std::fs::read_to_string(root().join("tests/data/root-cellar-format-1.ron")).unwrap();
    std::fs::write(&scenario, &text).unwrap();
    let save = dir.path().join("game.ron");
    play(&scenario, &save);
    let out = foehold(&["replay", save.to_str().unwrap(), "--quiet"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // A comment only: the same game, but the file is not the one the game was saved with.
    std::fs::write(&scenario, format!("// edited\n{text}")).unwrap();
    let out = foehold(&["replay", save.to_str().unwrap(), "--quiet"]);
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("has changed since the game was saved"),
        "{err}"
    );

    // Tougher rats: the replay parts from the save, and the edit is named first.
    std::fs::write(&scenario, text.replacen("hp: 3", "hp: 9", 1)).unwrap();
    let out = foehold(&["replay", save.to_str().unwrap(), "--quiet"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(matches!(out.status.code(), Some(1 | 2)), "{err}");
    assert!(
        err.contains("has changed since the game was saved"),
        "{err}"
    );
}

#[test]
fn a_save_of_a_game_built_from_another_library_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.ron");
    // The Lamp Vigil takes its rats, its beetles and its heroes' classes from the library.
    play(&root().join("scenarios/lamp-vigil.ron"), &save);
    let mut s = Save::load(&Files, &save).unwrap();
    assert!(s.library_hash.is_some(), "the save records the library");
    let out = foehold(&["replay", save.to_str().unwrap(), "--quiet"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // As if saved by a program whose built-in monster types or classes were other ones.
    s.library_hash = Some("0123456789abcdef".into());
    let other = dir.path().join("other.ron");
    s.write(&mut Files, &other).unwrap();
    let out = foehold(&["replay", other.to_str().unwrap(), "--quiet"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the library (the monster types and classes")
            && err.contains("has changed since the game was saved")
            && err.contains("the save has 0123456789abcdef"),
        "{err}"
    );
}

#[test]
fn a_format_1_save_replays_with_its_draws_rebuilt_and_says_so() {
    let save = root().join("crates/core/tests/fixtures/saves/format-1-tutorial-seed-3.ron");
    let out = foehold(&["replay", "--quiet", save.to_str().unwrap()]);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stderr.contains("the save is of format 1") && stderr.contains("draws were rebuilt"),
        "{stderr}"
    );
    // The save's 58 actions and the draws they made, ending in round 4 as that game did.
    assert!(stdout.contains("round 4"), "{stdout}");
    let actions: usize = stdout
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(actions > 58, "{stdout}");
}

#[cfg(unix)]
#[test]
fn a_scenario_away_from_its_save_is_read_only_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let (here, elsewhere) = (dir.path().join("here"), dir.path().join("elsewhere"));
    std::fs::create_dir_all(here.join("saves")).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    let text = std::fs::read_to_string(root().join("scenarios/tutorial.ron")).unwrap();
    std::fs::write(elsewhere.join("tutorial.ron"), &text).unwrap();
    std::fs::write(here.join("tutorial.ron"), &text).unwrap();
    let replay = |save: &Path| {
        let out = foehold(&["replay", "--quiet", save.to_str().unwrap()]);
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // A scenario away from the save (not in its folder, the one above, or the working folder),
    // unchanged: the save loads, as the table's own saves of a scenario opened from anywhere do.
    let far = here.join("saves/far.ron");
    play(&elsewhere.join("tutorial.ron"), &far);
    assert_eq!(replay(&far).0, Some(0));
    // The save naming another file there (or reaching one through a link beside it): refused at
    // once, and nothing of that file's text is shown.
    let secret = elsewhere.join("notes.ron");
    std::fs::write(&secret, "Secret(word: \"swordfish\")").unwrap();
    let mut s = Save::load(&Files, &far).unwrap();
    s.scenario = secret.display().to_string();
    let named = here.join("saves/named.ron");
    s.write(&mut Files, &named).unwrap();
    std::os::unix::fs::symlink(&secret, here.join("saves/linked.ron")).unwrap();
    let mut t = Save::load(&Files, &far).unwrap();
    t.scenario = "linked.ron".into();
    let linked = here.join("saves/through-link.ron");
    t.write(&mut Files, &linked).unwrap();
    for save in [&named, &linked] {
        let (code, err) = replay(save);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("away from the save"), "{err}");
        assert!(
            !err.contains("Secret") && !err.contains("swordfish"),
            "{err}"
        );
    }
    // A save that keeps no scenario hash (as before saves kept one): the far scenario is read
    // when it is the save's, the other file is refused in the same words.
    let mut u = Save::load(&Files, &far).unwrap();
    u.scenario_hash = None;
    let unhashed = here.join("saves/unhashed.ron");
    u.write(&mut Files, &unhashed).unwrap();
    assert_eq!(replay(&unhashed).0, Some(0));
    u.scenario = secret.display().to_string();
    u.write(&mut Files, &unhashed).unwrap();
    let (code, err) = replay(&unhashed);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("away from the save"), "{err}");
    assert!(
        !err.contains("Secret") && !err.contains("swordfish"),
        "{err}"
    );
    // A scenario beside its save, or in the folder above it, is read even when edited since (the
    // replay names the edit).
    let above = here.join("saves/above.ron");
    play(&here.join("tutorial.ron"), &above);
    assert_eq!(replay(&above).0, Some(0));
    std::fs::write(here.join("tutorial.ron"), format!("{text}\n// edited\n")).unwrap();
    let (code, err) = replay(&above);
    assert_ne!(code, Some(2), "{err}");
    assert!(
        err.contains("has changed since the game was saved"),
        "{err}"
    );
    // Edited away from its save, it is refused.
    std::fs::write(
        elsewhere.join("tutorial.ron"),
        format!("{text}\n// edited\n"),
    )
    .unwrap();
    let (code, err) = replay(&far);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("away from the save"), "{err}");
}
