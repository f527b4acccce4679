//! The end screen: victory or defeat, and what the players can do next.

use super::NewGameOpen;
use crate::app::driver::{Control, Turn};
use crate::app::tag::Tagged;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// What the players asked of the end screen.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct EndChoice {
    /// Undo the move that ended the game.
    pub undo: bool,
    /// Open the New game window.
    pub new_game: bool,
}

/// Draws the end screen of a game the heroes `won` or lost, whichever rules it was played by.
fn end_screen(ctx: &egui::Context, won: bool) -> EndChoice {
    let mut choice = EndChoice::default();
    egui::Window::new("end")
        .title_bar(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .resizable(false)
        .show(ctx, |ui| {
            let text = if won { "Victory!" } else { "Defeat" };
            ui.label(egui::RichText::new(text).size(32.0).strong());
            ui.horizontal(|ui| {
                choice.undo = ui.button("Undo the last move").tagged("end:undo").clicked();
                choice.new_game = ui.button("New game…").tagged("end:new-game").clicked();
            });
        });
    choice
}

pub fn end(
    mut contexts: EguiContexts,
    turn: Res<Turn>,
    mut new_game: ResMut<NewGameOpen>,
    mut controls: MessageWriter<Control>,
) -> Result {
    let Some(won) = turn.over else {
        return Ok(());
    };
    let choice = end_screen(contexts.ctx_mut()?, won);
    if choice.undo {
        controls.write(Control::Undo);
    }
    if choice.new_game {
        new_game.set_if_neq(NewGameOpen(true));
    }
    Ok(())
}
