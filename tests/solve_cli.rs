//! End-to-end tests of `foehold solve`: JSON answers for the public puzzles in one process, and clear
//! errors with file, line and column (exit status 2) for bad positions.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn solve(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_foehold"))
        .arg("solve")
        .args(args)
        .current_dir(root())
        .output()
        .expect("run foehold")
}

/// An answer's options as (end, targets) pairs.
type Pairs = Vec<((i64, i64), Vec<(i64, i64)>)>;

fn pairs(v: &serde_json::Value) -> Pairs {
    let hex = |h: &serde_json::Value| (h[0].as_i64().unwrap(), h[1].as_i64().unwrap());
    let mut out: Vec<_> = v["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                hex(&o["end"]),
                o["targets"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(hex)
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn a_folder_is_solved_in_order_with_one_json_object_per_line() {
    let out = solve(&["--json", "tests/conformance/frosthaven"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut files: Vec<String> = std::fs::read_dir(root().join("tests/conformance/frosthaven"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".ron"))
        .collect();
    files.sort();
    assert_eq!(lines.len(), files.len());
    for (line, name) in lines.iter().zip(&files) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(
            v["file"].as_str().unwrap().ends_with(name.as_str()),
            "{} vs {name}",
            v["file"]
        );
        assert!(v["focus"].is_array() && v["options"].is_array());
    }
}

#[test]
fn the_json_answer_for_a_file_matches_its_expectations() {
    let out = solve(&["--json", "tests/conformance/frosthaven/fh-013.ron"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["focus"], serde_json::json!([[4, -1]]));
    assert_eq!(
        pairs(&v),
        vec![((3, 3), vec![]), ((4, 2), vec![]), ((5, 1), vec![])]
    );
    assert_eq!(v["options"][0]["heading_to"], serde_json::json!([[3, 0]]));
}

#[test]
fn the_human_answer_names_the_focus_the_options_and_the_reasons() {
    let out = solve(&["tests/conformance/frosthaven/fh-013.ron"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("focus: (4, -1)"), "{text}");
    assert!(text.contains("option 3: ends on (5, 1)"), "{text}");
    assert!(text.contains("Focus: (4, -1)."), "{text}");
    assert!(text.contains("matches the expected answer"), "{text}");
}

fn expect_error(file: &str, line: usize, needle: &str) {
    let path = Path::new("tests/data/solve").join(file);
    let out = solve(&[path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{file}");
    let err = String::from_utf8(out.stderr).unwrap();
    let prefix = format!("{}:{line}:", path.display());
    assert!(
        err.starts_with(&prefix),
        "{file}: expected `{prefix}…`, got {err}"
    );
    assert!(err.contains(needle), "{file}: expected `{needle}` in {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn bad_positions_are_reported_with_file_line_and_column() {
    expect_error("off-map.ron", 29, "not on the map");
    expect_error("shared-hex.ron", 31, "two figures on (8, 0)");
    expect_error("unknown-field.ron", 33, "speed");
    expect_error("malformed.ron", 39, "Expected");
    expect_error("melee-area-with-range.ron", 35, "aoe_melee");
    expect_error("terrain-overlap.ron", 23, "both obstacle and trap");
}

#[test]
fn a_position_without_an_active_monster_is_refused() {
    let out = solve(&["tests/data/solve/no-active.ron"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("no-active.ron:") && err.contains("active"),
        "{err}"
    );
}

#[test]
fn a_missing_file_and_an_unknown_option_exit_with_status_2() {
    assert_eq!(solve(&["tests/data/solve/nope.ron"]).status.code(), Some(2));
    assert_eq!(solve(&["--fast", "x.ron"]).status.code(), Some(2));
    assert_eq!(solve(&[]).status.code(), Some(2));
}

#[test]
fn one_bad_file_does_not_stop_the_others() {
    let out = solve(&[
        "--json",
        "tests/data/solve/off-map.ron",
        "tests/conformance/frosthaven/fh-001.ron",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].contains("\"error\""));
    assert!(lines[1].contains("\"focus\":[[8,0]]"));
}

#[test]
fn several_threads_print_what_one_thread_prints_in_the_same_order() {
    // Every case folder, with bad files among them, both output forms: the threads only share the
    // work, so the output, the errors and the exit status are those of one thread, byte for byte.
    let paths = [
        "tests/conformance/frosthaven",
        "tests/data/solve",
        "tests/puzzles",
        "tests/conformance/brimstone",
        "tests/data/solve/off-map.ron",
        "tests/conformance/goals",
    ];
    for json in [true, false] {
        let run = |jobs: &str| {
            let mut args = vec!["--jobs", jobs];
            if json {
                args.push("--json");
            }
            args.extend(paths);
            solve(&args)
        };
        let one = run("1");
        assert_eq!(one.status.code(), Some(2), "the bad files fail the run");
        assert!(one.stdout.len() > 10_000 && !one.stderr.is_empty());
        for jobs in ["2", "3", "8"] {
            let many = run(jobs);
            assert_eq!(many.status.code(), one.status.code(), "--jobs {jobs}");
            assert!(
                many.stdout == one.stdout,
                "--jobs {jobs}: the output differs"
            );
            assert!(
                many.stderr == one.stderr,
                "--jobs {jobs}: the errors differ"
            );
        }
    }
    let zero = solve(&["--jobs", "0", "tests/puzzles"]);
    assert_eq!(zero.status.code(), Some(2));
}

/// The `.ron` files of a conformance folder, in name order.
fn cases(folder: &str) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(root().join(folder))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".ron"))
        .collect();
    files.sort();
    files
}

fn keys(v: &serde_json::Value) -> Vec<&str> {
    let mut k: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    k.sort_unstable();
    k
}

#[test]
fn brimstone_cases_print_the_json_of_their_format_and_match_their_answers() {
    let folder = "tests/conformance/brimstone";
    let out = solve(&["--json", folder]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let files = cases(folder);
    assert_eq!(lines.len(), files.len());
    for (line, name) in lines.iter().zip(&files) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(v["file"].as_str().unwrap().ends_with(name.as_str()));
        let kind = std::fs::read_to_string(root().join(folder).join(name)).unwrap();
        // Section 8 of the format: one shape per kind of case.
        let want: &[&str] = if kind.contains("\nPlacement(") {
            &["ends_turn", "file", "initiative_bonus", "layouts"]
        } else if kind.contains("\nTargeting(") {
            &["file", "outcomes", "retarget"]
        } else if kind.contains("\nHeroAttack(") {
            &[
                "allowed",
                "damage",
                "dice",
                "file",
                "hits",
                "killed",
                "target_number",
                "xp",
            ]
        } else {
            &["file", "party"]
        };
        assert_eq!(keys(&v), want, "{name}: {line}");
    }
    let out = solve(&[folder]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.matches("matches the expected answer").count(),
        files.len(),
        "{text}"
    );
}

#[test]
fn goal_cases_print_the_json_of_their_format_and_match_their_answers() {
    let folder = "tests/conformance/goals";
    let out = solve(&["--json", folder]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let files = cases(folder);
    assert_eq!(text.lines().count(), files.len());
    for (line, name) in text.lines().zip(&files) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(v["file"].as_str().unwrap().ends_with(name.as_str()));
        assert_eq!(keys(&v), ["file", "outcomes"], "{name}");
        for o in v["outcomes"].as_array().unwrap() {
            // Section 13.2 of the format.
            assert_eq!(
                keys(o),
                [
                    "end",
                    "minion",
                    "option",
                    "stacked_on",
                    "swap",
                    "target",
                    "unstack",
                    "used",
                    "weapon"
                ],
                "{name}"
            );
            assert!(o["option"].is_string() && o["end"].is_array(), "{name}");
        }
    }
    let out = solve(&[folder]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.matches("matches the expected answer").count(),
        files.len(),
        "{text}"
    );
}

#[test]
fn a_coordinate_far_off_the_board_is_a_positioned_error_that_states_the_bound() {
    let text =
        std::fs::read_to_string(root().join("tests/conformance/frosthaven/fh-001.ron")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for far in [
        "(2147483647, -1)",
        "(5, 2147483647)",
        "(65536, -4)",
        "(1000000, 5)",
    ] {
        let mutated = text.replacen("hexes: [", &format!("hexes: [\n            {far},"), 1);
        let path = dir.path().join("far.ron");
        std::fs::write(&path, &mutated).unwrap();
        let out = solve(&[path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{far}");
        let err = String::from_utf8(out.stderr).unwrap();
        let line = mutated.lines().position(|l| l.contains(far)).unwrap() + 1;
        assert!(
            err.starts_with(&format!("{}:{line}:", path.display()))
                && err.contains("expected coordinates within ±1000"),
            "{far}: {err}"
        );
    }
}

#[test]
fn every_subcommand_has_help_and_malformed_options_are_refused_by_the_parser() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_foehold"))
            .args(args)
            .current_dir(root())
            .output()
            .expect("run foehold")
    };
    for sub in ["solve", "odds", "play", "replay"] {
        let out = run(&[sub, "--help"]);
        assert_eq!(out.status.code(), Some(0), "{sub}");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("Usage: foehold"),
            "{sub}"
        );
    }
    assert_eq!(run(&["--help"]).status.code(), Some(0));
    for bad in [
        &["solve", "--fast", "x.ron"][..],
        &["odds", "--json"],
        &[
            "play",
            "--headless",
            "scenarios/tutorial.ron",
            "--heroes",
            "manual",
        ],
        &[
            "play",
            "--headless",
            "scenarios/tutorial.ron",
            "--heroes",
            "auto",
            "--seed",
            "-3",
        ],
        &["replay"],
        &["--seed", "many"],
        &["--after-frames"],
    ] {
        let out = run(bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("error:") && err.contains("--help"),
            "{bad:?}: {err}"
        );
    }
}

#[test]
fn another_edition_is_asked_with_rules_and_set_and_the_difference_is_shown() {
    // gh1-121: under Frosthaven's unranked groups a second area placement ties with the expected one.
    let file = "tests/conformance/gloomhaven/gh1-121.ron";
    let out = solve(&["--rules", "Frosthaven", file]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("under Frosthaven (the file's rules: Gloomhaven)"),
        "{text}"
    );
    assert!(text.contains("differs from Gloomhaven"), "{text}");
    assert!(
        text.contains("only here: ends on (5, -2), attacks (8, -2), (9, -3), (10, -4)"),
        "{text}"
    );
    // One switch set back: ranked targets again, so the answer is the file's.
    let out = solve(&[
        "--rules",
        "Frosthaven",
        "--set",
        "rank_secondary=true",
        file,
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("under Frosthaven with rank_secondary=true"),
        "{text}"
    );
    assert!(text.contains("the same as under Gloomhaven"), "{text}");
    // As JSON: the options under the rules asked, and what they add or drop.
    let out = solve(&["--json", "--rules", "Frosthaven", file]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["rules"], "Frosthaven");
    assert_eq!(pairs(&v).len(), 2);
    assert_eq!(v["compared_with"]["only_here"].as_array().unwrap().len(), 1);
    assert!(
        v["compared_with"]["only_there"]
            .as_array()
            .unwrap()
            .is_empty()
    );
}

#[test]
fn an_unknown_preset_or_switch_and_an_edition_for_another_module_exit_2() {
    let puzzle = "tests/conformance/gloomhaven/gh1-121.ron";
    for (args, needle) in [
        (vec!["--rules", "Gloom", puzzle], "no such preset"),
        (vec!["--set", "reach=3", puzzle], "no switch `reach`"),
        (vec!["--set", "sight=Fuzzy", puzzle], "AnyPoint or Corners"),
        (
            vec![
                "--rules",
                "Frosthaven",
                "tests/conformance/brimstone/bs-001.ron",
            ],
            "a brimstone case has none",
        ),
    ] {
        let out = solve(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn a_case_without_expectations_is_a_question_answered_plainly_in_every_module() {
    // Each question is a shipped case with its `expect` taken out: the same answer, no verdict.
    for (question, case) in [
        (
            "tests/data/questions/gloomhaven.ron",
            "tests/puzzles/e2-001.ron",
        ),
        (
            "tests/data/questions/brimstone.ron",
            "tests/conformance/brimstone/bs-012.ron",
        ),
        (
            "tests/data/questions/goals.ron",
            "tests/conformance/goals/gh-001.ron",
        ),
    ] {
        let out = solve(&[question]);
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            out.status.success(),
            "{question}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!text.contains("expected answer"), "{question}: {text}");
        let asked: serde_json::Value =
            serde_json::from_slice(&solve(&["--json", question]).stdout).unwrap();
        let tested: serde_json::Value =
            serde_json::from_slice(&solve(&["--json", case]).stdout).unwrap();
        let answer = |v: &serde_json::Value| {
            let mut v = v.clone();
            v.as_object_mut().unwrap().remove("file");
            v
        };
        assert_eq!(answer(&asked), answer(&tested), "{question}");
        let with_verdict = String::from_utf8(solve(&[case]).stdout).unwrap();
        assert!(
            with_verdict.contains("matches the expected answer"),
            "{case}"
        );
    }
}
