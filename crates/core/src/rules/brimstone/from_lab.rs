//! A Brimstone fight built around a lab position: the lab's *Make a scenario of it*.
//!
//! The position's board becomes the fight's board, its heroes the fight's (a new hero's stats,
//! turn order as the position lists them), and its enemies one threat card the fight draws: a
//! `Placement` position's groups as they are, a `Targeting` position's enemies grouped by the type
//! their names show, the active enemy's group with its behaviour, move and range. Where the
//! enemies stand is the placement rules' to say when the fight starts: a `Targeting` position's
//! fight is placed on the active enemy's tile. What belongs to the moment (markers, the current
//! target, a retreat roll, the expected answer) is left out. Numbers past a fight's bounds (a
//! lab allows longer moves and later initiatives) are the fight's most; names a fight would hold
//! twice get a letter.

use super::case::{GroupIn, PlacementCase, TargetingCase};
use super::fight_panel::{new_group, new_hero, reach};
use super::lab::{Case, behaviour_of, stem, style_of, to_placement};
use super::placement::{Initiative, Style};
use super::scenario::{
    AmbushSpec, GroupSpec, MAX_HEROES, MAX_INITIATIVE, MAX_NAME, MAX_REACH, ScenarioFile,
    ThreatCard, check,
};
use crate::rules::workshop::Shop;

/// A fight's group of a position's group: a new group's stats, the position's name, initiative,
/// keyword and number of models.
fn group_of(g: &GroupIn, n: usize) -> GroupSpec {
    let mut out = new_group(n);
    out.name.clone_from(&g.name);
    out.count = u32::try_from(g.models.len()).unwrap_or(u32::MAX);
    out.initiative = match g.initiative {
        Initiative::Fixed(n) => Initiative::Fixed(n.min(MAX_INITIATIVE)),
        rolled => rolled,
    };
    out.style = g.style;
    out.behaviour = behaviour_of(g.style);
    out.range = reach(out.behaviour, out.range);
    out
}

/// Each group's name made one no hero, no earlier group and no model of either has, by a letter
/// after it (a fight names every model and group once; a lab position only its models).
fn distinct_names(heroes: &[String], groups: &mut [GroupSpec]) {
    let models = |name: &str, count: u32| -> Vec<String> {
        (1..=count).map(|k| format!("{name} {k}")).collect()
    };
    let mut taken: Vec<String> = heroes.to_vec();
    for g in groups {
        let clashes = |name: &str| {
            taken.iter().any(|t| t == name)
                || models(name, g.count).iter().any(|m| taken.contains(m))
        };
        if clashes(&g.name) {
            let base = g.name.clone();
            g.name = ('B'..='Z')
                .map(|c| format!("{base} {c}"))
                .find(|n| !clashes(n))
                .unwrap_or(base);
        }
        taken.push(g.name.clone());
        taken.extend(models(&g.name, g.count));
    }
}

/// The `Targeting` position's enemies as groups: the active enemy's (with its behaviour, move and
/// range) first, then one per type the other enemies' names show, in the order they are listed.
fn groups_of(c: &TargetingCase) -> Vec<GroupSpec> {
    let mut p = to_placement(c);
    let mut groups: Vec<GroupSpec> = p
        .groups
        .iter()
        .enumerate()
        .map(|(i, g)| group_of(g, i + 1))
        .collect();
    if let Some(g) = groups.first_mut() {
        g.behaviour = c.active.behaviour;
        g.style = style_of(c.active.behaviour);
        g.move_points = c.active.move_points.min(MAX_REACH);
        g.range = reach(g.behaviour, c.active.range);
    }
    for e in &c.enemies {
        let kind = stem(&e.name);
        match p.groups.iter().position(|g| g.name == kind) {
            Some(_) if kind == stem(&c.active.name) => {}
            Some(i) => groups[i].count += 1,
            None => {
                // A position says nothing of the other types' turn order: they act after the
                // heroes of initiative 3 and up, before the active enemy's group (1).
                let g = GroupIn {
                    name: kind.to_string(),
                    initiative: Initiative::Fixed(2),
                    style: Style::Plain,
                    ambushed_hero: None,
                    models: vec![e.name.clone()],
                };
                groups.push(group_of(&g, groups.len() + 1));
                p.groups.push(g);
            }
        }
    }
    groups
}

impl ScenarioFile {
    /// A fight built around the lab position `p`. Refused with the reason when a fight cannot
    /// hold the position (no hero, more than a fight's heroes, more models than a threat card
    /// brings) — the same words the loader would have for the file.
    pub fn from_position(p: &Case) -> Result<ScenarioFile, String> {
        let (placement, mut groups): (_, Vec<GroupSpec>) = match p {
            Case::Placement(c) => (
                c.clone(),
                c.groups
                    .iter()
                    .enumerate()
                    .map(|(i, g)| group_of(g, i + 1))
                    .collect(),
            ),
            Case::Targeting(c) => (to_placement(c), groups_of(c)),
        };
        let PlacementCase {
            id,
            board,
            heroes,
            fight_tile,
            ambush,
            triggered_before_anyone_moved,
            ..
        } = placement;
        if heroes.is_empty() {
            return Err("the position has no hero: a fight needs one".into());
        }
        if heroes.len() > MAX_HEROES {
            return Err(format!(
                "the position has {} heroes: a fight has at most {MAX_HEROES}",
                heroes.len()
            ));
        }
        // A group the lab left without models brings none.
        groups.retain(|g| g.count > 0);
        if groups.is_empty() {
            return Err("the position has no enemy: a fight needs a threat".into());
        }
        let names: Vec<String> = heroes.iter().map(|h| h.name.clone()).collect();
        distinct_names(&names, &mut groups);
        let name = if id.is_empty() { "a position" } else { &id };
        let name: String = format!("From the lab: {name}")
            .chars()
            .take(MAX_NAME)
            .collect();
        let mut out = ScenarioFile::blank(&name);
        out.board.tiles = board
            .tiles
            .iter()
            .map(|t| super::scenario::TileSpec {
                name: t.name.clone(),
                x: t.x,
                y: t.y,
                w: t.w,
                h: t.h,
            })
            .collect();
        out.board.walls = board.walls;
        out.fight_tile = fight_tile;
        // Turn order as the position lists its heroes: the first acts first.
        let top = u32::try_from(heroes.len()).unwrap_or(0);
        out.heroes = heroes
            .into_iter()
            .zip((1..=top).rev())
            .map(|(h, initiative)| new_hero(h.name, h.at, initiative))
            .collect();
        out.threats = vec![ThreatCard {
            name: "From the lab".into(),
            groups,
        }];
        out.threat_draws = 1;
        out.ambush = ambush.then_some(AmbushSpec {
            triggered_before_anyone_moved,
        });
        check(out.clone()).map_err(|e| e.message)?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::Library;
    use crate::rules::lab::Lab;
    use crate::rules::workshop::Document;

    /// The lab's blank position and every Brimstone position of the repository's cases, with its
    /// file's text.
    fn positions() -> Vec<(String, String, Case)> {
        type B = super::super::Brimstone;
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests");
        let blank = <B as Lab>::blank();
        let mut out = vec![("the blank".into(), <B as Lab>::write(&blank), blank)];
        for dir in ["conformance/brimstone", "puzzles"] {
            for p in crate::game::check::ron_files(&root.join(dir)).unwrap() {
                let text = crate::disk::read_file(&p).unwrap();
                if let Ok(case) = <B as Lab>::read("case", &text) {
                    out.push((p.display().to_string(), text, case));
                }
            }
        }
        out
    }

    #[test]
    fn every_position_becomes_a_fight_with_its_board_heroes_and_enemies() {
        let mut made = 0;
        for (file, text, case) in positions() {
            let f = ScenarioFile::from_position(&case).unwrap_or_else(|e| panic!("{file}: {e}"));
            let (board, heroes, models) = match &case {
                Case::Placement(c) => (
                    &c.board,
                    &c.heroes,
                    c.groups.iter().map(|g| g.models.len()).sum::<usize>(),
                ),
                Case::Targeting(c) => (&c.board, &c.heroes, 1 + c.enemies.len()),
            };
            assert_eq!(f.board.tiles.len(), board.tiles.len(), "{file}");
            assert_eq!(f.board.walls, board.walls, "{file}");
            let at: Vec<_> = f.heroes.iter().map(|h| (h.name.as_str(), h.at)).collect();
            let want: Vec<_> = heroes.iter().map(|h| (h.name.as_str(), h.at)).collect();
            assert_eq!(at, want, "{file}");
            let brought: u32 = f.threats[0].groups.iter().map(|g| g.count).sum();
            assert_eq!(brought as usize, models, "{file}");
            if let Case::Targeting(c) = &case {
                let g = &f.threats[0].groups[0];
                assert_eq!(
                    (g.behaviour, g.move_points),
                    (c.active.behaviour, c.active.move_points),
                    "{file}"
                );
                assert_eq!(g.range, reach(g.behaviour, c.active.range), "{file}");
                assert!(f.board.tiles.iter().any(|t| t.name == f.fight_tile));
            }
            // Written and read back the same, checked as `foehold check` checks.
            let written = f.write();
            assert_eq!(ScenarioFile::read("x.ron", &written).unwrap(), f, "{file}");
            crate::kit::check("x.ron", &written, &Library::default())
                .unwrap_or_else(|e| panic!("{file}: {e}\n{written}"));
            // As the lab's *Play on from here* opens it: a draft that plays to an end.
            let d = crate::workshop::any::draft_of_position(
                "brimstone",
                "x.ron",
                &text,
                Library::default(),
            )
            .unwrap_or_else(|e| panic!("{file}: {e}"));
            assert_eq!(d.module(), "Brimstone", "{file}");
            assert!(d.playable(), "{file}");
            crate::workshop::any::played_out(d.as_ref(), 2, crate::rules::PartyChoice::default());
            made += 1;
        }
        eprintln!("{made} Brimstone positions became fights");
        assert!(made >= 8, "{made}");
    }

    #[test]
    fn what_a_lab_allows_past_a_fights_bounds_is_brought_within_them() {
        let Case::Targeting(mut c) = <super::super::Brimstone as Lab>::blank() else {
            panic!("the blank position is a Targeting case");
        };
        c.id = "x".repeat(80);
        c.active.move_points = 30;
        c.active.name = "Vera 7".into();
        c.heroes[1].name = "Vera B".into();
        let f = ScenarioFile::from_position(&Case::Targeting(c.clone()))
            .unwrap_or_else(|e| panic!("{e}"));
        let g = &f.threats[0].groups[0];
        assert_eq!(g.move_points, MAX_REACH);
        // The group of `Vera 7` is `Vera`, a hero's name: it takes a letter (B is a hero's).
        assert_eq!(g.name, "Vera C");
        assert_eq!(f.name.chars().count(), MAX_NAME);
        // A Placement group the lab left without models brings none; two groups of one name.
        let mut p = to_placement(&c);
        p.groups[0].initiative = Initiative::Fixed(90);
        let mut empty = p.groups[0].clone();
        empty.models.clear();
        let mut twin = p.groups[0].clone();
        twin.models = vec!["Twin 1".into()];
        p.groups.extend([empty, twin]);
        let f = ScenarioFile::from_position(&Case::Placement(p)).unwrap_or_else(|e| panic!("{e}"));
        let groups = &f.threats[0].groups;
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0].initiative, Initiative::Fixed(MAX_INITIATIVE));
        assert_ne!(groups[0].name, groups[1].name);
    }

    #[test]
    fn a_position_a_fight_cannot_hold_is_refused_with_the_reason() {
        let Case::Targeting(mut c) = <super::super::Brimstone as Lab>::blank() else {
            panic!("the blank position is a Targeting case");
        };
        c.board.tiles[0].w = 12;
        c.heroes = (0..9)
            .map(|i| super::super::case::HeroIn {
                name: format!("H{i}"),
                at: (i, 0),
                markers: 0,
            })
            .collect();
        let e = ScenarioFile::from_position(&Case::Targeting(c.clone())).unwrap_err();
        assert!(e.contains("9 heroes: a fight has at most 8"), "{e}");
        c.heroes.clear();
        let e = ScenarioFile::from_position(&Case::Targeting(c)).unwrap_err();
        assert!(e.contains("no hero"), "{e}");
    }
}
