//! The plain types a goal-priority decision reads and returns: figures, ratings, the override card,
//! the situation as a whole, and the outcomes the players may choose between.

use super::board::Board;
use crate::hex::{Hex, qr};
use std::cmp::Ordering;

/// A printed rating: the override card names one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rating {
    /// Move points of a Move action.
    Speed,
    /// Melee attack rating.
    Melee,
    /// Ranged attack rating.
    Aim,
    /// Defence against melee attacks.
    Agility,
    /// Defence against ranged attacks.
    Stealth,
    /// Wits (only the override card reads it).
    Wits,
    /// Armor: the lowest is the easiest to Damage.
    Armor,
}

impl Rating {
    /// The rating's printed name.
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
    /// The up arrow: the highest rating.
    Highest,
    /// The down arrow: the lowest rating.
    Lowest,
}

/// The override card drawn this round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OverrideCard {
    /// The rating the card names.
    pub rating: Rating,
    /// Which end of it the card keeps.
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
    /// How far it reaches.
    pub radius: u32,
    /// What it does.
    pub effect: AuraEffect,
}

/// A foe's ranged weapon.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weapon {
    /// The weapon's name.
    pub name: String,
    /// The nearest distance it shoots at.
    pub min: u32,
    /// The farthest distance it shoots at.
    pub max: u32,
    /// Added to the foe's Aim.
    pub hit: i32,
}

/// The kind of a special item, which sets the order items are examined in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ItemKind {
    /// Surprise cards, examined first.
    Surprise,
    /// Single-use cards.
    SingleUse,
    /// Once-per-game abilities, examined last.
    OncePerGame,
}

/// Whom a burst affects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Affects {
    /// The bearer's enemies.
    Enemies,
    /// The bearer's allies.
    Allies,
}

/// What a special item does, as far as deciding whether it is meaningful goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemEffect {
    /// Move to a space from which an enemy is at distance `min..=max` in sight (Surprise cards).
    Lurk {
        /// The nearest distance.
        min: u32,
        /// The farthest distance.
        max: u32,
        /// What the strike from hiding adds to the foe's Aim.
        strike: i32,
    },
    /// Affects every enemy or ally within `radius`.
    Burst {
        /// How far it reaches.
        radius: u32,
        /// Whom it affects.
        affects: Affects,
    },
    /// A defence on the foe itself, meaningful when it ends next to an enemy.
    Guard,
}

/// A special item of a foe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// The item's name.
    pub name: String,
    /// Its kind.
    pub kind: ItemKind,
    /// What it does.
    pub effect: ItemEffect,
    /// Whether using it is the foe's action (a `Lurk` always is).
    pub action: bool,
}

/// A minion a foe can unleash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MinionCard {
    /// The minion's name.
    pub name: String,
    /// Its Speed.
    pub speed: u32,
    /// Its Melee.
    pub melee: i32,
    /// Its Aim.
    pub aim: i32,
}

/// A hero or a hero's minion: the foes' enemies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hero {
    /// The hero's name.
    pub name: String,
    /// Where the hero stands.
    pub hex: Hex,
    /// Speed: where the hero could go next turn.
    pub speed: u32,
    /// Melee.
    pub melee: i32,
    /// Aim.
    pub aim: i32,
    /// Agility: defence against melee.
    pub agility: i32,
    /// Stealth: defence against ranged attacks.
    pub stealth: i32,
    /// Wits (only the override card reads it).
    pub wits: i32,
    /// Armor: the lowest is the easiest to Damage.
    pub armor: i32,
    /// A hero's minion: a target only while no real hero can be targeted.
    pub minion: bool,
    /// Loot items carried (only "more than zero" matters).
    pub loot: u32,
    /// Whether the hero can trade at all.
    pub can_trade: bool,
    /// Already trapped on its Dome key by a foe this round.
    pub trapped: bool,
    /// Its auras.
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
    /// The foe's name.
    pub name: String,
    /// Where it stands.
    pub hex: Hex,
    /// Move points of a Move action.
    pub speed: u32,
    /// Melee attack rating.
    pub melee: i32,
    /// Ranged attack rating.
    pub aim: i32,
    /// Its ranged weapons: none, no ranged attack.
    pub weapons: Vec<Weapon>,
    /// Its auras.
    pub auras: Vec<Aura>,
    /// Its special items, in file order.
    pub items: Vec<Item>,
    /// A minion it can unleash.
    pub minion_card: Option<MinionCard>,
    /// It may use the Slip Away action.
    pub slip_away: bool,
    /// It has already taken its action this round.
    pub acted: bool,
    /// For a foe that ended in the space of an ally that had not acted: where it came from.
    pub entered_from: Option<Hex>,
    /// It has lost wounds: a healing burst means something to it.
    pub hurt: bool,
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
    /// The board.
    pub board: Board,
    /// The heroes and their minions.
    pub heroes: Vec<Hero>,
    /// Every foe, the active one included.
    pub foes: Vec<Foe>,
    /// Index of the active foe in `foes`.
    pub active: usize,
    /// What the active foe is deciding.
    pub mode: Mode,
    /// The override card drawn this round.
    pub override_card: OverrideCard,
}

/// Which option of which list an outcome comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum GoalOption {
    /// Option `n` of the Attack goal.
    Attack(u8),
    /// Option `n` of the Special goal.
    Special(u8),
    /// The Adventure goal.
    Adventure,
    /// Unleashing a minion, before any option.
    Unleash,
    /// A strike during a hero's Melee step.
    MeleeStep,
    /// A reaction shot.
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
    /// The option the minion takes.
    pub option: GoalOption,
    /// The hero it targets, if any.
    pub target: Option<String>,
    /// Where it ends.
    pub end: Hex,
}

/// One outcome the players may choose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The option the outcome comes from.
    pub option: GoalOption,
    /// The hero it targets, if any.
    pub target: Option<String>,
    /// Where the foe ends.
    pub end: Hex,
    /// The hero it switched places with by Slip Away.
    pub swap: Option<String>,
    /// The not-yet-acted ally in whose space it ends.
    pub stacked_on: Option<String>,
    /// The ranged weapon used, if any.
    pub weapon: Option<String>,
    /// Special items used this turn, sorted.
    pub used: Vec<String>,
    /// The minion unleashed and what it does.
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
