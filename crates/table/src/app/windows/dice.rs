//! The dice tray with the exact odds of the roll, the random pick that spins to its option, a foe's
//! walk down its options with the one it took, and the module's own panels (the round's override
//! card).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use crate::app::dock::{Dock, Slot};
use crate::app::driver::Showing;
use crate::app::driver::showing::{Landed, TUMBLE};
use crate::app::table::Table;
use crate::app::tag::Tagged;
use crate::app::ui::{histogram, whole_attack};

/// The dice tray with the odds, the random pick, the foe's walk and the module's panels.
pub fn dice(
    mut contexts: EguiContexts,
    showing: Res<Showing>,
    table: Res<Table>,
    mut dock: ResMut<Dock>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // The odds of a roll being made now, else of the attack pointed at, else of the last roll.
    let preview = table.odds.is_none() && showing.preview.is_some();
    let odds = table
        .odds
        .as_ref()
        .or(showing.preview.as_ref())
        .or(showing.odds.as_ref());
    if !showing.tray.is_empty() || odds.is_some() {
        dock.show(ctx, Slot::Dice, egui::Window::new("Dice"), |ui| {
            if let Some(odds) = odds {
                if preview {
                    ui.weak("Before the roll, if you click:");
                }
                histogram(ui, odds, if preview { None } else { showing.hits() });
                if let Some(whole) = &odds.whole {
                    ui.separator();
                    whole_attack(ui, whole);
                }
            }
            // The last roll's dice belong to the last roll, not to the attack pointed at.
            if !preview {
                if odds.is_some() && !showing.tray.is_empty() {
                    ui.separator();
                }
                for (what, dice) in showing.rows() {
                    tray_row(ui, what, &dice);
                }
            }
        });
    }
    if let Some((among, chosen, age)) = &showing.pick {
        dock.show(ctx, Slot::Pick, egui::Window::new("Random pick"), |ui| {
            // The highlight runs over the options, then stops on the one chance picked.
            let landed = *age >= TUMBLE;
            let lit = if landed {
                *chosen
            } else {
                (*age * 14.0) as usize % among.len().max(1)
            };
            ui.horizontal_wrapped(|ui| {
                for (i, o) in among.iter().enumerate() {
                    let text = egui::RichText::new(o);
                    let r = if i == lit {
                        let colour = if landed {
                            egui::Color32::from_rgb(255, 215, 60)
                        } else {
                            egui::Color32::from_gray(200)
                        };
                        ui.label(
                            text.strong()
                                .color(egui::Color32::BLACK)
                                .background_color(colour),
                        )
                    } else {
                        ui.label(text.weak())
                    };
                    if landed && i == lit {
                        r.tagged("pick:chosen");
                    }
                }
            });
        });
    }
    if let Some((who, lines, chosen)) = &showing.walk {
        let window = egui::Window::new(format!("{who}: its options")).id(egui::Id::new("walk"));
        dock.show(ctx, Slot::Walk, window, |ui| {
            egui::ScrollArea::vertical()
                .max_height(240.0)
                .show(ui, |ui| {
                    for (i, line) in lines.iter().enumerate() {
                        match chosen.map(|c| i.cmp(&c)) {
                            Some(std::cmp::Ordering::Equal) => {
                                ui.label(
                                    egui::RichText::new(format!("▶ {line}"))
                                        .strong()
                                        .color(egui::Color32::from_rgb(255, 215, 60)),
                                )
                                .tagged("walk:chosen");
                            }
                            // The options passed over, as the foe went down its list.
                            Some(std::cmp::Ordering::Less) => {
                                ui.label(egui::RichText::new(line).weak());
                            }
                            _ => {
                                ui.label(line);
                            }
                        }
                    }
                });
        });
    }
    // The module's panels (the goal and its score, the round's override card) in one window.
    if !table.panels.is_empty() {
        dock.show(ctx, Slot::Scenario, egui::Window::new("Scenario"), |ui| {
            for (i, panel) in table.panels.iter().enumerate() {
                if i > 0 {
                    ui.separator();
                }
                ui.label(egui::RichText::new(&panel.title).strong())
                    .tagged(format!("panel:{}", panel.title));
                for line in &panel.lines {
                    ui.label(line);
                }
            }
        });
    }
    Ok(())
}

/// One kind of die in the tray: the dice tumbling or landed, hits lit, and the count.
fn tray_row(ui: &mut egui::Ui, what: &str, dice: &[&Landed]) {
    let needed = dice.first().map_or(1, |d| d.needed);
    ui.horizontal(|ui| {
        let words = if needed > 1 {
            format!("{what} (needs {needed}+)")
        } else {
            what.to_string()
        };
        ui.label(egui::RichText::new(words).strong());
        let side = 30.0;
        for d in dice {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(side, side), egui::Sense::hover());
            let painter = ui.painter_at(rect.expand(2.0));
            let landed = d.age >= TUMBLE;
            // Tumbling, the die shows faces in turn (a picture only: the roll is already known).
            let face = if landed {
                d.roll
            } else {
                (d.roll + (d.age * 17.0) as u32) % d.sides.max(1) + 1
            };
            let (fill, edge) = match (landed, d.hit()) {
                (false, _) => (egui::Color32::from_gray(210), egui::Color32::from_gray(120)),
                (true, Some(true)) => (
                    egui::Color32::from_rgb(225, 245, 215),
                    egui::Color32::from_rgb(40, 170, 60),
                ),
                (true, Some(false)) => {
                    (egui::Color32::from_gray(150), egui::Color32::from_gray(90))
                }
                (true, None) => (
                    egui::Color32::from_rgb(235, 235, 245),
                    egui::Color32::from_rgb(90, 120, 200),
                ),
            };
            // A tumbling die hops.
            let r = if landed {
                rect
            } else {
                rect.shrink(3.0)
                    .translate(egui::vec2(0.0, -3.0 * ((d.age * 16.0) as u32 % 2) as f32))
            };
            painter.rect_filled(r, 5.0, fill);
            painter.rect_stroke(
                r,
                5.0,
                egui::Stroke::new(2.5, edge),
                egui::StrokeKind::Inside,
            );
            painter.text(
                r.center(),
                egui::Align2::CENTER_CENTER,
                face.to_string(),
                egui::FontId::proportional(17.0),
                egui::Color32::BLACK,
            );
        }
        let all_in = dice.iter().all(|d| d.age >= TUMBLE);
        if needed > 1 && all_in {
            let hits = dice.iter().filter(|d| d.hit() == Some(true)).count();
            ui.label(format!("{hits} of {}", dice.len()))
                .tagged(format!("dice:{what}"));
        } else if all_in {
            let total: u32 = dice.iter().map(|d| d.roll).sum();
            ui.label(format!("total {total}"))
                .tagged(format!("dice:{what}"));
        }
    });
}
