//! The round's end: heroes with two or more discarded cards may short rest before the round ends.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use foehold_core::rules::gloomhaven::{Action, Phase};

use super::Act;
use super::CoreGame;
use crate::app::dock::{Dock, Slot};
use crate::app::driver::Seats;
use crate::app::tag::Tagged;
use foehold_loop::SubmitAction;

pub fn round_end(
    mut contexts: EguiContexts,
    game: Res<CoreGame>,
    seats: Res<Seats>,
    mut acts: MessageWriter<Act>,
    mut dock: ResMut<Dock>,
) -> Result {
    let s = &game.0.state;
    if s.phase != Phase::RoundEnd || s.pending.is_some() || !super::players_turn(s) {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    dock.show(
        ctx,
        Slot::Turn,
        egui::Window::new("End of the round"),
        |ui| {
            ui.label(
                "A hero with two or more discarded cards may short rest: one of them, drawn at \
                 random, is lost and the rest return to the hand.",
            );
            for h in s.active_heroes().filter(|&h| s.may_short_rest(h)) {
                let hero = &s.scenario.heroes[h];
                let label = format!(
                    "{} short rests (Player {}, {} discarded)",
                    hero.name,
                    seats.owner_of(h),
                    s.heroes[h].discard.len()
                );
                if ui
                    .button(label)
                    .tagged(format!("round:short-rest:{}", hero.name))
                    .clicked()
                {
                    acts.write(SubmitAction(Action::ShortRest { hero: h }));
                }
            }
            if ui
                .button(egui::RichText::new("End the round").strong())
                .tagged("round:end")
                .clicked()
            {
                acts.write(SubmitAction(Action::Advance));
            }
        },
    );
    Ok(())
}
