//! Random picks made by a step of the rules, whose outcomes come from outside: chance actions.
//!
//! A step that draws cards (a modifier draw, a monster's ability card, the card a short rest loses)
//! asks a [`Picker`] for each pick. In a game the picker is a [`Dealer`]: it hands out the outcomes
//! entered so far, and at the first pick it has no outcome for, it notes what is wanted ([`Want`]) and
//! answers 0 so the step can run to its end, which is then thrown away. The module waits for that
//! outcome as a [`crate::rules::Seat::Chance`] action and runs the step again from its start with one
//! outcome more, until every pick has one. So every random outcome is an action in the log (a replay
//! is exact), a table with a physical deck can enter the card it drew, and the steps themselves are
//! written as if they drew directly.
//!
//! A step must ask for the same picks, in the same order and with the same number of options,
//! whenever it is run from the same state with the same outcomes: the rules never depend on anything
//! else, so this holds.

use rand::RngExt;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// What a pick is about, and the words for each of its outcomes (all equally likely).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Want {
    /// What is drawn, e.g. "a card of the monsters' modifier deck".
    pub what: String,
    /// One name per outcome, in the order of the outcomes; names may repeat (six "+0" cards).
    pub options: Vec<String>,
}

/// Where a step's random picks come from.
pub trait Picker {
    /// One of `n` equally likely outcomes (`n` ≥ 1); `want` says what the pick is about, for a
    /// picker that must ask for it.
    fn pick(&mut self, n: usize, want: impl FnOnce() -> Want) -> usize;

    /// Like [`Picker::pick`], for a pick the rules of save format 1 made with their generator
    /// directly rather than by drawing the top of a shuffled pile (the card a short rest loses).
    fn pick_at_random(&mut self, n: usize, want: impl FnOnce() -> Want) -> usize {
        self.pick(n, want)
    }

    /// A pile is shuffled. Nothing to do when each draw is a pick among the pile (every card is
    /// equally likely whatever its place); the rebuilding of a format-1 save shuffles it as the
    /// rules of that format did.
    fn shuffle<T>(&mut self, _pile: &mut [T]) {}
}

/// Always the first outcome: a deck stacked in a known order draws its cards from the top.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Top;

impl Picker for Top {
    fn pick(&mut self, _n: usize, _want: impl FnOnce() -> Want) -> usize {
        0
    }
}

/// The outcomes of one run of a step, entered as chance actions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Dealer {
    given: Vec<usize>,
    next: usize,
    wanted: Option<Want>,
    /// Set only while a format-1 save is rebuilt: the generator its state held.
    format_1: Option<Box<Format1>>,
}

/// The generator of a format-1 game (its state held one and drew with it), and what it drew.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Format1 {
    rng: ChaCha8Rng,
    /// What each pick was about and the name of the outcome drawn, since the last
    /// [`Dealer::take_format_1_draws`].
    drawn: Vec<(String, String)>,
}

impl Dealer {
    /// A dealer with these outcomes, handed out in order.
    pub fn new(given: Vec<usize>) -> Dealer {
        Dealer {
            given,
            next: 0,
            wanted: None,
            format_1: None,
        }
    }

    /// A dealer that draws as the rules of save format 1 did: each pile shuffled by this
    /// generator (the one a format-1 state held) and drawn from its top, never asking for an
    /// outcome.
    pub fn format_1(rng: ChaCha8Rng) -> Dealer {
        Dealer {
            format_1: Some(Box::new(Format1 {
                rng,
                drawn: Vec::new(),
            })),
            ..Dealer::default()
        }
    }

    /// The same dealer for a new run of a step, with these outcomes: a format-1 generator
    /// goes on from where it is.
    pub fn restart(&mut self, given: Vec<usize>) {
        self.given = given;
        self.next = 0;
        self.wanted = None;
    }

    /// What a format-1 dealer drew since the last call (what each pick was about, and the
    /// outcome's name), in order; empty for any other dealer.
    pub fn take_format_1_draws(&mut self) -> Vec<(String, String)> {
        self.format_1
            .as_mut()
            .map(|f| std::mem::take(&mut f.drawn))
            .unwrap_or_default()
    }

    /// The first pick the run asked for and had no outcome for, if any: the run must be thrown
    /// away and run again once its outcome is known.
    pub fn wanted(&mut self) -> Option<Want> {
        self.wanted.take()
    }
}

impl Picker for Dealer {
    fn pick(&mut self, n: usize, want: impl FnOnce() -> Want) -> usize {
        let n = n.max(1);
        if let Some(f) = &mut self.format_1 {
            // The pile was shuffled when it was made or refilled: the top is drawn.
            f.note(0, want);
            return 0;
        }
        match self.given.get(self.next) {
            Some(&o) => {
                self.next += 1;
                // Outcomes are checked against the number of options when entered, and a run from
                // the same state asks for the same picks, so this never clamps.
                o.min(n - 1)
            }
            None => {
                if self.wanted.is_none() {
                    self.wanted = Some(want());
                }
                0
            }
        }
    }

    fn pick_at_random(&mut self, n: usize, want: impl FnOnce() -> Want) -> usize {
        match &mut self.format_1 {
            Some(f) => {
                let o = f.rng.random_range(0..n.max(1));
                f.note(o, want);
                o
            }
            None => self.pick(n, want),
        }
    }

    fn shuffle<T>(&mut self, pile: &mut [T]) {
        if let Some(f) = &mut self.format_1 {
            pile.shuffle(&mut f.rng);
        }
    }
}

impl Format1 {
    fn note(&mut self, outcome: usize, want: impl FnOnce() -> Want) {
        let Want { what, options } = want();
        let name = options.get(outcome).cloned().unwrap_or_default();
        self.drawn.push((what, name));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn want(n: usize) -> Want {
        Want {
            what: "a card".into(),
            options: (0..n).map(|i| i.to_string()).collect(),
        }
    }

    #[test]
    fn a_dealer_hands_out_its_outcomes_then_notes_the_first_pick_it_lacks() {
        let mut d = Dealer::new(vec![2, 0]);
        assert_eq!(d.pick(3, || want(3)), 2);
        assert_eq!(d.pick(3, || want(3)), 0);
        assert_eq!(d.wanted(), None);
        assert_eq!(d.pick(5, || want(5)), 0);
        assert_eq!(d.pick(2, || want(2)), 0, "later picks run on");
        assert_eq!(
            d.wanted(),
            Some(want(5)),
            "the first missing pick is the one asked for"
        );
    }

    #[test]
    fn the_top_picker_always_takes_the_first_outcome() {
        assert_eq!(Top.pick(7, || want(7)), 0);
    }
}
