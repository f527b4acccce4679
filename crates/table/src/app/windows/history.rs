//! The History window: every players' decision of the game with its round and who made it, the
//! rules' steps after each folded under it; a click goes back (or forward) to the game just after
//! a line, and the undone ones stay listed to redo.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::HistoryOpen;
use crate::app::dock::{Dock, Slot};
use crate::app::driver::told::HistoryLine;
use crate::app::driver::{Control, Log};
use crate::app::tag::Tagged;

pub fn history(
    mut contexts: EguiContexts,
    open: Res<HistoryOpen>,
    log: Res<Log>,
    mut controls: MessageWriter<Control>,
    mut dock: ResMut<Dock>,
) -> Result {
    if !open.0 {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let cursor = log.cursor;
    dock.show(ctx, Slot::History, egui::Window::new("History"), |ui| {
        if let Some(n) = history_list(ui, &log.history, cursor) {
            controls.write(Control::JumpTo(n));
        }
    });
    Ok(())
}

/// The lines of a game's actions, the first `cursor` of them played and the rest undone (to redo),
/// by players' decision: each decision a line, the rules' steps, dice and draws after it folded
/// under it. Gives the log position a click asks to go to, 0 being the start.
pub fn history_list(ui: &mut egui::Ui, lines: &[HistoryLine], cursor: usize) -> Option<usize> {
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
            let mut i = 0;
            while i < lines.len() {
                // A decision (or the rules' first steps, before any) and the steps after it.
                let head = lines[i].decision.then_some(i);
                let first = if head.is_some() { i + 1 } else { i };
                let end = (first..lines.len())
                    .find(|&j| lines[j].decision)
                    .unwrap_or(lines.len());
                if let Some(h) = head {
                    line(ui, lines, h, cursor, &mut jump);
                }
                let steps = end - first;
                if steps > 0 {
                    let words = if steps == 1 {
                        "then 1 step of the rules".to_string()
                    } else {
                        format!("then {steps} steps of the rules")
                    };
                    // Open where the game stands among them, so the line in effect shows.
                    egui::CollapsingHeader::new(words)
                        .id_salt(("history steps", first))
                        .default_open(cursor > first && cursor < end)
                        .show(ui, |ui| {
                            for j in first..end {
                                line(ui, lines, j, cursor, &mut jump);
                            }
                        });
                }
                i = end;
            }
        });
    jump
}

/// One action's line: in effect, the one the game stands after, or undone (to redo).
fn line(
    ui: &mut egui::Ui,
    lines: &[HistoryLine],
    i: usize,
    cursor: usize,
    jump: &mut Option<usize>,
) {
    let text = format!("{} · {}", i + 1, lines[i].text);
    let text = if i >= cursor {
        egui::RichText::new(text).weak().italics()
    } else if lines[i].decision {
        egui::RichText::new(text).strong()
    } else {
        egui::RichText::new(text)
    };
    if ui
        .selectable_label(cursor == i + 1, text)
        .tagged(format!("history:{}", i + 1))
        .clicked()
    {
        *jump = Some(i + 1);
    }
}
