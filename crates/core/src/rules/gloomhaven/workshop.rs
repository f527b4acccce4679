//! A Gloomhaven-family scenario in the workshop: its file written as people read one, and the
//! edits of its text maps (the ground, the rooms and doors, the marks) by hex.
//!
//! The map, `rooms` and `marks` are grids of the same rows and columns. An edit by hex finds the
//! grid cell of the hex, grows every grid to hold it (to the left and up by two columns or one row
//! at a time, which moves the whole board without bending it), and keeps the three grids one shape.

use super::preset::{Overrides, Preset};
use super::scenario::Side as RuleSide;
use super::scenario::{
    Area, Cell, Class, HeroSpec, MAX_LEVEL, MAX_MAP_SIDE, MonsterType, Placement, Rank, RuleEffect,
    Scenario, SpecialRule, Treasure, Trigger, Victory, cell, library_class, library_type, map_hex,
    parse_class, parse_monster,
};
use super::{class_shop, type_shop};
use crate::LoadError;
use crate::error::parse_ron;
use crate::hex::Hex;
use crate::library::Library;
use crate::rules::lab::{Brush, BrushKind, Field, Value};
use crate::rules::view::{CellInfo, CellKey, FigureInfo, Gear, Ground, Side, TableView, TokenInfo};
use crate::rules::workshop::{Document, OwnEntry, Shop, Writer};

/// The first line of a file the workshop writes.
const HEADER: &str = "Made in Foehold's scenario workshop. The format is in docs/scenarios.md.";

impl Document for Scenario {
    fn write(&self) -> String {
        // Every field by name, so that a field added to the format cannot be left unwritten.
        let Scenario {
            rules,
            format,
            name,
            description,
            grid,
            map,
            thin_walls,
            rooms,
            room_names,
            legend,
            trap_damage,
            hazard_damage,
            heroes,
            monsters,
            monster_modifiers,
            victory,
            marks,
            special_rules,
            treasures,
            allies,
            round_limit,
            preset,
            switches,
            level,
            exercises,
            party,
            classes,
            shelf: _,
        } = self;
        let mut w = Writer::new("Scenario", &[HEADER]);
        w.field("rules", rules);
        w.some("format", format);
        w.field("name", name);
        w.field_unless("description", description, &String::new());
        w.field("grid", grid);
        w.list("map", map);
        w.items("thin_walls", thin_walls);
        w.items("rooms", rooms);
        w.entries("room_names", room_names);
        w.entries("legend", legend);
        w.field_unless("trap_damage", trap_damage, &3);
        w.field_unless("hazard_damage", hazard_damage, &1);
        w.list("heroes", heroes);
        w.items("classes", classes);
        w.items("monsters", monsters);
        w.some("monster_modifiers", monster_modifiers);
        w.field("victory", victory);
        w.items("marks", marks);
        w.items("special_rules", special_rules);
        w.entries("treasures", treasures);
        w.entries("allies", allies);
        w.some("round_limit", round_limit);
        w.field_unless("preset", preset, &Preset::default());
        w.field_unless("switches", switches, &Overrides::default());
        w.some("level", level);
        w.items("exercises", exercises);
        // The loader refuses a party in a file; written, so that the draft is refused as the
        // file would be.
        w.some("party", party);
        w.finish()
    }

    fn read(file: &str, text: &str) -> Result<Scenario, LoadError> {
        parse_ron(file, text)
    }
}

/// One of the three grids drawn over the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layer {
    /// The map: ground, doors, starts, and the letters of monster spots, treasures and allies.
    Map,
    /// The rooms: a room's letter on each of its hexes, `+` on doors.
    Rooms,
    /// The marks special rules name.
    Marks,
}

impl Layer {
    /// What a grid holds where it says nothing.
    const fn blank(self) -> char {
        match self {
            Layer::Map | Layer::Rooms => ' ',
            Layer::Marks => '.',
        }
    }
}

/// The grid cell `(column, row)` of a hex (either may be negative: off the grid to the left or
/// above).
pub fn grid_cell(h: Hex) -> (i32, i32) {
    (h.x, h.y + h.x.div_euclid(2))
}

/// The hexes around a text map's `drawn` ones that are not on it yet (`on_map` says which are).
///
/// A table draws them faintly for the brushes to reach: two columns and rows each way, or a first
/// sheet of `sheet` columns and rows for a map with nothing on it.
pub fn outside_hexes(
    drawn: &[Hex],
    sheet: (i32, i32),
    on_map: impl Fn(Hex) -> bool,
) -> Vec<CellInfo> {
    let cells: Vec<(i32, i32)> = drawn.iter().map(|h| grid_cell(*h)).collect();
    let (c0, c1, r0, r1) = match (
        cells.iter().map(|c| c.0).min(),
        cells.iter().map(|c| c.0).max(),
        cells.iter().map(|c| c.1).min(),
        cells.iter().map(|c| c.1).max(),
    ) {
        (Some(c0), Some(c1), Some(r0), Some(r1)) => (c0 - 2, c1 + 3, r0 - 2, r1 + 3),
        _ => (0, sheet.0, 0, sheet.1),
    };
    let mut out = Vec::new();
    for row in r0..r1 {
        for col in c0..c1 {
            let h = Hex::new(col, row - col.div_euclid(2));
            if !on_map(h) {
                out.push(CellInfo {
                    key: (h.x, h.y),
                    ground: Ground::Outside,
                    door: false,
                    place: None,
                });
            }
        }
    }
    out
}

impl Scenario {
    fn layer(&mut self, layer: Layer) -> &mut Vec<String> {
        match layer {
            Layer::Map => &mut self.map,
            Layer::Rooms => &mut self.rooms,
            Layer::Marks => &mut self.marks,
        }
    }

    /// What a grid holds at a hex (its blank off the grid).
    pub fn char_at(&self, layer: Layer, h: Hex) -> char {
        let grid = match layer {
            Layer::Map => &self.map,
            Layer::Rooms => &self.rooms,
            Layer::Marks => &self.marks,
        };
        let (col, row) = grid_cell(h);
        usize::try_from(row)
            .ok()
            .zip(usize::try_from(col).ok())
            .and_then(|(row, col)| grid.get(row)?.chars().nth(col))
            .unwrap_or(layer.blank())
    }

    /// Writes `c` on a grid at a hex, growing the grids to hold it; `Err` when the map would
    /// grow past its bound. The hexes of everything already drawn stay where they were, unless
    /// the grid grows to the left or up: then the whole board moves with it.
    pub fn set_char(&mut self, layer: Layer, h: Hex, c: char) -> Result<Hex, String> {
        let h = self.reach(h)?;
        let (col, row) = grid_cell(h);
        let (col, row) = (col as usize, row as usize);
        if layer != Layer::Map && self.layer(layer).is_empty() {
            self.start_layer(layer);
        }
        let blank = layer.blank();
        let rows = self.map.len();
        let grid = self.layer(layer);
        grid.resize(rows.max(row + 1), String::new());
        let line = &mut grid[row];
        let mut chars: Vec<char> = line.chars().collect();
        if chars.len() <= col {
            chars.resize(col + 1, blank);
        }
        chars[col] = c;
        *line = chars.into_iter().collect();
        self.tidy();
        Ok(h)
    }

    /// Starts `rooms` or `marks` over the map: every hex of the map in room `A`, or no marks.
    fn start_layer(&mut self, layer: Layer) {
        let fill = |c: char| match (layer, c) {
            (Layer::Rooms, ' ') => ' ',
            (Layer::Rooms, '+') => '+',
            (Layer::Rooms, _) => 'A',
            _ => '.',
        };
        let drawn: Vec<String> = self
            .map
            .iter()
            .map(|l| l.chars().map(fill).collect())
            .collect();
        *self.layer(layer) = drawn;
    }

    /// Grows the grids so that `h` is on them, and gives `h`'s place after any move.
    fn reach(&mut self, h: Hex) -> Result<Hex, String> {
        let (col, row) = grid_cell(h);
        // Columns to the left go two at a time: a hex column's offset alternates, so only an
        // even shift moves every hex alike.
        let left = if col < 0 { (-col + 1) / 2 * 2 } else { 0 };
        let up = (-row).max(0);
        let width = self.width().max(col.max(0) as usize + 1) + left as usize;
        let height = self.map.len().max(row.max(0) as usize + 1) + up as usize;
        if width > MAX_MAP_SIDE || height > MAX_MAP_SIDE {
            return Err(format!(
                "the map would be {width} columns by {height} rows: it holds at most {MAX_MAP_SIDE} each way"
            ));
        }
        if left > 0 || up > 0 {
            self.shift(left as usize, up as usize);
        }
        let moved = Hex::new(h.x + left, h.y + up - left / 2);
        let (_, row) = grid_cell(moved);
        while self.map.len() <= row as usize {
            self.map.push(String::new());
        }
        Ok(moved)
    }

    /// Puts `left` blank columns (an even number) and `up` blank rows before every grid, and
    /// moves the thin walls (written by hex) with them.
    fn shift(&mut self, left: usize, up: usize) {
        for layer in [Layer::Map, Layer::Rooms, Layer::Marks] {
            let blank = layer.blank();
            let grid = self.layer(layer);
            if grid.is_empty() {
                continue;
            }
            for line in grid.iter_mut() {
                *line = std::iter::repeat_n(blank, left)
                    .chain(line.chars())
                    .collect();
            }
            for _ in 0..up {
                grid.insert(0, String::new());
            }
        }
        let (dq, dr) = (left as i32, up as i32 - left as i32 / 2);
        for (a, b) in &mut self.thin_walls {
            *a = (a.0 + dq, a.1 + dr);
            *b = (b.0 + dq, b.1 + dr);
        }
    }

    /// The map's widest row.
    fn width(&self) -> usize {
        self.map
            .iter()
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(0)
    }

    /// Keeps the grids one shape: `rooms` and `marks` (when drawn) with the map's rows and width,
    /// the map's rows as wide as its widest, and no blank row or column at the end.
    fn tidy(&mut self) {
        let blank_end = |s: &Scenario| {
            let last = s.map.len().checked_sub(1)?;
            let empty = |layer: Layer, grid: &Vec<String>| {
                grid.get(last)
                    .is_none_or(|l| l.chars().all(|c| c == layer.blank()))
            };
            (empty(Layer::Map, &s.map)
                && empty(Layer::Rooms, &s.rooms)
                && empty(Layer::Marks, &s.marks))
            .then_some(())
        };
        while self.map.len() > 1 && blank_end(self).is_some() {
            self.map.pop();
        }
        let rows = self.map.len();
        let width = [
            (Layer::Map, &self.map),
            (Layer::Rooms, &self.rooms),
            (Layer::Marks, &self.marks),
        ]
        .iter()
        .flat_map(|(layer, g)| g.iter().map(move |l| (layer.blank(), l)))
        .map(|(blank, l)| {
            let chars: Vec<char> = l.chars().collect();
            chars.iter().rposition(|&c| c != blank).map_or(0, |i| i + 1)
        })
        .max()
        .unwrap_or(0);
        for layer in [Layer::Map, Layer::Rooms, Layer::Marks] {
            let blank = layer.blank();
            let grid = self.layer(layer);
            if grid.is_empty() && layer != Layer::Map {
                continue;
            }
            grid.resize(rows, String::new());
            for line in grid.iter_mut() {
                let mut chars: Vec<char> = line.chars().collect();
                chars.resize(width, blank);
                *line = chars.into_iter().collect();
            }
        }
        if self.marks.iter().all(|l| l.chars().all(|c| c == '.')) {
            self.marks.clear();
        }
    }

    /// The legend letter of a monster spot of `monster` with `players` (what stands there for 2,
    /// 3 and 4 characters): the one already in the legend, else the first letter free on the map
    /// and in the legend, treasures and allies, added to the legend.
    pub fn spot_letter(&mut self, monster: &str, players: [Rank; 3]) -> Result<char, String> {
        let wanted = Placement {
            monster: monster.to_string(),
            elite: false,
            players: Some(players),
        };
        if let Some((c, _)) = self.legend.iter().find(|(_, p)| **p == wanted) {
            return Ok(*c);
        }
        let taken = |c: &char| {
            self.legend.contains_key(c)
                || self.treasures.contains_key(c)
                || self.allies.contains_key(c)
                || self.map.iter().any(|l| l.contains(*c))
        };
        let free = ('a'..='z')
            .chain('A'..='Z')
            .find(|c| !taken(c))
            .ok_or("every letter of the map is taken: a scenario has at most 52 kinds of spot, treasure and ally")?;
        self.legend.insert(free, wanted);
        Ok(free)
    }

    /// Drops the legend entries no spot of the map uses any more.
    pub fn forget_unused_spots(&mut self) {
        let map = self.map.clone();
        self.legend
            .retain(|c, _| map.iter().any(|l| l.contains(*c)));
    }
}

/// The first grid cell's hex (`(0, 0)`): where a new draft's board starts.
pub fn origin() -> Hex {
    map_hex(0, 0)
}

impl Scenario {
    /// A new scenario with nothing on it: no board, no heroes, every foe to kill.
    pub fn blank(name: &str) -> Scenario {
        Scenario {
            rules: super::scenario::RulesName::Gloomhaven,
            format: Some(crate::rules::SCENARIO_FORMAT),
            name: name.to_string(),
            description: String::new(),
            grid: super::scenario::Grid::Hex,
            map: Vec::new(),
            thin_walls: Vec::new(),
            rooms: Vec::new(),
            room_names: Default::default(),
            legend: Default::default(),
            trap_damage: 3,
            hazard_damage: 1,
            heroes: Vec::new(),
            monsters: Vec::new(),
            monster_modifiers: None,
            victory: Victory::AllFoesDead,
            marks: Vec::new(),
            special_rules: Vec::new(),
            treasures: Default::default(),
            allies: Default::default(),
            round_limit: None,
            preset: Preset::default(),
            switches: Overrides::default(),
            level: None,
            exercises: Vec::new(),
            party: None,
            classes: Vec::new(),
            shelf: Default::default(),
        }
    }
}

/// What the Gloomhaven-family brushes carry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Palette {
    /// The monster type a spot brush places (the library's first when empty).
    pub monster: String,
    /// What a new spot holds for two, three and four characters.
    pub players: [Rank; 3],
    /// The room the room brush paints.
    pub room: char,
    /// The mark the mark brush lays or takes.
    pub mark: char,
    /// The scenario level whose statistics the panel shows of a type the scenario writes.
    pub level: u32,
    /// The class the panel shows of those the scenario writes (its first when empty).
    pub class: String,
}

impl Default for Palette {
    fn default() -> Self {
        Palette {
            monster: String::new(),
            players: [Rank::Normal; 3],
            room: 'A',
            mark: 'a',
            level: 1,
            class: String::new(),
        }
    }
}

/// The ground brushes: id, label, map character.
const GROUND: [(&str, &str, char); 9] = [
    ("floor", "Floor", '.'),
    ("wall", "Wall", '#'),
    ("obstacle", "Obstacle", 'o'),
    ("trap", "Trap", '^'),
    ("hazard", "Hazardous", '~'),
    ("difficult", "Difficult", '%'),
    ("icy", "Icy", '*'),
    ("exit", "Exit", '>'),
    ("door", "Door", '+'),
];

/// The scenario format from which a scenario may write classes of its own.
const CLASSES_FORMAT: u32 = 3;

/// The most characters a scenario places starts for.
const MAX_STARTS: u32 = 4;
/// The most gold, damage or rounds a panel field takes (the loader bounds them again).
const MAX_FIELD: i64 = 999;

fn rank_word(r: Rank) -> &'static str {
    match r {
        Rank::Absent => "absent",
        Rank::Normal => "normal",
        Rank::Elite => "elite",
    }
}

fn rank_of(word: &str) -> Result<Rank, String> {
    match word {
        "absent" => Ok(Rank::Absent),
        "normal" => Ok(Rank::Normal),
        "elite" => Ok(Rank::Elite),
        w => Err(format!("`{w}`: expected absent, normal or elite")),
    }
}

/// A spot's three ranks at a glance: `n` normal, `E` elite, `–` absent, for 2, 3 and 4.
fn ranks_short(players: [Rank; 3]) -> String {
    players
        .iter()
        .zip(2..)
        .map(|(r, n)| {
            let c = match r {
                Rank::Absent => '–',
                Rank::Normal => 'n',
                Rank::Elite => 'E',
            };
            format!("{n}{c}")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The names of the monster types and classes a library (with the built-in one) offers, in
/// file order, each once.
fn offered(library: &Library) -> (Vec<String>, Vec<String>) {
    let all = library.with_built_in();
    let mut monsters: Vec<String> = Vec::new();
    for e in &all.monsters {
        if let Ok(t) = e.text.as_ref()
            && let Ok(m) = parse_monster(&e.file, t)
            && !monsters.contains(&m.name)
        {
            monsters.push(m.name);
        }
    }
    let mut classes: Vec<String> = Vec::new();
    for e in &all.classes {
        if let Ok(t) = e.text.as_ref()
            && let Ok(c) = parse_class(&e.file, t)
            && !classes.contains(&c.name)
        {
            classes.push(c.name);
        }
    }
    (monsters, classes)
}

/// Hero `n` of a new start: `Hero n`, played by player `n`, of `class` at level 1.
pub(crate) fn new_hero(n: u32, class: Option<String>) -> HeroSpec {
    HeroSpec {
        name: format!("Hero {n}"),
        player: n,
        class,
        hp: 0,
        modifiers: None,
        cards: Vec::new(),
        hand: Vec::new(),
        level: 1,
        perks: Vec::new(),
    }
}

/// The row that adds an entry of a kind to the scenario: `—`, `new` (a new one), or a copy of
/// one of `offered` the scenario does not write itself (`written`).
fn add_row(
    id: &str,
    label: &str,
    new: &str,
    offered: &[String],
    written: impl Fn(&str) -> bool,
) -> Field {
    let mut adds = vec!["—".to_string(), new.to_string()];
    adds.extend(
        offered
            .iter()
            .filter(|n| !written(n))
            .map(|n| format!("a copy of {n}")),
    );
    let adds: Vec<&str> = adds.iter().map(String::as_str).collect();
    Field::choice(id, label, "—", &adds)
}

/// A kind of entry a scenario writes of its own and a library offers by name: monster types and
/// classes, added by the same row.
trait OwnKind: Sized {
    /// What a new one is called, before a number makes the name free.
    const NEW: &'static str;
    /// The kind in words, for refusals.
    const WORDS: &'static str;
    fn name(&self) -> &str;
    fn new(name: &str) -> Self;
    fn of_library(library: &Library, name: &str) -> Option<Self>;
}

impl OwnKind for MonsterType {
    const NEW: &'static str = "New Monster";
    const WORDS: &'static str = "monster type";
    fn name(&self) -> &str {
        &self.name
    }
    fn new(name: &str) -> Self {
        type_shop::new_type(name)
    }
    fn of_library(library: &Library, name: &str) -> Option<Self> {
        library_type(library, name)
    }
}

impl OwnKind for Class {
    const NEW: &'static str = "New Class";
    const WORDS: &'static str = "class";
    fn name(&self) -> &str {
        &self.name
    }
    fn new(name: &str) -> Self {
        class_shop::new_class(name)
    }
    fn of_library(library: &Library, name: &str) -> Option<Self> {
        library_class(library, name)
    }
}

/// Adds to `own` what the add row's `word` asks for: a copy of the library's entry (`a copy of
/// …`, which keeps its name: the scenario's own is found before the library's) or a new one of a
/// name neither the scenario nor the library (`offered`) has. Its name; `None` for the row's `—`.
fn add_own<T: OwnKind>(
    own: &mut Vec<T>,
    word: &str,
    offered: &[String],
    library: &Library,
) -> Result<Option<String>, String> {
    if word == "—" {
        return Ok(None);
    }
    let entry = match word.strip_prefix("a copy of ") {
        Some(of) => T::of_library(library, of)
            .ok_or_else(|| format!("the library has no {} {of:?}", T::WORDS))?,
        None => T::new(&type_shop::free_name(T::NEW, |n| {
            own.iter().any(|m| m.name() == n) || offered.iter().any(|t| t == n)
        })),
    };
    let name = entry.name().to_string();
    if own.iter().any(|m| m.name() == name) {
        return Err(format!("the scenario writes {name:?} already"));
    }
    own.push(entry);
    Ok(Some(name))
}

/// The first class `library` (with the built-in one) offers: a new hero's.
pub(crate) fn first_class(library: &Library) -> Option<String> {
    offered(library).1.into_iter().next()
}

impl Scenario {
    /// The monster types the panel offers: the scenario's own, then the library's it does not
    /// write itself.
    fn monster_names(&self, library: &Library) -> Vec<String> {
        let (offered, _) = offered(library);
        let mut out: Vec<String> = self.monsters.iter().map(|m| m.name.clone()).collect();
        for n in offered {
            if !out.contains(&n) {
                out.push(n);
            }
        }
        out
    }

    /// The classes a hero may be of: the scenario's own, then the library's it does not write
    /// itself.
    fn class_names(&self, library: &Library) -> Vec<String> {
        let (_, offered) = offered(library);
        let mut out: Vec<String> = self.classes.iter().map(|c| c.name.clone()).collect();
        for n in offered {
            if !out.contains(&n) {
                out.push(n);
            }
        }
        out
    }

    /// The class the panel shows: the palette's when the scenario writes it, else the
    /// scenario's first.
    fn own_class<'a>(&'a self, palette: &'a Palette) -> Option<&'a str> {
        let name = palette.class.as_str();
        if self.classes.iter().any(|c| c.name == name) {
            return Some(name);
        }
        self.classes.first().map(|c| c.name.as_str())
    }

    /// The type the palette holds, when the scenario writes it itself; a palette that holds
    /// none yet holds the first offered, the scenario's own first.
    fn own_type<'a>(&'a self, palette: &'a Palette) -> Option<&'a str> {
        if palette.monster.is_empty() {
            return self.monsters.first().map(|m| m.name.as_str());
        }
        let name = palette.monster.as_str();
        self.monsters.iter().any(|m| m.name == name).then_some(name)
    }
}

/// A figure's id on the table from its hex: the same figure keeps it through every edit that
/// leaves it where it is.
fn figure_id(h: Hex) -> u32 {
    (((h.x + 2048) as u32) << 12) | ((h.y + 2048) as u32 & 0xfff)
}

const VICTORIES: [&str; 7] = [
    "every foe",
    "kill",
    "loot",
    "escape",
    "survive",
    "destroy",
    "protect",
];

impl Scenario {
    /// The map's hexes with their characters, in text order.
    fn drawn(&self) -> Vec<(Hex, char)> {
        self.map
            .iter()
            .enumerate()
            .flat_map(|(row, line)| {
                line.chars()
                    .enumerate()
                    .filter(|(_, c)| *c != ' ')
                    .map(move |(col, c)| (map_hex(col, row), c))
            })
            .collect()
    }

    /// The room letter a new hex goes in: the palette's, once rooms are drawn.
    fn put_in_room(&mut self, h: Hex, room: char) -> Result<(), String> {
        if !self.rooms.is_empty() && self.char_at(Layer::Rooms, h) == ' ' {
            self.set_char(Layer::Rooms, h, room)?;
        }
        Ok(())
    }

    /// The lowest start number not on the map.
    fn next_start(&self) -> Option<u32> {
        (1..=MAX_STARTS).find(|n| {
            let c = char::from_digit(*n, 10).unwrap_or('1');
            !self.map.iter().any(|l| l.contains(c))
        })
    }
}

/// The triggers a rule row offers, in words, as the panel lists them.
const WHEN: [&str; 7] = [
    "a door opens",
    "a round starts",
    "a round ends",
    "a character enters",
    "a monster enters",
    "a monster dies",
    "a room is cleared",
];

/// The effects a rule row offers, in words.
const THEN: [&str; 8] = [
    "spawn",
    "open door",
    "close door",
    "lock door",
    "message",
    "damage",
    "heal",
    "lose",
];

/// The room letters and mark letters the panel offers.
const ROOMS: [&str; 8] = ["A", "B", "C", "D", "E", "F", "G", "H"];
const MARKS: [&str; 8] = ["a", "b", "c", "d", "e", "f", "g", "h"];

/// Which of [`WHEN`] a trigger is (listed in the order of [`Trigger::KINDS`]).
fn when_word(t: &Trigger) -> &'static str {
    WHEN[t.index()]
}

/// Which of [`THEN`] an effect is, or none for one the panel does not make (written in the file).
fn then_word(e: &RuleEffect) -> Option<&'static str> {
    Some(match e {
        RuleEffect::Spawn { .. } => "spawn",
        RuleEffect::OpenDoor(_) => "open door",
        RuleEffect::CloseDoor(_) => "close door",
        RuleEffect::LockDoor(_) => "lock door",
        RuleEffect::Message(_) => "message",
        RuleEffect::Damage { .. } => "damage",
        RuleEffect::Heal { .. } => "heal",
        RuleEffect::Lose(_) => "lose",
        _ => return None,
    })
}

fn letter(word: &str) -> Result<char, String> {
    let mut c = word.chars();
    match (c.next(), c.next()) {
        (Some(l), None) => Ok(l),
        _ => Err(format!("`{word}`: expected one letter")),
    }
}

impl Scenario {
    /// The doors of the map by the two rooms each joins ("AB"), in map order, each once.
    fn door_pairs(&self) -> Vec<String> {
        const AROUND: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];
        let mut out: Vec<String> = Vec::new();
        for (h, c) in self.drawn() {
            if c != '+' {
                continue;
            }
            let mut rooms: Vec<char> = AROUND
                .iter()
                .map(|(dq, dr)| self.char_at(Layer::Rooms, Hex::new(h.x + dq, h.y + dr)))
                .filter(char::is_ascii_uppercase)
                .collect();
            rooms.sort_unstable();
            rooms.dedup();
            let pair: String = rooms.into_iter().collect();
            if pair.len() == 2 && !out.contains(&pair) {
                out.push(pair);
            }
        }
        out
    }

    /// A new trigger of the kind `word`, its details the first the map offers.
    fn trigger_of(&self, word: &str, monsters: &[String]) -> Result<Trigger, String> {
        let door = self
            .door_pairs()
            .into_iter()
            .next()
            .unwrap_or_else(|| "AB".into());
        let monster = self
            .legend
            .values()
            .next()
            .map(|p| p.monster.clone())
            .or_else(|| monsters.first().cloned())
            .unwrap_or_default();
        Ok(match word {
            "a door opens" => Trigger::DoorOpened(door),
            "a round starts" => Trigger::RoundStarts(2),
            "a round ends" => Trigger::RoundEnds(2),
            "a character enters" => Trigger::Enters('a'),
            "a monster enters" => Trigger::FoeEnters('a'),
            "a monster dies" => Trigger::Dies(monster),
            "a room is cleared" => Trigger::RoomCleared('B'),
            w => return Err(format!("`{w}`: expected one of {}", WHEN.join(", "))),
        })
    }

    /// A new effect of the kind `word`, its details the first the map offers.
    fn effect_of(&self, word: &str, monsters: &[String]) -> Result<RuleEffect, String> {
        let door = self
            .door_pairs()
            .into_iter()
            .next()
            .unwrap_or_else(|| "AB".into());
        let monster = monsters.first().cloned().unwrap_or_default();
        Ok(match word {
            "spawn" => RuleEffect::Spawn {
                monster,
                at: 'a',
                players: None,
            },
            "open door" => RuleEffect::OpenDoor(door),
            "close door" => RuleEffect::CloseDoor(door),
            "lock door" => RuleEffect::LockDoor(door),
            "message" => RuleEffect::Message("Something stirs.".into()),
            "damage" => RuleEffect::Damage {
                amount: 1,
                area: Area::Marked('a'),
                figures: RuleSide::Characters,
            },
            "heal" => RuleEffect::Heal {
                amount: 1,
                area: Area::Marked('a'),
                figures: RuleSide::Characters,
            },
            "lose" => RuleEffect::Lose("The scenario is lost.".into()),
            w => return Err(format!("`{w}`: expected one of {}", THEN.join(", "))),
        })
    }

    /// The special rules as rows of fields: each rule's name, trigger and its detail, then each
    /// effect and its details, then a choice to add an effect; last, a choice to add a rule.
    fn rule_fields(&self, monsters: &[String]) -> Vec<Field> {
        let names: Vec<&str> = monsters.iter().map(String::as_str).collect();
        let doors = self.door_pairs();
        let door_refs: Vec<&str> = doors.iter().map(String::as_str).collect();
        // The marks offered: a to h, and any other the map's marks grid holds.
        let mut marks: Vec<String> = MARKS.iter().map(|m| (*m).to_string()).collect();
        for c in self.marks.iter().flat_map(|l| l.chars()) {
            if c.is_ascii_lowercase() && !marks.contains(&c.to_string()) {
                marks.push(c.to_string());
            }
        }
        let marks: Vec<&str> = marks.iter().map(String::as_str).collect();
        let mut out = Vec::new();
        for (i, rule) in self.special_rules.iter().enumerate() {
            let n = i + 1;
            let id = |f: &str| format!("rule:{n}:{f}");
            out.push(Field::text(&id("name"), &format!("Rule {n}"), &rule.name));
            out.push(Field::choice(
                &id("when"),
                "…when",
                when_word(&rule.when),
                &WHEN,
            ));
            match &rule.when {
                Trigger::RoundStarts(r) | Trigger::RoundEnds(r) => {
                    out.push(Field::number(
                        &id("round"),
                        "…round",
                        i64::from(*r),
                        (1, 99),
                    ));
                    out.push(Field::number(
                        &id("every"),
                        "…again every (0: once)",
                        i64::from(rule.every),
                        (0, 99),
                    ));
                }
                Trigger::Enters(c) | Trigger::FoeEnters(c) => {
                    out.push(Field::choice(&id("mark"), "…mark", &c.to_string(), &marks));
                }
                Trigger::DoorOpened(d) => {
                    out.push(Field::choice(&id("door"), "…door", d, &door_refs));
                }
                Trigger::Dies(m) => out.push(Field::choice(&id("monster"), "…type", m, &names)),
                Trigger::RoomCleared(r) => {
                    out.push(Field::choice(&id("room"), "…room", &r.to_string(), &ROOMS));
                }
            }
            if !matches!(rule.when, Trigger::RoundStarts(_) | Trigger::RoundEnds(_)) {
                out.push(Field::flag(&id("repeat"), "…each time", rule.repeat));
            }
            for (j, e) in rule.then.iter().enumerate() {
                let m = j + 1;
                let eid = |f: &str| format!("rule:{n}:then:{m}{f}");
                let Some(word) = then_word(e) else {
                    out.push(Field::text(
                        &eid(":file"),
                        &format!("…then {m}"),
                        "(as the file writes it)",
                    ));
                    continue;
                };
                let mut kinds: Vec<&str> = THEN.to_vec();
                kinds.push("remove");
                out.push(Field::choice(&eid(""), &format!("…then {m}"), word, &kinds));
                match e {
                    RuleEffect::Spawn { monster, at, .. } => {
                        out.push(Field::choice(&eid(":monster"), "…type", monster, &names));
                        out.push(Field::choice(
                            &eid(":at"),
                            "…at mark",
                            &at.to_string(),
                            &marks,
                        ));
                    }
                    RuleEffect::OpenDoor(d)
                    | RuleEffect::CloseDoor(d)
                    | RuleEffect::LockDoor(d) => {
                        out.push(Field::choice(&eid(":door"), "…door", d, &door_refs));
                    }
                    RuleEffect::Message(t) | RuleEffect::Lose(t) => {
                        out.push(Field::text(&eid(":text"), "…words", t));
                    }
                    RuleEffect::Damage { amount, area, .. }
                    | RuleEffect::Heal { amount, area, .. } => {
                        out.push(Field::number(
                            &eid(":amount"),
                            "…amount",
                            i64::from(*amount),
                            (1, 99),
                        ));
                        if let Area::Marked(c) = area {
                            out.push(Field::choice(
                                &eid(":at"),
                                "…at mark",
                                &c.to_string(),
                                &marks,
                            ));
                        }
                    }
                    _ => {}
                }
            }
            let mut adds = vec!["—"];
            adds.extend(THEN);
            out.push(Field::choice(&id("then:add"), "…add an effect", "—", &adds));
        }
        let mut adds = vec!["—"];
        adds.extend(WHEN);
        out.push(Field::choice(
            "rule:add",
            "Add a special rule when",
            "—",
            &adds,
        ));
        out
    }

    /// Sets a field of [`Scenario::rule_fields`].
    fn set_rule(&mut self, field: &str, value: Value, monsters: &[String]) -> Result<(), String> {
        let word = match &value {
            Value::Choice(w) | Value::Text(w) => w.clone(),
            Value::Number(n) => n.to_string(),
            Value::Flag(b) => b.to_string(),
        };
        let number = || value.unsigned();
        let parts: Vec<&str> = field.split(':').collect();
        if parts == ["rule", "add"] {
            if word == "—" {
                return Ok(());
            }
            let when = self.trigger_of(&word, monsters)?;
            let n = self.special_rules.len() + 1;
            self.special_rules.push(SpecialRule {
                name: format!("rule {n}"),
                when,
                every: 0,
                repeat: false,
                then: vec![RuleEffect::Message("Something stirs.".into())],
            });
            return Ok(());
        }
        let i = parts
            .get(1)
            .and_then(|n| n.parse::<usize>().ok())
            .and_then(|n| n.checked_sub(1))
            .filter(|&i| i < self.special_rules.len())
            .ok_or_else(|| format!("no field `{field}`"))?;
        match parts[2..] {
            ["name"] => self.special_rules[i].name = word,
            ["when"] => {
                let when = self.trigger_of(&word, monsters)?;
                let rule = &mut self.special_rules[i];
                rule.when = when;
                rule.every = 0;
                rule.repeat = false;
            }
            ["round"] => match &mut self.special_rules[i].when {
                Trigger::RoundStarts(r) | Trigger::RoundEnds(r) => *r = number()?,
                _ => return Err("this trigger has no round".into()),
            },
            ["every"] => self.special_rules[i].every = number()?,
            ["repeat"] => self.special_rules[i].repeat = value == Value::Flag(true),
            ["mark"] => match &mut self.special_rules[i].when {
                Trigger::Enters(c) | Trigger::FoeEnters(c) => *c = letter(&word)?,
                _ => return Err("this trigger has no mark".into()),
            },
            ["door"] => match &mut self.special_rules[i].when {
                Trigger::DoorOpened(d) => *d = word,
                _ => return Err("this trigger has no door".into()),
            },
            ["monster"] => match &mut self.special_rules[i].when {
                Trigger::Dies(m) => *m = word,
                _ => return Err("this trigger has no monster type".into()),
            },
            ["room"] => match &mut self.special_rules[i].when {
                Trigger::RoomCleared(r) => *r = letter(&word)?,
                _ => return Err("this trigger has no room".into()),
            },
            ["then", "add"] => {
                if word != "—" {
                    let e = self.effect_of(&word, monsters)?;
                    self.special_rules[i].then.push(e);
                }
            }
            ["then", m, ref rest @ ..] => {
                let j = m
                    .parse::<usize>()
                    .ok()
                    .and_then(|m| m.checked_sub(1))
                    .filter(|&j| j < self.special_rules[i].then.len())
                    .ok_or_else(|| format!("no field `{field}`"))?;
                match rest {
                    [] if word == "remove" => {
                        self.special_rules[i].then.remove(j);
                    }
                    [] => {
                        let e = self.effect_of(&word, monsters)?;
                        self.special_rules[i].then[j] = e;
                    }
                    [what] => set_effect(&mut self.special_rules[i].then[j], what, &word, number)?,
                    _ => return Err(format!("no field `{field}`")),
                }
            }
            _ => return Err(format!("no field `{field}`")),
        }
        Ok(())
    }
}

/// Sets one detail (`monster`, `at`, `door`, `text`, `amount`) of an effect.
fn set_effect(
    e: &mut RuleEffect,
    what: &str,
    word: &str,
    number: impl FnOnce() -> Result<u32, String>,
) -> Result<(), String> {
    match (e, what) {
        (RuleEffect::Spawn { monster, .. }, "monster") => *monster = word.to_string(),
        (RuleEffect::Spawn { at, .. }, "at")
        | (
            RuleEffect::Damage {
                area: Area::Marked(at),
                ..
            }
            | RuleEffect::Heal {
                area: Area::Marked(at),
                ..
            },
            "at",
        ) => *at = letter(word)?,
        (RuleEffect::OpenDoor(d) | RuleEffect::CloseDoor(d) | RuleEffect::LockDoor(d), "door") => {
            *d = word.to_string();
        }
        (RuleEffect::Message(t) | RuleEffect::Lose(t), "text") => *t = word.to_string(),
        (RuleEffect::Damage { amount, .. } | RuleEffect::Heal { amount, .. }, "amount") => {
            *amount = number()?;
        }
        (_, "file") => {
            return Err("the panel does not make this effect: it is set in the file".into());
        }
        (_, w) => return Err(format!("this effect has no `{w}`")),
    }
    Ok(())
}

impl Shop for Scenario {
    const MODULE: &'static str = "Gloomhaven";
    type Palette = Palette;
    type Rules = super::Gloomhaven;

    fn of_position(p: &super::case::Puzzle, library: &Library) -> Result<Scenario, String> {
        Scenario::from_position(p, library)
    }

    fn blank(name: &str) -> Scenario {
        Scenario::blank(name)
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn view(&self, library: &Library) -> TableView {
        let _ = library;
        let mut view = TableView::default();
        for (h, c) in self.drawn() {
            let key = (h.x, h.y);
            let room = self.char_at(Layer::Rooms, h);
            let place = match room {
                ' ' | '+' => None,
                r => Some(
                    self.room_names
                        .get(&r)
                        .map_or_else(|| format!("room {r}"), |n| format!("room {r}: {n}")),
                ),
            };
            let (ground, door) = match cell(c) {
                Some(Ok(Cell::Terrain(t))) => (super::ground(t), false),
                Some(Ok(Cell::Door)) => (Ground::Floor, true),
                Some(Ok(Cell::Exit)) => (Ground::Exit, false),
                _ => (Ground::Floor, false),
            };
            view.cells.push(CellInfo {
                key,
                ground,
                door,
                place,
            });
            let id = figure_id(h);
            let figure = |name: String, side: Side, card: Vec<String>| FigureInfo {
                id,
                name,
                side,
                elite: false,
                hp: 1,
                max_hp: 0,
                conditions: Vec::new(),
                cell: key,
                owner: None,
                tint: 0,
                gear: Gear::Bare,
                rooted: false,
                card,
            };
            match cell(c) {
                Some(Ok(Cell::Hero(i))) => {
                    let hero = self.heroes.get(i);
                    let mut f = figure(
                        format!(
                            "Start {}{}",
                            i + 1,
                            hero.map_or(String::new(), |h| format!(": {}", h.name))
                        ),
                        Side::Hero,
                        match hero {
                            Some(h) => vec![
                                format!("Class {}", h.class.as_deref().unwrap_or("written out")),
                                format!("Player {}", h.player),
                            ],
                            None => vec!["No hero: the heroes list is shorter".into()],
                        },
                    );
                    f.owner = hero.map(|h| h.player.min(255) as u8);
                    f.tint = i;
                    view.figures.push(f);
                }
                Some(Ok(Cell::Monster(l))) => {
                    if let Some(p) = self.legend.get(&l) {
                        let players = p.players.unwrap_or(if p.elite {
                            [Rank::Elite; 3]
                        } else {
                            [Rank::Normal; 3]
                        });
                        let mut f = figure(
                            format!("{} {}", p.monster, ranks_short(players)),
                            Side::Foe,
                            players
                                .iter()
                                .zip(2..)
                                .map(|(r, n)| format!("{n} characters: {}", rank_word(*r)))
                                .chain([format!("Spot letter {l}")])
                                .collect(),
                        );
                        // Drawn elite when it is elite for four: the most it can be.
                        f.elite = players[2] == Rank::Elite;
                        f.tint = self
                            .legend
                            .values()
                            .position(|q| q.monster == p.monster)
                            .unwrap_or(0);
                        view.figures.push(f);
                    } else if let Some(t) = self.treasures.get(&l) {
                        view.tokens.push(TokenInfo {
                            cell: key,
                            label: format!("treasure {l}: {}", t.describe()),
                        });
                    } else if let Some(a) = self.allies.get(&l) {
                        view.figures.push(figure(
                            a.name.clone(),
                            Side::Ally,
                            vec![format!("Ally, letter {l}")],
                        ));
                    } else {
                        view.figures.push(figure(
                            format!("{l}?"),
                            Side::Foe,
                            vec![format!("The letter {l} is in no legend")],
                        ));
                    }
                }
                _ => {}
            }
            let mark = self.char_at(Layer::Marks, h);
            if mark != '.' && mark != ' ' {
                view.tokens.push(TokenInfo {
                    cell: key,
                    label: format!("mark {mark}"),
                });
            }
        }
        let drawn: Vec<Hex> = self.drawn().iter().map(|(h, _)| *h).collect();
        view.cells.extend(outside_hexes(&drawn, (11, 7), |h| {
            self.char_at(Layer::Map, h) != ' '
        }));
        view.thin_walls = self.thin_walls.clone();
        view.banner = format!("Making {}", self.name);
        view
    }

    fn brushes() -> Vec<Brush> {
        let mut out: Vec<Brush> = GROUND
            .iter()
            .map(|&(id, label, _)| Brush {
                id,
                label,
                kind: BrushKind::Ground,
            })
            .collect();
        out.extend([
            Brush {
                id: "erase",
                label: "Erase",
                kind: BrushKind::Erase,
            },
            Brush {
                id: "thin-wall",
                label: "Thin wall",
                kind: BrushKind::Edge,
            },
            Brush {
                id: "room",
                label: "Room",
                kind: BrushKind::Mark,
            },
            Brush {
                id: "start",
                label: "Start",
                kind: BrushKind::Figure,
            },
            Brush {
                id: "monster",
                label: "Monster",
                kind: BrushKind::Figure,
            },
            Brush {
                id: "cycle-2",
                label: "2 characters",
                kind: BrushKind::Figure,
            },
            Brush {
                id: "cycle-3",
                label: "3 characters",
                kind: BrushKind::Figure,
            },
            Brush {
                id: "cycle-4",
                label: "4 characters",
                kind: BrushKind::Figure,
            },
            Brush {
                id: "treasure",
                label: "Treasure",
                kind: BrushKind::Mark,
            },
            Brush {
                id: "mark",
                label: "Mark",
                kind: BrushKind::Mark,
            },
        ]);
        out
    }

    fn paint(
        &mut self,
        palette: &Palette,
        library: &Library,
        brush: &str,
        cell_key: CellKey,
        other: Option<CellKey>,
    ) -> Result<(), String> {
        let h = Hex::new(cell_key.0, cell_key.1);
        let here = self.char_at(Layer::Map, h);
        if let Some(&(_, _, c)) = GROUND.iter().find(|(id, _, _)| *id == brush) {
            let h = self.set_char(Layer::Map, h, c)?;
            if c == '+' {
                if self.rooms.is_empty() {
                    self.start_layer(Layer::Rooms);
                }
                self.set_char(Layer::Rooms, h, '+')?;
            } else {
                if self.char_at(Layer::Rooms, h) == '+' {
                    self.set_char(Layer::Rooms, h, palette.room)?;
                }
                self.put_in_room(h, palette.room)?;
            }
            self.forget_unused_spots();
            return Ok(());
        }
        let on_map = || {
            if here == ' ' {
                Err("there is no hex here: paint floor first".to_string())
            } else {
                Ok(())
            }
        };
        match brush {
            "erase" => {
                for layer in [Layer::Map, Layer::Rooms, Layer::Marks] {
                    if self.char_at(layer, h) != layer.blank() {
                        self.set_char(layer, h, layer.blank())?;
                    }
                }
                self.forget_unused_spots();
                Ok(())
            }
            "thin-wall" => {
                let other = other.ok_or("a thin wall needs two neighbouring hexes")?;
                let b = Hex::new(other.0, other.1);
                if crate::hex::distance(h, b) != 1 {
                    return Err("a thin wall lies between two neighbouring hexes".into());
                }
                let (a, b) = ((h.x, h.y), (b.x, b.y));
                let before = self.thin_walls.len();
                self.thin_walls
                    .retain(|&(x, y)| !((x == a && y == b) || (x == b && y == a)));
                if self.thin_walls.len() == before {
                    self.thin_walls.push((a, b));
                }
                Ok(())
            }
            "room" => {
                on_map()?;
                if here == '+' {
                    return Err("a door belongs to no room: it joins the two beside it".into());
                }
                if !palette.room.is_ascii_uppercase() {
                    return Err(format!(
                        "room `{}`: a room is a capital letter",
                        palette.room
                    ));
                }
                if self.rooms.is_empty() {
                    self.start_layer(Layer::Rooms);
                }
                self.set_char(Layer::Rooms, h, palette.room)?;
                Ok(())
            }
            "start" => {
                on_map()?;
                if here.is_ascii_digit() {
                    self.set_char(Layer::Map, h, '.')?;
                    return Ok(());
                }
                let n = self.next_start().ok_or(format!(
                    "every start from 1 to {MAX_STARTS} is on the map already"
                ))?;
                let classes = self.class_names(library);
                while self.heroes.len() < n as usize {
                    let k = self.heroes.len() as u32 + 1;
                    self.heroes.push(new_hero(k, classes.first().cloned()));
                }
                self.set_char(Layer::Map, h, char::from_digit(n, 10).unwrap_or('1'))?;
                self.forget_unused_spots();
                Ok(())
            }
            "monster" => {
                on_map()?;
                let monsters = self.monster_names(library);
                let monster = if palette.monster.is_empty() {
                    monsters
                        .first()
                        .cloned()
                        .ok_or("the library has no monster type")?
                } else {
                    palette.monster.clone()
                };
                let letter = self.spot_letter(&monster, palette.players)?;
                self.set_char(Layer::Map, h, letter)?;
                self.forget_unused_spots();
                Ok(())
            }
            "cycle-2" | "cycle-3" | "cycle-4" => {
                let i = match brush {
                    "cycle-2" => 0,
                    "cycle-3" => 1,
                    _ => 2,
                };
                let spot = self
                    .legend
                    .get(&here)
                    .cloned()
                    .ok_or("click a monster spot to change what stands there")?;
                let mut players = spot.players.unwrap_or(if spot.elite {
                    [Rank::Elite; 3]
                } else {
                    [Rank::Normal; 3]
                });
                players[i] = match players[i] {
                    Rank::Absent => Rank::Normal,
                    Rank::Normal => Rank::Elite,
                    Rank::Elite => Rank::Absent,
                };
                let letter = self.spot_letter(&spot.monster, players)?;
                self.set_char(Layer::Map, h, letter)?;
                self.forget_unused_spots();
                Ok(())
            }
            "treasure" => {
                on_map()?;
                if let Some(old) = self.treasures.keys().copied().find(|&c| c == here) {
                    self.treasures.remove(&old);
                    self.set_char(Layer::Map, h, '.')?;
                    return Ok(());
                }
                let letter = ('A'..='Z')
                    .chain('a'..='z')
                    .find(|c| {
                        !self.legend.contains_key(c)
                            && !self.treasures.contains_key(c)
                            && !self.allies.contains_key(c)
                            && !self.map.iter().any(|l| l.contains(*c))
                    })
                    .ok_or("every letter of the map is taken")?;
                self.treasures.insert(
                    letter,
                    Treasure {
                        gold: 10,
                        ..Treasure::default()
                    },
                );
                self.set_char(Layer::Map, h, letter)?;
                self.forget_unused_spots();
                Ok(())
            }
            "mark" => {
                on_map()?;
                if !palette.mark.is_ascii_lowercase() {
                    return Err(format!("mark `{}`: a mark is a small letter", palette.mark));
                }
                let now = self.char_at(Layer::Marks, h);
                let to = if now == palette.mark {
                    '.'
                } else {
                    palette.mark
                };
                self.set_char(Layer::Marks, h, to)?;
                Ok(())
            }
            b => Err(format!("no brush `{b}`")),
        }
    }

    fn palette_fields(&self, palette: &Palette, library: &Library) -> Vec<Field> {
        let monsters = self.monster_names(library);
        let names: Vec<&str> = monsters.iter().map(String::as_str).collect();
        let monster = if palette.monster.is_empty() {
            names.first().copied().unwrap_or("")
        } else {
            &palette.monster
        };
        let ranks = ["absent", "normal", "elite"];
        let mut out = vec![Field::choice(
            "brush:monster",
            "Monster to place",
            monster,
            &names,
        )];
        for (i, n) in [2, 3, 4].iter().enumerate() {
            out.push(Field::choice(
                &format!("brush:players-{n}"),
                &format!("…for {n} characters"),
                rank_word(palette.players[i]),
                &ranks,
            ));
        }
        out.push(Field::choice(
            "brush:room",
            "Room to paint",
            &palette.room.to_string(),
            &ROOMS,
        ));
        out.push(Field::choice(
            "brush:mark",
            "Mark to lay",
            &palette.mark.to_string(),
            &MARKS,
        ));
        out
    }

    fn set_palette(palette: &mut Palette, field: &str, value: Value) -> Result<(), String> {
        let Value::Choice(word) = value else {
            return Err(format!("{field}: expected a choice"));
        };
        let letter = || {
            word.chars()
                .next()
                .filter(|_| word.chars().count() == 1)
                .ok_or_else(|| format!("`{word}`: expected one letter"))
        };
        match field {
            "brush:monster" => palette.monster = word,
            "brush:players-2" => palette.players[0] = rank_of(&word)?,
            "brush:players-3" => palette.players[1] = rank_of(&word)?,
            "brush:players-4" => palette.players[2] = rank_of(&word)?,
            "brush:room" => palette.room = letter()?,
            "brush:mark" => palette.mark = letter()?,
            f => return Err(format!("no field `{f}`")),
        }
        Ok(())
    }

    fn fields(
        &self,
        palette: &Palette,
        library: &Library,
        selected: Option<CellKey>,
    ) -> Vec<Field> {
        let mut out = self.scenario_fields(library, selected);
        out.extend(self.types_fields(palette, library));
        out.extend(self.classes_fields(palette, library));
        out
    }

    fn own_entries(&self, palette: &Palette) -> Vec<OwnEntry> {
        let entry = |name: &str, kind, file: Option<(String, String)>| {
            file.map(|(file, text)| OwnEntry {
                name: name.to_string(),
                kind,
                file,
                text,
            })
        };
        let monster = self
            .own_type(palette)
            .and_then(|n| entry(n, "monsters", type_shop::type_file(self, n)));
        let class = self
            .own_class(palette)
            .and_then(|n| entry(n, "classes", class_shop::class_file(self, n)));
        monster.into_iter().chain(class).collect()
    }

    fn drop_own_entry(&mut self, palette: &Palette, kind: &str) -> Result<(), String> {
        if kind == "classes" {
            let name = self
                .own_class(palette)
                .ok_or("the scenario writes no class of its own")?
                .to_string();
            self.classes.retain(|c| c.name != name);
            return Ok(());
        }
        let name = self
            .own_type(palette)
            .ok_or("the scenario writes no monster type of that name")?
            .to_string();
        self.monsters.retain(|m| m.name != name);
        Ok(())
    }

    fn set(
        &mut self,
        palette: &mut Palette,
        library: &Library,
        selected: Option<CellKey>,
        field: &str,
        value: Value,
    ) -> Result<(), String> {
        match field {
            "types:add" => {
                let (offered, _) = offered(library);
                if let Some(name) = add_own(&mut self.monsters, &value.text()?, &offered, library)?
                {
                    palette.monster = name;
                }
                Ok(())
            }
            "type:level" => {
                let n = value.unsigned()?;
                if n > MAX_LEVEL {
                    return Err(format!("{n}: expected a level from 0 to {MAX_LEVEL}"));
                }
                palette.level = n;
                Ok(())
            }
            "classes:add" => {
                let (_, offered) = offered(library);
                if let Some(name) = add_own(&mut self.classes, &value.text()?, &offered, library)? {
                    palette.class = name;
                    // Classes written in a scenario are format 3's: an older reader then says the
                    // file is of a later format rather than that `classes` is unknown.
                    if self.format.unwrap_or(1) < CLASSES_FORMAT {
                        self.format = Some(CLASSES_FORMAT);
                    }
                }
                Ok(())
            }
            "classes:shown" => {
                let word = value.text()?;
                if !self.classes.iter().any(|c| c.name == word) {
                    return Err(format!("the scenario writes no class {word:?}"));
                }
                palette.class = word;
                Ok(())
            }
            f if f.starts_with("class:") => {
                let name = self
                    .own_class(palette)
                    .ok_or("add a class to the scenario first")?
                    .to_string();
                let (_, offered) = offered(library);
                let after = class_shop::set_class(self, &name, f, &value, &offered)?;
                palette.class = after.unwrap_or_default();
                Ok(())
            }
            f if f.starts_with("type:") => {
                let name = self
                    .own_type(palette)
                    .ok_or("choose a monster type the scenario writes first")?
                    .to_string();
                let monsters = self.monster_names(library);
                let after = type_shop::set_type(self, &name, palette.level, f, &value, &monsters)?;
                palette.monster = after.unwrap_or_default();
                Ok(())
            }
            _ => self.set_scenario_field(library, selected, field, value),
        }
    }
}

impl Scenario {
    /// The rows for the scenario's own monster types: one added (new, or a copy of the
    /// library's), and the one the palette holds, at the palette's level.
    fn types_fields(&self, palette: &Palette, library: &Library) -> Vec<Field> {
        let (offered, _) = offered(library);
        let mut out = vec![add_row(
            "types:add",
            "Add a type",
            "a new type",
            &offered,
            |n| self.monsters.iter().any(|m| m.name == n),
        )];
        if let Some(name) = self.own_type(palette) {
            out.push(Field::number(
                "type:level",
                "Level shown",
                i64::from(palette.level),
                (0, i64::from(MAX_LEVEL)),
            ));
            out.extend(type_shop::type_fields(
                self,
                name,
                palette.level,
                &self.monster_names(library),
            ));
        }
        out
    }

    /// The rows for the scenario's own classes: one added (new, or a copy of the library's),
    /// which of them the panel shows, and its rows.
    fn classes_fields(&self, palette: &Palette, library: &Library) -> Vec<Field> {
        let (_, offered) = offered(library);
        let mut out = vec![add_row(
            "classes:add",
            "Add a class",
            "a new class",
            &offered,
            |n| self.classes.iter().any(|c| c.name == n),
        )];
        if let Some(name) = self.own_class(palette) {
            if self.classes.len() > 1 {
                let names: Vec<&str> = self.classes.iter().map(|c| c.name.as_str()).collect();
                out.push(Field::choice("classes:shown", "Class shown", name, &names));
            }
            out.extend(class_shop::class_fields(self, name));
        }
        out
    }

    /// The scenario's own rows, then those of what stands on `selected`.
    fn scenario_fields(&self, library: &Library, selected: Option<CellKey>) -> Vec<Field> {
        let classes = self.class_names(library);
        let monsters = self.monster_names(library);
        let mut out = vec![
            Field::text("name", "Name", &self.name),
            Field::text("description", "Description", &self.description),
            Field::choice("victory", "Goal", self.victory.kind(), &VICTORIES),
        ];
        match &self.victory {
            Victory::Kill(m) => {
                let names: Vec<&str> = monsters.iter().map(String::as_str).collect();
                out.push(Field::choice("victory:monster", "…of type", m, &names));
            }
            Victory::Loot(n) | Victory::Survive(n) | Victory::Protect(n) => {
                let label = match self.victory {
                    Victory::Loot(_) => "…treasures",
                    _ => "…rounds",
                };
                out.push(Field::number("victory:n", label, i64::from(*n), (1, 99)));
            }
            _ => {}
        }
        out.push(Field::number(
            "round_limit",
            "Round limit (0: none)",
            i64::from(self.round_limit.unwrap_or(0)),
            (0, 99),
        ));
        out.push(Field::number(
            "trap_damage",
            "Trap damage",
            i64::from(self.trap_damage),
            (0, MAX_FIELD),
        ));
        out.extend(self.rule_fields(&monsters));
        let Some(key) = selected else {
            return out;
        };
        let h = Hex::new(key.0, key.1);
        let here = self.char_at(Layer::Map, h);
        let room = self.char_at(Layer::Rooms, h);
        if room.is_ascii_uppercase() {
            out.push(Field::text(
                "room:name",
                &format!("Room {room}'s name"),
                self.room_names.get(&room).map_or("", String::as_str),
            ));
        }
        match cell(here) {
            Some(Ok(Cell::Hero(i))) => {
                if let Some(hero) = self.heroes.get(i) {
                    let n = i + 1;
                    out.push(Field::text("hero:name", &format!("Hero {n}"), &hero.name));
                    let names: Vec<&str> = classes.iter().map(String::as_str).collect();
                    out.push(Field::choice(
                        "hero:class",
                        "…class",
                        hero.class.as_deref().unwrap_or(""),
                        &names,
                    ));
                }
            }
            Some(Ok(Cell::Monster(l))) => {
                if let Some(p) = self.legend.get(&l) {
                    let names: Vec<&str> = monsters.iter().map(String::as_str).collect();
                    out.push(Field::choice("spot:monster", "Monster", &p.monster, &names));
                    let players = p.players.unwrap_or([Rank::Normal; 3]);
                    for (i, n) in [2, 3, 4].iter().enumerate() {
                        out.push(Field::choice(
                            &format!("spot:players-{n}"),
                            &format!("…for {n} characters"),
                            rank_word(players[i]),
                            &["absent", "normal", "elite"],
                        ));
                    }
                } else if let Some(t) = self.treasures.get(&l) {
                    out.push(Field::number(
                        "treasure:gold",
                        "Treasure's gold",
                        i64::from(t.gold),
                        (0, MAX_FIELD),
                    ));
                    out.push(Field::number(
                        "treasure:damage",
                        "…damage to the looter",
                        i64::from(t.damage),
                        (0, MAX_FIELD),
                    ));
                    out.push(Field::text(
                        "treasure:item",
                        "…item",
                        t.item.as_deref().unwrap_or(""),
                    ));
                }
            }
            _ => {}
        }
        out
    }

    /// Sets one of [`Scenario::scenario_fields`].
    fn set_scenario_field(
        &mut self,
        library: &Library,
        selected: Option<CellKey>,
        field: &str,
        value: Value,
    ) -> Result<(), String> {
        let number = Value::unsigned;
        let text = Value::text;
        let at = selected.map(|k| Hex::new(k.0, k.1));
        let here = at.map_or(' ', |h| self.char_at(Layer::Map, h));
        match field {
            "name" => self.name = text(&value)?,
            "description" => self.description = text(&value)?,
            "victory" => {
                let monsters = self.monster_names(library);
                self.victory = match text(&value)?.as_str() {
                    "every foe" => Victory::AllFoesDead,
                    "kill" => Victory::Kill(
                        self.legend
                            .values()
                            .next()
                            .map(|p| p.monster.clone())
                            .or_else(|| monsters.first().cloned())
                            .unwrap_or_default(),
                    ),
                    "loot" => Victory::Loot(self.treasures.len().max(1) as u32),
                    "escape" => Victory::Escape,
                    "survive" => Victory::Survive(6),
                    "destroy" => Victory::Destroy,
                    "protect" => Victory::Protect(6),
                    w => return Err(format!("`{w}`: expected one of {}", VICTORIES.join(", "))),
                };
            }
            "victory:monster" => {
                if let Victory::Kill(m) = &mut self.victory {
                    *m = text(&value)?;
                }
            }
            "victory:n" => {
                let n = number(&value)?;
                match &mut self.victory {
                    Victory::Loot(x) | Victory::Survive(x) | Victory::Protect(x) => *x = n,
                    _ => return Err("this goal has no number".into()),
                }
            }
            "round_limit" => {
                let n = number(&value)?;
                self.round_limit = (n > 0).then_some(n);
            }
            "trap_damage" => self.trap_damage = number(&value)?,
            "room:name" => {
                let room = at.map_or(' ', |h| self.char_at(Layer::Rooms, h));
                let name = text(&value)?;
                if name.trim().is_empty() {
                    self.room_names.remove(&room);
                } else {
                    self.room_names.insert(room, name);
                }
            }
            "hero:name" | "hero:class" => {
                let Some(Ok(Cell::Hero(i))) = cell(here) else {
                    return Err("select a start first".into());
                };
                let hero = self
                    .heroes
                    .get_mut(i)
                    .ok_or("this start has no hero in the list")?;
                if field == "hero:name" {
                    hero.name = text(&value)?;
                } else {
                    let class = text(&value)?;
                    if hero.class.as_ref() != Some(&class) {
                        // A hand and perks are chosen from the class: the new one's first cards.
                        hero.hand.clear();
                        hero.perks.clear();
                        hero.class = Some(class);
                    }
                }
            }
            "spot:monster" | "spot:players-2" | "spot:players-3" | "spot:players-4" => {
                let (Some(h), Some(spot)) = (at, self.legend.get(&here).cloned()) else {
                    return Err("select a monster spot first".into());
                };
                let mut players = spot.players.unwrap_or([Rank::Normal; 3]);
                let mut monster = spot.monster;
                match field {
                    "spot:monster" => monster = text(&value)?,
                    "spot:players-2" => players[0] = rank_of(&text(&value)?)?,
                    "spot:players-3" => players[1] = rank_of(&text(&value)?)?,
                    _ => players[2] = rank_of(&text(&value)?)?,
                }
                let letter = self.spot_letter(&monster, players)?;
                self.set_char(Layer::Map, h, letter)?;
                self.forget_unused_spots();
            }
            "treasure:gold" | "treasure:damage" | "treasure:item" => {
                let t = self
                    .treasures
                    .get_mut(&here)
                    .ok_or("select a treasure first")?;
                match field {
                    "treasure:gold" => t.gold = number(&value)?,
                    "treasure:damage" => t.damage = number(&value)?,
                    _ => {
                        let item = text(&value)?;
                        t.item = (!item.trim().is_empty()).then_some(item);
                    }
                }
            }
            f if f.starts_with("rule:") => {
                let monsters = self.monster_names(library);
                self.set_rule(f, value, &monsters)?;
            }
            f => return Err(format!("no field `{f}`")),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::Library;
    use crate::rules::Rules;
    use crate::rules::gloomhaven::Gloomhaven;
    use crate::workshop::Draft;

    fn shipped() -> Vec<(String, String)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
        crate::game::check::ron_files(&root)
            .unwrap()
            .into_iter()
            .map(|p| (p.display().to_string(), crate::disk::read_file(&p).unwrap()))
            .filter(|(_, t)| crate::rules::rules_name(t) == "Gloomhaven")
            .collect()
    }

    #[test]
    fn a_shipped_scenario_written_by_the_workshop_reads_back_the_same_and_plays_the_same() {
        let files = shipped();
        assert!(
            files.len() >= 12,
            "{} Gloomhaven-family scenarios",
            files.len()
        );
        for (file, text) in files {
            let doc = Scenario::read(&file, &text).unwrap();
            let written = doc.write();
            let back =
                Scenario::read("written", &written).unwrap_or_else(|e| panic!("{e}\n{written}"));
            assert_eq!(back, doc, "{file}");
            assert_eq!(
                back.write(),
                written,
                "{file}: save, open, save gives the same bytes"
            );
            // What is played is the same scenario, and the file as clean as the one shipped.
            let played = Gloomhaven::parse_scenario(&file, &text).unwrap();
            let (again, warnings) =
                Gloomhaven::check_scenario("written", &written, &Library::default())
                    .unwrap_or_else(|e| panic!("{file}: {e}\n{written}"));
            assert_eq!(again, played, "{file}");
            assert!(warnings.is_empty(), "{file}: {warnings:?}");
        }
    }

    #[test]
    fn a_draft_painted_hex_by_hex_is_checked_after_each_edit_and_undone_step_by_step() {
        let library = Library::default();
        let mut d = Draft::new(Scenario::blank("The Mill Race"), "mill-race.ron", &library);
        let said = |d: &Draft<Scenario>| d.report().error.as_ref().map(|e| e.message.clone());
        assert!(!d.playable());
        assert_eq!(
            said(&d).as_deref(),
            Some("heroes: a scenario needs at least one hero")
        );
        // Two heroes of a library class.
        d.edit(&library, |s| {
            for (i, name) in ["Ash", "Birch"].iter().enumerate() {
                s.heroes.push(HeroSpec {
                    name: (*name).into(),
                    player: i as u32 + 1,
                    class: Some("Bulwark".into()),
                    hp: 0,
                    modifiers: None,
                    cards: Vec::new(),
                    hand: Vec::new(),
                    level: 1,
                    perks: Vec::new(),
                });
            }
            Ok(())
        })
        .unwrap();
        // Two rooms of floor side by side, a wall between them with a door.
        let floor = |d: &mut Draft<Scenario>, q: i32, r: i32, c: char| {
            d.edit(&library, |s| {
                s.set_char(Layer::Map, Hex::new(q, r), c).map(|_| ())
            })
            .unwrap();
        };
        for q in 0..7 {
            for r in 0..3 {
                floor(
                    &mut d,
                    q,
                    r - q.div_euclid(2),
                    if q == 3 { '#' } else { '.' },
                );
            }
        }
        assert_eq!(d.doc().map, ["...#...", "...#...", "...#..."]);
        floor(&mut d, 3, -1 + 1, '+');
        let door = Hex::new(3, 0);
        assert_eq!(d.doc().char_at(Layer::Map, door), '+');
        assert!(
            said(&d).unwrap().contains("a door joins rooms"),
            "{:?}",
            said(&d)
        );
        for q in 3..7 {
            for r in 0..3 {
                let h = Hex::new(q, r - q.div_euclid(2));
                let c = if h == door {
                    '+'
                } else if q == 3 {
                    'A'
                } else {
                    'B'
                };
                d.edit(&library, |s| s.set_char(Layer::Rooms, h, c).map(|_| ()))
                    .unwrap();
            }
        }
        assert_eq!(d.doc().rooms, ["AAAABBB", "AAA+BBB", "AAAABBB"]);
        // The heroes' starts and a monster spot: a rat for three or four characters.
        d.edit(&library, |s| {
            for i in 0..2 {
                s.set_char(Layer::Map, Hex::new(0, i), char::from(b'1' + i as u8))?;
            }
            let rat = s.spot_letter("Cellar Rat", [Rank::Absent, Rank::Normal, Rank::Elite])?;
            s.set_char(Layer::Map, Hex::new(5, -1), rat).map(|_| ())
        })
        .unwrap();
        assert!(d.playable(), "{:?}", d.report());
        assert_eq!(d.doc().legend[&'a'].monster, "Cellar Rat");
        let text = d.text();
        assert!(
            text.contains(
                "        'a': (monster: \"Cellar Rat\", players: (Absent, Normal, Elite)),\n"
            ),
            "{text}"
        );
        assert_eq!(Scenario::read("again", &text).unwrap().write(), text);
        // Undo goes back an edit at a time, and redo forth; an edit that changes nothing is none.
        let steps = d.history().0;
        d.edit(&library, |s| s.set_char(Layer::Map, door, '+').map(|_| ()))
            .unwrap();
        assert_eq!(d.history(), (steps, 0));
        assert!(d.undo(&library));
        assert!(!d.playable());
        assert!(d.redo(&library));
        assert!(d.playable());
        assert!(!d.redo(&library));
    }

    #[test]
    fn painting_left_of_or_above_the_board_moves_all_of_it_without_bending_it() {
        let mut s = Scenario::blank("x");
        s.set_char(Layer::Map, Hex::new(0, 0), '.').unwrap();
        s.set_char(Layer::Map, Hex::new(1, 0), '.').unwrap();
        s.set_char(Layer::Marks, Hex::new(1, 0), 'p').unwrap();
        s.thin_walls.push(((0, 0), (1, 0)));
        // One column to the left: the grid grows by two, and every hex moves alike.
        // (Hex (-1, 0) lies in column -1 and row -1 of the grid: it grows up by one row too.)
        let placed = s.set_char(Layer::Map, Hex::new(-1, 0), '#').unwrap();
        assert_eq!(placed, Hex::new(1, 0));
        assert_eq!(s.map, [" #  ", "  .."]);
        assert_eq!(s.char_at(Layer::Map, placed), '#');
        assert_eq!(s.thin_walls, [((2, 0), (3, 0))]);
        assert_eq!(s.char_at(Layer::Marks, Hex::new(3, 0)), 'p');
        assert_eq!(s.char_at(Layer::Map, Hex::new(2, 0)), '.');
        // A row above.
        let placed = s.set_char(Layer::Map, Hex::new(2, -2), 'o').unwrap();
        assert_eq!(placed, Hex::new(2, -1));
        assert_eq!(s.map, ["  o ", " #  ", "  .."]);
        assert_eq!(s.marks, ["....", "....", "...p"]);
        // The bound holds before anything grows.
        assert!(s.set_char(Layer::Map, Hex::new(300, 0), '.').is_err());
        assert_eq!(s.map.len(), 3);
    }
}
