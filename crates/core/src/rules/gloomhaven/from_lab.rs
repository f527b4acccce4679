//! A Gloomhaven-family scenario built around a lab position: the lab's *Make a scenario of it*.
//!
//! The position's board becomes the map, its characters the heroes on starts 1 to 4 (of the
//! library's first class), its active monster and allies spots of one monster type the scenario
//! writes, whose move, range, targets and flying are the position's card. What a position does
//! not say a scenario needs (hit points, attack values, a deck) is a new type's default; an area
//! of effect, a teleport and muddle belong to the moment and are left out.

use super::case::Puzzle;
use super::scenario::{MonsterEffect, Rank, Scenario};
use super::type_shop;
use super::workshop::{Layer, grid_cell, new_hero};
use crate::hex::Hex;
use crate::library::Library;

type Qr = (i32, i32);

/// The most characters a scenario places starts for.
const MAX_HEROES: usize = 4;

impl Scenario {
    /// A scenario built around the lab position `p`, its heroes of the first class `library`
    /// offers. Refused with the reason when a scenario cannot hold the position (no character,
    /// more than four).
    pub fn from_position(p: &Puzzle, library: &Library) -> Result<Scenario, String> {
        if p.enemies.is_empty() {
            return Err("the position has no character: a scenario needs a hero".into());
        }
        if p.enemies.len() > MAX_HEROES {
            return Err(format!(
                "the position has {} characters: a scenario has at most {MAX_HEROES} starts",
                p.enemies.len()
            ));
        }
        let name = if p.id.is_empty() { "a position" } else { &p.id };
        let mut out = Scenario::blank(&format!("From the lab: {name}"));
        out.preset = p.rules;
        out.switches = p.switches;
        let m = &p.map;
        let all: Vec<Qr> = m.hexes.iter().chain(&m.walls).copied().collect();
        // Moved so that the map starts at its first column and row, by an even number of
        // columns so that every hex column keeps its offset.
        let col0 = all.iter().map(|h| h.0).min().unwrap_or(0).div_euclid(2) * 2;
        let row0 = all
            .iter()
            .map(|&(q, r)| grid_cell(Hex::new(q - col0, r + col0 / 2)).1)
            .min()
            .unwrap_or(0);
        let at = |(q, r): Qr| Hex::new(q - col0, r + col0 / 2 - row0);
        let ground = |h: &Qr| {
            let of = |list: &[Qr]| list.contains(h);
            if of(&m.walls) {
                '#'
            } else if of(&m.obstacles) {
                'o'
            } else if of(&m.traps) {
                '^'
            } else if of(&m.hazards) {
                '~'
            } else if of(&m.difficult) {
                '%'
            } else if of(&m.icy) {
                '*'
            } else {
                '.'
            }
        };
        for h in &all {
            out.set_char(Layer::Map, at(*h), ground(h))?;
        }
        out.thin_walls = m
            .thin_walls
            .iter()
            .map(|&(a, b)| {
                let (a, b) = (at(a), at(b));
                ((a.x, a.y), (b.x, b.y))
            })
            .collect();
        // The characters: starts in the position's order, heroes of the library's first class.
        let class = crate::rules::gloomhaven::workshop::first_class(library);
        for (i, e) in p.enemies.iter().enumerate() {
            let n = i as u32 + 1;
            out.heroes.push(new_hero(n, class.clone()));
            let digit = char::from_digit(n, 10).unwrap_or('1');
            out.set_char(Layer::Map, at(e.hex), digit)?;
        }
        // The monsters: one type of the position's card, standing for every party size.
        // The scenario is new: the name is free in it (a library type of the name is shadowed).
        let mut t = type_shop::new_type("Lab Monster");
        let a = &p.action;
        t.flying = a.flying;
        t.standees = (1 + p.allies.len()).max(t.standees as usize) as u32;
        for r in &mut t.levels {
            for s in [&mut r.normal, &mut r.elite] {
                s.movement = a.move_points;
                s.range = a.range;
            }
        }
        for card in &mut t.deck {
            for act in &mut card.actions {
                match act {
                    MonsterEffect::Move(_) if a.jumping => *act = MonsterEffect::Jump(0),
                    MonsterEffect::Attack { targets, .. } => *targets = a.targets.max(1),
                    _ => {}
                }
            }
            // A card of a type that does not attack: its attacks go.
            if a.targets == 0 {
                card.actions
                    .retain(|x| !matches!(x, MonsterEffect::Attack { .. }));
            }
        }
        let letter = out.spot_letter(&t.name, [Rank::Normal; 3])?;
        out.monsters.push(t);
        for h in std::iter::once(&p.active).chain(&p.allies) {
            out.set_char(Layer::Map, at(*h), letter)?;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::parse_ron;
    use crate::rules::workshop::Document;

    /// Every Gloomhaven-family position of the repository's cases and puzzles.
    fn positions() -> Vec<(String, Puzzle)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests");
        let mut out = Vec::new();
        for dir in [
            "conformance/gloomhaven",
            "conformance/frosthaven",
            "conformance/jotl",
            "puzzles",
        ] {
            for p in crate::game::check::ron_files(&root.join(dir)).unwrap() {
                let text = crate::disk::read_file(&p).unwrap();
                if let Ok(case) = parse_ron::<Puzzle>("case", &text) {
                    out.push((p.display().to_string(), case));
                }
            }
        }
        out
    }

    #[test]
    fn every_position_of_up_to_four_characters_becomes_a_scenario_that_loads_with_it_in_place() {
        let (mut loaded, mut refused) = (0, 0);
        for (file, case) in positions() {
            let s = match Scenario::from_position(&case, &Library::default()) {
                Ok(s) => s,
                Err(e) => {
                    assert!(case.enemies.len() > MAX_HEROES, "{file}: {e}");
                    assert!(e.contains("at most 4 starts"), "{file}: {e}");
                    refused += 1;
                    continue;
                }
            };
            // Every hex of the position is on the map, the figures where the position has them.
            let drawn: usize = s
                .map
                .iter()
                .map(|l| l.chars().filter(|c| *c != ' ').count())
                .sum();
            assert_eq!(drawn, case.map.hexes.len() + case.map.walls.len(), "{file}");
            let mut figures: Vec<char> = s
                .map
                .iter()
                .flat_map(|l| l.chars())
                .filter(|c| c.is_ascii_digit() || s.legend.contains_key(c))
                .collect();
            figures.sort_unstable();
            let heroes: Vec<char> = figures
                .iter()
                .copied()
                .filter(char::is_ascii_digit)
                .collect();
            assert_eq!(heroes.len(), case.enemies.len(), "{file}");
            assert_eq!(
                figures.len(),
                heroes.len() + 1 + case.allies.len(),
                "{file}"
            );
            let t = &s.monsters[0];
            assert_eq!(
                t.levels[1].normal.movement, case.action.move_points,
                "{file}"
            );
            assert_eq!(t.levels[1].normal.range, case.action.range, "{file}");
            let written = s.write();
            assert_eq!(Scenario::read("x.ron", &written).unwrap(), s, "{file}");
            crate::kit::check("x.ron", &written, &Library::default())
                .unwrap_or_else(|e| panic!("{file}: {e}\n{written}"));
            // As the lab's *Play on from here* opens it: a draft that plays to an end.
            let text = crate::rules::lab::write_case("Puzzle", &case);
            let d = crate::workshop::any::draft_of_position(
                "gloomhaven",
                "x.ron",
                &text,
                Library::default(),
            )
            .unwrap_or_else(|e| panic!("{file}: {e}"));
            assert!(d.playable(), "{file}");
            crate::workshop::any::played_out(d.as_ref(), 2, crate::rules::PartyChoice::default());
            loaded += 1;
        }
        eprintln!("{loaded} positions became scenarios, {refused} refused");
        assert!(loaded >= 40, "{loaded} loaded, {refused} refused");
    }
}
