//! The end screen: victory or defeat, and what the players can do next.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use foehold_core::rules::ToMove;

use super::NewGameOpen;
use crate::app::CoreGame;
use crate::app::play::Control;
use crate::app::probe::Tagged;

pub fn end(
    mut contexts: EguiContexts,
    game: Res<CoreGame>,
    mut new_game: ResMut<NewGameOpen>,
    mut controls: MessageWriter<Control>,
) -> Result {
    let ToMove::Over { won } = game.0.to_move() else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("end")
        .title_bar(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .resizable(false)
        .show(ctx, |ui| {
            let text = if won { "Victory!" } else { "Defeat" };
            ui.label(egui::RichText::new(text).size(32.0).strong());
            ui.horizontal(|ui| {
                if ui.button("Undo the last move").tagged("end:undo").clicked() {
                    controls.write(Control::Undo);
                }
                if ui.button("New game…").tagged("end:new-game").clicked() {
                    new_game.set_if_neq(NewGameOpen(true));
                }
            });
        });
    Ok(())
}
