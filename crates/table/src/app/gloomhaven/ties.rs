//! The ties the rules leave to the players: a foe's equal options (also lit up pink on the board) or
//! the uses of a modifier draw; a click picks one, or the seeded dice do (R).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use foehold_core::hex::qr;
use foehold_core::modifiers::attack::CardOutcome;
use foehold_core::rules::gloomhaven::state::FoePlan;
use foehold_core::rules::gloomhaven::state::Pending;
use foehold_core::rules::gloomhaven::{Action, FigureId, Gloomhaven, Phase, State};
use foehold_core::rules::{Present, Rules, Seat};

use super::Act;
use super::CoreGame;
use crate::app::dock::{Dock, Slot};
use crate::app::tag::Tagged;
use foehold_loop::SubmitAction;

pub fn ties(
    mut contexts: EguiContexts,
    game: Res<CoreGame>,
    mut acts: MessageWriter<Act>,
    mut dock: ResMut<Dock>,
) -> Result {
    let s = &game.0.state;
    let Some(p) = &s.pending else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let window = egui::Window::new("The rules leave a choice");
    dock.show(ctx, Slot::Turn, window, |ui| {
        match p {
            Pending::FoeOption {
                monster,
                options,
                trace,
            } => option_buttons(
                ui,
                s,
                FigureId::Monster(*monster),
                options,
                trace,
                &mut acts,
            ),
            Pending::SummonOption {
                summon,
                options,
                trace,
            } => option_buttons(ui, s, FigureId::Summon(*summon), options, trace, &mut acts),
            Pending::TurnOrder { start, len } => {
                ui.label("Same initiative: who acts first?");
                for (i, a) in s.order[*start..*start + *len].iter().enumerate() {
                    if ui
                        .button(format!("{}: {}", i + 1, s.actor_name(*a)))
                        .tagged(format!("tie:{}", i + 1))
                        .clicked()
                    {
                        acts.write(SubmitAction(Action::Choose(i)));
                    }
                }
            }
            Pending::HeroModifier {
                monster, result, ..
            } => {
                let who = match s.phase {
                    Phase::HeroTurn { hero, .. } => s.scenario.heroes[hero].name.clone(),
                    _ => String::new(),
                };
                ui.label(format!(
                    "{who}'s draw against {} allows several card uses: {who}'s player picks.",
                    s.name(FigureId::Monster(*monster)),
                ));
                draw_uses(ui, &result.options, &mut acts);
            }
            Pending::Modifier {
                monster, result, ..
            } => {
                ui.label(format!(
                    "{}'s draw allows several card uses:",
                    s.name(FigureId::Monster(*monster))
                ));
                draw_uses(ui, &result.options, &mut acts);
            }
            Pending::SummonModifier { summon, result, .. } => {
                ui.label(format!(
                    "{}'s draw allows several card uses:",
                    s.name(FigureId::Summon(*summon))
                ));
                draw_uses(ui, &result.options, &mut acts);
            }
        }
        let dice = Gloomhaven::legal_actions(s, Seat::Table).contains(&Action::ChooseByDice);
        if dice
            && ui
                .button("Let the dice choose (R)")
                .tagged("tie:dice")
                .clicked()
        {
            acts.write(SubmitAction(Action::ChooseByDice));
        }
    });
    Ok(())
}

/// The ways a modifier draw may count, one button each; a click chooses it.
fn draw_uses(ui: &mut egui::Ui, options: &[CardOutcome], acts: &mut MessageWriter<Act>) {
    for (i, o) in options.iter().enumerate() {
        let text = format!(
            "{}: value {} → {} damage{}",
            i + 1,
            o.value.max(0),
            o.damage,
            if o.nullified { " (null)" } else { "" }
        );
        if ui.button(text).tagged(format!("tie:{}", i + 1)).clicked() {
            acts.write(SubmitAction(Action::Choose(i)));
        }
    }
}

/// A plan tie's options, one button each, with the rule steps that left them equal.
fn option_buttons(
    ui: &mut egui::Ui,
    s: &State,
    who: FigureId,
    options: &[FoePlan],
    trace: &[String],
    acts: &mut MessageWriter<Act>,
) {
    ui.label(format!(
        "{} has {} equal options: click a pink hex, or pick here.",
        s.name(who),
        options.len()
    ));
    // Where each option ends, by the figures around it; alike ones keep their coordinates.
    let ends: Vec<(i32, i32)> = options.iter().map(|o| qr(o.end)).collect();
    let places = foehold_core::lab::names::places(&Gloomhaven::view(s), &ends);
    for (i, (o, place)) in options.iter().zip(places).enumerate() {
        let targets = s.names_at(&o.targets);
        let text = format!(
            "{}: end on {place}{}",
            i + 1,
            if targets.is_empty() {
                String::new()
            } else {
                format!(", attack {}", targets.join(", "))
            }
        );
        if ui.button(text).tagged(format!("tie:{}", i + 1)).clicked() {
            acts.write(SubmitAction(Action::Choose(i)));
        }
    }
    egui::CollapsingHeader::new("why").show(ui, |ui| {
        for t in trace {
            ui.label(t);
        }
    });
}
