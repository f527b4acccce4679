//! Checks that any module's tests run on whole games (feature `testing`): random playouts that hold
//! a module to every promise of the [`Rules`] interface, and undo at every prefix of a game.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::Game;
use crate::rules::{Present, Rules, Seat, TieBreaker, ToMove, seeded_pick};

pub use crate::disk::{Disk, read_file};

/// A game of the scenario file at `path` with `seed`, its ties broken by the seeded pick, as the
/// tests over whole games start one.
pub fn seeded_game<R: Rules>(path: &Path, seed: u64) -> Result<Game<R>, String> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
    let scenario = R::parse_scenario(&name, &text).map_err(|e| e.to_string())?;
    Game::new(Arc::new(scenario), name, seed, TieBreaker::Seeded).map_err(|e| e.to_string())
}

/// Every log line of a seeded game of the scenario at `path`, played to its end by the autopilot
/// and the seeded ties (at most `steps` actions); an error when it does not end.
pub fn whole_log<R: Present>(path: &Path, seed: u64, steps: usize) -> Result<Vec<String>, String> {
    let mut game = seeded_game::<R>(path, seed)?;
    let mut lines = Vec::new();
    game.play_out(steps, |state, _, events| {
        lines.extend(events.iter().filter_map(|e| R::describe(state, e)));
    });
    match game.to_move() {
        ToMove::Over { .. } => Ok(lines),
        other => Err(format!("not over after {steps} actions: {other:?}")),
    }
}

/// The `.ron` files of a folder, by name, so that what a test reads does not follow the order the
/// folder lists them in.
pub fn ron_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|x| x == "ron") {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// The seats whose move it is.
pub fn seats_to_move<S>(to_move: &ToMove<S>) -> Vec<Seat> {
    match to_move {
        ToMove::Rules { .. } => vec![Seat::Rules],
        ToMove::Chance { .. } => vec![Seat::Chance],
        ToMove::Tie { .. } => vec![Seat::Table],
        ToMove::Heroes(heroes) => heroes.iter().map(|&h| Seat::Hero(h)).collect(),
        ToMove::Over { .. } => Vec::new(),
    }
}

/// Hero seats a random playout asks about: more than any scenario seats.
const HERO_SEATS: usize = 12;

/// Plays `game` on to its end and checks, at every step, what the [`Rules`]
/// interface promises (a random simulation test, written once for every module):
///
/// - the seats to move have legal actions and no other seat has any (nobody acts out of turn), and
///   once the game is over no seat has any;
/// - a rules or chance step is one of the module's stages; a chance step lists as many outcomes as
///   it announced, and a tie at least as many options;
/// - every legal action of the seats to move is accepted (tried on a copy of the state);
/// - the action taken gives the same events and state on a clone as in the game;
/// - the state survives a RON round trip, and every `replay_every` actions and at the end replaying
///   the log gives the same state (a replay costs the game's length: 1 makes a playout quadratic).
///
/// The action taken is `driver`'s when it gives one: an action it gives that the rules refuse must
/// leave the state and the log as they were, and a legal action is taken instead. Without a driver's
/// action, the action is a uniform seeded pick among the legal actions of the seats to move.
/// `on_step` sees every applied action with the state after it and its events, for a module's own
/// invariants; its error ends the playout. Returns the game at its end, or the first broken promise.
pub fn random_playout<R: Rules>(
    mut game: Game<R>,
    limit: usize,
    replay_every: usize,
    mut driver: impl FnMut(&Game<R>) -> Option<R::Action>,
    mut on_step: impl FnMut(&R::State, &R::Action, &[R::Event]) -> Result<(), String>,
) -> Result<Game<R>, String> {
    let seed = game.seed;
    let all_seats: Vec<Seat> = [Seat::Rules, Seat::Table, Seat::Chance]
        .into_iter()
        .chain((0..HERO_SEATS).map(Seat::Hero))
        .collect();
    for step in 0..limit {
        let at = |what: String| format!("seed {seed} action {step}: {what}");
        let to_move = game.to_move();
        let seats = seats_to_move(&to_move);
        let mut legal = Vec::new();
        for &seat in &all_seats {
            let actions = game.legal_actions(seat);
            if seats.contains(&seat) {
                if actions.is_empty() {
                    return Err(at(format!("{seat:?} is to move with nothing to do")));
                }
                legal.extend(actions);
            } else if !actions.is_empty() {
                return Err(at(format!(
                    "{seat:?} may act out of turn ({to_move:?}): {:?}",
                    actions[0]
                )));
            }
        }
        match to_move {
            ToMove::Over { .. } => return Ok(game),
            ToMove::Rules { stage } | ToMove::Chance { stage, .. }
                if !R::STAGES.contains(&stage) =>
            {
                return Err(at(format!("{stage:?} is not one of the module's stages")));
            }
            ToMove::Chance { outcomes, .. } if outcomes != legal.len() => {
                return Err(at(format!(
                    "a chance step of {outcomes} outcomes lists {}",
                    legal.len()
                )));
            }
            ToMove::Tie { options } if legal.len() < options => {
                return Err(at(format!(
                    "a tie of {options} options lists {}",
                    legal.len()
                )));
            }
            _ => {}
        }
        for a in &legal {
            let mut probe = game.state.clone();
            if let Err(e) = R::apply(&mut probe, a.clone()) {
                return Err(at(format!("the legal {a:?} is refused: {e}")));
            }
        }
        let mut action = legal[seeded_pick(seed ^ 0x5eed, step as u64, legal.len())].clone();
        if let Some(wanted) = driver(&game) {
            // A module may accept more than it lists (every path a move may take, not one each).
            if legal.contains(&wanted) || R::apply(&mut game.state.clone(), wanted.clone()).is_ok()
            {
                action = wanted;
            } else {
                let (before, log, cursor) = (game.state.clone(), game.log.len(), game.cursor);
                if game.apply(wanted.clone()).is_ok()
                    || game.state != before
                    || (game.log.len(), game.cursor) != (log, cursor)
                {
                    return Err(at(format!("the refused {wanted:?} changed the game")));
                }
            }
        }
        let mut twin = game.state.clone();
        let twin_events = R::apply(&mut twin, action.clone());
        let events = game
            .apply(action.clone())
            .map_err(|e| at(format!("{action:?} refused: {e}")))?;
        if twin_events.as_ref() != Ok(&events) || twin != game.state {
            return Err(at(format!(
                "{action:?} gives other events or another state on a clone"
            )));
        }
        let text = ron::to_string(&game.state).map_err(|e| at(e.to_string()))?;
        let back: R::State = ron::from_str(&text).map_err(|e| at(e.to_string()))?;
        if back != game.state {
            return Err(at("the state changes in a RON round trip".into()));
        }
        let due = step % replay_every.max(1) == 0 || matches!(game.to_move(), ToMove::Over { .. });
        if due && game.replay_prefix(game.cursor) != game.state {
            return Err(at("replaying the log gives another state".into()));
        }
        on_step(&game.state, &action, &events).map_err(at)?;
    }
    Err(format!("seed {seed}: no end after {limit} actions"))
}

/// Plays `game` to its end (at most `limit` actions) with `next`, recording the state after every
/// action, then checks undo at every prefix of the log:
///
/// - undoing one action at a time walks back through exactly the states the game went through, and
///   redoing walks forward through them again;
/// - at every prefix, taking another of the legal actions than the one logged and undoing it comes
///   back to that prefix's state, and the new action replaced the old tail of the log.
///
/// Returns the number of actions played, or the first difference in words.
pub fn undo_at_every_prefix<R: Rules>(
    game: &mut Game<R>,
    limit: usize,
    mut next: impl FnMut(&Game<R>) -> Option<R::Action>,
) -> Result<usize, String> {
    let mut forward = vec![game.state.clone()];
    while forward.len() <= limit {
        let Some(a) = next(game) else { break };
        game.apply(a.clone())
            .map_err(|e| format!("action {}: {a:?} refused: {e}", forward.len()))?;
        forward.push(game.state.clone());
    }
    let n = game.cursor;
    let mut g = game.clone();
    for k in (0..n).rev() {
        if !g.undo() || g.cursor != k || g.state != forward[k] {
            return Err(format!(
                "undo to action {k} does not give the state played then"
            ));
        }
    }
    if g.undo() {
        return Err("undo went before the start".into());
    }
    for (k, state) in forward.iter().enumerate().skip(1) {
        if !g.redo() || g.state != *state {
            return Err(format!(
                "redo to action {k} does not give the state played then"
            ));
        }
    }
    if g.redo() {
        return Err("redo went past the end".into());
    }
    // Branch at every prefix: a fresh game replays the prefix, takes another legal action, undoes it.
    for (k, before) in forward.iter().enumerate().take(n) {
        let mut b = Game::<R>::new(
            game.scenario.clone(),
            game.scenario_path.clone(),
            game.seed,
            game.tie_breaker,
        )
        .map_err(|e| e.to_string())?;
        for a in &game.log[..k] {
            b.apply(a.clone())
                .map_err(|e| format!("replaying action {}: {e}", k + 1))?;
        }
        let Some(other) = other_action(&b, &game.log[k]) else {
            continue;
        };
        b.apply(other.clone())
            .map_err(|e| format!("at {k}: the legal action {other:?} was refused: {e}"))?;
        if b.log.len() != k + 1 {
            return Err(format!(
                "at {k}: a new action keeps the old tail of the log"
            ));
        }
        let after = b.state.clone();
        if !b.undo() || b.state != *before {
            return Err(format!("at {k}: undoing {other:?} does not come back"));
        }
        if !b.redo() || b.state != after {
            return Err(format!("at {k}: redoing {other:?} gives another state"));
        }
    }
    Ok(n)
}

/// A legal action of the seat to move other than `taken`, if there is one.
fn other_action<R: Rules>(game: &Game<R>, taken: &R::Action) -> Option<R::Action> {
    seats_to_move(&game.to_move())
        .into_iter()
        .flat_map(|s| game.legal_actions(s))
        .find(|a| a != taken)
}

/// Checks that every legal hero action naming a cell names a cell of the board, over a whole game.
///
/// Plays `game` to its end (at most `limit` actions) by its automatic moves and looks at every
/// heroes' move. Returns how many actions named a cell, or the first one that names no board cell.
pub fn action_cells_on_board<R: Present>(
    game: &mut Game<R>,
    limit: usize,
) -> Result<usize, String> {
    let mut named = 0;
    for _ in 0..limit {
        if let ToMove::Heroes(heroes) = game.to_move() {
            let board: Vec<_> = R::view(&game.state).cells.iter().map(|c| c.key).collect();
            for h in heroes {
                for a in game.legal_actions(Seat::Hero(h)) {
                    let Some(cell) = R::action_cell(&game.state, &a) else {
                        continue;
                    };
                    if !board.contains(&cell) {
                        return Err(format!("{a:?} names {cell:?}, not a cell of the board"));
                    }
                    named += 1;
                }
            }
        }
        let Some(a) = game.automatic(true, true) else {
            break;
        };
        game.apply(a.clone())
            .map_err(|e| format!("{a:?} refused: {e}"))?;
    }
    Ok(named)
}
