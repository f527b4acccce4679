//! The lab's Brimstone board cases: written and read back unchanged, answered as `solve` does.

use super::Brimstone;
use super::case::solve;
use super::lab::Case;
use crate::lab::{Bench, Lab, Value};
use crate::rules::case::top_level_name;
use crate::rules::view::{GridKind, Ground, Side};
use crate::square::range;
use std::collections::BTreeSet;

type Sq = (i32, i32);

fn cases() -> Vec<(String, String)> {
    crate::lab::case_files("tests/conformance/brimstone")
}

fn sq(v: &serde_json::Value) -> Sq {
    crate::lab::json_cell(v).unwrap()
}

fn heroes(p: &Case) -> Vec<(String, Sq)> {
    let list = match p {
        Case::Placement(c) => &c.heroes,
        Case::Targeting(c) => &c.heroes,
    };
    list.iter().map(|h| (h.name.clone(), h.at)).collect()
}

/// The lab's answer for a position says what `solve` says of its file: the same text, the same
/// rule steps, and one choice per listed outcome or layout, drawn where the JSON puts it.
fn agrees_with_solve(p: &Case) {
    let file = Brimstone::write(p);
    let solved = solve("lab", &file).unwrap_or_else(|e| panic!("{e}\n{file}"));
    let lab = Brimstone::answer(p);
    assert_eq!(lab.text, solved.text);
    assert!(!lab.summary.is_empty() && !lab.summary.contains('\n'));
    for step in &lab.why {
        assert!(solved.text.contains(&format!("  - {step}\n")), "{step}");
    }
    let hero_at = |name: &str| {
        heroes(p)
            .into_iter()
            .find(|(n, _)| n == name)
            .map(|(_, s)| s)
            .unwrap()
    };
    match p {
        Case::Targeting(c) => {
            let outcomes = solved.json["outcomes"].as_array().unwrap();
            assert_eq!(lab.choices.len(), outcomes.len(), "{file}");
            for (choice, o) in lab.choices.iter().zip(outcomes) {
                let end = sq(&o["end"]);
                assert_eq!(choice.from, Some(c.active.at));
                assert_eq!(choice.end, Some(end));
                // The walk goes one step at a time from where it stands to where it ends.
                let mut at = c.active.at;
                for &s in &choice.path {
                    assert_eq!(range(at, s), 1, "{:?}", choice.path);
                    at = s;
                }
                assert_eq!(at, end, "{:?}", choice.path);
                let targets: Vec<Sq> = o["targets"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| hero_at(t.as_str().unwrap()))
                    .collect();
                assert_eq!(choice.targets, targets);
            }
        }
        Case::Placement(_) => {
            let layouts = solved.json["layouts"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            assert_eq!(lab.choices.len(), layouts.len(), "{file}");
            for (choice, l) in lab.choices.iter().zip(&layouts) {
                let want: BTreeSet<Sq> = l["at"].as_object().unwrap().values().map(sq).collect();
                let got: BTreeSet<Sq> = choice.targets.iter().copied().collect();
                assert_eq!(got, want);
                assert_eq!(choice.targets.len(), want.len());
            }
        }
    }
}

/// Every square of every tile is a cell, walls as walls; cells off the tiles are offered around
/// them; heroes and enemies stand where the file puts them.
fn view_shows(p: &Case) {
    let view = Brimstone::position_view(p);
    assert_eq!(view.grid, GridKind::Square);
    assert!(view.thin_walls.is_empty());
    let (board, enemies) = match p {
        Case::Placement(c) => (&c.board, Vec::new()),
        Case::Targeting(c) => (
            &c.board,
            std::iter::once(c.active.at)
                .chain(c.enemies.iter().map(|e| e.at))
                .collect(),
        ),
    };
    for t in &board.tiles {
        for x in t.x..t.x + t.w {
            for y in t.y..t.y + t.h {
                let cell = view.cells.iter().find(|c| c.key == (x, y)).unwrap();
                let wall = board.walls.contains(&(x, y));
                assert_eq!(cell.ground == Ground::Wall, wall, "{:?}", (x, y));
                assert_ne!(cell.ground, Ground::Outside);
            }
        }
    }
    let keys: BTreeSet<Sq> = view.cells.iter().map(|c| c.key).collect();
    assert_eq!(keys.len(), view.cells.len(), "a cell listed twice");
    assert!(view.cells.iter().any(|c| c.ground == Ground::Outside));
    let on_board: Vec<Sq> = heroes(p).iter().map(|h| h.1).collect();
    let of = |side| -> BTreeSet<Sq> {
        view.figures
            .iter()
            .filter(|f| f.side == side)
            .map(|f| f.cell)
            .collect()
    };
    assert_eq!(of(Side::Hero), on_board.into_iter().collect());
    assert_eq!(of(Side::Foe), enemies.iter().copied().collect());
    match p {
        Case::Targeting(c) => {
            let active = view.figures.iter().find(|f| Some(f.id) == view.active);
            assert_eq!(active.map(|f| f.cell), Some(c.active.at));
            assert!(active.is_some_and(|f| f.card.iter().any(|l| l.contains("Move"))));
        }
        Case::Placement(_) => assert_eq!(view.active, None),
    }
}

#[test]
fn every_shipped_board_case_is_written_out_and_read_back_unchanged_with_the_same_answer() {
    let (mut boards, mut others) = (0, 0);
    for (file, text) in cases() {
        let kind = top_level_name(&text).unwrap().1;
        if !matches!(kind, "Placement" | "Targeting") {
            // The kinds without a board are refused with a reason, not misread.
            let e = Brimstone::read(&file, &text).unwrap_err();
            assert!(
                e.message.contains(kind) && e.message.contains("no board"),
                "{e}"
            );
            others += 1;
            continue;
        }
        let (p, written, theirs) = crate::lab::round_trip::<Brimstone>(&file, &text);
        assert!(written.starts_with(kind), "{written}");
        // A shipped case has an expected answer, and it travels with the file.
        assert!(theirs.verdict.is_some(), "{file}");
        agrees_with_solve(&p);
        view_shows(&p);
        boards += 1;
    }
    assert!(boards >= 10 && others >= 4, "{boards} {others}");
}

#[test]
fn a_position_set_up_by_brushes_is_answered_after_every_edit() {
    let mut b = Bench::<Brimstone>::new(Brimstone::blank());
    let check = |b: &Bench<Brimstone>| {
        agrees_with_solve(b.position());
        view_shows(b.position());
        assert_eq!(b.answer(), &Brimstone::answer(b.position()));
    };
    check(&b);
    let targets = |b: &Bench<Brimstone>| -> BTreeSet<Sq> {
        b.answer()
            .choices
            .iter()
            .flat_map(|c| c.targets.clone())
            .collect()
    };
    // Both heroes are within the hound's reach: it may go for either.
    assert_eq!(targets(&b), BTreeSet::from([(1, 0), (4, 0)]));

    // A second tile beside the first, and Wes walks to its far corner, out of the hound's reach.
    b.edit(|p| Brimstone::paint(p, "tile", (6, 0), None))
        .unwrap();
    check(&b);
    b.edit(|p| Brimstone::drag(p, (4, 0), (9, 3))).unwrap();
    check(&b);
    assert_eq!(targets(&b), BTreeSet::from([(1, 0)]));

    // A row of wall squares across the first tile cuts Vera off too.
    let mut answers = vec![b.answer().clone()];
    for x in 0..6 {
        b.edit(|p| Brimstone::paint(p, "wall", (x, 2), None))
            .unwrap();
        check(&b);
        answers.push(b.answer().clone());
    }
    assert!(targets(&b).is_empty(), "{:?}", b.answer());
    assert_eq!(b.history(), (8, 0));
    // Undo walks the walls back one at a time, each with its answer; redo walks them again.
    for a in answers.iter().rev().skip(1) {
        assert!(b.undo());
        assert_eq!(b.answer(), a);
    }
    for a in answers.iter().skip(1) {
        assert!(b.redo());
        assert_eq!(b.answer(), a);
    }
    assert!(!b.redo());
    // Floor takes the wall square under the hound off again: Vera is two steps away.
    b.edit(|p| Brimstone::paint(p, "floor", (2, 2), None))
        .unwrap();
    check(&b);
    assert_eq!(targets(&b), BTreeSet::from([(1, 0)]));

    // Another hound and a foe of another type: the count of its type follows the brush.
    b.edit(|p| Brimstone::paint(p, "kin", (4, 3), None))
        .unwrap();
    b.edit(|p| Brimstone::paint(p, "enemy", (8, 0), None))
        .unwrap();
    check(&b);
    let Case::Targeting(c) = b.position() else {
        panic!("a Targeting case")
    };
    assert_eq!(c.active.same_type_count, 2);
    assert_eq!(c.enemies.len(), 2);
    b.edit(|p| Brimstone::paint(p, "remove", (4, 3), None))
        .unwrap();
    let Case::Targeting(c) = b.position() else {
        panic!("a Targeting case")
    };
    assert_eq!(c.active.same_type_count, 1);

    // A marker by brush, then set exactly in the side panel.
    b.edit(|p| Brimstone::paint(p, "marker", (1, 0), None))
        .unwrap();
    let markers = |b: &Bench<Brimstone>| {
        Brimstone::fields(b.position(), Some((1, 0)))
            .into_iter()
            .find(|f| f.id == "markers")
            .map(|f| f.value)
    };
    assert_eq!(markers(&b), Some(Value::Number(1)));
    b.edit(|p| Brimstone::set(p, Some((1, 0)), "markers", Value::Number(3)))
        .unwrap();
    assert_eq!(markers(&b), Some(Value::Number(3)));

    // The answer kept as the expected one: `solve` then finds that it holds.
    b.edit(|p| Brimstone::set(p, None, "expect", Value::Flag(true)))
        .unwrap();
    check(&b);
    assert_eq!(solve("lab", &b.file()).unwrap().verdict, Some(Ok(())));
    assert!(b.answer().summary.contains("expected answer holds"));
    // Vera is named in it: she stays until the expectation goes.
    let kept = b.history();
    let e = b
        .edit(|p| Brimstone::paint(p, "remove", (1, 0), None))
        .unwrap_err();
    assert!(e.contains("the expected answer names `Vera`"), "{e}");
    assert_eq!(b.history(), kept);
    // Renaming Vera renames her in the expected answer too, which still holds.
    b.edit(|p| Brimstone::set(p, Some((1, 0)), "name", Value::Text("Zed".into())))
        .unwrap();
    assert_eq!(solve("lab", &b.file()).unwrap().verdict, Some(Ok(())));
    b.edit(|p| Brimstone::set(p, None, "expect", Value::Flag(false)))
        .unwrap();
    assert_eq!(solve("lab", &b.file()).unwrap().verdict, None);

    // Cutting a square out of the first tile splits it; the board is still a case.
    let tiles = |b: &Bench<Brimstone>| match b.position() {
        Case::Targeting(c) => c.board.tiles.len(),
        Case::Placement(c) => c.board.tiles.len(),
    };
    let before = tiles(&b);
    b.edit(|p| Brimstone::paint(p, "erase", (3, 1), None))
        .unwrap();
    check(&b);
    assert_eq!(tiles(&b), before + 3);
    let view = Brimstone::position_view(b.position());
    let cell = view.cells.iter().find(|c| c.key == (3, 1)).unwrap();
    assert_eq!(cell.ground, Ground::Outside);

    // The same board as a Placement: the hound's type is one group, placed on its tile.
    b.edit(|p| Brimstone::set(p, None, "kind", Value::Choice("Placement".into())))
        .unwrap();
    check(&b);
    assert!(!b.answer().choices.is_empty());
    b.edit(|p| Brimstone::set(p, None, "groups", Value::Number(2)))
        .unwrap();
    b.edit(|p| Brimstone::set(p, None, "group.2.models", Value::Number(3)))
        .unwrap();
    b.edit(|p| Brimstone::set(p, None, "group.2.style", Value::Choice("Shootout".into())))
        .unwrap();
    b.edit(|p| Brimstone::set(p, None, "ambush", Value::Flag(true)))
        .unwrap();
    check(&b);
    let Case::Placement(c) = b.position() else {
        panic!("a Placement case")
    };
    assert_eq!(c.groups[1].models.len(), 3);
    // The new group's models are named as a type of their own.
    assert!(c.groups[1].models.iter().all(|m| !m.starts_with("Hound")));
    assert!(b.answer().summary.starts_with("Ambush"), "{:?}", b.answer());
    // The fight tile by brush: the tile clicked.
    b.edit(|p| Brimstone::paint(p, "fight-tile", (7, 1), None))
        .unwrap();
    let Case::Placement(c) = b.position() else {
        panic!("a Placement case")
    };
    assert_eq!(c.fight_tile, "B");
    check(&b);

    // And back: the first layout's models stand where it put them, the first one activates.
    let first = b.answer().choices[0].targets.clone();
    b.edit(|p| Brimstone::set(p, None, "kind", Value::Choice("Targeting".into())))
        .unwrap();
    check(&b);
    let Case::Targeting(c) = b.position() else {
        panic!("a Targeting case")
    };
    let standing: BTreeSet<Sq> = std::iter::once(c.active.at)
        .chain(c.enemies.iter().map(|e| e.at))
        .collect();
    assert_eq!(standing, first.into_iter().collect());
    // Every edit above is one step back.
    let (undo, redo) = b.history();
    assert_eq!(redo, 0);
    for _ in 0..undo {
        assert!(b.undo());
    }
    assert!(!b.undo());
    assert_eq!(b.position(), &Brimstone::blank());
}

#[test]
fn a_refused_edit_says_why_and_changes_nothing() {
    let mut b = Bench::<Brimstone>::new(Brimstone::blank());
    // A wall square to bump into.
    b.edit(|p| Brimstone::paint(p, "wall", (3, 2), None))
        .unwrap();
    let start = b.position().clone();
    let answer = b.answer().clone();
    let history = b.history();
    for (edit, why) in [
        (
            b.edit(|p| Brimstone::set(p, None, "move", Value::Number(65))),
            "65: expected a number from 0 to 64",
        ),
        (
            b.edit(|p| Brimstone::set(p, None, "same_type_count", Value::Number(0))),
            "0: expected a number from 1 to 64",
        ),
        (
            b.edit(|p| Brimstone::set(p, None, "retreat_roll", Value::Number(7))),
            "7: expected a number from 0 to 6",
        ),
        (
            b.edit(|p| Brimstone::set(p, Some((1, 0)), "markers", Value::Number(101))),
            "101: expected a number from 0 to 100",
        ),
        (
            b.edit(|p| Brimstone::set(p, None, "current_target", Value::Choice("Nobody".into()))),
            "expected one of None, Vera, Wes",
        ),
        // Checked by the file's own loader: a shooter needs a range.
        (
            b.edit(|p| Brimstone::set(p, None, "behaviour", Value::Choice("Ranged".into()))),
            "needs `range` of at least 1",
        ),
        (
            b.edit(|p| Brimstone::set(p, None, "fight_tile", Value::Choice("A".into()))),
            "no field `fight_tile` here",
        ),
        (
            b.edit(|p| Brimstone::paint(p, "wall", (1, 0), None)),
            "a figure stands there",
        ),
        (
            b.edit(|p| Brimstone::paint(p, "remove", (2, 3), None)),
            "stays on the board",
        ),
        (
            b.edit(|p| Brimstone::paint(p, "erase", (2, 3), None)),
            "stays on the board",
        ),
        (
            b.edit(|p| Brimstone::paint(p, "fight-tile", (0, 0), None)),
            "only a Placement case",
        ),
        (
            b.edit(|p| Brimstone::paint(p, "lava", (0, 0), None)),
            "no brush `lava`",
        ),
        (
            b.edit(|p| Brimstone::drag(p, (1, 0), (4, 0))),
            "another figure stands there",
        ),
        // A figure on a wall square or off the board: the loader's own words.
        (
            b.edit(|p| Brimstone::drag(p, (1, 0), (3, 2))),
            "`Vera` stands on (3, 2): expected a board square",
        ),
        (
            b.edit(|p| Brimstone::drag(p, (2, 3), (9, 9))),
            "`Hound 1` stands on (9, 9)",
        ),
        (
            b.edit(|p| Brimstone::paint(p, "hero", (1_001, 0), None)),
            "(1001, 0): expected a board square",
        ),
        (
            b.edit(|p| Brimstone::paint(p, "tile", (3, 3), None)),
            "overlap",
        ),
    ] {
        let e = edit.unwrap_err();
        assert!(e.contains(why), "{e}");
        assert_eq!(b.position(), &start);
        assert_eq!(b.answer(), &answer);
        assert_eq!(b.history(), history);
    }
}
