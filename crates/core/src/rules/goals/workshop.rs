//! A goal-priority map in the workshop: its file written as people read one, and its moor of
//! terrain, Dome keys, adventures, loot, heroes and foes made by brushes and panel fields.
//!
//! The map is the file's text map (column `q`, row `r + q / 2`); painting off its top or left
//! edge moves the whole board, and every place the lists name moves with it. A Dome key is
//! stamped whole and taken off whole (a key is ten hexes or none); adventure spaces join the
//! adventure next to them, and a space taken out of the middle of one splits it in two.

use std::collections::BTreeMap;

use super::lab::key_shape;
use super::scenario::{
    AdventureSpec, AuraKind, AuraSpec, CardSpec, EffectSpec, FoeSpec, Goal, HeroSpec, KeySpec,
    KindSpec, MAX_FOES, MAX_HEROES, MAX_LIST, MAX_MAP_SIDE, MAX_ROUNDS, MinionSpec, PickSpec,
    PileSpec, Qr, RatingSpec, RulesName, ScenarioFile, SpecialSpec, Tile, WeaponSpec, component,
    tile,
};
use super::scenario::{AffectsSpec, MAX_HEALTH, MAX_LOOT, MAX_RATING, MAX_REACH};
use crate::LoadError;
use crate::error::parse_ron;
use crate::hex::{DIRECTIONS, Hex, hex};
use crate::library::Library;
use crate::rules::gloomhaven::workshop::{grid_cell, outside_hexes};
use crate::rules::lab::{Brush, BrushKind, Field, Value};
use crate::rules::view::{CellInfo, FigureInfo, Gear, Side, TableView, TokenInfo};
use crate::rules::workshop::{Document, Shop, Writer};

/// The first line of a file the workshop writes.
const HEADER: &str = "Made in Foehold's scenario workshop. The format is in docs/scenarios.md.";

impl Document for ScenarioFile {
    fn write(&self) -> String {
        // Every field by name, so that a field added to the format cannot be left unwritten.
        let ScenarioFile {
            rules,
            format,
            name,
            description,
            round_limit,
            explore_to_win,
            captures_to_lose,
            map,
            dome_keys,
            adventures,
            loot,
            heroes,
            foes,
            override_deck,
            exercises,
        } = self;
        let mut w = Writer::new("", &[HEADER]);
        w.field("rules", rules);
        w.some("format", format);
        w.field("name", name);
        w.field_unless("description", description, &String::new());
        w.field("round_limit", round_limit);
        w.field("explore_to_win", explore_to_win);
        w.field("captures_to_lose", captures_to_lose);
        w.list("map", map);
        w.list("dome_keys", dome_keys);
        w.list("adventures", adventures);
        w.list("loot", loot);
        w.list("heroes", heroes);
        w.list("foes", foes);
        w.list("override_deck", override_deck);
        w.items("exercises", exercises);
        w.finish()
    }

    fn read(file: &str, text: &str) -> Result<ScenarioFile, LoadError> {
        parse_ron(file, text)
    }
}

/// What the goal-priority brushes carry: the goal a new foe starts its option walk from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Palette {
    /// The foe brush's goal.
    pub goal: Goal,
}

impl Default for Palette {
    fn default() -> Self {
        Palette { goal: Goal::Attack }
    }
}

/// The ground brushes and the character each writes.
const GROUND: [(&str, &str, char); 5] = [
    ("floor", "Clear ground", '.'),
    ("wall", "Wall", '#'),
    ("woods", "Woods", '*'),
    ("rough", "Rough ground", '%'),
    ("blocked", "Prohibited terrain", '~'),
];

/// A new draft's override deck: every rating once, the arrows alternating, so that a map can be
/// played before its deck is thought about.
const FIRST_DECK: [(RatingSpec, PickSpec); 7] = [
    (RatingSpec::Agility, PickSpec::Lowest),
    (RatingSpec::Armor, PickSpec::Lowest),
    (RatingSpec::Melee, PickSpec::Highest),
    (RatingSpec::Stealth, PickSpec::Lowest),
    (RatingSpec::Wits, PickSpec::Highest),
    (RatingSpec::Speed, PickSpec::Highest),
    (RatingSpec::Aim, PickSpec::Lowest),
];
const RATINGS: [RatingSpec; 7] = [
    RatingSpec::Speed,
    RatingSpec::Melee,
    RatingSpec::Aim,
    RatingSpec::Agility,
    RatingSpec::Stealth,
    RatingSpec::Wits,
    RatingSpec::Armor,
];
const GOALS: [(Goal, &str); 2] = [(Goal::Attack, "Attack"), (Goal::Special, "Special")];
const AURAS: [(Option<AuraKind>, &str); 3] = [
    (None, "none"),
    (Some(AuraKind::Help), "Help"),
    (Some(AuraKind::Hinder), "Hinder"),
];
/// The specials a foe's panel offers, by kind: what each is when chosen.
const SPECIALS: [&str; 5] = [
    "none",
    "Lurk (surprise)",
    "Smoke burst (single use)",
    "Healing burst (single use)",
    "Guard (once per game)",
];
/// The most a panel's count of rounds, wins or losses takes (the loader bounds each again).
const MAX_COUNT: i64 = MAX_ROUNDS as i64;

/// A hex's place as the lists write it.
fn qr(h: Hex) -> Qr {
    (h.x, h.y)
}

fn qr_text((q, r): Qr) -> String {
    format!("({q}, {r})")
}

fn walkable(c: char) -> bool {
    matches!(
        tile(c),
        Some(Tile::Clear | Tile::Woods | Tile::Rough | Tile::Gap | Tile::Adventure)
    )
}

/// `stem 1`, `stem 2`, …: the first not among `taken` (more candidates than names: one is free).
fn free_name(stem: &str, taken: &[&str]) -> String {
    (1..=taken.len() + 1)
        .map(|n| format!("{stem} {n}"))
        .find(|n| !taken.contains(&n.as_str()))
        .unwrap_or_else(|| stem.to_string())
}

/// A card as the panel words it ("highest Agility").
fn card_word(c: &CardSpec) -> String {
    c.words()
}

/// Every card the panel offers, worded.
fn card_words() -> Vec<String> {
    RATINGS
        .iter()
        .flat_map(|&rating| {
            [PickSpec::Highest, PickSpec::Lowest].map(|pick| CardSpec { rating, pick }.words())
        })
        .collect()
}

fn card_of(word: &str) -> Result<CardSpec, String> {
    RATINGS
        .iter()
        .flat_map(|&rating| {
            [PickSpec::Highest, PickSpec::Lowest].map(|pick| CardSpec { rating, pick })
        })
        .find(|c| c.words() == word)
        .ok_or_else(|| format!("no override card `{word}`"))
}

/// A hero as a new map seats one: a wanderer of middling ratings.
fn new_hero(name: String, hex: Qr) -> HeroSpec {
    HeroSpec {
        name,
        hex,
        speed: 5,
        melee: 3,
        aim: 3,
        agility: 4,
        stealth: 4,
        wits: 3,
        armor: 2,
        health: 4,
        range: None,
        can_trade: true,
        auras: Vec::new(),
        minion: false,
    }
}

/// A foe as a new map places one.
fn new_foe(name: String, hex: Qr, goal: Goal) -> FoeSpec {
    FoeSpec {
        name,
        hex,
        goal,
        speed: 4,
        melee: 4,
        aim: 0,
        agility: 3,
        stealth: 3,
        armor: 3,
        health: 4,
        weapons: Vec::new(),
        auras: Vec::new(),
        specials: Vec::new(),
        minion_card: None,
        slip_away: false,
    }
}

/// The special a panel's choice makes.
fn special_of(word: &str) -> Option<SpecialSpec> {
    let (name, kind, effect, action) = match word {
        "Lurk (surprise)" => (
            "Lurk",
            KindSpec::Surprise,
            EffectSpec::Lurk {
                range: (2, 3),
                strike: super::scenario::surprise_strike(),
            },
            true,
        ),
        "Smoke burst (single use)" => (
            "Smoke Burst",
            KindSpec::SingleUse,
            EffectSpec::Burst {
                radius: 1,
                affects: AffectsSpec::Enemies,
            },
            false,
        ),
        "Healing burst (single use)" => (
            "Healing Burst",
            KindSpec::SingleUse,
            EffectSpec::Burst {
                radius: 2,
                affects: AffectsSpec::Allies,
            },
            false,
        ),
        "Guard (once per game)" => ("Guard", KindSpec::OncePerGame, EffectSpec::Guard, false),
        _ => return None,
    };
    Some(SpecialSpec {
        name: name.to_string(),
        kind,
        effect,
        action,
    })
}

/// The panel's word for a special (the file's own name when it is none the panel makes).
fn special_word(s: &SpecialSpec) -> &'static str {
    SPECIALS
        .iter()
        .copied()
        .find(|w| special_of(w).is_some_and(|made| made.kind == s.kind && made.effect == s.effect))
        .unwrap_or("none")
}

impl ScenarioFile {
    /// The character the map writes at a hex (a space off the map).
    pub fn char_at(&self, h: Qr) -> char {
        let (col, row) = grid_cell(hex(h.0, h.1));
        usize::try_from(row)
            .ok()
            .zip(usize::try_from(col).ok())
            .and_then(|(row, col)| self.map.get(row)?.chars().nth(col))
            .unwrap_or(' ')
    }

    /// Every hex the map draws, with its tile.
    fn tiles(&self) -> BTreeMap<Qr, Tile> {
        let mut out = BTreeMap::new();
        for (row, line) in self.map.iter().enumerate() {
            for (col, c) in line.chars().enumerate() {
                if let Some(t) = tile(c) {
                    let h = crate::rules::gloomhaven::scenario::map_hex(col, row);
                    out.insert(qr(h), t);
                }
            }
        }
        out
    }

    /// The connected hexes of the kinds `kinds` around `h`.
    fn group(&self, h: Qr, kinds: &[Tile]) -> Vec<Qr> {
        component(&self.tiles(), hex(h.0, h.1), kinds)
            .into_iter()
            .map(qr)
            .collect()
    }

    /// The Dome key a hex is part of, by index.
    fn key_at(&self, h: Qr) -> Option<usize> {
        let hexes = self.group(h, &[Tile::Dome, Tile::Gap]);
        self.dome_keys.iter().position(|k| hexes.contains(&k.at))
    }

    /// The adventure a hex is a space of, by index.
    fn adventure_at(&self, h: Qr) -> Option<usize> {
        let spaces = self.group(h, &[Tile::Adventure]);
        self.adventures.iter().position(|a| spaces.contains(&a.at))
    }

    fn hero_at(&self, h: Qr) -> Option<usize> {
        self.heroes.iter().position(|x| x.hex == h)
    }

    fn foe_at(&self, h: Qr) -> Option<usize> {
        self.foes.iter().position(|x| x.hex == h)
    }

    fn pile_at(&self, h: Qr) -> Option<usize> {
        self.loot.iter().position(|x| x.hex == h)
    }

    /// Every figure's name and every minion's: what a new name must differ from.
    fn names(&self) -> Vec<&str> {
        self.heroes
            .iter()
            .map(|h| h.name.as_str())
            .chain(self.foes.iter().map(|f| f.name.as_str()))
            .chain(
                self.foes
                    .iter()
                    .filter_map(|f| f.minion_card.as_ref().map(|m| m.name.as_str())),
            )
            .collect()
    }

    /// Grows the map so that every hex of `hexes` is on it; gives how far every hex moved (the
    /// map grows left two columns at a time, since a hex column's offset alternates).
    fn reach(&mut self, hexes: &[Qr]) -> Result<Qr, String> {
        let cells: Vec<(i32, i32)> = hexes.iter().map(|&(q, r)| grid_cell(hex(q, r))).collect();
        let col0 = cells.iter().map(|c| c.0).min().unwrap_or(0);
        let row0 = cells.iter().map(|c| c.1).min().unwrap_or(0);
        let left = if col0 < 0 { (-col0 + 1) / 2 * 2 } else { 0 };
        let up = (-row0).max(0);
        let width = self
            .map
            .iter()
            .map(|l| l.chars().count() as i32)
            .chain(cells.iter().map(|c| c.0 + 1))
            .max()
            .unwrap_or(0)
            + left;
        let height =
            (self.map.len() as i32).max(cells.iter().map(|c| c.1 + 1).max().unwrap_or(0)) + up;
        if width > MAX_MAP_SIDE as i32 || height > MAX_MAP_SIDE as i32 {
            return Err(format!(
                "the map would be {width} columns by {height} rows: it holds at most {MAX_MAP_SIDE} each way"
            ));
        }
        let by = (left, up - left / 2);
        if left > 0 || up > 0 {
            for line in &mut self.map {
                *line = std::iter::repeat_n(' ', left as usize)
                    .chain(line.chars())
                    .collect();
            }
            for _ in 0..up {
                self.map.insert(0, String::new());
            }
            let moved = |p: &mut Qr| *p = (p.0 + by.0, p.1 + by.1);
            self.dome_keys.iter_mut().for_each(|k| moved(&mut k.at));
            self.adventures.iter_mut().for_each(|a| moved(&mut a.at));
            self.loot.iter_mut().for_each(|p| moved(&mut p.hex));
            self.heroes.iter_mut().for_each(|h| moved(&mut h.hex));
            self.foes.iter_mut().for_each(|f| moved(&mut f.hex));
        }
        Ok(by)
    }

    /// Writes `c` at each hex (on the map already: see [`ScenarioFile::reach`]).
    fn write_chars(&mut self, hexes: &[Qr], c: char) {
        for &(q, r) in hexes {
            let (col, row) = grid_cell(hex(q, r));
            let (col, row) = (col as usize, row as usize);
            if self.map.len() <= row {
                self.map.resize(row + 1, String::new());
            }
            let mut chars: Vec<char> = self.map[row].chars().collect();
            if chars.len() <= col {
                chars.resize(col + 1, ' ');
            }
            chars[col] = c;
            self.map[row] = chars.into_iter().collect();
        }
        self.tidy();
    }

    /// Every row as wide as the widest drawn, and no blank row or column at the end.
    fn tidy(&mut self) {
        while self.map.last().is_some_and(|l| l.trim().is_empty()) {
            self.map.pop();
        }
        let width = self
            .map
            .iter()
            .map(|l| l.trim_end().chars().count())
            .max()
            .unwrap_or(0);
        for line in &mut self.map {
            let mut chars: Vec<char> = line.chars().collect();
            chars.resize(width, ' ');
            *line = chars.into_iter().collect();
        }
    }

    /// Takes an adventure space off (the hex stays, as `c`): the adventure keeps the part that
    /// holds its named space (or its first part), another part left by the split becomes an
    /// adventure of its own, and an adventure left with no space goes.
    fn take_adventure_space(&mut self, h: Qr, c: char) {
        let Some(a) = self.adventure_at(h) else {
            self.write_chars(&[h], c);
            return;
        };
        self.write_chars(&[h], c);
        let mut parts: Vec<Vec<Qr>> = Vec::new();
        for d in DIRECTIONS {
            let n = (h.0 + d.0, h.1 + d.1);
            if self.char_at(n) == 'A' && !parts.iter().any(|p| p.contains(&n)) {
                parts.push(self.group(n, &[Tile::Adventure]));
            }
        }
        let Some(first) = parts.first() else {
            self.adventures.remove(a);
            let most = self.adventures.len().max(1) as u32;
            self.explore_to_win = self.explore_to_win.min(most);
            self.captures_to_lose = self.captures_to_lose.min(most);
            return;
        };
        let keep = parts
            .iter()
            .position(|p| p.contains(&self.adventures[a].at))
            .unwrap_or(0);
        if !parts[keep].contains(&self.adventures[a].at) {
            self.adventures[a].at = first[0];
        }
        for (i, p) in parts.iter().enumerate() {
            if i == keep {
                continue;
            }
            let taken: Vec<&str> = self.adventures.iter().map(|x| x.name.as_str()).collect();
            let name = free_name("Adventure", &taken);
            let mut split = self.adventures[a].clone();
            split.name = name;
            split.at = p[0];
            self.adventures.push(split);
        }
    }

    /// Puts an adventure space on `h` (already on the map): it joins the adventure next to it,
    /// or starts one.
    fn put_adventure_space(&mut self, h: Qr) -> Result<(), String> {
        let mut next_to: Vec<usize> = DIRECTIONS
            .iter()
            .map(|d| (h.0 + d.0, h.1 + d.1))
            .filter(|n| self.char_at(*n) == 'A')
            .filter_map(|n| self.adventure_at(n))
            .collect();
        next_to.sort_unstable();
        next_to.dedup();
        if let [a, b, ..] = next_to[..] {
            return Err(format!(
                "{} lies between adventures `{}` and `{}`: a space here would join them",
                qr_text(h),
                self.adventures[a].name,
                self.adventures[b].name
            ));
        }
        if next_to.is_empty() && self.adventures.len() >= MAX_LIST {
            return Err(format!("a map has at most {MAX_LIST} adventures"));
        }
        self.write_chars(&[h], 'A');
        if next_to.is_empty() {
            let taken: Vec<&str> = self.adventures.iter().map(|x| x.name.as_str()).collect();
            let name = free_name("Adventure", &taken);
            self.adventures.push(AdventureSpec {
                name,
                at: h,
                difficulty: 10,
                foes_use: true,
            });
        }
        Ok(())
    }

    /// Takes the Dome key `k` off; its hexes become `c`.
    fn take_key(&mut self, k: usize, c: char) {
        let hexes = self.group(self.dome_keys[k].at, &[Tile::Dome, Tile::Gap]);
        self.write_chars(&hexes, c);
        self.dome_keys.remove(k);
    }

    /// Stamps a Dome key around `centre` (already reached).
    fn stamp_key(&mut self, centre: Qr) -> Result<(), String> {
        let (hexes, domes) = key_shape(centre);
        if let Some(h) = hexes
            .iter()
            .find(|h| !matches!(self.char_at(**h), ' ' | '.' | '*' | '%'))
        {
            return Err(format!(
                "a Dome key needs ten free hexes here: {} is {}",
                qr_text(*h),
                match tile(self.char_at(*h)) {
                    Some(Tile::Wall) => "a wall",
                    Some(Tile::Prohibited) => "prohibited terrain",
                    Some(Tile::Adventure) => "an adventure space",
                    _ => "part of another Dome key",
                }
            ));
        }
        let touching = hexes
            .iter()
            .flat_map(|&(q, r)| DIRECTIONS.iter().map(move |d| (q + d.0, r + d.1)));
        if let Some(n) = touching
            .filter(|n| !hexes.contains(n))
            .find(|n| matches!(self.char_at(*n), 'O' | 'o'))
        {
            let name = self
                .key_at(n)
                .map_or("another", |k| self.dome_keys[k].name.as_str());
            return Err(format!(
                "a Dome key here would touch key `{name}`: keys lie apart"
            ));
        }
        if let Some(d) = domes.iter().find(|d| {
            self.hero_at(**d).is_some() || self.foe_at(**d).is_some() || self.pile_at(**d).is_some()
        }) {
            return Err(format!(
                "{} would be a Dome, where nothing stands or lies: move what is there first",
                qr_text(*d)
            ));
        }
        if self.dome_keys.len() >= MAX_LIST {
            return Err(format!("a map has at most {MAX_LIST} Dome keys"));
        }
        self.write_chars(&hexes, 'o');
        self.write_chars(&domes, 'O');
        let taken: Vec<&str> = self.dome_keys.iter().map(|k| k.name.as_str()).collect();
        let name = free_name("Dome key", &taken);
        self.dome_keys.push(KeySpec { name, at: centre });
        Ok(())
    }

    /// Puts a hero (or a foe) on `h`, or takes off the one standing there.
    fn toggle_figure(&mut self, h: Qr, hero: bool, goal: Goal) -> Result<(), String> {
        if let Some(i) = self.hero_at(h) {
            if hero {
                self.heroes.remove(i);
                return Ok(());
            }
            return Err(format!(
                "{} stands there: take it off first",
                self.heroes[i].name
            ));
        }
        if let Some(i) = self.foe_at(h) {
            if !hero {
                self.foes.remove(i);
                return Ok(());
            }
            return Err(format!(
                "{} stands there: take it off first",
                self.foes[i].name
            ));
        }
        let c = self.char_at(h);
        if !walkable(c) && c != ' ' {
            return Err(format!(
                "{}: a figure stands on ground it can walk (not a wall, prohibited terrain or a Dome)",
                qr_text(h)
            ));
        }
        if hero && self.heroes.len() >= MAX_HEROES {
            return Err(format!("a map has at most {MAX_HEROES} heroes"));
        }
        if !hero && self.foes.len() >= MAX_FOES {
            return Err(format!("a map has at most {MAX_FOES} foes"));
        }
        let by = self.reach(&[h])?;
        let h = (h.0 + by.0, h.1 + by.1);
        if c == ' ' {
            self.write_chars(&[h], '.');
        }
        let name = free_name(if hero { "Hero" } else { "Foe" }, &self.names());
        if hero {
            self.heroes.push(new_hero(name, h));
        } else {
            self.foes.push(new_foe(name, h, goal));
        }
        Ok(())
    }

    /// What blocks a hex from becoming `c`: a figure or loot on ground it cannot stand on.
    fn blocked_by(&self, h: Qr, c: char) -> Option<String> {
        if walkable(c) {
            return None;
        }
        if let Some(i) = self.hero_at(h) {
            return Some(self.heroes[i].name.clone());
        }
        if let Some(i) = self.foe_at(h) {
            return Some(self.foes[i].name.clone());
        }
        self.pile_at(h).map(|_| "loot".to_string())
    }
}

/// The goal a foe deciding in `mode` starts from (a reaction's foe, from the Attack goal).
fn goal_of(mode: super::Mode) -> Goal {
    match mode {
        super::Mode::Special => Goal::Special,
        _ => Goal::Attack,
    }
}

/// The override card of a position, as a scenario's deck writes it.
fn card_of_position(c: &super::case::FileOverride) -> CardSpec {
    use super::{Pick, Rating};
    CardSpec {
        rating: match c.rating {
            Rating::Speed => RatingSpec::Speed,
            Rating::Melee => RatingSpec::Melee,
            Rating::Aim => RatingSpec::Aim,
            Rating::Agility => RatingSpec::Agility,
            Rating::Stealth => RatingSpec::Stealth,
            Rating::Wits => RatingSpec::Wits,
            Rating::Armor => RatingSpec::Armor,
        },
        pick: match c.pick {
            Pick::Highest => PickSpec::Highest,
            Pick::Lowest => PickSpec::Lowest,
        },
    }
}

fn aura_of_position(a: &super::case::FileAura) -> AuraSpec {
    AuraSpec {
        radius: a.radius,
        effect: match a.effect {
            super::AuraEffect::Help => AuraKind::Help,
            super::AuraEffect::Hinder => AuraKind::Hinder,
        },
    }
}

fn special_of_position(i: &super::case::FileItem) -> SpecialSpec {
    use super::case::FileEffect;
    SpecialSpec {
        name: i.name.clone(),
        kind: match i.kind {
            super::ItemKind::Surprise => KindSpec::Surprise,
            super::ItemKind::SingleUse => KindSpec::SingleUse,
            super::ItemKind::OncePerGame => KindSpec::OncePerGame,
        },
        effect: match i.effect {
            FileEffect::Lurk { range, strike } => EffectSpec::Lurk { range, strike },
            FileEffect::Burst { radius, affects } => EffectSpec::Burst {
                radius,
                affects: match affects {
                    super::Affects::Enemies => AffectsSpec::Enemies,
                    super::Affects::Allies => AffectsSpec::Allies,
                },
            },
            FileEffect::Guard => EffectSpec::Guard,
        },
        action: i.action,
    }
}

impl ScenarioFile {
    /// A scenario built around a lab position: its board as the map (moved so that it starts at
    /// the map's first column and row), its Dome keys, adventures (open again), loot, heroes
    /// and foes, the override card first in a deck of the others. What a position does not say
    /// a scenario needs (health, a foe's defences, the goal counts) is a new map's default; what
    /// belongs to the moment only (loot carried, a foe that acted, a trapped hero) is left out.
    pub fn from_position(p: &super::case::GoalTurn) -> ScenarioFile {
        let mut out = ScenarioFile::blank(&format!("From the lab: {}", p.id));
        let b = &p.board;
        let all: Vec<Qr> = b.hexes.iter().chain(&b.walls).copied().collect();
        // Even columns keep every hex column's offset.
        let cells: Vec<(i32, i32)> = all.iter().map(|&(q, r)| grid_cell(hex(q, r))).collect();
        let col0 = cells.iter().map(|c| c.0).min().unwrap_or(0).div_euclid(2) * 2;
        let row0 = all
            .iter()
            .map(|&(q, r)| {
                let (q, r) = (q - col0, r + col0 / 2);
                grid_cell(hex(q, r)).1
            })
            .min()
            .unwrap_or(0);
        let by = (-col0, col0 / 2 - row0);
        let at = |h: Qr| (h.0 + by.0, h.1 + by.1);
        let domes: Vec<Qr> = b.dome_keys.iter().flat_map(|k| k.domes.clone()).collect();
        let keyed: Vec<Qr> = b.dome_keys.iter().flat_map(|k| k.hexes.clone()).collect();
        let spaces: Vec<Qr> = b.adventures.iter().flat_map(|a| a.spaces.clone()).collect();
        for &h in &all {
            let c = if b.walls.contains(&h) {
                '#'
            } else if domes.contains(&h) {
                'O'
            } else if keyed.contains(&h) {
                'o'
            } else if spaces.contains(&h) {
                'A'
            } else if b.blocked.contains(&h) {
                '~'
            } else if b.woods.contains(&h) {
                '*'
            } else if b.rough.contains(&h) {
                '%'
            } else {
                '.'
            };
            out.write_chars(&[at(h)], c);
        }
        out.dome_keys = b
            .dome_keys
            .iter()
            .filter_map(|k| {
                Some(KeySpec {
                    name: k.name.clone(),
                    at: at(*k.domes.first().or(k.hexes.first())?),
                })
            })
            .collect();
        out.adventures = b
            .adventures
            .iter()
            .filter_map(|a| {
                Some(AdventureSpec {
                    name: a.name.clone(),
                    at: at(*a.spaces.first()?),
                    difficulty: 10,
                    foes_use: a.foes_use,
                })
            })
            .collect();
        out.loot = b
            .loot
            .iter()
            .map(|l| PileSpec {
                hex: at(l.hex),
                gold: l.gold,
                cards: l.cards,
            })
            .collect();
        out.heroes = p
            .heroes
            .iter()
            .map(|h| HeroSpec {
                speed: h.speed,
                melee: h.melee,
                aim: h.aim,
                agility: h.agility,
                stealth: h.stealth,
                wits: h.wits,
                armor: h.armor,
                // A minion carries nothing, so it cannot trade.
                can_trade: h.can_trade && !h.minion,
                minion: h.minion,
                auras: h.auras.iter().map(aura_of_position).collect(),
                ..new_hero(h.name.clone(), at(h.hex))
            })
            .collect();
        out.foes = p
            .foes
            .iter()
            .map(|f| FoeSpec {
                speed: f.speed,
                melee: f.melee,
                aim: f.aim,
                weapons: f
                    .weapons
                    .iter()
                    .map(|w| WeaponSpec {
                        name: w.name.clone(),
                        range: w.range,
                        hit: w.hit,
                    })
                    .collect(),
                auras: f.auras.iter().map(aura_of_position).collect(),
                specials: f.specials.iter().map(special_of_position).collect(),
                minion_card: f.minion_card.as_ref().map(|m| MinionSpec {
                    name: m.name.clone(),
                    speed: m.speed,
                    melee: m.melee,
                    aim: m.aim,
                }),
                slip_away: f.slip_away,
                ..new_foe(
                    f.name.clone(),
                    at(f.hex),
                    if f.name == p.active {
                        goal_of(p.mode)
                    } else {
                        Goal::Attack
                    },
                )
            })
            .collect();
        let first = card_of_position(&p.override_card);
        out.override_deck.retain(|c| *c != first);
        out.override_deck.insert(0, first);
        out
    }
}

impl Shop for ScenarioFile {
    const MODULE: &'static str = "Goals";
    type Palette = Palette;
    type Rules = super::Goals;

    fn of_position(p: &super::case::GoalTurn, _library: &Library) -> Result<ScenarioFile, String> {
        Ok(ScenarioFile::from_position(p))
    }

    fn blank(name: &str) -> ScenarioFile {
        ScenarioFile {
            rules: RulesName::Goals,
            format: Some(crate::rules::SCENARIO_FORMAT),
            name: name.to_string(),
            description: String::new(),
            round_limit: 12,
            explore_to_win: 1,
            captures_to_lose: 1,
            map: Vec::new(),
            dome_keys: Vec::new(),
            adventures: Vec::new(),
            loot: Vec::new(),
            heroes: Vec::new(),
            foes: Vec::new(),
            override_deck: FIRST_DECK
                .iter()
                .map(|&(rating, pick)| CardSpec { rating, pick })
                .collect(),
            exercises: Vec::new(),
        }
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn view(&self, _library: &Library) -> TableView {
        let mut view = TableView::default();
        let tiles = self.tiles();
        for (&key, &t) in &tiles {
            let place = match t {
                Tile::Adventure => self
                    .adventure_at(key)
                    .map(|a| self.adventures[a].name.clone()),
                Tile::Dome | Tile::Gap => self.key_at(key).map(|k| self.dome_keys[k].name.clone()),
                _ => None,
            };
            view.cells.push(CellInfo {
                key,
                ground: super::ground(t),
                door: false,
                place,
            });
        }
        for (i, h) in self.heroes.iter().enumerate() {
            view.figures.push(FigureInfo {
                id: i as u32,
                name: h.name.clone(),
                side: Side::Hero,
                elite: false,
                hp: h.health as i32,
                max_hp: h.health as i32,
                conditions: Vec::new(),
                cell: h.hex,
                owner: None,
                tint: i,
                gear: Gear::Bare,
                rooted: false,
                card: super::hero_card(h),
            });
        }
        for (i, f) in self.foes.iter().enumerate() {
            view.figures.push(FigureInfo {
                id: super::FOE_BASE + i as u32,
                name: f.name.clone(),
                side: Side::Foe,
                elite: false,
                hp: f.health as i32,
                max_hp: f.health as i32,
                conditions: Vec::new(),
                cell: f.hex,
                owner: None,
                tint: i,
                gear: super::foe_gear(f, false),
                rooted: false,
                card: super::foe_card(f),
            });
        }
        view.tokens = self
            .loot
            .iter()
            .map(|p| TokenInfo {
                cell: p.hex,
                label: format!("{}g {}c", p.gold, p.cards),
            })
            .collect();
        let drawn: Vec<Hex> = tiles.keys().map(|&(q, r)| hex(q, r)).collect();
        view.cells.extend(outside_hexes(&drawn, (13, 9), |h| {
            tiles.contains_key(&qr(h))
        }));
        view.banner = format!("Making {}", self.name);
        view
    }

    fn brushes() -> Vec<Brush> {
        let brush = |id, label, kind| Brush { id, label, kind };
        let mut out: Vec<Brush> = GROUND
            .iter()
            .map(|&(id, label, _)| brush(id, label, BrushKind::Ground))
            .collect();
        out.extend([
            brush("dome-key", "Dome key (ten hexes)", BrushKind::Stamp),
            brush("adventure", "Adventure space", BrushKind::Mark),
            brush("loot", "Loot", BrushKind::Mark),
            brush("hero", "Hero", BrushKind::Figure),
            brush("foe", "Foe", BrushKind::Figure),
            brush("erase", "Erase", BrushKind::Erase),
        ]);
        out
    }

    fn paint(
        &mut self,
        palette: &Palette,
        _library: &Library,
        brush: &str,
        cell: (i32, i32),
        _other: Option<(i32, i32)>,
    ) -> Result<(), String> {
        let here = self.char_at(cell);
        let in_key = || -> Result<(), String> {
            match self.key_at(cell) {
                Some(k) if matches!(here, 'O' | 'o') => Err(format!(
                    "{} is part of Dome key `{}`: the Dome key brush or the eraser takes the key off whole",
                    qr_text(cell),
                    self.dome_keys[k].name
                )),
                _ => Ok(()),
            }
        };
        if let Some(&(_, _, c)) = GROUND.iter().find(|(id, _, _)| *id == brush) {
            in_key()?;
            if let Some(what) = self.blocked_by(cell, c) {
                return Err(format!(
                    "{} is there: a wall, prohibited terrain or a Dome holds nothing",
                    what
                ));
            }
            let by = self.reach(&[cell])?;
            let cell = (cell.0 + by.0, cell.1 + by.1);
            if here == 'A' {
                self.take_adventure_space(cell, c);
            } else {
                self.write_chars(&[cell], c);
            }
            return Ok(());
        }
        match brush {
            "dome-key" => {
                if let Some(k) = self.key_at(cell).filter(|_| matches!(here, 'O' | 'o')) {
                    self.take_key(k, '.');
                    return Ok(());
                }
                let (hexes, _) = key_shape(cell);
                let by = self.reach(&hexes)?;
                let centre = (cell.0 + by.0, cell.1 + by.1);
                self.stamp_key(centre)?;
            }
            "adventure" => {
                in_key()?;
                if here == 'A' {
                    self.take_adventure_space(cell, '.');
                    return Ok(());
                }
                let by = self.reach(&[cell])?;
                self.put_adventure_space((cell.0 + by.0, cell.1 + by.1))?;
            }
            "loot" => {
                if let Some(i) = self.pile_at(cell) {
                    self.loot.remove(i);
                    return Ok(());
                }
                if !walkable(here) {
                    return Err(format!(
                        "{}: loot lies on ground a figure can walk",
                        qr_text(cell)
                    ));
                }
                if self.loot.len() >= MAX_LIST {
                    return Err(format!("a map has at most {MAX_LIST} piles of loot"));
                }
                self.loot.push(PileSpec {
                    hex: cell,
                    gold: 1,
                    cards: 1,
                });
            }
            "hero" => self.toggle_figure(cell, true, palette.goal)?,
            "foe" => self.toggle_figure(cell, false, palette.goal)?,
            "erase" => {
                if let Some(k) = self.key_at(cell).filter(|_| matches!(here, 'O' | 'o')) {
                    self.take_key(k, ' ');
                    return Ok(());
                }
                self.heroes.retain(|h| h.hex != cell);
                self.foes.retain(|f| f.hex != cell);
                self.loot.retain(|p| p.hex != cell);
                if here == 'A' {
                    self.take_adventure_space(cell, ' ');
                } else if here != ' ' {
                    self.write_chars(&[cell], ' ');
                }
            }
            b => return Err(format!("no brush `{b}`")),
        }
        Ok(())
    }

    fn palette_fields(&self, palette: &Palette, _library: &Library) -> Vec<Field> {
        let word = GOALS
            .iter()
            .find(|(g, _)| *g == palette.goal)
            .map_or("Attack", |(_, w)| w);
        vec![Field::choice(
            "brush:goal",
            "New foes' goal",
            word,
            &GOALS.map(|(_, w)| w),
        )]
    }

    fn set_palette(palette: &mut Palette, field: &str, value: Value) -> Result<(), String> {
        match (field, value) {
            ("brush:goal", Value::Choice(w)) => {
                palette.goal = GOALS
                    .iter()
                    .find(|(_, g)| *g == w)
                    .map(|(g, _)| *g)
                    .ok_or_else(|| format!("no goal `{w}`: Attack or Special"))?;
                Ok(())
            }
            (f, _) => Err(format!("no field `{f}` of the brushes")),
        }
    }

    fn fields(
        &self,
        _palette: &Palette,
        _library: &Library,
        selected: Option<(i32, i32)>,
    ) -> Vec<Field> {
        let adventures = self.adventures.len().max(1) as i64;
        let mut out = vec![
            Field::text("name", "Name", &self.name),
            Field::text("description", "Description", &self.description),
            Field::number(
                "round_limit",
                "Round limit",
                i64::from(self.round_limit),
                (1, MAX_COUNT),
            ),
            Field::number(
                "explore_to_win",
                "Explored to win",
                i64::from(self.explore_to_win),
                (1, adventures),
            ),
            Field::number(
                "captures_to_lose",
                "Captured to lose",
                i64::from(self.captures_to_lose),
                (1, adventures),
            ),
        ];
        // What stands on the selected hex first: it is what was just clicked.
        if let Some(cell) = selected {
            if let Some(i) = self.hero_at(cell) {
                hero_fields(&self.heroes[i], &mut out);
            }
            if let Some(i) = self.foe_at(cell) {
                foe_fields(&self.foes[i], &mut out);
            }
            if let Some(i) = self.pile_at(cell) {
                let p = &self.loot[i];
                out.push(count("loot:gold", "Loot's gold", p.gold));
                out.push(count("loot:cards", "Loot's cards", p.cards));
            }
            if self.char_at(cell) == 'A'
                && let Some(a) = self.adventure_at(cell)
            {
                let a = &self.adventures[a];
                out.push(Field::text("adventure:name", "Adventure", &a.name));
                out.push(rating("adventure:difficulty", "…difficulty", a.difficulty));
                out.push(Field::flag(
                    "adventure:foes_use",
                    "…the foes go for it",
                    a.foes_use,
                ));
            }
            if matches!(self.char_at(cell), 'O' | 'o')
                && let Some(k) = self.key_at(cell)
            {
                out.push(Field::text("key:name", "Dome key", &self.dome_keys[k].name));
            }
        }
        let words = card_words();
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        for (i, c) in self.override_deck.iter().enumerate() {
            out.push(Field::choice(
                &format!("card:{}", i + 1),
                &format!("Override card {}", i + 1),
                &card_word(c),
                &words,
            ));
        }
        out.push(Field::flag("card:add", "Add an override card", false));
        out.push(Field::flag("card:remove", "Take the last card out", false));
        out
    }

    fn set(
        &mut self,
        _palette: &mut Palette,
        _library: &Library,
        selected: Option<(i32, i32)>,
        field: &str,
        value: Value,
    ) -> Result<(), String> {
        let input = &value;
        match field {
            "name" => self.name = input.text()?,
            "description" => self.description = input.text()?,
            "round_limit" => self.round_limit = input.unsigned()?,
            "explore_to_win" => self.explore_to_win = input.unsigned()?,
            "captures_to_lose" => self.captures_to_lose = input.unsigned()?,
            "card:add" => {
                if input.flag()? {
                    if self.override_deck.len() >= MAX_LIST {
                        return Err(format!("the override deck holds at most {MAX_LIST} cards"));
                    }
                    let (rating, pick) = FIRST_DECK[self.override_deck.len() % FIRST_DECK.len()];
                    self.override_deck.push(CardSpec { rating, pick });
                }
            }
            "card:remove" => {
                if input.flag()? {
                    if self.override_deck.len() <= 1 {
                        return Err("the override deck keeps at least one card".into());
                    }
                    self.override_deck.pop();
                }
            }
            f if f.starts_with("card:") => {
                let i = f[5..]
                    .parse::<usize>()
                    .ok()
                    .and_then(|n| n.checked_sub(1))
                    .filter(|&i| i < self.override_deck.len())
                    .ok_or_else(|| format!("no field `{f}`"))?;
                self.override_deck[i] = card_of(&input.text()?)?;
            }
            f => {
                let cell = selected.ok_or("select a hex first")?;
                let (what, name) = f.split_once(':').ok_or_else(|| format!("no field `{f}`"))?;
                match what {
                    "hero" => {
                        let i = self.hero_at(cell).ok_or("no hero stands there")?;
                        set_hero(&mut self.heroes[i], name, input)?;
                    }
                    "foe" => {
                        let i = self.foe_at(cell).ok_or("no foe stands there")?;
                        set_foe(&mut self.foes[i], name, input)?;
                    }
                    "loot" => {
                        let i = self.pile_at(cell).ok_or("no loot lies there")?;
                        match name {
                            "gold" => self.loot[i].gold = input.unsigned()?,
                            "cards" => self.loot[i].cards = input.unsigned()?,
                            _ => return Err(format!("no field `{f}`")),
                        }
                    }
                    "adventure" => {
                        let i = self.adventure_at(cell).ok_or("no adventure is there")?;
                        let a = &mut self.adventures[i];
                        match name {
                            "name" => a.name = input.text()?,
                            "difficulty" => a.difficulty = input.signed()?,
                            "foes_use" => a.foes_use = input.flag()?,
                            _ => return Err(format!("no field `{f}`")),
                        }
                    }
                    "key" if name == "name" => {
                        let i = self.key_at(cell).ok_or("no Dome key is there")?;
                        self.dome_keys[i].name = input.text()?;
                    }
                    _ => return Err(format!("no field `{f}`")),
                }
            }
        }
        Ok(())
    }
}

fn reach_field(id: &str, label: &str, v: u32) -> Field {
    Field::number(id, label, v.into(), (0, MAX_REACH.into()))
}

fn rating(id: &str, label: &str, v: i32) -> Field {
    Field::number(
        id,
        label,
        v.into(),
        (-i64::from(MAX_RATING), MAX_RATING.into()),
    )
}

fn count(id: &str, label: &str, v: u32) -> Field {
    Field::number(id, label, v.into(), (0, MAX_LOOT.into()))
}

fn aura_fields(prefix: &str, auras: &[AuraSpec], out: &mut Vec<Field>) {
    let first = auras.first();
    let word = AURAS
        .iter()
        .find(|(e, _)| *e == first.map(|a| a.effect))
        .map_or("none", |(_, w)| w);
    out.push(Field::choice(
        &format!("{prefix}:aura"),
        "…aura",
        word,
        &AURAS.map(|(_, w)| w),
    ));
    if let Some(a) = first {
        out.push(reach_field(
            &format!("{prefix}:aura_radius"),
            "…aura's radius",
            a.radius,
        ));
    }
}

fn hero_fields(h: &HeroSpec, out: &mut Vec<Field>) {
    out.extend([
        Field::text("hero:name", "Hero", &h.name),
        reach_field("hero:speed", "…speed", h.speed),
        rating("hero:melee", "…melee", h.melee),
        rating("hero:aim", "…aim", h.aim),
        rating("hero:agility", "…agility", h.agility),
        rating("hero:stealth", "…stealth", h.stealth),
        rating("hero:wits", "…wits", h.wits),
        rating("hero:armor", "…armor", h.armor),
        Field::number(
            "hero:health",
            "…health",
            h.health.into(),
            (1, MAX_HEALTH.into()),
        ),
        Field::flag("hero:shoots", "…shoots", h.range.is_some()),
    ]);
    if let Some((near, far)) = h.range {
        out.push(reach_field("hero:range_min", "…nearest shot", near));
        out.push(reach_field("hero:range_max", "…farthest shot", far));
    }
    out.push(Field::flag("hero:can_trade", "…can trade", h.can_trade));
    out.push(Field::flag("hero:minion", "…a hero's minion", h.minion));
    aura_fields("hero", &h.auras, out);
}

fn foe_fields(f: &FoeSpec, out: &mut Vec<Field>) {
    let goal = GOALS
        .iter()
        .find(|(g, _)| *g == f.goal)
        .map_or("Attack", |(_, w)| w);
    out.extend([
        Field::text("foe:name", "Foe", &f.name),
        Field::choice("foe:goal", "…goal", goal, &GOALS.map(|(_, w)| w)),
        reach_field("foe:speed", "…speed", f.speed),
        rating("foe:melee", "…melee", f.melee),
        rating("foe:aim", "…aim", f.aim),
        rating("foe:agility", "…agility", f.agility),
        rating("foe:stealth", "…stealth", f.stealth),
        rating("foe:armor", "…armor", f.armor),
        Field::number(
            "foe:health",
            "…health",
            f.health.into(),
            (1, MAX_HEALTH.into()),
        ),
        Field::flag("foe:slip_away", "…can slip away", f.slip_away),
        Field::flag("foe:weapon", "…ranged weapon", !f.weapons.is_empty()),
    ]);
    // The panel edits the first weapon and special; a file may give more, kept as written.
    if let Some(w) = f.weapons.first() {
        out.extend([
            reach_field("foe:range_min", "…weapon's nearest range", w.range.0),
            reach_field("foe:range_max", "…weapon's farthest range", w.range.1),
            rating("foe:hit", "…weapon's hit", w.hit),
        ]);
    }
    aura_fields("foe", &f.auras, out);
    let special = f.specials.first().map_or("none", special_word);
    out.push(Field::choice("foe:special", "…special", special, &SPECIALS));
    out.push(Field::flag(
        "foe:minion",
        "…unleashes a minion",
        f.minion_card.is_some(),
    ));
    if let Some(m) = &f.minion_card {
        out.extend([
            Field::text("foe:minion_name", "…minion", &m.name),
            reach_field("foe:minion_speed", "…minion's speed", m.speed),
            rating("foe:minion_melee", "…minion's melee", m.melee),
        ]);
    }
}

/// A value given for a field.
fn set_aura(auras: &mut Vec<AuraSpec>, field: &str, v: &Value) -> Result<(), String> {
    if field == "aura_radius" {
        if let Some(a) = auras.first_mut() {
            a.radius = v.unsigned()?;
        }
        return Ok(());
    }
    let word = v.text()?;
    let effect = AURAS
        .iter()
        .find(|(_, w)| *w == word)
        .ok_or_else(|| format!("no aura `{word}`: none, Help or Hinder"))?
        .0;
    match (effect, auras.first_mut()) {
        (None, Some(_)) => {
            auras.remove(0);
        }
        (None, None) => {}
        (Some(effect), Some(a)) => a.effect = effect,
        (Some(effect), None) => auras.push(AuraSpec { radius: 1, effect }),
    }
    Ok(())
}

fn set_hero(h: &mut HeroSpec, field: &str, v: &Value) -> Result<(), String> {
    match field {
        "name" => h.name = v.text()?,
        "speed" => h.speed = v.unsigned()?,
        "melee" => h.melee = v.signed()?,
        "aim" => h.aim = v.signed()?,
        "agility" => h.agility = v.signed()?,
        "stealth" => h.stealth = v.signed()?,
        "wits" => h.wits = v.signed()?,
        "armor" => h.armor = v.signed()?,
        "health" => h.health = v.unsigned()?,
        "shoots" => h.range = v.flag()?.then_some(h.range.unwrap_or((2, 5))),
        "range_min" | "range_max" => {
            let (near, far) = h.range.ok_or("the hero does not shoot")?;
            h.range = Some(if field == "range_min" {
                (v.unsigned()?, far)
            } else {
                (near, v.unsigned()?)
            });
        }
        "can_trade" => h.can_trade = v.flag()?,
        "minion" => h.minion = v.flag()?,
        "aura" | "aura_radius" => set_aura(&mut h.auras, field, v)?,
        _ => return Err(format!("no field `hero:{field}`")),
    }
    Ok(())
}

fn set_foe(f: &mut FoeSpec, field: &str, v: &Value) -> Result<(), String> {
    match field {
        "name" => f.name = v.text()?,
        "goal" => {
            let w = v.text()?;
            f.goal = GOALS
                .iter()
                .find(|(_, g)| *g == w)
                .map(|(g, _)| *g)
                .ok_or_else(|| format!("no goal `{w}`: Attack or Special"))?;
        }
        "speed" => f.speed = v.unsigned()?,
        "melee" => f.melee = v.signed()?,
        "aim" => f.aim = v.signed()?,
        "agility" => f.agility = v.signed()?,
        "stealth" => f.stealth = v.signed()?,
        "armor" => f.armor = v.signed()?,
        "health" => f.health = v.unsigned()?,
        "slip_away" => f.slip_away = v.flag()?,
        "weapon" => {
            if !v.flag()? {
                f.weapons.clear();
            } else if f.weapons.is_empty() {
                f.weapons.push(WeaponSpec {
                    name: format!("{}'s Bow", f.name),
                    range: (2, 5),
                    hit: 0,
                });
            }
        }
        "range_min" | "range_max" | "hit" => {
            let w = f
                .weapons
                .first_mut()
                .ok_or("the foe has no ranged weapon")?;
            match field {
                "range_min" => w.range.0 = v.unsigned()?,
                "range_max" => w.range.1 = v.unsigned()?,
                _ => w.hit = v.signed()?,
            }
        }
        "aura" | "aura_radius" => set_aura(&mut f.auras, field, v)?,
        "special" => {
            let w = v.text()?;
            if !SPECIALS.contains(&w.as_str()) {
                return Err(format!("no special `{w}`: {}", SPECIALS.join(", ")));
            }
            match (special_of(&w), f.specials.is_empty()) {
                (Some(s), true) => f.specials.push(s),
                (Some(s), false) => f.specials[0] = s,
                (None, false) => {
                    f.specials.remove(0);
                }
                (None, true) => {}
            }
        }
        "minion" => {
            if !v.flag()? {
                f.minion_card = None;
            } else if f.minion_card.is_none() {
                f.minion_card = Some(MinionSpec {
                    name: format!("{}'s Hound", f.name),
                    speed: 6,
                    melee: 3,
                    aim: 0,
                });
            }
        }
        "minion_name" | "minion_speed" | "minion_melee" => {
            let m = f
                .minion_card
                .as_mut()
                .ok_or("the foe unleashes no minion")?;
            match field {
                "minion_name" => m.name = v.text()?,
                "minion_speed" => m.speed = v.unsigned()?,
                _ => m.melee = v.signed()?,
            }
        }
        _ => return Err(format!("no field `foe:{field}`")),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::PartyChoice;
    use crate::rules::view::Ground;
    use crate::workshop::any::{AnyDraft, open_draft, played_out, shop_modules};

    fn blank() -> Box<dyn AnyDraft> {
        let m = shop_modules()
            .into_iter()
            .find(|m| m.module == "Goals")
            .unwrap();
        (m.blank)("moor.ron", Library::default())
    }

    #[test]
    fn a_shipped_map_written_by_the_workshop_reads_back_the_same() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
        let mut seen = 0;
        for p in crate::game::check::ron_files(&root).unwrap() {
            let text = crate::disk::read_file(&p).unwrap();
            if crate::rules::rules_name(&text) != "Goals" {
                continue;
            }
            seen += 1;
            let file = p.display().to_string();
            let doc = ScenarioFile::read(&file, &text).unwrap();
            let written = doc.write();
            let back = ScenarioFile::read("written", &written)
                .unwrap_or_else(|e| panic!("{e}\n{written}"));
            assert_eq!(back, doc, "{file}");
            assert_eq!(back.write(), written);
            crate::kit::check("written", &written, &Library::default())
                .unwrap_or_else(|e| panic!("{file}: {e}"));
            // Its board, as the workshop draws it, is the game's: every hex with its ground.
            let view = doc.view(&Library::default());
            let drawn: usize = doc
                .map
                .iter()
                .map(|l| l.chars().filter(|c| *c != ' ').count())
                .sum();
            let on_board = view
                .cells
                .iter()
                .filter(|c| c.ground != Ground::Outside)
                .count();
            assert_eq!(on_board, drawn, "{file}");
        }
        assert!(seen >= 3, "{seen} maps");
    }

    /// The draft's text, for assertion messages.
    fn says(d: &dyn AnyDraft) -> String {
        format!("{:?}\n{}", d.report().error, d.text())
    }

    #[test]
    fn a_map_made_by_brushes_and_fields_loads_and_plays() {
        let mut d = blank();
        assert!(
            d.report().error.is_some(),
            "a blank map has nothing to play"
        );
        // A moor of clear ground, five rows of nine; woods and rough; a Dome key; two adventures.
        for col in 0..9 {
            for row in 0..5 {
                let h = crate::rules::gloomhaven::scenario::map_hex(col, row);
                d.paint("floor", qr(h), None).unwrap();
            }
        }
        d.paint("woods", (4, 0), None).unwrap();
        d.paint("rough", (5, -1), None).unwrap();
        d.paint("dome-key", (2, 1), None).unwrap();
        let adventure = qr(crate::rules::gloomhaven::scenario::map_hex(7, 1));
        d.paint("adventure", adventure, None).unwrap();
        d.paint("adventure", (adventure.0, adventure.1 + 1), None)
            .unwrap();
        d.paint("adventure", (0, 0), None).unwrap();
        d.paint("loot", (5, 1), None).unwrap();
        d.paint("hero", (0, 4), None).unwrap();
        d.paint("hero", (1, 3), None).unwrap();
        d.set(None, "brush:goal", Value::Choice("Special".into()))
            .unwrap();
        d.paint("foe", (8, -2), None).unwrap();
        d.set(Some((8, -2)), "foe:weapon", Value::Flag(true))
            .unwrap();
        d.set(Some((8, -2)), "foe:minion", Value::Flag(true))
            .unwrap();
        d.set(
            Some((8, -2)),
            "foe:special",
            Value::Choice("Guard (once per game)".into()),
        )
        .unwrap();
        d.set(
            Some(adventure),
            "adventure:name",
            Value::Text("Moth Archive".into()),
        )
        .unwrap();
        d.set(None, "explore_to_win", Value::Number(2)).unwrap();
        d.set(None, "card:1", Value::Choice("highest Wits".into()))
            .unwrap();
        assert_eq!(d.report().error, None, "{}", says(&*d));
        let text = d.text();
        assert!(text.contains("(name: \"Moth Archive\""), "{text}");
        assert!(
            text.contains("(name: \"Dome key 1\", at: (2, 1))"),
            "{text}"
        );
        assert!(text.contains("goal: Special"), "{text}");
        assert!(text.contains("(rating: Wits, pick: Highest)"), "{text}");
        let again = open_draft("moor.ron", &text, Library::default()).unwrap();
        assert_eq!(again.text(), text);
        assert!(d.offer().is_none(), "a map is played as written");
        let test = played_out(d.as_ref(), 20, PartyChoice::default());
        assert_eq!(test.report.unfinished, 0);
        // Refused, the draft as it was: a Dome key over another, a wall under a hero, a space
        // joining two adventures, a ground brush on a Dome key.
        let before = d.text();
        assert!(
            d.paint("dome-key", (4, 2), None)
                .unwrap_err()
                .contains("Dome key"),
        );
        assert!(
            d.paint("wall", (0, 4), None)
                .unwrap_err()
                .contains("Hero 1")
        );
        assert!(
            d.paint("woods", (2, 1), None)
                .unwrap_err()
                .contains("whole")
        );
        assert_eq!(d.text(), before);
        // A space out of the middle of a three-space adventure splits it; the eraser takes a key
        // off whole, and undo brings all back.
        let row = crate::rules::gloomhaven::scenario::map_hex(7, 3);
        d.paint("adventure", qr(row), None).unwrap();
        assert_eq!(d.report().error, None, "{}", says(&*d));
        d.paint("adventure", (adventure.0, adventure.1 + 1), None)
            .unwrap();
        assert_eq!(d.report().error, None, "{}", says(&*d));
        // The split-off part is an adventure of its own, named afresh.
        assert!(
            d.text().contains("(name: \"Adventure 1\", at: (7, 0)"),
            "{}",
            d.text()
        );
        d.paint("erase", (2, 1), None).unwrap();
        assert!(!d.text().contains("Dome key 1"));
        let map = ScenarioFile::read("moor.ron", &d.text()).unwrap().map;
        assert!(map.iter().all(|l| !l.contains(['O', 'o'])), "{map:?}");
        for _ in 0..3 {
            assert!(d.undo());
        }
        assert_eq!(d.text(), before);
    }

    #[test]
    fn painting_above_or_left_of_the_map_moves_every_place_with_it() {
        let mut d = blank();
        d.paint("floor", (0, 0), None).unwrap();
        d.paint("hero", (0, 0), None).unwrap();
        d.paint("adventure", (1, 0), None).unwrap();
        // One hex to the left and above: the board moves two columns right and a row down.
        d.paint("rough", (-1, 0), None).unwrap();
        let text = d.text();
        assert!(text.contains("hex: (2, 0)"), "{text}");
        assert!(text.contains("at: (3, 0)"), "{text}");
        let doc = ScenarioFile::read("moor.ron", &text).unwrap();
        assert_eq!(doc.char_at((2, 0)), '.');
        assert_eq!(doc.char_at((3, 0)), 'A');
        assert_eq!(doc.char_at((1, 0)), '%');
    }

    #[test]
    fn every_goal_priority_case_becomes_a_map_that_loads_with_its_figures_in_place() {
        let root =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance/goals");
        let mut loaded = 0;
        let mut seen = 0;
        for p in crate::game::check::ron_files(&root).unwrap() {
            let text = crate::disk::read_file(&p).unwrap();
            let Ok(case) = parse_ron::<super::super::case::GoalTurn>("case", &text) else {
                continue;
            };
            seen += 1;
            let doc = ScenarioFile::from_position(&case);
            // Every hex of the position is on the map, each figure on a hex of it.
            let drawn: usize = doc
                .map
                .iter()
                .map(|l| l.chars().filter(|c| *c != ' ').count())
                .sum();
            assert_eq!(
                drawn,
                case.board.hexes.len() + case.board.walls.len(),
                "{}",
                p.display()
            );
            assert_eq!(doc.heroes.len(), case.heroes.len());
            assert_eq!(doc.foes.len(), case.foes.len());
            for f in &doc.foes {
                assert!(walkable(doc.char_at(f.hex)), "{} {:?}", p.display(), f.hex);
            }
            let written = doc.write();
            // Read back the same; it loads, unless the position lacks what a game starts with:
            // an adventure, or every figure off the Domes (a hero hides in one mid-game).
            assert_eq!(ScenarioFile::read("x", &written).unwrap(), doc);
            let in_dome = doc.heroes.iter().any(|h| doc.char_at(h.hex) == 'O');
            match crate::kit::check("x", &written, &Library::default()) {
                Ok(_) => loaded += 1,
                Err(e) if doc.adventures.is_empty() => {
                    assert!(e.message.contains("`adventures` lists 0"), "{e}");
                }
                Err(e) => {
                    assert!(
                        in_dome && e.message.contains("walkable"),
                        "{}: {e}",
                        p.display()
                    );
                }
            }
        }
        assert!(
            seen >= 10 && loaded >= 4,
            "{loaded} of {seen} cases load as maps"
        );
    }

    #[test]
    fn a_lab_position_opens_as_a_draft_and_a_case_without_a_board_is_refused() {
        use crate::workshop::any::{builds_on, draft_of_position};
        assert!(builds_on("goals") && builds_on("gloomhaven") && builds_on("brimstone"));
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests");
        let case = std::fs::read_to_string(root.join("conformance/goals/gh-001.ron")).unwrap();
        let d = draft_of_position("goals", "moor.ron", &case, Library::default()).unwrap();
        assert_eq!(d.module(), "Goals");
        assert_eq!(d.history(), (0, 0));
        assert!(d.name().starts_with("From the lab: "), "{}", d.name());
        let attack =
            std::fs::read_to_string(root.join("conformance/brimstone/bs-040.ron")).unwrap();
        let e = draft_of_position("brimstone", "x.ron", &attack, Library::default()).err();
        assert!(e.is_some_and(|e| e.contains("a `HeroAttack` case has no board")));
        let e = draft_of_position("toy", "x.ron", &case, Library::default()).err();
        assert!(e.is_some_and(|e| e.contains("no scenarios around positions of `toy`")));
    }
}
