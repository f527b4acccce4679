//! `foehold code`: a case file to a position code and back, through the binary.

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
        .expect("runs")
}

#[test]
fn a_case_of_every_module_goes_to_a_code_and_back_and_solves_the_same() {
    let dir = tempfile::tempdir().unwrap();
    for case in [
        "tests/puzzles/e2-001.ron",
        "tests/conformance/brimstone/bs-012.ron",
        "tests/conformance/goals/gh-001.ron",
    ] {
        let out = foehold(&["code", case]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let code = String::from_utf8(out.stdout).unwrap();
        let code = code.trim();
        assert!(code.starts_with("FH1."), "{code}");
        let back = foehold(&["code", "--open", code]);
        assert!(
            back.status.success(),
            "{}",
            String::from_utf8_lossy(&back.stderr)
        );
        let text = std::fs::read_to_string(root().join(case)).unwrap();
        assert_eq!(String::from_utf8(back.stdout).unwrap(), text, "{case}");
        let copy = dir.path().join("copy.ron");
        std::fs::write(&copy, &text).unwrap();
        let solved = |f: &str| foehold(&["solve", "--json", f]).stdout;
        let strip = |v: Vec<u8>| {
            let mut v: serde_json::Value = serde_json::from_slice(&v).unwrap();
            v.as_object_mut().unwrap().remove("file");
            v
        };
        assert_eq!(
            strip(solved(copy.to_str().unwrap())),
            strip(solved(case)),
            "{case}"
        );
    }
}

#[test]
fn a_bad_code_or_a_file_that_is_no_position_exits_2_with_the_reason() {
    for (args, why) in [
        (vec!["code", "--open", "hello"], "not a position code"),
        (vec!["code", "--open", "FH7.abc"], "version"),
        (vec!["code", "--open", "FH1.AAAA"], "damaged"),
        (
            vec!["code", "scenarios/tutorial.ron"],
            "expected a case the lab opens",
        ),
        (vec!["code", "no/such/file.ron"], "no/such/file.ron"),
    ] {
        let out = foehold(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(why), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
