//! `foehold host SCENARIO` and `foehold join CODE --seat N`: one game by friends over QUIC.

use super::outln;
use clap::Args;
use foehold_desktop::RelayArg;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use foehold_core::game::Game;
use foehold_core::rules::{Present, TieBreaker, ToMove, state_hash};
use foehold_net::codec;
use foehold_net::host::{Admission, Host, MAX_PEERS, seat_heroes, setup_of};
use foehold_net::message::{Message, PeerId, Want};
use foehold_net::peer::{Peer, hosts_scenario};
use foehold_net::quic::{Options, Quic, Ticket, fetch_scenario};
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
    /// This player's key, made and kept in FILE (readable by its owner only): a seat belongs to
    /// the key that took it, so joining again with it after a crash takes the seat back (and a
    /// host's player, after another player continued as host, joins that one with it)
    #[arg(long, value_name = "FILE")]
    key: Option<PathBuf>,
    /// The room's password: the host refuses a join without it
    #[arg(long, value_name = "WORD")]
    password: Option<String>,
}

impl NetArgs {
    /// The endpoint's options, with the key read (or made) from `--key`.
    fn options(&self, who: &str) -> Result<Options, ExitCode> {
        let key = match &self.key {
            Some(path) => match foehold_desktop::keys::key_file(path) {
                Ok(k) => Some(k),
                Err(e) => {
                    eprintln!("{who}: {}: {e}", super::shown(path));
                    return Err(ExitCode::from(2));
                }
            },
            None => None,
        };
        if self
            .password
            .as_ref()
            .is_some_and(|w| w.len() > foehold_net::message::MAX_PASSWORD)
        {
            eprintln!(
                "{who}: a password of at most {} bytes",
                foehold_net::message::MAX_PASSWORD
            );
            return Err(ExitCode::from(2));
        }
        Ok(self.relay.options(self.bind, key))
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
    /// Free a seat whose player has been away this many seconds, for the next key that asks
    /// (a seat otherwise waits for its own key)
    #[arg(long, value_name = "SECS")]
    reseat_after: Option<u64>,
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
        let library = super::player_library();
        let scenario = match R::parse_scenario_in(file, text, &library) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        };
        // The player's own monster types and classes the scenario names go with it.
        let shared = match foehold_core::workshop::bundle::pack(file, text, &library) {
            Ok(shared) => shared,
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
        let options = match o.net.options("foehold host") {
            Ok(options) => options,
            Err(code) => return code,
        };
        let quic = match Quic::host(&options) {
            Ok(q) => q,
            Err(e) => {
                eprintln!("foehold host: {e}");
                return ExitCode::from(1);
            }
        };
        let ticket = quic.ticket(RELAY_WAIT);
        let mut host = Host::new(game, setup, Some(1), quic);
        host.set_admission(Admission::Open, o.net.password.clone());
        if let Err(e) = host.offer_scenario(shared.clone()) {
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
            text: &shared,
            pace: Duration::from_millis(o.net.pace),
            started,
            deadline,
            timeout: o.net.timeout,
            seats: o.seats,
            reseat_after: o.reseat_after.map(Duration::from_secs),
        };
        play.run(NetSide::Host(Box::new(host)))
    }
}

/// Frees the seats whose players have been away `after` or longer, for the next key that asks.
fn reseat<R: Present>(
    host: &mut Host<R, Quic>,
    away: &mut BTreeMap<u32, Instant>,
    after: Duration,
    who: &str,
) {
    let now = Instant::now();
    let seats = host.seats();
    away.retain(|n, _| seats.iter().any(|&(m, _, here)| m == *n && !here));
    for (n, _, here) in seats {
        if here {
            continue;
        }
        let since = *away.entry(n).or_insert(now);
        if now.duration_since(since) >= after && host.free_seat(n).is_ok() {
            eprintln!(
                "{who}: player {n} has been away {} s: the seat is free for whoever joins",
                after.as_secs()
            );
            away.remove(&n);
        }
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
    let options = match o.net.options("foehold join") {
        Ok(options) => options,
        Err(code) => return code,
    };
    // A host that cannot be reached in a minute will not be: say so rather than wait for hours.
    let wait = deadline
        .saturating_duration_since(Instant::now())
        .min(CONNECT_WAIT);
    let mut quic = match Quic::join(&ticket, &options, wait) {
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
    // A bundle names its rules in the scenario it carries.
    let scenario_text = match foehold_core::workshop::bundle::unpack("the host's scenario", &text) {
        Ok((scenario_text, _)) => scenario_text,
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
    with_rules("the host's scenario", &scenario_text, work).unwrap_or_else(|e| {
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
        peer.set_password(o.net.password.clone());
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
            reseat_after: None,
        };
        play.run(NetSide::Peer(Box::new(peer)))
    }
}

/// How one end plays its seats by the autopilot, host or peer, to the game's end.
struct Play<'a> {
    who: &'static str,
    /// The scenario as its host sent it ([`foehold_core::workshop::bundle::pack`]), sent on by
    /// a peer that continues as host to whoever joins.
    text: &'a str,
    pace: Duration,
    started: Instant,
    deadline: Instant,
    timeout: u64,
    /// The host starts playing once players 2 to `seats` are in.
    seats: u32,
    /// A host frees a seat whose player has been away this long.
    reseat_after: Option<Duration>,
}

impl Play<'_> {
    fn run<R: Present>(&self, mut side: NetSide<R, Quic>) -> ExitCode {
        let who = self.who;
        let mut seated = false;
        let mut welcomed = false;
        let mut round = None;
        let mut last_move: Option<Instant> = None;
        let mut away: BTreeMap<u32, Instant> = BTreeMap::new();
        loop {
            if Instant::now() >= self.deadline {
                eprintln!("{who}: the game has not ended after {} s", self.timeout);
                return ExitCode::from(1);
            }
            let mut busy = side.poll() > 0;
            for note in side.transport_mut().take_notes() {
                eprintln!("{who}: {note}");
            }
            if let Some(why) = side.removed() {
                eprintln!("{who}: out of the game: {why}");
                return ExitCode::from(1);
            }
            if let (Some(after), NetSide::Host(host)) = (self.reseat_after, &mut side) {
                reseat(host, &mut away, after, who);
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
