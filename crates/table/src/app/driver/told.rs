//! The log and the history, told from the action log itself, so they always match the game after
//! an undo, a redo, a jump or a load; lines a module keeps secret wait for their reveal.

use foehold_core::game::Game;
use foehold_core::rules::Present;
use foehold_core::rules::view::Telling;

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

/// An action's line in the history, from the state just before it: its round and what was done.
pub fn history_line<R: Present>(s: &R::State, a: &R::Action) -> String {
    format!("round {} · {}", R::round(s).max(1), R::action_label(s, a))
}

/// The log of the actions in effect, and a history line for every action of the log (undone ones
/// too, so redo targets can be listed).
pub fn retell<R: Present>(game: &Game<R>) -> (Told, Vec<String>) {
    let mut s = game.initial().clone();
    let mut told = Told::default();
    let mut lines = Vec::with_capacity(game.log.len());
    for (i, a) in game.log.iter().enumerate() {
        lines.push(history_line::<R>(&s, a));
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
