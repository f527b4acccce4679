//! The History window: every action of the game, with its round, hero and card; a click goes back
//! (or forward) to the game just after it, and the undone ones stay listed to redo.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::HistoryOpen;
use crate::app::driver::{Control, Log};
use crate::app::tag::Tagged;

pub fn history(
    mut contexts: EguiContexts,
    open: Res<HistoryOpen>,
    log: Res<Log>,
    mut controls: MessageWriter<Control>,
) -> Result {
    if !open.0 {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let cursor = log.cursor;
    egui::Window::new("History")
        .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(8.0, -8.0))
        .default_height(300.0)
        .show(ctx, |ui| {
            if let Some(n) = history_list(ui, &log.history, cursor) {
                controls.write(Control::JumpTo(n));
            }
        });
    Ok(())
}

/// The lines of a game's actions, the first `cursor` of them played and the rest undone (to redo):
/// the log position a click asks to go to, 0 being the start.
pub fn history_list(ui: &mut egui::Ui, labels: &[String], cursor: usize) -> Option<usize> {
    let mut jump = None;
    ui.weak("Click a line to see the game just after it; later lines stay, to redo.");
    egui::ScrollArea::vertical()
        .max_height(320.0)
        .stick_to_bottom(true)
        .show(ui, |ui| {
            if ui
                .selectable_label(cursor == 0, "0 · the start")
                .tagged("history:0")
                .clicked()
            {
                jump = Some(0);
            }
            for (i, label) in labels.iter().enumerate() {
                let text = format!("{} · {label}", i + 1);
                let text = if i >= cursor {
                    egui::RichText::new(text).weak().italics()
                } else {
                    egui::RichText::new(text)
                };
                if ui
                    .selectable_label(cursor == i + 1, text)
                    .tagged(format!("history:{}", i + 1))
                    .clicked()
                {
                    jump = Some(i + 1);
                }
            }
        });
    jump
}
