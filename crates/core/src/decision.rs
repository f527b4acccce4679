//! The shape every foe decision takes: all outcomes the rules allow, who picks among them, and the
//! rule steps that narrowed them, in words a player can read.

use serde::{Deserialize, Serialize};

/// Who settles which of several allowed outcomes happens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ChosenBy {
    /// The rules leave exactly one outcome.
    Fixed,
    /// A die or a random draw: each outcome is a chance result.
    Random,
    /// A tie the rules hand to the players.
    Players,
    /// A random draw first, then a players' tie among what it left.
    RandomAndPlayers,
}

impl ChosenBy {
    /// The variant name, as case files and JSON answers write it.
    pub const fn name(self) -> &'static str {
        match self {
            ChosenBy::Fixed => "Fixed",
            ChosenBy::Random => "Random",
            ChosenBy::Players => "Players",
            ChosenBy::RandomAndPlayers => "RandomAndPlayers",
        }
    }
}

/// A decision: every outcome the rules leave open (sorted, no repeats) and the trace of rule steps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision<T> {
    /// Every outcome the rules leave open, sorted, without repeats.
    pub options: Vec<T>,
    /// The rule steps that narrowed the options, one readable line each.
    pub trace: Vec<String>,
}
