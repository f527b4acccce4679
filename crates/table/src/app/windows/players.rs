//! The Players window: how many players share the screen and who plays which hero, before the game.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use crate::app::driver::Seats;
use crate::app::table::Table;
use crate::app::tag::Tagged;

/// The Players window of the game on the table.
pub fn players(mut contexts: EguiContexts, table: Res<Table>, mut seats: ResMut<Seats>) -> Result {
    let heroes = table.hero_names();
    seat_players(
        contexts.ctx_mut()?,
        &table.title,
        &table.about,
        &heroes,
        &mut seats,
    );
    Ok(())
}

/// The Players window of any scenario: its name and words, a player count, a player per hero,
/// and Start.
fn seat_players(
    ctx: &egui::Context,
    name: &str,
    description: &str,
    heroes: &[&str],
    seats: &mut ResMut<Seats>,
) {
    // Edit a copy: writing the resource every frame would mark it changed every frame.
    let mut edited = (**seats).clone();
    egui::Window::new("Players")
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .resizable(false)
        .collapsible(false)
        .show(ctx, |ui| {
            ui.label(egui::RichText::new(name).strong().size(16.0));
            if !description.is_empty() {
                ui.weak(description);
            }
            ui.separator();
            ui.horizontal(|ui| {
                ui.label("Players at the table:");
                // One click per count: a mouse needs no dragging or typing here.
                for n in 1..=4 {
                    ui.selectable_value(&mut edited.players, n, n.to_string())
                        .tagged(format!("players:count:{n}"));
                }
            });
            let players = edited.players;
            for (h, hero) in heroes.iter().enumerate() {
                ui.horizontal(|ui| {
                    ui.label(*hero);
                    if let Some(o) = edited.owner.get_mut(h) {
                        *o = (*o).clamp(1, players);
                        for p in 1..=players {
                            ui.radio_value(o, p, format!("P{p}"))
                                .tagged(format!("players:{hero}:P{p}"));
                        }
                    }
                });
            }
            if ui
                .button(egui::RichText::new("Start").strong())
                .tagged("players:start")
                .clicked()
            {
                edited.ready = true;
            }
        });
    if edited != **seats {
        **seats = edited;
    }
}
