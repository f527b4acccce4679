//! The end of a game: victory or defeat, how the fight went, and what the players can do next, in
//! the players' column, so the board stays in view with the fallen lying where they fell.

use crate::app::dock::{Dock, Slot};
use crate::app::driver::{Control, Log, Turn};
use crate::app::screen::Screen;
use crate::app::table::Table;
use crate::app::tag::Tagged;
use crate::app::view::Side;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// What the players asked of the end screen.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct EndChoice {
    /// Undo the move that ended the game.
    pub undo: bool,
    /// Open the New game window.
    pub new_game: bool,
}

/// How a game went, in a few lines: the rounds, the heroes standing with their hit points, the foes
/// defeated, the players' decisions.
fn summary(table: &Table, log: &Log, decisions: usize) -> Vec<String> {
    let heroes: Vec<_> = table
        .figures
        .iter()
        .filter(|f| f.side == Side::Hero)
        .collect();
    let standing: Vec<String> = heroes
        .iter()
        .filter(|f| f.hp > 0)
        .map(|f| format!("{} {}/{}", f.name, f.hp, f.max_hp))
        .collect();
    let foes = table.figures.iter().filter(|f| f.side == Side::Foe);
    let (fallen, all) = foes.fold((0, 0), |(d, n), f| (d + usize::from(f.hp <= 0), n + 1));
    vec![
        format!("{} in round {}", table.title, table.round.max(1)),
        format!(
            "heroes standing: {} of {}{}",
            standing.len(),
            heroes.len(),
            if standing.is_empty() {
                String::new()
            } else {
                format!(" ({})", standing.join(", "))
            }
        ),
        format!("foes defeated: {fallen} of the {all} on the board"),
        format!(
            "{decisions} decisions by the players, {} actions in all",
            log.cursor
        ),
    ]
}

/// Draws the end of a game the heroes `won` or lost, whichever rules it was played by.
fn end_screen(ctx: &egui::Context, dock: &mut Dock, won: bool, summary: &[String]) -> EndChoice {
    let mut choice = EndChoice::default();
    let window = egui::Window::new("The end").id(egui::Id::new("end"));
    dock.show(ctx, Slot::Turn, window, |ui| {
        let text = if won { "Victory!" } else { "Defeat" };
        ui.label(egui::RichText::new(text).size(32.0).strong());
        for line in summary {
            ui.label(line);
        }
        ui.separator();
        ui.horizontal(|ui| {
            choice.undo = ui
                .button("Undo the last decision")
                .tagged("end:undo")
                .clicked();
            choice.new_game = ui.button("New game…").tagged("end:new-game").clicked();
        });
    });
    choice
}

pub fn end(
    mut contexts: EguiContexts,
    turn: Res<Turn>,
    table: Res<Table>,
    log: Res<Log>,
    mut screen: ResMut<NextState<Screen>>,
    mut controls: MessageWriter<Control>,
    mut dock: ResMut<Dock>,
) -> Result {
    let Some(won) = turn.over else {
        return Ok(());
    };
    let lines = summary(&table, &log, turn.decisions);
    let choice = end_screen(contexts.ctx_mut()?, &mut dock, won, &lines);
    if choice.undo {
        controls.write(Control::Undo);
    }
    if choice.new_game {
        screen.set(Screen::Choosing);
    }
    Ok(())
}
