//! The table's windows that every rule module shares: menu, new game, banner, players, the side
//! panel, the enemy-turn controls, the history, the end and the problem screen. One window per file
//! and per system; the module's own windows live in its folder (`src/app/gloomhaven/`).

use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;

use super::hotseat::Seats;
use super::play::{Control, Driver, Play};
use super::table::is_gloomhaven;
use super::{CoreGame, Options};

mod banner;
mod end;
mod enemy_turn;
mod history;
mod menu;
mod new_game;
mod players;
mod problem;
mod side;

pub use end::end_screen;
pub use enemy_turn::pace_controls;
pub use history::history_list;
pub use new_game::{AtRisk, NewGameOpen, StartScenario, new_game};
pub use players::seat_players;
pub use problem::{Problem, problem};

/// Whether the History window is open.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct HistoryOpen(pub bool);

/// The players have confirmed who plays which hero.
pub fn seated(seats: Res<Seats>) -> bool {
    seats.ready
}

/// The players play (not the autopilot).
pub fn players_play(driver: Res<Driver>) -> bool {
    !driver.autoplay
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<HistoryOpen>()
        .add_plugins(choosing)
        .add_systems(Update, (at_risk, start).chain())
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
                    end::end,
                )
                    .run_if(seated),
                new_game,
                problem,
            )
                .chain()
                .in_set(Windows)
                .after(super::ui::Drawn),
        );
}

/// What every table needs to choose another scenario: the New game window's state, the moves it
/// would drop, the choice, and a problem to tell.
pub fn choosing(app: &mut App) {
    app.init_resource::<NewGameOpen>()
        .init_resource::<AtRisk>()
        .init_resource::<Problem>()
        .add_message::<StartScenario>();
}

/// The moves of the hex table's game that no save holds.
fn at_risk(game: Res<CoreGame>, play: Res<Play>, mut at_risk: ResMut<AtRisk>) {
    at_risk.set_if_neq(AtRisk::of(&game.0, play.saved_at));
}

/// Starts the chosen scenario: on this table when it is the hex table's rules, else the table
/// reopens on it.
fn start(
    mut starts: MessageReader<StartScenario>,
    options: Res<Options>,
    mut controls: MessageWriter<Control>,
    mut problem: ResMut<Problem>,
) {
    for StartScenario(path) in starts.read() {
        if is_gloomhaven(path) {
            controls.write(Control::NewGame(path.clone()));
        } else {
            problem.0 = Some(super::reopen_on(path, &options));
        }
    }
}

/// The system set of every window, after the name plates and lines drawn over the board.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Windows;
