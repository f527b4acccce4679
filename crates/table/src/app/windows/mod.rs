//! The table's windows that every rule module shares: menu, banner, players, the side panel with
//! the log, the pace of the rules' steps, the history, the dice tray and the end; the New game
//! screen; the problem window, over either screen. One window per file and per system; a module's
//! own windows live in its folder (`src/app/<module>/`).

use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;

use super::driver::{AtRisk, Problem, StartScenario, seated};
use super::screen::{Screen, at_table};
use super::ui::Windows;

mod banner;
mod dice;
mod end;
mod enemy_turn;
mod history;
mod menu;
mod new_game;
mod players;
mod problem;
mod side;

/// Whether the History window is open.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct HistoryOpen(pub bool);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<HistoryOpen>()
        .init_resource::<AtRisk>()
        .init_resource::<Problem>()
        .add_message::<StartScenario>()
        .add_systems(
            EguiPrimaryContextPass,
            (
                menu::menu,
                banner::banner,
                players::players.run_if(not(seated)),
                (
                    side::side,
                    enemy_turn::enemy_turn,
                    history::history,
                    dice::dice,
                    end::end,
                )
                    .run_if(seated),
            )
                .chain()
                .in_set(Windows),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (
                new_game::new_game.run_if(in_state(Screen::Choosing)),
                problem::problem,
            )
                .chain()
                .after(Windows),
        )
        // The table's windows and what is drawn over the board are the table screen's.
        .configure_sets(
            EguiPrimaryContextPass,
            // The lab and the workshop have windows of their own; the game's rest while they are
            // open.
            Windows
                .run_if(at_table)
                .run_if(not(in_state(crate::app::screen::OnTable::Lab)))
                .run_if(not(in_state(crate::app::screen::OnTable::Workshop))),
        );
}
