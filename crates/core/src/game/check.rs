//! Checks of the game's undo that any module's tests run on whole games (feature `testing`).

use super::Game;
use crate::rules::{Rules, Seat, ToMove};

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
    let seats = match game.to_move() {
        ToMove::Rules { .. } => vec![Seat::Rules],
        ToMove::Chance { .. } => vec![Seat::Chance],
        ToMove::Tie { .. } => vec![Seat::Table],
        ToMove::Heroes(heroes) => heroes.into_iter().map(Seat::Hero).collect(),
        ToMove::Over { .. } => Vec::new(),
    };
    seats
        .into_iter()
        .flat_map(|s| game.legal_actions(s))
        .find(|a| a != taken)
}

/// Checks that every legal hero action naming a cell names a cell of the board, over a whole game.
///
/// Plays `game` to its end (at most `limit` actions) by its automatic moves and looks at every
/// heroes' move. Returns how many actions named a cell, or the first one that names no board cell.
pub fn action_cells_on_board<R: Rules>(game: &mut Game<R>, limit: usize) -> Result<usize, String> {
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
