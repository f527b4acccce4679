//! The scenario file format (RON): map, heroes and their ability cards, monster types and their ability
//! decks, modifier decks, victory and defeat; loading and validation with `file:line:column` errors.
//!
//! Maps are drawn as text, one character per hex. Columns are `q`; the text row is turned into axial
//! `r` the way the conformance puzzles count rows (`row = r + floor(q / 2)`), so a rectangle of text is a
//! rectangular board. Characters:
//!
//! | char | hex |
//! |---|---|
//! | ` ` | no hex |
//! | `.` | floor |
//! | `#` | wall hex |
//! | `o` | obstacle |
//! | `^` | trap |
//! | `~` | hazardous terrain |
//! | `%` | difficult terrain |
//! | `*` | icy terrain |
//! | `1`–`9` | floor where hero 1–9 starts |
//! | `+` | a door, closed at setup (`rooms` says which rooms it joins) |
//! | `>` | floor that is an exit (a scenario won by escaping) |
//! | other letters | floor with a monster from `legend`, a treasure from `treasures` or an ally from `allies` |

use std::collections::BTreeMap;

use super::preset::{Edition, Overrides, Preset};
use serde::{Deserialize, Serialize};

use crate::error::{LoadError, find_position, offset_to_position, parse_ron};
use crate::hex::{Hex, HexMap, Terrain, hex};
use crate::library::Library;

pub mod special;
mod warnings;
pub use special::{Area, RuleEffect, Side, SpecialRule, Trigger};

/// The `rules:` field of a Gloomhaven scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RulesName {
    /// The Gloomhaven-style rules of this module.
    Gloomhaven,
}

/// Which kind of board the scenario uses. Only hexes exist for now; square boards come with their module.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Grid {
    /// Flat-topped hexes named by axial `(q, r)`.
    Hex,
}

/// The six elements of the element board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Element {
    /// Fire.
    Fire,
    /// Ice.
    Ice,
    /// Air.
    Air,
    /// Earth.
    Earth,
    /// Light.
    Light,
    /// Dark.
    Dark,
}

impl Element {
    /// Every element, in the order of the element board.
    pub const ALL: [Element; 6] = [
        Element::Fire,
        Element::Ice,
        Element::Air,
        Element::Earth,
        Element::Light,
        Element::Dark,
    ];

    /// The element's place in [`Element::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The element's name in log lines.
    pub const fn name(self) -> &'static str {
        match self {
            Element::Fire => "fire",
            Element::Ice => "ice",
            Element::Air => "air",
            Element::Earth => "earth",
            Element::Light => "light",
            Element::Dark => "dark",
        }
    }
}

/// Conditions a figure can carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Condition {
    /// +1 to every attack that targets the figure; a heal removes it instead of healing.
    Poison,
    /// 1 damage at the start of each of the figure's turns; a heal removes it.
    Wound,
    /// The figure loses its next turn.
    Stun,
    /// No movement on its next turn.
    Immobilize,
    /// No attack on its next turn.
    Disarm,
    /// Disadvantage on its attacks.
    Muddle,
    /// Enemies cannot focus on or target it.
    Invisible,
    /// Advantage on its attacks.
    Strengthen,
}

impl Condition {
    /// Conditions that last until healed rather than to the end of the next turn.
    pub const fn until_healed(self) -> bool {
        matches!(self, Condition::Poison | Condition::Wound)
    }

    /// The condition's name in log lines.
    pub const fn name(self) -> &'static str {
        match self {
            Condition::Poison => "poison",
            Condition::Wound => "wound",
            Condition::Stun => "stun",
            Condition::Immobilize => "immobilize",
            Condition::Disarm => "disarm",
            Condition::Muddle => "muddle",
            Condition::Invisible => "invisible",
            Condition::Strengthen => "strengthen",
        }
    }
}

/// A bonus for consuming an element.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Consume {
    /// The element consumed.
    pub element: Element,
    /// Added to the attack value.
    #[serde(default)]
    pub attack: i32,
    /// Added to the targets' conditions.
    #[serde(default)]
    pub conditions: Vec<Condition>,
    /// Healed on the consumer.
    #[serde(default)]
    pub heal: u32,
}

/// One effect of a hero's card half.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Effect {
    /// Walk up to N movement points.
    Move(u32),
    /// Jump up to N hexes: only the last hex matters.
    Jump(u32),
    /// An attack, melee or ranged.
    Attack {
        /// The attack value.
        value: u32,
        /// 0 = melee.
        #[serde(default)]
        range: u32,
        /// How many targets it may have.
        #[serde(default = "one")]
        targets: u32,
        /// Shield points of the target it ignores.
        #[serde(default)]
        pierce: u32,
        /// Conditions it gives its targets.
        #[serde(default)]
        conditions: Vec<Condition>,
        /// A bonus for consuming an element.
        #[serde(default)]
        consume: Option<Consume>,
    },
    /// Heal N, on oneself (range 0) or an ally within range.
    Heal {
        /// Points healed.
        value: u32,
        /// 0 = oneself only.
        #[serde(default)]
        range: u32,
    },
    /// Shield N until the end of the round.
    Shield(u32),
    /// Infuse an element: it becomes strong at the end of the turn.
    Infuse(Element),
    /// A condition the hero gives itself (strengthen, invisible).
    SelfCondition(Condition),
    /// Picks up every money token within range N (0: its own hex).
    Loot(u32),
    /// Places a summon of the hero's side on an empty hex next to the hero (the `ally` hex of the
    /// play, or the first free one in board order). Only on a half that is lost.
    Summon(SummonSpec),
}

/// A figure a hero summons: its own hit points, move and attack. It acts just before its summoner
/// by the focus rules, draws from its summoner's modifier deck, and leaves with its summoner.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SummonSpec {
    /// The summon's name.
    pub name: String,
    /// Hit points when unhurt.
    pub hp: u32,
    /// Movement points of its turn.
    #[serde(rename = "move")]
    pub movement: u32,
    /// Attack value of its turn (a single target).
    pub attack: u32,
    /// 0 = melee.
    #[serde(default)]
    pub range: u32,
}

fn one() -> u32 {
    1
}

/// Top or bottom half of an ability card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardHalf {
    /// What the half does, in order.
    pub effects: Vec<Effect>,
    /// The card goes to the lost pile when this half is used.
    #[serde(default)]
    pub lost: bool,
    /// Experience the character gains for using the half.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub xp: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl CardHalf {
    /// The half's movement, if any: points and whether it is a jump.
    pub fn movement(&self) -> Option<(u32, bool)> {
        self.effects.iter().find_map(|e| match e {
            Effect::Move(n) => Some((*n, false)),
            Effect::Jump(n) => Some((*n, true)),
            _ => None,
        })
    }

    /// The half's attack, if any.
    pub fn attack(&self) -> Option<&Effect> {
        self.effects
            .iter()
            .find(|e| matches!(e, Effect::Attack { .. }))
    }
}

/// A hero's ability card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeroCard {
    /// The card's name.
    pub name: String,
    /// The character level from which a class's hero may take it into its hand (1 to 9).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub level: u32,
    /// Its initiative: lower acts earlier.
    pub initiative: u32,
    /// Its top half.
    pub top: CardHalf,
    /// Its bottom half.
    pub bottom: CardHalf,
}

/// A hero as the scenario sets it up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeroSpec {
    /// The hero's name.
    pub name: String,
    /// The player who controls the hero (hot-seat).
    #[serde(default = "one")]
    pub player: u32,
    /// The hero's class in the library: its hit points for the hero's level, its modifier deck
    /// and its cards come from there unless the hero writes them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// Hit points when unhurt (from the class when it has one and this is not written).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hp: u32,
    /// The hero's attack modifier deck; the class's, else the standard 20 cards, when omitted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modifiers: Option<Vec<String>>,
    /// The hero's ability cards: written out, or taken from its class (`hand`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cards: Vec<HeroCard>,
    /// For a hero of a class: the cards of its hand, by name, from the class's cards of its level
    /// or below; when not written, the first of those, as many as the class's hand size.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hand: Vec<String>,
    /// The hero's level (1 to 9): the recommended scenario level is half the party's average,
    /// rounded up.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub level: u32,
    /// For a hero of a class: the class's perks it has taken, by name (a perk taken twice is
    /// named twice), each changing its modifier deck.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub perks: Vec<String>,
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

/// The highest character level.
pub const MAX_HERO_LEVEL: u32 = 9;

/// A hero class: hit points by level, hand size, modifier deck and the pool of ability cards a
/// hero of the class chooses its hand from. A library file holds one, written `Class(…)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Class")]
pub struct Class {
    /// The class's name, as heroes' `class:` write it.
    pub name: String,
    /// Hit points at each character level from 1 to 9.
    pub hp: Vec<u32>,
    /// How many cards a hero of the class takes into a scenario.
    pub hand_size: u32,
    /// The class's attack modifier deck; the standard 20 cards when omitted.
    #[serde(default)]
    pub modifiers: Option<Vec<String>>,
    /// Every card of the class, each with the level from which it may be taken.
    pub cards: Vec<HeroCard>,
    /// The perks a hero of the class may take: changes to its modifier deck.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub perks: Vec<Perk>,
}

/// A perk of a class: cards it takes out of the hero's modifier deck and cards it puts in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Perk {
    /// Its name, as heroes' `perks:` write it.
    pub name: String,
    /// Cards taken out, one each, in the modifier notation ("-1").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remove: Vec<String>,
    /// Cards put in ("+1", "r+1" a rolling one, "+0 stun").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub add: Vec<String>,
    /// How many times a hero may take it.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub times: u32,
}

impl Perk {
    /// What it does, in words: "remove -1, -1; add +1".
    pub fn words(&self) -> String {
        let mut parts = Vec::new();
        if !self.remove.is_empty() {
            parts.push(format!("remove {}", self.remove.join(", ")));
        }
        if !self.add.is_empty() {
            parts.push(format!("add {}", self.add.join(", ")));
        }
        parts.join("; ")
    }
}

/// Perks a character of `level` may hold: one for each level above the first, and up to six more
/// earned at the table (the marks of a campaign this program does not keep).
pub fn perks_allowed(level: u32) -> usize {
    level.saturating_sub(1) as usize + 6
}

/// Parses one library class file (`Class(…)`).
pub fn parse_class(file: &str, text: &str) -> Result<Class, LoadError> {
    parse_ron(file, text)
}

/// Checks a class written in `file`: nine levels of hit points, a hand size its level-1 cards
/// fill, and its cards as a hero's are checked.
pub(crate) fn check_class(file: &str, text: &str, c: &Class) -> Result<(), LoadError> {
    let err = |needle: &str, msg: String| LoadError::at_text(file, text, needle, msg);
    let n = |v: u32| i64::from(v);
    if c.hp.len() != MAX_HERO_LEVEL as usize {
        return Err(err(
            "hp:",
            format!(
                "hp: {} lists hit points for {} levels: expected one for each level from 1 to {MAX_HERO_LEVEL}",
                c.name,
                c.hp.len()
            ),
        ));
    }
    for hp in &c.hp {
        in_bounds(file, text, "hp", n(*hp), 1, MAX_NUMBER)?;
    }
    in_bounds(file, text, "hand_size", n(c.hand_size), 2, MAX_COUNT as i64)?;
    at_most(file, text, "cards", c.cards.len(), MAX_COUNT * 4)?;
    for card in &c.cards {
        in_bounds(file, text, "level", n(card.level), 1, MAX_HERO_LEVEL.into())?;
    }
    let first = c.cards.iter().filter(|x| x.level == 1).count();
    if first < c.hand_size as usize {
        return Err(err(
            "hand_size:",
            format!(
                "hand_size: {} takes {} cards but has {first} of level 1",
                c.name, c.hand_size
            ),
        ));
    }
    if let Some(twice) = written_twice(c.cards.iter().map(|x| x.name.as_str())) {
        return Err(err(
            &format!("\"{twice}\""),
            format!("cards: {twice} is written twice"),
        ));
    }
    if let Some(m) = &c.modifiers {
        at_most(file, text, "modifiers", m.len(), MAX_MODIFIERS)?;
        check_modifiers(file, text, m)?;
    }
    at_most(file, text, "perks", c.perks.len(), MAX_COUNT)?;
    if let Some(twice) = written_twice(c.perks.iter().map(|p| p.name.as_str())) {
        return Err(err(
            &format!("\"{twice}\""),
            format!("perks: {twice} is written twice"),
        ));
    }
    for p in &c.perks {
        let at = format!("\"{}\"", p.name);
        at_most(file, text, "remove", p.remove.len(), MAX_COUNT)?;
        at_most(file, text, "add", p.add.len(), MAX_COUNT)?;
        in_bounds(file, text, "times", i64::from(p.times), 1, 9)?;
        if p.remove.is_empty() && p.add.is_empty() {
            return Err(err(
                &at,
                format!(
                    "perks: {} changes nothing: write the cards it removes or adds",
                    p.name
                ),
            ));
        }
        for cards in [&p.remove, &p.add] {
            if !cards.is_empty() {
                check_modifiers(file, text, cards)?;
            }
        }
    }
    card_bounds(file, text, &c.cards, 0)?;
    check_hero_cards(file, text, &c.cards)
}

impl HeroSpec {
    /// The modifier deck `deck` (the standard one when none) after the hero's perks of class `c`,
    /// taken in the order named. Refuses an unknown perk, one taken more often than it may be,
    /// more perks than the level allows, and a perk removing a card the deck no longer holds.
    fn with_perks(&self, c: &Class, deck: Option<Vec<String>>) -> Result<Vec<String>, String> {
        let allowed = perks_allowed(self.level);
        if self.perks.len() > allowed {
            return Err(format!(
                "{} takes {} perks: a level-{} character holds at most {allowed}",
                self.name,
                self.perks.len(),
                self.level
            ));
        }
        let mut deck = deck.unwrap_or_else(standard_modifiers);
        for (i, name) in self.perks.iter().enumerate() {
            let Some(p) = c.perks.iter().find(|p| &p.name == name) else {
                return Err(format!("{name:?} is not a perk of the {}", c.name));
            };
            let taken = self.perks[..=i].iter().filter(|x| *x == name).count();
            if taken > p.times as usize {
                return Err(format!(
                    "{} takes {name:?} {taken} times: it may be taken {}",
                    self.name,
                    if p.times == 1 {
                        "once".to_string()
                    } else {
                        format!("{} times", p.times)
                    }
                ));
            }
            for card in &p.remove {
                let Some(at) = deck.iter().position(|x| x == card) else {
                    return Err(format!(
                        "{}: the perk {name:?} removes a {card} the deck no longer holds",
                        self.name
                    ));
                };
                deck.remove(at);
            }
            deck.extend(p.add.iter().cloned());
        }
        Ok(deck)
    }

    /// The hero as its class makes it, at its level: hit points, modifier deck and the hand
    /// (written or the first cards of its level). Refuses a hand the class cannot give.
    pub fn of_class(&self, c: &Class) -> Result<HeroSpec, String> {
        let mut out = self.clone();
        if !self.cards.is_empty() {
            return Err(format!(
                "{} is of class {}: its cards come from the class (name them in `hand:`)",
                self.name, c.name
            ));
        }
        let level = self.level.clamp(1, MAX_HERO_LEVEL);
        if out.hp == 0 {
            out.hp = c.hp[level as usize - 1];
        }
        if out.modifiers.is_none() {
            out.modifiers = c.modifiers.clone();
        }
        if !self.perks.is_empty() {
            out.modifiers = Some(self.with_perks(c, out.modifiers.take())?);
        }
        let open = |x: &&HeroCard| x.level <= level;
        if self.hand.is_empty() {
            out.cards = c
                .cards
                .iter()
                .filter(open)
                .take(c.hand_size as usize)
                .cloned()
                .collect();
            return Ok(out);
        }
        if self.hand.len() > c.hand_size as usize {
            return Err(format!(
                "{} holds {} cards: a {} takes {} into a scenario",
                self.name,
                self.hand.len(),
                c.name,
                c.hand_size
            ));
        }
        for (i, name) in self.hand.iter().enumerate() {
            if self.hand[..i].contains(name) {
                return Err(format!("{} names {name:?} twice in its hand", self.name));
            }
            let Some(card) = c.cards.iter().find(|x| &x.name == name) else {
                return Err(format!("{name:?} is not a card of the {}", c.name));
            };
            if !open(&card) {
                return Err(format!(
                    "{name:?} is a level {} card: {} is level {level}",
                    card.level, self.name
                ));
            }
            out.cards.push(card.clone());
        }
        Ok(out)
    }
}

/// A monster's printed statistics at one rank.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stats {
    /// Hit points when unhurt.
    pub hp: u32,
    /// Movement points.
    #[serde(rename = "move")]
    pub movement: u32,
    /// Attack value.
    pub attack: u32,
    /// 0 = melee.
    #[serde(default)]
    pub range: u32,
    /// Shield.
    #[serde(default)]
    pub shield: u32,
    /// Conditions every attack of this monster adds.
    #[serde(default)]
    pub conditions: Vec<Condition>,
    /// Damage an attacker suffers after attacking it from within `retaliate_range`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub retaliate: u32,
    /// How far its retaliation reaches: 0 = adjacent attackers only.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub retaliate_range: u32,
    /// Pierce every attack of this monster adds to its card's.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pierce: u32,
    /// Targets of every attack of this monster, when more than its card gives (0: as the card).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub targets: u32,
}

/// A monster ability card: what every monster of the type does this round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbilityCard {
    /// The card's name.
    pub name: String,
    /// Its initiative: lower acts earlier.
    pub initiative: u32,
    /// Reshuffle the ability deck at the end of the round.
    #[serde(default)]
    pub shuffle: bool,
    /// The card's actions, resolved top to bottom in this order.
    #[serde(default)]
    pub actions: Vec<MonsterEffect>,
}

/// One action of a monster ability card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum MonsterEffect {
    /// Move: the change to the type's base move.
    Move(i32),
    /// Jump: the change to the type's base move, jumping.
    Jump(i32),
    /// Attack: the change to the type's base attack.
    Attack {
        /// The change to the type's base attack.
        value: i32,
        /// Replaces the base range (0 = melee).
        #[serde(default)]
        range: Option<u32>,
        /// How many targets the attack may have.
        #[serde(default = "one")]
        targets: u32,
        /// Area pattern as axial offsets (see the puzzle format: melee areas are relative to the
        /// attacker).
        #[serde(default)]
        aoe: Vec<(i32, i32)>,
        /// Shield points of the target the attack ignores.
        #[serde(default)]
        pierce: u32,
        /// Conditions the attack gives.
        #[serde(default)]
        conditions: Vec<Condition>,
        /// A bonus for consuming an element, made once for the whole type.
        #[serde(default)]
        consume: Option<Consume>,
    },
    /// Heal N on itself.
    Heal(u32),
    /// Shield N until the end of the round.
    Shield(u32),
    /// Infuses the element, once for the whole type.
    Infuse(Element),
    /// Each monster performing the card spawns a normal monster of the named type on an empty hex
    /// next to it, while the type has a standee left. Spawned monsters leave no money token and do
    /// not act in the round they appear.
    Spawn(String),
    /// A boss's special action `n` (from 1): the actions of its type's `specials[n - 1]`, put
    /// after this one when a game is set up.
    Special(u32),
}

/// The attack of a monster ability card, borrowed from its [`MonsterEffect::Attack`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardAttack<'a> {
    /// The change to the type's base attack.
    pub value: i32,
    /// Replaces the base range (0 = melee).
    pub range: Option<u32>,
    /// How many targets the attack may have.
    pub targets: u32,
    /// Area pattern as axial offsets.
    pub aoe: &'a [(i32, i32)],
    /// Shield points of the target the attack ignores.
    pub pierce: u32,
    /// Conditions the attack gives.
    pub conditions: &'a [Condition],
    /// A bonus for consuming an element.
    pub consume: Option<&'a Consume>,
}

/// The move and the attack a monster resolves together: a move with the attack printed right after
/// it, a move alone, or an attack alone (made from where the monster stands).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Segment<'a> {
    /// The change to the base move and whether it jumps.
    pub movement: Option<(i32, bool)>,
    /// The attack made after the move (or alone).
    pub attack: Option<CardAttack<'a>>,
    /// The index of the card action after the segment.
    pub next: usize,
}

impl MonsterEffect {
    /// The attack's fields, when this is an attack.
    pub fn attack(&self) -> Option<CardAttack<'_>> {
        match self {
            MonsterEffect::Attack {
                value,
                range,
                targets,
                aoe,
                pierce,
                conditions,
                consume,
            } => Some(CardAttack {
                value: *value,
                range: *range,
                targets: *targets,
                aoe,
                pierce: *pierce,
                conditions,
                consume: consume.as_ref(),
            }),
            _ => None,
        }
    }

    /// The move's change and whether it jumps, when this is a move.
    pub fn movement(&self) -> Option<(i32, bool)> {
        match self {
            MonsterEffect::Move(n) => Some((*n, false)),
            MonsterEffect::Jump(n) => Some((*n, true)),
            _ => None,
        }
    }
}

impl AbilityCard {
    /// The card's attack, if it has one (a card has at most one).
    pub fn attack(&self) -> Option<CardAttack<'_>> {
        self.actions.iter().find_map(MonsterEffect::attack)
    }

    /// The segment that starts at action `at`, if the action there is a move or an attack.
    pub(crate) fn segment(&self, at: usize) -> Option<Segment<'_>> {
        let here = self.actions.get(at)?;
        if let Some(m) = here.movement() {
            let attack = self.actions.get(at + 1).and_then(MonsterEffect::attack);
            return Some(Segment {
                movement: Some(m),
                attack,
                next: at + 1 + attack.is_some() as usize,
            });
        }
        here.attack().map(|a| Segment {
            movement: None,
            attack: Some(a),
            next: at + 1,
        })
    }
}

/// A monster's statistics at one scenario level: normal and elite.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ranks {
    /// Statistics of a normal monster.
    pub normal: Stats,
    /// Statistics of an elite monster.
    pub elite: Stats,
}

/// The scenario levels, from 0 to this.
pub const MAX_LEVEL: u32 = 7;

/// A monster type: statistics per rank (or per level and rank) and its ability deck. A library file
/// holds one, written `Monster(…)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Monster")]
pub struct MonsterType {
    /// The type's name, as the legend and log lines use it.
    pub name: String,
    /// Every monster of the type flies.
    #[serde(default)]
    pub flying: bool,
    /// Every monster of the type attacks with advantage (as its statistics card prints).
    #[serde(default)]
    pub advantage: bool,
    /// The most monsters of the type on the board at once: a spawn finds no standee beyond it.
    #[serde(default = "standees")]
    pub standees: u32,
    /// Statistics of a normal monster: as written, or those of the level played when the type
    /// has `levels`.
    #[serde(default)]
    pub normal: Stats,
    /// Statistics of an elite monster (as `normal`).
    #[serde(default)]
    pub elite: Stats,
    /// Statistics for each scenario level from 0 to 7, when the type has them (library types do).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub levels: Vec<Ranks>,
    /// The type's ability deck.
    pub deck: Vec<AbilityCard>,
    /// Conditions that never stick to a monster of the type.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub immunities: Vec<Condition>,
    /// An objective: it never acts and has no deck, conditions do not stick to it, monsters leave
    /// it be, and the heroes attack it as a foe.
    #[serde(default, skip_serializing_if = "is_false")]
    pub objective: bool,
    /// Its hit points are the printed number times the characters playing (bosses, objectives).
    #[serde(default, skip_serializing_if = "is_false")]
    pub hp_per_character: bool,
    /// A boss's special actions: a card's `Special(1)` performs the first list, `Special(2)`
    /// the second.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub specials: Vec<Vec<MonsterEffect>>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl MonsterType {
    /// A monster's hit points when unhurt, for `characters` playing.
    pub fn hit_points(&self, elite: bool, characters: usize) -> u32 {
        let hp = if elite { self.elite.hp } else { self.normal.hp };
        if self.hp_per_character {
            hp * characters as u32
        } else {
            hp
        }
    }

    /// The names of the types its cards and specials spawn.
    pub fn spawns(&self) -> impl Iterator<Item = &String> {
        self.deck
            .iter()
            .flat_map(|c| &c.actions)
            .chain(self.specials.iter().flatten())
            .filter_map(|a| match a {
                MonsterEffect::Spawn(n) => Some(n),
                _ => None,
            })
    }

    /// The type as a game plays it: each `Special(n)` on a card followed by the actions of
    /// special `n` (the marker stays, for the log). Done once: the specials are then cleared.
    pub fn with_specials(&self) -> MonsterType {
        let mut t = self.clone();
        if t.specials.is_empty() {
            return t;
        }
        for c in &mut t.deck {
            c.actions = c
                .actions
                .iter()
                .flat_map(|a| {
                    let mut out = vec![a.clone()];
                    if let MonsterEffect::Special(n) = a
                        && let Some(list) = (*n as usize)
                            .checked_sub(1)
                            .and_then(|i| self.specials.get(i))
                    {
                        out.extend(list.iter().cloned());
                    }
                    out
                })
                .collect();
        }
        t.specials.clear();
        t
    }

    /// The type at scenario level `level`: its statistics are those the level prints, when it
    /// has levels.
    pub fn at_level(&self, level: u32) -> MonsterType {
        let mut t = self.clone();
        if let Some(r) = self.levels.get(level as usize) {
            t.normal = r.normal.clone();
            t.elite = r.elite.clone();
            // A game reads the level it is played at; the rest is the file's, kept once.
            t.levels.clear();
        }
        t
    }
}

/// What stands on a monster spot for one number of characters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Rank {
    /// Nothing.
    #[default]
    Absent,
    /// A normal monster.
    Normal,
    /// An elite monster.
    Elite,
}

/// A monster standing on the map at setup.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    /// The monster type's name.
    pub monster: String,
    /// An elite monster (for every number of characters).
    #[serde(default, skip_serializing_if = "is_false")]
    pub elite: bool,
    /// What stands there for two, three and four characters, as a printed scenario marks it:
    /// `(Absent, Normal, Elite)`. Without it, a monster stands there for every number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<[Rank; 3]>,
}

impl Placement {
    /// What stands on the spot for `characters` playing (fewer than two count as two, more than
    /// four as four, as the rules place for a lone character).
    pub fn rank(&self, characters: usize) -> Rank {
        match self.players {
            Some(by) => by[characters.clamp(2, 4) - 2],
            None if self.elite => Rank::Elite,
            None => Rank::Normal,
        }
    }
}

/// How the heroes win. Every kind is lost when every character is exhausted, and when the round
/// limit ends with the goal not met.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Victory {
    /// Every monster is dead (objectives included) and every room revealed.
    AllFoesDead,
    /// Every monster of the named type is dead: one has stood on the board and no hidden room
    /// holds one for the party.
    Kill(String),
    /// This many treasure tiles are looted.
    Loot(u32),
    /// Every character still in the scenario has left through an exit hex (`>`), at least one.
    Escape,
    /// The round of this number ends with a character still in the scenario.
    Survive(u32),
    /// Every objective figure (a monster type with `objective: true`) is destroyed, as `Kill`
    /// reads it.
    Destroy,
    /// The round of this number ends with every protected ally alive (and a character still in).
    Protect(u32),
}

impl Victory {
    /// The goal's coverage name and short name: "kill", "loot", …
    pub const fn kind(&self) -> &'static str {
        match self {
            Victory::AllFoesDead => "every foe",
            Victory::Kill(_) => "kill",
            Victory::Loot(_) => "loot",
            Victory::Escape => "escape",
            Victory::Survive(_) => "survive",
            Victory::Destroy => "destroy",
            Victory::Protect(_) => "protect",
        }
    }

    /// The goal, for the players: "Kill every Rat King".
    pub fn goal(&self) -> String {
        match self {
            Victory::AllFoesDead => "Kill every foe".into(),
            Victory::Kill(n) => format!("Kill every {n}"),
            Victory::Loot(n) => format!("Loot {n} treasure{}", plural(*n)),
            Victory::Escape => "Every character out through an exit".into(),
            Victory::Survive(n) => format!("Survive {n} round{}", plural(*n)),
            Victory::Destroy => "Destroy every objective".into(),
            Victory::Protect(n) => format!("Keep the allies alive for {n} round{}", plural(*n)),
        }
    }

    /// The goal met, for the log: "every Rat King is dead".
    pub fn won(&self) -> String {
        match self {
            Victory::AllFoesDead => "every foe is dead".into(),
            Victory::Kill(n) => format!("every {n} is dead"),
            Victory::Loot(n) => format!("{n} treasure{} looted", plural(*n)),
            Victory::Escape => "every character still standing is out".into(),
            Victory::Survive(n) => format!("the heroes held out to the end of round {n}"),
            Victory::Destroy => "every objective is destroyed".into(),
            Victory::Protect(n) => format!("the allies lived to the end of round {n}"),
        }
    }
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// A figure of the heroes' side that is no character: a prisoner to escort, a sage to guard.
///
/// It takes its own turn at its initiative every round (after the characters of the same
/// initiative, before the monsters), moving and attacking by the focus rules as a summon does,
/// and draws from the monsters' modifier deck. Monsters take it for an enemy like a character.
/// It stays when characters are exhausted; a protected ally's death loses the scenario.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AllySpec {
    /// Its name.
    pub name: String,
    /// Hit points when unhurt.
    pub hp: u32,
    /// Movement points of its turn (0: it stays where it stands).
    #[serde(rename = "move", default)]
    pub movement: u32,
    /// Attack value of its turn (0: it does not attack).
    #[serde(default)]
    pub attack: u32,
    /// 0 = melee.
    #[serde(default)]
    pub range: u32,
    /// Its initiative, every round.
    pub initiative: u32,
    /// The heroes lose when it dies (the default); `false` for an ally they may lose.
    #[serde(default = "yes")]
    pub protect: bool,
}

fn yes() -> bool {
    true
}

impl AllySpec {
    /// Its statistics as a summon's: the same turn by the focus rules.
    pub fn figure(&self) -> SummonSpec {
        SummonSpec {
            name: self.name.clone(),
            hp: self.hp,
            movement: self.movement,
            attack: self.attack,
            range: self.range,
        }
    }
}

/// What a treasure tile gives the character who loots it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Treasure {
    /// Gold.
    #[serde(default)]
    pub gold: u32,
    /// An item, by name, kept after the scenario.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<String>,
    /// Damage the looter suffers (a trapped chest).
    #[serde(default)]
    pub damage: u32,
    /// Conditions the looter gains.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
}

impl Treasure {
    /// What it gives, in words: "12 gold, the Tin Lantern, 2 damage, poison".
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.gold > 0 {
            parts.push(format!("{} gold", self.gold));
        }
        if let Some(i) = &self.item {
            parts.push(i.clone());
        }
        if self.damage > 0 {
            parts.push(format!("{} damage", self.damage));
        }
        parts.extend(self.conditions.iter().map(|c| c.name().to_string()));
        if parts.is_empty() {
            "nothing".into()
        } else {
            parts.join(", ")
        }
    }
}

/// A scenario as written in its file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// The rule module the scenario is played by: always `Gloomhaven` here.
    pub rules: RulesName,
    /// The scenario file's format ([`crate::rules::SCENARIO_FORMAT`]); absent in files written
    /// before it was named, which are of format 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<u32>,
    /// The scenario's name.
    pub name: String,
    /// A few sentences for the players.
    #[serde(default)]
    pub description: String,
    /// The kind of board.
    pub grid: Grid,
    /// The board as text (see the module docs).
    pub map: Vec<String>,
    /// Thin walls between two hexes, in axial `(q, r)`.
    #[serde(default)]
    pub thin_walls: Vec<ThinWall>,
    /// The rooms, drawn over `map` with the same rows and columns: a room's letter or digit on
    /// each of its hexes (its wall hexes too) and `+` on each door. The room of start hex 1 is
    /// revealed at setup, the others when a character opens a door to them. Without it the whole
    /// map is one room.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rooms: Vec<String>,
    /// A name for each room letter, for the log ("the Pantry is revealed").
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub room_names: BTreeMap<char, String>,
    /// Monster placed by each letter of the map.
    #[serde(default)]
    pub legend: BTreeMap<char, Placement>,
    /// Damage a trap deals when sprung.
    #[serde(default = "three")]
    pub trap_damage: u32,
    /// Damage hazardous terrain deals on entering.
    #[serde(default = "one")]
    pub hazard_damage: u32,
    /// The heroes.
    pub heroes: Vec<HeroSpec>,
    /// The monster types written in the scenario; those of the library it names are added when
    /// it is read.
    #[serde(default)]
    pub monsters: Vec<MonsterType>,
    /// The monsters' shared attack modifier deck; the standard 20 cards when omitted.
    #[serde(default)]
    pub monster_modifiers: Option<Vec<String>>,
    /// How the heroes win.
    pub victory: Victory,
    /// Marked hexes for the special rules, drawn over `map` with the same rows and columns: a
    /// letter or digit on each marked hex, a space or `.` elsewhere.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<String>,
    /// What the scenario sets off, and when (see [`special`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub special_rules: Vec<SpecialRule>,
    /// Treasure tiles by their map letter: a character on one at the end of its turn (or within
    /// reach of its loot ability) takes what it gives.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub treasures: BTreeMap<char, Treasure>,
    /// Allies by their map letter: figures of the heroes' side with a turn of their own.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub allies: BTreeMap<char, AllySpec>,
    /// The heroes lose when this round ends without a victory.
    #[serde(default)]
    pub round_limit: Option<u32>,
    /// The edition of the monster rules the scenario is played by.
    #[serde(default)]
    pub preset: Preset,
    /// Single switches set otherwise than the preset sets them.
    #[serde(default, skip_serializing_if = "is_default")]
    pub switches: Overrides,
    /// The scenario level played: in a file, the level offered first (else the one the heroes'
    /// levels recommend); once a game is set up, the level chosen. Monster types with `levels`
    /// take their statistics from it, and traps and hazardous terrain their damage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u32>,
    /// The rules the scenario is built to exercise, by their coverage names: `foehold coverage`
    /// fails when one never fires.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exercises: Vec<String>,
    /// Once a game is set up with a party: which of the file's heroes play, in the order of the
    /// start hexes (the `n`-th takes start `n`). Absent when every hero of the file plays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub party: Option<Vec<usize>>,
    /// Hero classes written in the scenario (format 3): found before the library's of the same
    /// name, by its heroes and at setup.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<Class>,
    /// The classes a player may make a character of at setup, as the loader found them: the
    /// scenario's own, then the library's (never written in a file, and no part of a game's
    /// state).
    #[serde(skip)]
    pub shelf: Shelf,
}

/// The classes the loader found beside a scenario: what the library offered, not the game.
///
/// Two scenarios compare equal whatever their shelves hold, so a game's state is the same after a
/// round trip through RON, which does not carry the shelf.
#[derive(Debug, Clone, Default)]
pub struct Shelf(pub Vec<Class>);

impl PartialEq for Shelf {
    fn eq(&self, _: &Shelf) -> bool {
        true
    }
}

impl Eq for Shelf {}

fn is_default(o: &Overrides) -> bool {
    *o == Overrides::default()
}

impl Scenario {
    /// The rules its monsters decide by: the preset with the overrides.
    pub(crate) fn edition(&self) -> Edition {
        Edition {
            preset: self.preset,
            switches: self.switches.over(self.preset),
        }
    }
}

fn three() -> u32 {
    3
}

/// What the scenario level sets besides the monsters' statistics, as the rules tabulate it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LevelTable {
    /// Damage a trap deals.
    pub trap: u32,
    /// Damage hazardous terrain deals.
    pub hazard: u32,
    /// Gold a money token is worth at the scenario's end.
    pub coin: u32,
    /// Experience each character gains for a won scenario.
    pub bonus_experience: u32,
}

impl LevelTable {
    /// The table's row for `level` (0 to 7; a higher one reads as 7).
    pub const fn of(level: u32) -> LevelTable {
        let l = if level > MAX_LEVEL { MAX_LEVEL } else { level };
        const COIN: [u32; 8] = [2, 2, 3, 3, 4, 4, 5, 6];
        LevelTable {
            trap: 2 + l,
            hazard: 1 + l.div_ceil(3),
            coin: COIN[l as usize],
            bonus_experience: 4 + 2 * l,
        }
    }
}

/// The players' choice before the first round: the scenario level and which heroes play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Party {
    /// The scenario level, 0 to 7.
    pub level: u32,
    /// The heroes of the file who play (indexes into its heroes), in the order of the start hexes.
    pub heroes: Vec<usize>,
    /// Per seat: the character a player made of a class instead of the file's hero (none: the
    /// file's).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub picks: Vec<Option<crate::rules::HeroPick>>,
}

/// A party numbers two to four characters.
pub const PARTY_SIZES: std::ops::RangeInclusive<usize> = 2..=4;

impl Scenario {
    /// Whether the scenario level changes anything: a level is written, or a monster type has
    /// statistics by level.
    pub fn is_levelled(&self) -> bool {
        self.level.is_some() || self.monsters.iter().any(|m| !m.levels.is_empty())
    }

    /// The level offered first to every hero of the file: the file's, else half their average
    /// level, rounded up.
    pub fn recommended_level(&self) -> u32 {
        self.recommended_level_of(&(0..self.heroes.len()).collect::<Vec<_>>())
    }

    /// The level offered first to a party of the file's heroes: the file's, else half the
    /// party's average level, rounded up.
    pub fn recommended_level_of(&self, party: &[usize]) -> u32 {
        let levels: Vec<u32> = party
            .iter()
            .filter_map(|&h| self.heroes.get(h).map(|x| x.level))
            .collect();
        self.recommended_for(&levels)
    }

    /// The level offered first to characters of these levels: the file's, else half their
    /// average, rounded up.
    pub fn recommended_for(&self, levels: &[u32]) -> u32 {
        crate::rules::recommended_level(self.level, levels).min(MAX_LEVEL)
    }

    /// The scenario as played by `party` (or by every hero at the recommended level): the level's
    /// statistics and damages in place, the heroes in the party's order. Refuses a party the
    /// scenario cannot seat, naming why.
    pub fn resolve(&self, party: Option<&Party>) -> Result<Scenario, String> {
        let mut out = self.clone();
        if let Some(p) = party {
            if p.level > MAX_LEVEL {
                return Err(format!(
                    "scenario level {}: expected a level from 0 to {MAX_LEVEL}",
                    p.level
                ));
            }
            if !PARTY_SIZES.contains(&p.heroes.len()) || p.heroes.len() > self.heroes.len() {
                return Err(format!(
                    "a party of {} characters: this scenario seats {} to {}",
                    p.heroes.len(),
                    PARTY_SIZES.start(),
                    self.heroes.len().min(*PARTY_SIZES.end())
                ));
            }
            let mut seen = vec![false; self.heroes.len()];
            for &h in &p.heroes {
                match seen.get_mut(h) {
                    None => {
                        return Err(format!(
                            "the party names hero {}, who is not in the scenario",
                            h + 1
                        ));
                    }
                    Some(true) => {
                        return Err(format!("the party names {} twice", self.heroes[h].name));
                    }
                    Some(s) => *s = true,
                }
            }
            out.heroes = p.heroes.iter().map(|&h| self.heroes[h].clone()).collect();
            out.party = Some(p.heroes.clone());
            if p.picks.len() > p.heroes.len() {
                return Err(format!(
                    "{} characters picked for a party of {}",
                    p.picks.len(),
                    p.heroes.len()
                ));
            }
            for (seat, pick) in p.picks.iter().enumerate() {
                if let Some(pick) = pick {
                    out.heroes[seat] = self.picked(&out.heroes[seat], pick)?;
                }
            }
        }
        if self.is_levelled() {
            let level = party.map_or_else(|| self.recommended_level(), |p| p.level);
            let table = LevelTable::of(level);
            out.level = Some(level);
            out.trap_damage = table.trap;
            out.hazard_damage = table.hazard;
            out.monsters = self.monsters.iter().map(|m| m.at_level(level)).collect();
        }
        out.monsters = out
            .monsters
            .iter()
            .map(MonsterType::with_specials)
            .collect();
        Ok(out)
    }
}

impl Scenario {
    /// The character a player makes of a class for the seat of `hero`: its name and player, the
    /// class's hit points, deck and the hand named (exactly the hand size) or its first cards.
    fn picked(&self, hero: &HeroSpec, pick: &crate::rules::HeroPick) -> Result<HeroSpec, String> {
        let Some(class) = self.shelf.0.iter().find(|c| c.name == pick.class) else {
            return Err(format!("{}: unknown class {:?}", hero.name, pick.class));
        };
        if !(1..=MAX_HERO_LEVEL).contains(&pick.level) {
            return Err(format!(
                "{}: level {}: expected a character level from 1 to {MAX_HERO_LEVEL}",
                hero.name, pick.level
            ));
        }
        if !pick.hand.is_empty() && pick.hand.len() != class.hand_size as usize {
            return Err(format!(
                "{} holds {} cards: a {} takes exactly {} into a scenario",
                hero.name,
                pick.hand.len(),
                class.name,
                class.hand_size
            ));
        }
        HeroSpec {
            name: hero.name.clone(),
            player: hero.player,
            class: Some(class.name.clone()),
            hp: 0,
            modifiers: None,
            cards: Vec::new(),
            hand: pick.hand.clone(),
            level: pick.level,
            perks: pick.perks.clone(),
        }
        .of_class(class)
    }

    /// What a player may make a character of at setup, from the classes the library gave.
    pub fn class_offers(&self) -> Vec<crate::rules::ClassOffer> {
        self.shelf
            .0
            .iter()
            .map(|c| crate::rules::ClassOffer {
                name: c.name.clone(),
                hp: c.hp.clone(),
                hand_size: c.hand_size as usize,
                cards: c
                    .cards
                    .iter()
                    .map(|x| (x.name.clone(), x.level, x.initiative))
                    .collect(),
                perks: c
                    .perks
                    .iter()
                    .map(|p| (p.name.clone(), p.words(), p.times))
                    .collect(),
                most_perks: (1..=MAX_HERO_LEVEL).map(perks_allowed).collect(),
            })
            .collect()
    }
}

fn standees() -> u32 {
    10
}

/// Axial hex of a map character at text `(col, row)`.
pub(crate) fn map_hex(col: usize, row: usize) -> Hex {
    let q = col as i32;
    hex(q, row as i32 - q.div_euclid(2))
}

/// What the map text says about one hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// A terrain (floor included).
    Terrain(Terrain),
    /// The start of hero `i` (0-based; the map writes `1`-`9`).
    Hero(usize),
    /// A monster, by its legend letter.
    Monster(char),
    /// A door between two rooms, closed at setup.
    Door,
    /// Floor that is an exit.
    Exit,
}

/// Reads one map character; `None` for "no hex".
pub fn cell(c: char) -> Option<Result<Cell, char>> {
    Some(Ok(match c {
        ' ' => return None,
        '.' => Cell::Terrain(Terrain::Floor),
        '#' => Cell::Terrain(Terrain::Wall),
        'o' => Cell::Terrain(Terrain::Obstacle),
        '^' => Cell::Terrain(Terrain::Trap),
        '~' => Cell::Terrain(Terrain::Hazard),
        '%' => Cell::Terrain(Terrain::Difficult),
        '*' => Cell::Terrain(Terrain::Icy),
        '1'..='9' => Cell::Hero(c as usize - '1' as usize),
        '+' => Cell::Door,
        '>' => Cell::Exit,
        c if c.is_ascii_alphabetic() => Cell::Monster(c),
        c => return Some(Err(c)),
    }))
}

/// A room of the map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoomLayout {
    /// Its letter in `rooms`.
    pub letter: char,
    /// Its name for the log: the scenario's, else "room A".
    pub name: String,
    /// Its hexes (walls included) with their terrain, in `(q, r)` order.
    pub hexes: Vec<(Hex, Terrain)>,
}

/// A door of the map: its hex and the two rooms it joins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DoorLayout {
    /// The door's hex.
    pub hex: Hex,
    /// The two rooms it joins (indexes into [`Layout::rooms`]), lower first.
    pub rooms: [usize; 2],
}

/// The board and starting positions a scenario's text map describes.
#[derive(Debug, Clone)]
pub struct Layout {
    /// The board at setup: the starting room, its closed doors as walls, and thin walls.
    pub map: HexMap,
    /// Every room, in the order of their letters (`start_room` says which is revealed first).
    pub rooms: Vec<RoomLayout>,
    /// The room revealed at setup: the one of start hex 1.
    pub start_room: usize,
    /// Every door, in `(q, r)` order.
    pub doors: Vec<DoorLayout>,
    /// The room of each monster spot, as in `monsters`.
    pub monster_rooms: Vec<usize>,
    /// Start hex per hero index.
    pub hero_starts: Vec<Option<Hex>>,
    /// Monsters in map order (by `(q, r)`): hex and placement letter.
    pub monsters: Vec<(Hex, char)>,
    /// Treasure tiles in map order (by `(q, r)`): hex and letter.
    pub treasures: Vec<(Hex, char)>,
    /// Exit hexes, in `(q, r)` order.
    pub exits: Vec<Hex>,
    /// Allies in map order (by `(q, r)`): hex and letter.
    pub allies: Vec<(Hex, char)>,
    /// The hexes of each mark letter, in `(q, r)` order.
    pub marks: BTreeMap<char, Vec<Hex>>,
}

impl Layout {
    /// The room a hex of the map lies in (a door lies in none).
    pub fn room_of(&self, h: Hex) -> Option<usize> {
        self.rooms
            .iter()
            .position(|r| r.hexes.iter().any(|(x, _)| *x == h))
    }

    /// The terrain the map draws on a hex of a room.
    pub fn map_terrain(&self, h: Hex) -> Option<Terrain> {
        self.rooms
            .iter()
            .flat_map(|r| &r.hexes)
            .find(|(x, _)| *x == h)
            .map(|(_, t)| *t)
    }
}

/// The standard attack modifier deck.
pub(crate) fn standard_modifiers() -> Vec<String> {
    let mut d = Vec::new();
    for (card, n) in [
        ("+0", 6),
        ("+1", 5),
        ("-1", 5),
        ("+2", 1),
        ("-2", 1),
        ("x2", 1),
        ("null", 1),
    ] {
        d.extend(std::iter::repeat_n(card.to_string(), n));
    }
    d
}

impl Scenario {
    /// Reads and validates a scenario file (for tests: the programs read files through their
    /// storage).
    #[cfg(any(test, feature = "testing"))]
    pub fn load(path: &std::path::Path) -> Result<Scenario, LoadError> {
        let text = crate::disk::read_file(path)?;
        Self::parse(&path.display().to_string(), &text)
    }

    /// Parses and validates scenario text, with the monster types it names from the built-in
    /// library when it does not write them; `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<Scenario, LoadError> {
        Self::parse_in(file, text, &Library::built_in())
    }

    /// Parses and validates scenario text, copying in the monster types it names from `library`
    /// that it does not write itself; errors name the file and place, the library's included.
    pub fn parse_in(file: &str, text: &str, library: &Library) -> Result<Scenario, LoadError> {
        Self::read_in(file, text, library).map(|(s, _)| s)
    }

    /// [`Scenario::parse_in`], with the warnings of the file: what loads and plays but is most
    /// likely a slip (a room no door leads to, a monster type nothing places, a special rule that
    /// can never fire), each at its place in the file.
    pub fn check_in(
        file: &str,
        text: &str,
        library: &Library,
    ) -> Result<(Scenario, Vec<LoadError>), LoadError> {
        let (s, inline) = Self::read_in(file, text, library)?;
        let layout = s.layout(file, text)?;
        let warnings = s.warnings(file, text, &layout, inline);
        Ok((s, warnings))
    }

    /// The scenario read and checked, with how many of its monster types the file writes.
    fn read_in(file: &str, text: &str, library: &Library) -> Result<(Scenario, usize), LoadError> {
        let mut s: Scenario = parse_ron(file, text)?;
        check_bounds(&s, file, text)?;
        if s.party.is_some() {
            return Err(LoadError::at_text(
                file,
                text,
                "party:",
                "party: the party is chosen when a game is set up, not written in a scenario",
            ));
        }
        pull_classes(&mut s, file, text, library)?;
        s.shelf = Shelf(offered_classes(&s, file, text, library));
        let inline = s.monsters.len();
        let pulled = pull_monsters(&mut s, file, text, library)?;
        for (m, (lib_file, lib_text)) in s.monsters[inline..].iter().zip(&pulled) {
            check_monster(lib_file, lib_text, m, |name| {
                s.monster_index(name).is_some()
            })?;
        }
        s.validate(file, text, inline)?;
        Ok((s, inline))
    }

    /// The board and start positions; errors point into `text` when given.
    pub fn layout(&self, file: &str, text: &str) -> Result<Layout, LoadError> {
        let err = |needle: &str, msg: String| LoadError::at_text(file, text, needle, msg);
        // Every hex with its terrain and where it is written; doors apart.
        let mut cells: Vec<(Hex, Terrain, usize, usize)> = Vec::new();
        let mut door_cells: Vec<(Hex, usize, usize)> = Vec::new();
        let mut hero_starts = vec![None; self.heroes.len()];
        let mut monsters = Vec::new();
        let mut treasures = Vec::new();
        let mut allies = Vec::new();
        let mut exits = Vec::new();
        for (row, line) in self.map.iter().enumerate() {
            for (col, c) in line.chars().enumerate() {
                let h = map_hex(col, row);
                let here = || map_char_position(file, text, row, col);
                match cell(c) {
                    None => {}
                    Some(Err(c)) => return Err(here().with(format!("map: unknown map character {c:?} (expected one of . # o ^ ~ % * + > 1-9 or a letter of the legend, the treasures or the allies)"))),
                    Some(Ok(Cell::Terrain(t))) => cells.push((h, t, row, col)),
                    Some(Ok(Cell::Door)) => {
                        if self.rooms.is_empty() {
                            return Err(here().with("map: a door joins rooms: draw them in `rooms`".into()));
                        }
                        door_cells.push((h, row, col));
                    }
                    Some(Ok(Cell::Hero(i))) => {
                        cells.push((h, Terrain::Floor, row, col));
                        match hero_starts.get_mut(i) {
                            Some(slot @ None) => *slot = Some(h),
                            Some(Some(_)) => return Err(here().with(format!("map: hero {} starts twice", i + 1))),
                            // A party smaller than the file's heroes leaves the later starts empty.
                            None if self.party.is_some() => {}
                            None => {
                                return Err(here().with(format!("map: start of hero {} but the scenario has {} heroes", i + 1, self.heroes.len())));
                            }
                        }
                    }
                    Some(Ok(Cell::Monster(c))) => {
                        cells.push((h, Terrain::Floor, row, col));
                        if self.treasures.contains_key(&c) {
                            treasures.push((h, c));
                        } else if self.legend.contains_key(&c) {
                            monsters.push((h, c));
                        } else if self.allies.contains_key(&c) {
                            if allies.iter().any(|(_, x)| *x == c) {
                                return Err(here().with(format!("map: ally {c:?} stands twice: an ally is one figure")));
                            }
                            allies.push((h, c));
                        } else {
                            return Err(here().with(format!("map: letter {c:?} is in none of the legend, the treasures and the allies")));
                        }
                    }
                    Some(Ok(Cell::Exit)) => {
                        if self.victory != Victory::Escape {
                            return Err(here().with("map: an exit (>) leads out only in a scenario won by escaping (`victory: Escape`)".into()));
                        }
                        cells.push((h, Terrain::Floor, row, col));
                        exits.push(h);
                    }
                }
            }
        }
        let board = |hexes: &[(Hex, Terrain)]| -> Result<HexMap, LoadError> {
            board_of(hexes).map_err(|e| err("map:", format!("map: {e}")))
        };
        // The whole map, closed doors as walls, checks every thin wall.
        let whole: Vec<(Hex, Terrain)> = cells
            .iter()
            .map(|&(h, t, _, _)| (h, t))
            .chain(door_cells.iter().map(|&(h, _, _)| (h, Terrain::Wall)))
            .collect();
        let mut full = board(&whole)?;
        for &((aq, ar), (bq, br)) in &self.thin_walls {
            full.add_thin_wall(hex(aq, ar), hex(bq, br))
                .map_err(|e| err("thin_walls:", format!("thin_walls: {e}")))?;
        }
        if let Some(i) = hero_starts.iter().position(Option::is_none) {
            return Err(err(
                "map:",
                format!(
                    "map: hero {} has no start hex (write {} on the map)",
                    i + 1,
                    i + 1
                ),
            ));
        }
        monsters.sort_by_key(|(h, _)| crate::hex::qr(*h));
        treasures.sort_by_key(|(h, _)| crate::hex::qr(*h));
        allies.sort_by_key(|(h, _)| crate::hex::qr(*h));
        exits.sort_by_key(|h| crate::hex::qr(*h));
        let (rooms, room_at) = self.room_layout(file, text, &cells)?;
        let room_of = |h: Hex| room_at.get(&crate::hex::qr(h)).copied();
        let mut doors = Vec::new();
        for &(h, row, col) in &door_cells {
            let mark = self.rooms.get(row).and_then(|l| l.chars().nth(col));
            if mark != Some('+') {
                return Err(room_char_position(file, text, row, col).with(format!(
                    "rooms: the door on row {}, column {} is marked {:?} here: expected +",
                    row + 1,
                    col + 1,
                    mark.unwrap_or(' ')
                )));
            }
            let mut joined: Vec<usize> = (0..6)
                .filter_map(|d| room_of(crate::hex::step(h, d)))
                .collect();
            joined.sort_unstable();
            joined.dedup();
            let [a, b] = joined[..] else {
                return Err(map_char_position(file, text, row, col).with(format!(
                    "map: the door on row {}, column {} touches {} {}: a door joins two",
                    row + 1,
                    col + 1,
                    joined.len(),
                    if joined.len() == 1 { "room" } else { "rooms" }
                )));
            };
            doors.push(DoorLayout {
                hex: h,
                rooms: [a, b],
            });
        }
        doors.sort_by_key(|d| crate::hex::qr(d.hex));
        let first = hero_starts.first().copied().flatten();
        let start_room = first.and_then(room_of).unwrap_or(0);
        for (i, h) in hero_starts.iter().enumerate() {
            if let Some(h) = h
                && room_of(*h) != Some(start_room)
            {
                return Err(err(
                    "rooms:",
                    format!(
                        "rooms: start hex {} is in {}, not in {} with start hex 1: every character starts in the first room",
                        i + 1,
                        rooms[room_of(*h).unwrap_or(0)].name,
                        rooms[start_room].name
                    ),
                ));
            }
        }
        if let Some((h, c)) = allies.iter().find(|(h, _)| room_of(*h) != Some(start_room)) {
            return Err(LoadError::at_text(
                file,
                text,
                &format!("'{c}'"),
                format!(
                    "allies: {c:?} stands in {}, not in {} with start hex 1: an ally starts in the first room",
                    rooms[room_of(*h).unwrap_or(0)].name,
                    rooms[start_room].name
                ),
            ));
        }
        let monster_rooms = monsters
            .iter()
            .map(|(h, _)| room_of(*h).unwrap_or(start_room))
            .collect();
        let map = if self.rooms.is_empty() {
            full
        } else {
            let mut shown = rooms[start_room].hexes.clone();
            shown.extend(
                doors
                    .iter()
                    .filter(|d| d.rooms.contains(&start_room))
                    .map(|d| (d.hex, Terrain::Wall)),
            );
            let mut map = board(&shown)?;
            add_thin_walls(&mut map, &self.thin_walls);
            map
        };
        let marks = self.mark_layout(file, text, &cells, &door_cells)?;
        Ok(Layout {
            map,
            rooms,
            start_room,
            doors,
            monster_rooms,
            hero_starts,
            monsters,
            treasures,
            exits,
            allies,
            marks,
        })
    }

    /// The hexes of each mark letter of `marks`, drawn over the map's `cells` and doors.
    fn mark_layout(
        &self,
        file: &str,
        text: &str,
        cells: &[(Hex, Terrain, usize, usize)],
        doors: &[(Hex, usize, usize)],
    ) -> Result<BTreeMap<char, Vec<Hex>>, LoadError> {
        let mut marks: BTreeMap<char, Vec<Hex>> = BTreeMap::new();
        if self.marks.is_empty() {
            return Ok(marks);
        }
        if self.marks.len() != self.map.len() {
            return Err(LoadError::at_text(
                file,
                text,
                "marks:",
                format!(
                    "marks: {} rows, but the map has {}: draw the marks over the map, row for row",
                    self.marks.len(),
                    self.map.len()
                ),
            ));
        }
        for (row, line) in self.marks.iter().enumerate() {
            for (col, c) in line.chars().enumerate() {
                if c == ' ' || c == '.' {
                    continue;
                }
                let here = || grid_char_position(file, text, "marks:", row, col);
                if !c.is_ascii_alphanumeric() {
                    return Err(here().with(format!(
                        "marks: {c:?} on row {}, column {}: a mark is a letter or digit (a space or . for none)",
                        row + 1,
                        col + 1
                    )));
                }
                let h = map_hex(col, row);
                let on_map = cells.iter().any(|&(x, _, _, _)| x == h)
                    || doors.iter().any(|&(x, _, _)| x == h);
                if !on_map {
                    return Err(here().with(format!(
                        "marks: {c:?} on row {}, column {} marks no hex of the map",
                        row + 1,
                        col + 1
                    )));
                }
                marks.entry(c).or_default().push(h);
            }
        }
        for hexes in marks.values_mut() {
            hexes.sort_by_key(|h| crate::hex::qr(*h));
        }
        Ok(marks)
    }

    /// The rooms of the map's `cells` and the room of each hex by `(q, r)`: one room of every hex
    /// when the scenario draws none.
    #[expect(clippy::type_complexity, reason = "the two halves of one answer")]
    fn room_layout(
        &self,
        file: &str,
        text: &str,
        cells: &[(Hex, Terrain, usize, usize)],
    ) -> Result<(Vec<RoomLayout>, BTreeMap<(i32, i32), usize>), LoadError> {
        let err = |needle: &str, msg: String| LoadError::at_text(file, text, needle, msg);
        if self.rooms.is_empty() {
            let hexes: Vec<(Hex, Terrain)> = cells.iter().map(|&(h, t, _, _)| (h, t)).collect();
            let at = hexes.iter().map(|(h, _)| (crate::hex::qr(*h), 0)).collect();
            let room = RoomLayout {
                letter: ' ',
                name: "the map".into(),
                hexes,
            };
            return Ok((vec![room], at));
        }
        if self.rooms.len() != self.map.len() {
            return Err(err(
                "rooms:",
                format!(
                    "rooms: {} rows, but the map has {}: draw the rooms over the map, row for row",
                    self.rooms.len(),
                    self.map.len()
                ),
            ));
        }
        let grid: Vec<Vec<char>> = self.rooms.iter().map(|l| l.chars().collect()).collect();
        let mut letters: BTreeMap<char, Vec<(Hex, Terrain)>> = BTreeMap::new();
        for &(h, t, row, col) in cells {
            let c = grid[row].get(col).copied().unwrap_or(' ');
            if !c.is_ascii_alphanumeric() {
                return Err(room_char_position(file, text, row, col).with(format!(
                    "rooms: the hex on row {}, column {} has no room: write its room's letter or digit",
                    row + 1,
                    col + 1
                )));
            }
            letters.entry(c).or_default().push((h, t));
        }
        for letter in self.room_names.keys() {
            if !letters.contains_key(letter) {
                return Err(err(
                    &format!("'{letter}'"),
                    format!("room_names: no room is drawn with {letter:?}"),
                ));
            }
        }
        let mut at = BTreeMap::new();
        let rooms = letters
            .into_iter()
            .enumerate()
            .map(|(i, (letter, mut hexes))| {
                hexes.sort_by_key(|(h, _)| crate::hex::qr(*h));
                for (h, _) in &hexes {
                    at.insert(crate::hex::qr(*h), i);
                }
                RoomLayout {
                    letter,
                    name: self
                        .room_names
                        .get(&letter)
                        .cloned()
                        .unwrap_or_else(|| format!("room {letter}")),
                    hexes,
                }
            })
            .collect();
        Ok((rooms, at))
    }

    /// Checks everything serde cannot: names that refer to each other, sizes, the map.
    /// `inline`: how many of the monster types were written in the scenario (the others come
    /// from the library and were checked in their own files).
    pub(crate) fn validate(&self, file: &str, text: &str, inline: usize) -> Result<(), LoadError> {
        let err = |needle: &str, msg: String| LoadError::at_text(file, text, needle, msg);
        if self.heroes.is_empty() {
            return Err(err(
                "heroes:",
                "heroes: a scenario needs at least one hero".into(),
            ));
        }
        if self.heroes.len() > 9 {
            return Err(err("heroes:", "heroes: at most 9 heroes".into()));
        }
        for h in &self.heroes {
            let at = format!("\"{}\"", h.name);
            if h.hp == 0 {
                return Err(err(
                    &at,
                    format!("heroes: {} needs hp of at least 1", h.name),
                ));
            }
            if h.cards.len() < 2 {
                return Err(err(
                    &at,
                    format!("heroes: {} needs at least 2 ability cards", h.name),
                ));
            }
            // A class's cards were checked in the class's own file.
            if h.class.is_none() {
                check_hero_cards(file, text, &h.cards)?;
            }
            if let Some(m) = &h.modifiers {
                check_modifiers(file, text, m)?;
            }
        }
        if let Some(m) = &self.monster_modifiers {
            check_modifiers(file, text, m)?;
        }
        if let Some(twice) = written_twice(self.monsters.iter().map(|m| m.name.as_str())) {
            return Err(err(
                &format!("\"{twice}\""),
                format!("monsters: {twice} is defined twice"),
            ));
        }
        for m in &self.monsters[..inline] {
            check_monster(file, text, m, |name| self.monster_index(name).is_some())?;
        }
        for (letter, p) in &self.legend {
            if cell(*letter) != Some(Ok(Cell::Monster(*letter))) {
                return Err(err(
                    &format!("'{letter}'"),
                    format!(
                        "legend: {letter:?} is not a letter free for monsters (o is the obstacle)"
                    ),
                ));
            }
            if p.elite && p.players.is_some() {
                return Err(err(
                    &format!("'{letter}'"),
                    format!(
                        "legend: {letter:?} gives both `elite` and `players`: `players` says what stands there for each number of characters"
                    ),
                ));
            }
            if !self.monsters.iter().any(|m| m.name == p.monster) {
                return Err(err(
                    &format!("\"{}\"", p.monster),
                    format!("legend: unknown monster type {:?}", p.monster),
                ));
            }
        }
        for (letter, t) in &self.treasures {
            let at = format!("'{letter}'");
            if cell(*letter) != Some(Ok(Cell::Monster(*letter))) {
                return Err(err(
                    &at,
                    format!(
                        "treasures: {letter:?} is not a letter free for treasures (o is the obstacle)"
                    ),
                ));
            }
            if self.legend.contains_key(letter) {
                return Err(err(
                    &at,
                    format!(
                        "treasures: {letter:?} is also in the legend: a letter is a monster or a treasure"
                    ),
                ));
            }
            if *t == Treasure::default() {
                return Err(err(
                    &at,
                    format!(
                        "treasures: {letter:?} gives nothing: write its gold, item, damage or conditions"
                    ),
                ));
            }
        }
        for (letter, a) in &self.allies {
            let at = format!("'{letter}'");
            let clash = if cell(*letter) != Some(Ok(Cell::Monster(*letter))) {
                Some("is not a letter free for allies (o is the obstacle)")
            } else if self.legend.contains_key(letter) {
                Some("is also in the legend: a letter is a monster, a treasure or an ally")
            } else if self.treasures.contains_key(letter) {
                Some("is also a treasure: a letter is a monster, a treasure or an ally")
            } else if a.hp == 0 {
                Some("has no hit points: write `hp` of at least 1")
            } else if a.name.trim().is_empty() {
                Some("has no name")
            } else if a.attack == 0 && a.movement > 0 {
                Some(
                    "moves but has no attack: it moves toward a foe to attack it; give it `attack`, or `move: 0` for an ally that stays",
                )
            } else {
                None
            };
            if let Some(why) = clash {
                return Err(err(&at, format!("allies: {letter:?} {why}")));
            }
        }
        let layout = self.layout(file, text)?;
        for letter in self.allies.keys() {
            if !layout.allies.iter().any(|(_, c)| c == letter) {
                return Err(err(
                    &format!("'{letter}'"),
                    format!("allies: {letter:?} is not on the map"),
                ));
            }
        }
        if layout.monsters.is_empty() {
            return Err(err(
                "map:",
                "map: no monster is placed (letters from the legend)".into(),
            ));
        }
        for letter in self.treasures.keys() {
            if !layout.treasures.iter().any(|(_, c)| c == letter) {
                return Err(err(
                    &format!("'{letter}'"),
                    format!("treasures: {letter:?} is not on the map"),
                ));
            }
        }
        if self.round_limit == Some(0) {
            return Err(err(
                "round_limit:",
                "round_limit: must be at least 1".into(),
            ));
        }
        self.check_goal(file, text, &layout)?;
        self.check_special_rules(file, text, &layout, &|k| self.placeable(&layout, k))
    }

    /// Whether monster type `k` can stand on the board: placed for some number of characters, or
    /// spawned by a monster or a special rule.
    fn placeable(&self, layout: &Layout, k: usize) -> bool {
        let name = &self.monsters[k].name;
        layout.monsters.iter().any(|(_, c)| {
            self.legend
                .get(c)
                .is_some_and(|p| &p.monster == name && (2..=4).any(|n| p.rank(n) != Rank::Absent))
        }) || self.monsters.iter().any(|m| m.spawns().any(|n| n == name))
            || self.special_rules.iter().flat_map(|r| &r.then).any(|e| {
                matches!(e, RuleEffect::Spawn { monster, players, .. }
                if monster == name && players.is_none_or(|p| p.iter().any(|r| *r != Rank::Absent)))
            })
    }

    /// Checks that the goal can be met on this map.
    pub(super) fn check_goal(
        &self,
        file: &str,
        text: &str,
        layout: &Layout,
    ) -> Result<(), LoadError> {
        let err = |msg: String| LoadError::at_text(file, text, "victory:", msg);
        let placeable = |k: usize| self.placeable(layout, k);
        match &self.victory {
            Victory::AllFoesDead => {}
            Victory::Survive(n) => {
                if self.round_limit.is_some() {
                    return Err(err(format!(
                        "victory: Survive({n}) is won when round {n} ends: the scenario needs no `round_limit`"
                    )));
                }
            }
            Victory::Kill(name) => match self.monster_index(name) {
                None => {
                    return Err(LoadError::at_text(
                        file,
                        text,
                        &format!("\"{name}\""),
                        format!("victory: Kill({name:?}) names an unknown monster type"),
                    ));
                }
                Some(k) if !placeable(k) => {
                    return Err(err(format!(
                        "victory: Kill({name:?}): no {name} is placed on the map or spawned, so the goal can never be met"
                    )));
                }
                Some(_) => {}
            },
            Victory::Loot(n) => {
                if *n as usize > layout.treasures.len() {
                    return Err(err(format!(
                        "victory: Loot({n}): the map has {} treasure tile{}: expected 1 to that many",
                        layout.treasures.len(),
                        if layout.treasures.len() == 1 { "" } else { "s" }
                    )));
                }
            }
            Victory::Escape => {
                if layout.exits.is_empty() {
                    return Err(err(
                        "victory: Escape needs exit hexes: write > on the map".into()
                    ));
                }
            }
            Victory::Protect(n) => {
                if self.round_limit.is_some() {
                    return Err(err(format!(
                        "victory: Protect({n}) is won when round {n} ends: the scenario needs no `round_limit`"
                    )));
                }
                if !self.allies.values().any(|a| a.protect) {
                    return Err(err(if self.allies.is_empty() {
                        format!(
                            "victory: Protect({n}) needs an ally to protect: write one in `allies` and on the map"
                        )
                    } else {
                        format!(
                            "victory: Protect({n}) needs an ally to protect: every ally here is written `protect: false`"
                        )
                    }));
                }
            }
            Victory::Destroy => {
                if !(0..self.monsters.len()).any(|k| self.monsters[k].objective && placeable(k)) {
                    return Err(err(
                        "victory: Destroy needs an objective placed on the map (a monster type with `objective: true`)".into(),
                    ));
                }
            }
        }
        Ok(())
    }

    /// How many monster spots the map draws: the most monsters an attack chooses among at setup.
    fn monster_spots(&self) -> usize {
        self.map
            .iter()
            .flat_map(|row| row.chars())
            .filter(|c| self.legend.contains_key(c))
            .count()
    }

    /// Index of the monster type with this name.
    pub(crate) fn monster_index(&self, name: &str) -> Option<usize> {
        self.monsters.iter().position(|m| m.name == name)
    }
}

/// The first name (in sorted order) that `names` holds twice.
fn written_twice<'a>(names: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let mut names: Vec<&str> = names.collect();
    names.sort_unstable();
    names.windows(2).find(|w| w[0] == w[1]).map(|w| w[0])
}

/// Checks what serde cannot in a hero's ability cards, written in `file`.
fn check_hero_cards(file: &str, text: &str, cards: &[HeroCard]) -> Result<(), LoadError> {
    let err = |needle: &str, msg: String| LoadError::at_text(file, text, needle, msg);
    for c in cards {
        let at = format!("\"{}\"", c.name);
        for half in [&c.top, &c.bottom] {
            let moves = half
                .effects
                .iter()
                .filter(|e| matches!(e, Effect::Move(_) | Effect::Jump(_)))
                .count();
            let attacks = half
                .effects
                .iter()
                .filter(|e| matches!(e, Effect::Attack { .. }))
                .count();
            let heals = half
                .effects
                .iter()
                .filter(|e| matches!(e, Effect::Heal { .. }))
                .count();
            if moves > 1 || attacks > 1 || heals > 1 {
                return Err(err(
                    &at,
                    format!(
                        "cards: {}: a card half has at most one move, one attack and one heal",
                        c.name
                    ),
                ));
            }
            let summons = half
                .effects
                .iter()
                .filter(|e| matches!(e, Effect::Summon(_)))
                .count();
            // The play's `ally` hex names where the summon goes, so it cannot also name a
            // healed figure; and a summon stays for the scenario, so its card is lost.
            if summons > 1 || (summons == 1 && (heals > 0 || !half.lost)) {
                return Err(err(
                    &at,
                    format!(
                        "cards: {}: a half summons at most once, is lost, and has no heal",
                        c.name
                    ),
                ));
            }
            if half
                .effects
                .iter()
                .any(|e| matches!(e, Effect::Attack { targets: 0, .. }))
            {
                return Err(err(
                    &at,
                    format!("cards: {}: an attack needs at least 1 target", c.name),
                ));
            }
        }
    }
    Ok(())
}

/// Checks what serde cannot in a monster type written in `file`: its statistics, its deck, and that
/// every type it spawns is `known`.
fn check_monster(
    file: &str,
    text: &str,
    m: &MonsterType,
    known: impl Fn(&str) -> bool,
) -> Result<(), LoadError> {
    let err = |needle: &str, msg: String| LoadError::at_text(file, text, needle, msg);
    let at = format!("\"{}\"", m.name);
    if m.levels.is_empty() && (m.normal.hp == 0 || m.elite.hp == 0) {
        return Err(err(
            &at,
            format!(
                "monsters: {} needs `normal` and `elite` statistics with hp of at least 1, or `levels`",
                m.name
            ),
        ));
    }
    if !m.levels.is_empty() && m.levels.len() != MAX_LEVEL as usize + 1 {
        return Err(err(
            "levels:",
            format!(
                "monsters: {} lists statistics for {} levels: expected one for each level from 0 to {MAX_LEVEL}",
                m.name,
                m.levels.len()
            ),
        ));
    }
    if let Some(l) = m
        .levels
        .iter()
        .position(|r| r.normal.hp == 0 || r.elite.hp == 0)
    {
        return Err(err(
            "levels:",
            format!("monsters: {} needs hp of at least 1 at level {l}", m.name),
        ));
    }
    if m.objective && !m.deck.is_empty() {
        return Err(err(
            &at,
            format!(
                "monsters: {} is an objective, which never acts: it has no ability deck",
                m.name
            ),
        ));
    }
    if !m.objective && m.deck.is_empty() {
        return Err(err(
            &at,
            format!("monsters: {} has an empty ability deck", m.name),
        ));
    }
    for (i, list) in m.specials.iter().enumerate() {
        if list.is_empty() || list.len() > MAX_COUNT {
            return Err(err(
                "specials:",
                format!(
                    "monsters: {}: special {} lists {} actions: expected 1 to {MAX_COUNT}",
                    m.name,
                    i + 1,
                    list.len()
                ),
            ));
        }
        if list.iter().any(|a| matches!(a, MonsterEffect::Special(_))) {
            return Err(err(
                "specials:",
                format!(
                    "monsters: {}: special {} performs a special: a special lists plain actions",
                    m.name,
                    i + 1
                ),
            ));
        }
    }
    for c in &m.deck {
        for a in &c.actions {
            if let MonsterEffect::Special(n) = a
                && (*n == 0 || *n as usize > m.specials.len())
            {
                return Err(err(
                    &format!("Special({n})"),
                    format!(
                        "deck: {}: Special({n}), but {} has {} special{}",
                        c.name,
                        m.name,
                        m.specials.len(),
                        if m.specials.len() == 1 { "" } else { "s" }
                    ),
                ));
            }
        }
    }
    // The cards as a game plays them, specials in place.
    let played = m.with_specials();
    for c in &played.deck {
        let at = format!("\"{}\"", c.name);
        let moves = c.actions.iter().filter(|a| a.movement().is_some()).count();
        let attacks: Vec<CardAttack> = c.actions.iter().filter_map(MonsterEffect::attack).collect();
        // The focus rules plan one move and one attack together.
        if moves > 1 || attacks.len() > 1 {
            return Err(err(
                &at,
                format!(
                    "deck: {}: a monster card has at most one move and one attack",
                    c.name
                ),
            ));
        }
        if attacks.iter().any(|a| a.targets == 0) {
            return Err(err(
                &at,
                format!("deck: {}: an attack needs at least 1 target", c.name),
            ));
        }
        for a in &c.actions {
            if let MonsterEffect::Spawn(name) = a
                && !known(name)
            {
                return Err(err(
                    &format!("\"{name}\""),
                    format!("deck: {}: spawns an unknown monster type {name:?}", c.name),
                ));
            }
        }
    }
    Ok(())
}

/// A library file read: its name, its text, and the entry in it or why there is none.
type Read<T> = (String, String, Result<T, LoadError>);

/// Reads every file of a library folder with `parse`.
fn read_entries<T>(
    entries: &[crate::library::Entry],
    parse: fn(&str, &str) -> Result<T, LoadError>,
) -> Vec<Read<T>> {
    entries
        .iter()
        .map(|e| match &e.text {
            Ok(t) => (e.file.clone(), t.clone(), parse(&e.file, t)),
            Err(why) => (
                e.file.clone(),
                String::new(),
                Err(LoadError::whole(e.file.clone(), why.clone())),
            ),
        })
        .collect()
}

/// Why the files of `read` that hold no entry could not be read: one of them may be the entry a
/// name looks for.
fn unreadable<T>(read: &[Read<T>]) -> Vec<String> {
    read.iter()
        .filter_map(|(_, _, m)| m.as_ref().err().map(ToString::to_string))
        .collect()
}

/// Copies into `s` every monster type it names (in its legend or a spawn) but does not write,
/// from the library, and the types those name in turn; returns each one's file and text, in the
/// order added. A name found nowhere is left for the checks that follow to refuse.
fn pull_monsters(
    s: &mut Scenario,
    file: &str,
    text: &str,
    library: &Library,
) -> Result<Vec<(String, String)>, LoadError> {
    let mut pulled = Vec::new();
    let mut parsed: Option<Vec<Read<MonsterType>>> = None;
    loop {
        let wanted: Vec<String> = s
            .legend
            .values()
            .map(|p| p.monster.clone())
            .chain(s.monsters.iter().flat_map(|m| m.spawns().cloned()))
            .chain(s.special_rules.iter().flat_map(|r| {
                r.then.iter().filter_map(|e| match e {
                    RuleEffect::Spawn { monster, .. } => Some(monster.clone()),
                    RuleEffect::Goal(Victory::Kill(n)) => Some(n.clone()),
                    _ => None,
                })
            }))
            // A type the goal or a rule names only: read, so that the check says whether it
            // ever stands on the board rather than that it is unknown.
            .chain(match &s.victory {
                Victory::Kill(n) => Some(n.clone()),
                _ => None,
            })
            .chain(s.special_rules.iter().filter_map(|r| match &r.when {
                Trigger::Dies(n) => Some(n.clone()),
                _ => None,
            }))
            .filter(|n| s.monster_index(n).is_none())
            .collect();
        let Some(name) = wanted.into_iter().next() else {
            return Ok(pulled);
        };
        if library.monsters.is_empty() {
            return Ok(pulled);
        }
        // The library's files are read once, the first time a name is missing.
        let all = parsed.get_or_insert_with(|| read_entries(&library.monsters, parse_monster));
        let Some((lib_file, lib_text, found)) = all
            .iter()
            .find(|(_, _, m)| m.as_ref().is_ok_and(|m| m.name == name))
        else {
            // Unknown: say which library files could not be read, since it may be one of them.
            let broken = unreadable(all);
            if broken.is_empty() {
                return Ok(pulled);
            }
            return Err(LoadError::at_text(
                file,
                text,
                &format!("\"{name}\""),
                format!(
                    "unknown monster type {name:?}: it is not in the scenario, and the library has files it cannot read: {}",
                    broken.join("; ")
                ),
            ));
        };
        if s.monsters.len() >= MAX_COUNT {
            return Err(LoadError::at_text(
                file,
                text,
                "monsters",
                format!("more than {MAX_COUNT} monster types with those from the library"),
            ));
        }
        let m = found.as_ref().map_err(Clone::clone)?.clone();
        monster_bounds(lib_file, lib_text, &m, s.heroes.len())?;
        pulled.push((lib_file.clone(), lib_text.clone()));
        s.monsters.push(m);
    }
}

/// Gives every hero of a class its class's hit points, deck and hand, the class read from
/// `library` and checked in its own file; a hero's hand the class cannot give is refused where the
/// hero is written.
fn pull_classes(
    s: &mut Scenario,
    file: &str,
    text: &str,
    library: &Library,
) -> Result<(), LoadError> {
    // A hand and perks are chosen from a class: a hero written out whole has neither.
    if let Some(h) = s
        .heroes
        .iter()
        .find(|h| h.class.is_none() && (!h.hand.is_empty() || !h.perks.is_empty()))
    {
        return Err(LoadError::at_text(
            file,
            text,
            &format!("\"{}\"", h.name),
            format!(
                "heroes: {} names a hand or perks but no class: they are a class's (write `class:`)",
                h.name
            ),
        ));
    }
    let monsters_placed = s.monster_spots();
    // The scenario's own classes first: checked where the scenario writes them.
    if let Some(twice) = written_twice(s.classes.iter().map(|c| c.name.as_str())) {
        return Err(LoadError::at_text(
            file,
            text,
            &format!("\"{twice}\""),
            format!("classes: {twice} is written twice"),
        ));
    }
    for c in &s.classes {
        check_class(file, text, c)?;
        card_bounds(file, text, &c.cards, monsters_placed)?;
    }
    if s.heroes.iter().all(|h| h.class.is_none()) {
        return Ok(());
    }
    // Each class file is read once, and only when a hero names a class.
    let read = read_entries(&library.classes, parse_class);
    for h in &mut s.heroes {
        let Some(name) = h.class.clone() else {
            continue;
        };
        let at = format!("\"{name}\"");
        if let Some(class) = s.classes.iter().find(|c| c.name == name) {
            *h = h
                .of_class(class)
                .map_err(|e| LoadError::at_text(file, text, &at, format!("heroes: {e}")))?;
            continue;
        }
        let Some((cfile, ctext, class)) = read
            .iter()
            .find(|(_, _, c)| c.as_ref().is_ok_and(|c| c.name == name))
        else {
            let broken = unreadable(&read);
            let mut msg = format!("heroes: {}: unknown class {name:?}", h.name);
            if !broken.is_empty() {
                msg.push_str(&format!(
                    " (the library has files it cannot read: {})",
                    broken.join("; ")
                ));
            }
            return Err(LoadError::at_text(file, text, &at, msg));
        };
        let class = class.as_ref().map_err(Clone::clone)?;
        check_class(cfile, ctext, class)?;
        card_bounds(cfile, ctext, &class.cards, monsters_placed)?;
        *h = h
            .of_class(class)
            .map_err(|e| LoadError::at_text(file, text, &at, format!("heroes: {e}")))?;
    }
    Ok(())
}

/// What a player may make a character of at setup: the scenario's own classes (checked in
/// `file`), then every class of `library` that reads and passes its checks and is not named as
/// one of those, in the library's order. A broken class file is left out here (a hero that
/// names it is refused where it is written).
fn offered_classes(s: &Scenario, file: &str, text: &str, library: &Library) -> Vec<Class> {
    let monsters_placed = s.monster_spots();
    let own = s.classes.iter().filter(|c| {
        check_class(file, text, c).is_ok()
            && card_bounds(file, text, &c.cards, monsters_placed).is_ok()
    });
    let mut out: Vec<Class> = own.cloned().collect();
    for (cfile, ctext, c) in read_entries(&library.classes, parse_class) {
        let Ok(c) = c else { continue };
        if s.classes.iter().any(|o| o.name == c.name)
            || check_class(&cfile, &ctext, &c).is_err()
            || card_bounds(&cfile, &ctext, &c.cards, monsters_placed).is_err()
        {
            continue;
        }
        out.push(c);
    }
    out
}

/// The monster type `name` as `library` gives it (its own entries first, then the built-in
/// ones); `None` when no readable file has it.
pub fn library_type(library: &Library, name: &str) -> Option<MonsterType> {
    library.with_built_in().monsters.iter().find_map(|e| {
        let t = parse_monster(&e.file, e.text.as_ref().ok()?).ok()?;
        (t.name == name).then_some(t)
    })
}

/// The class `name` as `library` gives it (its own entries first, then the built-in ones);
/// `None` when no readable file has it.
pub fn library_class(library: &Library, name: &str) -> Option<Class> {
    library.with_built_in().classes.iter().find_map(|e| {
        let c = parse_class(&e.file, e.text.as_ref().ok()?).ok()?;
        (c.name == name).then_some(c)
    })
}

/// Parses one library monster file (`Monster(…)`).
pub fn parse_monster(file: &str, text: &str) -> Result<MonsterType, LoadError> {
    parse_ron(file, text)
}

/// The text map has at most this many rows and this many characters per row.
pub const MAX_MAP_SIDE: usize = 256;
/// Hit points, attack, heal, shield, pierce, damage and initiative values are at most this.
pub(crate) const MAX_NUMBER: i64 = 1_000;
/// Move, jump and range values are at most this.
pub(crate) const MAX_REACH: i64 = 64;
/// Targets of one attack, cards of a hero, cards of a monster deck and monster types are at most this.
pub(crate) const MAX_COUNT: usize = 64;
/// At most this many specials of a boss.
pub(crate) const MAX_SPECIALS: usize = 8;
/// A modifier deck holds at most this many cards.
pub(crate) const MAX_MODIFIERS: usize = 1_000;
/// The round limit is at most this.
pub(crate) const MAX_ROUNDS: i64 = 1_000;
/// Area offsets stay within this many hexes of the attacker.
pub(crate) const MAX_AOE_OFFSET: i32 = 32;

/// Checks every size and number against its bound before anything is built from them.
fn in_bounds(
    file: &str,
    text: &str,
    field: &str,
    value: i64,
    lo: i64,
    hi: i64,
) -> Result<(), LoadError> {
    if (lo..=hi).contains(&value) {
        return Ok(());
    }
    Err(LoadError::at_number(
        file,
        text,
        field,
        value.into(),
        format!("`{field}` is {value}: expected a number from {lo} to {hi}"),
    ))
}

fn at_most(file: &str, text: &str, field: &str, len: usize, max: usize) -> Result<(), LoadError> {
    if len <= max {
        return Ok(());
    }
    Err(LoadError::at_text(
        file,
        text,
        &format!("{field}:"),
        format!("`{field}` lists {len} entries: expected at most {max}"),
    ))
}

fn check_bounds(s: &Scenario, file: &str, text: &str) -> Result<(), LoadError> {
    let num =
        |field: &str, value: i64, lo: i64, hi: i64| in_bounds(file, text, field, value, lo, hi);
    let count = |field: &str, len: usize, max: usize| at_most(file, text, field, len, max);
    let n = |v: u32| i64::from(v);
    count("map", s.map.len(), MAX_MAP_SIDE)?;
    count("classes", s.classes.len(), MAX_COUNT)?;
    // Every set of targets an attack may pick is weighed: refuse attacks that would have too many.
    let monsters_placed = s.monster_spots();
    if let Some((row, line)) = s
        .map
        .iter()
        .enumerate()
        .find(|(_, l)| l.chars().count() > MAX_MAP_SIDE)
    {
        return Err(map_char_position(file, text, row, 0).with(format!(
            "map: row {} has {} characters: expected at most {MAX_MAP_SIDE}",
            row + 1,
            line.chars().count()
        )));
    }
    for &((aq, ar), (bq, br)) in &s.thin_walls {
        for (q, r) in [(aq, ar), (bq, br)] {
            if !crate::hex::within_bounds(hex(q, r)) {
                let v = if q.unsigned_abs() > r.unsigned_abs() {
                    q
                } else {
                    r
                };
                return Err(LoadError::at_number(
                    file,
                    text,
                    "thin_walls",
                    v.into(),
                    format!(
                        "thin_walls: ({q}, {r}) is off the board: expected coordinates within ±{}",
                        crate::hex::MAX_COORD
                    ),
                ));
            }
        }
    }
    num("trap_damage", n(s.trap_damage), 0, MAX_NUMBER)?;
    num("hazard_damage", n(s.hazard_damage), 0, MAX_NUMBER)?;
    if let Some(r) = s.round_limit {
        num("round_limit", n(r), 0, MAX_ROUNDS)?;
    }
    match &s.victory {
        Victory::Survive(r) => num("Survive", n(*r), 1, MAX_ROUNDS)?,
        Victory::Protect(r) => num("Protect", n(*r), 1, MAX_ROUNDS)?,
        Victory::Loot(t) => num("Loot", n(*t), 1, MAX_COUNT as i64)?,
        _ => {}
    }
    count("marks", s.marks.len(), MAX_MAP_SIDE)?;
    if let Some((row, line)) = s
        .marks
        .iter()
        .enumerate()
        .find(|(_, l)| l.chars().count() > MAX_MAP_SIDE)
    {
        return Err(
            grid_char_position(file, text, "marks:", row, 0).with(format!(
                "marks: row {} has {} characters: expected at most {MAX_MAP_SIDE}",
                row + 1,
                line.chars().count()
            )),
        );
    }
    count("special_rules", s.special_rules.len(), special::MAX_RULES)?;
    for r in &s.special_rules {
        count("then", r.then.len(), special::MAX_EFFECTS)?;
    }
    count("treasures", s.treasures.len(), MAX_COUNT)?;
    for t in s.treasures.values() {
        num("gold", n(t.gold), 0, MAX_NUMBER)?;
        num("damage", n(t.damage), 0, MAX_NUMBER)?;
        count("conditions", t.conditions.len(), 8)?;
    }
    count("allies", s.allies.len(), MAX_COUNT)?;
    for a in s.allies.values() {
        num("hp", n(a.hp), 0, MAX_NUMBER)?;
        num("move", n(a.movement), 0, MAX_REACH)?;
        num("attack", n(a.attack), 0, MAX_NUMBER)?;
        num("range", n(a.range), 0, MAX_REACH)?;
        num("initiative", n(a.initiative), 1, 99)?;
    }
    count("heroes", s.heroes.len(), MAX_COUNT)?;
    count("exercises", s.exercises.len(), MAX_COUNT)?;
    count("monsters", s.monsters.len(), MAX_COUNT)?;
    if let Some(m) = &s.monster_modifiers {
        count("monster_modifiers", m.len(), MAX_MODIFIERS)?;
    }
    for h in &s.heroes {
        num("hp", n(h.hp), 0, MAX_NUMBER)?;
        num("player", n(h.player), 0, 9)?;
        count("cards", h.cards.len(), MAX_COUNT)?;
        if let Some(m) = &h.modifiers {
            count("modifiers", m.len(), MAX_MODIFIERS)?;
        }
        count("hand", h.hand.len(), MAX_COUNT)?;
        count("perks", h.perks.len(), MAX_COUNT)?;
        card_bounds(file, text, &h.cards, monsters_placed)?;
    }
    num("level", n(s.level.unwrap_or(0)), 0, MAX_LEVEL.into())?;
    for h in &s.heroes {
        num("level", n(h.level), 1, 9)?;
    }
    for m in &s.monsters {
        monster_bounds(file, text, m, s.heroes.len())?;
    }
    Ok(())
}

/// Checks the numbers of a hero's cards against their bounds; `monsters_placed` is how many
/// monsters its attacks may choose among.
fn card_bounds(
    file: &str,
    text: &str,
    cards: &[HeroCard],
    monsters_placed: usize,
) -> Result<(), LoadError> {
    let num =
        |field: &str, value: i64, lo: i64, hi: i64| in_bounds(file, text, field, value, lo, hi);
    let count = |field: &str, len: usize, max: usize| at_most(file, text, field, len, max);
    let groups = |targets: u32, bound: u64, of: &str| few_groups(file, text, targets, bound, of);
    let n = |v: u32| i64::from(v);
    for c in cards {
        num("initiative", n(c.initiative), 0, MAX_NUMBER)?;
        for half in [&c.top, &c.bottom] {
            count("effects", half.effects.len(), 16)?;
            num("xp", n(half.xp), 0, MAX_NUMBER)?;
            for e in &half.effects {
                match e {
                    Effect::Move(v) => num("Move", n(*v), 0, MAX_REACH)?,
                    Effect::Jump(v) => num("Jump", n(*v), 0, MAX_REACH)?,
                    Effect::Shield(v) => num("Shield", n(*v), 0, MAX_NUMBER)?,
                    Effect::Heal { value, range } => {
                        num("value", n(*value), 0, MAX_NUMBER)?;
                        num("range", n(*range), 0, MAX_REACH)?;
                    }
                    Effect::Attack {
                        value,
                        range,
                        targets,
                        pierce,
                        consume,
                        ..
                    } => {
                        num("value", n(*value), 0, MAX_NUMBER)?;
                        num("range", n(*range), 0, MAX_REACH)?;
                        num("targets", n(*targets), 0, MAX_COUNT as i64)?;
                        groups(
                            *targets,
                            super::attack::target_sets_bound(monsters_placed, *targets),
                            &format!("{monsters_placed} monsters"),
                        )?;
                        num("pierce", n(*pierce), 0, MAX_NUMBER)?;
                        if let Some(c) = consume {
                            num("attack", c.attack.into(), -MAX_NUMBER, MAX_NUMBER)?;
                            num("heal", n(c.heal), 0, MAX_NUMBER)?;
                        }
                    }
                    Effect::Loot(v) => num("Loot", n(*v), 0, MAX_REACH)?,
                    Effect::Summon(sp) => {
                        num("hp", n(sp.hp), 1, MAX_NUMBER)?;
                        num("move", n(sp.movement), 0, MAX_REACH)?;
                        num("attack", n(sp.attack), 0, MAX_NUMBER)?;
                        num("range", n(sp.range), 0, MAX_REACH)?;
                    }
                    Effect::Infuse(_) | Effect::SelfCondition(_) => {}
                }
            }
        }
    }
    Ok(())
}

/// Checks a monster type's sizes and numbers against their bounds; `heroes` is how many heroes its
/// attacks may choose among.
fn monster_bounds(file: &str, text: &str, m: &MonsterType, heroes: usize) -> Result<(), LoadError> {
    let num =
        |field: &str, value: i64, lo: i64, hi: i64| in_bounds(file, text, field, value, lo, hi);
    let count = |field: &str, len: usize, max: usize| at_most(file, text, field, len, max);
    let groups = |targets: u32, bound: u64, of: &str| few_groups(file, text, targets, bound, of);
    let n = |v: u32| i64::from(v);
    let aoe = |list: &[(i32, i32)]| -> Result<(), LoadError> {
        count("aoe", list.len(), 32)?;
        for &(q, r) in list {
            let v = if q.unsigned_abs() > r.unsigned_abs() {
                q
            } else {
                r
            };
            num(
                "aoe",
                v.into(),
                -i64::from(MAX_AOE_OFFSET),
                MAX_AOE_OFFSET.into(),
            )?;
        }
        Ok(())
    };
    count("levels", m.levels.len(), MAX_LEVEL as usize + 1)?;
    let ranks = [&m.normal, &m.elite]
        .into_iter()
        .chain(m.levels.iter().flat_map(|r| [&r.normal, &r.elite]));
    for st in ranks {
        num("hp", n(st.hp), 0, MAX_NUMBER)?;
        num("move", n(st.movement), 0, MAX_REACH)?;
        num("attack", n(st.attack), 0, MAX_NUMBER)?;
        num("range", n(st.range), 0, MAX_REACH)?;
        num("shield", n(st.shield), 0, MAX_NUMBER)?;
        num("retaliate", n(st.retaliate), 0, MAX_NUMBER)?;
        num("retaliate_range", n(st.retaliate_range), 0, MAX_REACH)?;
        num("pierce", n(st.pierce), 0, MAX_NUMBER)?;
        num("targets", n(st.targets), 0, MAX_COUNT as i64)?;
        groups(
            st.targets,
            super::attack::groups_bound(heroes, st.targets),
            &format!("{heroes} heroes"),
        )?;
    }
    num("standees", n(m.standees), 1, MAX_COUNT as i64)?;
    count("deck", m.deck.len(), MAX_COUNT)?;
    count("specials", m.specials.len(), MAX_SPECIALS)?;
    for c in &m.deck {
        num("initiative", n(c.initiative), 0, MAX_NUMBER)?;
        count("actions", c.actions.len(), MAX_COUNT)?;
    }
    for list in &m.specials {
        count("specials", list.len(), MAX_COUNT)?;
    }
    {
        for a in m
            .deck
            .iter()
            .flat_map(|c| &c.actions)
            .chain(m.specials.iter().flatten())
        {
            match a {
                MonsterEffect::Move(v) | MonsterEffect::Jump(v) => {
                    num("move", (*v).into(), -MAX_REACH, MAX_REACH)?;
                }
                MonsterEffect::Attack {
                    value,
                    range,
                    targets,
                    aoe: area,
                    pierce,
                    consume,
                    ..
                } => {
                    num("attack", (*value).into(), -MAX_NUMBER, MAX_NUMBER)?;
                    if let Some(v) = range {
                        num("range", n(*v), 0, MAX_REACH)?;
                    }
                    num("targets", n(*targets), 0, MAX_COUNT as i64)?;
                    groups(
                        *targets,
                        super::attack::groups_bound(heroes, *targets),
                        &format!("{} heroes", heroes),
                    )?;
                    num("pierce", n(*pierce), 0, MAX_NUMBER)?;
                    if let Some(con) = consume {
                        num("attack", con.attack.into(), -MAX_NUMBER, MAX_NUMBER)?;
                        num("heal", n(con.heal), 0, MAX_NUMBER)?;
                    }
                    aoe(area)?;
                }
                MonsterEffect::Heal(v) => num("heal", n(*v), 0, MAX_NUMBER)?,
                MonsterEffect::Shield(v) => num("shield", n(*v), 0, MAX_NUMBER)?,
                MonsterEffect::Infuse(_) | MonsterEffect::Spawn(_) | MonsterEffect::Special(_) => {}
            }
        }
    }
    Ok(())
}

fn few_groups(file: &str, text: &str, targets: u32, bound: u64, of: &str) -> Result<(), LoadError> {
    if bound <= super::attack::MAX_GROUPS {
        return Ok(());
    }
    Err(LoadError::at_number(
        file,
        text,
        "targets",
        targets.into(),
        format!(
            "`targets` is {targets}: against {of} that allows more than {} sets of targets",
            super::attack::MAX_GROUPS
        ),
    ))
}

fn check_modifiers(file: &str, text: &str, cards: &[String]) -> Result<(), LoadError> {
    for c in cards {
        if let Err(e) = crate::modifiers::card::Card::parse(c) {
            return Err(LoadError::at_text(
                file,
                text,
                &format!("\"{c}\""),
                format!("modifiers: {e}"),
            ));
        }
    }
    if cards.is_empty() {
        return Err(LoadError::at_text(
            file,
            text,
            "modifiers:",
            "modifiers: a modifier deck needs cards",
        ));
    }
    Ok(())
}

/// Builder for an error placed on one character of the text map.
struct At {
    file: String,
    line: usize,
    column: usize,
}

impl At {
    fn with(self, message: String) -> LoadError {
        LoadError::new(self.file, self.line, self.column, message)
    }
}

/// A thin wall between two hexes, as a scenario writes it: `((q, r), (q, r))`.
pub type ThinWall = ((i32, i32), (i32, i32));

/// A board of these hexes and their terrain (walls included).
pub(crate) fn board_of(hexes: &[(Hex, Terrain)]) -> Result<HexMap, crate::hex::MapError> {
    let walls: Vec<Hex> = hexes
        .iter()
        .filter(|(_, t)| *t == Terrain::Wall)
        .map(|(h, _)| *h)
        .collect();
    let floor: Vec<Hex> = hexes
        .iter()
        .filter(|(_, t)| *t != Terrain::Wall)
        .map(|(h, _)| *h)
        .collect();
    let mut map = HexMap::new(&floor, &walls)?;
    for &(h, t) in hexes {
        if t != Terrain::Floor && t != Terrain::Wall {
            map.set_terrain(h, t)?;
        }
    }
    Ok(map)
}

/// Puts the scenario's thin walls on `map` where one of their hexes is on it (the rest lie in
/// rooms not revealed yet).
pub(crate) fn add_thin_walls(map: &mut HexMap, walls: &[ThinWall]) {
    for &((aq, ar), (bq, br)) in walls {
        let (a, b) = (hex(aq, ar), hex(bq, br));
        if map.contains(a) || map.contains(b) {
            // Checked against the whole map when the scenario was read.
            let _ = map.add_thin_wall(a, b);
        }
    }
}

/// File position of room character `(row, col)`: the `row`-th string after `rooms:`.
fn room_char_position(file: &str, text: &str, row: usize, col: usize) -> At {
    grid_char_position(file, text, "rooms:", row, col)
}

/// File position of map character `(row, col)`: the `row`-th string after `map:`.
fn map_char_position(file: &str, text: &str, row: usize, col: usize) -> At {
    grid_char_position(file, text, "map:", row, col)
}

/// File position of character `(row, col)` of the text grid after `field`.
fn grid_char_position(file: &str, text: &str, field: &str, row: usize, col: usize) -> At {
    let whole = At {
        file: file.to_string(),
        line: 0,
        column: 0,
    };
    let Some(start) = find_grid_field(text, field) else {
        return whole;
    };
    let mut quotes = text[start..].match_indices('"').map(|(i, _)| start + i);
    let mut open = None;
    for _ in 0..=row {
        open = quotes.next();
        if quotes.next().is_none() {
            return whole;
        }
    }
    let Some(open) = open else { return whole };
    let (line, column) = offset_to_position(text, open + 1);
    At {
        file: file.to_string(),
        line,
        column: column + col,
    }
}

fn find_grid_field(text: &str, field: &str) -> Option<usize> {
    let (line, col) = find_position(text, field)?;
    let off: usize = text
        .split_inclusive('\n')
        .take(line - 1)
        .map(str::len)
        .sum();
    let line_text = &text[off..];
    Some(off + line_text.char_indices().nth(col - 1).map_or(0, |(i, _)| i))
}
