//! One rule module's online session on the table: the host's or a peer's, over QUIC.
//!
//! The session's copy of the host's game (its replica) and the table's game are one game: the
//! table holds it, and lends it to the copy each frame while the copy takes the host's entries and
//! sends this screen's decisions. A decision made at this screen is proposed (or, for a hidden
//! pick, sealed and sent), never applied here first; what the copy applies (the host's decisions
//! and the rules' steps after them) the table shows from the game's journal at its own pace.

use std::sync::{Mutex, PoisonError};

use bevy::prelude::*;
use foehold_core::game::Game;
use foehold_core::library::Library;
use foehold_core::rules::ToMove;
use foehold_core::workshop::bundle::{pack, unpack};
use foehold_loop::{CoreGame, LoopSettings, LoopSystems, SubmitAction};
use foehold_net::host::seat_heroes;
use foehold_net::host::{Admission, Host, setup_of};
use foehold_net::message::{PeerId, Setup, Want};
use foehold_net::peer::Peer;
use foehold_net::peer::hosts_scenario;
use foehold_net::quic::Quic;
use foehold_net::replica::{Maker, Replica};
use foehold_net::secret::choosing_in_secret;
use foehold_net::{Handover, Transport};

use super::{Admin, Connected, Online, Role, Seat, Status};
use crate::app::Options;
use crate::app::driver::open::{install, new_game};
use crate::app::driver::{AskUndo, Here, Installs, Pace, Seats};
use crate::app::screen::{self, Arrival, Connection, arrive};
use crate::modules::{ForRules, Module, with_rules};

/// The host's session or a peer's, over QUIC.
type Side<R> = foehold_net::Side<R, Quic>;

/// Where the game stands online, for the window.
fn status<R: Module>(side: &Side<R>, code: Option<&str>) -> Status {
    let replica = side.replica();
    let setup = replica.map(Replica::setup);
    let seats_n = setup.map_or(0, |s| s.seats);
    let (asking, watchers) = match side {
        Side::Host(h) => (
            h.asking(),
            h.peer_list()
                .iter()
                .skip(1)
                .filter(|p| p.connected && p.player.is_none())
                .map(|p| p.id)
                .collect(),
        ),
        Side::Peer(_) => (Vec::new(), Vec::new()),
    };
    let (list, waiting_heroes, traffic, role, host_gone, desync) = match side {
        Side::Host(h) => (
            h.peer_list(),
            h.waiting(),
            h.traffic(),
            Role::Host(h.player()),
            false,
            h.replica().desync().map(ToString::to_string),
        ),
        Side::Peer(p) => {
            let (list, waiting) = p.peers();
            let role = match p.player() {
                Some(n) => Role::Player(n),
                None => Role::Spectator,
            };
            // The host tells whose hidden pick it still waits for; whose turn it is otherwise
            // the copy knows itself, the moment it takes the commit.
            let waiting = match replica.map(Replica::game) {
                Some(g) if choosing_in_secret::<R>(&g.state).is_empty() => match g.to_move() {
                    ToMove::Heroes(hs) => {
                        hs.iter().filter_map(|&h| u32::try_from(h).ok()).collect()
                    }
                    _ => Vec::new(),
                },
                _ => waiting.to_vec(),
            };
            (
                list.to_vec(),
                waiting,
                p.traffic(),
                role,
                p.host_gone(),
                p.desync().map(ToString::to_string),
            )
        }
    };
    let me = side.player();
    let seats = (1..=seats_n)
        .map(|n| {
            let holder = list.iter().find(|p| p.player == Some(n));
            Seat {
                player: n,
                holder: holder.map(|p| p.id),
                taken: holder.is_some() || me == Some(n),
                connected: me == Some(n) || holder.is_some_and(|p| p.connected),
                you: me == Some(n),
            }
        })
        .collect();
    let mut waiting: Vec<u32> = waiting_heroes
        .iter()
        .filter_map(|&h| {
            let h = usize::try_from(h).ok()?;
            setup?.players.get(h).copied()
        })
        .collect();
    if let (Some(r), Some(setup)) = (replica, setup)
        && matches!(r.game().to_move(), ToMove::Tie { .. })
    {
        waiting.push(setup.table_player);
    }
    waiting.sort_unstable();
    waiting.dedup();
    Status {
        role: Some(role),
        code: code.map(str::to_string),
        seats,
        spectators: list
            .iter()
            .filter(|p| p.player.is_none() && p.connected)
            .count(),
        waiting,
        welcomed: replica.is_some(),
        desync,
        host_gone,
        traffic,
        asking,
        watchers,
        removed: side.removed().map(str::to_string),
    }
}

/// The online session of a game of rules `R` on this table.
#[derive(Resource)]
pub struct Session<R: Module> {
    /// Behind a lock only so the resource may be shared between threads; the systems that use it
    /// hold it mutably and never wait on it.
    /// Empty only while the host's leaving is handled.
    side: Mutex<Option<Side<R>>>,
    /// The join code, on the host.
    code: Option<String>,
    /// The number ([`Installs`]) of this game's install on the table; a peer's comes once the
    /// host has welcomed it. Another number there: another game came, this one left.
    game_no: Option<u64>,
    /// The welcome's install is queued.
    installing: bool,
    /// Hidden picks sealed and sent: the hero and the session log's length then.
    sealed: Vec<(usize, u64)>,
    /// The session's notes already shown.
    noted: u64,
    /// The scenario file's text: a peer that continues as host sends it to whoever joins.
    text: String,
    /// The host left and nobody could continue as host: not tried again.
    gave_up: bool,
}

impl<R: Module> Session<R> {
    fn new(side: Side<R>, code: Option<String>, game_no: Option<u64>, text: &str) -> Session<R> {
        Session {
            text: text.to_string(),
            gave_up: false,
            side: Mutex::new(Some(side)),
            code,
            game_no,
            installing: false,
            sealed: Vec::new(),
            noted: 0,
        }
    }
}

/// Adds the session's systems for rules `R`: they run while this table is online in a game of
/// `R`, and leaving that state ends the session.
pub fn add<R: Module>(app: &mut App) {
    app.add_systems(
        Update,
        pump::<R>
            .run_if(in_state(Connection::online::<R>()))
            .before(LoopSystems::Input),
    )
    .add_systems(OnExit(Connection::online::<R>()), leave::<R>);
}

/// Puts a connection made on the network thread on the table as an online game.
pub(super) fn begin(world: &mut World, connected: Connected) -> Result<(), String> {
    let seed = world.resource::<Options>().seed;
    let library = crate::app::store::library(world);
    let install = match connected {
        Connected::Host {
            quic,
            code,
            path,
            text,
            seats,
            as_it_stands,
            password,
            ask,
        } => with_rules(
            &path,
            &text,
            BeginHost {
                quic,
                code,
                path: &path,
                text: &text,
                library: &library,
                seats,
                seed,
                under_way: as_it_stands.then_some(&*world),
                admission: if ask { Admission::Ask } else { Admission::Open },
                password,
            },
        ),
        Connected::Peer {
            quic,
            host,
            text,
            want,
            password,
        } => with_rules(
            "the host's scenario",
            // A bundle names its rules in the scenario it carries.
            &unpack("the host's scenario", &text)
                .map_err(|e| e.to_string())?
                .0,
            BeginPeer {
                quic,
                host,
                text: &text,
                want,
                password,
            },
        ),
    }
    .map_err(|e| e.to_string())??;
    arrive(world, install);
    Ok(())
}

/// A game hosted, with the host as player 1: a new one from the scenario file, or the one on the
/// table as it stands.
struct BeginHost<'a> {
    quic: Quic,
    code: String,
    path: &'a str,
    text: &'a str,
    /// The player's library, which the scenario is read with and whose entries it names go
    /// with it to the players.
    library: &'a Library,
    seats: u32,
    seed: u64,
    /// The table, whose game is hosted as it stands; `None`: a new game.
    under_way: Option<&'a World>,
    admission: Admission,
    password: Option<String>,
}

impl ForRules for BeginHost<'_> {
    type Out = Result<Arrival, String>;

    fn run<R: Module>(self) -> Self::Out {
        // The actions of a game hosted as it stands: it must not move on before it goes online.
        let mut stands = None;
        let replica = match self.under_way {
            Some(world) => {
                let game = &world
                    .get_resource::<CoreGame<R>>()
                    .ok_or("no game of these rules is on the table")?
                    .0;
                let setup = setup_of(game, self.seats, seat_heroes(game, self.seats), 1);
                stands = Some(game.actions().to_vec());
                // The game goes on from where it is, as the copy plays it again from its start.
                Replica::from_game(game, setup).map_err(|e| {
                    format!("this game cannot go online as it stands: {e}. Host a new game of it")
                })?
            }
            None => {
                let game = new_game::<R>(self.path, self.text, self.library, self.seed)?;
                let setup = setup_of(&game, self.seats, seat_heroes(&game, self.seats), 1);
                Replica::new(game, setup)
            }
        };
        let setup = replica.setup().clone();
        let mut host = Host::from_replica(replica, Some(1), Vec::new(), self.quic);
        host.set_admission(self.admission, self.password);
        // The player's own monster types and classes it names go with it.
        let text = pack(self.path, self.text, self.library).map_err(|e| e.to_string())?;
        host.offer_scenario(text.clone()).map_err(|e| {
            format!(
                "{}: the scenario is sent to the players in one message: {e}",
                self.path
            )
        })?;
        let code = self.code;
        Ok(Box::new(move |world: &mut World| {
            let moved = stands.is_some_and(|stands| {
                world
                    .get_resource::<CoreGame<R>>()
                    .is_none_or(|c| c.0.actions() != stands.as_slice())
            });
            if moved {
                world
                    .resource_mut::<Online>()
                    .note("the game moved on while it went online: host it again");
                return;
            }
            let mut side = Side::Host(Box::new(host));
            if let Some(game) = take_game(&mut side) {
                install::<R>(world, game, false);
            }
            seat(world, &setup, Here::Player(1));
            let no = world.resource::<Installs>().0;
            world.insert_resource(Session::new(side, Some(code), Some(no), &text));
            screen::change(world, Connection::online::<R>());
        }))
    }
}

/// A friend's game joined: the table keeps its game until the host's welcome brings this one.
struct BeginPeer<'a> {
    quic: Quic,
    host: PeerId,
    text: &'a str,
    want: Want,
    password: Option<String>,
}

impl ForRules for BeginPeer<'_> {
    type Out = Result<Arrival, String>;

    fn run<R: Module>(self) -> Self::Out {
        let scenario = hosts_scenario::<R>(self.text)?;
        let mut peer = Peer::new(scenario, self.want, self.host, self.quic);
        peer.set_password(self.password);
        peer.hello()
            .map_err(|e| format!("cannot greet the host: {e}"))?;
        let text = self.text.to_string();
        Ok(Box::new(move |world: &mut World| {
            let side = Side::Peer(Box::new(peer));
            world.insert_resource(Session::new(side, None, None, &text));
            screen::change(world, Connection::online::<R>());
        }))
    }
}

/// Seats the players as the online game has them, this screen's `here`, and lets the loop follow
/// the host: decisions are proposed, ties broken as the host's setup says, no autopilot.
fn seat(world: &mut World, setup: &Setup, here: Here) {
    let mut seats = Seats::of_owners(setup.players.clone());
    seats.players = setup.seats;
    seats.ready = true;
    seats.here = here;
    world.insert_resource(seats);
    world.insert_resource(LoopSettings {
        seeded_ties: setup.seeded_ties,
        autopilot_heroes: false,
        auto_advance: false,
        table_draws: false,
        held_elsewhere: true,
    });
    world.resource_mut::<Pace>().autoplay = false;
}

/// Leaves the online game of rules `R` as this table leaves its state: the connection closes, the
/// game stays on the table for this screen's players, hot-seat, with the table's own settings.
fn leave<R: Module>(world: &mut World) {
    if world.remove_resource::<Session<R>>().is_none() {
        return;
    }
    let options = world.resource::<Options>().clone();
    world.insert_resource(LoopSettings {
        seeded_ties: options.autoplay,
        autopilot_heroes: options.autoplay,
        auto_advance: false,
        table_draws: options.table_draws,
        held_elsewhere: false,
    });
    world.resource_mut::<Pace>().autoplay = options.autoplay;
    {
        let mut seats = world.resource_mut::<Seats>();
        seats.here = Here::Everyone;
        seats.sealed.clear();
    }
    let mut online = world.resource_mut::<Online>();
    online.status = Status::default();
    online.note("You left the online game; it stays on this table.");
}

/// The host is gone: this screen continues as host when it is next in line (and shows its own
/// join code, for the player who left), or follows the one that is. The game on the table goes on
/// as it was; a copy ahead of the new host's goes back to it, as after an undo.
fn hand_over<R: Module>(world: &mut World) {
    let Some(mut s) = world.remove_resource::<Session<R>>() else {
        return;
    };
    let side = std::mem::replace(&mut s.side, Mutex::new(None))
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    let Some(mut side) = side else {
        return;
    };
    // The copy hands over with the one game: lent to it, and back to the table after (before the
    // welcome's game is on the table, the copy still holds it). A game no longer on the table is
    // not handed over: the session ends at the next frame.
    let installs = world.resource::<Installs>().0;
    let mut core = world.remove_resource::<CoreGame<R>>();
    let lent =
        s.game_no == Some(installs) && core.as_mut().is_some_and(|c| side.swap_game(&mut c.0));
    if s.game_no.is_some() && !lent {
        s.side = Mutex::new(Some(side));
        world.insert_resource(s);
        if let Some(c) = core {
            world.insert_resource(c);
        }
        return;
    }
    let (mut side, how) = side.hand_over();
    if lent && let Some(c) = core.as_mut() {
        side.swap_game(&mut c.0);
    }
    if let Some(c) = core {
        world.insert_resource(c);
    }
    // Commitments made to the old host went with it: this screen's heroes pick again.
    s.sealed.clear();
    let note = match how {
        Ok(Handover::Hosting) => {
            if let Side::Host(h) = &mut side
                && let Err(e) = h.offer_scenario(s.text.clone())
            {
                world
                    .resource_mut::<Online>()
                    .note(format!("the scenario cannot be sent to whoever joins: {e}"));
            }
            s.code = side.transport_mut().contact();
            "The host has left: this table continues as host. Send the code to whoever takes \
             the free seat."
                .to_string()
        }
        Ok(Handover::Following(next)) => {
            let player = side
                .peer_list()
                .iter()
                .find(|p| p.id == next)
                .and_then(|p| p.player);
            match player {
                Some(n) => format!("The host has left: Player {n} continues as host."),
                None => "The host has left: a spectator continues as host.".to_string(),
            }
        }
        Err(e) => {
            s.gave_up = true;
            match side.removed() {
                Some(why) => format!("You are out of this game: {why}."),
                None => format!("The host has left: {e}."),
            }
        }
    };
    world.resource_mut::<Pace>().say(note.clone());
    world.resource_mut::<Online>().note(note);
    s.side = Mutex::new(Some(side));
    world.insert_resource(s);
}

/// Each frame: takes what the network brought and sends this screen's decisions. The session's
/// copy plays the one game of this machine, the table's: it is lent to the copy while the copy
/// works and is back on the table after, where the table shows what the copy applied to it.
#[expect(
    clippy::too_many_arguments,
    reason = "a Bevy system takes one parameter per resource, query and message it uses"
)]
fn pump<R: Module>(
    mut commands: Commands,
    mut session: ResMut<Session<R>>,
    mut game: Option<ResMut<CoreGame<R>>>,
    (mut submitted, mut undo, installs): (
        MessageReader<SubmitAction<R>>,
        MessageReader<AskUndo>,
        Res<Installs>,
    ),
    mut online: ResMut<Online>,
    mut pace: ResMut<Pace>,
    mut seats: ResMut<Seats>,
    mut connection: ResMut<NextState<Connection>>,
) {
    let s = &mut *session;
    let Some(side) = s.side.get_mut().unwrap_or_else(PoisonError::into_inner) else {
        return;
    };
    // The game on the table is the copy's once the welcome (or the hosting) put it there. Another
    // game put on the table (a new game, a save, the lab) ends this one here, as does the game
    // leaving it: the copy, which holds a stale clone then, is not polled again.
    if s.game_no.is_some_and(|no| no != installs.0) || (s.game_no.is_some() && game.is_none()) {
        NextState::set_if_neq(&mut *connection, Connection::Alone);
        return;
    }
    let lent = s.game_no.is_some()
        && game
            .as_mut()
            .is_some_and(|core| side.swap_game(&mut core.0));
    if s.game_no.is_some() && !lent {
        online.note("this table's copy of the game is gone: you left the online game");
        NextState::set_if_neq(&mut *connection, Connection::Alone);
        return;
    }
    'work: {
        side.poll();
        for note in side.transport_mut().take_notes() {
            online.note(note);
        }
        for admin in std::mem::take(&mut online.admin) {
            let Side::Host(host) = &mut *side else {
                continue;
            };
            let done = match admin {
                Admin::Admit(p) => host.admit(p),
                Admin::TurnAway(p) => host.turn_away(p),
                Admin::Remove(p) => host.remove(p, "the host removed you from the game"),
                Admin::Free(n) => host.free_seat(n),
                Admin::Give(n, p) => host.give_seat(n, p),
            };
            if let Err(e) = done {
                online.note(e);
            }
        }
        let (notes, noted) = side.notes_after(s.noted);
        s.noted = noted;
        for note in notes {
            if note.starts_with("refused") {
                // The refused decision is to be made again: a sealed pick among them too.
                s.sealed.clear();
            }
            pace.say(note.clone());
            online.note(note);
        }
        let status = status(side, s.code.as_deref());
        if online.status != status {
            online.status = status;
        }
        if side.host_gone() && !s.gave_up && side.replica().is_some() {
            commands.queue(hand_over::<R>);
            break 'work;
        }
        if s.game_no.is_none() {
            // Once caught up: a player who joins mid-game sees the game as it stands, not a
            // replay. Welcomed: the copy's game goes on the table, as it stands.
            if !s.installing && side.synced() {
                s.installing = true;
                let here = side.player().map_or(Here::Nobody, Here::Player);
                commands.queue(move |world: &mut World| arrive(world, welcomed::<R>(here)));
            }
            break 'work;
        }
        // The host may give this screen a seat, or free the one it held: its heroes follow.
        let here = side.player().map_or(Here::Nobody, Here::Player);
        if seats.here != here {
            seats.here = here;
        }
        propose(
            side,
            &mut s.sealed,
            submitted.read().map(|p| &p.0),
            &mut pace,
        );
        for _ in undo.read() {
            if let Err(e) = side.request_undo() {
                pace.say(format!("cannot undo: {e}"));
            }
        }
        let Some(replica) = side.replica() else {
            break 'work;
        };
        // A sealed pick stays sealed until the game shows it made, or the host's log moved on
        // without it (a refusal, an undo).
        let g = replica.game();
        let len = replica.len();
        s.sealed.retain(|&(h, at)| {
            let asked = matches!(g.to_move(), ToMove::Heroes(hs) if hs.contains(&h));
            asked && at == len
        });
        let sealed: Vec<usize> = s.sealed.iter().map(|&(h, _)| h).collect();
        if seats.sealed != sealed {
            seats.sealed = sealed;
        }
    }
    if lent
        && let Some(core) = game.as_mut()
        && !side.swap_game(&mut core.0)
    {
        // The copy went while it worked (a welcome that failed): the table keeps what it holds,
        // alone.
        online.note("this table's copy of the game is gone: you left the online game");
        NextState::set_if_neq(&mut *connection, Connection::Alone);
    }
}

/// The copy's game, for the table: from now on the one game of this machine, lent back to the
/// copy whenever it works (the copy keeps a clone meanwhile, never read).
fn take_game<R: Module>(side: &mut Side<R>) -> Option<Game<R>> {
    let mut game = side.replica()?.game().clone();
    side.swap_game(&mut game).then_some(game)
}

/// Puts the game of a welcomed player's copy on the table, seated as the host says.
fn welcomed<R: Module>(here: Here) -> impl FnOnce(&mut World) + Send + 'static {
    move |world: &mut World| {
        let taken = world.get_resource_mut::<Session<R>>().and_then(|mut s| {
            let side = s.side.get_mut().unwrap_or_else(PoisonError::into_inner);
            let side = side.as_mut()?;
            let setup = side.replica()?.setup().clone();
            take_game(side).map(|g| (g, setup))
        });
        let Some((game, setup)) = taken else {
            return;
        };
        install::<R>(world, game, false);
        seat(world, &setup, here);
        let no = world.resource::<Installs>().0;
        if let Some(mut s) = world.get_resource_mut::<Session<R>>() {
            s.game_no = Some(no);
        }
    }
}

/// Sends this screen's decisions: a hidden pick sealed, any other proposed.
fn propose<'a, R: Module>(
    side: &mut Side<R>,
    sealed: &mut Vec<(usize, u64)>,
    decisions: impl Iterator<Item = &'a R::Action>,
    pace: &mut Pace,
) {
    for action in decisions {
        let Some(replica) = side.replica() else {
            pace.say("not in the game yet: the host has not welcomed this screen");
            continue;
        };
        let maker = replica.maker(action);
        let secret = choosing_in_secret::<R>(&replica.game().state);
        let len = replica.len();
        let owner = match maker {
            Some(Maker::Hero(h)) => replica.setup().players.get(h).copied(),
            Some(Maker::Table) => Some(replica.setup().table_player),
            None => None,
        };
        let me = side.player();
        let sent = match maker {
            None => Err("not a move the game waits for now".to_string()),
            Some(m) if owner != me => Err(match (m, owner) {
                (Maker::Hero(_), Some(p)) => {
                    format!("that hero is Player {p}'s, who plays on another machine")
                }
                (Maker::Table, Some(p)) => format!("Player {p} breaks the table's ties"),
                _ => "a spectator makes no decision".to_string(),
            }),
            Some(Maker::Hero(h)) if secret.contains(&h) => side
                .commit_secret(h, action)
                .map(|()| sealed.push((h, len))),
            Some(_) => side.propose(action),
        };
        if let Err(e) = sent {
            pace.say(format!("not sent: {e}"));
        }
    }
}
