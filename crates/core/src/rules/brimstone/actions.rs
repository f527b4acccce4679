//! What the seats of a Brimstone-style fight do (actions) and what happened (events).

use serde::{Deserialize, Serialize};

use crate::square::Square;

/// Who takes a turn: a hero, or an enemy group with all its models.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Actor {
    /// A hero (state index).
    Hero(usize),
    /// An enemy group (state index).
    Group(usize),
}

/// One figure on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Figure {
    /// A hero (state index).
    Hero(usize),
    /// An enemy model (state index).
    Model(usize),
}

/// What a hero attacks with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Weapon {
    /// Fists and blades: Combat dice against an adjacent enemy.
    Melee,
    /// The hero's gun: Shots dice against an enemy within range and sight.
    Gun,
    /// The free attack of the hero's hand weapon: its own Combat dice against an adjacent enemy,
    /// once per turn, besides the hero's attack.
    Hand,
}

/// The catch-your-breath option a hero who got no turn chooses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum BreathChoice {
    /// Heal D6.
    Heal,
    /// Recover 1 Grit.
    Grit,
}

/// What a seat does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// The players' own change to the board, from the position lab ("play on from here"):
    /// figures moved, models taken off, applied whole.
    Arrange(crate::rules::lab::Arrangement),
    /// The rules run their next step.
    Advance,
    /// The table picks option `i` of a tie.
    Choose(usize),
    /// Chance picks option `i` of a random pick (a hero, a card, a group).
    Draw(usize),
    /// A die shows this number.
    Roll(u32),
    /// The hero whose turn it is moves to this square.
    Move(Square),
    /// The hero whose turn it is attacks an enemy model.
    Attack {
        /// The model (state index).
        target: usize,
        /// With what.
        weapon: Weapon,
    },
    /// The hero whose turn it is ends it.
    EndTurn,
    /// A hero chooses how to catch its breath.
    Breath(BreathChoice),
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// The players arranged the board in the position lab.
    Arranged {
        /// How many figures moved.
        moved: usize,
        /// The models taken off, by name.
        taken_off: Vec<String>,
    },
    /// A line of the rules' own reasoning (placement and targeting traces).
    Rule(String),
    /// A threat card came into the fight.
    ThreatDrawn {
        /// The card (scenario index).
        card: usize,
    },
    /// The enemies spring an ambush.
    Ambush {
        /// The ambush ends the current turn (it was not triggered before anyone moved).
        ends_turn: bool,
        /// The hero whose turn it ended, when it sprang in one.
        ended: Option<usize>,
    },
    /// The lurking threat did not spring on this roll.
    Lurking,
    /// A model was placed, or found no room.
    Placed {
        /// The model.
        model: usize,
        /// Its square, if any.
        at: Option<Square>,
    },
    /// A round started.
    Round(u32),
    /// An enemy model's targeting settled where it goes and whom it attacks.
    Targeted {
        /// The model.
        model: usize,
        /// Its behaviour.
        behaviour: super::targeting::Behaviour,
        /// Even distribution left a hero out of its random pick.
        even_distribution: bool,
        /// A Support model next to a hero moved away from it.
        moved_away: bool,
    },
    /// A group rolled its initiative.
    Initiative {
        /// The group.
        group: usize,
        /// The roll.
        roll: u32,
    },
    /// An actor's turn starts.
    Turn(Actor),
    /// The players picked among equal options.
    Chose {
        /// What was picked.
        option: String,
    },
    /// Chance picked one option.
    Drew {
        /// What was drawn.
        option: String,
    },
    /// A die was rolled.
    Rolled {
        /// What for.
        what: &'static str,
        /// The roll.
        roll: u32,
        /// What it needed to succeed (1: any roll counts, as for damage and healing).
        needed: u32,
    },
    /// A figure moved.
    Moved {
        /// Who.
        figure: Figure,
        /// From.
        from: Square,
        /// To.
        to: Square,
    },
    /// An attack is declared.
    Attacks {
        /// The attacker.
        by: Figure,
        /// The targets.
        on: Vec<Figure>,
        /// A shot rather than melee.
        ranged: bool,
        /// A hero's free attack.
        free: bool,
    },
    /// A figure took wounds.
    Wounded {
        /// Who.
        figure: Figure,
        /// How many.
        amount: u32,
        /// Splash damage of a hero's attack on another model.
        splash: bool,
    },
    /// A model was killed.
    Killed {
        /// The model.
        model: usize,
        /// The hero who killed it.
        by: usize,
        /// XP gained.
        xp: u32,
        /// Splash damage killed it.
        splash: bool,
    },
    /// A hero was knocked out.
    KnockedOut(usize),
    /// A hero ended its turn.
    TurnEnded(usize),
    /// A hero healed.
    Healed {
        /// The hero.
        hero: usize,
        /// Points healed.
        amount: u32,
    },
    /// A hero recovered Grit.
    GritGained(usize),
    /// A hero drew a loot card.
    Looted {
        /// The hero.
        hero: usize,
        /// The card (index into the scenario's loot).
        card: usize,
    },
    /// The fight is over.
    Over {
        /// The heroes won.
        won: bool,
        /// Why.
        why: &'static str,
    },
}
