//! The rules' steps window: pause, step and speed of the rules' own steps, the replay of their
//! last run (an enemy turn), and whether the players draw and roll at their own table.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use foehold_loop::LoopSettings;

use crate::app::dock::{Dock, Slot};
use crate::app::driver::{Control, Pace, Turn};
use crate::app::plans::Plans;
use crate::app::tag::Tagged;

/// Play or pause, one step, and the speed of the rules' own steps: every table's controls of the
/// rules' pace.
pub fn pace_controls(ui: &mut egui::Ui, paused: &mut bool, step: &mut bool, speed: &mut f32) {
    ui.horizontal_wrapped(|ui| {
        // Narrow enough for the dock's column.
        ui.spacing_mut().slider_width = 80.0;
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
    turn: Res<Turn>,
    mut pace: ResMut<Pace>,
    mut settings: ResMut<LoopSettings>,
    mut controls: MessageWriter<Control>,
    mut plans: ResMut<Plans>,
    mut dock: ResMut<Dock>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    dock.show(
        ctx,
        Slot::Steps,
        egui::Window::new("The rules' steps"),
        |ui| {
            let (mut paused, mut step, mut speed) = (pace.paused, pace.step, pace.speed);
            pace_controls(ui, &mut paused, &mut step, &mut speed);
            // Written only when changed: the resource is watched for changes.
            if (paused, step, speed) != (pace.paused, pace.step, pace.speed) {
                (pace.paused, pace.step, pace.speed) = (paused, step, speed);
            }
            let replay_label = if turn.replaying {
                "Replaying…"
            } else {
                "Replay the rules' last run"
            };
            if ui
                .add_enabled(
                    !turn.replaying && turn.replayable,
                    egui::Button::new(replay_label),
                )
                .tagged("foes:replay")
                .on_hover_text("The last enemy turn (or round's end) again, step by step")
                .clicked()
            {
                controls.write(Control::ReplayRules);
            }
            let mut all = plans.all;
            ui.checkbox(&mut all, "Show every foe's plan")
                .tagged("foes:plans")
                .on_hover_text(
                    "What each foe would do if it acted now; point at one foe to see its plan alone",
                );
            if all != plans.all {
                plans.all = all;
            }
            let mut table_draws = settings.table_draws;
            ui.checkbox(&mut table_draws, "We draw and roll at our table")
                .tagged("foes:table-draws")
                .on_hover_text(
                    "Enter each card you draw and die you roll instead of letting the program draw",
                );
            if table_draws != settings.table_draws {
                settings.table_draws = table_draws;
            }
        },
    );
    Ok(())
}
