//! `foehold check`: every shipped file loads clean; a broken one is refused at its place with
//! exit status 2; a slip is a warning on standard error; the player's library is read.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `foehold` with `data` as the user's data folder.
fn foehold(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_foehold"))
        .args(args)
        .current_dir(root())
        .env("FOEHOLD_DATA_DIR", data)
        .output()
        .expect("runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn every_shipped_scenario_library_file_and_case_loads_clean() {
    let data = tempfile::tempdir().unwrap();
    let out = foehold(
        data.path(),
        &[
            "check",
            "scenarios",
            "assets/monsters",
            "assets/classes",
            "tests/puzzles/e2-001.ron",
            "tests/conformance/brimstone/bs-012.ron",
        ],
    );
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(stderr, "", "nothing to say of a shipped file");
    let shipped = std::fs::read_dir(root().join("scenarios")).unwrap().count()
        + std::fs::read_dir(root().join("assets/monsters"))
            .unwrap()
            .count()
        + std::fs::read_dir(root().join("assets/classes"))
            .unwrap()
            .count()
        + 2;
    assert!(
        stdout.contains("scenarios/ferrymans-landing.ron: loads\n"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with(&format!(
            "{shipped} checked: {shipped} load, 0 refused, 0 warnings\n"
        )),
        "{stdout}"
    );
}

#[test]
fn a_broken_file_is_refused_at_its_place_and_a_slip_is_a_warning() {
    let data = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let granary = std::fs::read_to_string(root().join("scenarios/drowned-granary.ron")).unwrap();
    // A monster type no library holds, on the line of the first spot that names it.
    let broken = dir.path().join("broken.ron");
    std::fs::write(&broken, granary.replacen("Cellar Rat", "Cellar Bat", 1)).unwrap();
    let line = granary
        .lines()
        .position(|l| l.contains("Cellar Rat"))
        .unwrap()
        + 1;
    // A legend letter no spot uses: it loads, with a warning.
    let slip = dir.path().join("slip.ron");
    std::fs::write(
        &slip,
        granary.replacen(
            "legend: {",
            "legend: {\n        'z': (monster: \"Cellar Rat\"),",
            1,
        ),
    )
    .unwrap();
    let out = foehold(
        data.path(),
        &["check", broken.to_str().unwrap(), slip.to_str().unwrap()],
    );
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let refused = format!("{}:{line}:", broken.display());
    assert!(stderr.contains(&refused), "{refused} in {stderr}");
    assert!(stderr.contains("Cellar Bat"), "{stderr}");
    let warned = format!(
        "{}:{}:",
        slip.display(),
        granary
            .lines()
            .position(|l| l.contains("legend: {"))
            .unwrap()
            + 2
    );
    assert!(stderr.contains(&warned), "{warned} in {stderr}");
    assert!(
        stderr.contains("warning: legend: 'z' (Cellar Rat) stands nowhere on the map"),
        "{stderr}"
    );
    assert!(stdout.contains("broken.ron: refused\n"), "{stdout}");
    assert!(
        stdout.contains("slip.ron: loads, with 1 warning\n"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("2 checked: 1 load, 1 refused, 1 warning\n"),
        "{stdout}"
    );
}

#[test]
fn a_scenario_finds_the_monsters_of_the_players_library_or_of_the_one_named() {
    let data = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let rat = std::fs::read_to_string(root().join("assets/monsters/cellar-rat.ron")).unwrap();
    let toad = rat.replace("Cellar Rat", "Mire Toad");
    let granary = std::fs::read_to_string(root().join("scenarios/drowned-granary.ron")).unwrap();
    let scenario = dir.path().join("toads.ron");
    std::fs::write(&scenario, granary.replace("Cellar Rat", "Mire Toad")).unwrap();
    let check = |data: &Path, extra: &[&str]| {
        let mut args = vec!["check"];
        args.extend_from_slice(extra);
        args.push(scenario.to_str().unwrap());
        foehold(data, &args)
    };
    // Nowhere yet: refused with the loader's words.
    let out = check(data.path(), &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("Mire Toad"),
        "{}",
        text(&out.stderr)
    );
    // In the player's library (the data folder's `library/monsters/`).
    let monsters = data.path().join("library/monsters");
    std::fs::create_dir_all(&monsters).unwrap();
    std::fs::write(monsters.join("mire-toad.ron"), &toad).unwrap();
    let out = check(data.path(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // Or in a library folder named on the command line, instead of the player's.
    let other = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(other.path().join("monsters")).unwrap();
    std::fs::write(other.path().join("monsters/toad.ron"), &toad).unwrap();
    let empty = tempfile::tempdir().unwrap();
    let out = check(empty.path(), &["--library", other.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}
