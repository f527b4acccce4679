//! The egui panels: menu (undo/redo, save/load, scenario picker), banner, hot-seat setup and hand-off,
//! card choice, the acting hero's card halves, ties, the enemy-turn panel (controls, drawn cards,
//! decision trace) and the history.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use foehold_core::hex::qr;
use foehold_core::modifiers::{Mode, odds};
use foehold_core::rules::gloomhaven::scenario::Condition;
use foehold_core::rules::gloomhaven::scenario::{Effect, HeroCard};
use foehold_core::rules::gloomhaven::state::Pending;
use foehold_core::rules::gloomhaven::{Action, FigureId, Half, Phase, State};
use foehold_loop::CoreGame;

use super::hotseat::{Gate, Seats};
use super::minis::side_colour;
use super::orders::Intent;
use super::picking::{Hovered, Target};
use super::play::{Act, Control, Driver, FoeTurnRecord, Shown, autosave_path, players_turn};
use super::table::{Table, scenario_files};
use super::ui::{egui_colour, figure_details};

/// Text fields and toggles of the panels.
#[derive(Default)]
pub struct PanelState {
    save_path: String,
    /// Cards picked so far per hero (first = leading).
    picks: Vec<Vec<usize>>,
    show_history: bool,
}

pub fn effect_words(e: &Effect) -> String {
    match e {
        Effect::Move(n) => format!("move {n}"),
        Effect::Jump(n) => format!("jump {n}"),
        Effect::Attack {
            value,
            range,
            targets,
            pierce,
            conditions,
            consume,
        } => {
            let mut s = format!("attack {value}");
            if *range > 0 {
                s += &format!(" range {range}");
            }
            if *targets > 1 {
                s += &format!(" ×{targets} targets");
            }
            if *pierce > 0 {
                s += &format!(" pierce {pierce}");
            }
            for c in conditions {
                s += &format!(" {}", c.name());
            }
            if let Some(c) = consume {
                s += &format!(" (consume {}: +{})", c.element.name(), c.attack);
            }
            s
        }
        Effect::Heal { value, range } => {
            if *range > 0 {
                format!("heal {value} range {range}")
            } else {
                format!("heal {value} self")
            }
        }
        Effect::Shield(n) => format!("shield {n}"),
        Effect::Infuse(e) => format!("infuse {}", e.name()),
        Effect::SelfCondition(c) => c.name().to_string(),
    }
}

fn half_words(effects: &[Effect], lost: bool) -> String {
    let mut s = effects
        .iter()
        .map(effect_words)
        .collect::<Vec<_>>()
        .join(", ");
    if lost {
        s += " (lost)";
    }
    s
}

fn card_words(c: &HeroCard) -> String {
    format!(
        "{} [{}] — top: {} · bottom: {}",
        c.name,
        c.initiative,
        half_words(&c.top.effects, c.top.lost),
        half_words(&c.bottom.effects, c.bottom.lost)
    )
}

#[expect(
    clippy::too_many_arguments,
    reason = "a Bevy system takes one parameter per resource, query and message it uses"
)]
pub fn panels(
    mut contexts: EguiContexts,
    table: Res<Table>,
    hovered: Res<Hovered>,
    game: Res<CoreGame>,
    shown: Res<Shown>,
    record: Res<FoeTurnRecord>,
    mut driver: ResMut<Driver>,
    mut seats: ResMut<Seats>,
    mut gate: ResMut<Gate>,
    mut intent: ResMut<Intent>,
    mut acts: MessageWriter<Act>,
    mut controls: MessageWriter<Control>,
    mut ui_state: Local<PanelState>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let s = &game.0.state;
    if ui_state.save_path.is_empty() {
        ui_state.save_path = "saves/game.ron".into();
    }

    // ----- menu -----
    egui::Window::new("menu")
        .title_bar(false)
        .resizable(false)
        .anchor(egui::Align2::LEFT_TOP, egui::vec2(8.0, 8.0))
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                if ui.button("⟲ Undo").on_hover_text("Ctrl+Z").clicked() {
                    controls.write(Control::Undo);
                }
                if ui.button("⟳ Redo").on_hover_text("Ctrl+Y").clicked() {
                    controls.write(Control::Redo);
                }
                ui.toggle_value(&mut ui_state.show_history, "History");
            });
            ui.horizontal(|ui| {
                ui.add(egui::TextEdit::singleline(&mut ui_state.save_path).desired_width(130.0));
                if ui.button("Save").clicked() {
                    controls.write(Control::Save(ui_state.save_path.clone().into()));
                }
                if ui.button("Load").clicked() {
                    controls.write(Control::Load(ui_state.save_path.clone().into()));
                }
            });
            ui.horizontal(|ui| {
                if ui.button("Load autosave").clicked() {
                    controls.write(Control::Load(autosave_path()));
                }
                egui::ComboBox::from_id_salt("scenario")
                    .selected_text("New game…")
                    .show_ui(ui, |ui| {
                        for f in scenario_files() {
                            if ui
                                .selectable_label(false, f.display().to_string())
                                .clicked()
                            {
                                controls.write(Control::NewGame(f));
                            }
                        }
                    });
            });
        });

    // ----- banner -----
    let current = seats.current(s);
    egui::Window::new("banner")
        .title_bar(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 8.0))
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                ui.label(egui::RichText::new(&table.title).strong().size(16.0));
                ui.separator();
                ui.label(format!("Round {}", table.round.max(1)));
                ui.separator();
                let colour = table
                    .active
                    .and_then(|id| table.figure(id))
                    .map_or(egui::Color32::WHITE, |f| {
                        egui_colour(side_colour(f.side, f.tint))
                    });
                ui.colored_label(colour, egui::RichText::new(&table.phase).strong());
                if let Some(p) = current.filter(|_| seats.players > 1) {
                    ui.separator();
                    ui.label(
                        egui::RichText::new(format!("Player {p}"))
                            .strong()
                            .color(egui::Color32::from_rgb(255, 220, 120)),
                    );
                }
            });
            if let Some((m, _)) = &driver.message {
                ui.colored_label(egui::Color32::from_rgb(255, 170, 90), m);
            }
        });

    // ----- hot-seat setup -----
    if !seats.ready {
        egui::Window::new("Players")
            .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
            .resizable(false)
            .collapsible(false)
            .show(ctx, |ui| {
                ui.horizontal(|ui| {
                    ui.label("Players at the table:");
                    ui.add(egui::DragValue::new(&mut seats.players).range(1..=4));
                });
                let players = seats.players;
                for (h, spec) in s.scenario.heroes.iter().enumerate() {
                    ui.horizontal(|ui| {
                        ui.label(&spec.name);
                        let o = &mut seats.owner[h];
                        *o = (*o).clamp(1, players);
                        for p in 1..=players {
                            ui.radio_value(o, p, format!("P{p}"));
                        }
                    });
                }
                if ui.button("Start").clicked() {
                    seats.ready = true;
                }
            });
        return Ok(());
    }

    // ----- secret card choice with hand-off -----
    if s.phase == Phase::CardSelection && s.pending.is_none() && !driver.autoplay {
        if let Some(p) = seats.next_chooser(s) {
            if gate.open_for != Some(p) && seats.players > 1 {
                egui::Window::new("hand-off")
                    .title_bar(false)
                    .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
                    .resizable(false)
                    .show(ctx, |ui| {
                        ui.label(
                            egui::RichText::new(format!("Pass the screen to Player {p}"))
                                .size(22.0)
                                .strong(),
                        );
                        ui.label("Card choices stay secret until everyone has chosen.");
                        if ui
                            .button(egui::RichText::new(format!("I am Player {p}")).size(16.0))
                            .clicked()
                        {
                            gate.open_for = Some(p);
                        }
                    });
            } else {
                card_choice(ctx, s, &seats, p, &mut ui_state, &mut acts);
            }
        }
    } else {
        gate.open_for = None;
    }

    // ----- round end: short rests -----
    if s.phase == Phase::RoundEnd && s.pending.is_none() && !driver.autoplay && players_turn(s) {
        egui::Window::new("End of the round")
            .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(8.0, -8.0))
            .resizable(false)
            .show(ctx, |ui| {
                ui.label("A hero with two or more discarded cards may short rest: one of them, drawn at random, is lost and the rest return to the hand.");
                for h in s.active_heroes().filter(|&h| s.may_short_rest(h)) {
                    let hero = &s.scenario.heroes[h];
                    let label = format!(
                        "{} short rests (Player {}, {} discarded)",
                        hero.name,
                        seats.owner_of(h),
                        s.heroes[h].discard.len()
                    );
                    if ui.button(label).clicked() {
                        acts.write(Act(Action::ShortRest { hero: h }));
                    }
                }
                if ui.button(egui::RichText::new("End the round").strong()).clicked() {
                    acts.write(Act(Action::Advance));
                }
            });
    }

    // ----- the acting hero -----
    if let Phase::HeroTurn { hero, played } = s.phase
        && s.pending.is_none()
        && !driver.autoplay
    {
        egui::Window::new(format!("{}'s turn", s.scenario.heroes[hero].name))
            .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(8.0, -8.0))
            .resizable(false)
            .show(ctx, |ui| {
                // Edit a copy: touching the resource every frame would mark it changed every frame.
                let mut edited = intent.clone();
                hero_turn(ui, s, hero, played.is_some(), &mut edited, &mut acts);
                intent.set_if_neq(edited);
            });
    } else if intent.half.is_some() {
        *intent = Intent::default();
    }

    // ----- ties -----
    if let Some(p) = &s.pending {
        egui::Window::new("The rules leave a choice")
            .anchor(egui::Align2::CENTER_BOTTOM, egui::vec2(0.0, -8.0))
            .resizable(false)
            .show(ctx, |ui| {
                match p {
                    Pending::FoeOption {
                        monster,
                        options,
                        trace,
                    } => {
                        ui.label(format!(
                            "{} has {} equal options: click a pink hex, or pick here.",
                            s.name(FigureId::Monster(*monster)),
                            options.len()
                        ));
                        for (i, o) in options.iter().enumerate() {
                            let targets: Vec<String> = o
                                .targets
                                .iter()
                                .filter_map(|h| s.figure_at(*h))
                                .map(|f| s.name(f))
                                .collect();
                            let text = format!(
                                "{}: end at {:?}{}",
                                i + 1,
                                qr(o.end),
                                if targets.is_empty() {
                                    String::new()
                                } else {
                                    format!(", attack {}", targets.join(", "))
                                }
                            );
                            if ui.button(text).clicked() {
                                acts.write(Act(Action::Choose(i)));
                            }
                        }
                        egui::CollapsingHeader::new("why").show(ui, |ui| {
                            for t in trace {
                                ui.label(t);
                            }
                        });
                    }
                    Pending::Modifier {
                        monster, result, ..
                    } => {
                        ui.label(format!(
                            "{}'s draw allows several card uses:",
                            s.name(FigureId::Monster(*monster))
                        ));
                        for (i, o) in result.options.iter().enumerate() {
                            if ui
                                .button(format!(
                                    "{}: value {} → {} damage{}",
                                    i + 1,
                                    o.value,
                                    o.damage,
                                    if o.nullified { " (null)" } else { "" }
                                ))
                                .clicked()
                            {
                                acts.write(Act(Action::Choose(i)));
                            }
                        }
                    }
                }
                if ui.button("Let the dice choose (R)").clicked() {
                    acts.write(Act(Action::Choose(s.seeded_pick(s.pending_options()))));
                }
            });
    }

    // ----- side panel: details, enemy turn, log -----
    egui::Window::new("Table")
        .anchor(egui::Align2::RIGHT_TOP, egui::vec2(-8.0, 8.0))
        .default_width(300.0)
        .resizable(false)
        .show(ctx, |ui| {
            match hovered.0 {
                Some(Target::Figure(id)) => {
                    if let Some(f) = table.figure(id) {
                        figure_details(ui, f);
                    }
                }
                Some(Target::Cell(c)) => {
                    if let Some(cell) = table.board.cell(c) {
                        ui.label(egui::RichText::new(cell.ground.name()).strong());
                        ui.label(format!("hex {c:?}"));
                    }
                    if let Some(f) = table.figure_at(c) {
                        ui.separator();
                        figure_details(ui, f);
                    }
                }
                None => {
                    ui.weak("point at a figure or a hex");
                }
            }
            ui.separator();
            ui.label(egui::RichText::new("Enemy turns").strong());
            ui.horizontal(|ui| {
                let label = if driver.paused {
                    "▶ Play"
                } else {
                    "⏸ Pause"
                };
                if ui.button(label).on_hover_text("Space").clicked() {
                    driver.paused = !driver.paused;
                }
                if ui.button("Step").on_hover_text(".").clicked() {
                    driver.step = true;
                }
                ui.add(
                    egui::Slider::new(&mut driver.speed, 0.25..=4.0)
                        .text("speed")
                        .logarithmic(true),
                );
            });
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
                .clicked()
            {
                controls.write(Control::ReplayFoeTurn);
            }
            next_attack_odds(ui, s);
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
            ui.separator();
            ui.label(egui::RichText::new("Log").strong());
            // Card picks stay hidden until the round's cards are revealed together.
            let hide_from = if s.phase == Phase::CardSelection {
                table.log.iter().rposition(|l| l.starts_with("──"))
            } else {
                None
            };
            egui::ScrollArea::vertical()
                .id_salt("log")
                .max_height(200.0)
                .stick_to_bottom(true)
                .show(ui, |ui| {
                    for (i, line) in table.log.iter().enumerate() {
                        if hide_from.is_some_and(|h| i > h) {
                            ui.weak("(a secret card choice)");
                        } else {
                            ui.label(line);
                        }
                    }
                });
        });

    // ----- history: click to go back to any action -----
    if ui_state.show_history {
        egui::Window::new("History")
            .anchor(egui::Align2::LEFT_TOP, egui::vec2(8.0, 120.0))
            .default_height(300.0)
            .show(ctx, |ui| {
                egui::ScrollArea::vertical()
                    .max_height(320.0)
                    .show(ui, |ui| {
                        if ui
                            .selectable_label(game.0.cursor == 0, "0 · start")
                            .clicked()
                        {
                            controls.write(Control::JumpTo(0));
                        }
                        for (i, a) in game.0.log.iter().enumerate() {
                            let undone = i >= game.0.cursor;
                            let text = format!("{} · {}", i + 1, action_words(s, a));
                            let text = if undone {
                                egui::RichText::new(text).weak().italics()
                            } else {
                                egui::RichText::new(text)
                            };
                            if ui.selectable_label(game.0.cursor == i + 1, text).clicked() {
                                controls.write(Control::JumpTo(i + 1));
                            }
                        }
                    });
            });
    }

    if s.phase.is_over() {
        egui::Window::new("end")
            .title_bar(false)
            .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
            .resizable(false)
            .show(ctx, |ui| {
                let text = if s.phase == Phase::Victory {
                    "Victory!"
                } else {
                    "Defeat"
                };
                ui.label(egui::RichText::new(text).size(32.0).strong());
                ui.label("Undo to try again, or pick a new game in the menu.");
            });
    }
    Ok(())
}

fn action_words(s: &State, a: &Action) -> String {
    match a {
        Action::Advance => "next step".into(),
        Action::SelectCards { hero, .. } => {
            format!("{} picks cards", s.scenario.heroes[*hero].name)
        }
        Action::LongRest { hero, .. } => format!("{} rests", s.scenario.heroes[*hero].name),
        Action::Play { card, half, .. } => format!(
            "card {card} {}",
            if *half == Half::Top { "top" } else { "bottom" }
        ),
        Action::ShortRest { hero } => format!("{} short rests", s.scenario.heroes[*hero].name),
        Action::Choose(i) => format!("tie → option {}", i + 1),
    }
}

fn card_choice(
    ctx: &egui::Context,
    s: &State,
    seats: &Seats,
    player: u32,
    st: &mut PanelState,
    acts: &mut MessageWriter<Act>,
) {
    if st.picks.len() < s.heroes.len() {
        st.picks.resize(s.heroes.len(), Vec::new());
    }
    let title = if seats.players > 1 {
        format!("Player {player}: choose two cards per hero")
    } else {
        "Choose two cards per hero".to_string()
    };
    egui::Window::new(title)
        .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(8.0, -8.0))
        .resizable(false)
        .show(ctx, |ui| {
            for h in s.active_heroes().filter(|&h| seats.owner_of(h) == player) {
                let x = &s.heroes[h];
                if x.selected.is_some() || x.long_rest.is_some() {
                    continue;
                }
                let spec = &s.scenario.heroes[h];
                ui.label(
                    egui::RichText::new(format!(
                        "{} — the first card picked leads (sets initiative)",
                        spec.name
                    ))
                    .strong(),
                );
                for &c in &x.hand {
                    let pos = st.picks[h].iter().position(|&p| p == c);
                    let mark = match pos {
                        Some(0) => "① ",
                        Some(_) => "② ",
                        None => "   ",
                    };
                    if ui
                        .selectable_label(
                            pos.is_some(),
                            format!("{mark}{}", card_words(&spec.cards[c])),
                        )
                        .clicked()
                    {
                        match pos {
                            Some(i) => {
                                st.picks[h].remove(i);
                            }
                            None if st.picks[h].len() < 2 => st.picks[h].push(c),
                            None => {}
                        }
                    }
                }
                ui.horizontal(|ui| {
                    let ready = st.picks[h].len() == 2;
                    if ui
                        .add_enabled(ready, egui::Button::new("Confirm cards"))
                        .clicked()
                    {
                        acts.write(Act(Action::SelectCards {
                            hero: h,
                            leading: st.picks[h][0],
                            other: st.picks[h][1],
                        }));
                        st.picks[h].clear();
                    }
                    if x.discard.len() >= 2
                        && ui
                            .button("Long rest")
                            .on_hover_text(
                                "initiative 99: heal 2, recover the discard, lose one card",
                            )
                            .clicked()
                    {
                        acts.write(Act(Action::LongRest {
                            hero: h,
                            lose: x.discard[0],
                        }));
                    }
                });
                ui.separator();
            }
        });
}

fn hero_turn(
    ui: &mut egui::Ui,
    s: &State,
    hero: usize,
    one_played: bool,
    intent: &mut Intent,
    acts: &mut MessageWriter<Act>,
) {
    let x = &s.heroes[hero];
    let spec = &s.scenario.heroes[hero];
    ui.label(if one_played {
        "Play the other half of the other card."
    } else {
        "Play a top half of one card and a bottom half of the other."
    });
    if let Some(sel) = x.selected {
        for c in sel {
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
                let chosen = intent.half == Some((c, half, basic));
                let label = format!("{} {words}", if half == Half::Top { "▲" } else { "▼" });
                if ui.selectable_label(chosen, label).clicked() {
                    *intent = Intent {
                        half: Some((c, half, basic)),
                        ..Intent::default()
                    };
                }
            }
        }
    }
    if let Some((card, half, basic)) = intent.half {
        ui.separator();
        let effects = s.half_effects(hero, card, half, basic);
        let mut hints = Vec::new();
        if let Some((n, _)) = super::orders::movement(&effects) {
            hints.push(format!("click a blue hex to move (up to {n})"));
        }
        if let Some((_, t)) = super::orders::attack(&effects) {
            hints.push(format!(
                "click up to {t} foe(s) to attack ({} chosen)",
                intent.targets.len()
            ));
        }
        for h in hints {
            ui.weak(h);
        }
        ui.horizontal(|ui| {
            if ui.button(egui::RichText::new("Play").strong()).clicked()
                && let Some(a) = intent.action()
            {
                acts.write(Act(a));
                *intent = Intent::default();
            }
            if ui.button("Cancel").clicked() {
                *intent = Intent::default();
            }
        });
    }
    ui.separator();
    if ui
        .button("End turn")
        .on_hover_text("skip what is left of this turn")
        .clicked()
    {
        acts.write(Act(Action::Advance));
        *intent = Intent::default();
    }
}

/// The exact damage odds of the acting foe's planned attack on its first target, as a histogram.
fn next_attack_odds(ui: &mut egui::Ui, s: &State) {
    let (Phase::FoeTurn { monster, .. }, Some(plan)) = (s.phase, &s.plan) else {
        return;
    };
    let Some(target) = plan.targets.first().and_then(|h| s.figure_at(*h)) else {
        return;
    };
    let me = FigureId::Monster(monster);
    // Advantage and disadvantage from the attacker's own conditions, as the draw rules count them.
    let mode = match (
        s.has(me, Condition::Strengthen),
        s.has(me, Condition::Muddle),
    ) {
        (true, false) => Mode::Advantage,
        (false, true) => Mode::Disadvantage,
        _ => Mode::Normal,
    };
    let Ok(o) = odds(
        &s.monster_deck.draw_pile,
        plan.attack.max(0) as u32,
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
    let max = o
        .distribution
        .values()
        .map(|p| p.to_f64())
        .fold(0.0, f64::max)
        .max(1e-9);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(260.0, 70.0), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let n = o.distribution.len().max(1) as f32;
    let w = rect.width() / n;
    for (i, (dmg, p)) in o.distribution.iter().enumerate() {
        let h = (p.to_f64() / max) as f32 * (rect.height() - 14.0);
        let x = rect.left() + i as f32 * w;
        let bar = egui::Rect::from_min_max(
            egui::pos2(x + 2.0, rect.bottom() - 12.0 - h),
            egui::pos2(x + w - 2.0, rect.bottom() - 12.0),
        );
        painter.rect_filled(bar, 2.0, egui::Color32::from_rgb(200, 80, 60));
        painter.text(
            egui::pos2(x + w / 2.0, rect.bottom()),
            egui::Align2::CENTER_BOTTOM,
            dmg.to_string(),
            egui::FontId::proportional(10.0),
            egui::Color32::LIGHT_GRAY,
        );
        painter.text(
            bar.center_top(),
            egui::Align2::CENTER_BOTTOM,
            format!("{:.0}%", p.to_f64() * 100.0),
            egui::FontId::proportional(9.0),
            egui::Color32::WHITE,
        );
    }
}
