//! Following the game: after the loop ran, what happened is told in the log and the history, shown
//! on the board and in the windows (through the module's `Present::shows`), and kept for the
//! replay of the rules' last run; before it runs, the next rules step is asked for once what the
//! last one showed has played out.
//!
//! The table shows the game from its journal ([`Game::keep_journal`]): every action applied,
//! with the state before it and its events, so nothing is applied twice to show it. Actions
//! applied ahead of the table (online, where the session's copy applies the host's whole turn at
//! once) wait their turn and are shown one after another at the table's pace.

use std::collections::{BTreeMap, VecDeque};

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use foehold_core::game::{Game, Journaled};
use foehold_core::rules::view::Show;
use foehold_core::rules::{Present, ToMove};
use foehold_loop::{ActionRefused, CoreGame, LoopSettings, StepRequest, SubmitAction};

use super::showing::wait_for;
use super::told::history_line;
use super::{Log, Pace, Seats, Showing, Shown};
use crate::app::minis::{Landing, PendingPaths, WalkSpeed, landing_time};
use crate::app::table::Table;
use crate::app::view::{CellKey, TableView};
use crate::modules::Module;

/// How far the table has shown the game, and what was applied since that waits to be shown.
#[derive(Resource)]
pub struct Seen<R: Present> {
    /// The log position shown.
    pub cursor: usize,
    /// The game was moved by a control (undo, a jump, a load): shown anew, not followed.
    pub rewound: bool,
    /// Applied ahead of the table, not shown yet, oldest first.
    pub waiting: VecDeque<Journaled<R>>,
}

impl<R: Present> Seen<R> {
    /// Whether the table shows the game as it stands.
    pub fn caught_up(&self) -> bool {
        self.waiting.is_empty()
    }

    fn shown(cursor: usize) -> Seen<R> {
        Seen {
            cursor,
            rewound: false,
            waiting: VecDeque::new(),
        }
    }
}

impl<R: Present> Default for Seen<R> {
    fn default() -> Self {
        Seen {
            cursor: 0,
            rewound: true,
            waiting: VecDeque::new(),
        }
    }
}

/// The rules' last run of their own steps (a whole enemy turn, a round's end), to show again: the
/// state before it and its actions.
#[derive(Resource)]
pub struct Record<R: Present> {
    pub before: Option<(R::State, usize)>,
    pub steps: Vec<R::Action>,
    /// A decision came after the run: the next rules step starts a new one.
    closed: bool,
    /// While replaying: the state shown and the steps left.
    pub replay: Option<(R::State, Vec<R::Action>)>,
}

impl<R: Present> Default for Record<R> {
    fn default() -> Self {
        Record {
            before: None,
            steps: Vec::new(),
            closed: true,
            replay: None,
        }
    }
}

/// After the loop ran: the log, the history, the board and the windows follow the game, from the
/// actions applied since the table last looked: together when the loop applied them at the
/// table's pace, one by one (a players' decision at once) when they came ahead of it.
#[expect(
    clippy::too_many_arguments,
    reason = "a Bevy system takes one parameter per resource, query and message it uses"
)]
pub fn follow<R: Module>(
    (mut game, settings): (ResMut<CoreGame<R>>, Res<LoopSettings>),
    mut refused: MessageReader<ActionRefused<R>>,
    mut seen: ResMut<Seen<R>>,
    mut record: ResMut<Record<R>>,
    mut log: ResMut<Log>,
    mut table: ResMut<Table>,
    mut pace: ResMut<Pace>,
    mut board: Staging,
) {
    for r in refused.read() {
        pace.say(format!("refused: {}", r.reason));
    }
    let g = &mut game.0;
    // A game with no journal yet came from elsewhere (a copy rebuilt online, a game put back).
    let new_here = g.keep_journal();
    let applied = g.take_journal();
    let g = &game.0;
    // The journal goes on from what the table has shown or holds to show, up to the game's
    // cursor; a game moved any other way is told again from its log.
    let next = seen.waiting.back().map_or(seen.cursor, |j| j.at + 1);
    let goes_on = applied
        .iter()
        .map(|j| j.at)
        .chain([g.cursor])
        .eq(next..=next + applied.len());
    if seen.rewound || new_here || !goes_on {
        // Moved by a control (or not by applying): told again from the log, shown as it stands,
        // nothing animated.
        (log.told, log.history) = super::told::retell(g);
        log.cursor = g.cursor;
        board.showing.clear(&mut board.shown);
        board.paths.0.clear();
        table.show(R::view(&g.state));
        *seen = Seen::shown(g.cursor);
        return;
    }
    seen.waiting.extend(applied);
    let mut show = Teller::<R> {
        g,
        log: &mut log,
        record: &mut record,
        table: &mut table,
        board: &mut board,
        pace: &mut pace,
    };
    if !settings.held_elsewhere {
        let batch: Vec<Journaled<R>> = seen.waiting.drain(..).collect();
        show.batch(&mut seen, batch);
        return;
    }
    // A rules step waits for the last one to play out, and for Play or Step when paused.
    while let Some(front) = seen.waiting.front() {
        let decision = g.is_decision(front.at);
        let pace = &show.pace;
        if !decision && (pace.wait > 0.0 || (pace.paused && !pace.step)) {
            break;
        }
        let batch: Vec<Journaled<R>> = seen.waiting.pop_front().into_iter().collect();
        show.batch(&mut seen, batch);
        if !decision {
            show.pace.step = false;
        }
    }
}

/// What showing applied actions writes to.
struct Teller<'a, 'w, R: Module> {
    g: &'a Game<R>,
    log: &'a mut Log,
    record: &'a mut Record<R>,
    table: &'a mut Table,
    board: &'a mut Staging<'w>,
    pace: &'a mut Pace,
}

impl<R: Module> Teller<'_, '_, R> {
    /// Shows applied actions, in order, as one step of the table (the first of `seen.waiting`, or
    /// the game as it stands, being the state after the last).
    fn batch(&mut self, seen: &mut Seen<R>, batch: Vec<Journaled<R>>) {
        let (Some(first), Some(last)) = (batch.first(), batch.last()) else {
            return;
        };
        let g = self.g;
        let end = seen.waiting.front().map_or(&g.state, |j| &j.before);
        let before = first.before.clone();
        let cursor = last.at + 1;
        let mut events = Vec::new();
        for (i, shown) in batch.iter().enumerate() {
            let after = batch.get(i + 1).map_or(end, |j| &j.before);
            tell(shown, after, g, self.log, self.record);
            events.extend(shown.events.iter().cloned());
        }
        self.log.cursor = cursor;
        let view = R::view(end);
        let shows = R::shows(&before, end, &events);
        let aims = shows
            .iter()
            .any(|s| matches!(s, Show::Aim { .. } | Show::Step { .. }));
        self.pace.wait = self.board.stage(shows, self.table, &view) / self.pace.speed.max(0.1);
        // A foe's aim and path belong to its turn: none stay drawn into the players' moves.
        if !aims && matches!(R::to_move(end), ToMove::Heroes(_)) && self.record.replay.is_none() {
            self.board.shown.focus = None;
            self.board.shown.path.clear();
        }
        self.table.show(view);
        seen.cursor = cursor;
    }
}

/// Tells one applied action, `after` being the state it left: its log lines, its history line
/// (in place of an undone one the history had) and its place in the rules' run.
fn tell<R: Module>(
    shown: &Journaled<R>,
    after: &R::State,
    g: &Game<R>,
    log: &mut Log,
    record: &mut Record<R>,
) {
    let Journaled {
        at,
        before,
        action,
        events,
    } = shown;
    for e in events {
        log.told.tell::<R>(after, e, R::describe(after, e));
    }
    let decision = g.is_decision(*at);
    log.history.truncate(*at);
    log.history
        .push(history_line::<R>(before, action, decision));
    if decision {
        record.closed = true;
    } else if record.closed {
        record.before = Some((before.clone(), *at));
        record.steps = vec![action.clone()];
        record.closed = false;
    } else {
        record.steps.push(action.clone());
    }
}

/// What the board shows of the rules' steps: the cues, the walks and the landings they start.
#[derive(SystemParam)]
pub struct Staging<'w> {
    showing: ResMut<'w, Showing>,
    shown: ResMut<'w, Shown>,
    paths: ResMut<'w, PendingPaths>,
    landing: ResMut<'w, Landing>,
}

impl Staging<'_> {
    /// Shows what one step showed, about to be drawn as `view` on `table`: minis walk its steps
    /// and the figures it brought land. Returns the seconds it takes at the usual pace.
    fn stage(&mut self, shows: Vec<Show>, table: &Table, view: &TableView) -> f32 {
        walk_steps(&shows, &mut self.paths);
        self.landing.0 = arriving(table, view);
        let wait = wait_for(&shows).max(landing_time(self.landing.0.len()));
        self.showing
            .take(&mut self.shown, shows, view.odds.as_ref());
        self.showing.turn_of(view.active);
        wait
    }

    fn clear(&mut self) {
        self.showing.clear(&mut self.shown);
    }
}

/// The standing figures of `view` the table does not show yet, in the order the view lists them
/// (the order they were placed): their minis land one after another.
pub fn arriving(table: &Table, view: &TableView) -> Vec<u32> {
    view.figures
        .iter()
        .filter(|f| f.hp > 0 && table.figure(f.id).is_none())
        .map(|f| f.id)
        .collect()
}

/// Minis walk the steps an action showed, cell by cell, rather than gliding straight to the end.
pub fn walk_steps(shows: &[Show], paths: &mut PendingPaths) {
    let mut walks: BTreeMap<u32, Vec<CellKey>> = BTreeMap::new();
    for s in shows {
        if let Show::Step { figure, to, .. } = s {
            walks.entry(*figure).or_default().push(*to);
        }
    }
    paths.0.extend(walks);
}

/// The automatic side of the table: asks the loop for the next rules step (and, under
/// `--autoplay`, the heroes' and the ties' steps) once what the last step showed has played out;
/// shows a replay of the rules' last run step by step.
#[expect(
    clippy::too_many_arguments,
    reason = "a Bevy system takes one parameter per resource, query and message it uses"
)]
pub fn drive<R: Module>(
    time: Res<Time>,
    (game, settings): (Res<CoreGame<R>>, Res<LoopSettings>),
    seats: Res<Seats>,
    mut acts: MessageReader<SubmitAction<R>>,
    mut record: ResMut<Record<R>>,
    mut pace: ResMut<Pace>,
    mut table: ResMut<Table>,
    mut steps: MessageWriter<StepRequest>,
    mut walk: ResMut<WalkSpeed>,
    mut board: Staging,
) {
    walk.0 = 3.0 * pace.speed;
    if let Some((_, t)) = &mut pace.message {
        *t -= time.delta_secs();
        if *t <= 0.0 {
            pace.message = None;
        }
    }
    if acts.read().count() > 0 && record.replay.take().is_some() {
        // A move made during a replay ends it: the table shows the game the move is made in.
        table.show(R::view(&game.0.state));
        board.clear();
    }
    pace.wait -= time.delta_secs();
    // Nothing plays before the players have sat down.
    if pace.wait > 0.0 || (pace.paused && !pace.step) || !seats.ready {
        return;
    }
    if let Some((state, actions)) = &mut record.replay {
        // The replay runs on a copy of the state; the game itself does not move.
        if actions.is_empty() {
            record.replay = None;
            table.show(R::view(&game.0.state));
            return;
        }
        let a = actions.remove(0);
        let before = state.clone();
        if let Ok(events) = R::apply(state, a) {
            let shows = R::shows(&before, state, &events);
            let view = R::view(state);
            pace.wait = board.stage(shows, &table, &view) / pace.speed.max(0.1);
            table.show(view);
        }
        pace.step = false;
        return;
    }
    // A game held elsewhere gets its steps there: none is asked of the loop (and the wait is the
    // table's showing of them alone).
    if settings.held_elsewhere {
        return;
    }
    // The players' own moves and ties wait for a click, unless the autopilot plays them.
    let to_move = game.0.to_move();
    let players = matches!(to_move, ToMove::Heroes(_) | ToMove::Tie { .. });
    if matches!(to_move, ToMove::Over { .. }) || (players && !pace.autoplay) {
        return;
    }
    pace.step = false;
    // Until the loop answers, wait as long as a quick step takes.
    pace.wait = 0.35 / pace.speed.max(0.1);
    steps.write(StepRequest);
}
