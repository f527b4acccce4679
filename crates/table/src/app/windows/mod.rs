//! The table's windows that every rule module shares: menu, new game, banner, players, the side
//! panel with the log, the pace of the rules' steps, the history, the dice tray, the end and the
//! problem screen. One window per file and per system; a module's own windows live in its folder
//! (`src/app/<module>/`).

use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;

use super::driver::{AtRisk, Problem, StartScenario, seated};
use super::ui::{Drawn, Windows};

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

pub use new_game::NewGameOpen;

/// Whether the History window is open.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct HistoryOpen(pub bool);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<HistoryOpen>()
        .init_resource::<NewGameOpen>()
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
                new_game::new_game,
                problem::problem,
            )
                .chain()
                .in_set(Windows)
                .after(Drawn),
        );
}
