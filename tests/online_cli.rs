//! `foehold host` and `foehold join` as processes over QUIC on loopback.
//!
//! Whole games of every module by two and by four processes, a player killed mid-game who joins
//! again, and a host killed mid-game whose next player continues as host.
//!
//! Every process is started with `--relay none --bind 127.0.0.1:0`: nothing is contacted but the
//! loopback addresses the host's code names. Each test kills its processes past its time limit.

#![cfg(feature = "online")]

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// The longest a test waits for its processes (they are killed then); a game takes seconds.
const LIMIT: Duration = Duration::from_secs(120);
/// The most output lines read from one process.
const MAX_LINES: usize = 100_000;

fn scenario(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(name)
}

/// A `foehold` process whose standard output is read line by line; killed when dropped.
struct Proc {
    name: String,
    child: Child,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Proc {
    fn start(name: &str, args: &[&str]) -> Proc {
        let mut child = Command::new(env!("CARGO_BIN_EXE_foehold"))
            .args(args)
            .args([
                "--relay",
                "none",
                "--bind",
                "127.0.0.1:0",
                "--timeout",
                "100",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let out = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().take(MAX_LINES) {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Proc {
            name: name.to_string(),
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// The next output line, or `None` at its end; fails the test past `until`.
    fn line(&mut self, until: Instant) -> Option<String> {
        let wait = until.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                self.seen.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Disconnected) => None,
            Err(RecvTimeoutError::Timeout) => {
                panic!("{}: no output in time; so far: {:?}", self.name, self.seen)
            }
        }
    }

    /// Reads lines until one starts with `prefix`.
    fn until(&mut self, prefix: &str, until: Instant) -> String {
        while let Some(line) = self.line(until) {
            if line.starts_with(prefix) {
                return line;
            }
        }
        panic!(
            "{}: no line `{prefix}…`; output: {:?}",
            self.name, self.seen
        )
    }

    /// Reads to the end and waits for the exit: the final state hash.
    fn finish(&mut self, until: Instant) -> String {
        let result = self.until("result: ", until);
        while self.line(until).is_some() {}
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "{}: {status}; {:?}", self.name, self.seen);
                break;
            }
            assert!(Instant::now() < until, "{}: does not exit", self.name);
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(
            !result.starts_with("result: unfinished"),
            "{}: {result}",
            self.name
        );
        result.rsplit("state hash ").next().unwrap().to_string()
    }

    /// A number after `after` in a line seen.
    fn number(&self, line_start: &str, after: &str) -> u64 {
        let line = self
            .seen
            .iter()
            .find(|l| l.starts_with(line_start))
            .unwrap_or_else(|| panic!("{}: no `{line_start}`", self.name));
        let rest = line.split(after).nth(1).unwrap();
        rest.split_whitespace().next().unwrap().parse().unwrap()
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts a host and reads its join code, the first line it prints.
fn host(name: &str, seats: u32, seed: u64, extra: &[&str], until: Instant) -> (Proc, String) {
    let path = scenario(name);
    let (seats, seed) = (seats.to_string(), seed.to_string());
    let mut args = vec![
        "host",
        path.to_str().unwrap(),
        "--seats",
        &seats,
        "--seed",
        &seed,
        "--heroes",
        "auto",
    ];
    args.extend_from_slice(extra);
    let mut host = Proc::start("host", &args);
    let code = host.line(until).expect("the host prints its join code");
    assert!(code.starts_with("FH"), "{code}");
    (host, code)
}

fn join(code: &str, seat: u32, extra: &[&str]) -> Proc {
    let seat_s = seat.to_string();
    let mut args = vec!["join", code, "--seat", &seat_s, "--heroes", "auto"];
    args.extend_from_slice(extra);
    Proc::start(&format!("player {seat}"), &args)
}

/// A whole game by `seats` processes: every one ends with the same state hash.
fn whole(name: &str, seats: u32, seed: u64) {
    let started = Instant::now();
    let until = started + LIMIT;
    let (mut host, code) = host(name, seats, seed, &[], until);
    let mut peers: Vec<Proc> = (2..=seats).map(|k| join(&code, k, &[])).collect();
    let hash = host.finish(until);
    let traffic = host
        .seen
        .iter()
        .find(|l| l.starts_with("traffic: "))
        .cloned()
        .unwrap_or_default();
    for p in &mut peers {
        assert_eq!(p.finish(until), hash, "{name} by {seats}: {}", p.name);
    }
    let joins: Vec<u64> = peers
        .iter()
        .map(|p| p.number("welcomed", "after "))
        .collect();
    eprintln!(
        "{name} by {seats}: state hash {hash}; joined after {joins:?} ms; host {traffic}; {} ms in all",
        started.elapsed().as_millis()
    );
}

#[test]
fn a_gloomhaven_game_by_two_processes() {
    whole("tutorial.ron", 2, 3);
}

#[test]
fn a_brimstone_game_by_two_processes() {
    whole("cinder-adit.ron", 2, 5);
}

#[test]
fn a_goals_game_by_two_processes() {
    whole("dome-crossing.ron", 2, 9);
}

#[test]
fn a_gloomhaven_game_by_four_processes() {
    whole("tutorial.ron", 4, 4);
}

#[test]
fn a_brimstone_game_by_four_processes() {
    whole("cinder-adit.ron", 4, 5);
}

#[test]
fn a_goals_game_by_four_processes() {
    whole("dome-crossing.ron", 4, 9);
}

#[test]
fn a_player_killed_mid_game_keeps_its_seat_for_its_key_and_a_stranger_is_refused() {
    let until = Instant::now() + LIMIT;
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("player2.key");
    let key = key.to_str().unwrap();
    // The host waits between its moves, so that the game is still on when the player is killed.
    let (mut host, code) = host("dome-crossing.ron", 2, 9, &["--pace", "150"], until);
    let mut first = join(&code, 2, &["--key", key]);
    first.until("round 2", until);
    first.child.kill().unwrap();
    let killed = Instant::now();
    // A stranger with the code asks for the dropped seat: it is its key's.
    let (status, err) = join_output(&code, "2", "30", &[]);
    assert_eq!(status, Some(1), "{err}");
    assert!(err.contains("belongs to another key"), "{err}");
    // The owner, back with its key, takes it (once the host has seen the old connection fall
    // silent).
    let mut again = join(&code, 2, &["--key", key]);
    again.until("welcomed", until);
    let back = killed.elapsed().as_millis();
    let hash = host.finish(until);
    assert_eq!(again.finish(until), hash);
    eprintln!(
        "killed in round 2; welcomed again {} ms after the kill ({} ms after its start); state hash {hash}",
        back,
        again.number("welcomed", "after ")
    );
}

#[test]
fn a_second_program_with_a_players_key_is_refused_and_the_first_plays_on() {
    let until = Instant::now() + LIMIT;
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("player2.key");
    let key = key.to_str().unwrap();
    // Paced, so that the game outlasts the host's look at the first connection (3 s).
    let (mut host, code) = host("dome-crossing.ron", 2, 9, &["--pace", "600"], until);
    let mut first = join(&code, 2, &["--key", key, "--pace", "600"]);
    first.until("welcomed", until);
    let asked = Instant::now();
    let (status, err) = join_output(&code, "2", "30", &["--key", key]);
    let refused = asked.elapsed().as_millis();
    assert_eq!(status, Some(1), "{err}");
    assert!(err.contains("a second one is refused"), "{err}");
    let hash = host.finish(until);
    let out = first.finish(until);
    assert_eq!(out, hash, "the first copy plays on to the end");
    assert!(
        !first
            .seen
            .iter()
            .any(|l| l.starts_with("continuing as host")),
        "the first copy never hosts: {:?}",
        first.seen
    );
    eprintln!("a second copy refused {refused} ms after its start");
}

#[test]
fn refused_joins_do_not_fill_the_game_and_a_password_keeps_strangers_out() {
    let until = Instant::now() + LIMIT;
    let (mut host, code) = host(
        "dome-crossing.ron",
        2,
        9,
        &["--pace", "100", "--password", "lantern"],
        until,
    );
    let started = Instant::now();
    // More refused joins than the host has places: a seat the game lacks, no password.
    for i in 0..24 {
        let (seat, extra): (&str, &[&str]) = if i % 2 == 0 {
            ("9", &["--password", "lantern"])
        } else {
            ("2", &[])
        };
        let (status, err) = join_output(&code, seat, "30", extra);
        assert_eq!(status, Some(1), "{err}");
        let why = if i % 2 == 0 {
            "no player 9"
        } else {
            "password"
        };
        assert!(err.contains(why), "{err}");
    }
    let each = started.elapsed().as_millis() / 24;
    let mut second = join(&code, 2, &["--password", "lantern"]);
    second.until("welcomed", until);
    let hash = host.finish(until);
    assert_eq!(second.finish(until), hash);
    eprintln!("24 refused joins, {each} ms each; then a real join plays to the end");
}

#[test]
fn the_host_is_killed_and_the_next_player_continues_as_host_to_the_end() {
    let until = Instant::now() + LIMIT;
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("player1.key");
    let key = key.to_str().unwrap();
    // Paced, so that the game is still on when the host is killed.
    let pace = ["--pace", "150"];
    let (mut host, code) = host(
        "dome-crossing.ron",
        3,
        9,
        &["--pace", "150", "--key", key],
        until,
    );
    let mut second = join(&code, 2, &pace);
    let mut third = join(&code, 3, &pace);
    second.until("round 2", until);
    third.until("round 2", until);
    host.child.kill().unwrap();
    let killed = Instant::now();
    // Player 2 is next in line: it continues as host and prints its own join code.
    let line = second.until("continuing as host: ", until);
    let took_over = killed.elapsed().as_millis();
    let new_code = line.trim_start_matches("continuing as host: ").to_string();
    assert!(new_code.starts_with("FH"), "{line}");
    // Player 1 comes back with it, by the key its seat belongs to, and player 3 follows player 2
    // by itself.
    let mut first = join(&new_code, 1, &["--key", key]);
    first.until("welcomed", until);
    let back = killed.elapsed().as_millis();
    let hash = second.finish(until);
    assert_eq!(third.finish(until), hash);
    assert_eq!(first.finish(until), hash);
    eprintln!(
        "host killed in round 2; player 2 hosts {took_over} ms after the kill; player 1 welcomed back {back} ms after it; state hash {hash}"
    );
}

#[test]
fn a_malformed_code_is_refused_with_a_reason() {
    for code in ["", "FH", "FHAAAA", "hello", "FH!!!"] {
        let out = Command::new(env!("CARGO_BIN_EXE_foehold"))
            .args(["join", code, "--seat", "2", "--heroes", "auto"])
            .args(["--relay", "none", "--bind", "127.0.0.1:0", "--timeout", "5"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{code:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("join code"), "{code:?}: {err}");
    }
}

/// `join` run to its end, with a time limit of its own: its exit status and standard error.
fn join_output(code: &str, seat: &str, timeout: &str, extra: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_foehold"))
        .args(["join", code, "--seat", seat, "--heroes", "auto"])
        .args(extra)
        .args([
            "--relay",
            "none",
            "--bind",
            "127.0.0.1:0",
            "--timeout",
            timeout,
        ])
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_taken_seat_and_a_gone_host_are_refused_with_a_reason() {
    let until = Instant::now() + LIMIT;
    let (host, code) = host("dome-crossing.ron", 2, 9, &["--pace", "150"], until);
    let mut first = join(&code, 2, &[]);
    first.until("welcomed", until);
    let (status, err) = join_output(&code, "2", "30", &[]);
    assert_eq!(status, Some(1), "{err}");
    assert!(err.contains("player 2 is taken"), "{err}");
    let (status, err) = join_output(&code, "5", "30", &[]);
    assert_eq!(status, Some(1), "{err}");
    assert!(err.contains("no player 5"), "{err}");
    drop(first);
    drop(host);
    // Nobody answers at the code's address any more: the join gives up at its time limit.
    let (status, err) = join_output(&code, "2", "3", &[]);
    assert_eq!(status, Some(1), "{err}");
    assert!(err.contains("host"), "{err}");
}
