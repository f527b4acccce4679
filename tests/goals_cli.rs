//! `foehold play --headless` and `foehold replay` on a goal-priority scenario: games finish, repeat
//! with their seed, and replay from their save; a bad file is refused with its position.

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

fn play(seed: &str, save: &str) -> Output {
    foehold(&[
        "play",
        "--headless",
        "scenarios/dome-crossing.ron",
        "--seed",
        seed,
        "--heroes",
        "auto",
        "--save",
        save,
    ])
}

#[test]
fn dome_crossing_plays_headless_repeats_and_replays() {
    let dir = tempfile::tempdir().unwrap();
    for seed in ["1", "2", "3"] {
        let save = dir.path().join(format!("game-{seed}.ron"));
        let save = save.to_str().unwrap();
        let out = play(seed, save);
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.starts_with("Dome Crossing · seed"), "{text}");
        assert!(text.contains("walks its options: "), "{text}");
        assert!(text.contains("Option 1: "), "{text}");
        assert!(text.contains("Override card: "), "{text}");
        let last = text.lines().last().unwrap_or_default();
        assert!(
            last.starts_with("result: victory") || last.starts_with("result: defeat"),
            "{last}"
        );
        // The same seed plays the same game.
        let again = play(seed, save);
        assert_eq!(String::from_utf8_lossy(&again.stdout), text);
        // The save replays to the same state.
        let replay = foehold(&["replay", save, "--quiet"]);
        assert_eq!(
            replay.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&replay.stderr)
        );
        assert!(
            replay.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&replay.stderr)
        );
        let saved = std::fs::read_to_string(save).unwrap();
        assert!(saved.contains("rules: \"Goals\""), "{saved}");
    }
}

#[test]
fn a_bad_goals_file_is_refused_with_its_position() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(root().join("scenarios/dome-crossing.ron")).unwrap();
    let bad = dir.path().join("bad.ron");
    std::fs::write(&bad, text.replacen("health: 4", "health: 0", 1)).unwrap();
    let out = foehold(&[
        "play",
        "--headless",
        bad.to_str().unwrap(),
        "--heroes",
        "auto",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    let line = text.lines().position(|l| l.contains("health: 4")).unwrap() + 1;
    assert!(
        err.contains(&format!("bad.ron:{line}:")) && err.contains("`health` is 0"),
        "{err}"
    );
}
