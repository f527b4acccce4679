//! What the seats of a goal-priority game do (actions) and what happened (events).

use serde::{Deserialize, Serialize};

use super::scenario::Qr;
use super::situation::Outcome;

/// A figure of the game: hero `i` or foe `i` (minions are foes appended in play).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Fig {
    /// A hero, by its index.
    Hero(usize),
    /// A foe, by its index.
    Foe(usize),
}

/// What a seat does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// The players' own change to the board, from the position lab ("play on from here"):
    /// figures moved, foes taken off, applied whole.
    Arrange(crate::rules::lab::Arrangement),
    /// Chance: the override card drawn this round, by its place in the deck.
    Draw(usize),
    /// Chance: one die, 1 to 6.
    Roll(u8),
    /// The hero moves to a hex (once a turn, before its action).
    Move(Qr),
    /// The hero strikes the adjacent foe `i`.
    Melee(usize),
    /// The hero shoots foe `i`.
    Shoot(usize),
    /// The hero picks up the loot on its hex.
    PickUp,
    /// The hero hands its loot to the adjacent hero `i`.
    Trade(usize),
    /// The hero switches places with the adjacent foe `i`.
    SlipAway(usize),
    /// The hero explores the adventure it stands on.
    Explore,
    /// The hero steps into the free Dome next to it.
    Hide(Qr),
    /// The hero ends its turn.
    End,
    /// The rules run their next step.
    Advance,
    /// The table picks outcome `i` of the pending tie.
    Choose(usize),
}

/// What a die decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Roll {
    /// Whether `attacker` hits `defender`: the die plus `chance` makes 4 or more.
    Hit {
        /// Who attacks.
        attacker: Fig,
        /// Who defends.
        defender: Fig,
        /// Attack minus defence, with auras.
        chance: i32,
    },
    /// Whether a hit wounds: the die beats the defender's Armor.
    Wound {
        /// Who was hit.
        defender: Fig,
    },
    /// Whether a hero explores adventure `adventure`: die + Wits + `bonus` reaches its difficulty.
    Explore {
        /// The hero.
        hero: usize,
        /// The adventure.
        adventure: usize,
        /// 2 when the hero spent a card.
        bonus: i32,
    },
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// The players arranged the board in the position lab.
    Arranged {
        /// How many figures moved.
        moved: usize,
        /// The foes taken off, by name.
        taken_off: Vec<String>,
    },
    /// A round began.
    RoundBegins {
        /// Its number.
        round: u32,
    },
    /// The override card of the round.
    CardDrawn {
        /// Its place in the deck.
        card: usize,
        /// Cards left in the deck after it.
        left: usize,
    },
    /// A hero moved.
    Moved {
        /// Who.
        hero: usize,
        /// Where to.
        to: Qr,
        /// Move points spent.
        points: u32,
    },
    /// A hero stepped into a Dome.
    Hid {
        /// Who.
        hero: usize,
        /// The Dome.
        dome: Qr,
    },
    /// An attack is made.
    Attacks {
        /// Who attacks.
        attacker: Fig,
        /// Who defends.
        defender: Fig,
        /// A ranged attack (its weapon, for a foe).
        ranged: Option<String>,
        /// Attack minus defence, with auras.
        chance: i32,
    },
    /// A die was rolled for a roll.
    Rolled {
        /// What it decided.
        roll: Roll,
        /// The die.
        die: u8,
        /// Whether it succeeded.
        success: bool,
    },
    /// A figure took a wound.
    Wounded {
        /// Who.
        fig: Fig,
        /// Wounds it can still take.
        left: u32,
    },
    /// A figure is out of the game.
    Out {
        /// Who.
        fig: Fig,
    },
    /// Loot was dropped on a hex.
    Dropped {
        /// Where.
        hex: Qr,
        /// Gold.
        gold: u32,
        /// Cards.
        cards: u32,
    },
    /// A hero picked up loot.
    PickedUp {
        /// Who.
        hero: usize,
        /// Gold.
        gold: u32,
        /// Cards.
        cards: u32,
    },
    /// A hero handed its loot to another.
    Traded {
        /// The giver.
        from: usize,
        /// The taker.
        to: usize,
    },
    /// A hero switched places with a foe.
    SlippedAway {
        /// The hero.
        hero: usize,
        /// The foe.
        foe: usize,
    },
    /// A hero tries to explore the adventure it stands on.
    Explores {
        /// Who.
        hero: usize,
        /// Which adventure.
        adventure: usize,
    },
    /// A hero spent a card on an Explore roll.
    SpentCard {
        /// Who.
        hero: usize,
    },
    /// An adventure was explored by the heroes.
    Explored {
        /// Which.
        adventure: usize,
    },
    /// A hero ended its turn.
    Ends {
        /// Who.
        hero: usize,
    },
    /// A foe walked its option list.
    Decided {
        /// Which foe.
        foe: usize,
        /// The walk, one line per step.
        trace: Vec<String>,
        /// How many outcomes it left.
        options: usize,
    },
    /// Several outcomes are left: the table chooses.
    TieOffered {
        /// Which foe.
        foe: usize,
        /// The outcomes, in the order `Choose` numbers them.
        options: Vec<Outcome>,
    },
    /// A foe carries out an outcome.
    Acts {
        /// Which foe.
        foe: usize,
        /// What it does.
        outcome: Outcome,
    },
    /// A foe found no option to take: it stays.
    Stays {
        /// Which foe.
        foe: usize,
    },
    /// A foe spent a special.
    Used {
        /// Which foe.
        foe: usize,
        /// The special's name.
        special: String,
    },
    /// A foe's minion joined the foes.
    Unleashed {
        /// The foe.
        foe: usize,
        /// The new foe's index.
        minion: usize,
    },
    /// A foe pushed back to where it came from.
    PushedBack {
        /// Which foe.
        foe: usize,
        /// Where to.
        to: Qr,
    },
    /// A hero was trapped on a Dome key.
    Trapped {
        /// Who.
        hero: usize,
    },
    /// A foe healed a wound.
    Healed {
        /// Which foe.
        foe: usize,
    },
    /// A foe took loot.
    Took {
        /// Which foe.
        foe: usize,
        /// Gold.
        gold: u32,
        /// Cards.
        cards: u32,
    },
    /// The foes captured an adventure.
    Captured {
        /// Which.
        adventure: usize,
    },
    /// The game is over.
    Over {
        /// The heroes won.
        won: bool,
        /// Why, in a few words.
        why: String,
    },
}
