//! Secret card choice: "pass the screen" to each player in turn, then that player's heroes pick two
//! cards (the first leads and sets the initiative) or declare a long rest.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use foehold_core::rules::gloomhaven::{Action, Phase};

use super::Act;
use super::CoreGame;
use super::seats::{Gate, next_chooser};
use super::words::card_words;
use crate::app::dock::{Dock, Slot};
use crate::app::driver::Seats;
use crate::app::tag::Tagged;
use foehold_loop::SubmitAction;

/// Cards picked so far per hero (first = leading), before they are confirmed.
#[derive(Default)]
pub struct Picks(Vec<Vec<usize>>);

pub fn cards(
    mut contexts: EguiContexts,
    game: Res<CoreGame>,
    seats: Res<Seats>,
    mut gate: ResMut<Gate>,
    mut acts: MessageWriter<Act>,
    mut picks: Local<Picks>,
    mut dock: ResMut<Dock>,
) -> Result {
    let s = &game.0.state;
    let chooser = (s.phase == Phase::CardSelection && s.pending.is_none())
        .then(|| next_chooser(&seats, s))
        .flatten();
    let Some(player) = chooser else {
        if gate.open_for.is_some() {
            gate.open_for = None;
        }
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    if gate.open_for != Some(player) && seats.shared() {
        egui::Window::new("hand-off")
            .title_bar(false)
            .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
            .resizable(false)
            .show(ctx, |ui| {
                ui.label(
                    egui::RichText::new(format!("Pass the screen to Player {player}"))
                        .size(22.0)
                        .strong(),
                );
                ui.label("Card choices stay secret until everyone has chosen.");
                if ui
                    .button(egui::RichText::new(format!("I am Player {player}")).size(16.0))
                    .tagged("handoff:ready")
                    .clicked()
                {
                    gate.open_for = Some(player);
                }
            });
        return Ok(());
    }
    let picks = &mut picks.0;
    if picks.len() < s.heroes.len() {
        picks.resize(s.heroes.len(), Vec::new());
    }
    let title = if seats.players > 1 {
        format!("Player {player}: choose two cards per hero")
    } else {
        "Choose two cards per hero".to_string()
    };
    // One id whoever chooses: the players' column keeps its place for it.
    let window = egui::Window::new(title).id(egui::Id::new("cards"));
    dock.show(ctx, Slot::Turn, window, |ui| {
        for h in s
            .active_heroes()
            .filter(|&h| seats.owner_of(h) == player && !seats.sealed.contains(&h))
        {
            let x = &s.heroes[h];
            if x.selected.is_some() || x.long_rest.is_some() {
                continue;
            }
            let spec = &s.scenario.heroes[h];
            ui.label(egui::RichText::new(&spec.name).strong().size(15.0));
            ui.weak("The first card picked leads: its initiative is the hero's.");
            for &c in &x.hand {
                let pos = picks[h].iter().position(|&p| p == c);
                let mark = match pos {
                    Some(0) => "[1st, leads] ",
                    Some(_) => "[2nd] ",
                    None => "",
                };
                let row = ui
                    .selectable_label(
                        pos.is_some(),
                        format!("{mark}{}", card_words(&spec.cards[c])),
                    )
                    .on_hover_text("click to pick, click again to put it back")
                    .tagged(format!("card:{}:{}", spec.name, spec.cards[c].name));
                // The second click of a double click is not a change of mind: at a low frame
                // rate a player clicks again before the first click shows.
                if row.clicked() && !row.double_clicked() {
                    match pos {
                        Some(i) => {
                            picks[h].remove(i);
                        }
                        None if picks[h].len() < 2 => picks[h].push(c),
                        None => {}
                    }
                }
            }
            ui.horizontal(|ui| {
                let ready = picks[h].len() == 2;
                let confirm = egui::Button::new(egui::RichText::new("Confirm cards").strong());
                if ui
                    .add_enabled(ready, confirm)
                    .on_disabled_hover_text("pick two cards first")
                    .tagged(format!("cards:{}:confirm", spec.name))
                    .clicked()
                {
                    acts.write(SubmitAction(Action::SelectCards {
                        hero: h,
                        leading: picks[h][0],
                        other: picks[h][1],
                    }));
                    picks[h].clear();
                }
                if x.discard.len() >= 2
                    && ui
                        .button("Long rest")
                        .tagged(format!("cards:{}:long-rest", spec.name))
                        .on_hover_text("initiative 99: heal 2, recover the discard, lose one card")
                        .clicked()
                {
                    acts.write(SubmitAction(Action::LongRest {
                        hero: h,
                        lose: x.discard[0],
                    }));
                }
            });
            ui.separator();
        }
    });
    Ok(())
}
