//! What the Gloomhaven module adds to the shared table: secret card choice with the hand-off, the
//! acting hero's card halves built into a play by clicks, short rests at the round's end, the ties
//! the rules leave, and the odds of the next monster attack. One window per file and per system;
//! each runs only while a Gloomhaven game is on the table.

use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;
use foehold_core::rules::gloomhaven::{Gloomhaven, State};
use foehold_core::rules::{Rules, ToMove};

use super::driver::{Installed, caught_up, players_play, playing, seated};
use super::screen::at_table;
use super::ui::Windows;
use crate::modules::Extra;

mod cards;
mod hero_turn;
mod odds;
pub mod orders;
#[cfg(feature = "dev")]
mod probe;
mod round_end;
pub mod seats;
mod ties;
pub mod words;

#[cfg(test)]
mod tests;

/// The Gloomhaven game on the table.
pub type CoreGame = foehold_loop::CoreGame<Gloomhaven>;
/// An action for it, from a click or a window.
pub type Act = foehold_loop::SubmitAction<Gloomhaven>;

/// Gloomhaven's part of the table: heroes' plays are built from card halves and clicks here, not
/// offered by the shared moves window.
/// The Gloomhaven family on the table: its own windows and clicks ([`EXTRA`]).
impl crate::modules::Module for Gloomhaven {
    const TABLE: Extra = EXTRA;
    const RULES: &'static str = "Gloomhaven-family rules";
}

pub const EXTRA: Extra = Extra {
    plugin,
    moves: false,
};

fn plugin(app: &mut App) {
    app.init_resource::<seats::Gate>()
        .add_plugins(orders::plugin)
        .add_systems(Update, forget.run_if(playing::<Gloomhaven>()))
        .add_systems(
            EguiPrimaryContextPass,
            (
                (cards::cards, hero_turn::hero_turn, round_end::round_end).run_if(players_play),
                ties::ties,
                odds::odds,
            )
                .chain()
                .run_if(seated)
                .run_if(at_table)
                .run_if(playing::<Gloomhaven>())
                .run_if(caught_up::<Gloomhaven>)
                .after(Windows),
        );
    #[cfg(feature = "dev")]
    probe::plugin(app);
}

/// A new game on the table: the hand-off and a half-built play of the last one go.
fn forget(
    mut installed: MessageReader<Installed>,
    mut gate: ResMut<seats::Gate>,
    mut intent: ResMut<orders::Intent>,
) {
    if installed.read().count() > 0 {
        *gate = seats::Gate::default();
        *intent = orders::Intent::default();
    }
}

/// Whether the players make the next move (their cards, their hero's turn, a short rest before
/// the round ends); otherwise the rules do.
pub fn players_turn(s: &State) -> bool {
    matches!(Gloomhaven::to_move(s), ToMove::Heroes(_))
}
