//! Plays the game on the table: owns the `Game`, applies the actions that clicks and panels ask for,
//! runs the steps the rules run by themselves (enemy turns) at a watchable pace with pause, step and
//! speed, lets the autopilot play heroes with `--autoplay`, and keeps what the last steps showed
//! (focus, path, drawn cards, damage, trace) for the renderers. It never decides a rule itself.

use std::path::PathBuf;

use bevy::prelude::*;
use foehold_core::hex::qr;
use foehold_core::rules::gloomhaven::{
    Action, Event, FigureId, Game, Gloomhaven, Phase, Save, State, log,
};
use foehold_core::rules::{Rules, Seat, ToMove};
use foehold_loop::{GameLoopPlugin, LoopSettings, LoopSystems, StepRequest};

use super::CoreGame;

type ActionRefused = foehold_loop::ActionRefused<Gloomhaven>;
type GameEvent = foehold_loop::GameEvent<Gloomhaven>;
type SubmitAction = foehold_loop::SubmitAction<Gloomhaven>;

use super::Options;
use super::gloomhaven::story::history_label;
use super::hotseat::{Gate, Seats};
use super::minis::{PendingPaths, WalkSpeed};
use super::table::Table;
use super::view::CellKey;
use super::windows::Problem;
use foehold_core::rules::gloomhaven::table_id;

/// Where the game on the table came from; the game itself is the loop's [`CoreGame`].
#[derive(Resource)]
pub struct Play {
    pub scenario: PathBuf,
    /// The log position last saved, loaded or started; a game elsewhere has moves at risk
    /// ([`super::windows::AtRisk::of`]).
    pub saved_at: Option<usize>,
}

/// The hot-seat resources the controls reset when the game changes under them.
#[derive(bevy::ecs::system::SystemParam)]
pub struct Seating<'w> {
    pub seats: ResMut<'w, Seats>,
    pub gate: ResMut<'w, Gate>,
    /// Where a file that could not be opened is explained.
    pub problem: ResMut<'w, Problem>,
}

/// An action asked for by a click or a panel; it goes to the game loop as a [`SubmitAction`].
#[derive(Message, Debug, Clone)]
pub struct Act(pub Action);

/// Undo, redo and other requests on the game as a whole.
#[derive(Message, Debug, Clone)]
pub enum Control {
    Undo,
    Redo,
    /// Go back to the state after this many actions (clicked in the history).
    JumpTo(usize),
    /// Re-run the animation of the last enemy turn.
    ReplayFoeTurn,
    Save(PathBuf),
    Load(PathBuf),
    NewGame(PathBuf),
}

/// Pace of the automatic steps.
#[derive(Resource, Debug)]
pub struct Driver {
    pub paused: bool,
    /// Run exactly one automatic step even while paused.
    pub step: bool,
    pub speed: f32,
    pub autoplay: bool,
    /// Seconds until the next automatic step.
    pub wait: f32,
    /// A message for the players (refusals, errors), with seconds left on screen.
    pub message: Option<(String, f32)>,
}

impl Driver {
    pub fn say(&mut self, text: impl Into<String>) {
        self.message = Some((text.into(), 4.0));
    }
}

/// A damage (or heal) number rising over a figure.
#[derive(Debug, Clone)]
pub struct Popup {
    pub figure: u32,
    pub text: String,
    pub harm: bool,
    pub age: f32,
}

/// What the last steps showed, for the board and the panels.
#[derive(Resource, Debug, Default)]
pub struct Shown {
    /// The foe acting and the figures it focuses on.
    pub focus: Option<(u32, Vec<u32>)>,
    pub path: Vec<CellKey>,
    pub trace: Vec<String>,
    /// Modifier cards drawn by the last attack: the cards, how they were drawn, the attack's trace.
    pub cards: Vec<(String, Vec<String>, String)>,
    pub popups: Vec<Popup>,
}

/// The last enemy turn, step by step, to watch it again: the state before it and each action.
#[derive(Resource, Debug, Default)]
pub struct FoeTurnRecord {
    pub before: Option<(State, usize)>,
    pub steps: Vec<Action>,
    /// While replaying: the state shown and the steps left.
    pub replay: Option<(State, Vec<Action>)>,
    /// The game as the table last showed it (state, log cursor): the "before" of the next step.
    seen: Option<(State, usize)>,
}

pub(super) fn plugin(app: &mut App) {
    let options = app.world().resource::<Options>();
    let (autoplay, bench) = (options.autoplay, options.bench_frames > 0);
    // The loop applies every action and runs the rules' steps when this plugin asks (`StepFoe`),
    // so the pace is the table's; the autopilot and seeded tie-breaks play only under `--autoplay`.
    app.insert_resource(LoopSettings {
        seeded_ties: autoplay,
        autopilot_heroes: autoplay,
        auto_advance: false,
    })
    .add_plugins(GameLoopPlugin::<Gloomhaven>::default())
    .add_message::<Act>()
    .add_message::<Control>()
    .insert_resource(Driver {
        paused: bench,
        step: false,
        speed: 1.0,
        autoplay,
        wait: 0.6,
        message: None,
    })
    .init_resource::<Shown>()
    .init_resource::<FoeTurnRecord>()
    .add_systems(
        Update,
        (controls, submit_acts, drive)
            .chain()
            .before(LoopSystems::Input),
    )
    .add_systems(Update, (show, age_popups).chain().after(LoopSystems::Sync));
}

/// Whether the players make the next move (their cards, their hero's turn, a short rest before
/// the round ends); otherwise the rules do.
pub fn players_turn(s: &State) -> bool {
    matches!(Gloomhaven::to_move(s), ToMove::Heroes(_))
}

/// Sends the table's actions to the loop, except while a replay shows an old turn.
fn submit_acts(
    mut acts: MessageReader<Act>,
    record: Res<FoeTurnRecord>,
    mut driver: ResMut<Driver>,
    mut submit: MessageWriter<SubmitAction>,
) {
    for Act(action) in acts.read() {
        if record.replay.is_some() {
            driver.say("wait for the replay to finish");
        } else {
            submit.write(foehold_loop::SubmitAction(action.clone()));
        }
    }
}

/// After the loop ran: turns what happened this frame into what the table shows, and keeps the
/// steps of the last enemy turn for its replay.
#[expect(
    clippy::too_many_arguments,
    reason = "a Bevy system takes one parameter per resource, query and message it uses"
)]
fn show(
    game: Res<CoreGame>,
    mut events: MessageReader<GameEvent>,
    mut refused: MessageReader<ActionRefused>,
    mut table: ResMut<Table>,
    mut shown: ResMut<Shown>,
    mut driver: ResMut<Driver>,
    mut paths: ResMut<PendingPaths>,
    mut record: ResMut<FoeTurnRecord>,
) {
    for r in refused.read() {
        driver.say(format!("refused: {}", r.reason));
    }
    // The loop already wrote each event's log line.
    let events: Vec<GameEvent> = events.read().cloned().collect();
    let g = &game.0;
    // Only when the game moved is there a step to record and a new "before" to keep.
    let moved = record.seen.as_ref().is_none_or(|(_, c)| *c != g.cursor);
    if moved && let Some((before, cursor)) = &record.seen {
        // The history gets a label per new action, told from the state before it.
        table.history.truncate(*cursor);
        let mut s = before.clone();
        for a in g.log.get(*cursor..g.cursor).unwrap_or_default() {
            table.history.push(history_label(&s, a));
            let _ = s.apply(a.clone());
        }
    }
    if moved
        && let Some((before, cursor)) = record.seen.take()
        && g.cursor > cursor
        && matches!(before.phase, Phase::FoeTurn { .. })
    {
        // A new enemy turn starts when the previous step was not part of one.
        let continues = record
            .before
            .as_ref()
            .is_some_and(|(_, c)| *c + record.steps.len() == cursor);
        if record.steps.is_empty() || !continues {
            record.before = Some((before, cursor));
            record.steps.clear();
        }
        let done = g.log.get(cursor..g.cursor).unwrap_or_default();
        record.steps.extend_from_slice(done);
    }
    if !events.is_empty() {
        driver.wait = show_events(&g.state, &events, &mut table, &mut shown, &mut paths)
            / driver.speed.max(0.1);
        table.refresh(&g.state);
    }
    // A foe's focus and path belong to its turn: none stay drawn into the heroes' turns, the
    // round's end or the next hand-off (a replay of the turn draws its own).
    let foes_act = matches!(
        g.state.phase,
        Phase::FoeTurn { .. } | Phase::SummonTurn { .. }
    );
    if moved && !foes_act && record.replay.is_none() && shown.focus.is_some() {
        shown.focus = None;
        shown.path.clear();
    }
    if moved {
        record.seen = Some((g.state.clone(), g.cursor));
    }
}

/// Records what the events show and returns how long to let them play out before the next step.
fn show_events(
    s: &State,
    events: &[GameEvent],
    table: &mut Table,
    shown: &mut Shown,
    paths: &mut PendingPaths,
) -> f32 {
    let mut wait: f32 = 0.35;
    for GameEvent { event: e, line } in events {
        table.told.tell(s, e, line.clone());
        match e {
            Event::TurnStarted { .. } => {
                shown.focus = None;
                shown.path.clear();
                shown.cards.clear();
                wait = wait.max(0.6);
            }
            Event::FoeTargeted {
                monster,
                focus,
                trace,
                ..
            } => {
                shown.focus = Some((
                    table_id(FigureId::Monster(*monster)),
                    focus.iter().map(|f| table_id(*f)).collect(),
                ));
                shown.trace = trace.clone();
                shown.path.clear();
                shown.cards.clear();
                wait = wait.max(1.2);
            }
            Event::SummonTargeted {
                summon,
                focus,
                trace,
                ..
            } => {
                // A summon's turn reads like a foe's: who it aims at, and why.
                shown.focus = Some((
                    table_id(FigureId::Summon(*summon)),
                    focus.iter().map(|f| table_id(*f)).collect(),
                ));
                shown.trace = trace.clone();
                shown.path.clear();
                shown.cards.clear();
                wait = wait.max(1.2);
            }
            Event::Summoned { .. } | Event::Spawned { .. } => wait = wait.max(0.8),
            Event::PathChosen { figure, path } => {
                let cells: Vec<CellKey> = path.iter().map(|h| qr(*h)).collect();
                if !cells.is_empty() {
                    paths.0.insert(table_id(*figure), cells.clone());
                }
                wait = wait.max(0.3 + cells.len() as f32 / 3.0);
                shown.path = cells;
            }
            Event::CardsDrawn {
                attacker,
                target,
                mode,
                cards,
            } => {
                let who = format!("{} → {}", s.name(*attacker), s.name(*target));
                shown
                    .cards
                    .push((who, cards.clone(), format!("{mode:?}").to_lowercase()));
                wait = wait.max(1.0);
            }
            Event::AttackResolved {
                target,
                damage,
                trace,
                ..
            } => {
                shown.popups.push(Popup {
                    figure: table_id(*target),
                    text: format!("-{damage}"),
                    harm: true,
                    age: 0.0,
                });
                if let Some(last) = shown.cards.last_mut() {
                    last.2 = format!("{} · {}", last.2, trace.join(" · "));
                }
                wait = wait.max(1.2);
            }
            Event::Suffered { figure, amount, .. } => {
                shown.popups.push(Popup {
                    figure: table_id(*figure),
                    text: format!("-{amount}"),
                    harm: true,
                    age: 0.0,
                });
                wait = wait.max(0.8);
            }
            Event::Healed { figure, amount } => {
                shown.popups.push(Popup {
                    figure: table_id(*figure),
                    text: format!("+{amount}"),
                    harm: false,
                    age: 0.0,
                });
            }
            Event::FigureDied { .. } => wait = wait.max(1.5),
            Event::TieToBreak { .. } => wait = wait.max(0.5),
            _ => {}
        }
    }
    wait
}

/// The automatic side of the table: asks the loop for the next rules step (and, under
/// `--autoplay`, the heroes' and the ties' steps) once what the last step showed has played out.
#[expect(
    clippy::too_many_arguments,
    reason = "a Bevy system takes one parameter per resource, query and message it uses"
)]
fn drive(
    time: Res<Time>,
    game: Res<CoreGame>,
    mut table: ResMut<Table>,
    mut shown: ResMut<Shown>,
    mut driver: ResMut<Driver>,
    mut paths: ResMut<PendingPaths>,
    mut record: ResMut<FoeTurnRecord>,
    mut speed: ResMut<WalkSpeed>,
    mut steps: MessageWriter<StepRequest>,
) {
    speed.0 = 3.0 * driver.speed;
    if let Some((_, t)) = &mut driver.message {
        *t -= time.delta_secs();
        if *t <= 0.0 {
            driver.message = None;
        }
    }
    driver.wait -= time.delta_secs();
    if driver.wait > 0.0 || (driver.paused && !driver.step) {
        return;
    }
    if let Some((state, actions)) = &mut record.replay {
        // Replaying the last enemy turn on a copy of the state; the game itself does not move.
        if actions.is_empty() {
            record.replay = None;
            table.refresh(&game.0.state);
            return;
        }
        let a = actions.remove(0);
        if let Ok(events) = state.apply(a) {
            let shown_state = state.clone();
            let events: Vec<GameEvent> = events
                .into_iter()
                .map(|event| foehold_loop::GameEvent {
                    line: log::describe(&shown_state, &event),
                    event,
                })
                .collect();
            let told = table.told.clone();
            driver.wait = show_events(&shown_state, &events, &mut table, &mut shown, &mut paths)
                / driver.speed.max(0.1);
            // A replay shows the turn again; it does not add to the log.
            table.told = told;
            table.refresh(&shown_state);
        }
        driver.step = false;
        return;
    }
    let s = &game.0.state;
    if s.phase.is_over() {
        return;
    }
    // Ties and the players' own moves wait for a click, unless the autopilot plays them.
    if (s.pending.is_some() || players_turn(s)) && !driver.autoplay {
        return;
    }
    driver.step = false;
    // Until the loop answers, wait as long as a quick step takes.
    driver.wait = 0.35 / driver.speed.max(0.1);
    steps.write(StepRequest);
}

pub(super) fn age_popups(time: Res<Time>, mut shown: ResMut<Shown>) {
    for p in &mut shown.popups {
        p.age += time.delta_secs();
    }
    shown.popups.retain(|p| p.age < 2.0);
}

/// Whether Ctrl is held for a shortcut this frame. A quick Ctrl+Z at a low frame rate presses and
/// releases Ctrl within one frame, so a Ctrl released this frame counts as held.
pub fn ctrl_held(keys: &ButtonInput<KeyCode>) -> bool {
    let ctrls = [KeyCode::ControlLeft, KeyCode::ControlRight];
    keys.any_pressed(ctrls) || keys.any_just_released(ctrls)
}

/// The save written at the start of every round after the first.
pub fn autosave_path() -> PathBuf {
    PathBuf::from("saves/autosave.ron")
}

#[expect(
    clippy::too_many_arguments,
    reason = "a Bevy system takes one parameter per resource, query and message it uses"
)]
fn controls(
    mut controls: MessageReader<Control>,
    keys: Res<ButtonInput<KeyCode>>,
    typing: Option<Res<super::ui::Typing>>,
    mut game: ResMut<CoreGame>,
    mut play: ResMut<Play>,
    mut table: ResMut<Table>,
    mut shown: ResMut<Shown>,
    mut driver: ResMut<Driver>,
    mut record: ResMut<FoeTurnRecord>,
    mut acts: MessageWriter<Act>,
    mut seating: Seating,
    mut last_round: Local<u32>,
) {
    let mut wanted: Vec<Control> = controls.read().cloned().collect();
    if !typing.is_some_and(|t| t.0) {
        let ctrl = ctrl_held(&keys);
        if ctrl && keys.just_pressed(KeyCode::KeyZ) {
            wanted.push(Control::Undo);
        }
        if ctrl && keys.just_pressed(KeyCode::KeyY) {
            wanted.push(Control::Redo);
        }
        if keys.just_pressed(KeyCode::Space) {
            driver.paused = !driver.paused;
        }
        if keys.just_pressed(KeyCode::Period) {
            driver.step = true;
        }
        if keys.just_pressed(KeyCode::KeyR) && !ctrl {
            // Let the seeded dice break the tie on the table (a hero's own choice stays his).
            if game
                .0
                .legal_actions(Seat::Table)
                .contains(&Action::ChooseByDice)
            {
                acts.write(Act(Action::ChooseByDice));
            }
        }
    }
    for c in wanted {
        // Controls that change the game's position clear what the last steps showed.
        let moves_game = !matches!(c, Control::ReplayFoeTurn | Control::Save(_));
        let went_back = matches!(c, Control::Undo | Control::JumpTo(_));
        match c {
            Control::Undo => {
                if !game.0.undo() {
                    driver.say("nothing to undo");
                }
            }
            Control::Redo => {
                if !game.0.redo() {
                    driver.say("nothing to redo");
                }
            }
            Control::JumpTo(n) => {
                while game.0.cursor > n && game.0.undo() {}
                while game.0.cursor < n && game.0.redo() {}
            }

            Control::ReplayFoeTurn => match record.before.clone() {
                Some((state, _)) if !record.steps.is_empty() => {
                    table.refresh(&state);
                    record.replay = Some((state, record.steps.clone()));
                    driver.wait = 0.5;
                }
                _ => driver.say("no enemy turn to replay yet"),
            },
            Control::Save(path) => match write_save(&game.0, &path) {
                Ok(()) => {
                    play.saved_at = Some(game.0.cursor);
                    driver.say(format!("saved to {}", path.display()));
                }
                Err(e) => driver.say(format!("could not save {}: {e}", path.display())),
            },
            Control::Load(path) => match Save::load(&path)
                .map_err(|e| e.to_string())
                .and_then(|s| s.replay(&path))
            {
                Ok(loaded) => {
                    play.scenario = PathBuf::from(&loaded.scenario_path);
                    seating.seats.reseat(&loaded.state);
                    play.saved_at = Some(loaded.cursor);
                    game.0 = loaded;
                    let generation = table.generation + 1;
                    *table = Table::of_game(&game.0);
                    table.generation = generation;
                    *record = FoeTurnRecord::default();
                    driver.say(format!("loaded {}", path.display()));
                }
                Err(e) => seating.problem.0 = Some(format!("Could not load the game:\n{e}")),
            },
            Control::NewGame(path) => match super::table::new_game(&path, game.0.seed) {
                Ok(fresh) => {
                    // A new game asks who plays which hero again.
                    seating.seats.reseat(&fresh.state);
                    seating.seats.ready = driver.autoplay;
                    game.0 = fresh;
                    play.scenario = path;
                    play.saved_at = Some(0);
                    let generation = table.generation + 1;
                    *table = Table::of_game(&game.0);
                    table.generation = generation;
                    *record = FoeTurnRecord::default();
                }
                Err(e) => seating.problem.0 = Some(format!("Could not start the game:\n{e}")),
            },
        }
        // Going back never lets the foes run on into the undone future by themselves: the table
        // says when (Play), so a redo still finds it.
        if went_back
            && game.0.cursor < game.0.log.len()
            && !players_turn(&game.0.state)
            && !driver.paused
        {
            driver.paused = true;
            driver.say(
                "paused after going back: Play (Space) lets the rules go on, Redo steps forward",
            );
        }
        if moves_game {
            // A secret card choice undone or replaced needs the screen passed again.
            seating.gate.open_for = None;
            // The log is told again from the actions in effect: picks held for the reveal may
            // have been undone, and undone lines must go.
            table.retell(&game.0);
            *shown = Shown::default();
            record.replay = None;
            // The next step's "before" is the position the game was moved to.
            record.seen = None;
            table.refresh(&game.0.state);
        }
    }
    if game.0.state.round != *last_round {
        *last_round = game.0.state.round;
        if *last_round > 1
            && let Err(e) = write_autosave(&game.0, &autosave_path())
        {
            driver.say(format!("autosave failed: {e}"));
        }
    }
}

fn write_save(game: &Game, path: &std::path::Path) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    Save::of(game).write(path)
}

/// The autosave keeps a few earlier ones next to it (`autosave-1.ron`, …).
fn write_autosave(game: &Game, path: &std::path::Path) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    Save::of(game).write_autosave(path)
}
