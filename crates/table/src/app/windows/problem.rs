//! The problem screen: a file that could not be opened (a bad scenario path, a broken scenario or
//! save) is explained in the window, with its `file:line:column`, not only on standard error.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use crate::app::driver::Problem;
use crate::app::screen::Screen;
use crate::app::tag::Tagged;

pub fn problem(
    mut contexts: EguiContexts,
    mut problem: ResMut<Problem>,
    mut screen: ResMut<NextState<Screen>>,
) -> Result {
    let Some(text) = problem.0.clone() else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let mut dismissed = false;
    egui::Window::new("Something could not be opened")
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, -120.0))
        .resizable(false)
        .collapsible(false)
        .show(ctx, |ui| {
            ui.colored_label(egui::Color32::from_rgb(255, 150, 90), &text);
            ui.horizontal(|ui| {
                if ui.button("OK").tagged("problem:ok").clicked() {
                    dismissed = true;
                }
                if ui.button("New game…").tagged("problem:new-game").clicked() {
                    dismissed = true;
                    screen.set(Screen::Choosing);
                }
            });
        });
    if dismissed {
        problem.0 = None;
    }
    Ok(())
}
