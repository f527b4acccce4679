//! Every command that reads a file refuses a pipe, a device or (but `solve`, which answers a
//! folder's case files) a folder at once with exit 2, and
//! a save whose file name carries control characters is named with them escaped.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `foehold` with `args`; its exit code and standard error, or `None` when it has not ended
/// after `limit` (it is then killed): a read that waits on a pipe would never end.
fn run(args: &[&str], limit: Duration) -> Option<(Option<i32>, String)> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_foehold"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("waits") {
            let out = child.wait_with_output().expect("its output");
            return Some((
                status.code(),
                String::from_utf8_lossy(&out.stderr).into_owned(),
            ));
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The commands that read a file given on the command line, with the file last.
fn readers(file: &str) -> Vec<Vec<String>> {
    let f = file.to_string();
    vec![
        vec!["solve".into(), f.clone()],
        vec!["solve".into(), "--json".into(), f.clone()],
        vec!["odds".into(), f.clone()],
        vec!["code".into(), f.clone()],
        vec!["replay".into(), f.clone()],
        vec![
            "play".into(),
            "--headless".into(),
            "--heroes".into(),
            "auto".into(),
            "--quiet".into(),
            f,
        ],
    ]
}

#[test]
#[cfg(unix)]
fn a_pipe_a_device_or_a_folder_is_refused_at_once_by_every_reader() {
    let dir = tempfile::tempdir().expect("a folder");
    let fifo = dir.path().join("pipe.ron");
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo makes a pipe");
    let folder: PathBuf = dir.path().join("folder.ron");
    std::fs::create_dir(&folder).expect("a folder named like a file");
    for bad in [fifo.as_path(), Path::new("/dev/zero"), folder.as_path()] {
        let name = bad.to_str().expect("a plain name");
        for args in readers(name) {
            // `solve` answers every case file of a folder it is given (here none).
            if bad == folder && args[0] == "solve" {
                continue;
            }
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            // Ten seconds is a bound against hanging, not a speed expected.
            let Some((code, stderr)) = run(&args, Duration::from_secs(10)) else {
                panic!("foehold {args:?} did not end: it waits on {name}");
            };
            assert_eq!(code, Some(2), "foehold {args:?}: {stderr}");
            assert!(
                stderr.contains(name),
                "foehold {args:?} names the file: {stderr}"
            );
        }
    }
}

#[test]
fn a_file_name_with_control_characters_is_printed_escaped() {
    let dir = tempfile::tempdir().expect("a folder");
    let name = dir.path().join("bad\u{1b}[31mname.ron");
    std::fs::write(&name, "Puzzle(").expect("written");
    let (code, stderr) = run(
        &["solve", name.to_str().expect("utf-8")],
        Duration::from_secs(10),
    )
    .expect("ends");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(!stderr.contains('\u{1b}'), "no raw escape: {stderr:?}");
    assert!(stderr.contains("bad\\u{1b}[31mname.ron"), "{stderr:?}");
    // A readable puzzle under such a name: the answer's header names it escaped too, and a save
    // refused by `replay` is named so.
    let puzzle = dir.path().join("ok\u{7}\u{1b}[2Jpuzzle.ron");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(root.join("tests/puzzles/e2-001.ron"), &puzzle).expect("copied");
    let out = Command::new(env!("CARGO_BIN_EXE_foehold"))
        .args(["solve", puzzle.to_str().expect("utf-8")])
        .output()
        .expect("runs");
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(
        !said.contains('\u{1b}') && !said.contains('\u{7}'),
        "{said:?}"
    );
    assert!(said.contains("ok\\u{7}\\u{1b}[2Jpuzzle.ron"), "{said:?}");
    let (code, stderr) = run(
        &["replay", puzzle.to_str().expect("utf-8")],
        Duration::from_secs(10),
    )
    .expect("ends");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
}

#[test]
fn a_scenario_name_longer_than_a_title_is_refused_where_it_is_written() {
    // A name of a megabyte made every action of `play` slow (each state's hash read it).
    let dir = tempfile::tempdir().expect("a folder");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for scenario in ["tutorial.ron", "cinder-adit.ron", "dome-crossing.ron"] {
        let text = std::fs::read_to_string(root.join("scenarios").join(scenario)).expect("read");
        let at = text.find("name:").expect("a name");
        let end = at + text[at..].find('\n').expect("a line");
        let long = format!("name: \"{}\",", "x".repeat(1_000_000));
        let altered = dir.path().join(scenario);
        std::fs::write(&altered, format!("{}{long}{}", &text[..at], &text[end..])).expect("write");
        let path = altered.to_str().expect("utf-8");
        let args = ["play", "--headless", "--heroes", "auto", "--quiet", path];
        let (code, stderr) = run(&args, Duration::from_secs(20)).expect("ends");
        assert_eq!(code, Some(2), "{scenario}: {stderr}");
        let line = text[..at].matches('\n').count() + 1;
        assert!(
            stderr.contains(&format!(":{line}:")),
            "{scenario}: {stderr}"
        );
        // The refusal quotes the name's start, not the megabyte.
        assert!(stderr.len() < 1_000, "{scenario}: {} bytes", stderr.len());
    }
}
