//! The Gloomhaven module's windows on the table: secret card choice with the hand-off, the acting
//! hero's card halves, short rests at the round's end, the ties the rules leave, and the odds of the
//! next monster attack. One window per file and per system.

use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;

use super::windows::{Windows, players_play, seated};

mod cards;
mod hero_turn;
mod odds;
mod round_end;
pub mod story;
mod ties;
pub mod words;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        (
            (cards::cards, hero_turn::hero_turn, round_end::round_end).run_if(players_play),
            ties::ties,
            odds::odds,
        )
            .chain()
            .run_if(seated)
            .after(Windows),
    );
}
