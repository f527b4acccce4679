//! The menu window: undo and redo, the history toggle, save and load, the autosave, a new game.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::{HistoryOpen, NewGameOpen};
use crate::app::driver::{Control, Keeping};
use crate::app::tag::Tagged;

pub fn menu(
    mut contexts: EguiContexts,
    mut history: ResMut<HistoryOpen>,
    mut new_game: ResMut<NewGameOpen>,
    mut controls: MessageWriter<Control>,
    mut keeping: ResMut<Keeping>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("menu")
        .title_bar(false)
        .resizable(false)
        .anchor(egui::Align2::LEFT_TOP, egui::vec2(8.0, 8.0))
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                if ui
                    .button("⟲ Undo")
                    .tagged("menu:undo")
                    .on_hover_text("Back to before the last decision (Ctrl+Z)")
                    .clicked()
                {
                    controls.write(Control::Undo);
                }
                if ui
                    .button("⟳ Redo")
                    .tagged("menu:redo")
                    .on_hover_text("On through the next decision (Ctrl+Y)")
                    .clicked()
                {
                    controls.write(Control::Redo);
                }
                let mut open = history.0;
                ui.toggle_value(&mut open, "History").tagged("menu:history");
                history.set_if_neq(HistoryOpen(open));
            });
            ui.horizontal(|ui| {
                // Edit a copy: writing the resource every frame would mark it changed.
                let mut path = keeping.path.clone();
                ui.add(egui::TextEdit::singleline(&mut path).desired_width(130.0));
                if path != keeping.path {
                    keeping.path = path;
                }
                if ui.button("Save").tagged("menu:save").clicked() {
                    controls.write(Control::Save(keeping.path.clone().into()));
                }
                if ui.button("Load").tagged("menu:load").clicked() {
                    controls.write(Control::Load(keeping.path.clone().into()));
                }
            });
            ui.horizontal(|ui| {
                if ui
                    .button("Load autosave")
                    .tagged("menu:load-autosave")
                    .clicked()
                {
                    controls.write(Control::Load(keeping.autosave.clone()));
                }
                if ui.button("New game…").tagged("menu:new-game").clicked() {
                    new_game.set_if_neq(NewGameOpen(true));
                }
            });
        });
    Ok(())
}
