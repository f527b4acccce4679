//! `foehold host SCENARIO` and `foehold join CODE --seat N`: one game by friends over QUIC.

use super::outln;
use clap::Args;
use foehold_desktop::RelayArg;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use foehold_core::game::Game;
use foehold_core::rules::{Present, TieBreaker, ToMove, state_hash};
use foehold_net::codec;
use foehold_net::host::{Host, MAX_PEERS, seat_heroes, setup_of};
use foehold_net::message::{Message, PeerId, Want};
use foehold_net::peer::{Peer, hosts_scenario};
use foehold_net::quic::{self, Options, Quic, Ticket, fetch_scenario};
use foehold_net::transport::Transport;
use foehold_net::{Handover, Replica, Side as NetSide, Traffic};

use super::play::Heroes;
use foehold_core::kit::{ForRules, Module, with_rules};

/// How long the network is left quiet before the loop looks again.
const TICK: Duration = Duration::from_millis(50);
/// How long the host waits, after the game ends, for the peers to take the last commits.
const LINGER: Duration = Duration::from_secs(10);
/// How long a player waits to reach the host.
const CONNECT_WAIT: Duration = Duration::from_secs(60);
/// How long the host waits for its home relay before it prints the join code.
const RELAY_WAIT: Duration = Duration::from_secs(10);

/// What `host` and `join` share.
#[derive(Debug, Args)]
pub struct NetArgs {
    /// Relay servers and address lookup
    #[arg(long, value_enum, default_value = "default")]
    relay: RelayArg,
    /// The address to listen on (default: every interface, a free port)
    #[arg(long, value_name = "ADDR")]
    bind: Option<SocketAddr>,
    /// Give up, with exit status 1, when the game has not ended after this many seconds
    #[arg(long, value_name = "SECS", default_value_t = 6 * 3600)]
    timeout: u64,
    /// Wait this many milliseconds between the autopilot's moves, to watch the game
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pace: u64,
}

impl NetArgs {
    fn options(&self, key: Option<[u8; 32]>) -> Options {
        self.relay.options(self.bind, key)
    }
}

/// Hosts a game for friends on other machines.
///
/// It prints the join code on a line of its own, waits until every seat is taken, plays its own
/// seat (player 1), and prints the result and the final state hash (exit 0 when the game ends, 1
/// when it does not, 2 on bad input).
#[derive(Debug, Args)]
pub struct HostArgs {
    /// The scenario file (sent to the players who join)
    scenario: PathBuf,
    /// How many players, this one included; hero N is played by player N mod seats + 1
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=MAX_PEERS as i64))]
    seats: u32,
    /// Seed of the game's dice
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Who plays this player's heroes
    #[arg(long, value_enum, required = true)]
    heroes: Heroes,
    #[command(flatten)]
    net: NetArgs,
}

/// Joins a friend's game with the code its host printed.
///
/// It plays seat N and prints the result and the final state hash (exit 0 when the game ends, 1
/// when it does not, 2 on bad input).
#[derive(Debug, Args)]
pub struct JoinArgs {
    /// The join code the host printed
    code: String,
    /// The player to play (2 and up; the host is player 1)
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_PEERS as i64))]
    seat: u32,
    /// Who plays this player's heroes
    #[arg(long, value_enum, required = true)]
    heroes: Heroes,
    /// This player's key, made and kept in FILE: joining again with it after a crash takes the
    /// seat back at once (without it, once the host notices the old connection is gone)
    #[arg(long, value_name = "FILE")]
    key: Option<PathBuf>,
    #[command(flatten)]
    net: NetArgs,
}

pub fn host(o: &HostArgs) -> ExitCode {
    let (file, text) = match super::read_scenario(&o.scenario) {
        Ok(read) => read,
        Err(code) => return code,
    };
    let work = HostGame {
        o,
        file: &file,
        text: &text,
    };
    with_rules(&file, &text, work).unwrap_or_else(|e| {
        eprintln!("{e}");
        ExitCode::from(2)
    })
}

/// `host` for the rule module the scenario names.
struct HostGame<'a> {
    o: &'a HostArgs,
    file: &'a str,
    text: &'a str,
}

impl ForRules for HostGame<'_> {
    type Out = ExitCode;

    fn run<R: Module>(self) -> ExitCode {
        let HostGame { o, file, text } = self;
        let started = Instant::now();
        let deadline = started + Duration::from_secs(o.net.timeout);
        let scenario = match R::parse_scenario(file, text) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        };
        let game = match Game::<R>::new(Arc::new(scenario), file, o.seed, TieBreaker::Seeded) {
            Ok(g) => g.with_scenario_text(text),
            Err(e) => {
                eprintln!("{file}: {e}");
                return ExitCode::from(2);
            }
        };
        let setup = setup_of(&game, o.seats, seat_heroes(&game, o.seats), 1);
        let quic = match Quic::host(&o.net.options(None)) {
            Ok(q) => q,
            Err(e) => {
                eprintln!("foehold host: {e}");
                return ExitCode::from(1);
            }
        };
        let ticket = quic.ticket(RELAY_WAIT);
        let mut host = Host::new(game, setup, Some(1), quic);
        if let Err(e) = host.offer_scenario(text.to_string()) {
            eprintln!(
                "foehold host: {file}: the scenario is sent to the players in one message: {e}"
            );
            return ExitCode::from(2);
        }
        // The code first, on a line of its own, for whoever reads this output.
        outln!("{}", ticket.code());
        eprintln!(
            "foehold host: {} · seed {} · {} seats: the others join with `foehold join CODE --seat N --heroes auto`",
            R::scenario_name(&host.replica().game().scenario),
            o.seed,
            o.seats
        );
        let play = Play {
            who: "foehold host",
            text,
            pace: Duration::from_millis(o.net.pace),
            started,
            deadline,
            timeout: o.net.timeout,
            seats: o.seats,
        };
        play.run(NetSide::Host(Box::new(host)))
    }
}

/// How long a loop with nothing to do sleeps: a frame wakes it at once, and with a pace it looks
/// again when its next move is due.
fn idle(pace: Duration) -> Duration {
    if pace.is_zero() { TICK } else { TICK.min(pace) }
}

fn over<R: Present>(replica: &Replica<R>) -> bool {
    matches!(replica.game().to_move(), ToMove::Over { .. })
}

/// Prints the result as `foehold play` does, and what crossed the network.
fn result<R: Present>(replica: &Replica<R>, traffic: Traffic) {
    let game = replica.game();
    let result = match game.to_move() {
        ToMove::Over { won: true } => "victory",
        ToMove::Over { won: false } => "defeat",
        _ => "unfinished",
    };
    let rounds = R::round(&game.state).max(1);
    outln!(
        "traffic: {} messages and {} bytes sent, {} and {} received, {} bytes a round",
        traffic.sent,
        traffic.sent_bytes,
        traffic.received,
        traffic.received_bytes,
        (traffic.sent_bytes + traffic.received_bytes) / u64::from(rounds)
    );
    outln!(
        "result: {result} in round {} after {} actions · state hash {}",
        R::round(&game.state),
        game.actions().len(),
        state_hash(&game.state)
    );
}

pub fn join(o: &JoinArgs) -> ExitCode {
    let started = Instant::now();
    let deadline = started + Duration::from_secs(o.net.timeout);
    let ticket = match Ticket::parse(&o.code) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("foehold join: {e}");
            return ExitCode::from(2);
        }
    };
    let key = match &o.key {
        Some(path) => match key_file(path) {
            Ok(k) => Some(k),
            Err(e) => {
                eprintln!("foehold join: {}: {e}", super::shown(path));
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    // A host that cannot be reached in a minute will not be: say so rather than wait for hours.
    let wait = deadline
        .saturating_duration_since(Instant::now())
        .min(CONNECT_WAIT);
    let mut quic = match Quic::join(&ticket, &o.net.options(key), wait) {
        Ok(q) => q,
        Err(e) => {
            eprintln!("foehold join: {e}");
            return ExitCode::from(1);
        }
    };
    let host = ticket.peer();
    let text = match fetch_scenario(&mut quic, host, deadline) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("foehold join: {e}");
            return ExitCode::from(1);
        }
    };
    let work = JoinGame {
        o,
        quic,
        host,
        text: &text,
        started,
        deadline,
    };
    with_rules("the host's scenario", &text, work).unwrap_or_else(|e| {
        eprintln!("foehold join: {e}");
        ExitCode::from(1)
    })
}

/// `join` for the rule module the host's scenario names.
struct JoinGame<'a> {
    o: &'a JoinArgs,
    quic: Quic,
    host: PeerId,
    text: &'a str,
    started: Instant,
    deadline: Instant,
}

impl ForRules for JoinGame<'_> {
    type Out = ExitCode;

    fn run<R: Module>(self) -> ExitCode {
        let JoinGame {
            o,
            quic,
            host,
            text,
            started,
            deadline,
        } = self;
        let scenario = match hosts_scenario::<R>(text) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("foehold join: {e}");
                return ExitCode::from(1);
            }
        };
        let mut peer: Peer<R, Quic> = Peer::new(scenario, Want::Player(o.seat), host, quic);
        if let Err(e) = peer.hello() {
            eprintln!("foehold join: cannot greet the host: {e}");
            return ExitCode::from(1);
        }
        let play = Play {
            who: "foehold join",
            text,
            pace: Duration::from_millis(o.net.pace),
            started,
            deadline,
            timeout: o.net.timeout,
            seats: 0,
        };
        play.run(NetSide::Peer(Box::new(peer)))
    }
}

/// How one end plays its seats by the autopilot, host or peer, to the game's end.
struct Play<'a> {
    who: &'static str,
    /// The scenario file's text, sent by a peer that continues as host to whoever joins.
    text: &'a str,
    pace: Duration,
    started: Instant,
    deadline: Instant,
    timeout: u64,
    /// The host starts playing once players 2 to `seats` are in.
    seats: u32,
}

impl Play<'_> {
    fn run<R: Present>(&self, mut side: NetSide<R, Quic>) -> ExitCode {
        let who = self.who;
        let mut seated = false;
        let mut welcomed = false;
        let mut round = None;
        let mut last_move: Option<Instant> = None;
        loop {
            if Instant::now() >= self.deadline {
                eprintln!("{who}: the game has not ended after {} s", self.timeout);
                return ExitCode::from(1);
            }
            let mut busy = side.poll() > 0;
            for note in side.transport_mut().take_notes() {
                eprintln!("{who}: {note}");
            }
            if side.host_gone() {
                let why = side.notes_after(0).0.pop();
                let why = why.as_deref().unwrap_or("the connection closed");
                eprintln!("{who}: the host is gone: {why}");
                match self.hand_over(side) {
                    Some(next) => {
                        // Whoever continues as host does not wait for the seats again.
                        seated = true;
                        side = next;
                        continue;
                    }
                    None => return ExitCode::from(1),
                }
            }
            if let Some(d) = side.desync() {
                eprintln!("{who}: this copy parted from the host's: {d}");
                return ExitCode::from(1);
            }
            if side.replica().is_none() {
                side.transport_mut().wait(TICK);
                continue;
            }
            let elapsed = self.started.elapsed().as_millis();
            if let (false, NetSide::Peer(p)) = (welcomed, &side) {
                let player = p
                    .player()
                    .map_or("a spectator".into(), |n| format!("player {n}"));
                outln!("welcomed as {player} after {elapsed} ms");
            }
            welcomed = true;
            if !seated {
                let list = side.peer_list();
                seated = matches!(side, NetSide::Peer(_))
                    || (2..=self.seats)
                        .all(|n| list.iter().any(|p| p.player == Some(n) && p.connected));
                if seated && matches!(side, NetSide::Host(_)) {
                    outln!("all {} seats taken after {elapsed} ms", self.seats);
                }
            }
            let Some(replica) = side.replica() else {
                continue;
            };
            let now = R::round(&replica.game().state);
            if round != Some(now) {
                round = Some(now);
                outln!("round {now}");
            }
            if over(replica) {
                break;
            }
            if seated && last_move.is_none_or(|t| t.elapsed() >= self.pace) && side.play_auto() {
                last_move = Some(Instant::now());
                busy = true;
            }
            if !busy {
                side.transport_mut().wait(idle(self.pace));
            }
        }
        self.finish(side);
        ExitCode::SUCCESS
    }

    /// The host is gone: the next in line continues as host and prints its join code, the others
    /// follow it. `None` when nobody can.
    fn hand_over<R: Present>(&self, side: NetSide<R, Quic>) -> Option<NetSide<R, Quic>> {
        let who = self.who;
        let (mut side, how) = side.hand_over();
        match how {
            Ok(Handover::Hosting) => {
                if let NetSide::Host(h) = &mut side
                    && let Err(e) = h.offer_scenario(self.text.to_string())
                {
                    eprintln!("{who}: the scenario cannot be sent to whoever joins: {e}");
                }
                let code = side.transport_mut().contact().unwrap_or_default();
                // On a line of its own, for whoever reads this output.
                outln!("continuing as host: {code}");
            }
            Ok(Handover::Following(next)) => {
                eprintln!("{who}: following peer {} as the new host", next.0);
            }
            Err(e) => {
                eprintln!("{who}: {e}");
                return None;
            }
        }
        Some(side)
    }

    /// The game is over: a host waits for the peers to take the last commits, a peer says
    /// goodbye; both print the result.
    fn finish<R: Present>(&self, mut side: NetSide<R, Quic>) {
        if let NetSide::Host(host) = &mut side {
            let linger = Instant::now() + LINGER;
            while Instant::now() < linger && host.peer_list().iter().skip(1).any(|p| p.connected) {
                if host.poll() == 0 {
                    host.transport_mut().wait(TICK);
                }
            }
            for note in host.notes() {
                eprintln!("{}: {note}", self.who);
            }
        }
        if let Some(replica) = side.replica() {
            result(replica, side.traffic());
        }
        if let NetSide::Peer(peer) = &mut side {
            // Leaving: the host stops waiting for this player.
            let bye = codec::encode(&Message::Bye {
                reason: "the game is over".into(),
            });
            if let Ok(frame) = bye {
                let host = peer.host();
                let _ = peer.transport_mut().send(host, frame);
            }
        }
    }
}

/// The key kept in `path` (64 hex digits), made and written there when the file does not exist.
///
/// The key is the player's: a new key file is created readable and writable by its owner alone,
/// and never over a file or link already there. Only a regular file of at most
/// [`MAX_KEY_BYTES`] is read as one.
pub fn key_file(path: &Path) -> Result<[u8; 32], String> {
    let name = super::shown(path);
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() && meta.len() > MAX_KEY_BYTES => Err(format!(
            "{name}: not a key: a file of 64 hex digits was expected, found {} bytes",
            meta.len()
        )),
        Ok(_) => {
            let text = foehold_desktop::files::read_file(path).map_err(|e| e.to_string())?;
            let text = text.trim();
            let bytes: Vec<u8> = (0..text.len())
                .step_by(2)
                .filter_map(|i| text.get(i..i + 2))
                .filter_map(|h| u8::from_str_radix(h, 16).ok())
                .collect();
            <[u8; 32]>::try_from(bytes.as_slice())
                .ok()
                .filter(|_| text.len() == 64)
                .ok_or_else(|| format!("{name}: not a key: 64 hex digits were expected"))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            use std::io::Write;
            let key = quic::new_key();
            let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            let mut file = options.open(path).map_err(|e| format!("{name}: {e}"))?;
            file.write_all((hex + "\n").as_bytes())
                .map_err(|e| format!("{name}: {e}"))?;
            Ok(key)
        }
        Err(e) => Err(format!("{name}: {e}")),
    }
}

/// The largest key file read: a key is one line of 64 hex digits.
pub const MAX_KEY_BYTES: u64 = 1024;

#[cfg(test)]
mod key_tests {
    use super::*;

    #[test]
    fn a_key_file_is_its_owners_alone_and_only_a_small_regular_file_is_read() {
        let dir = tempfile::tempdir().expect("a folder");
        let path = dir.path().join("me.key");
        let key = key_file(&path).expect("a new key");
        assert_eq!(key_file(&path).expect("read back"), key);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path)
                .expect("there")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600, "{mode:o}");
            let e = key_file(Path::new("/dev/zero")).expect_err("a device");
            assert!(e.contains("not a regular file"), "{e}");
        }
        let big = dir.path().join("big.key");
        std::fs::File::create(&big)
            .and_then(|f| f.set_len(1 << 30))
            .expect("a sparse file");
        let e = key_file(&big).expect_err("too large");
        assert!(e.contains("not a key"), "{e}");
        std::fs::write(&big, "12\n").expect("written");
        assert!(key_file(&big).expect_err("short").contains("64 hex digits"));
    }
}
