//! The banner over the board: scenario, round, whose turn, the player to act; under it the table's
//! messages, or the keys that steer the view.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use crate::app::dock::Dock;
use crate::app::driver::{Here, Pace, Seats, Turn};
use crate::app::minis::side_colour;
use crate::app::table::Table;
use crate::app::ui::egui_colour;

pub fn banner(
    mut contexts: EguiContexts,
    table: Res<Table>,
    turn: Res<Turn>,
    seats: Res<Seats>,
    pace: Res<Pace>,
    mut dock: ResMut<Dock>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let band = dock.band().shrink(6.0);
    let shown = egui::Window::new("banner")
        .title_bar(false)
        .resizable(false)
        .movable(false)
        .fixed_pos(band.min)
        .min_width(band.width() - 14.0)
        .max_width(band.width() - 14.0)
        .show(ctx, |ui| {
            ui.horizontal_wrapped(|ui| {
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
                // The module's banner says how a game ended; only the pause is the table's own.
                if pace.paused && turn.over.is_none() {
                    ui.separator();
                    ui.label("paused (Space)");
                }
                if let Some(p) = turn.player.filter(|_| seats.players > 1) {
                    ui.separator();
                    // Online, whose turn it is says whether this screen plays now.
                    let who = match seats.here {
                        Here::Everyone => format!("Player {p}"),
                        _ if seats.plays_here(p) => format!("Player {p} (you)"),
                        _ => format!("waiting for Player {p}"),
                    };
                    ui.label(
                        egui::RichText::new(who)
                            .strong()
                            .color(egui::Color32::from_rgb(255, 220, 120)),
                    );
                }
            });
            // Always a second line, so the board under the band never moves.
            match &pace.message {
                Some((m, _)) => ui.colored_label(egui::Color32::from_rgb(255, 170, 90), m),
                None => ui.weak("F: the acting figure · Home: the whole board · Space: pause"),
            };
        });
    if let Some(r) = shown {
        dock.banner_drawn(r.response.rect.height());
    }
    Ok(())
}
