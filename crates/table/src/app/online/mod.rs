//! Online play on the table: host a game for friends on other machines or join one, and see the
//! seats, who is connected and whom the game waits for. The game itself goes through
//! `foehold-net` ([`session`]): this screen's decisions are proposed to the host, and the table
//! follows the host's log.
//!
//! Connecting (binding the endpoint, reaching the host, fetching its scenario) can take seconds,
//! so it runs on a thread of its own and the table keeps drawing; the answer is taken in
//! [`finish_start`].

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use foehold_desktop::RelayArg;
use foehold_net::Traffic;
use foehold_net::message::{PeerId, Want};
use foehold_net::quic::fetch_scenario;
use foehold_net::quic::{Quic, Ticket};

use crate::app::Options;
use crate::app::screen::{self, Connection};
use crate::modules::{EachModule, Module, each_module};

pub mod session;
mod window;

/// How long a player waits to reach the host and get its scenario.
const CONNECT_WAIT: Duration = Duration::from_secs(60);
/// How long the host waits for its home relay before it shows the code.
const RELAY_WAIT: Duration = Duration::from_secs(10);
/// The most notes kept for the window.
const MAX_NOTES: usize = 8;

/// What this screen does online.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Holds the game for everyone, and plays this player: player 1, or the player of a screen
    /// that continued as host when the host left.
    Host(Option<u32>),
    /// Plays this player's heroes in a friend's game.
    Player(u32),
    /// Watches a friend's game.
    Spectator,
}

/// A player of the game, as the window lists them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    pub player: u32,
    /// The key that holds the seat, if one does.
    pub holder: Option<PeerId>,
    /// Someone took the seat (they may have dropped since).
    pub taken: bool,
    pub connected: bool,
    /// This screen's player.
    pub you: bool,
}

/// Where the online game stands, for the window and the probe; the module's session writes it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Status {
    /// `None`: not online.
    pub role: Option<Role>,
    /// The code a friend joins with (the host's).
    pub code: Option<String>,
    pub seats: Vec<Seat>,
    pub spectators: usize,
    /// The players the game waits for now.
    pub waiting: Vec<u32>,
    /// The host has welcomed this screen and sent the game.
    pub welcomed: bool,
    /// This copy parted from the host's: where, in words.
    pub desync: Option<String>,
    /// The host left or closed the connection.
    pub host_gone: bool,
    pub traffic: Traffic,
    /// On the host: the joiners waiting to be let in, and the seat each asks for.
    pub asking: Vec<foehold_net::host::Asking>,
    /// On the host: the watchers connected, who may be given a seat.
    pub watchers: Vec<PeerId>,
    /// Why the host put this screen out of the game, once it has.
    pub removed: Option<String>,
}

/// What the host does with its peers, from the window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Admin {
    /// Let a waiting joiner in.
    Admit(PeerId),
    /// Turn a waiting joiner away.
    TurnAway(PeerId),
    /// Remove a player or a watcher for good.
    Remove(PeerId),
    /// Free a seat for the next key that asks.
    Free(u32),
    /// Give a seat to a watcher.
    Give(u32, PeerId),
}

/// The forms of the Online window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Form {
    pub seats: u32,
    /// Through the public relays (friends on other networks); off: direct addresses only.
    pub relays: bool,
    pub code: String,
    pub seat: u32,
    pub spectate: bool,
    /// The room's password: set by the host, given by a joiner; empty for none.
    pub password: String,
    /// The host lets each new joiner in by hand.
    pub ask: bool,
}

impl Default for Form {
    fn default() -> Self {
        Form {
            seats: 2,
            relays: true,
            code: String::new(),
            seat: 2,
            spectate: false,
            password: String::new(),
            ask: false,
        }
    }
}

/// A connection made on the network thread.
enum Connected {
    Host {
        quic: Quic,
        code: String,
        path: String,
        text: String,
        seats: u32,
        /// Host the game on the table as it stands, rather than a new one.
        as_it_stands: bool,
        password: Option<String>,
        ask: bool,
    },
    Peer {
        quic: Quic,
        host: PeerId,
        text: String,
        want: Want,
        password: Option<String>,
    },
}

/// A connection being made: what, since when, and where the answer comes.
struct Starting {
    what: String,
    since: Instant,
    answer: Mutex<mpsc::Receiver<Result<Connected, String>>>,
}

/// Online play on this table.
#[derive(Resource, Default)]
pub struct Online {
    /// The Online window is open.
    pub open: bool,
    pub form: Form,
    starting: Option<Starting>,
    pub status: Status,
    /// What went wrong or happened, newest last.
    pub notes: VecDeque<String>,
    /// The host's actions on its peers, from the window, until the session takes them.
    pub admin: Vec<Admin>,
}

impl Online {
    /// Keeps a note for the window.
    pub fn note(&mut self, note: impl Into<String>) {
        if self.notes.len() == MAX_NOTES {
            self.notes.pop_front();
        }
        self.notes.push_back(note.into());
    }

    /// What is being connected, and for how long, while it is.
    pub fn starting(&self) -> Option<(&str, Duration)> {
        self.starting
            .as_ref()
            .map(|s| (s.what.as_str(), s.since.elapsed()))
    }

    /// Stops waiting for a connection: the thread's answer, when it comes, is dropped with it.
    pub fn cancel(&mut self) {
        self.starting = None;
    }

    fn wait_for(&mut self, what: String, answer: mpsc::Receiver<Result<Connected, String>>) {
        self.starting = Some(Starting {
            what,
            since: Instant::now(),
            answer: Mutex::new(answer),
        });
    }
}

/// Asks for online play: from the window or the command line.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub enum Go {
    /// Host the scenario on the table for this many players: the game as it stands, or a new one.
    Host {
        seats: u32,
        relays: bool,
        as_it_stands: bool,
        /// The room's password, if any.
        password: Option<String>,
        /// Let each new joiner in by hand.
        ask: bool,
    },
    /// Join the game of this code as this player (`None`: watch).
    Join {
        code: String,
        seat: Option<u32>,
        relays: bool,
        password: Option<String>,
    },
    /// Leave the online game; the game stays on this table.
    Leave,
}

pub(super) fn plugin(app: &mut App) {
    let options = app.world().resource::<Options>().online.clone();
    // The window's relays start as the command line's `--relay` says.
    let relays = options.relay == RelayArg::Default;
    let online = Online {
        form: Form {
            relays,
            ..Form::default()
        },
        ..Online::default()
    };
    app.insert_resource(online)
        .add_message::<Go>()
        // After what arrived on the table: the command line's request hosts the first game.
        .add_systems(
            PreUpdate,
            (go, finish_start).chain().after(screen::Arriving),
        )
        .add_plugins(window::plugin);
    // The command line's request, taken with the first frame, once the first game is on.
    if options.host {
        app.world_mut().write_message(Go::Host {
            seats: options.seats,
            relays,
            as_it_stands: false,
            password: None,
            ask: false,
        });
    } else if let Some(code) = options.join {
        app.world_mut().write_message(Go::Join {
            code,
            seat: options.seat,
            relays,
            password: None,
        });
    }
    struct Add<'a>(&'a mut App);
    impl EachModule for Add<'_> {
        fn visit<R: Module>(&mut self) {
            session::add::<R>(self.0);
        }
    }
    each_module(&mut Add(app));
}

/// The transport's options from the table's: relays or not, the `--bind` address, and the key
/// of `player` that this table keeps (a seat belongs to the key that took it: the table that
/// hosts, or plays player N, comes back to that seat with the same key after a crash, and the
/// player who hosted to the one who continued as host). A watcher joins with a fresh key. When
/// no key can be kept, a fresh one is used and the window says so.
fn transport_options(
    world: &mut World,
    relays: bool,
    player: Option<u32>,
) -> foehold_net::quic::Options {
    let bind: Option<SocketAddr> = world.resource::<Options>().online.bind;
    let relay = if relays {
        RelayArg::Default
    } else {
        RelayArg::None
    };
    let key = player.and_then(|n| match foehold_desktop::keys::player_key(n) {
        Ok(key) => Some(key),
        Err(e) => {
            world.resource_mut::<Online>().note(format!(
                "no key kept for player {n} ({e}): a crash of this table loses its seat"
            ));
            None
        }
    });
    relay.options(bind, key)
}

/// Starts what was asked: a connection on a thread of its own, or leaving.
fn go(mut commands: Commands, mut asked: MessageReader<Go>) {
    for go in asked.read() {
        let go = go.clone();
        commands.queue(move |world: &mut World| {
            if let Err(e) = start(world, go) {
                let mut online = world.resource_mut::<Online>();
                online.note(e);
                online.open = true;
            }
        });
    }
}

fn start(world: &mut World, go: Go) -> Result<(), String> {
    if world.resource::<Online>().starting.is_some() {
        return Err("already connecting: wait, or cancel first".into());
    }
    match go {
        Go::Leave => {
            leave(world);
            Ok(())
        }
        Go::Host {
            seats,
            relays,
            as_it_stands,
            password,
            ask,
        } => {
            let (path, text) = scenario_on_table(world)?;
            let options = transport_options(world, relays, Some(1));
            let rx = on_thread(move || {
                let quic = Quic::host(&options).map_err(|e| e.to_string())?;
                let code = quic.ticket(RELAY_WAIT).code();
                Ok(Connected::Host {
                    quic,
                    code,
                    path,
                    text,
                    seats,
                    as_it_stands,
                    password,
                    ask,
                })
            })?;
            let mut online = world.resource_mut::<Online>();
            online.wait_for("Opening the game to friends…".into(), rx);
            online.open = true;
            Ok(())
        }
        Go::Join {
            code,
            seat,
            relays,
            password,
        } => {
            // A code that does not parse is refused at once, with nothing changed.
            let ticket = Ticket::parse(code.trim()).map_err(|e| e.to_string())?;
            let options = transport_options(world, relays, seat);
            let want = seat.map_or(Want::Spectator, Want::Player);
            let rx = on_thread(move || {
                let deadline = Instant::now() + CONNECT_WAIT;
                let mut quic =
                    Quic::join(&ticket, &options, CONNECT_WAIT).map_err(|e| e.to_string())?;
                let host = ticket.peer();
                let text = fetch_scenario(&mut quic, host, deadline)?;
                Ok(Connected::Peer {
                    quic,
                    host,
                    text,
                    want,
                    password,
                })
            })?;
            let mut online = world.resource_mut::<Online>();
            online.wait_for("Reaching the host…".into(), rx);
            online.open = true;
            Ok(())
        }
    }
}

/// Connects on a thread of its own; the answer comes on the receiver given back.
fn on_thread(
    connect: impl FnOnce() -> Result<Connected, String> + Send + 'static,
) -> Result<mpsc::Receiver<Result<Connected, String>>, String> {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("foehold-online".into())
        .spawn(move || {
            // Nobody waits any more when the players cancelled: the connection is dropped here.
            let _ = tx.send(connect());
        })
        .map_err(|e| format!("cannot start the network thread: {e}"))?;
    Ok(rx)
}

/// The scenario file of the game on the table, read again, with its path: a hosted game starts
/// anew from it, and the joiners get its text.
fn scenario_on_table(world: &mut World) -> Result<(String, String), String> {
    let (path, hash) = world
        .resource::<crate::app::driver::GameFile>()
        .0
        .clone()
        .ok_or("no game is on the table to host")?;
    let text = world
        .resource::<crate::app::store::Store>()
        .read(&PathBuf::from(&path))?;
    if hash.is_some_and(|h| h != foehold_core::game::save::text_hash(&text)) {
        return Err(format!(
            "{path} changed since this game began: open it again to host it"
        ));
    }
    Ok((path, text))
}

/// Takes the network thread's answer, when it has come, and puts the online game on the table.
fn finish_start(world: &mut World) {
    let answer = {
        let online = world.resource::<Online>();
        let Some(starting) = &online.starting else {
            return;
        };
        let Ok(rx) = starting.answer.lock() else {
            return;
        };
        match rx.try_recv() {
            Ok(a) => a,
            Err(mpsc::TryRecvError::Empty) => return,
            Err(mpsc::TryRecvError::Disconnected) => Err("the network thread stopped".into()),
        }
    };
    world.resource_mut::<Online>().starting = None;
    let made = answer.and_then(|c| {
        leave(world);
        session::begin(world, c)
    });
    if let Err(e) = made {
        world.resource_mut::<Online>().note(e);
    }
}

/// Leaves the online game at this frame's state transition (a game begun in the same frame arrives
/// in the next); the game on the table stays, for this screen's players alone.
pub fn leave(world: &mut World) {
    screen::change(world, Connection::Alone);
}
