//! Scenario validation (errors name file, line, column and field) and the `play` / `replay` commands:
//! exit codes, saves written atomically, replays that check the state hash.

use std::path::{Path, PathBuf};
use std::process::Command;

use foehold_core::rules::gloomhaven::{Gloomhaven, Scenario};
use foehold_core::rules::{Rules, rules_name};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The first scenario as scenario format 1 wrote it: every name it uses is in it, so each broken
/// copy is refused for what the test broke.
fn tutorial_text() -> String {
    std::fs::read_to_string(root().join("tests/data/root-cellar-format-1.ron"))
        .expect("the format-1 Root Cellar exists")
}

/// 1-based line and column of the first `needle` in `text`.
fn position(text: &str, needle: &str) -> (usize, usize) {
    let off = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} is in the text"));
    let before = &text[..off];
    let line = before.matches('\n').count() + 1;
    let col = before[before.rfind('\n').map_or(0, |i| i + 1)..]
        .chars()
        .count()
        + 1;
    (line, col)
}

fn parse(text: &str) -> foehold_core::LoadError {
    Scenario::parse("broken.ron", text).expect_err("the scenario is refused")
}

#[test]
fn every_shipped_gloomhaven_scenario_loads() {
    for p in shipped_scenarios() {
        let p = root().join(p);
        let text = std::fs::read_to_string(&p).unwrap();
        if rules_name(&text) == Gloomhaven::NAME {
            let s = Scenario::load(&p).unwrap_or_else(|e| panic!("{e}"));
            assert!(
                !s.monsters.is_empty() && !s.heroes.is_empty(),
                "{}",
                p.display()
            );
        }
    }
}

#[test]
fn an_unknown_map_character_is_reported_on_its_own_line_and_column() {
    let text = tutorial_text().replace("\"#2...^...#\"", "\"#2...^.?.#\"");
    let e = parse(&text);
    let (line, col) = position(&text, "\"#2...^.?.#\"");
    assert_eq!(
        (e.file.as_str(), e.line, e.column),
        ("broken.ron", line, col + 1 + 7),
        "{e}"
    );
    assert!(e.message.contains("map") && e.message.contains('?'), "{e}");
}

#[test]
fn an_unknown_field_is_reported_with_its_position_and_name() {
    let text = tutorial_text().replace("trap_damage: 3,", "trap_damage: 3,\n    trap_colour: 3,");
    let e = parse(&text);
    assert_eq!(e.line, position(&text, "trap_colour").0, "{e}");
    assert!(e.message.contains("trap_colour"), "{e}");
}

#[test]
fn malformed_ron_is_reported_where_it_breaks() {
    let text = tutorial_text().replace("hp: 12,", "hp: 12,,");
    let e = parse(&text);
    assert_eq!(e.line, position(&text, "hp: 12,,").0, "{e}");
    assert!(e.column > 0);
}

#[test]
fn references_that_do_not_resolve_are_named() {
    let cases = [
        (
            "'b': (monster: \"Cellar Rat\")",
            "'b': (monster: \"Cellar Cat\")",
            "\"Cellar Cat\"",
            "unknown monster type",
        ),
        (
            "\"#2...^...#\"",
            "\"#....^...#\"",
            "map:",
            "hero 2 has no start",
        ),
        (
            "\"#1......a#\"",
            "\"#1......z#\"",
            "\"#1......z#\"",
            "is in none of the legend, the treasures and the allies",
        ),
        (
            "round_limit: 12",
            "round_limit: 0",
            "round_limit",
            "at least 1",
        ),
    ];
    for (from, to, at, says) in cases {
        let text = tutorial_text().replace(from, to);
        assert_ne!(text, tutorial_text(), "{from} is in the tutorial");
        let e = parse(&text);
        assert!(e.message.contains(says), "{to}: {e}");
        assert_eq!(e.line, position(&text, at).0, "{to}: {e}");
    }
}

#[test]
fn a_bad_modifier_card_is_refused_with_its_position() {
    let text = tutorial_text().replace(
        "            hp: 8,",
        "            hp: 8,\n            modifiers: [\"+0\", \"+9 sparkle\"],",
    );
    let e = parse(&text);
    assert_eq!(e.line, position(&text, "\"+9 sparkle\"").0, "{e}");
    assert!(e.message.starts_with("modifiers"), "{e}");
}

fn foehold(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_foehold"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the binary runs")
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("foehold-game-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Every scenario shipped in `scenarios/`, whatever its rules, sorted.
fn shipped_scenarios() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(root().join("scenarios"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .map(|p| format!("scenarios/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    files.sort();
    assert!(files.len() >= 3, "{files:?}");
    files
}

#[test]
fn play_then_replay_reaches_the_same_hash_and_a_tampered_save_does_not() {
    for scenario in &shipped_scenarios() {
        let scenario = scenario.as_str();
        let save = temp(&format!(
            "{}.save.ron",
            Path::new(scenario).file_stem().unwrap().to_string_lossy()
        ));
        let out = foehold(&[
            "play",
            "--headless",
            scenario,
            "--seed",
            "11",
            "--heroes",
            "auto",
            "--save",
            save.to_str().unwrap(),
        ]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // The log of the game, then its result.
        assert!(
            stdout.lines().count() > 10
                && (stdout.contains("result: victory") || stdout.contains("result: defeat")),
            "{stdout}"
        );
        let leftovers: Vec<_> = std::fs::read_dir(save.parent().unwrap())
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().contains(".tmp"))
            .collect();
        assert!(leftovers.is_empty(), "no temporary file is left behind");

        let out = foehold(&["replay", save.to_str().unwrap(), "--quiet"]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );

        // Same seed, same game: the second save is byte-identical.
        let again = temp("again.save.ron");
        foehold(&[
            "play",
            "--headless",
            scenario,
            "--seed",
            "11",
            "--heroes",
            "auto",
            "--quiet",
            "--save",
            again.to_str().unwrap(),
        ]);
        assert_eq!(
            std::fs::read(&save).unwrap(),
            std::fs::read(&again).unwrap()
        );

        // The final hash changed by hand: the replay no longer reaches it.
        let text = std::fs::read_to_string(&save).unwrap();
        let at = text
            .find("\n  state_hash: \"")
            .expect("the save has a final hash")
            + 16;
        let tampered = format!("{}0000000000000000{}", &text[..at], &text[at + 16..]);
        assert_ne!(tampered, text);
        let bad = temp("tampered.save.ron");
        std::fs::write(&bad, tampered).unwrap();
        assert_eq!(
            foehold(&["replay", bad.to_str().unwrap(), "--quiet"])
                .status
                .code(),
            Some(1)
        );
    }
}

#[test]
fn bad_input_exits_with_2_and_names_the_place() {
    let broken = temp("broken.ron");
    let text = tutorial_text().replace("\"#2...^...#\"", "\"#2...^.?.#\"");
    std::fs::write(&broken, &text).unwrap();
    let out = foehold(&[
        "play",
        "--headless",
        broken.to_str().unwrap(),
        "--seed",
        "1",
        "--heroes",
        "auto",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    let (line, col) = position(&text, "\"#2...^.?.#\"");
    assert!(
        err.contains(&format!("{}:{line}:{}:", broken.display(), col + 8)),
        "{err}"
    );

    let garbage = temp("garbage.save.ron");
    std::fs::write(&garbage, "Save(scenario: 3)").unwrap();
    let out = foehold(&["replay", garbage.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("garbage.save.ron:1:"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    assert_eq!(
        foehold(&["play", "scenarios/tutorial.ron"]).status.code(),
        Some(2),
        "--headless is required"
    );
    assert_eq!(
        foehold(&[
            "play",
            "--headless",
            "scenarios/tutorial.ron",
            "--seed",
            "x",
            "--heroes",
            "auto"
        ])
        .status
        .code(),
        Some(2)
    );
    assert_eq!(
        foehold(&["replay", "/nonexistent/save.ron"]).status.code(),
        Some(2)
    );
}

#[test]
fn a_reader_that_stops_early_ends_the_command_quietly() {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_foehold"))
        .args([
            "play",
            "--headless",
            "scenarios/sunken-kiln.ron",
            "--seed",
            "1",
            "--heroes",
            "auto",
        ])
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run foehold");
    // Hang up at once, as `| head -0` does: the command has not started writing yet (it is still
    // loading its scenario), so its first line meets a closed pipe.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("foehold ends");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "no panic: {err}");
    assert_eq!(out.status.code(), Some(141), "the status of a closed pipe");
}

#[test]
fn summon_and_spawn_fields_are_checked_where_they_are_written() {
    let orchard = std::fs::read_to_string(root().join("scenarios/ember-orchard.ron"))
        .expect("the orchard exists");
    let cases = [
        (
            "Spawn(\"Ash Hound\"), Heal(1)",
            "Spawn(\"Ash Hart\"), Heal(1)",
            "\"Ash Hart\"",
            "spawns an unknown monster type",
        ),
        (
            "standees: 6,",
            "standees: 0,",
            "standees: 0",
            "expected a number from 1",
        ),
        (
            "hp: 5, move: 3, attack: 2))], lost: true)",
            "hp: 5, move: 3, attack: 2))])",
            "\"Kindle Sprite\"",
            "is lost",
        ),
        (
            "(name: \"Ember Sprite\", hp: 5,",
            "(name: \"Ember Sprite\", hp: 0,",
            "hp: 0",
            "expected a number from 1",
        ),
        (
            "attack: 2, range: 2))]",
            "attack: 2, range: 99))]",
            "range: 99",
            "expected a number from 0 to 64",
        ),
    ];
    for (from, to, at, says) in cases {
        let text = orchard.replace(from, to);
        assert_ne!(text, orchard, "{from} is in the orchard");
        let e = parse(&text);
        assert!(e.message.contains(says), "{to}: {e}");
        assert_eq!(e.line, position(&text, at).0, "{to}: {e}");
    }
}

#[test]
fn the_format_1_root_cellar_plays_as_its_library_rewrite_does_for_two_at_level_1() {
    use foehold_core::game::check::whole_log;
    for seed in 0..6 {
        let old = whole_log::<Gloomhaven>(
            &root().join("tests/data/root-cellar-format-1.ron"),
            seed,
            20_000,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let new = whole_log::<Gloomhaven>(&root().join("scenarios/tutorial.ron"), seed, 20_000)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(old.len() > 20, "seed {seed}: a whole game");
        assert_eq!(old, new, "seed {seed}");
    }
}
