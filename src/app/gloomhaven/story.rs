//! The table's log and history, told from the action log itself, so they always match the game after
//! an undo, a redo, a jump or a load.

use foehold_core::rules::gloomhaven::{Action, Event, Game, Gloomhaven, State};
use foehold_core::rules::{Present, Rules};

use super::words::action_words;

/// What the log shows so far: public lines, and card picks kept back until the reveal.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Told {
    /// Readable lines, oldest first.
    pub log: Vec<String>,
    /// Card choices made this round, kept off the log until the reveal (hot-seat players must not
    /// see each other's picks).
    pub secret: Vec<String>,
}

impl Told {
    /// Adds one event's line: a card pick only says that a choice was made until the reveal.
    pub fn tell(&mut self, s: &State, event: &Event, line: Option<String>) {
        match event {
            Event::CardsSelected { hero, .. } | Event::LongRestDeclared { hero } => {
                self.log
                    .push(format!("{} has chosen", s.scenario.heroes[*hero].name));
                self.secret.extend(line);
            }
            Event::TurnOrder { .. } => {
                self.log.append(&mut self.secret);
                self.log.extend(line);
            }
            _ => self.log.extend(line),
        }
    }
}

/// An action's line in the history, from the state just before it: its round and what was done.
pub fn history_label(s: &State, a: &Action) -> String {
    format!("round {} · {}", s.round.max(1), action_words(s, a))
}

/// The log of the actions in effect, and a history label for every action of the log (undone ones
/// too, so redo targets can be listed).
pub fn retell(game: &Game) -> (Told, Vec<String>) {
    let mut s = game.initial().clone();
    let mut told = Told::default();
    let mut labels = Vec::with_capacity(game.log.len());
    for (i, a) in game.log.iter().enumerate() {
        labels.push(history_label(&s, a));
        // Every logged action was accepted once from this same state.
        let Ok(events) = Gloomhaven::apply(&mut s, a.clone()) else {
            break;
        };
        if i < game.cursor {
            for e in &events {
                let line = Gloomhaven::describe(&s, e);
                told.tell(&s, e, line);
            }
        }
    }
    (told, labels)
}
