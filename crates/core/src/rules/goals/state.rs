//! The state of a goal-priority game, and the situation a foe's decision reads built from it.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::actions::{Fig, Roll};
use super::board::{Board, Loot};
use super::scenario::{Goal, Qr, Scenario, ScenarioFile, Tile};
use super::situation::{Foe, Hero, Mode, Situation};
use crate::hex::{Hex, distance, hex};
use crate::rules::TieBreaker;

/// Where the round stands (pending rolls and ties come before it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// The override card is drawn.
    Draw,
    /// Hero `hero` acts; `moved` once it has moved this turn.
    Hero {
        /// Whose turn.
        hero: usize,
        /// It has moved already.
        moved: bool,
    },
    /// The next foe that has not acted decides and acts.
    Foes,
    /// The foes capture the adventures they hold; the round ends.
    Capture,
    /// The game is over.
    Over {
        /// The heroes won.
        won: bool,
    },
}

/// An adventure's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AdventureState {
    /// Nobody has closed it.
    Open,
    /// The heroes explored it.
    Explored,
    /// The foes captured it.
    Captured,
}

/// A hero in play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeroState {
    /// Where it stands (or last stood).
    pub hex: Qr,
    /// Wounds it can still take; 0: out.
    pub health: u32,
    /// Gold carried.
    pub gold: u32,
    /// Cards carried.
    pub cards: u32,
    /// A foe trapped it on its Dome key this round.
    pub trapped: bool,
}

/// What a foe lying in wait watches: the hero its ambush is for, and the open adventures that hero
/// could reach when the foe chose its ambush space.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Watch {
    /// The hero.
    pub hero: usize,
    /// The adventures (scenario indices), ascending.
    pub adventures: Vec<usize>,
}

/// A foe in play: one of the scenario's, or the minion one of them unleashed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoeState {
    /// Index of the scenario's foe (the one that unleashed it, for a minion).
    pub spec: usize,
    /// A minion.
    pub minion: bool,
    /// Where it stands (or last stood).
    pub hex: Qr,
    /// Wounds it can still take; 0: out.
    pub health: u32,
    /// It acted this round.
    pub acted: bool,
    /// Where it came from when it ended on a not-yet-acted ally's hex.
    pub entered_from: Option<Qr>,
    /// Specials not yet spent, by their index in the scenario's list.
    pub specials: Vec<usize>,
    /// Its minion card is still to be unleashed.
    pub minion_ready: bool,
    /// +2 Armor until the next round (a Guard).
    pub guarded: bool,
    /// It lies in wait (a ranged ambush, its last action): until its next turn, the hero it
    /// watches stepping onto an adventure it watches or next to it draws its reaction shot, once.
    #[serde(default)]
    pub waiting: bool,
    /// Whom and what its ambush watches; `None` in a game from before the watch was kept (then
    /// any hero stepping onto any open adventure draws the shot, as it did then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub watch: Option<Watch>,
    /// Gold it took.
    pub gold: u32,
    /// Cards it took.
    pub cards: u32,
}

/// A pile of loot on the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pile {
    /// Where.
    pub hex: Qr,
    /// Gold.
    pub gold: u32,
    /// Cards.
    pub cards: u32,
}

/// The whole game at one moment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The scenario (saved as its file).
    #[serde(with = "arc_scenario")]
    pub scenario: Arc<Scenario>,
    /// The seed.
    pub seed: u64,
    /// Who breaks ties.
    pub ties: TieBreaker,
    /// Actions applied.
    pub steps: u64,
    /// The round.
    pub round: u32,
    /// Where the round stands.
    pub phase: Phase,
    /// The heroes.
    pub heroes: Vec<HeroState>,
    /// The foes, minions appended.
    pub foes: Vec<FoeState>,
    /// The adventures.
    pub adventures: Vec<AdventureState>,
    /// Loot on the map.
    pub loot: Vec<Pile>,
    /// Override cards left to draw, by their place in the deck.
    pub deck: Vec<usize>,
    /// The override card of this round.
    pub card: Option<usize>,
    /// Rolls waiting for their die, the first next.
    pub rolls: Vec<Roll>,
    /// A foe whose decision left several outcomes, and how many.
    pub tie: Option<(usize, usize)>,
    /// Foes' answers to a hero's action still to come, the first next (after the rolls).
    #[serde(default)]
    pub reactions: Vec<Reaction>,
}

/// A foe's answer to what a hero did, outside its own turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reaction {
    /// Foe `i` strikes back at an adjacent enemy in the Melee step of a hero's melee attack.
    MeleeStep(usize),
    /// Foe `i`, lying in wait, shoots as a hero steps where it waited for it.
    Shot(usize),
}

impl Reaction {
    /// The foe that reacts.
    pub const fn foe(self) -> usize {
        match self {
            Reaction::MeleeStep(f) | Reaction::Shot(f) => f,
        }
    }
}

impl State {
    /// The scenario file.
    pub fn file(&self) -> &ScenarioFile {
        &self.scenario.file
    }

    /// Whether hero `h` is still in the game.
    pub(crate) fn hero_in(&self, h: usize) -> bool {
        self.heroes.get(h).is_some_and(|x| x.health > 0)
    }

    /// Whether foe `f` is still in the game.
    pub(crate) fn foe_in(&self, f: usize) -> bool {
        self.foes.get(f).is_some_and(|x| x.health > 0)
    }

    /// A figure's name.
    pub fn name(&self, fig: Fig) -> &str {
        match fig {
            Fig::Hero(h) => &self.file().heroes[h].name,
            Fig::Foe(f) => self.foe_name(f),
        }
    }

    /// A foe's name (a minion's card names it).
    pub(crate) fn foe_name(&self, f: usize) -> &str {
        let x = &self.foes[f];
        let spec = &self.file().foes[x.spec];
        match (&spec.minion_card, x.minion) {
            (Some(m), true) => &m.name,
            _ => &spec.name,
        }
    }

    /// The tile under a hex.
    pub fn tile(&self, p: Qr) -> Option<Tile> {
        self.scenario.layout.tile(hex(p.0, p.1))
    }

    /// Whether a hex is a Dome.
    pub(crate) fn is_dome(&self, p: Qr) -> bool {
        self.tile(p) == Some(Tile::Dome)
    }

    /// The hero standing on a hex.
    pub fn hero_at(&self, p: Qr) -> Option<usize> {
        (0..self.heroes.len()).find(|&h| self.hero_in(h) && self.heroes[h].hex == p)
    }

    /// Whether a foe stands on a hex.
    pub(crate) fn foe_at(&self, p: Qr) -> Option<usize> {
        (0..self.foes.len()).find(|&f| self.foe_in(f) && self.foes[f].hex == p)
    }

    /// The adventure hex `p` is a space of.
    pub(crate) fn adventure_at(&self, p: Qr) -> Option<usize> {
        let h = hex(p.0, p.1);
        self.scenario
            .layout
            .adventures
            .iter()
            .position(|spaces| spaces.contains(&h))
    }

    /// A figure's printed defence against an attack, and its Armor now.
    pub(crate) fn defence(&self, fig: Fig, ranged: bool) -> i32 {
        let woods = |p: Qr| {
            if self.tile(p) == Some(Tile::Woods) {
                2
            } else {
                0
            }
        };
        match fig {
            Fig::Hero(h) => {
                let s = &self.file().heroes[h];
                if ranged {
                    s.stealth + woods(self.heroes[h].hex)
                } else {
                    s.agility
                }
            }
            Fig::Foe(f) => {
                let x = &self.foes[f];
                let s = &self.file().foes[x.spec];
                // A minion defends with its master's ratings: its card prints none.
                if ranged {
                    s.stealth + woods(x.hex)
                } else {
                    s.agility
                }
            }
        }
    }

    /// A figure's Armor now.
    pub(crate) fn armor(&self, fig: Fig) -> i32 {
        match fig {
            Fig::Hero(h) => self.file().heroes[h].armor,
            Fig::Foe(f) => {
                let x = &self.foes[f];
                self.file().foes[x.spec].armor + if x.guarded { 2 } else { 0 }
            }
        }
    }

    /// Help auras of a figure's allies reaching it, less Hinder auras of its enemies reaching it.
    pub(crate) fn aura_bonus(&self, fig: Fig) -> i32 {
        let here = match fig {
            Fig::Hero(h) => self.heroes[h].hex,
            Fig::Foe(f) => self.foes[f].hex,
        };
        if self.is_dome(here) {
            return 0;
        }
        let at = hex(here.0, here.1);
        let mut bonus = 0;
        let mut count = |from: Qr, auras: &[super::scenario::AuraSpec], ally: bool| {
            if self.is_dome(from) {
                return;
            }
            let d = distance(hex(from.0, from.1), at);
            for a in auras {
                if d >= 1 && d <= a.radius {
                    match (a.effect, ally) {
                        (super::scenario::AuraKind::Help, true) => bonus += 1,
                        (super::scenario::AuraKind::Hinder, false) => bonus -= 1,
                        _ => {}
                    }
                }
            }
        };
        for h in (0..self.heroes.len()).filter(|&h| self.hero_in(h)) {
            if fig != Fig::Hero(h) {
                count(
                    self.heroes[h].hex,
                    &self.file().heroes[h].auras,
                    matches!(fig, Fig::Hero(_)),
                );
            }
        }
        for f in (0..self.foes.len()).filter(|&f| self.foe_in(f)) {
            if fig != Fig::Foe(f) && !self.foes[f].minion {
                count(
                    self.foes[f].hex,
                    &self.file().foes[self.foes[f].spec].auras,
                    matches!(fig, Fig::Foe(_)),
                );
            }
        }
        bonus
    }

    /// The adventures as the decision's board marks them: closed (explored or captured) counts as
    /// captured.
    pub fn closed(&self) -> Vec<bool> {
        self.adventures
            .iter()
            .map(|a| *a != AdventureState::Open)
            .collect()
    }

    /// The board as it stands: adventures closed so far and the loot on the map.
    pub fn board(&self) -> Result<Board, String> {
        let loot: Vec<Loot> = self
            .loot
            .iter()
            .map(|p| Loot {
                hex: hex(p.hex.0, p.hex.1),
                gold: p.gold,
                cards: p.cards,
            })
            .collect();
        Board::new(
            self.scenario
                .layout
                .board_spec(self.file(), &self.closed(), &loot),
        )
    }

    /// The situation foe `active` decides in: the figures in the game, the current card. Returns
    /// it with the foe indices of its `foes` list.
    pub fn situation(&self, active: usize) -> Result<(Situation, Vec<usize>), String> {
        let board = self.board()?;
        let file = self.file();
        let heroes = (0..self.heroes.len())
            .filter(|&h| self.hero_in(h))
            .map(|h| {
                let s = &file.heroes[h];
                let x = &self.heroes[h];
                Hero {
                    name: s.name.clone(),
                    hex: hex(x.hex.0, x.hex.1),
                    speed: s.speed,
                    melee: s.melee,
                    aim: s.aim,
                    agility: s.agility,
                    stealth: s.stealth,
                    wits: s.wits,
                    armor: s.armor,
                    minion: s.minion,
                    loot: x.gold + x.cards,
                    can_trade: s.can_trade,
                    trapped: x.trapped,
                    auras: s
                        .auras
                        .iter()
                        .map(super::scenario::AuraSpec::aura)
                        .collect(),
                }
            })
            .collect();
        let ids: Vec<usize> = (0..self.foes.len()).filter(|&f| self.foe_in(f)).collect();
        let foes = ids
            .iter()
            .map(|&f| {
                let x = &self.foes[f];
                let s = &file.foes[x.spec];
                let minion = x.minion.then_some(s.minion_card.as_ref()).flatten();
                match minion {
                    Some(m) => Foe {
                        name: m.name.clone(),
                        hex: hex(x.hex.0, x.hex.1),
                        speed: m.speed,
                        melee: m.melee,
                        aim: m.aim,
                        weapons: Vec::new(),
                        auras: Vec::new(),
                        items: Vec::new(),
                        minion_card: None,
                        slip_away: false,
                        acted: x.acted,
                        entered_from: x.entered_from.map(|p| hex(p.0, p.1)),
                        // A minion has one wound: while it is in the game it is not hurt.
                        hurt: false,
                    },
                    None => Foe {
                        name: s.name.clone(),
                        hex: hex(x.hex.0, x.hex.1),
                        speed: s.speed,
                        melee: s.melee,
                        aim: s.aim,
                        weapons: s
                            .weapons
                            .iter()
                            .map(super::scenario::WeaponSpec::weapon)
                            .collect(),
                        auras: s
                            .auras
                            .iter()
                            .map(super::scenario::AuraSpec::aura)
                            .collect(),
                        items: x.specials.iter().map(|&k| s.specials[k].item()).collect(),
                        minion_card: s
                            .minion_card
                            .as_ref()
                            .filter(|_| x.minion_ready)
                            .map(super::scenario::MinionSpec::card),
                        slip_away: s.slip_away,
                        acted: x.acted,
                        entered_from: x.entered_from.map(|p| hex(p.0, p.1)),
                        hurt: x.health < s.health,
                    },
                }
            })
            .collect();
        let position = ids
            .iter()
            .position(|&f| f == active)
            .ok_or_else(|| format!("foe {active} is not in the game"))?;
        let spec = &file.foes[self.foes[active].spec];
        let mode = match (self.reactions.first(), self.foes[active].minion, spec.goal) {
            (Some(Reaction::MeleeStep(f)), ..) if *f == active => Mode::MeleeStep,
            (Some(Reaction::Shot(f)), ..) if *f == active => Mode::ReactionShot,
            (_, false, Goal::Special) => Mode::Special,
            _ => Mode::Attack,
        };
        let card = self
            .card
            .and_then(|c| file.override_deck.get(c))
            .unwrap_or(&file.override_deck[0])
            .card();
        Ok((
            Situation {
                board,
                heroes,
                foes,
                active: position,
                mode,
                override_card: card,
            },
            ids,
        ))
    }

    /// The hero of the situation's hero list called `name`.
    pub(crate) fn hero_named(&self, name: &str) -> Option<usize> {
        (0..self.heroes.len()).find(|&h| self.hero_in(h) && self.file().heroes[h].name == name)
    }

    /// The foe in the game called `name`.
    pub(crate) fn foe_named(&self, name: &str) -> Option<usize> {
        (0..self.foes.len()).find(|&f| self.foe_in(f) && self.foe_name(f) == name)
    }
}

/// A hex as the state keeps it.
pub(crate) fn qr_of(h: Hex) -> Qr {
    (h.x, h.y)
}

/// Serializes the shared scenario as its file, and reads the map again on the way back.
mod arc_scenario {
    use super::{Arc, Scenario, ScenarioFile};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(s: &Arc<Scenario>, ser: S) -> Result<S::Ok, S::Error> {
        s.file.serialize(ser)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Arc<Scenario>, D::Error> {
        let file = ScenarioFile::deserialize(d)?;
        Scenario::checked(file, "save", "")
            .map(Arc::new)
            .map_err(serde::de::Error::custom)
    }
}
