//! The plain types a goal-priority decision reads and returns: figures, ratings, the override card,
//! the situation as a whole, and the outcomes the players may choose between.

use super::board::Board;
use crate::hex::{Hex, qr};
use std::cmp::Ordering;

/// A printed rating: the override card names one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rating {
    Speed,
    Melee,
    Aim,
    Agility,
    Stealth,
    Wits,
    Armor,
}

impl Rating {
    pub const fn name(self) -> &'static str {
        match self {
            Rating::Speed => "Speed",
            Rating::Melee => "Melee",
            Rating::Aim => "Aim",
            Rating::Agility => "Agility",
            Rating::Stealth => "Stealth",
            Rating::Wits => "Wits",
            Rating::Armor => "Armor",
        }
    }
}

/// Which end of the override rating the card keeps: the up or the down arrow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Pick {
    Highest,
    Lowest,
}

/// The override card drawn this round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OverrideCard {
    pub rating: Rating,
    pub pick: Pick,
}

/// What an aura does to the figures it reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum AuraEffect {
    /// Helps the bearer's allies.
    Help,
    /// Hinders the bearer's enemies.
    Hinder,
}

/// An aura reaching every figure at hex distance `1..=radius` from its bearer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Aura {
    pub radius: u32,
    pub effect: AuraEffect,
}

/// A foe's ranged weapon.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weapon {
    pub name: String,
    pub min: u32,
    pub max: u32,
    /// Added to the foe's Aim.
    pub hit: i32,
}

/// The kind of a special item, which sets the order items are examined in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ItemKind {
    Surprise,
    SingleUse,
    OncePerGame,
}

/// Whom a burst affects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Affects {
    Enemies,
    Allies,
}

/// What a special item does, as far as deciding whether it is meaningful goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemEffect {
    /// Move to a space from which an enemy is at distance `min..=max` in sight (Surprise cards).
    Lurk { min: u32, max: u32 },
    /// Affects every enemy or ally within `radius`.
    Burst { radius: u32, affects: Affects },
    /// A defence on the foe itself, meaningful when it ends next to an enemy.
    Guard,
}

/// A special item of a foe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub name: String,
    pub kind: ItemKind,
    pub effect: ItemEffect,
    /// Whether using it is the foe's action (a `Lurk` always is).
    pub action: bool,
}

/// A minion a foe can unleash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MinionCard {
    pub name: String,
    pub speed: u32,
    pub melee: i32,
    pub aim: i32,
}

/// A hero or a hero's minion: the foes' enemies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hero {
    pub name: String,
    pub hex: Hex,
    pub speed: u32,
    pub melee: i32,
    pub aim: i32,
    pub agility: i32,
    pub stealth: i32,
    pub wits: i32,
    pub armor: i32,
    pub minion: bool,
    pub loot: u32,
    pub can_trade: bool,
    /// Already trapped on its Dome key by a foe this round.
    pub trapped: bool,
    pub auras: Vec<Aura>,
}

impl Hero {
    /// The printed value of a rating.
    pub fn rating(&self, r: Rating) -> i32 {
        match r {
            Rating::Speed => i32::try_from(self.speed).unwrap_or(i32::MAX),
            Rating::Melee => self.melee,
            Rating::Aim => self.aim,
            Rating::Agility => self.agility,
            Rating::Stealth => self.stealth,
            Rating::Wits => self.wits,
            Rating::Armor => self.armor,
        }
    }
}

/// A foe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Foe {
    pub name: String,
    pub hex: Hex,
    pub speed: u32,
    pub melee: i32,
    pub aim: i32,
    pub weapons: Vec<Weapon>,
    pub auras: Vec<Aura>,
    pub items: Vec<Item>,
    pub minion_card: Option<MinionCard>,
    pub slip_away: bool,
    pub acted: bool,
    /// For a foe that ended in the space of an ally that had not acted: where it came from.
    pub entered_from: Option<Hex>,
}

/// What the active foe is deciding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Its turn, from the Attack goal.
    Attack,
    /// Its turn, from the Special goal.
    Special,
    /// Whom it strikes during a hero's Melee step.
    MeleeStep,
    /// Whom it shoots with a reaction shot.
    ReactionShot,
}

/// Everything a decision reads.
#[derive(Debug, Clone)]
pub struct Situation {
    pub board: Board,
    pub heroes: Vec<Hero>,
    pub foes: Vec<Foe>,
    /// Index of the active foe in `foes`.
    pub active: usize,
    pub mode: Mode,
    pub override_card: OverrideCard,
}

/// Which option of which list an outcome comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum GoalOption {
    Attack(u8),
    Special(u8),
    Adventure,
    Unleash,
    MeleeStep,
    ReactionShot,
}

impl std::fmt::Display for GoalOption {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GoalOption::Attack(n) => write!(f, "Attack({n})"),
            GoalOption::Special(n) => write!(f, "Special({n})"),
            GoalOption::Adventure => write!(f, "Adventure"),
            GoalOption::Unleash => write!(f, "Unleash"),
            GoalOption::MeleeStep => write!(f, "MeleeStep"),
            GoalOption::ReactionShot => write!(f, "ReactionShot"),
        }
    }
}

/// What an unleashed minion does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MinionMove {
    pub option: GoalOption,
    pub target: Option<String>,
    pub end: Hex,
}

/// One outcome the players may choose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub option: GoalOption,
    pub target: Option<String>,
    pub end: Hex,
    /// The hero it switched places with by Slip Away.
    pub swap: Option<String>,
    /// The not-yet-acted ally in whose space it ends.
    pub stacked_on: Option<String>,
    pub weapon: Option<String>,
    /// Special items used this turn, sorted.
    pub used: Vec<String>,
    pub minion: Option<MinionMove>,
    /// The invading ally pushed back, and where to.
    pub unstack: Option<(String, Hex)>,
}

impl Outcome {
    /// An outcome with only an option and an end.
    pub fn new(option: GoalOption, end: Hex) -> Self {
        Outcome {
            option,
            target: None,
            end,
            swap: None,
            stacked_on: None,
            weapon: None,
            used: Vec::new(),
            minion: None,
            unstack: None,
        }
    }

    #[expect(
        clippy::type_complexity,
        reason = "a sort key: the fields in order, hexes as (q, r)"
    )]
    fn key(
        &self,
    ) -> (
        GoalOption,
        &Option<String>,
        (i32, i32),
        &Option<String>,
        &Option<String>,
        &Option<String>,
        &Vec<String>,
        Option<(GoalOption, &Option<String>, (i32, i32))>,
        Option<(&String, (i32, i32))>,
    ) {
        (
            self.option,
            &self.target,
            qr(self.end),
            &self.swap,
            &self.stacked_on,
            &self.weapon,
            &self.used,
            self.minion
                .as_ref()
                .map(|m| (m.option, &m.target, qr(m.end))),
            self.unstack.as_ref().map(|(n, h)| (n, qr(*h))),
        )
    }
}

impl PartialOrd for Outcome {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Outcome {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key().cmp(&other.key())
    }
}
