//! A whole game of any rule module: its action log with undo and redo, saves and replays, written
//! once over the [`Rules`] interface.
//!
//! The state owns the truth and the seeded generator; the log of actions is the game. Undo replays a
//! prefix of the log from the initial state, a save is scenario + seed + log, and a replay is a fold
//! of `apply` over the log: the same seed and the same actions always give the same state.

#[cfg(any(test, feature = "testing"))]
pub mod check;
pub mod coverage;
pub mod save;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use crate::rules::{
    ActionError, Present, Rules, Seat, SetupError, TieBreaker, ToMove, seeded_pick,
};

/// A game with its action log: apply, undo, redo.
pub struct Game<R: Rules> {
    /// Where the scenario was read from (saved with the game).
    pub scenario_path: String,
    /// The scenario the game is played on.
    pub scenario: Arc<R::Scenario>,
    /// Hash of the scenario file's text ([`save::text_hash`]) when the game was started from one;
    /// saves record it so that a replay against an edited file says so.
    pub scenario_hash: Option<String>,
    /// The seed of the game's random draws.
    pub seed: u64,
    /// Who breaks ties the rules leave open.
    pub tie_breaker: TieBreaker,
    /// Every action applied, including undone ones after `cursor` (redo).
    pub log: Vec<R::Action>,
    /// Number of log entries in effect.
    pub cursor: usize,
    /// The state after the first `cursor` actions.
    pub state: R::State,
    initial: R::State,
    /// For each log entry, whether the players chose it (a hero's move or a tie the table breaks)
    /// rather than the rules, the dice or the table's own steps, which a new game would make again.
    by_players: Vec<bool>,
    /// The actions applied since a presenter last took them, when one keeps the journal.
    journal: Option<Vec<Journaled<R>>>,
}

/// An action applied to a game, with the state it was applied to and the events it made.
///
/// What a table tells and draws of it needs nothing applied again: the state after it is the
/// next entry's `before`, or the game's state after the last.
pub struct Journaled<R: Rules> {
    /// Its place in the game's log.
    pub at: usize,
    /// The state it was applied to.
    pub before: R::State,
    /// The action.
    pub action: R::Action,
    /// What it did.
    pub events: Vec<R::Event>,
}

impl<R: Rules> Clone for Journaled<R> {
    fn clone(&self) -> Self {
        Journaled {
            at: self.at,
            before: self.before.clone(),
            action: self.action.clone(),
            events: self.events.clone(),
        }
    }
}

impl<R: Rules> std::fmt::Debug for Journaled<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Journaled")
            .field("at", &self.at)
            .field("action", &self.action)
            .field("events", &self.events)
            .finish()
    }
}

impl<R: Rules> Clone for Game<R> {
    fn clone(&self) -> Self {
        Game {
            scenario_path: self.scenario_path.clone(),
            scenario: self.scenario.clone(),
            scenario_hash: self.scenario_hash.clone(),
            seed: self.seed,
            tie_breaker: self.tie_breaker,
            log: self.log.clone(),
            cursor: self.cursor,
            state: self.state.clone(),
            initial: self.initial.clone(),
            by_players: self.by_players.clone(),
            // A copy is nobody's to present: it keeps no journal.
            journal: None,
        }
    }
}

impl<R: Rules> std::fmt::Debug for Game<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game")
            .field("rules", &R::NAME)
            .field("scenario_path", &self.scenario_path)
            .field("seed", &self.seed)
            .field("cursor", &self.cursor)
            .field("log", &self.log.len())
            .finish()
    }
}

impl<R: Rules> Game<R> {
    /// A new game of `scenario` with `seed`.
    pub fn new(
        scenario: Arc<R::Scenario>,
        scenario_path: impl Into<String>,
        seed: u64,
        tie_breaker: TieBreaker,
    ) -> Result<Game<R>, SetupError> {
        let state = R::setup(scenario.clone(), seed, tie_breaker)?;
        Ok(Game {
            scenario_path: scenario_path.into(),
            scenario,
            scenario_hash: None,
            seed,
            tie_breaker,
            log: Vec::new(),
            cursor: 0,
            initial: state.clone(),
            state,
            by_players: Vec::new(),
            journal: None,
        })
    }

    /// Records the text the scenario was parsed from (its hash goes into saves).
    pub fn with_scenario_text(mut self, text: &str) -> Game<R> {
        self.scenario_hash = Some(save::text_hash(text));
        self
    }

    /// The state before any action.
    pub fn initial(&self) -> &R::State {
        &self.initial
    }

    /// Keeps a journal of the actions applied from now on, for a presenter that takes them
    /// ([`Game::take_journal`]) to show each once, at its own pace. Returns whether it starts
    /// now: a game without one (new, or a copy) has no record of how it came to stand where it is.
    pub fn keep_journal(&mut self) -> bool {
        let starts = self.journal.is_none();
        self.journal.get_or_insert_with(Vec::new);
        starts
    }

    /// The actions applied since the journal was last taken, oldest first (none when no journal is
    /// kept). An undo, a redo or a jump is not in it: a presenter sees the cursor elsewhere than
    /// the journal's next place and shows the game anew.
    pub fn take_journal(&mut self) -> Vec<Journaled<R>> {
        self.journal
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// Applies an action and records it; an undone tail of the log is dropped.
    pub fn apply(&mut self, action: R::Action) -> Result<Vec<R::Event>, ActionError> {
        let players = matches!(
            R::to_move(&self.state),
            ToMove::Heroes(_) | ToMove::Tie { .. }
        );
        let before = self.journal.is_some().then(|| self.state.clone());
        let events = R::apply(&mut self.state, action.clone())?;
        if let (Some(journal), Some(before)) = (&mut self.journal, before) {
            journal.push(Journaled {
                at: self.cursor,
                before,
                action: action.clone(),
                events: events.clone(),
            });
        }
        self.log.truncate(self.cursor);
        self.by_players.truncate(self.cursor);
        self.log.push(action);
        self.by_players.push(players);
        self.cursor += 1;
        Ok(events)
    }

    /// Sets a new game up for a level and a number of characters (nothing when `choice` keeps
    /// the scenario's own); an error says why it cannot, and leaves the game as it was.
    pub fn set_up(&mut self, choice: crate::rules::PartyChoice) -> Result<Vec<R::Event>, String> {
        match R::party_action(&self.state, choice)? {
            Some(action) => self.apply(action).map_err(|e| e.to_string()),
            None => Ok(Vec::new()),
        }
    }

    /// Applies the outcome of a draw or roll the players made at their own table (a legal action
    /// of [`Seat::Chance`]). It is logged as the program's own draw would be, but counted as the
    /// players' decision: an undo takes back a card entered by mistake.
    pub fn enter(&mut self, outcome: R::Action) -> Result<Vec<R::Event>, ActionError> {
        if !matches!(R::to_move(&self.state), ToMove::Chance { .. }) {
            return Err(ActionError::WrongPhase(
                "no draw or roll waits for the table",
            ));
        }
        self.apply_for_players(outcome)
    }

    /// Applies the players' own change to the board (the position lab's "play on from here",
    /// [`crate::lab::Lab::arrange`]): logged as their decision, so an undo takes it back whole.
    pub fn arrange(&mut self, arrangement: R::Action) -> Result<Vec<R::Event>, ActionError> {
        self.apply_for_players(arrangement)
    }

    fn apply_for_players(&mut self, action: R::Action) -> Result<Vec<R::Event>, ActionError> {
        let events = self.apply(action)?;
        if let Some(last) = self.by_players.last_mut() {
            *last = true;
        }
        Ok(events)
    }

    /// How many of the log entries between positions `a` and `b` (either way round) the players
    /// chose: the moves a game that stops at one of them and goes on from the other loses. An entry
    /// whose maker is not known counts as theirs.
    pub fn decisions_between(&self, a: usize, b: usize) -> usize {
        let (from, to) = (a.min(b), a.max(b).min(self.log.len()));
        (from..to)
            .filter(|&i| self.by_players.get(i).copied().unwrap_or(true))
            .count()
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

    /// Whether the players chose log entry `i` (a hero's move, a tie the table broke) rather than
    /// the rules, the dice or the draws.
    pub fn is_decision(&self, i: usize) -> bool {
        self.by_players.get(i).copied().unwrap_or(true)
    }

    /// Where an undo by decision goes: just before the players' last decision in effect, so the
    /// rules' own steps, dice and draws after it go with it; the start when there is none.
    pub fn decision_before(&self) -> usize {
        (0..self.cursor)
            .rev()
            .find(|&i| self.is_decision(i))
            .unwrap_or(0)
    }

    /// Where a redo by decision goes: past the next undone action and the rules' own steps after
    /// it, up to the next decision of the undone tail (or its end).
    pub fn decision_after(&self) -> usize {
        if self.cursor >= self.log.len() {
            return self.cursor;
        }
        let mut i = self.cursor + 1;
        while i < self.log.len() && !self.is_decision(i) {
            i += 1;
        }
        i
    }

    /// Goes to log position `n` (at most the log's length), back by one replay of the log's prefix
    /// or forward by redoing. Returns whether the position changed.
    pub fn go_to(&mut self, n: usize) -> bool {
        let n = n.min(self.log.len());
        let was = self.cursor;
        if n < self.cursor {
            self.cursor = n;
            self.state = self.replay_prefix(n);
        }
        while self.cursor < n && self.redo() {}
        self.cursor != was
    }

    /// Re-applies the next undone action. Returns false when there is none.
    pub fn redo(&mut self) -> bool {
        let Some(a) = self.log.get(self.cursor).cloned() else {
            return false;
        };
        if R::apply(&mut self.state, a).is_err() {
            return false;
        }
        self.cursor += 1;
        true
    }

    /// The log lines of the actions in effect (up to the cursor), told again from the initial state.
    pub fn log_lines(&self) -> Vec<String>
    where
        R: Present,
    {
        let mut s = self.initial.clone();
        let mut lines = Vec::new();
        for a in &self.log[..self.cursor] {
            // Every logged action was accepted once from the same state, so it is accepted again.
            if let Ok(events) = R::apply(&mut s, a.clone()) {
                lines.extend(events.iter().filter_map(|e| R::describe(&s, e)));
            }
        }
        lines
    }

    /// The state after the first `n` actions of the log.
    pub fn replay_prefix(&self, n: usize) -> R::State {
        let mut s = self.initial.clone();
        for a in &self.log[..n.min(self.log.len())] {
            // Every logged action was accepted once from the same state, so it is accepted again.
            let _ = R::apply(&mut s, a.clone());
        }
        s
    }

    /// The actions in effect (without the undone tail).
    pub fn actions(&self) -> &[R::Action] {
        &self.log[..self.cursor]
    }

    /// Whose move it is.
    pub fn to_move(&self) -> ToMove<R::Stage> {
        R::to_move(&self.state)
    }

    /// The legal actions of a seat now.
    pub fn legal_actions(&self, seat: Seat) -> Vec<R::Action> {
        R::legal_actions(&self.state, seat)
    }

    /// The next action the automatic driver would take: the rules' own steps, heroes by the
    /// autopilot, ties by the seeded pick when the game is headless. `None` once the game is over or
    /// when the table must break a tie.
    pub fn auto_action(&self) -> Option<R::Action> {
        self.automatic(self.tie_breaker == TieBreaker::Seeded, true)
    }

    /// The next automatic action when the seeded pick may break ties (`seeded_ties`) and the
    /// autopilot may play heroes (`autopilot`): what a driver that leaves either to the players does.
    pub fn automatic(&self, seeded_ties: bool, autopilot: bool) -> Option<R::Action> {
        self.automatic_drawn_by(seeded_ties, autopilot, R::seed(&self.state))
    }

    /// [`Game::automatic`] with the chance outcomes picked by `draws` (and the step count) instead
    /// of the game's seed: online, each decision's draws come from a key no copy knows before the
    /// decision is committed (`foehold-net`'s draw keys). Ties are still picked by the seed.
    pub fn automatic_drawn_by(
        &self,
        seeded_ties: bool,
        autopilot: bool,
        draws: u64,
    ) -> Option<R::Action> {
        match R::to_move(&self.state) {
            ToMove::Tie { .. } if !seeded_ties => None,
            // The tie's options are the first legal actions of the table; a module may list more
            // after them (leaving it to the dice), which the seeded pick leaves alone.
            ToMove::Tie { options: n } => {
                let mut options = R::legal_actions(&self.state, Seat::Table);
                options.truncate(n);
                let pick = seeded_pick(R::seed(&self.state), R::steps(&self.state), options.len());
                (pick < options.len()).then(|| options.swap_remove(pick))
            }
            ToMove::Chance { .. } => {
                let mut outcomes = R::legal_actions(&self.state, Seat::Chance);
                let pick = seeded_pick(draws, R::steps(&self.state), outcomes.len());
                (pick < outcomes.len()).then(|| outcomes.swap_remove(pick))
            }
            ToMove::Rules { .. } => R::legal_actions(&self.state, Seat::Rules)
                .into_iter()
                .next(),
            ToMove::Heroes(heroes) if autopilot => {
                heroes.first().and_then(|&h| R::autopilot(&self.state, h))
            }
            ToMove::Over { .. } | ToMove::Heroes(_) => None,
        }
    }

    /// Plays automatically until the game ends (or a tie waits for the table). Calls `on_step` with
    /// each action and its events. Returns the number of actions applied.
    pub fn play_out(
        &mut self,
        limit: usize,
        mut on_step: impl FnMut(&R::State, &R::Action, &[R::Event]),
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
