//! A Gloomhaven-family scenario in the workshop: its file written as people read one, and the
//! edits of its text maps (the ground, the rooms and doors, the marks) by hex.
//!
//! The map, `rooms` and `marks` are grids of the same rows and columns. An edit by hex finds the
//! grid cell of the hex, grows every grid to hold it (to the left and up by two columns or one row
//! at a time, which moves the whole board without bending it), and keeps the three grids one shape.

use super::preset::{Overrides, Preset};
use super::scenario::{MAX_MAP_SIDE, Placement, Rank, Scenario, map_hex};
use crate::LoadError;
use crate::error::parse_ron;
use crate::hex::Hex;
use crate::rules::workshop::{Document, Writer};

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
            classes: _,
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
            victory: super::scenario::Victory::AllFoesDead,
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
            classes: Default::default(),
        }
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
                s.heroes.push(super::super::scenario::HeroSpec {
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
        assert!(text.contains("        'a': (monster: \"Cellar Rat\", elite: false, players: (Absent, Normal, Elite)),\n"), "{text}");
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
