//! The table's screens, as a Bevy state: a game on the table, or the scenarios to choose from.
//!
//! What belongs to a screen lives and dies with it: the board's tiles, minis, tokens and lights
//! are spawned on entering [`Screen::Table`] and carry [`DespawnOnExit`], and entering it again
//! (a new game, a loaded save) builds the board anew.

use bevy::prelude::*;

/// Which screen the window shows.
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Screen {
    /// A game on the table: its board, its figures and the table's windows.
    #[default]
    Table,
    /// The scenarios of every rule module, to start one; the game on the table waits, put away.
    Choosing,
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

pub(super) fn plugin(app: &mut App) {
    app.init_state::<Screen>();
}
