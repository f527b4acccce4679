//! Seeded mutation tests of every input kind: no panic, abort or hang, and refusals say where.
//!
//! Sample scenarios, puzzles, Brimstone and goal cases, odds queries and saves are mutated (numbers
//! swapped for extremes, lines deleted, duplicated or swapped, bytes flipped, identifiers renamed)
//! and fed to the headless binary under a memory and time limit. Every run must end by itself with
//! status 0 or 2 (1 where the command means "the game did not end" or "the replay differs"), a 2
//! with a message that starts with the file's name, and never a panic, an abort or a signal.
//! `FOEHOLD_FUZZ_MUTANTS` sets the mutants per kind (default 150), `FOEHOLD_FUZZ_SEED` the seed;
//! failing mutants are kept under `FOEHOLD_FUZZ_KEEP` (default: the system's temporary folder).
//! Findings become files under `tests/data/regressions/<kind>/`, which `regressions_still_pass`
//! runs.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// How long one run may take before it counts as a hang (generous: debug builds, a busy machine).
const TIME_LIMIT: Duration = Duration::from_secs(60);
/// The address space one run may use, in KiB: a runaway allocation fails instead of swapping.
const MEMORY_LIMIT_KIB: u64 = 4 << 20;

/// A small seeded generator, so that every mutant can be made again from the seed.
#[derive(Clone)]
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// An input kind: its sample files and the command that reads one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Scenario,
    Puzzle,
    Brimstone,
    Goals,
    Odds,
    Save,
}

impl Kind {
    const ALL: [Kind; 6] = [
        Kind::Scenario,
        Kind::Puzzle,
        Kind::Brimstone,
        Kind::Goals,
        Kind::Odds,
        Kind::Save,
    ];

    fn name(self) -> &'static str {
        match self {
            Kind::Scenario => "scenario",
            Kind::Puzzle => "puzzle",
            Kind::Brimstone => "brimstone",
            Kind::Goals => "goals",
            Kind::Odds => "odds",
            Kind::Save => "save",
        }
    }

    fn args(self, file: &Path) -> Vec<String> {
        let f = file.display().to_string();
        let v: Vec<&str> = match self {
            Kind::Scenario => vec![
                "play",
                "--headless",
                &f,
                "--seed",
                "3",
                "--heroes",
                "auto",
                "--quiet",
            ],
            Kind::Puzzle | Kind::Brimstone => vec!["solve", &f],
            Kind::Goals => vec!["solve", "--json", &f],
            Kind::Odds => vec!["odds", &f],
            Kind::Save => vec!["replay", &f, "--quiet"],
        };
        v.into_iter().map(String::from).collect()
    }

    /// Whether status 1 is a meaning of the command rather than a failure.
    fn allows_one(self) -> bool {
        matches!(self, Kind::Scenario | Kind::Save)
    }
}

fn ron_files(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// The sample texts of a kind.
fn samples(kind: Kind, scratch: &Path) -> Vec<Vec<u8>> {
    let files = match kind {
        Kind::Scenario => ron_files("scenarios"),
        Kind::Puzzle => [
            ron_files("tests/conformance/frosthaven"),
            ron_files("tests/puzzles"),
        ]
        .concat(),
        Kind::Brimstone => ron_files("tests/conformance/brimstone"),
        Kind::Goals => ron_files("tests/conformance/goals"),
        Kind::Odds => ron_files("tests/data/odds"),
        Kind::Save => {
            // A save of a whole game, its scenario named relative to the folder the runs start in.
            let save = scratch.join("sample.save.ron");
            let out = Command::new(env!("CARGO_BIN_EXE_foehold"))
                .args([
                    "play",
                    "--headless",
                    "scenarios/tutorial.ron",
                    "--seed",
                    "5",
                ])
                .args(["--heroes", "auto", "--quiet", "--save"])
                .arg(&save)
                .current_dir(root())
                .output()
                .expect("run foehold play");
            assert_eq!(out.status.code(), Some(0), "the sample save is written");
            vec![save]
        }
    };
    files
        .iter()
        .map(|f| std::fs::read(f).expect("a readable sample"))
        .collect()
}

const EXTREMES: &[&str] = &[
    "0",
    "-1",
    "1",
    "2147483647",
    "-2147483648",
    "4294967295",
    "65536",
    "1000000",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551616",
    "99999999999999999999999999999999999999999",
    "1e9",
    "0x7fffffff",
];

/// Byte ranges of tokens in `text`: numbers when `numbers`, identifiers otherwise.
fn tokens(text: &[u8], numbers: bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let c = text[i];
        let starts = if numbers {
            c.is_ascii_digit() && (i == 0 || !text[i - 1].is_ascii_alphanumeric())
        } else {
            c.is_ascii_alphabetic() && (i == 0 || !text[i - 1].is_ascii_alphanumeric())
        };
        if starts {
            let mut j = i + 1;
            while j < text.len() && (text[j].is_ascii_alphanumeric() || text[j] == b'_') {
                j += 1;
            }
            out.push((
                if numbers && i > 0 && text[i - 1] == b'-' {
                    i - 1
                } else {
                    i
                },
                j,
            ));
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

fn splice(text: &[u8], (a, b): (usize, usize), with: &[u8]) -> Vec<u8> {
    [&text[..a], with, &text[b..]].concat()
}

/// One mutation of `text`.
fn mutate_once(text: &[u8], rng: &mut XorShift) -> Vec<u8> {
    let lines: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
    match rng.below(7) {
        // Numbers for extremes count twice: they are what the bounds are about.
        0 | 1 => {
            let t = tokens(text, true);
            if t.is_empty() {
                return text.to_vec();
            }
            let at = t[rng.below(t.len())];
            splice(text, at, EXTREMES[rng.below(EXTREMES.len())].as_bytes())
        }
        2 => {
            let i = rng.below(lines.len());
            lines
                .iter()
                .enumerate()
                .filter(|(k, _)| *k != i)
                .flat_map(|(_, l)| l.iter().copied())
                .collect()
        }
        3 => {
            let i = rng.below(lines.len());
            let mut v = lines.clone();
            v.insert(i, lines[i]);
            v.concat()
        }
        4 => {
            let (i, j) = (rng.below(lines.len()), rng.below(lines.len()));
            let mut v = lines.clone();
            v.swap(i, j);
            v.concat()
        }
        5 => {
            let mut v = text.to_vec();
            if !v.is_empty() {
                let i = rng.below(v.len());
                v[i] ^= 1 << rng.below(8);
            }
            v
        }
        _ => {
            let t = tokens(text, false);
            if t.is_empty() {
                return text.to_vec();
            }
            let at = t[rng.below(t.len())];
            let with = if rng.below(2) == 0 {
                let (a, b) = t[rng.below(t.len())];
                text[a..b].to_vec()
            } else {
                [&text[at.0..at.1], b"x"].concat()
            };
            splice(text, at, &with)
        }
    }
}

/// A mutant: one to three mutations of a sample.
fn mutant(sample: &[u8], rng: &mut XorShift) -> Vec<u8> {
    let mut text = sample.to_vec();
    for _ in 0..1 + rng.below(3) {
        text = mutate_once(&text, rng);
    }
    text
}

/// Runs the command of `kind` on `file`; `Err` says what went wrong.
fn check(kind: Kind, file: &Path) -> Result<(), String> {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("ulimit -v {MEMORY_LIMIT_KIB}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_foehold"))
        .args(kind.args(file))
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| format!("cannot run: {e}"))?;
    // Read standard error on the side so that a chatty run cannot block on a full pipe.
    let mut err_pipe = child.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = std::io::Read::read_to_end(&mut err_pipe, &mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().map_err(|e| e.to_string())? {
            break s;
        }
        if start.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("no answer within {TIME_LIMIT:?} (a hang)"));
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let stderr = String::from_utf8_lossy(&reader.join().unwrap_or_default()).into_owned();
    if stderr.contains("panicked") {
        return Err(format!("a panic: {stderr}"));
    }
    let ok = match status.code() {
        Some(0) => true,
        Some(1) => kind.allows_one(),
        Some(2) => {
            let name = file.display().to_string();
            stderr.starts_with(&format!("{name}:"))
        }
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!("status {status}: {stderr}"))
    }
}

fn mutants_per_kind() -> usize {
    std::env::var("FOEHOLD_FUZZ_MUTANTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150)
}

fn seed() -> u64 {
    std::env::var("FOEHOLD_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x00f0_e401_d5ee_d5ee)
}

#[test]
fn mutated_inputs_never_crash_hang_or_go_unexplained() {
    let scratch = tempfile::tempdir().expect("a scratch folder");
    let keep = std::env::var_os("FOEHOLD_FUZZ_KEEP")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("foehold-fuzz-findings"));
    let n = mutants_per_kind();
    let findings = Mutex::new(Vec::new());
    let mut report = Vec::new();
    for kind in Kind::ALL {
        let samples = samples(kind, scratch.path());
        assert!(!samples.is_empty(), "{kind:?} has samples");
        let next = Mutex::new(0usize);
        // Two workers: one per core of a small machine.
        std::thread::scope(|s| {
            for worker in 0..2 {
                let (samples, next, findings) = (&samples, &next, &findings);
                let dir = scratch.path().join(format!("{}-{worker}", kind.name()));
                std::fs::create_dir_all(&dir).expect("a worker folder");
                let keep = keep.clone();
                s.spawn(move || {
                    loop {
                        let i = {
                            let mut g = next.lock().unwrap();
                            if *g >= n {
                                break;
                            }
                            *g += 1;
                            *g - 1
                        };
                        let mut rng = XorShift(
                            seed()
                                ^ (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
                                ^ kind as u64,
                        );
                        rng.next();
                        let sample = &samples[rng.below(samples.len())];
                        let text = mutant(sample, &mut rng);
                        let file = dir.join("mutant.ron");
                        std::fs::write(&file, &text).expect("write the mutant");
                        if let Err(why) = check(kind, &file) {
                            let _ = std::fs::create_dir_all(&keep);
                            let kept = keep.join(format!("{}-{i}.ron", kind.name()));
                            let _ = std::fs::write(&kept, &text);
                            findings.lock().unwrap().push(format!(
                                "{kind:?} mutant {i} (kept as {}): {why}",
                                kept.display()
                            ));
                        }
                    }
                });
            }
        });
        report.push(format!("{}: {n} mutants", kind.name()));
    }
    eprintln!("fuzz: {} (seed {:#x})", report.join(", "), seed());
    let findings = findings.into_inner().unwrap();
    assert!(
        findings.is_empty(),
        "{} findings:\n{}",
        findings.len(),
        findings.join("\n")
    );
}

#[test]
fn regressions_still_pass() {
    let mut failures = Vec::new();
    for kind in Kind::ALL {
        for file in ron_files(&format!("tests/data/regressions/{}", kind.name())) {
            let rel = file.strip_prefix(root()).unwrap_or(&file).to_path_buf();
            if let Err(why) = check(kind, &rel) {
                failures.push(format!("{}: {why}", rel.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
