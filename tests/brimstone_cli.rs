//! `foehold play --headless` and `foehold replay` on the Brimstone fights: seeded fights end, the
//! same seed plays the same fight, saves replay to the same state, and a bad file is refused.

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

const FIGHTS: [&str; 3] = [
    "scenarios/cinder-adit.ron",
    "scenarios/cinder-adit-ambush.ron",
    "scenarios/sulphur-drift.ron",
];

fn play(scenario: &str, seed: u64, save: Option<&str>) -> Output {
    let seed = seed.to_string();
    let mut args = vec![
        "play",
        "--headless",
        scenario,
        "--seed",
        &seed,
        "--heroes",
        "auto",
    ];
    if let Some(save) = save {
        args.extend(["--save", save]);
    }
    foehold(&args)
}

#[test]
fn seeded_brimstone_fights_end_and_replay_to_the_same_state() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let mut results = Vec::new();
    for scenario in FIGHTS {
        for seed in [1, 2, 3, 7] {
            let save = dir.path().join(format!("fight-{seed}.ron"));
            let save = save.to_str().expect("a UTF-8 path");
            let out = play(scenario, seed, Some(save));
            let stdout = String::from_utf8_lossy(&out.stdout).to_string();
            assert_eq!(
                out.status.code(),
                Some(0),
                "{scenario} seed {seed}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let last = stdout.lines().last().unwrap_or_default().to_string();
            assert!(
                last.starts_with("result: victory") || last.starts_with("result: defeat"),
                "{last}"
            );
            assert!(stdout.contains("threat: "), "the threat cards are logged");
            assert!(stdout.contains("— round 1 —"), "rounds are logged");
            // The same seed plays the same fight.
            let again = play(scenario, seed, None);
            assert_eq!(String::from_utf8_lossy(&again.stdout), stdout);
            let hash = last.rsplit(' ').next().unwrap_or_default().to_string();
            let replay = foehold(&["replay", save]);
            let text = String::from_utf8_lossy(&replay.stdout);
            assert_eq!(
                replay.status.code(),
                Some(0),
                "{}",
                String::from_utf8_lossy(&replay.stderr)
            );
            assert!(
                text.contains(&format!("state hash {hash} matches the save")),
                "{text}"
            );
            results.push(last.split(' ').nth(1).unwrap_or_default().to_string());
        }
    }
    assert!(results.iter().any(|r| r == "victory"), "{results:?}");
}

#[test]
fn a_bad_brimstone_file_is_refused_with_its_position() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let text = std::fs::read_to_string(root().join(FIGHTS[0])).expect("the scenario exists");
    let line = text
        .lines()
        .position(|l| l.contains("threat_draws: 3"))
        .expect("the draws are written")
        + 1;
    let bad = dir.path().join("bad.ron");
    std::fs::write(&bad, text.replacen("threat_draws: 3", "threat_draws: 0", 1)).expect("written");
    let out = play(bad.to_str().expect("a UTF-8 path"), 1, None);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("bad.ron:{line}:")) && err.contains("threat_draws"),
        "{err}"
    );
}
