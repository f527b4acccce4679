//! The whole-scenario file of the goal-priority module, read with every bound checked before use.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::board::{Adventure, BoardSpec, DomeKey};
use super::situation::{
    Affects, Aura, AuraEffect, Item, ItemEffect, ItemKind, MinionCard, OverrideCard, Pick, Rating,
    Weapon,
};
use crate::error::{LoadError, offset_to_position, parse_ron};
use crate::hex::{Hex, hex};
use crate::rules::gloomhaven::scenario::map_hex;

/// Axial `(q, r)` as files write it.
pub(crate) type Qr = (i32, i32);

/// Most map rows, and most characters in a row.
pub(crate) const MAX_MAP_SIDE: usize = 64;
/// Most heroes.
pub(crate) const MAX_HEROES: usize = 8;
/// Most foes (each may add one minion in play).
pub(crate) const MAX_FOES: usize = 32;
/// Most entries of the smaller lists (keys, adventures, loot piles, override cards).
pub(crate) const MAX_LIST: usize = 64;
/// Most weapons, auras or specials of one figure.
pub(crate) const MAX_GEAR: usize = 8;
/// Largest speed, range or radius.
pub(crate) const MAX_REACH: u32 = 12;
/// Largest `|rating|`, weapon `hit` or adventure difficulty.
pub(crate) const MAX_RATING: i32 = 20;
/// Largest health.
pub(crate) const MAX_HEALTH: u32 = 20;
/// Largest gold or card count of a pile.
pub(crate) const MAX_LOOT: u32 = 100;
/// Most rounds.
pub(crate) const MAX_ROUNDS: u32 = 100;
/// Longest name.
pub(crate) const MAX_NAME: usize = 40;
/// Hexes in a Dome key.
pub(crate) const KEY_HEXES: usize = 10;

/// The `rules:` field of a goal-priority scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RulesName {
    /// Goal-priority foes.
    Goals,
}

/// The goal a foe starts its option walk from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Goal {
    /// The Attack goal.
    Attack,
    /// The Special goal.
    Special,
}

/// A whole goal-priority scenario file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// Always `Goals`.
    pub rules: RulesName,
    /// The scenario file's format ([`crate::rules::SCENARIO_FORMAT`]); absent in files written
    /// before it was named, which are of format 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<u32>,
    /// The scenario's name.
    pub name: String,
    /// A sentence or two about it.
    #[serde(default)]
    pub description: String,
    /// The heroes lose when this round ends without a result.
    pub round_limit: u32,
    /// The heroes win once they have explored this many adventures.
    pub explore_to_win: u32,
    /// The heroes lose once the foes have captured this many adventures.
    pub captures_to_lose: u32,
    /// One string per row, one character per hex (column `q`, row `r + q / 2`): `.` clear, `#`
    /// wall, `*` woods, `%` rough, `~` prohibited, `O` Dome, `o` gap space of a Dome key, `A`
    /// adventure space, space: no hex.
    pub map: Vec<String>,
    /// The Dome keys: each is the ten connected `O`/`o` hexes around `at`.
    pub dome_keys: Vec<KeySpec>,
    /// The adventures: each is the connected `A` hexes around `at`.
    pub adventures: Vec<AdventureSpec>,
    /// Loot lying on the map at the start.
    pub loot: Vec<PileSpec>,
    /// The heroes, in turn order.
    pub heroes: Vec<HeroSpec>,
    /// The foes, in turn order.
    pub foes: Vec<FoeSpec>,
    /// The override deck: one card is drawn each round, reshuffled when empty.
    pub override_deck: Vec<CardSpec>,
    /// Rules of `foehold coverage` (by their names there) that the scenario's games exercise:
    /// coverage fails when one of them never fires.
    #[serde(default)]
    pub exercises: Vec<String>,
}

/// A Dome key on the map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeySpec {
    /// Its name.
    pub name: String,
    /// One of its hexes.
    pub at: Qr,
}

/// An adventure on the map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdventureSpec {
    /// Its name.
    pub name: String,
    /// One of its spaces.
    pub at: Qr,
    /// A hero explores it with a die plus Wits (plus 2 for a spent card) of at least this.
    pub difficulty: i32,
    /// Whether the foes go for it.
    pub foes_use: bool,
}

/// A pile of loot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PileSpec {
    /// Where it lies.
    pub hex: Qr,
    /// Gold in it.
    pub gold: u32,
    /// Cards in it.
    pub cards: u32,
}

/// An aura as files write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuraSpec {
    /// How far it reaches.
    pub radius: u32,
    /// `Help` or `Hinder`.
    pub effect: AuraKind,
}

/// What an aura does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AuraKind {
    /// Helps the bearer's allies.
    Help,
    /// Hinders the bearer's enemies.
    Hinder,
}

/// A hero with its printed ratings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeroSpec {
    /// Its name.
    pub name: String,
    /// Where it starts.
    pub hex: Qr,
    /// Move points.
    pub speed: u32,
    /// Melee attack.
    pub melee: i32,
    /// Ranged attack.
    pub aim: i32,
    /// Defence against melee.
    pub agility: i32,
    /// Defence against ranged attacks.
    pub stealth: i32,
    /// Wits: added to an Explore roll.
    pub wits: i32,
    /// Armor: a hit wounds when a die beats it.
    pub armor: i32,
    /// Wounds it can take.
    pub health: u32,
    /// Ranged attack distances, `None`: no ranged attack.
    pub range: Option<(u32, u32)>,
    /// Whether it can trade.
    pub can_trade: bool,
    /// Its auras.
    pub auras: Vec<AuraSpec>,
    /// A hero's minion (a companion that fights beside the heroes): the foes target it only when
    /// no hero who is not a minion is a possible target, and never trap, ambush or watch it in a
    /// Dome. It moves, fights, slips away and hides, but never explores, picks up loot or trades,
    /// and the heroes lose once every hero who is not a minion is out.
    #[serde(default)]
    pub minion: bool,
}

/// A foe's ranged weapon.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponSpec {
    /// Its name.
    pub name: String,
    /// Nearest and farthest distance.
    pub range: (u32, u32),
    /// Added to the foe's Aim.
    pub hit: i32,
}

/// What a special does, as files write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum EffectSpec {
    /// Move to a space an enemy is at distance `min..=max` from, in sight, and strike it from
    /// hiding there: a surprise shot with Aim + `strike` against its Stealth.
    Lurk {
        /// Nearest and farthest distance.
        range: (u32, u32),
        /// What the surprise adds to the foe's Aim (2 when left out).
        #[serde(default = "surprise_strike")]
        strike: i32,
    },
    /// Affects every enemy (a wound roll each) or ally (one wound healed each) within `radius`.
    Burst {
        /// How far it reaches.
        radius: u32,
        /// Whom it affects.
        affects: AffectsSpec,
    },
    /// +2 Armor until the next round.
    Guard,
}

/// A surprise shot's bonus when the card gives none.
pub(crate) const fn surprise_strike() -> i32 {
    2
}

/// Whether a surprise shot's bonus is the one left out of files.
#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes a reference"
)]
pub(crate) const fn is_surprise_strike(strike: &i32) -> bool {
    *strike == surprise_strike()
}

/// Whom a burst affects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AffectsSpec {
    /// The foes' enemies: the heroes.
    Enemies,
    /// The other foes.
    Allies,
}

/// The kind of a special, which sets the order they are examined in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum KindSpec {
    /// Examined first.
    Surprise,
    /// Examined second.
    SingleUse,
    /// Examined last.
    OncePerGame,
}

/// A foe's special: used once, then spent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecialSpec {
    /// Its name.
    pub name: String,
    /// Its kind.
    pub kind: KindSpec,
    /// What it does.
    pub effect: EffectSpec,
    /// Whether using it is the foe's action.
    pub action: bool,
}

/// A minion a foe can unleash once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MinionSpec {
    /// Its name.
    pub name: String,
    /// Move points.
    pub speed: u32,
    /// Melee attack.
    pub melee: i32,
    /// Ranged attack (a minion has no weapon; kept for the card).
    pub aim: i32,
}

/// A foe.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FoeSpec {
    /// Its name.
    pub name: String,
    /// Where it starts.
    pub hex: Qr,
    /// The goal its option walk starts from.
    pub goal: Goal,
    /// Move points.
    pub speed: u32,
    /// Melee attack.
    pub melee: i32,
    /// Ranged attack.
    pub aim: i32,
    /// Defence against melee.
    pub agility: i32,
    /// Defence against ranged attacks.
    pub stealth: i32,
    /// A hit wounds when a die beats it.
    pub armor: i32,
    /// Wounds it can take.
    pub health: u32,
    /// Its ranged weapons.
    pub weapons: Vec<WeaponSpec>,
    /// Its auras.
    pub auras: Vec<AuraSpec>,
    /// Its specials.
    pub specials: Vec<SpecialSpec>,
    /// A minion it can unleash once.
    pub minion_card: Option<MinionSpec>,
    /// It may Slip Away.
    pub slip_away: bool,
}

/// An override card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardSpec {
    /// The rating it names.
    pub rating: RatingSpec,
    /// `Highest` (up arrow) or `Lowest` (down arrow).
    pub pick: PickSpec,
}

/// A rating an override card names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RatingSpec {
    /// Speed.
    Speed,
    /// Melee.
    Melee,
    /// Aim.
    Aim,
    /// Agility.
    Agility,
    /// Stealth.
    Stealth,
    /// Wits.
    Wits,
    /// Armor.
    Armor,
}

/// Which end of the rating a card keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PickSpec {
    /// The up arrow.
    Highest,
    /// The down arrow.
    Lowest,
}

impl CardSpec {
    /// The card as the decision reads it.
    pub fn card(&self) -> OverrideCard {
        OverrideCard {
            rating: match self.rating {
                RatingSpec::Speed => Rating::Speed,
                RatingSpec::Melee => Rating::Melee,
                RatingSpec::Aim => Rating::Aim,
                RatingSpec::Agility => Rating::Agility,
                RatingSpec::Stealth => Rating::Stealth,
                RatingSpec::Wits => Rating::Wits,
                RatingSpec::Armor => Rating::Armor,
            },
            pick: match self.pick {
                PickSpec::Highest => Pick::Highest,
                PickSpec::Lowest => Pick::Lowest,
            },
        }
    }

    /// The card in a few words ("highest Agility").
    pub fn words(&self) -> String {
        let c = self.card();
        let end = match c.pick {
            Pick::Highest => "highest",
            Pick::Lowest => "lowest",
        };
        format!("{end} {}", c.rating.name())
    }
}

impl AuraSpec {
    /// The aura as the decision reads it.
    pub(crate) fn aura(&self) -> Aura {
        Aura {
            radius: self.radius,
            effect: match self.effect {
                AuraKind::Help => AuraEffect::Help,
                AuraKind::Hinder => AuraEffect::Hinder,
            },
        }
    }
}

impl WeaponSpec {
    /// The weapon as the decision reads it.
    pub fn weapon(&self) -> Weapon {
        Weapon {
            name: self.name.clone(),
            min: self.range.0,
            max: self.range.1,
            hit: self.hit,
        }
    }
}

impl SpecialSpec {
    /// The special as the decision reads it.
    pub(crate) fn item(&self) -> Item {
        Item {
            name: self.name.clone(),
            kind: match self.kind {
                KindSpec::Surprise => ItemKind::Surprise,
                KindSpec::SingleUse => ItemKind::SingleUse,
                KindSpec::OncePerGame => ItemKind::OncePerGame,
            },
            effect: match self.effect {
                EffectSpec::Lurk { range, strike } => ItemEffect::Lurk {
                    min: range.0,
                    max: range.1,
                    strike,
                },
                EffectSpec::Burst { radius, affects } => ItemEffect::Burst {
                    radius,
                    affects: match affects {
                        AffectsSpec::Enemies => Affects::Enemies,
                        AffectsSpec::Allies => Affects::Allies,
                    },
                },
                EffectSpec::Guard => ItemEffect::Guard,
            },
            action: self.action,
        }
    }
}

impl MinionSpec {
    /// The card as the decision reads it.
    pub fn card(&self) -> MinionCard {
        MinionCard {
            name: self.name.clone(),
            speed: self.speed,
            melee: self.melee,
            aim: self.aim,
        }
    }
}

/// What a map character stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tile {
    /// Clear ground.
    Clear,
    /// A wall hex.
    Wall,
    /// Woods.
    Woods,
    /// Rough ground.
    Rough,
    /// Prohibited terrain.
    Prohibited,
    /// A Dome.
    Dome,
    /// A gap space of a Dome key.
    Gap,
    /// An adventure space.
    Adventure,
}

pub(crate) fn tile(c: char) -> Option<Tile> {
    Some(match c {
        '.' => Tile::Clear,
        '#' => Tile::Wall,
        '*' => Tile::Woods,
        '%' => Tile::Rough,
        '~' => Tile::Prohibited,
        'O' => Tile::Dome,
        'o' => Tile::Gap,
        'A' => Tile::Adventure,
        _ => return None,
    })
}

/// A scenario ready to play: its file and the map read from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scenario {
    /// The file as written.
    pub file: ScenarioFile,
    /// The map read into hexes, keys and adventures.
    pub layout: Layout,
}

/// The map read into hexes and the groups the lists name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Every hex with its tile, in map order.
    pub tiles: Vec<(Hex, Tile)>,
    /// The tile of each hex.
    pub by_hex: BTreeMap<Qr, Tile>,
    /// The Dome keys (ten hexes each, Domes among them).
    pub keys: Vec<DomeKey>,
    /// Each adventure's spaces.
    pub adventures: Vec<Vec<Hex>>,
}

impl Layout {
    /// The tile of a hex, if it is on the map.
    pub fn tile(&self, h: Hex) -> Option<Tile> {
        self.by_hex.get(&(h.x, h.y)).copied()
    }

    /// The board the decisions read, with the adventures' state and the loot piles given.
    pub(crate) fn board_spec(
        &self,
        s: &ScenarioFile,
        closed: &[bool],
        loot: &[super::board::Loot],
    ) -> BoardSpec {
        let of = |want: Tile| -> Vec<Hex> {
            self.tiles
                .iter()
                .filter(|(_, t)| *t == want)
                .map(|(h, _)| *h)
                .collect()
        };
        BoardSpec {
            hexes: self
                .tiles
                .iter()
                .filter(|(_, t)| *t != Tile::Wall)
                .map(|(h, _)| *h)
                .collect(),
            walls: of(Tile::Wall),
            woods: of(Tile::Woods),
            rough: of(Tile::Rough),
            blocked: of(Tile::Prohibited),
            dome_keys: self.keys.clone(),
            adventures: self
                .adventures
                .iter()
                .zip(&s.adventures)
                .enumerate()
                .map(|(k, (spaces, a))| Adventure {
                    name: a.name.clone(),
                    spaces: spaces.clone(),
                    captured: closed.get(k).copied().unwrap_or(false),
                    foes_use: a.foes_use,
                })
                .collect(),
            loot: loot.to_vec(),
        }
    }
}

/// Where the character at `row`, `col` of the map is written, for errors.
fn map_position(text: &str, row: usize, col: usize) -> Option<(usize, usize)> {
    let start = text.find("map:")?;
    let mut quotes = text[start..].match_indices('"').map(|(i, _)| start + i);
    let mut open = None;
    for _ in 0..=row {
        open = quotes.next();
        quotes.next();
    }
    let open = open?;
    let offset = text[open + 1..]
        .char_indices()
        .nth(col)
        .map_or(open + 1, |(i, _)| open + 1 + i);
    Some(offset_to_position(text, offset))
}

struct Check<'a> {
    file: &'a str,
    text: &'a str,
}

impl Check<'_> {
    fn at(&self, needle: &str, message: String) -> LoadError {
        LoadError::at_text(self.file, self.text, needle, message)
    }

    fn num(&self, field: &str, v: i64, lo: i64, hi: i64) -> Result<(), LoadError> {
        if (lo..=hi).contains(&v) {
            return Ok(());
        }
        Err(LoadError::at_number(
            self.file,
            self.text,
            field,
            v.into(),
            format!("`{field}` is {v}: expected a number from {lo} to {hi}"),
        ))
    }

    fn count(&self, field: &str, n: usize, lo: usize, hi: usize) -> Result<(), LoadError> {
        if (lo..=hi).contains(&n) {
            return Ok(());
        }
        Err(self.at(
            &format!("{field}:"),
            format!("`{field}` lists {n} entries: expected {lo} to {hi}"),
        ))
    }

    fn name(&self, name: &str) -> Result<(), LoadError> {
        if name.is_empty() || name.chars().count() > MAX_NAME {
            return Err(self.at(
                &format!("\"{name}\""),
                format!(
                    "name `{}`: expected 1 to {MAX_NAME} characters",
                    crate::rules::clipped(name)
                ),
            ));
        }
        Ok(())
    }

    fn reach(&self, field: &str, v: u32) -> Result<(), LoadError> {
        self.num(field, v.into(), 0, MAX_REACH.into())
    }

    fn rating(&self, field: &str, v: i32) -> Result<(), LoadError> {
        self.num(field, v.into(), (-MAX_RATING).into(), MAX_RATING.into())
    }

    fn range(&self, field: &str, (lo, hi): (u32, u32)) -> Result<(), LoadError> {
        self.reach(field, lo)?;
        self.reach(field, hi)?;
        if lo == 0 || lo > hi {
            return Err(self.at(
                &format!("{field}:"),
                format!("`{field}` is ({lo}, {hi}): expected 1 <= nearest <= farthest"),
            ));
        }
        Ok(())
    }

    fn auras(&self, list: &[AuraSpec]) -> Result<(), LoadError> {
        self.count("auras", list.len(), 0, MAX_GEAR)?;
        for a in list {
            self.reach("radius", a.radius)?;
        }
        Ok(())
    }
}

/// Checks every size and number against its bound before anything is built from them.
fn check_bounds(s: &ScenarioFile, c: &Check<'_>) -> Result<(), LoadError> {
    c.name(&s.name)?;
    c.num("round_limit", s.round_limit.into(), 1, MAX_ROUNDS.into())?;
    c.count("map", s.map.len(), 1, MAX_MAP_SIDE)?;
    if let Some((row, line)) = s
        .map
        .iter()
        .enumerate()
        .find(|(_, l)| l.chars().count() > MAX_MAP_SIDE)
    {
        return Err(c.at(
            &format!("\"{line}\""),
            format!(
                "map: row {} has {} characters: expected at most {MAX_MAP_SIDE}",
                row + 1,
                line.chars().count()
            ),
        ));
    }
    c.count("dome_keys", s.dome_keys.len(), 0, MAX_LIST)?;
    c.count("adventures", s.adventures.len(), 1, MAX_LIST)?;
    c.count("loot", s.loot.len(), 0, MAX_LIST)?;
    c.count("heroes", s.heroes.len(), 1, MAX_HEROES)?;
    c.count("foes", s.foes.len(), 1, MAX_FOES)?;
    c.count("override_deck", s.override_deck.len(), 1, MAX_LIST)?;
    c.count("exercises", s.exercises.len(), 0, MAX_LIST)?;
    if let Some(e) = s.exercises.iter().find(|e| !RULES.contains(&e.as_str())) {
        return Err(c.at(
            &format!("\"{e}\""),
            format!(
                "exercises: `{e}` is no rule coverage counts: expected one of {}",
                RULES.join(", ")
            ),
        ));
    }
    c.num(
        "explore_to_win",
        s.explore_to_win.into(),
        1,
        s.adventures.len() as i64,
    )?;
    c.num(
        "captures_to_lose",
        s.captures_to_lose.into(),
        1,
        s.adventures.len() as i64,
    )?;
    for k in &s.dome_keys {
        c.name(&k.name)?;
    }
    for a in &s.adventures {
        c.name(&a.name)?;
        c.rating("difficulty", a.difficulty)?;
    }
    for p in &s.loot {
        c.num("gold", p.gold.into(), 0, MAX_LOOT.into())?;
        c.num("cards", p.cards.into(), 0, MAX_LOOT.into())?;
    }
    for h in &s.heroes {
        c.name(&h.name)?;
        c.reach("speed", h.speed)?;
        for (f, v) in [
            ("melee", h.melee),
            ("aim", h.aim),
            ("agility", h.agility),
            ("stealth", h.stealth),
            ("wits", h.wits),
            ("armor", h.armor),
        ] {
            c.rating(f, v)?;
        }
        c.num("health", h.health.into(), 1, MAX_HEALTH.into())?;
        if let Some(r) = h.range {
            c.range("range", r)?;
        }
        c.auras(&h.auras)?;
        if h.minion && h.can_trade {
            return Err(c.at(
                &h.name,
                format!(
                    "hero {:?}: a minion cannot trade (`can_trade: true`); it carries nothing",
                    h.name
                ),
            ));
        }
    }
    if s.heroes.iter().all(|h| h.minion) {
        return Err(c.at(
            "heroes",
            "`heroes`: every hero is a minion; at least one must not be".into(),
        ));
    }
    for f in &s.foes {
        c.name(&f.name)?;
        c.reach("speed", f.speed)?;
        for (field, v) in [
            ("melee", f.melee),
            ("aim", f.aim),
            ("agility", f.agility),
            ("stealth", f.stealth),
            ("armor", f.armor),
        ] {
            c.rating(field, v)?;
        }
        c.num("health", f.health.into(), 1, MAX_HEALTH.into())?;
        c.count("weapons", f.weapons.len(), 0, MAX_GEAR)?;
        for w in &f.weapons {
            c.name(&w.name)?;
            c.range("range", w.range)?;
            c.rating("hit", w.hit)?;
        }
        c.auras(&f.auras)?;
        c.count("specials", f.specials.len(), 0, MAX_GEAR)?;
        for sp in &f.specials {
            c.name(&sp.name)?;
            match sp.effect {
                EffectSpec::Lurk { range, strike } => {
                    c.range("range", range)?;
                    c.rating("strike", strike)?;
                }
                EffectSpec::Burst { radius, .. } => c.reach("radius", radius)?,
                EffectSpec::Guard => {}
            }
        }
        if let Some(m) = &f.minion_card {
            c.name(&m.name)?;
            c.reach("speed", m.speed)?;
            c.rating("melee", m.melee)?;
            c.rating("aim", m.aim)?;
        }
    }
    Ok(())
}

/// The connected hexes around `start` whose tile is one of `kinds`, sorted.
pub(crate) fn component(tiles: &BTreeMap<Qr, Tile>, start: Hex, kinds: &[Tile]) -> Vec<Hex> {
    let is = |h: Hex| tiles.get(&(h.x, h.y)).is_some_and(|t| kinds.contains(t));
    let mut seen: BTreeSet<Qr> = BTreeSet::new();
    let mut stack = vec![start];
    while let Some(h) = stack.pop() {
        if !is(h) || !seen.insert((h.x, h.y)) {
            continue;
        }
        for d in 0..6 {
            stack.push(crate::hex::step(h, d));
        }
    }
    seen.into_iter().map(|(q, r)| hex(q, r)).collect()
}

impl Scenario {
    /// Parses and validates scenario text; `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<Scenario, LoadError> {
        let s: ScenarioFile = parse_ron(file, text)?;
        Scenario::checked(s, file, text)
    }

    /// Validates a file read already (`text` is where error positions point, if any).
    pub fn checked(s: ScenarioFile, file: &str, text: &str) -> Result<Scenario, LoadError> {
        let c = Check { file, text };
        check_bounds(&s, &c)?;
        let layout = s.layout_checked(&c)?;
        Ok(Scenario { file: s, layout })
    }
}

impl ScenarioFile {
    fn layout_checked(&self, c: &Check<'_>) -> Result<Layout, LoadError> {
        let mut tiles = Vec::new();
        for (row, line) in self.map.iter().enumerate() {
            for (col, ch) in line.chars().enumerate() {
                if ch == ' ' {
                    continue;
                }
                let Some(t) = tile(ch) else {
                    let (l, cl) = map_position(c.text, row, col).unwrap_or((0, 0));
                    return Err(LoadError::new(
                        c.file,
                        l,
                        cl,
                        format!(
                            "map: unknown character {ch:?}: expected one of . # * % ~ O o A or a space"
                        ),
                    ));
                };
                tiles.push((map_hex(col, row), t));
            }
        }
        let by_hex: BTreeMap<Qr, Tile> = tiles.iter().map(|(h, t)| ((h.x, h.y), *t)).collect();
        let find = |h: Hex| by_hex.get(&(h.x, h.y)).copied();
        let qr_text = |p: Qr| format!("({}, {})", p.0, p.1);
        // Every named place must be a hex of the map of the right kind.
        let place = |p: Qr, what: &str, ok: &[Tile]| -> Result<Hex, LoadError> {
            let h = hex(p.0, p.1);
            match find(h) {
                Some(t) if ok.contains(&t) => Ok(h),
                _ => Err(c.at(
                    &qr_text(p),
                    format!(
                        "{what} {}: expected a hex of the map that is {}",
                        qr_text(p),
                        match ok {
                            [Tile::Dome, Tile::Gap] => "`O` or `o`",
                            [Tile::Adventure] => "`A`",
                            _ => "walkable (not `#`, `~` or `O`)",
                        }
                    ),
                )),
            }
        };
        let walkable = [
            Tile::Clear,
            Tile::Woods,
            Tile::Rough,
            Tile::Gap,
            Tile::Adventure,
        ];
        let mut keys = Vec::new();
        let mut in_key = BTreeSet::new();
        for k in &self.dome_keys {
            let at = place(k.at, "Dome key", &[Tile::Dome, Tile::Gap])?;
            let hexes = component(&by_hex, at, &[Tile::Dome, Tile::Gap]);
            if hexes.len() != KEY_HEXES || hexes.iter().any(|h| in_key.contains(&(h.x, h.y))) {
                return Err(c.at(
                    &qr_text(k.at),
                    format!(
                        "Dome key `{}` has {} connected `O`/`o` hexes: expected exactly {KEY_HEXES}, apart from other keys",
                        k.name,
                        hexes.len()
                    ),
                ));
            }
            in_key.extend(hexes.iter().map(|h| (h.x, h.y)));
            let domes: Vec<Hex> = hexes
                .iter()
                .copied()
                .filter(|h| find(*h) == Some(Tile::Dome))
                .collect();
            keys.push(DomeKey {
                name: k.name.clone(),
                hexes,
                domes,
            });
        }
        if let Some((h, _)) = tiles
            .iter()
            .find(|(h, t)| matches!(t, Tile::Dome | Tile::Gap) && !in_key.contains(&(h.x, h.y)))
        {
            return Err(c.at(
                "dome_keys:",
                format!(
                    "hex ({}, {}) is `O` or `o` but no Dome key names it: expected it in `dome_keys`",
                    h.x, h.y
                ),
            ));
        }
        let mut adventures = Vec::new();
        let mut in_adv = BTreeSet::new();
        for a in &self.adventures {
            let at = place(a.at, "adventure", &[Tile::Adventure])?;
            let spaces = component(&by_hex, at, &[Tile::Adventure]);
            if spaces.iter().any(|h| in_adv.contains(&(h.x, h.y))) {
                return Err(c.at(
                    &qr_text(a.at),
                    format!(
                        "adventure `{}` shares its spaces with another: expected apart",
                        a.name
                    ),
                ));
            }
            in_adv.extend(spaces.iter().map(|h| (h.x, h.y)));
            adventures.push(spaces);
        }
        if let Some((h, _)) = tiles
            .iter()
            .find(|(h, t)| *t == Tile::Adventure && !in_adv.contains(&(h.x, h.y)))
        {
            return Err(c.at(
                "adventures:",
                format!(
                    "hex ({}, {}) is `A` but no adventure names it: expected it in `adventures`",
                    h.x, h.y
                ),
            ));
        }
        for p in &self.loot {
            place(p.hex, "loot", &walkable)?;
        }
        let mut names = BTreeSet::new();
        let mut taken = BTreeSet::new();
        let figures = self
            .heroes
            .iter()
            .map(|h| (&h.name, h.hex))
            .chain(self.foes.iter().map(|f| (&f.name, f.hex)));
        for (name, p) in figures {
            if !names.insert(name.as_str()) {
                return Err(c.at(
                    &format!("\"{name}\""),
                    format!("`{name}` is named twice: expected unique names"),
                ));
            }
            place(p, name, &walkable)?;
            if !taken.insert(p) {
                return Err(c.at(
                    &qr_text(p),
                    format!("{} holds two figures: expected one each", qr_text(p)),
                ));
            }
        }
        for f in &self.foes {
            if let Some(m) = &f.minion_card
                && !names.insert(m.name.as_str())
            {
                return Err(c.at(
                    &format!("\"{}\"", m.name),
                    format!("`{}` is named twice: expected unique names", m.name),
                ));
            }
        }
        // The decision needs one board: terrain must not overlap in ways it refuses.
        let layout = Layout {
            tiles,
            by_hex,
            keys,
            adventures,
        };
        if let Err(e) = super::board::Board::new(layout.board_spec(self, &[], &[])) {
            return Err(c.at("map:", format!("map: {e}")));
        }
        Ok(layout)
    }
}

/// Every rule coverage counts, by a short stable name: the names `exercises` may claim.
///
/// In the order its table lists them. It lives with the scenario, which checks the claims;
/// [`super::coverage`] counts them.
pub const RULES: &[&str] = &[
    "Attack 1",
    "Attack 2",
    "Attack 2 by Slip Away",
    "Attack 3",
    "Attack 4",
    "Attack 5",
    "Special 1",
    "Special 2",
    "Special 3",
    "Special 3 by Slip Away",
    "Special 4",
    "Special 5",
    "Special 6",
    "Adventure goal",
    "Unleash",
    "Minion option 5",
    "Invading an ally",
    "Pushed back",
    "Target: minions out",
    "Target: validity",
    "Target: override",
    "Target: easiest",
    "Target: players' tie",
    "Surprise card",
    "Burst",
    "Healing burst",
    "Guard",
    "Melee step",
    "Reaction shot",
    "Outcomes tied",
    "Hero: melee",
    "Hero: shoot",
    "Hero: pick up",
    "Hero: trade",
    "Hero: Slip Away",
    "Hero: explore",
    "Hero: hide",
    "Capture",
];
