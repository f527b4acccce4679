//! The enemy-turn window: pause, step, speed and replay of the rules' own steps, the modifier cards
//! the last attack drew, and the trace of the acting foe's decision.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use crate::app::play::{Control, Driver, FoeTurnRecord, Shown};
use crate::app::probe::Tagged;

/// Play or pause, one step, and the speed of the rules' own steps: every table's controls of the
/// rules' pace.
pub fn pace_controls(ui: &mut egui::Ui, paused: &mut bool, step: &mut bool, speed: &mut f32) {
    ui.horizontal(|ui| {
        let label = if *paused { "▶ Play" } else { "⏸ Pause" };
        if ui
            .button(label)
            .tagged("foes:pause")
            .on_hover_text("Space")
            .clicked()
        {
            *paused = !*paused;
        }
        if ui
            .button("Step")
            .tagged("foes:step")
            .on_hover_text(".")
            .clicked()
        {
            *step = true;
        }
        ui.add(
            egui::Slider::new(speed, 0.25..=4.0)
                .text("speed")
                .logarithmic(true),
        );
    });
}

pub fn enemy_turn(
    mut contexts: EguiContexts,
    shown: Res<Shown>,
    record: Res<FoeTurnRecord>,
    mut driver: ResMut<Driver>,
    mut controls: MessageWriter<Control>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("Enemy turns")
        .anchor(egui::Align2::RIGHT_BOTTOM, egui::vec2(-8.0, -8.0))
        .default_width(300.0)
        .resizable(false)
        .show(ctx, |ui| {
            let (mut paused, mut step, mut speed) = (driver.paused, driver.step, driver.speed);
            pace_controls(ui, &mut paused, &mut step, &mut speed);
            driver.paused = paused;
            driver.step = step;
            if speed != driver.speed {
                driver.speed = speed;
            }
            let replay_label = if record.replay.is_some() {
                "Replaying…"
            } else {
                "Replay last enemy turn"
            };
            if ui
                .add_enabled(
                    record.replay.is_none() && !record.steps.is_empty(),
                    egui::Button::new(replay_label),
                )
                .tagged("foes:replay")
                .clicked()
            {
                controls.write(Control::ReplayFoeTurn);
            }
            if !shown.cards.is_empty() {
                ui.label(egui::RichText::new("Modifier cards").strong());
                for (who, cards, how) in &shown.cards {
                    ui.label(who);
                    ui.horizontal_wrapped(|ui| {
                        for c in cards {
                            ui.label(
                                egui::RichText::new(format!(" {c} "))
                                    .background_color(egui::Color32::from_rgb(60, 50, 80))
                                    .strong(),
                            );
                        }
                    });
                    ui.weak(how);
                }
            }
            if !shown.trace.is_empty() {
                egui::CollapsingHeader::new("Why: the decision trace")
                    .default_open(true)
                    .show(ui, |ui| {
                        egui::ScrollArea::vertical()
                            .id_salt("trace")
                            .max_height(160.0)
                            .show(ui, |ui| {
                                for t in &shown.trace {
                                    ui.label(t);
                                }
                            });
                    });
            }
        });
    Ok(())
}
