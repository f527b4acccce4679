//! A whole game: scenario files, the state and its actions, the log with undo and redo, saves and
//! replays, readable log lines and a simple hero autopilot.
//!
//! The state owns the truth and the seeded generator; the log of actions is the game. Undo replays a
//! prefix of the log from the initial state, a save is scenario + seed + log, and a replay is a fold
//! of `State::apply` over the log: the same seed and the same actions always give the same state.

pub mod action;
pub mod autopilot;
pub mod board;
pub mod log;
pub mod save;
pub mod scenario;
pub mod state;

use std::sync::Arc;

pub use action::{Action, ActionError, Cause, Event};
pub use scenario::Scenario;
pub use state::{Actor, FigureId, FoeStage, Half, Phase, State, TieBreaker};

/// A game with its action log: apply, undo, redo.
#[derive(Debug, Clone)]
pub struct Game {
    /// Where the scenario was read from (saved with the game).
    pub scenario_path: String,
    pub seed: u64,
    pub tie_breaker: TieBreaker,
    /// Every action applied, including undone ones after `cursor` (redo).
    pub log: Vec<Action>,
    /// Number of log entries in effect.
    pub cursor: usize,
    pub state: State,
    initial: State,
}

impl Game {
    /// A new game of `scenario` with `seed`.
    pub fn new(
        scenario: Arc<Scenario>,
        scenario_path: impl Into<String>,
        seed: u64,
        tie_breaker: TieBreaker,
    ) -> Result<Game, state::SetupError> {
        let state = State::new(scenario, seed, tie_breaker)?;
        Ok(Game {
            scenario_path: scenario_path.into(),
            seed,
            tie_breaker,
            log: Vec::new(),
            cursor: 0,
            initial: state.clone(),
            state,
        })
    }

    /// The state before any action.
    pub fn initial(&self) -> &State {
        &self.initial
    }

    /// Applies an action and records it; an undone tail of the log is dropped.
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, ActionError> {
        let events = self.state.apply(action.clone())?;
        self.log.truncate(self.cursor);
        self.log.push(action);
        self.cursor += 1;
        Ok(events)
    }

    /// Steps back one action by replaying the log up to it. Returns false at the start.
    pub fn undo(&mut self) -> bool {
        if self.cursor == 0 {
            return false;
        }
        self.cursor -= 1;
        self.state = self.replay_prefix(self.cursor);
        true
    }

    /// Re-applies the next undone action. Returns false when there is none.
    pub fn redo(&mut self) -> bool {
        let Some(a) = self.log.get(self.cursor).cloned() else {
            return false;
        };
        if self.state.apply(a).is_err() {
            return false;
        }
        self.cursor += 1;
        true
    }

    /// The state after the first `n` actions of the log.
    pub fn replay_prefix(&self, n: usize) -> State {
        let mut s = self.initial.clone();
        for a in &self.log[..n.min(self.log.len())] {
            // Every logged action was accepted once from the same state, so it is accepted again.
            let _ = s.apply(a.clone());
        }
        s
    }

    /// The actions in effect (without the undone tail).
    pub fn actions(&self) -> &[Action] {
        &self.log[..self.cursor]
    }

    /// The next action the automatic driver would take: ties by the seeded pick when the game is
    /// headless, heroes by the autopilot, everything else `Advance`. `None` once the game is over or
    /// when the table must break a tie.
    pub fn auto_action(&self) -> Option<Action> {
        autopilot::next_action(&self.state)
    }

    /// Plays automatically until the game ends (or a tie waits for the table). Calls `on_step` with
    /// each action and its events. Returns the number of actions applied.
    pub fn play_out(
        &mut self,
        limit: usize,
        mut on_step: impl FnMut(&State, &Action, &[Event]),
    ) -> usize {
        let mut n = 0;
        while n < limit {
            let Some(a) = self.auto_action() else { break };
            match self.apply(a.clone()) {
                Ok(ev) => on_step(&self.state, &a, &ev),
                Err(_) => break,
            }
            n += 1;
        }
        n
    }
}
