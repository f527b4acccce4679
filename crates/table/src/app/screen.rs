//! The table's modes, as Bevy states: which screen the window shows, and what is on the table.
//!
//! What belongs to a mode lives and dies with it: the board's tiles, minis, tokens and lights
//! are spawned on entering [`Screen::Table`] and carry [`DespawnOnExit`], and entering it again
//! (a new game, a loaded save) builds the board anew; a module's game goes on leaving
//! [`OnTable::Game`] of that module, the lab's bench on leaving [`OnTable::Lab`].
//!
//! Whatever comes to the table (a game, the lab's bench) arrives at one point of the frame:
//! [`arrive`] queues it and it is put there early in the next frame's `PreUpdate`, before the
//! state transition. So what is on the table and its mode change together, and no system sees a
//! game without its mode or a mode without its game.

use bevy::platform::cell::SyncCell;
use bevy::prelude::*;
use bevy::state::state::FreelyMutableState;
use foehold_core::rules::Rules;

/// Which screen the window shows.
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Screen {
    /// A game on the table: its board, its figures and the table's windows.
    #[default]
    Table,
    /// The scenarios of every rule module, to start one; the game on the table waits, put away.
    Choosing,
}

/// What is on the table: a game of one rule module, the position lab's bench, or the workshop's
/// draft. It changes only
/// where something is put on the table ([`arrive`]), before the frame's state transition, so every
/// system a mode runs sees that mode and what goes with it.
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum OnTable {
    /// Nothing yet: the table's first game or position has not arrived.
    #[default]
    Nothing,
    /// A game of the module of this `rules:` name ([`Rules::NAME`]).
    Game(&'static str),
    /// The position lab: a case on its bench, no game on the table.
    Lab,
    /// The scenario workshop: a draft being made, no game on the table.
    Workshop,
}

impl OnTable {
    /// A game of rules `R` on the table: the state of `R`'s systems (`in_state(OnTable::game::<R>())`).
    pub const fn game<R: Rules>() -> OnTable {
        OnTable::Game(R::NAME)
    }
}

/// Whether this table plays a game online, and the module of that game (its `Rules::NAME`): the
/// state of the online session's systems. Leaving it ends the session (the game stays on the
/// table, for this screen's players).
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Connection {
    /// Hot-seat: every player at this screen.
    #[default]
    Alone,
    /// In an online game of the module of this name, as host, player or watcher.
    Online(&'static str),
}

impl Connection {
    /// Online in a game of rules `R`.
    pub const fn online<R: Rules>() -> Connection {
        Connection::Online(R::NAME)
    }
}

/// Changes a mode (what is on the table, the connection) at the frame's state transition. The
/// same mode again changes nothing: a new game of the same module replaces the last one's
/// resources without leaving its mode, and a table alone stays alone.
pub fn change<S: FreelyMutableState>(world: &mut World, to: S) {
    if let Some(mut next) = world.get_resource_mut::<NextState<S>>() {
        NextState::set_if_neq(&mut *next, to);
    }
}

/// Marks an entity as the table screen's: it goes when the screen does.
pub fn of_table() -> DespawnOnExit<Screen> {
    DespawnOnExit(Screen::Table)
}

/// The run condition of everything drawn over the table and of its windows.
pub fn at_table(screen: Option<Res<State<Screen>>>) -> bool {
    screen.is_some_and(|s| *s.get() == Screen::Table)
}

/// Goes to a screen; to [`Screen::Table`] even from it, so a new game's board is built anew.
pub fn go(world: &mut World, to: Screen) {
    if let Some(mut next) = world.get_resource_mut::<NextState<Screen>>() {
        next.set(to);
    }
}

/// Where what comes to the table arrives in the frame; what needs the new game in the same
/// frame (online play asked for on the command line) runs after it.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Arriving;

/// What comes to the table next, in the order it was asked for. (In a cell: an online game's
/// connection may be sent between threads but not shared.)
#[derive(Resource)]
pub struct Arrivals(SyncCell<Vec<Arrival>>);

impl Default for Arrivals {
    fn default() -> Self {
        Arrivals(SyncCell::new(Vec::new()))
    }
}

/// Puts something on the table: a game (the driver's `open::install`) or the lab's bench, with what goes with it.
pub type Arrival = Box<dyn FnOnce(&mut World) + Send>;

/// Queues `what` to be put on the table early in the next frame (or before the first, when the
/// app has not run yet: [`take_arrivals`]).
pub fn arrive(world: &mut World, what: impl FnOnce(&mut World) + Send + 'static) {
    world
        .resource_mut::<Arrivals>()
        .0
        .get()
        .push(Box::new(what));
}

/// Puts on the table the first of what arrived; the rest wait for the next frames. One a frame:
/// each gets its own state transition, so leaving a mode takes what the last one brought.
pub fn take_arrivals(world: &mut World) {
    let first = {
        let mut arrivals = world.resource_mut::<Arrivals>();
        let queue = arrivals.0.get();
        (!queue.is_empty()).then(|| queue.remove(0))
    };
    if let Some(arrival) = first {
        arrival(world);
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_state::<Screen>()
        .init_state::<OnTable>()
        .init_state::<Connection>()
        .init_resource::<Arrivals>()
        .add_systems(PreUpdate, take_arrivals.in_set(Arriving));
}
