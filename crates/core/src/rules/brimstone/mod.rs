//! Brimstone-style fights on a square grid: where the enemies of a new fight go, what an enemy does
//! on its activation, what a hero's attack roll can produce, and what the party gets when the fight
//! ends.
//!
//! Each stage is a pure function of plain situation types (a [`SquareBoard`](crate::square::SquareBoard), heroes, enemies) so a
//! playable game can call it as well as the case format: [`placement::place`],
//! [`targeting::activate`], [`attack::resolve`] and [`end_of_fight::settle_member`]. Each returns every
//! outcome the rules allow, marked with who picks it ([`ChosenBy`](crate::decision::ChosenBy)), and a
//! trace in words a player can read. Random picks and ties are never settled here: they are listed.
//! `tests/conformance/brimstone/FORMAT.md` is the rule text; `docs/rules-brimstone.md` the readings.

pub mod attack;
pub mod case;
pub mod choices;
pub mod end_of_fight;
pub mod placement;
pub mod targeting;

#[cfg(test)]
mod tests;

use crate::square::Square;

/// A hero on the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hero {
    /// The hero's name.
    pub name: String,
    /// The square the hero stands on.
    pub at: Square,
    /// Shootout markers on the hero (only the Shootout behaviour reads them).
    pub markers: u32,
}

/// `(x, y)` as the trace writes it.
pub fn square_name(s: Square) -> String {
    format!("({}, {})", s.0, s.1)
}

/// Names joined for a sentence: "Vera", "Vera and Wes", "Cole, Vera and Wes".
pub fn join_names<S: AsRef<str>>(names: &[S]) -> String {
    match names {
        [] => "nobody".to_string(),
        [one] => one.as_ref().to_string(),
        [rest @ .., last] => {
            let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
            format!("{} and {}", rest.join(", "), last.as_ref())
        }
    }
}

/// Squares joined for a sentence.
pub fn join_squares(squares: &[Square]) -> String {
    let names: Vec<String> = squares.iter().map(|&s| square_name(s)).collect();
    join_names(&names)
}
