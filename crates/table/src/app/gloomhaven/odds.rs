//! The exact damage odds of the acting monster's planned attack on its first target, as a histogram,
//! before the modifier card is drawn.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use foehold_core::modifiers::odds as exact_odds;
use foehold_core::rules::gloomhaven::{FigureId, Phase, State};

use super::CoreGame;
use crate::app::dock::{Dock, Slot};

pub fn odds(mut contexts: EguiContexts, game: Res<CoreGame>, mut dock: ResMut<Dock>) -> Result {
    let s = &game.0.state;
    let (Phase::FoeTurn { .. }, Some(plan)) = (s.phase, &s.plan) else {
        return Ok(());
    };
    if plan.targets.is_empty() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    dock.show(ctx, Slot::Odds, egui::Window::new("Next attack"), |ui| {
        odds_chart(ui, s);
    });
    Ok(())
}

/// The exact damage odds of the acting foe's planned attack on its first target, as a histogram.
fn odds_chart(ui: &mut egui::Ui, s: &State) {
    let (Phase::FoeTurn { monster, .. }, Some(plan)) = (s.phase, &s.plan) else {
        return;
    };
    let Some((th, target)) = plan
        .targets
        .first()
        .and_then(|h| s.figure_at(*h).map(|f| (*h, f)))
    else {
        return;
    };
    let me = FigureId::Monster(monster);
    // The value and mode the draw will use, as the rules count them.
    let (attack, mode) = s.monster_draw_terms(monster, plan, th, target);
    let Ok(o) = exact_odds(
        &s.monster_deck.draw_pile,
        attack.max(0) as u32,
        s.target_shield(target),
        plan.pierce,
        mode,
    ) else {
        return;
    };
    ui.label(
        egui::RichText::new(format!(
            "Odds: {} → {} ({mode:?}), expected {:.2}",
            s.name(me),
            s.name(target),
            o.expected.to_f64()
        ))
        .strong(),
    );
    let bars: Vec<(String, f64)> = o
        .distribution
        .iter()
        .map(|(dmg, p)| (dmg.to_string(), p.to_f64()))
        .collect();
    crate::app::ui::chance_bars(
        ui,
        &bars,
        egui::vec2(260.0, 84.0),
        egui::Color32::from_rgb(200, 80, 60),
        None,
    );
}
