//! The state of a whole Brimstone-style fight: heroes, enemy models, where the fight stands and the
//! choice it waits for.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::Hero;
use super::actions::{Actor, Figure, Weapon};
use super::scenario::{GroupSpec, Scenario};
use crate::rules::TieBreaker;
use crate::square::Square;

/// A hero during the fight.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeroState {
    /// Where the hero stands (or stood when knocked out).
    pub at: Square,
    /// Wounds left; 0 once knocked out.
    pub hp: u32,
    /// Shootout markers on the hero.
    pub markers: u32,
    /// Grit held.
    pub grit: u32,
    /// The hero got a turn during the fight.
    pub got_turn: bool,
    /// Experience gained in this fight.
    pub xp: u32,
    /// Loot cards drawn, by index into the scenario's loot deck.
    pub loot: Vec<usize>,
}

impl HeroState {
    /// Still standing.
    pub const fn up(&self) -> bool {
        self.hp > 0
    }
}

/// One enemy group in the fight (an enemy type of a drawn threat card).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupState {
    /// The threat card it came with.
    pub card: usize,
    /// Its index on that card.
    pub index: usize,
    /// This round's rolled initiative (variable-initiative groups).
    pub rolled: Option<u32>,
    /// Heroes its models targeted this round (state indices).
    pub targeted: Vec<usize>,
}

/// One enemy model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelState {
    /// Its group (index into [`State::groups`]).
    pub group: usize,
    /// Its name.
    pub name: String,
    /// Its square; `None` before placement or when it found no room.
    pub at: Option<Square>,
    /// Wounds taken.
    pub wounds: u32,
    /// Killed.
    pub dead: bool,
    /// The hero it targets (state index).
    pub current_target: Option<usize>,
}

impl ModelState {
    /// On the board and alive.
    pub const fn active(&self) -> bool {
        self.at.is_some() && !self.dead
    }
}

/// A random pick or a players' tie the fight waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AskKind {
    /// Chance picks one option, each equally likely.
    Random,
    /// The table picks.
    Players,
}

/// The choice the fight waits for, with a few words per option.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ask {
    /// Who settles it.
    pub kind: AskKind,
    /// The options, in the order `Draw(i)` / `Choose(i)` number them.
    pub options: Vec<String>,
    /// Why the players are asked, in words (empty for a random pick; absent in older saves).
    #[serde(default)]
    pub why: String,
}

/// A hero's attack while its dice are rolled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeroStrike {
    /// The attacker.
    pub hero: usize,
    /// The attacker moved this turn before attacking.
    pub moved: bool,
    /// The enemy model attacked.
    pub target: usize,
    /// Fists and blades, the gun or the hand weapon's free attack.
    pub weapon: Weapon,
    /// The hero had made its (non-free) attack this turn before this one.
    #[serde(default)]
    pub attacked: bool,
    /// Free attacks the hero made this turn before this one.
    #[serde(default)]
    pub free_before: u32,
    /// To-hit dice rolled so far.
    pub to_hit: Vec<u32>,
    /// Damage dice rolled so far, one per hit.
    pub damage: Vec<u32>,
    /// Splash damage dice rolled so far: for each hit, one per model next to the target.
    #[serde(default)]
    pub splash: Vec<u32>,
}

/// An enemy's attack while its dice are rolled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoeStrike {
    /// The attacking model.
    pub model: usize,
    /// The heroes it attacks (state indices), one after the other.
    pub targets: Vec<usize>,
    /// The target being attacked now (index into `targets`).
    pub next: usize,
    /// A shot (Shootout shots put a marker on the target).
    pub ranged: bool,
    /// To-hit dice rolled against the current target.
    pub to_hit: Vec<u32>,
    /// Defense dice the current target rolled, one per hit.
    pub defense: Vec<u32>,
}

/// Where the fight stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// Threat cards are drawn (a random pick per card).
    Threat,
    /// The enemies are placed, normally or in an ambush.
    Placement,
    /// A round starts: variable initiative is rolled, group by group (one D6 each).
    Initiative {
        /// The next group to look at.
        group: usize,
    },
    /// The next figure to act is found (highest initiative first).
    NextActor,
    /// A hero's turn: at most one move, one attack and one free attack, in any order.
    Hero {
        /// The hero.
        hero: usize,
        /// It moved.
        moved: bool,
        /// It attacked.
        attacked: bool,
        /// Free attacks it made this turn.
        #[serde(default)]
        free_attacks: u32,
    },
    /// The lurking threat's D6: at the start of a round (`None`) or after a hero's move.
    Lurk {
        /// The hero who just moved, in its turn.
        hero: Option<usize>,
    },
    /// A hero's attack dice.
    HeroAttack(HeroStrike),
    /// An enemy model works out where it goes and whom it attacks.
    Targeting {
        /// The model.
        model: usize,
        /// The Shootout retreat roll, once rolled.
        retreat: Option<u32>,
    },
    /// The model moves to the square its targeting chose.
    Movement {
        /// The model.
        model: usize,
        /// Its end square.
        end: Square,
        /// The heroes it attacks (state indices).
        targets: Vec<usize>,
        /// The attack is a shot.
        ranged: bool,
    },
    /// The model's attack dice.
    Attack(FoeStrike),
    /// Catch your breath: a hero who got no turn chooses healing or Grit.
    Breath {
        /// The hero.
        hero: usize,
    },
    /// Catch your breath: the healing die.
    Healing {
        /// The hero.
        hero: usize,
        /// Sides of the die (3 or 6).
        die: u32,
    },
    /// Loot cards drawn for a hero.
    Loot {
        /// The hero.
        hero: usize,
        /// Cards still to draw.
        left: u32,
    },
    /// The fight is over.
    Over {
        /// The heroes won.
        won: bool,
    },
}

/// A lurking threat (scenario `lurk`): still hidden, or sprung and being placed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Lurk {
    /// No threat lurks (or it has been placed).
    #[default]
    Off,
    /// The heroes explore; the threat has not shown itself.
    Hidden,
    /// The ambush sprang and its threat is being drawn and placed.
    Sprung {
        /// The hero whose turn it sprang in (`None`: at the start of a round, before anyone moved).
        during: Option<usize>,
    },
}

/// A whole fight at one moment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The scenario.
    #[serde(with = "arc_scenario")]
    pub scenario: Arc<Scenario>,
    /// The seed.
    pub seed: u64,
    /// Who breaks ties.
    pub ties: TieBreaker,
    /// Actions applied.
    pub steps: u64,
    /// The round (0 before the first).
    pub round: u32,
    /// Every hero, in scenario order.
    pub heroes: Vec<HeroState>,
    /// Threat cards drawn, in order.
    pub threats: Vec<usize>,
    /// The enemy groups of the drawn cards.
    pub groups: Vec<GroupState>,
    /// Every enemy model of the drawn cards.
    pub models: Vec<ModelState>,
    /// Loot cards left in the deck (indices into the scenario's loot).
    pub loot_deck: Vec<usize>,
    /// The fight started as an ambush: +2 initiative to the enemies in the first round.
    pub ambush_round: bool,
    /// Where a lurking threat stands (absent in older saves: none lurks).
    #[serde(default)]
    pub lurk: Lurk,
    /// Who acted this round.
    pub acted: Vec<Actor>,
    /// The figure acting now.
    pub acting: Option<Figure>,
    /// Where the fight stands.
    pub stage: Stage,
    /// Picks made in the placement or targeting being walked.
    pub picks: Vec<usize>,
    /// What the fight waits for, when it waits for a pick.
    pub ask: Option<Ask>,
}

impl State {
    /// A group's specification.
    pub fn spec(&self, group: usize) -> &GroupSpec {
        let g = &self.groups[group];
        &self.scenario.file.threats[g.card].groups[g.index]
    }

    /// A hero's name.
    pub(crate) fn hero_name(&self, h: usize) -> &str {
        &self.scenario.file.heroes[h].name
    }

    /// The heroes still standing (state indices), in order: the decisions number heroes this way.
    pub fn standing(&self) -> Vec<usize> {
        (0..self.heroes.len())
            .filter(|&h| self.heroes[h].up())
            .collect()
    }

    /// The standing heroes as the decision functions see them.
    pub(crate) fn decision_heroes(&self) -> Vec<Hero> {
        self.standing()
            .into_iter()
            .map(|h| Hero {
                name: self.hero_name(h).to_string(),
                at: self.heroes[h].at,
                markers: self.heroes[h].markers,
            })
            .collect()
    }

    /// Whether a standing figure stands on `s`.
    pub(crate) fn occupied(&self, s: Square) -> bool {
        self.heroes.iter().any(|h| h.up() && h.at == s)
            || self.models.iter().any(|m| m.active() && m.at == Some(s))
    }

    /// The initiative of an actor this round.
    pub fn initiative(&self, actor: Actor) -> u32 {
        match actor {
            Actor::Hero(h) => self.scenario.file.heroes[h].initiative,
            Actor::Group(g) => {
                let base = match self.spec(g).initiative {
                    super::placement::Initiative::Fixed(n) => n,
                    super::placement::Initiative::Variable => self.groups[g].rolled.unwrap_or(0),
                };
                base + if self.ambush_round { 2 } else { 0 }
            }
        }
    }

    /// The hero whose turn it is, if one.
    pub fn acting_hero(&self) -> Option<usize> {
        match self.acting {
            Some(Figure::Hero(h)) => Some(h),
            _ => None,
        }
    }

    /// Whether a group has a model on the board.
    pub(crate) fn group_active(&self, g: usize) -> bool {
        self.models.iter().any(|m| m.group == g && m.active())
    }
}

mod arc_scenario {
    use super::{Arc, Scenario};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(s: &Arc<Scenario>, ser: S) -> Result<S::Ok, S::Error> {
        s.as_ref().serialize(ser)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Arc<Scenario>, D::Error> {
        Scenario::deserialize(d).map(Arc::new)
    }
}
