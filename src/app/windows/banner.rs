//! The banner at the top: scenario, round, whose turn, the player to act, and the table's messages.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use crate::app::CoreGame;
use crate::app::hotseat::Seats;
use crate::app::minis::side_colour;
use crate::app::play::Driver;
use crate::app::table::Table;
use crate::app::ui::egui_colour;

pub fn banner(
    mut contexts: EguiContexts,
    table: Res<Table>,
    game: Res<CoreGame>,
    seats: Res<Seats>,
    driver: Res<Driver>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let current = seats.current(&game.0.state);
    egui::Window::new("banner")
        .title_bar(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 8.0))
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                ui.label(egui::RichText::new(&table.title).strong().size(16.0));
                ui.separator();
                ui.label(format!("Round {}", table.round.max(1)));
                ui.separator();
                let colour = table
                    .active
                    .and_then(|id| table.figure(id))
                    .map_or(egui::Color32::WHITE, |f| {
                        egui_colour(side_colour(f.side, f.tint))
                    });
                ui.colored_label(colour, egui::RichText::new(&table.phase).strong());
                if let Some(p) = current.filter(|_| seats.players > 1) {
                    ui.separator();
                    ui.label(
                        egui::RichText::new(format!("Player {p}"))
                            .strong()
                            .color(egui::Color32::from_rgb(255, 220, 120)),
                    );
                }
            });
            if let Some((m, _)) = &driver.message {
                ui.colored_label(egui::Color32::from_rgb(255, 170, 90), m);
            }
        });
    Ok(())
}
