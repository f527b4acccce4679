//! The table for a rule module whose own windows it does not have yet (Brimstone-style fights,
//! goal-priority scenarios): the board, minis and tokens drawn from the module's view; the rules'
//! steps and dice applied at a pace people can follow, with the log beside it (Space pauses, `.`
//! steps); the heroes' moves offered on the board (the cells they can act on light up, a click
//! plays the action there) and as buttons, one per legal action, with the autopilot a click away;
//! the players' ties as buttons; undo and redo; what each step shows (dice, odds, picks, a foe's
//! option walk, aims and paths: [`super::shows`]). With `--autoplay` the autopilot and the seeded
//! pick play everything.

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::sync::Arc;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass, egui};
use foehold_core::game::Game;
use foehold_core::rules::view::{Odds, Show};
use foehold_core::rules::{Present, Seat, TieBreaker, ToMove};
use foehold_loop::{
    CoreGame, GameEvent, GameLoopPlugin, LoopSettings, LoopSystems, StepRequest, SubmitAction,
};

use super::Options;
use super::board::{CellMarks, Mark};
use super::hotseat::Seats;
use super::minis::{PendingPaths, WalkSpeed};
use super::picking::{Hovered, Picked, Target};
use super::probe::Tagged;
use super::shows::Showing;
use super::table::Table;
use super::view::{BoardView, CellKey, Side};
use super::windows::{NewGameOpen, Problem, StartScenario};

mod history;
mod keep;
use crate::cli::modules::ForRules;

/// Seconds between two steps of the game.
const PACE: f32 = 0.4;

/// The watched game's log and pacing.
#[derive(Resource, Default)]
struct Watching {
    log: Vec<String>,
    since_step: f32,
    paused: bool,
    /// Asked for by the buttons, done by [`rewind`].
    undo: bool,
    redo: bool,
    /// The game went back or forth: the table shows it again.
    rewound: bool,
    /// A cell clicked that several of the heroes' actions are about: the moves window lists them.
    cell: Option<CellKey>,
    /// A word for the players (a click that does nothing), with seconds left on screen.
    message: Option<(String, f32)>,
    /// One step asked for by the Step button.
    step: bool,
    /// The log position the History window asked to go to, done by [`rewind`].
    jump: Option<usize>,
    /// How fast the rules play.
    speed: Speed,
}

/// How many times the usual pace the rules play at.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Speed(f32);

impl Default for Speed {
    fn default() -> Self {
        Speed(1.0)
    }
}

impl Watching {
    /// Tells the players something for a few seconds.
    fn say(&mut self, words: impl Into<String>) {
        self.message = Some((words.into(), 4.0));
    }
}

/// The state the table showed last: what the next actions show is told from it.
#[derive(Resource)]
struct Seen<R: Present>(R::State);

/// Opens the table on a scenario of rules `R` (see [`ForRules`]).
pub struct Watch<'a> {
    /// The table's options.
    pub options: Options,
    /// The scenario file's name, for errors.
    pub file: &'a str,
    /// The scenario file's text.
    pub text: &'a str,
}

impl ForRules for Watch<'_> {
    type Out = ExitCode;

    fn run<R: Present>(self) -> ExitCode {
        let Watch {
            options,
            file,
            text,
        } = self;
        let scenario = match R::parse_scenario(file, text) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        };
        let unattended = options.autoplay || options.bench_frames > 0;
        let ties = if unattended {
            TieBreaker::Seeded
        } else {
            TieBreaker::Table
        };
        let game = match Game::<R>::new(Arc::new(scenario), file, options.seed, ties) {
            Ok(g) => g.with_scenario_text(text),
            Err(e) => {
                eprintln!("{file}: {e}");
                return ExitCode::from(2);
            }
        };
        let view = R::view(&game.state);
        let seen = Seen::<R>(game.state.clone());
        // The module suggests who plays which hero; the Players window settles it before play.
        let mut seats = seats_of::<R>(&game.state);
        // Unattended runs (screenshots, autoplay) skip the Players window, as on the hex table.
        seats.ready = unattended || options.screenshot.is_some();
        let title = R::scenario_name(&game.scenario).to_string();
        let mut table = Table::of_view(title.clone(), BoardView::of(&view));
        table.show(view);
        let mut app = App::new();
        app.add_plugins(super::window_plugins(&title, &options))
            .add_plugins((MeshPickingPlugin, EguiPlugin::default()))
            .insert_resource(ClearColor(super::CLEAR))
            .insert_resource(options)
            .insert_resource(table)
            .insert_resource(CoreGame(game))
            .insert_resource(seen)
            .insert_resource(seats)
            // Unattended, heroes by the autopilot and ties by the seeded pick; else the players'.
            // The rules' steps and the dice go one per request either way.
            .insert_resource(LoopSettings {
                seeded_ties: unattended,
                autopilot_heroes: unattended,
                auto_advance: false,
            })
            .init_resource::<Watching>()
            .init_resource::<super::play::Shown>()
            .add_plugins(GameLoopPlugin::<R>::default())
            .add_plugins((
                super::board::plugin,
                super::minis::plugin,
                super::tokens::plugin,
                super::camera::plugin,
                super::picking::plugin,
                super::ui::plugin,
                super::pointer::plugin,
                super::screenshot::plugin,
                super::probe::writer,
                super::shows::plugin,
            ))
            .add_plugins(super::windows::choosing)
            .insert_resource(keep::Keeping::new::<R>())
            .init_resource::<history::History<R>>()
            .add_systems(Update, (keep::keep::<R>, start).after(LoopSystems::Sync))
            .add_systems(Last, probe_game::<R>)
            .add_systems(
                Update,
                (rewind::<R>, pace).chain().before(LoopSystems::Input),
            )
            .add_systems(
                Update,
                (follow::<R>, seat_figures).chain().after(LoopSystems::Sync),
            )
            .add_systems(
                Update,
                (click_cells::<R>, mark_actions::<R>, preview::<R>)
                    .chain()
                    .before(LoopSystems::Input),
            )
            .add_systems(
                EguiPrimaryContextPass,
                (
                    windows::<R>,
                    moves::<R>.run_if(super::windows::seated),
                    players.run_if(not(super::windows::seated)),
                    super::shows::windows,
                    end::<R>.run_if(super::windows::seated),
                    history::history::<R>,
                    super::windows::new_game,
                    super::windows::problem,
                )
                    .chain()
                    .after(super::ui::Drawn),
            );
        match app.run() {
            AppExit::Success => ExitCode::SUCCESS,
            AppExit::Error(code) => ExitCode::from(code.get()),
        }
    }
}

/// The seats the module suggests for the heroes of `state` (who plays which), not yet confirmed.
fn seats_of<R: Present>(state: &R::State) -> Seats {
    Seats::of_owners(
        R::view(state)
            .figures
            .iter()
            .filter(|f| f.side == Side::Hero)
            .map(|f| f.owner.map_or(1, u32::from))
            .collect(),
    )
}

/// The table reopens on the scenario chosen in the New game window (whatever its rules).
fn start(
    mut starts: MessageReader<StartScenario>,
    options: Res<Options>,
    mut problem: ResMut<Problem>,
) {
    for StartScenario(path) in starts.read() {
        problem.0 = Some(super::reopen_on(path, &options));
    }
}

/// Victory or defeat, with the way back one move or on to another game.
fn end<R: Present>(
    mut contexts: EguiContexts,
    game: Res<CoreGame<R>>,
    mut watching: ResMut<Watching>,
    mut new_game: ResMut<NewGameOpen>,
) -> Result {
    let ToMove::Over { won } = game.0.to_move() else {
        return Ok(());
    };
    let choice = super::windows::end_screen(contexts.ctx_mut()?, won);
    watching.undo |= choice.undo;
    if choice.new_game {
        new_game.set_if_neq(NewGameOpen(true));
    }
    Ok(())
}

/// Asks the loop for the next step every [`PACE`] seconds, unless paused.
fn pace(
    time: Res<Time>,
    keys: Res<ButtonInput<KeyCode>>,
    seats: Res<Seats>,
    mut watching: ResMut<Watching>,
    mut steps: MessageWriter<StepRequest>,
    mut walk: ResMut<WalkSpeed>,
) {
    // Nothing plays before the players have sat down.
    if !seats.ready {
        return;
    }
    if keys.just_pressed(KeyCode::Space) {
        watching.paused = !watching.paused;
    }
    watching.since_step += time.delta_secs();
    if let Some((_, left)) = &mut watching.message {
        *left -= time.delta_secs();
        if *left <= 0.0 {
            watching.message = None;
        }
    }
    walk.0 = 3.0 * watching.speed.0;
    let step = keys.just_pressed(KeyCode::Period) || std::mem::take(&mut watching.step);
    if step || (!watching.paused && watching.since_step * watching.speed.0 >= PACE) {
        watching.since_step = 0.0;
        steps.write(StepRequest);
    }
}

/// Follows the game: the table shows the module's view after each action, the log grows, and
/// what the actions show goes to the dice tray, the windows and the board.
fn follow<R: Present>(
    game: Res<CoreGame<R>>,
    mut events: MessageReader<GameEvent<R>>,
    mut table: ResMut<Table>,
    mut watching: ResMut<Watching>,
    mut seen: ResMut<Seen<R>>,
    (mut showing, mut shown, mut paths): (
        ResMut<Showing>,
        ResMut<super::play::Shown>,
        ResMut<PendingPaths>,
    ),
) {
    let mut batch = Vec::new();
    for e in events.read() {
        watching.log.extend(e.line.clone());
        batch.push(e.event.clone());
    }
    let now = &game.0.state;
    if watching.rewound {
        watching.rewound = false;
        showing.clear(&mut shown);
        paths.0.clear();
    } else if batch.is_empty() {
        return;
    }
    let view = R::view(now);
    if !batch.is_empty() {
        let shows = R::shows(&seen.0, now, &batch);
        walk_steps(&shows, &mut paths);
        showing.take(&mut shown, shows, view.odds.as_ref());
    }
    seen.0 = now.clone();
    table.show(view);
}

/// Minis walk the steps an action showed, cell by cell, rather than gliding straight to the end.
fn walk_steps(shows: &[Show], paths: &mut PendingPaths) {
    let mut walks: BTreeMap<u32, Vec<CellKey>> = BTreeMap::new();
    for s in shows {
        if let Show::Step { figure, to, .. } = s {
            walks.entry(*figure).or_default().push(*to);
        }
    }
    paths.0.extend(walks);
}

/// Where the watched game stands, for `--probe`.
fn probe_game<R: Present>(
    game: Res<CoreGame<R>>,
    watching: Res<Watching>,
    seats: Res<Seats>,
    probe: Option<ResMut<super::probe::ProbeGame>>,
) {
    let Some(mut probe) = probe else { return };
    let g = &game.0;
    probe.0 = serde_json::json!({
        "game": {
            "phase": format!("{:?}", g.to_move()),
            "round": R::round(&g.state),
            "cursor": g.cursor, "log": g.log.len(),
        },
        "seats": {"ready": seats.ready, "players": seats.players,
                  "current": acting_hero(g).map(|h| seats.owner_of(h))},
        "message": watching.message.as_ref().map(|(m, _)| m.clone()),
        "paused": watching.paused,
    });
}

/// The hero whose turn it is, if it is one hero's.
fn acting_hero<R: Present>(game: &Game<R>) -> Option<usize> {
    match game.to_move() {
        ToMove::Heroes(heroes) => heroes.first().copied(),
        _ => None,
    }
}

/// The heroes' names in the order of their indices: the modules list hero figures first, in order.
fn hero_names(table: &Table) -> Vec<&str> {
    table
        .figures
        .iter()
        .filter(|f| f.side == Side::Hero)
        .map(|f| f.name.as_str())
        .collect()
}

/// Each hero figure shows the player the Players window seated at it.
fn seat_figures(seats: Res<Seats>, mut table: ResMut<Table>) {
    if !seats.is_changed() && !table.is_changed() {
        return;
    }
    let owners: Vec<Option<u8>> = (0..hero_names(&table).len())
        .map(|h| u8::try_from(seats.owner_of(h)).ok())
        .collect();
    let now: Vec<Option<u8>> = table
        .figures
        .iter()
        .filter(|f| f.side == Side::Hero)
        .map(|f| f.owner)
        .collect();
    // Written only when it differs: a write every frame would mark the table changed every frame.
    if owners != now {
        for (f, o) in table
            .figures
            .iter_mut()
            .filter(|f| f.side == Side::Hero)
            .zip(owners)
        {
            f.owner = o;
        }
    }
}

/// The Players window before the game: how many share the screen, who plays which hero.
fn players(mut contexts: EguiContexts, table: Res<Table>, mut seats: ResMut<Seats>) -> Result {
    let heroes = hero_names(&table);
    super::windows::seat_players(contexts.ctx_mut()?, &table.title, "", &heroes, &mut seats);
    Ok(())
}

/// The odds of the roll an action would start, worked out on a copy of the game.
fn odds_of<R: Present>(s: &R::State, a: R::Action) -> Option<Odds> {
    let mut copy = s.clone();
    R::apply(&mut copy, a).ok()?;
    R::view(&copy).odds
}

/// Before a hero rolls: the odds of the attack on the cell under the pointer go to the dice tray.
fn preview<R: Present>(
    hovered: Res<Hovered>,
    table: Res<Table>,
    game: Res<CoreGame<R>>,
    mut showing: ResMut<Showing>,
) {
    if !hovered.is_changed() && !game.is_changed() {
        return;
    }
    showing.preview = hovered.0.and_then(|t| cell_of(&table, t)).and_then(|cell| {
        actions_at(&game.0, cell)
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
fn actions_at<R: Present>(game: &Game<R>, cell: CellKey) -> Vec<R::Action> {
    actions_on_cells(game)
        .into_iter()
        .filter(|(c, _)| *c == cell)
        .map(|(_, a)| a)
        .collect()
}

/// The players' legal actions that are about a cell: where a hero moves, whom it strikes, or
/// where each outcome of a tie the table breaks ends.
fn actions_on_cells<R: Present>(game: &Game<R>) -> Vec<(CellKey, R::Action)> {
    let seats: Vec<Seat> = match game.to_move() {
        ToMove::Heroes(heroes) => heroes.into_iter().map(Seat::Hero).collect(),
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
fn click_cells<R: Present>(
    mut picks: MessageReader<Picked>,
    game: Res<CoreGame<R>>,
    table: Res<Table>,
    seats: Res<Seats>,
    mut watching: ResMut<Watching>,
    mut submit: MessageWriter<SubmitAction<R>>,
) {
    for Picked(target) in picks.read() {
        let Some(cell) = cell_of(&table, *target) else {
            continue;
        };
        let mut here = actions_at(&game.0, cell);
        watching.cell = None;
        // A click on another player's hero while one hero takes its turn: say whose turn it is.
        let names = hero_names(&table);
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
            watching.message = Some((seats.not_now(name, h, acting_name, acting), 4.0));
            continue;
        }
        match here.len() {
            0 => {
                let words = if matches!(game.0.to_move(), ToMove::Tie { .. }) {
                    "no option of the tie is about that cell: click a pink one"
                } else {
                    "the heroes have nothing to do there"
                };
                watching.message = Some((words.into(), 3.0));
            }
            1 => {
                submit.write(SubmitAction(here.remove(0)));
            }
            _ => watching.cell = Some(cell),
        }
    }
}

/// The cells the heroes can act on light up, as a hero's reach does on the Gloomhaven table; the
/// outcomes of a tie light up pink, as there.
fn mark_actions<R: Present>(game: Res<CoreGame<R>>, mut marks: ResMut<CellMarks>) {
    if !game.is_changed() {
        return;
    }
    let mark = if matches!(game.0.to_move(), ToMove::Tie { .. }) {
        Mark::Tie
    } else {
        Mark::Reach
    };
    let cells: Vec<(CellKey, Mark)> = actions_on_cells(&game.0)
        .into_iter()
        .map(|(c, _)| (c, mark))
        .collect();
    marks.set("actions", cells);
}

/// Undo and redo (buttons or Ctrl+Z / Ctrl+Y): the log is told again from the game's actions.
fn rewind<R: Present>(
    keys: Res<ButtonInput<KeyCode>>,
    mut game: ResMut<CoreGame<R>>,
    mut watching: ResMut<Watching>,
) {
    let ctrl = super::play::ctrl_held(&keys);
    let undo = watching.undo || (ctrl && keys.just_pressed(KeyCode::KeyZ));
    let redo = watching.redo || (ctrl && keys.just_pressed(KeyCode::KeyY));
    (watching.undo, watching.redo) = (false, false);
    let mut moved = (undo && game.0.undo()) || (redo && game.0.redo());
    if let Some(n) = watching.jump.take() {
        let was = game.0.cursor;
        while game.0.cursor > n && game.0.undo() {}
        while game.0.cursor < n && game.0.redo() {}
        moved |= game.0.cursor != was;
    }
    if moved {
        // Undone steps would run again at once: wait for the players to go on.
        watching.paused = true;
        watching.rewound = true;
        watching.log = game.0.log_lines();
    }
}

/// The players' moves as buttons: each hero's legal actions, or the options of a tie.
fn moves<R: Present>(
    mut contexts: EguiContexts,
    game: Res<CoreGame<R>>,
    table: Res<Table>,
    seating: Res<Seats>,
    mut watching: ResMut<Watching>,
    mut submit: MessageWriter<SubmitAction<R>>,
    (mut new_game, mut keeping, mut history): (
        ResMut<NewGameOpen>,
        ResMut<keep::Keeping>,
        ResMut<history::History<R>>,
    ),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let s = &game.0.state;
    let (title, seats) = match game.0.to_move() {
        ToMove::Heroes(heroes) => (
            "Heroes' moves",
            heroes.into_iter().map(Seat::Hero).collect(),
        ),
        ToMove::Tie { .. } => ("The players break a tie", vec![Seat::Table]),
        _ => ("Moves", Vec::new()),
    };
    egui::Window::new(title)
        .anchor(egui::Align2::LEFT_TOP, [8.0, 8.0])
        .default_width(320.0)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                watching.undo |= ui.button("⟲ Undo").tagged("menu:undo").clicked();
                watching.redo |= ui.button("⟳ Redo").tagged("menu:redo").clicked();
                if ui.button("New game…").tagged("menu:new-game").clicked() {
                    new_game.set_if_neq(NewGameOpen(true));
                }
            });
            keep::buttons(ui, &mut keeping);
            ui.toggle_value(&mut history.open, "History")
                .tagged("menu:history");
            if seats.is_empty() {
                ui.label("The rules play: wait, or press . to step.");
                return;
            }
            if let Some(h) = acting_hero(&game.0) {
                let name = hero_names(&table).get(h).copied().unwrap_or("a hero");
                ui.label(
                    egui::RichText::new(format!("Player {}: {name}'s turn", seating.owner_of(h)))
                        .strong()
                        .size(16.0),
                )
                .tagged("moves:turn");
            }
            ui.weak("Click a lit cell to act there (pink: a tie's outcome), or pick below.");
            if let Some(cell) = watching.cell {
                ui.label(egui::RichText::new(format!("At ({}, {}):", cell.0, cell.1)).strong());
                for a in actions_at(&game.0, cell) {
                    let label = R::action_label(s, &a);
                    if ui.button(&label).tagged(format!("here:{label}")).clicked() {
                        submit.write(SubmitAction(a));
                        watching.cell = None;
                    }
                }
                ui.separator();
            }
            egui::ScrollArea::vertical()
                .max_height(520.0)
                .show(ui, |ui| {
                    for seat in seats {
                        if let Seat::Hero(h) = seat {
                            let auto = R::autopilot(s, h);
                            ui.separator();
                            if ui
                                .add_enabled(
                                    auto.is_some(),
                                    egui::Button::new("Let the autopilot move"),
                                )
                                .clicked()
                                && let Some(a) = auto
                            {
                                submit.write(SubmitAction(a));
                            }
                        }
                        // Actions of no one cell first (ending the turn stays in view), then those
                        // about a figure (strikes, trades), then the walks, folded when many: the lit
                        // cells offer them too.
                        let (mut plain, mut figures, mut walks) =
                            (Vec::new(), Vec::new(), Vec::new());
                        for a in game.0.legal_actions(seat) {
                            match R::action_cell(s, &a) {
                                None => plain.push(a),
                                Some(c) if table.figure_at(c).is_some() => figures.push(a),
                                Some(_) => walks.push(a),
                            }
                        }
                        for a in plain.into_iter().chain(figures) {
                            action_button::<R>(ui, s, a, &mut submit);
                        }
                        if matches!(seat, Seat::Hero(_)) && walks.len() > FOLD {
                            egui::CollapsingHeader::new(format!(
                                "{} more, about the lit cells",
                                walks.len()
                            ))
                            .id_salt(format!("{seat:?}"))
                            .show(ui, |ui| {
                                for a in walks {
                                    action_button::<R>(ui, s, a, &mut submit);
                                }
                            });
                        } else {
                            for a in walks {
                                action_button::<R>(ui, s, a, &mut submit);
                            }
                        }
                    }
                });
        });
    Ok(())
}

/// More walks than this are folded in the moves window.
const FOLD: usize = 8;

/// One legal action as a button; pointing at an attack shows its odds before anyone rolls.
fn action_button<R: Present>(
    ui: &mut egui::Ui,
    s: &R::State,
    a: R::Action,
    submit: &mut MessageWriter<SubmitAction<R>>,
) {
    let label = R::action_label(s, &a);
    let mut button = ui.button(&label).tagged(format!("action:{label}"));
    if button.hovered()
        && let Some(odds) = odds_of::<R>(s, a.clone())
    {
        button = button.on_hover_ui(|ui| {
            super::shows::histogram(ui, &odds, None);
        });
    }
    if button.clicked() {
        submit.write(SubmitAction(a));
    }
}

/// The banner (where the game stands) and the log.
fn windows<R: Present>(
    mut contexts: EguiContexts,
    table: Res<Table>,
    game: Res<CoreGame<R>>,
    mut watching: ResMut<Watching>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // The module's banner says how a game ended; only the pause is the table's own.
    let paused = if watching.paused && !matches!(game.0.to_move(), ToMove::Over { .. }) {
        " · paused (Space)"
    } else {
        ""
    };
    egui::Window::new("banner")
        .title_bar(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 8.0])
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                ui.heading(&table.title);
                ui.separator();
                ui.label(format!("Round {}", table.round));
                ui.separator();
                ui.label(format!("{}{paused}", table.phase));
            });
            if let Some((m, _)) = &watching.message {
                ui.colored_label(egui::Color32::from_rgb(255, 170, 90), m);
            }
        });
    egui::Window::new("Log")
        .anchor(egui::Align2::RIGHT_TOP, [-8.0, 8.0])
        .default_width(360.0)
        .show(ctx, |ui| {
            ui.label("The rules and the dice play by themselves: Space pauses, . steps.");
            let w = &mut *watching;
            super::windows::pace_controls(ui, &mut w.paused, &mut w.step, &mut w.speed.0);
            ui.separator();
            egui::ScrollArea::vertical()
                .max_height(420.0)
                .stick_to_bottom(true)
                .show(ui, |ui| {
                    for line in &watching.log {
                        ui.label(line);
                    }
                });
        });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::state::app::StatesPlugin;
    use foehold_core::rules::toy::{self, Toy};

    /// The toy game under the loop with the watch's own systems, stepped by the autopilot.
    fn app() -> App {
        let scenario = toy::scenario().expect("the toy scenario parses");
        let game = Game::<Toy>::new(scenario, "toy.ron", 3, TieBreaker::Seeded).expect("sets up");
        app_of(game)
    }

    /// The toy `game` under the loop with the watch's own systems, stepped by the autopilot.
    pub(super) fn app_of(game: Game<Toy>) -> App {
        let view = Toy::view(&game.state);
        let seen = Seen::<Toy>(game.state.clone());
        let mut app = App::new();
        app.add_plugins((
            MinimalPlugins,
            StatesPlugin,
            GameLoopPlugin::<Toy>::default(),
        ))
        .init_resource::<ButtonInput<KeyCode>>()
        .insert_resource(Table::of_view("toy".into(), BoardView::of(&view)))
        .insert_resource(CoreGame(game))
        .insert_resource(LoopSettings::HEADLESS)
        .init_resource::<Watching>()
        .insert_resource(seen)
        .init_resource::<Showing>()
        .init_resource::<super::super::play::Shown>()
        .init_resource::<PendingPaths>()
        .add_systems(Update, rewind::<Toy>.before(LoopSystems::Input))
        .add_systems(Update, follow::<Toy>.after(LoopSystems::Sync));
        app
    }

    #[test]
    fn undo_and_redo_rewind_the_game_its_log_and_the_table() {
        let mut app = app();
        for _ in 0..12 {
            app.update();
        }
        let played = app.world().resource::<CoreGame<Toy>>().0.cursor;
        assert!(played >= 6, "the loop played on its own: {played}");
        let log = app.world().resource::<Watching>().log.clone();
        assert_eq!(log, app.world().resource::<CoreGame<Toy>>().0.log_lines());
        // Stop the loop from playing on, then go back one action.
        app.insert_resource(LoopSettings {
            seeded_ties: false,
            autopilot_heroes: false,
            auto_advance: false,
        });
        app.world_mut().resource_mut::<Watching>().undo = true;
        app.update();
        let game = &app.world().resource::<CoreGame<Toy>>().0;
        let cursor = game.cursor;
        assert!(cursor < played, "undone: {cursor} of {played}");
        let watching = app.world().resource::<Watching>();
        assert!(watching.paused, "after an undo the table waits");
        assert_eq!(watching.log, game.log_lines());
        let table = app.world().resource::<Table>();
        assert_eq!(table.figures, Toy::view(&game.state).figures);
        app.world_mut().resource_mut::<Watching>().redo = true;
        app.update();
        assert_eq!(app.world().resource::<CoreGame<Toy>>().0.cursor, cursor + 1);
        // The History window's jumps: back to the start and forward to the end, log and table
        // following.
        for n in [0, 2, played] {
            app.world_mut().resource_mut::<Watching>().jump = Some(n);
            app.update();
            let game = &app.world().resource::<CoreGame<Toy>>().0;
            assert_eq!(game.cursor, n);
            assert_eq!(app.world().resource::<Watching>().log, game.log_lines());
            let table = app.world().resource::<Table>();
            assert_eq!(table.figures, Toy::view(&game.state).figures);
        }
        // Its lines: one per action of the whole log, each with its round.
        let game = &app.world().resource::<CoreGame<Toy>>().0;
        let lines = history::lines::<Toy>(game.initial(), game.actions());
        assert_eq!(lines.len(), played);
        assert!(lines.iter().all(|l| l.starts_with("round ")), "{lines:?}");
    }
}
