//! The log and the history, told from the action log itself, so they always match the game after
//! an undo, a redo, a jump or a load; lines a module keeps secret wait for their reveal.

use foehold_core::game::Game;
use foehold_core::rules::view::Telling;
use foehold_core::rules::{Present, ToMove};

/// What the log shows so far: public lines, and lines kept back until the next reveal.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Told {
    /// Readable lines, oldest first.
    pub log: Vec<String>,
    /// Lines kept off the log until the reveal (hot-seat players must not see each other's
    /// secret choices).
    pub secret: Vec<String>,
}

impl Told {
    /// Adds one event's line, as the module tells it; `s` is the state just after the event.
    pub fn tell<R: Present>(&mut self, s: &R::State, event: &R::Event, line: Option<String>) {
        match R::telling(s, event) {
            Telling::Public => self.log.extend(line),
            Telling::Secret { public } => {
                self.log.push(public);
                self.secret.extend(line);
            }
            Telling::Reveal => {
                self.log.append(&mut self.secret);
                self.log.extend(line);
            }
        }
    }
}

/// One action in the History window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryLine {
    /// Its round, who acted and what was done.
    pub text: String,
    /// A players' decision (a hero's move, a tie broken); else one of the rules' own steps, a die
    /// or a draw, which the window lists under the decision before it.
    pub decision: bool,
}

/// An action's line in the history, from the state just before it: its round, who acted (the
/// figure whose turn the module's view shows, unless the action's own words name it) and what was
/// done.
pub fn history_line<R: Present>(s: &R::State, a: &R::Action, decision: bool) -> HistoryLine {
    let label = R::action_label(s, a);
    // A tie's pick is the same action whether a player clicked it or the dice made it: who
    // chose is told apart by whether it was the players' decision.
    let label = if matches!(R::to_move(s), ToMove::Tie { .. }) {
        let who = if decision {
            "the players choose"
        } else {
            "the dice choose"
        };
        format!("{who} {label}")
    } else {
        label
    };
    let view = R::view(s);
    let who = view
        .active
        .and_then(|id| view.figures.iter().find(|f| f.id == id))
        .map(|f| f.name.as_str())
        .filter(|name| !label.contains(name));
    let round = R::round(s).max(1);
    HistoryLine {
        text: match who {
            Some(name) => format!("round {round} · {name}: {label}"),
            None => format!("round {round} · {label}"),
        },
        decision,
    }
}

/// The log of the actions in effect, and a history line for every action of the log (undone ones
/// too, so redo targets can be listed).
pub fn retell<R: Present>(game: &Game<R>) -> (Told, Vec<HistoryLine>) {
    let mut s = game.initial().clone();
    let mut told = Told::default();
    let mut lines = Vec::with_capacity(game.log.len());
    for (i, a) in game.log.iter().enumerate() {
        lines.push(history_line::<R>(&s, a, game.is_decision(i)));
        // Every logged action was accepted once from this same state.
        let Ok(events) = R::apply(&mut s, a.clone()) else {
            break;
        };
        if i < game.cursor {
            for e in &events {
                let line = R::describe(&s, e);
                told.tell::<R>(&s, e, line);
            }
        }
    }
    (told, lines)
}
