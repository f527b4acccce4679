//! The acting hero's window: the two chosen cards with their halves (a spent or unplayable half is
//! greyed), what to click for the chosen half, and Play only when the rules accept the play.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use foehold_core::rules::gloomhaven::scenario::Effect;
use foehold_core::rules::gloomhaven::{Action, Gloomhaven, Half, Phase, State};
use foehold_core::rules::{Rules, Seat};

use super::Act;
use super::CoreGame;
use super::orders::{Intent, attack, heals_at_range, movement, summons};
use super::words::{half_name, half_words};
use crate::app::dock::{Dock, Slot};
use crate::app::driver::Seats;
use crate::app::tag::Tagged;
use foehold_loop::SubmitAction;

/// The halves the hero may play now, from the rules' legal actions; worked out again only when the
/// game changes, since trying every candidate play is not free.
#[derive(Default)]
pub struct Playable {
    halves: Vec<(usize, Half, bool)>,
    /// The game's log position they were worked out for.
    at: Option<(usize, usize)>,
}

fn playable_halves(s: &State, hero: usize) -> Vec<(usize, Half, bool)> {
    let mut halves: Vec<(usize, Half, bool)> = Gloomhaven::legal_actions(s, Seat::Hero(hero))
        .into_iter()
        .filter_map(|a| match a {
            Action::Play {
                card, half, basic, ..
            } => Some((card, half, basic)),
            _ => None,
        })
        .collect();
    halves.sort_by_key(|&(c, h, b)| (c, h == Half::Bottom, b));
    halves.dedup();
    halves
}

/// What the chosen half still needs from the player before Play means something.
fn needs(effects: &[Effect], intent: &Intent) -> Vec<String> {
    let mut hints = Vec::new();
    if let Some((n, _)) = movement(effects) {
        hints.push(if intent.path.is_empty() {
            format!("click a blue hex to move (up to {n}); the path shows as you point")
        } else {
            format!(
                "moving {} hex(es); click another blue hex to change",
                intent.path.len()
            )
        });
    }
    if let Some((_, t)) = attack(effects) {
        hints.push(format!(
            "click up to {t} foe(s) lit violet to attack ({} chosen)",
            intent.targets.len()
        ));
    }
    if summons(effects) {
        hints.push(match intent.ally {
            Some(_) => "the summon goes on the hex you clicked".into(),
            None => "click an empty hex next to the hero for the summon, or leave it to the first free one".into(),
        });
    }
    if heals_at_range(effects) {
        hints.push(match intent.ally {
            Some(_) => "healing the ally you clicked".into(),
            None => "click an ally to heal, or leave it to heal yourself".into(),
        });
    }
    hints
}

/// Whether a half has something the player chooses (a move, an attack, a ranged heal).
fn has_choices(effects: &[Effect]) -> bool {
    movement(effects).is_some() || attack(effects).is_some() || heals_at_range(effects)
}

pub fn hero_turn(
    mut contexts: EguiContexts,
    game: Res<CoreGame>,
    mut intent: ResMut<Intent>,
    mut acts: MessageWriter<Act>,
    mut playable: Local<Playable>,
    mut dock: ResMut<Dock>,
    seats: Res<Seats>,
) -> Result {
    let s = &game.0.state;
    let (Phase::HeroTurn { hero, played }, None) = (s.phase, &s.pending) else {
        if intent.half.is_some() {
            *intent = Intent::default();
        }
        return Ok(());
    };
    // Online, another machine's hero is played there; the banner says whom the game waits for.
    if !seats.plays_here(seats.owner_of(hero)) {
        return Ok(());
    }
    let at = (game.0.cursor, game.0.log.len());
    if playable.at != Some(at) {
        playable.halves = playable_halves(s, hero);
        playable.at = Some(at);
    }
    let ctx = contexts.ctx_mut()?;
    // Edit a copy: touching the resource every frame would mark it changed every frame.
    let mut edited = intent.clone();
    let x = &s.heroes[hero];
    let spec = &s.scenario.heroes[hero];
    let window = egui::Window::new(format!("{}'s turn", spec.name)).id(egui::Id::new("hero turn"));
    dock.show(ctx, Slot::Turn, window, |ui| {
        ui.label(if played.is_some() {
            "Play the other half of the other card."
        } else {
            "Play a top half of one card and a bottom half of the other."
        });
        for c in x.selected.into_iter().flatten() {
            let card = &spec.cards[c];
            ui.label(egui::RichText::new(format!("{} [{}]", card.name, card.initiative)).strong());
            for (half, basic, words) in [
                (
                    Half::Top,
                    false,
                    half_words(&card.top.effects, card.top.lost),
                ),
                (
                    Half::Bottom,
                    false,
                    half_words(&card.bottom.effects, card.bottom.lost),
                ),
                (Half::Top, true, "basic: attack 2".to_string()),
                (Half::Bottom, true, "basic: move 2".to_string()),
            ] {
                let key = (c, half, basic);
                let open = playable.halves.contains(&key);
                let chosen = edited.half == Some(key);
                let label = format!("{} {words}", if half == Half::Top { "▲" } else { "▼" });
                let row = ui.add_enabled(open, egui::Button::selectable(chosen, label));
                let name = match (half, basic) {
                    (Half::Top, false) => "top",
                    (Half::Bottom, false) => "bottom",
                    (Half::Top, true) => "basic-top",
                    (Half::Bottom, true) => "basic-bottom",
                };
                let row = row.tagged(format!("half:{}:{name}", card.name));
                let row = row.on_disabled_hover_text(format!(
                    "the {} of this card cannot be played now",
                    half_name(half)
                ));
                if row.clicked() {
                    edited = Intent {
                        half: Some(key),
                        ..Intent::default()
                    };
                }
            }
        }
        if let Some((card, half, basic)) = edited.half {
            ui.separator();
            let effects = s.half_effects(hero, card, half, basic);
            for hint in needs(&effects, &edited) {
                ui.weak(hint);
            }
            let chose_nothing =
                edited.path.is_empty() && edited.targets.is_empty() && edited.ally.is_none();
            // Play is offered only for a play the rules accept, tried on a copy.
            let verdict = edited
                .action()
                .map(|a| s.clone().apply(a.clone()).map(|_| a));
            ui.horizontal(|ui| {
                match &verdict {
                    Some(Ok(a)) => {
                        let unused = chose_nothing && has_choices(&effects);
                        let play = ui
                            .add_enabled(
                                !unused,
                                egui::Button::new(egui::RichText::new("Play").strong()),
                            )
                            .tagged("turn:play")
                            .on_disabled_hover_text("choose a hex or a target first");
                        // Spending a half without its move or attack is allowed, but asked for.
                        let spend = unused
                            && ui
                                .button("Play it unused")
                                .tagged("turn:play-unused")
                                .on_hover_text("spend the half without moving or attacking")
                                .clicked();
                        if play.clicked() || spend {
                            acts.write(SubmitAction(a.clone()));
                            edited = Intent::default();
                        }
                    }
                    Some(Err(why)) => {
                        ui.add_enabled(false, egui::Button::new("Play"))
                            .tagged("turn:play");
                        ui.colored_label(egui::Color32::from_rgb(255, 170, 90), why.to_string());
                    }
                    None => {}
                }
                if ui.button("Cancel").tagged("turn:cancel").clicked() {
                    edited = Intent::default();
                }
            });
        }
        ui.separator();
        if ui
            .button("End turn")
            .tagged("turn:end")
            .on_hover_text("skip what is left of this turn")
            .clicked()
        {
            acts.write(SubmitAction(Action::Advance));
            edited = Intent::default();
        }
    });
    intent.set_if_neq(edited);
    Ok(())
}
