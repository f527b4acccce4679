//! A Brimstone fight in the workshop: its file written as people read one, and its board of tiles,
//! its heroes and its threat cards made by brushes and panel fields.

use super::fight_panel::{MAX_FIELD, new_hero, threat};
use super::scenario::{BoardSpec, GridName, RulesName, ScenarioFile, TileSpec};
use crate::LoadError;
use crate::error::parse_ron;
use crate::library::Library;
use crate::rules::lab::{Brush, BrushKind, Field, Value};
use crate::rules::view::{CellInfo, CellKey, FigureInfo, Gear, GridKind, Ground, Side, TableView};
use crate::rules::workshop::{Document, Shop, Writer};

/// The first line of a file the workshop writes.
const HEADER: &str = "Made in Foehold's scenario workshop. The format is in docs/scenarios.md.";

/// The largest side of a tile the brush stamps.
const MAX_TILE_SIDE: i64 = 8;

impl Document for ScenarioFile {
    fn write(&self) -> String {
        // Every field by name, so that a field added to the format cannot be left unwritten.
        let ScenarioFile {
            rules,
            format,
            grid,
            name,
            description,
            board,
            fight_tile,
            round_limit,
            heroes,
            threats,
            threat_draws,
            ambush,
            loot,
            lurk,
            exercises,
        } = self;
        let mut w = Writer::new("Scenario", &[HEADER]);
        w.field("rules", rules);
        w.some("format", format);
        w.field("grid", grid);
        w.field("name", name);
        w.field_unless("description", description, &String::new());
        w.field("board", board);
        w.field("fight_tile", fight_tile);
        w.field("round_limit", round_limit);
        w.list("heroes", heroes);
        w.list("threats", threats);
        w.field("threat_draws", threat_draws);
        w.some("ambush", ambush);
        w.items("loot", loot);
        w.some("lurk", lurk);
        w.items("exercises", exercises);
        w.finish()
    }

    fn read(file: &str, text: &str) -> Result<ScenarioFile, LoadError> {
        parse_ron(file, text)
    }
}

/// What the Brimstone brushes carry: the size of the tile the tile brush stamps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Palette {
    /// Width in squares.
    pub w: i32,
    /// Height in squares.
    pub h: i32,
}

impl Default for Palette {
    fn default() -> Self {
        Palette { w: 3, h: 3 }
    }
}

impl ScenarioFile {
    /// The tile a square lies on, by index.
    fn tile_at(&self, (x, y): (i32, i32)) -> Option<usize> {
        self.board
            .tiles
            .iter()
            .position(|t| (t.x..t.x + t.w).contains(&x) && (t.y..t.y + t.h).contains(&y))
    }

    /// The hero standing on a square, by index.
    pub(super) fn hero_at(&self, at: (i32, i32)) -> Option<usize> {
        self.heroes.iter().position(|h| h.at == at)
    }

    /// A tile name not yet taken.
    fn fresh_tile(&self) -> String {
        (1..)
            .map(|n| format!("Tile {n}"))
            .find(|n| self.board.tiles.iter().all(|t| t.name != *n))
            .unwrap_or_default()
    }
}

impl Shop for ScenarioFile {
    const MODULE: &'static str = "Brimstone";
    type Palette = Palette;
    type Rules = super::Brimstone;

    fn of_position(p: &super::lab::Case, _library: &Library) -> Result<ScenarioFile, String> {
        ScenarioFile::from_position(p)
    }

    fn blank(name: &str) -> ScenarioFile {
        ScenarioFile {
            rules: RulesName::Brimstone,
            format: Some(crate::rules::SCENARIO_FORMAT),
            grid: GridName::Square,
            name: name.to_string(),
            description: String::new(),
            board: BoardSpec {
                tiles: vec![
                    TileSpec {
                        name: "Tile 1".into(),
                        x: 0,
                        y: 0,
                        w: 3,
                        h: 3,
                    },
                    TileSpec {
                        name: "Tile 2".into(),
                        x: 3,
                        y: 0,
                        w: 3,
                        h: 3,
                    },
                ],
                walls: Vec::new(),
            },
            fight_tile: "Tile 2".into(),
            round_limit: 8,
            heroes: vec![new_hero("Hero 1".into(), (0, 0), 5)],
            threats: vec![threat(1)],
            threat_draws: 1,
            ambush: None,
            loot: Vec::new(),
            lurk: None,
            exercises: Vec::new(),
        }
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn view(&self, _library: &Library) -> TableView {
        let mut view = TableView {
            grid: GridKind::Square,
            ..TableView::default()
        };
        for t in &self.board.tiles {
            let fight = if t.name == self.fight_tile {
                " (the fight tile)"
            } else {
                ""
            };
            for x in t.x..t.x + t.w {
                for y in t.y..t.y + t.h {
                    let wall = self.board.walls.contains(&(x, y));
                    view.cells.push(CellInfo {
                        key: (x, y),
                        ground: if wall { Ground::Wall } else { Ground::Floor },
                        door: false,
                        place: Some(format!("{}{fight}", t.name)),
                    });
                }
            }
        }
        // Around the tiles, squares not yet on the board, for the tile brush to reach.
        let xs = self.board.tiles.iter().flat_map(|t| [t.x, t.x + t.w - 1]);
        let ys = self.board.tiles.iter().flat_map(|t| [t.y, t.y + t.h - 1]);
        let (x0, x1) = (xs.clone().min().unwrap_or(0), xs.max().unwrap_or(5));
        let (y0, y1) = (ys.clone().min().unwrap_or(0), ys.max().unwrap_or(3));
        for x in x0 - 3..=x1 + 3 {
            for y in y0 - 3..=y1 + 3 {
                if self.tile_at((x, y)).is_none() {
                    view.cells.push(CellInfo {
                        key: (x, y),
                        ground: Ground::Outside,
                        door: false,
                        place: None,
                    });
                }
            }
        }
        for (i, h) in self.heroes.iter().enumerate() {
            view.figures.push(FigureInfo {
                id: i as u32 + 1,
                name: h.name.clone(),
                side: Side::Hero,
                elite: false,
                hp: h.health as i32,
                max_hp: 0,
                conditions: Vec::new(),
                cell: h.at,
                owner: None,
                tint: i,
                gear: if h.gun.is_some() {
                    Gear::Bow
                } else {
                    Gear::Blade
                },
                rooted: false,
                card: vec![
                    format!("Health {}", h.health),
                    format!("Defense {}", h.defense),
                    format!("Initiative {}", h.initiative),
                ],
            });
        }
        view.banner = format!("Making {}", self.name);
        view
    }

    fn brushes() -> Vec<Brush> {
        let brush = |id, label, kind| Brush { id, label, kind };
        vec![
            brush("tile", "Tile", BrushKind::Stamp),
            brush("wall", "Wall square", BrushKind::Ground),
            brush("hero", "Hero", BrushKind::Figure),
            brush("fight-tile", "Fight tile", BrushKind::Mark),
            brush("erase-tile", "Erase tile", BrushKind::Erase),
        ]
    }

    fn paint(
        &mut self,
        palette: &Palette,
        _library: &Library,
        brush: &str,
        cell: CellKey,
        _other: Option<CellKey>,
    ) -> Result<(), String> {
        let on_tile = || {
            self.tile_at(cell)
                .ok_or("there is no tile here: stamp one first".to_string())
        };
        match brush {
            "tile" => {
                let (w, h) = (palette.w, palette.h);
                let overlaps = self.board.tiles.iter().any(|t| {
                    cell.0 < t.x + t.w && t.x < cell.0 + w && cell.1 < t.y + t.h && t.y < cell.1 + h
                });
                if overlaps {
                    return Err(format!(
                        "a {w}×{h} tile here would lie over another: tiles lie side by side"
                    ));
                }
                let name = self.fresh_tile();
                self.board.tiles.push(TileSpec {
                    name,
                    x: cell.0,
                    y: cell.1,
                    w,
                    h,
                });
            }
            "wall" => {
                on_tile()?;
                if self.hero_at(cell).is_some() {
                    return Err("a hero stands there: move it before walling the square".into());
                }
                if let Some(i) = self.board.walls.iter().position(|w| *w == cell) {
                    self.board.walls.remove(i);
                } else {
                    self.board.walls.push(cell);
                    self.board.walls.sort_unstable();
                }
            }
            "hero" => {
                on_tile()?;
                if let Some(i) = self.hero_at(cell) {
                    self.heroes.remove(i);
                    return Ok(());
                }
                let n = (1..)
                    .find(|n| self.heroes.iter().all(|h| h.name != format!("Hero {n}")))
                    .unwrap_or(1);
                let initiative = (1..=9)
                    .rev()
                    .find(|i| self.heroes.iter().all(|h| h.initiative != *i))
                    .unwrap_or(1);
                self.heroes
                    .push(new_hero(format!("Hero {n}"), cell, initiative));
            }
            "fight-tile" => {
                let t = on_tile()?;
                self.fight_tile = self.board.tiles[t].name.clone();
            }
            "erase-tile" => {
                let t = on_tile()?;
                let tile = self.board.tiles.remove(t);
                let inside = |(x, y): (i32, i32)| {
                    (tile.x..tile.x + tile.w).contains(&x) && (tile.y..tile.y + tile.h).contains(&y)
                };
                self.board.walls.retain(|w| !inside(*w));
                self.heroes.retain(|h| !inside(h.at));
            }
            b => return Err(format!("no brush `{b}`")),
        }
        Ok(())
    }

    fn palette_fields(&self, palette: &Palette, _library: &Library) -> Vec<Field> {
        vec![
            Field::number(
                "brush:tile-w",
                "Tile width",
                i64::from(palette.w),
                (1, MAX_TILE_SIDE),
            ),
            Field::number(
                "brush:tile-h",
                "Tile height",
                i64::from(palette.h),
                (1, MAX_TILE_SIDE),
            ),
        ]
    }

    fn set_palette(palette: &mut Palette, field: &str, value: Value) -> Result<(), String> {
        let Value::Number(n) = value else {
            return Err(format!("{field}: expected a number"));
        };
        if !(1..=MAX_TILE_SIDE).contains(&n) {
            return Err(format!(
                "{n}: a tile's side is 1 to {MAX_TILE_SIDE} squares"
            ));
        }
        match field {
            "brush:tile-w" => palette.w = n as i32,
            "brush:tile-h" => palette.h = n as i32,
            f => return Err(format!("no field `{f}`")),
        }
        Ok(())
    }

    fn fields(
        &self,
        _palette: &Palette,
        _library: &Library,
        selected: Option<CellKey>,
    ) -> Vec<Field> {
        let tiles: Vec<&str> = self.board.tiles.iter().map(|t| t.name.as_str()).collect();
        let mut out = vec![
            Field::text("name", "Name", &self.name),
            Field::text("description", "Description", &self.description),
            Field::choice("fight_tile", "Fight tile", &self.fight_tile, &tiles),
            Field::number(
                "round_limit",
                "Round limit",
                i64::from(self.round_limit),
                (1, MAX_FIELD),
            ),
            Field::number(
                "threat_draws",
                "Threat cards drawn",
                i64::from(self.threat_draws),
                (1, MAX_FIELD),
            ),
        ];
        out.extend(super::fight_panel::fields(self, selected));
        out
    }

    fn set(
        &mut self,
        _palette: &mut Palette,
        _library: &Library,
        selected: Option<CellKey>,
        field: &str,
        value: Value,
    ) -> Result<(), String> {
        let number = || value.unsigned();
        let text = || value.text();
        match field {
            "name" => self.name = text()?,
            "description" => self.description = text()?,
            "fight_tile" => self.fight_tile = text()?,
            "round_limit" => self.round_limit = number()?,
            "threat_draws" => self.threat_draws = number()?,
            f => {
                if !super::fight_panel::set(self, selected, f, &value)? {
                    return Err(format!("no field `{f}`"));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::placement::Initiative;
    use super::super::targeting::Behaviour;
    use super::*;
    use crate::rules::PartyChoice;
    use crate::workshop::any::{AnyDraft, open_draft, played_out, shop_modules};

    fn blank() -> Box<dyn AnyDraft> {
        let m = shop_modules()
            .into_iter()
            .find(|m| m.module == "Brimstone")
            .unwrap();
        (m.blank)("fight.ron", Library::default())
    }

    #[test]
    fn a_shipped_fight_written_by_the_workshop_reads_back_the_same() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
        let mut seen = 0;
        for p in crate::game::check::ron_files(&root).unwrap() {
            let text = crate::disk::read_file(&p).unwrap();
            if crate::rules::rules_name(&text) != "Brimstone" {
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
        }
        assert!(seen >= 3, "{seen} fights");
    }

    #[test]
    fn a_fight_made_by_brushes_and_fields_loads_and_plays() {
        let mut d = blank();
        assert_eq!(d.report().error, None, "a new fight plays:\n{}", d.text());
        // A third tile, 3 by 2, below the first; a wall on it; a second hero; the fight tile
        // moved to it; a second threat card.
        d.set(None, "brush:tile-h", Value::Number(2)).unwrap();
        d.paint("tile", (0, 3), None).unwrap();
        d.paint("wall", (1, 4), None).unwrap();
        d.paint("hero", (1, 1), None).unwrap();
        d.paint("fight-tile", (2, 3), None).unwrap();
        d.set(None, "threat:add", Value::Flag(true)).unwrap();
        d.set(None, "threat:2:group:1:count", Value::Number(3))
            .unwrap();
        d.set(Some((1, 1)), "hero:health", Value::Number(9))
            .unwrap();
        assert_eq!(d.report().error, None, "\n{}", d.text());
        let text = d.text();
        assert!(text.contains("fight_tile: \"Tile 3\""), "{text}");
        assert!(text.contains("walls: [(1, 4)]"), "{text}");
        let again = open_draft("fight.ron", &text, Library::default()).unwrap();
        assert_eq!(again.text(), text);
        let test = played_out(d.as_ref(), 20, PartyChoice::default());
        assert_eq!(test.report.unfinished, 0);
        // Refused: a tile over another, a wall off the tiles; the draft as it was.
        let before = d.text();
        assert!(
            d.paint("tile", (1, 1), None)
                .unwrap_err()
                .contains("over another")
        );
        assert!(
            d.paint("wall", (20, 20), None)
                .unwrap_err()
                .contains("no tile")
        );
        assert_eq!(d.text(), before);
    }

    fn choose(d: &mut dyn AnyDraft, at: Option<CellKey>, field: &str, word: &str) {
        d.set(at, field, Value::Choice(word.into()))
            .unwrap_or_else(|e| panic!("{field} = {word}: {e}"));
    }

    #[test]
    fn a_fights_start_loot_heroes_gear_and_groups_are_made_in_the_panel() {
        let mut d = blank();
        let hero = Some((0, 0));
        // A lurking threat, then an ambush before anyone moved.
        choose(d.as_mut(), None, "start", "a lurking threat");
        d.set(None, "lurk:move", Value::Number(2)).unwrap();
        assert!(
            d.text().contains("lurk: (start_of_round: 1, after_move: 2"),
            "{}",
            d.text()
        );
        choose(d.as_mut(), None, "start", "an ambush, no one moved");
        // Loot: two cards, one renamed, the other taken out.
        choose(d.as_mut(), None, "loot:add", "a new card");
        choose(d.as_mut(), None, "loot:add", "a new card");
        d.set(None, "loot:1", Value::Text("Tin Lantern".into()))
            .unwrap();
        choose(d.as_mut(), None, "loot:2:card", "take out");
        // The hero: a hatchet with a free attack, no gun, melee hits on 3.
        d.set(hero, "hero:weapon", Value::Flag(true)).unwrap();
        d.set(hero, "hero:weapon:free_attack", Value::Flag(true))
            .unwrap();
        d.set(hero, "hero:gun", Value::Flag(false)).unwrap();
        d.set(hero, "hero:melee_to_hit", Value::Number(3)).unwrap();
        // The card's gangers shoot from 4 squares, roll their initiative, wear armour; a second
        // group added, then taken out again; a second card.
        let g = "threat:1:group:1";
        choose(d.as_mut(), None, &format!("{g}:behaviour"), "Ranged");
        d.set(None, &format!("{g}:range"), Value::Number(4))
            .unwrap();
        d.set(None, &format!("{g}:rolled"), Value::Flag(true))
            .unwrap();
        d.set(None, &format!("{g}:armour"), Value::Number(1))
            .unwrap();
        choose(d.as_mut(), None, "threat:1:add-group", "a new group");
        choose(d.as_mut(), None, "threat:1:group:2:style", "Immobile");
        // A card added while card 1's second group is `Ganger 2`: its group takes a free name.
        d.set(None, "threat:add", Value::Flag(true)).unwrap();
        assert_eq!(d.report().error, None, "\n{}", d.text());
        assert!(d.text().contains("(name: \"Ganger 3\""), "{}", d.text());
        choose(d.as_mut(), None, "threat:1:group:2:group", "take out");
        // A group made to shoot shoots 6 squares until told otherwise.
        choose(
            d.as_mut(),
            None,
            "threat:2:group:1:behaviour",
            "MeleeOrRanged",
        );
        assert!(
            d.text()
                .contains("behaviour: MeleeOrRanged, move: 4, range: 6,")
        );
        assert_eq!(d.report().error, None, "\n{}", d.text());
        let text = d.text();
        let f = ScenarioFile::read("x.ron", &text).unwrap();
        assert_eq!(
            f.ambush,
            Some(super::super::scenario::AmbushSpec {
                triggered_before_anyone_moved: true
            })
        );
        assert_eq!(
            (f.lurk, f.loot.as_slice()),
            (None, ["Tin Lantern".to_string()].as_slice())
        );
        let h = &f.heroes[0];
        assert!(h.gun.is_none() && h.weapon.as_ref().is_some_and(|w| w.free_attack));
        let g1 = &f.threats[0].groups;
        assert_eq!(g1.len(), 1);
        assert_eq!(
            (g1[0].behaviour, g1[0].range, g1[0].initiative, g1[0].armour),
            (Behaviour::Ranged, 4, Initiative::Variable, 1)
        );
        assert_eq!(f.threats.len(), 2);
        let again = open_draft("fight.ron", &text, Library::default()).unwrap();
        assert_eq!(again.text(), text);
        let test = played_out(d.as_ref(), 20, PartyChoice::default());
        assert_eq!(test.report.unfinished, 0);
        // Refused with the draft as it was: a keyword no group has, gear of no hero selected,
        // the last group and the last card taken out.
        let before = d.text();
        for (at, field, v, why) in [
            (
                None,
                format!("{g}:behaviour"),
                Value::Choice("Flying".into()),
                "no such keyword",
            ),
            (None, "hero:gun".into(), Value::Flag(true), "select a hero"),
            (
                None,
                "loot:add".into(),
                Value::Choice("bogus".into()),
                "expected one of",
            ),
            (
                None,
                format!("{g}:group"),
                Value::Choice("take out".into()),
                "brings a group",
            ),
        ] {
            let e = d.set(at, &field, v).unwrap_err();
            assert!(e.contains(why), "{field}: {e}");
            assert_eq!(d.text(), before, "{field}");
        }
        choose(d.as_mut(), None, "threat:2:card", "take out");
        let e = d
            .set(None, "threat:1:card", Value::Choice("take out".into()))
            .unwrap_err();
        assert!(e.contains("needs a threat card"), "{e}");
        // A number past the loader's bound is the loader's error, in its words.
        d.set(None, &format!("{g}:to_hit"), Value::Number(9))
            .unwrap();
        let e = d.report().error.clone().expect("to hit 9 is refused");
        assert!(
            e.to_string().contains("`to_hit` is 9: expected 2 to 6"),
            "{e}"
        );
    }
}
