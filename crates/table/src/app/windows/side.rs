//! The side panel: what the pointer is over, and the game's log.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use crate::app::dock::{Dock, Slot};
use crate::app::driver::Log;
use crate::app::picking::{Hovered, Target};
use crate::app::table::Table;
use crate::app::ui::figure_details;

pub fn side(
    mut contexts: EguiContexts,
    table: Res<Table>,
    log: Res<Log>,
    hovered: Res<Hovered>,
    mut dock: ResMut<Dock>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    dock.show(ctx, Slot::Figure, egui::Window::new("Table"), |ui| {
        match hovered.0 {
            Some(Target::Figure(id)) => {
                if let Some(f) = table.figure(id) {
                    figure_details(ui, f);
                }
            }
            Some(Target::Cell(c)) => {
                if let Some(cell) = table.board.cell(c) {
                    ui.label(egui::RichText::new(cell.ground.name()).strong());
                    ui.label(format!("cell {c:?}"));
                }
                if let Some(f) = table.figure_at(c) {
                    ui.separator();
                    figure_details(ui, f);
                }
            }
            None => {
                ui.weak("point at a figure or a cell");
            }
        }
        ui.separator();
        ui.label(egui::RichText::new("Log").strong());
        egui::ScrollArea::vertical()
            .id_salt("log")
            .max_height(200.0)
            .stick_to_bottom(true)
            .show(ui, |ui| {
                for line in &log.told.log {
                    ui.label(line);
                }
            });
    });
    Ok(())
}
