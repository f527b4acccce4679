//! The heroes' moves on the shared table, for a module that has no way of its own to build them:
//! the cells the heroes can act on light up and a click plays the action there; a window lists
//! them as buttons, one per legal action, with the autopilot a click away; the options of a tie
//! light up pink. Pointing at an attack shows its odds before anyone rolls.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use foehold_core::game::Game;
use foehold_core::rules::view::{Odds, Side};
use foehold_core::rules::{Present, Seat, ToMove};
use foehold_loop::{CoreGame, SubmitAction};

use super::{Pace, Seats};
use crate::app::board::{CellMarks, Mark};
use crate::app::dock::{Dock, Slot};
use crate::app::picking::{Hovered, Picked, Target};
use crate::app::table::Table;
use crate::app::tag::Tagged;
use crate::app::view::CellKey;
use crate::modules::Module;

/// A cell clicked that several of the heroes' actions are about: the moves window lists them.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ClickedCell(pub Option<CellKey>);

/// A hero whose turn the autopilot plays to its end, and the point of the log it last moved at.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct AutoTurn {
    pub hero: Option<usize>,
    at: Option<usize>,
}

impl AutoTurn {
    /// The autopilot plays hero `h`'s turn to its end.
    pub fn play(h: usize) -> AutoTurn {
        AutoTurn {
            hero: Some(h),
            at: None,
        }
    }
}

/// Plays the autopilot's next action for the hero it was asked to play, one action per step of
/// the log, until that hero's turn is over (the rules' own steps and rolls in between are the
/// rules'; a tie stays the players').
pub fn autopilot_turn<R: Module>(
    game: Res<CoreGame<R>>,
    mut auto: ResMut<AutoTurn>,
    mut submit: MessageWriter<SubmitAction<R>>,
) {
    let Some(hero) = auto.hero else {
        return;
    };
    let g = &game.0;
    // Another game, or an undo past the autopilot's last move: the players take over again.
    if game.is_added() || auto.at.is_some_and(|at| g.cursor < at) {
        *auto = AutoTurn::default();
        return;
    }
    match g.to_move() {
        ToMove::Heroes(heroes) if heroes.contains(&hero) => {
            if auto.at != Some(g.cursor) {
                match R::autopilot(&g.state, hero) {
                    Some(a) => {
                        submit.write(SubmitAction(a));
                        auto.at = Some(g.cursor);
                    }
                    None => *auto = AutoTurn::default(),
                }
            }
        }
        ToMove::Heroes(_) | ToMove::Over { .. } => *auto = AutoTurn::default(),
        // A roll or a tie inside the hero's turn is part of it; once the table shows another
        // figure's turn (hero figures come first, in hero order), the hero's turn is over.
        ToMove::Rules { .. } | ToMove::Chance { .. } | ToMove::Tie { .. } => {
            if R::view(&g.state).active != u32::try_from(hero).ok() {
                *auto = AutoTurn::default();
            }
        }
    }
}

/// How many options a tie leaves (none when nothing ties).
fn tie_options<S>(to_move: &ToMove<S>) -> usize {
    match to_move {
        ToMove::Tie { options } => *options,
        _ => 0,
    }
}

/// The hero whose turn it is, if it is one hero's.
fn acting_hero<R: Present>(game: &Game<R>) -> Option<usize> {
    match game.to_move() {
        ToMove::Heroes(heroes) => heroes.first().copied(),
        _ => None,
    }
}

/// The odds of the roll an action would start, worked out on a copy of the game.
pub fn odds_of<R: Present>(s: &R::State, a: R::Action) -> Option<Odds> {
    let mut copy = s.clone();
    R::apply(&mut copy, a).ok()?;
    R::view(&copy).odds
}

/// Before a hero rolls: the odds of the attack on the cell under the pointer go to the dice tray.
pub fn preview<R: Module>(
    hovered: Res<Hovered>,
    table: Res<Table>,
    game: Res<CoreGame<R>>,
    seats: Res<Seats>,
    mut showing: ResMut<super::Showing>,
) {
    if !hovered.is_changed() && !game.is_changed() {
        return;
    }
    showing.preview = hovered.0.and_then(|t| cell_of(&table, t)).and_then(|cell| {
        actions_at(&game.0, &seats, cell)
            .into_iter()
            .find_map(|a| odds_of::<R>(&game.0.state, a))
    });
}

/// The cell a pick is about: the cell itself, or where the figure stands.
fn cell_of(table: &Table, target: Target) -> Option<CellKey> {
    match target {
        Target::Cell(c) => Some(c),
        Target::Figure(id) => table.figure(id).map(|f| f.cell),
    }
}

/// The players' legal actions about one cell.
fn actions_at<R: Present>(game: &Game<R>, seats: &Seats, cell: CellKey) -> Vec<R::Action> {
    actions_on_cells(game, seats)
        .into_iter()
        .filter(|(c, _)| *c == cell)
        .map(|(_, a)| a)
        .collect()
}

/// The players' legal actions that are about a cell: where a hero moves, whom it strikes, or
/// where each outcome of a tie the table breaks ends. Online, only this screen's heroes act here;
/// a tie's outcomes light up on every screen.
fn actions_on_cells<R: Present>(game: &Game<R>, here: &Seats) -> Vec<(CellKey, R::Action)> {
    let seats: Vec<Seat> = match game.to_move() {
        ToMove::Heroes(heroes) => heroes
            .into_iter()
            .filter(|&h| here.plays_here(here.owner_of(h)))
            .map(Seat::Hero)
            .collect(),
        ToMove::Tie { .. } => vec![Seat::Table],
        _ => return Vec::new(),
    };
    seats
        .into_iter()
        .flat_map(|seat| game.legal_actions(seat))
        .filter_map(|a| R::action_cell(&game.state, &a).map(|c| (c, a)))
        .collect()
}

/// A click on a cell (or on the figure standing there) plays the heroes' one action about it, or
/// lists them in the moves window when there are several.
pub fn click_cells<R: Module>(
    mut picks: MessageReader<Picked>,
    game: Res<CoreGame<R>>,
    table: Res<Table>,
    seats: Res<Seats>,
    mut clicked: ResMut<ClickedCell>,
    mut pace: ResMut<Pace>,
    mut submit: MessageWriter<SubmitAction<R>>,
) {
    for Picked(target) in picks.read() {
        let Some(cell) = cell_of(&table, *target) else {
            continue;
        };
        let mut here = actions_at(&game.0, &seats, cell);
        clicked.0 = None;
        // A click on another player's hero while one hero takes its turn: say whose turn it is.
        let names = table.hero_names();
        let clicked_hero = match *target {
            Target::Figure(id) => table
                .figures
                .iter()
                .filter(|f| f.side == Side::Hero)
                .position(|f| f.id == id),
            Target::Cell(_) => None,
        };
        if let (Some(h), Some(acting)) = (clicked_hero, acting_hero(&game.0))
            && h != acting
            && here.is_empty()
            && let (Some(name), Some(acting_name)) = (names.get(h), names.get(acting))
        {
            pace.say(seats.not_now(name, h, acting_name, acting));
            continue;
        }
        match here.len() {
            0 => {
                let words = if matches!(game.0.to_move(), ToMove::Tie { .. }) {
                    "no option of the tie is about that cell: click a pink one"
                } else {
                    "the heroes have nothing to do there"
                };
                pace.say(words);
            }
            1 => {
                submit.write(SubmitAction(here.remove(0)));
            }
            _ => clicked.0 = Some(cell),
        }
    }
}

/// The cells the heroes can act on light up, as a hero's reach does when a module builds it; the
/// outcomes of a tie light up pink, as there.
pub fn mark_actions<R: Module>(
    game: Res<CoreGame<R>>,
    seats: Res<Seats>,
    mut marks: ResMut<CellMarks>,
) {
    if !game.is_changed() && !seats.is_changed() {
        return;
    }
    let mark = if matches!(game.0.to_move(), ToMove::Tie { .. }) {
        Mark::Tie
    } else {
        Mark::Reach
    };
    let cells: Vec<(CellKey, Mark)> = actions_on_cells(&game.0, &seats)
        .into_iter()
        .map(|(c, _)| (c, mark))
        .collect();
    marks.set("actions", cells);
}

/// The players' moves as buttons: each hero's legal actions, or the options of a tie.
#[expect(
    clippy::too_many_arguments,
    reason = "a Bevy system takes one parameter per resource, query and message it uses"
)]
pub fn moves<R: Module>(
    mut contexts: EguiContexts,
    game: Res<CoreGame<R>>,
    table: Res<Table>,
    seating: Res<Seats>,
    mut clicked: ResMut<ClickedCell>,
    mut submit: MessageWriter<SubmitAction<R>>,
    mut controls: MessageWriter<super::Control>,
    mut dock: ResMut<Dock>,
    settings: Res<foehold_loop::LoopSettings>,
    mut auto: ResMut<AutoTurn>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let s = &game.0.state;
    let to_move = game.0.to_move();
    // A draw the players make at their table has its own window in this place.
    if settings.table_draws && matches!(to_move, ToMove::Chance { .. }) {
        return Ok(());
    }
    let tie = matches!(to_move, ToMove::Tie { .. });
    let (title, seats) = match &to_move {
        // Online, only this screen's heroes: the others are played on other machines.
        ToMove::Heroes(heroes) => (
            "Heroes' moves",
            heroes
                .iter()
                .copied()
                .filter(|&h| seating.plays_here(seating.owner_of(h)))
                .map(Seat::Hero)
                .collect(),
        ),
        ToMove::Tie { .. } => ("The players break a tie", vec![Seat::Table]),
        _ => ("Moves", Vec::new()),
    };
    let window = egui::Window::new(title).id(egui::Id::new("moves"));
    dock.show(ctx, Slot::Turn, window, |ui| {
        if seats.is_empty() {
            match &to_move {
                ToMove::Heroes(heroes) => {
                    let mut players: Vec<u32> =
                        heroes.iter().map(|&h| seating.owner_of(h)).collect();
                    players.sort_unstable();
                    players.dedup();
                    let names: Vec<String> =
                        players.iter().map(|p| format!("Player {p}")).collect();
                    ui.label(format!("Waiting for {}.", names.join(" and ")))
                        .tagged("moves:waiting");
                }
                _ => {
                    ui.label("The rules play: wait, or press . to step.");
                }
            }
            return;
        }
        // The reason comes before the options, so the players know what they are breaking.
        if tie && let Some(why) = &table.tie {
            ui.label(egui::RichText::new(why).strong())
                .tagged("tie:why");
        }
        // A table that rolls its own dice is asked for the roll's outcome (a click on the option
        // it gives) rather than shown a die of the program's.
        let own_dice = tie && game.0.legal_actions(Seat::Table).len() > tie_options(&to_move);
        if tie && settings.table_draws && !own_dice {
            ui.label(
                "Rolling at your table: roll for one of the options and click the one it gives.",
            )
            .tagged("tie:roll-at-table");
        } else if tie
            && ui
                .button("Let the dice choose")
                .tagged("tie:dice")
                .on_hover_text("R")
                .clicked()
        {
            controls.write(super::Control::Dice);
        }
        if let Some(h) = acting_hero(&game.0) {
            let name = table.hero_names().get(h).copied().unwrap_or("a hero");
            ui.label(
                egui::RichText::new(format!("Player {}: {name}'s turn", seating.owner_of(h)))
                    .strong()
                    .size(16.0),
            )
            .tagged("moves:turn");
        }
        ui.weak("Click a lit cell to act there (pink: a tie's outcome), or pick below.");
        if let Some(cell) = clicked.0 {
            ui.label(egui::RichText::new(format!("At ({}, {}):", cell.0, cell.1)).strong());
            for a in actions_at(&game.0, &seating, cell) {
                if action_button::<R>(ui, s, a, "here", &mut submit) {
                    clicked.0 = None;
                }
            }
            ui.separator();
        }
        egui::ScrollArea::vertical()
            .max_height(520.0)
            .show(ui, |ui| {
                for seat in seats {
                    if let Seat::Hero(h) = seat {
                        let can = R::autopilot(s, h).is_some();
                        let playing = auto.hero == Some(h);
                        ui.separator();
                        let label = if playing {
                            "Stop the autopilot"
                        } else {
                            "Let the autopilot play this turn"
                        };
                        if ui
                            .add_enabled(can || playing, egui::Button::new(label))
                            .tagged(format!("moves:autopilot:{h}"))
                            .clicked()
                        {
                            *auto = if playing {
                                AutoTurn::default()
                            } else {
                                AutoTurn::play(h)
                            };
                        }
                    }
                    // Actions of no one cell first (ending the turn stays in view), then those
                    // about a figure (strikes, trades), then the walks, folded when many: the lit
                    // cells offer them too.
                    let (mut plain, mut figures, mut walks) = (Vec::new(), Vec::new(), Vec::new());
                    for a in game.0.legal_actions(seat) {
                        match R::action_cell(s, &a) {
                            None => plain.push(a),
                            Some(c) if table.figure_at(c).is_some() => figures.push(a),
                            Some(_) => walks.push(a),
                        }
                    }
                    for a in plain.into_iter().chain(figures) {
                        action_button::<R>(ui, s, a, "action", &mut submit);
                    }
                    if matches!(seat, Seat::Hero(_)) && walks.len() > FOLD {
                        egui::CollapsingHeader::new(format!(
                            "{} more, about the lit cells",
                            walks.len()
                        ))
                        .id_salt(format!("{seat:?}"))
                        .show(ui, |ui| {
                            for a in walks {
                                action_button::<R>(ui, s, a, "action", &mut submit);
                            }
                        });
                    } else {
                        for a in walks {
                            action_button::<R>(ui, s, a, "action", &mut submit);
                        }
                    }
                }
            });
    });
    Ok(())
}

/// More walks than this are folded in the moves window.
const FOLD: usize = 8;

/// One legal action as a button (tagged `tag:label`); pointing at an attack shows its odds before
/// anyone rolls, in the list and among a clicked cell's actions alike. True when clicked.
fn action_button<R: Present>(
    ui: &mut egui::Ui,
    s: &R::State,
    a: R::Action,
    tag: &str,
    submit: &mut MessageWriter<SubmitAction<R>>,
) -> bool {
    let label = R::action_label(s, &a);
    let mut button = ui.button(&label).tagged(format!("{tag}:{label}"));
    if button.hovered()
        && let Some(odds) = odds_of::<R>(s, a.clone())
    {
        button = button.on_hover_ui(|ui| {
            crate::app::ui::histogram(ui, &odds, None);
        });
    }
    let clicked = button.clicked();
    if clicked {
        submit.write(SubmitAction(a));
    }
    clicked
}
