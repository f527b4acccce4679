//! The side panel: what the pointer is over, and the game's log.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use foehold_core::lab::any::Plan;

use crate::app::dock::{Dock, Slot};
use crate::app::driver::Log;
use crate::app::picking::{Hovered, Target};
use crate::app::plans::Plans;
use crate::app::table::Table;
use crate::app::ui::figure_details;

pub fn side(
    mut contexts: EguiContexts,
    table: Res<Table>,
    log: Res<Log>,
    hovered: Res<Hovered>,
    plans: Res<Plans>,
    mut dock: ResMut<Dock>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    dock.show(ctx, Slot::Figure, egui::Window::new("Table"), |ui| {
        match hovered.0 {
            Some(Target::Figure(id)) => {
                if let Some(f) = table.figure(id) {
                    figure_details(ui, f, &cell_words(&table, f.cell));
                    if let Some(plan) = plans.of(id) {
                        plan_details(ui, plan);
                    }
                }
            }
            Some(Target::Cell(c)) => {
                if let Some(cell) = table.board.cell(c) {
                    if let Some(place) = &cell.place {
                        ui.label(egui::RichText::new(place).strong());
                    }
                    ui.label(egui::RichText::new(cell.ground.name()).strong());
                    ui.label(cell.at());
                }
                if let Some(f) = table.figure_at(c) {
                    ui.separator();
                    figure_details(ui, f, &cell_words(&table, c));
                    if let Some(plan) = plans.of(f.id) {
                        plan_details(ui, plan);
                    }
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

/// A foe's card for the round and what it would do now, as the board draws it.
fn plan_details(ui: &mut egui::Ui, plan: &Plan) {
    if !plan.card.is_empty() {
        ui.label(egui::RichText::new("This round").strong());
        egui::Frame::group(ui.style()).show(ui, |ui| {
            for line in &plan.card {
                ui.label(line);
            }
        });
    }
    ui.label(egui::RichText::new("If it acted now").strong());
    match &plan.answer {
        Ok(answer) => {
            ui.label(&answer.summary);
            if answer.choices.len() > 1 {
                for (i, c) in answer.choices.iter().enumerate() {
                    ui.label(format!("{}. {}", i + 1, c.label));
                }
            }
            egui::CollapsingHeader::new("Why")
                .id_salt("plan-why")
                .show(ui, |ui| {
                    for line in &answer.why {
                        ui.label(egui::RichText::new(line).small());
                    }
                });
        }
        Err(why) => {
            ui.weak(why);
        }
    }
}

/// Where a cell is, for the side panel ("hex (4, 0) · the Moth Archive").
fn cell_words(table: &Table, c: (i32, i32)) -> String {
    table.board.cell(c).map_or_else(
        || format!("({}, {})", c.0, c.1),
        crate::app::view::CellView::words,
    )
}
