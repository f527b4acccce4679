//! The menu window: undo and redo, the history toggle, save and load, the autosave, a new game.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::{HistoryOpen, NewGameOpen};
use crate::app::play::{Control, autosave_path};
use crate::app::probe::Tagged;

/// The save file name being edited.
pub struct SavePath(String);

impl Default for SavePath {
    fn default() -> Self {
        SavePath("saves/game.ron".into())
    }
}

pub fn menu(
    mut contexts: EguiContexts,
    mut history: ResMut<HistoryOpen>,
    mut new_game: ResMut<NewGameOpen>,
    mut controls: MessageWriter<Control>,
    mut path: Local<SavePath>,
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
                    .on_hover_text("Ctrl+Z")
                    .clicked()
                {
                    controls.write(Control::Undo);
                }
                if ui
                    .button("⟳ Redo")
                    .tagged("menu:redo")
                    .on_hover_text("Ctrl+Y")
                    .clicked()
                {
                    controls.write(Control::Redo);
                }
                let mut open = history.0;
                ui.toggle_value(&mut open, "History");
                history.set_if_neq(HistoryOpen(open));
            });
            ui.horizontal(|ui| {
                ui.add(egui::TextEdit::singleline(&mut path.0).desired_width(130.0));
                if ui.button("Save").tagged("menu:save").clicked() {
                    controls.write(Control::Save(path.0.clone().into()));
                }
                if ui.button("Load").tagged("menu:load").clicked() {
                    controls.write(Control::Load(path.0.clone().into()));
                }
            });
            ui.horizontal(|ui| {
                if ui
                    .button("Load autosave")
                    .tagged("menu:load-autosave")
                    .clicked()
                {
                    controls.write(Control::Load(autosave_path()));
                }
                if ui.button("New game…").tagged("menu:new-game").clicked() {
                    new_game.set_if_neq(NewGameOpen(true));
                }
            });
        });
    Ok(())
}
