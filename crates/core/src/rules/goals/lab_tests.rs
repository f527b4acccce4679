//! The lab's goal-priority positions: written and read back unchanged, answered as `solve` does.

use super::case::{GoalTurn, solve};
use super::{FOE_BASE, Goals};
use crate::lab::{Bench, Lab, Value};
use crate::rules::view::{Ground, Side};

fn cases() -> Vec<(String, String)> {
    crate::lab::case_files("tests/conformance/goals")
}

/// [`crate::lab::round_trip`] for goal-priority turns: the written text.
fn round_trip(file: &str, text: &str) -> String {
    crate::lab::round_trip::<Goals>(file, text).1
}

#[test]
fn every_shipped_case_is_written_out_and_read_back_unchanged_with_the_same_answer() {
    let all = cases();
    assert!(all.len() >= 10, "{}", all.len());
    for (file, text) in all {
        let written = round_trip(&file, &text);
        assert!(written.starts_with("GoalTurn("), "{written}");
        let theirs = solve(&file, &text).unwrap();
        assert!(
            theirs.verdict.is_some(),
            "{file}: a shipped case has an answer"
        );
        let lab = Goals::answer(&Goals::read(&file, &text).unwrap());
        assert_eq!(lab.text, theirs.text, "{file}");
        let outcomes = theirs.json["outcomes"].as_array().unwrap();
        assert_eq!(lab.choices.len(), outcomes.len(), "{file}");
        for (c, o) in lab.choices.iter().zip(outcomes) {
            assert_eq!(c.end, crate::lab::json_cell(&o["end"]), "{file}");
            // A walk ends where the foe does.
            assert!(c.path.last().is_none_or(|h| Some(*h) == c.end), "{c:?}");
        }
    }
}

#[test]
fn an_unstack_either_way_and_a_hurt_foe_travel_through_the_written_file() {
    let (file, text) = cases()
        .into_iter()
        .find(|(f, _)| f.ends_with("gh-007.ron"))
        .unwrap();
    for form in [
        "Some((foe: \"Foe 8\", to: (3, 0)))",
        "Some((\"Foe 8\", (3, 0)))",
    ] {
        let changed = text
            .replacen(
                "minion: None, unstack: None",
                &format!("minion: None, unstack: {form}"),
                1,
            )
            .replacen("entered_from: None)", "entered_from: None, hurt: true)", 1);
        assert_ne!(changed, text);
        let written = round_trip(&file, &changed);
        assert_eq!(written.matches("hurt: true").count(), 1, "{written}");
        // Left out where false, as the format allows.
        assert!(!written.contains("hurt: false"), "{written}");
    }
}

#[test]
fn a_position_set_up_by_brushes_is_answered_after_every_edit() {
    let mut b = Bench::<Goals>::new(Goals::blank());
    let one = b.answer().clone();
    assert_eq!(one.choices.len(), 1, "{one:?}");
    let c = &one.choices[0];
    assert_eq!(c.from, Some((-2, 0)));
    assert_eq!(c.end, Some((1, 0)));
    assert_eq!(c.targets, [(2, 0)]);
    assert_eq!(c.path, [(-1, 0), (0, 0), (1, 0)]);
    assert!(one.summary.contains("Attack option 2"), "{}", one.summary);
    assert!(one.why.len() > 1, "{one:?}");

    // A second hero as valid and as stealthy: the override card leaves both, the players choose.
    b.edit(|p| Goals::paint(p, "hero", (0, -3), None)).unwrap();
    let targets = |b: &Bench<Goals>| {
        let mut t: Vec<_> = b
            .answer()
            .choices
            .iter()
            .flat_map(|c| c.targets.clone())
            .collect();
        t.sort_unstable();
        t.dedup();
        t
    };
    assert_eq!(targets(&b), [(0, -3), (2, 0)], "{:?}", b.answer());
    // The highest Stealth is the second hero's once it is raised, the lowest the first's.
    b.edit(|p| Goals::set(p, Some((0, -3)), "stealth", Value::Number(6)))
        .unwrap();
    assert_eq!(targets(&b), [(0, -3)], "{:?}", b.answer());
    b.edit(|p| Goals::set(p, None, "pick", Value::Choice("Lowest".into())))
        .unwrap();
    assert_eq!(targets(&b), [(2, 0)], "{:?}", b.answer());
    assert_eq!(b.answer().choices.len(), 1, "{:?}", b.answer());

    // Woods on the straight way cost 2: three spaces next to the hero now cost the same.
    let before = b.answer().clone();
    b.edit(|p| Goals::paint(p, "woods", (0, 0), None)).unwrap();
    assert!(b.answer().choices.len() > 1, "{:?}", b.answer());
    assert!(b.answer().summary.contains("the players choose"));
    let view = Goals::position_view(b.position());
    let ground = |v: &crate::rules::view::TableView, h| {
        v.cells.iter().find(|c| c.key == h).map(|c| c.ground)
    };
    assert_eq!(ground(&view, (0, 0)), Some(Ground::Woods));
    assert_eq!(b.history(), (4, 0));
    // Undo and redo walk the edits.
    assert!(b.undo());
    assert_eq!(b.answer(), &before);
    assert!(b.redo());
    assert_ne!(b.answer(), &before);

    // A Dome key stamped whole beyond the board, a hero dragged into its Dome, adventure and loot.
    b.edit(|p| Goals::paint(p, "dome-key", (0, 6), None))
        .unwrap();
    b.edit(|p| Goals::drag(p, (0, -3), (0, 6))).unwrap();
    b.edit(|p| Goals::paint(p, "adventure", (-3, 3), None))
        .unwrap();
    b.edit(|p| Goals::paint(p, "loot", (-3, 0), None)).unwrap();
    b.edit(|p| Goals::paint(p, "floor", (4, -1), None)).unwrap();
    let view = Goals::position_view(b.position());
    let count = |g| view.cells.iter().filter(|c| c.ground == g).count();
    assert_eq!((count(Ground::Dome), count(Ground::DomeGap)), (4, 6));
    assert_eq!(ground(&view, (-3, 3)), Some(Ground::Adventure));
    assert_eq!(ground(&view, (4, -1)), Some(Ground::Floor));
    assert!(count(Ground::Outside) > 0);
    assert!(view.tokens.iter().any(|t| t.cell == (-3, 0)));
    let hero = view.figures.iter().find(|f| f.cell == (0, 6)).unwrap();
    assert_eq!(hero.side, Side::Hero);
    assert!(hero.conditions.iter().any(|c| c == "in a Dome"), "{hero:?}");
    assert_eq!(view.active, Some(FOE_BASE));
    let foe = view.figures.iter().find(|f| Some(f.id) == view.active);
    assert!(foe.is_some_and(|f| f.side == Side::Foe && f.cell == (-2, 0)));

    // The file the bench writes is a question `solve` answers as the lab does.
    let file = b.file();
    assert!(!file.contains("expect"), "{file}");
    let answer = solve("lab", &file).unwrap();
    assert_eq!(answer.verdict, None);
    assert_eq!(answer.text, b.answer().text);
    assert_eq!(
        answer.json["outcomes"].as_array().unwrap().len(),
        b.answer().choices.len()
    );
}

#[test]
fn every_number_field_has_the_loaders_bounds() {
    let mut b = Bench::<Goals>::new(Goals::blank());
    b.edit(|p| Goals::paint(p, "loot", (2, 0), None)).unwrap();
    for (field, on) in [("weapon", true), ("minion_card", true)] {
        b.edit(|p| Goals::set(p, Some((-2, 0)), field, Value::Flag(on)))
            .unwrap();
    }
    for at in [(2, 0), (-2, 0)] {
        b.edit(|p| Goals::set(p, Some(at), "aura", Value::Choice("Hinder".into())))
            .unwrap();
        let numbers: Vec<_> = Goals::fields(b.position(), Some(at))
            .into_iter()
            .filter(|f| matches!(f.value, Value::Number(_)))
            .collect();
        assert!(numbers.len() >= 8, "{numbers:?}");
        // Highest from the last field up and lowest from the first down, so that a weapon's
        // nearest range never passes its farthest on the way.
        for f in numbers.iter().rev() {
            b.edit(|p| Goals::set(p, Some(at), &f.id, Value::Number(f.bounds.1)))
                .unwrap_or_else(|e| panic!("{}: {e}", f.id));
        }
        for f in &numbers {
            b.edit(|p| Goals::set(p, Some(at), &f.id, Value::Number(f.bounds.0)))
                .unwrap_or_else(|e| panic!("{}: {e}", f.id));
        }
        let start = b.position().clone();
        let history = b.history();
        for f in &numbers {
            let (lo, hi) = f.bounds;
            for beyond in [lo - 1, hi + 1] {
                let e = b
                    .edit(|p| Goals::set(p, Some(at), &f.id, Value::Number(beyond)))
                    .unwrap_err();
                assert_eq!(e, format!("{beyond}: expected a number from {lo} to {hi}"));
            }
        }
        assert_eq!(b.position(), &start);
        assert_eq!(b.history(), history);
    }
}

#[test]
fn a_refused_edit_says_why_and_changes_nothing() {
    let mut b = Bench::<Goals>::new(Goals::blank());
    b.edit(|p| Goals::paint(p, "wall", (0, 2), None)).unwrap();
    b.edit(|p| Goals::paint(p, "dome-key", (0, -6), None))
        .unwrap();
    let start: GoalTurn = b.position().clone();
    let answer = b.answer().clone();
    let history = b.history();
    assert_eq!(history, (2, 0));
    for (edit, why) in [
        (
            b.edit(|p| Goals::set(p, Some((2, 0)), "speed", Value::Number(65))),
            "65: expected a number from 0 to 64",
        ),
        (
            b.edit(|p| Goals::set(p, Some((2, 0)), "melee", Value::Number(-101))),
            "-101: expected a number from -100 to 100",
        ),
        (
            b.edit(|p| Goals::set(p, None, "stealth", Value::Number(3))),
            "no field `stealth` here",
        ),
        (
            b.edit(|p| Goals::set(p, None, "mode", Value::Choice("Flee".into()))),
            "expected one of Attack",
        ),
        (
            b.edit(|p| Goals::paint(p, "hero", (0, 2), None)),
            "is a wall",
        ),
        (b.edit(|p| Goals::drag(p, (2, 0), (0, 2))), "is a wall"),
        (
            b.edit(|p| Goals::paint(p, "wall", (2, 0), None)),
            "a figure stands there",
        ),
        // Stamped over a wall, over another key, and with a Dome under the foe.
        (
            b.edit(|p| Goals::paint(p, "dome-key", (0, 1), None)),
            "(0, 2) is a wall",
        ),
        (
            b.edit(|p| Goals::paint(p, "dome-key", (0, -4), None)),
            "overlap key `Key 1`",
        ),
        (
            b.edit(|p| Goals::paint(p, "dome-key", (-2, 0), None)),
            "Foe 1 stands in a Dome",
        ),
        (
            b.edit(|p| Goals::paint(p, "erase", (-2, 0), None)),
            "active foe",
        ),
        (
            b.edit(|p| Goals::paint(p, "remove", (-2, 0), None)),
            "active foe",
        ),
        (
            b.edit(|p| Goals::paint(p, "remove", (3, -3), None)),
            "no figure stands there",
        ),
        (
            b.edit(|p| Goals::paint(p, "active", (2, 0), None)),
            "a hero stands there",
        ),
        (
            b.edit(|p| Goals::paint(p, "lava", (0, 0), None)),
            "no brush `lava`",
        ),
        // Checked by the file's own loader, in its words.
        (
            b.edit(|p| Goals::paint(p, "blocked", (2, 0), None)),
            "Hero 1 stands on prohibited terrain",
        ),
        (
            b.edit(|p| Goals::set(p, Some((2, 0)), "name", Value::Text("Foe 1".into()))),
            "used twice",
        ),
        (
            b.edit(|p| Goals::set(p, Some((-2, 0)), "acted", Value::Flag(true))),
            "has already acted",
        ),
        (
            b.edit(|p| Goals::drag(p, (2, 0), (9, 9))),
            "(9, 9) is not a space of the board",
        ),
        (
            b.edit(|p| Goals::paint(p, "foe", (256, 0), None)),
            "within ±255",
        ),
    ] {
        let e = edit.unwrap_err();
        assert!(e.contains(why), "{e}");
        assert_eq!(b.position(), &start);
        assert_eq!(b.answer(), &answer);
        assert_eq!(b.history(), history);
    }
}

#[test]
fn the_same_brush_again_takes_off_what_it_put() {
    let mut b = Bench::<Goals>::new(Goals::blank());
    let keys = |b: &Bench<Goals>| b.position().board.dome_keys.len();
    // A key stamped, then taken off by the stamp on any of its hexes: the hexes stay.
    b.edit(|p| Goals::paint(p, "dome-key", (0, 6), None))
        .unwrap();
    assert_eq!(keys(&b), 1);
    b.edit(|p| Goals::paint(p, "dome-key", (0, 5), None))
        .unwrap();
    assert_eq!(keys(&b), 0);
    assert!(b.position().board.hexes.contains(&(0, 5)));
    // Erasing one hex of a key takes the key with it: a key is ten hexes or none.
    b.edit(|p| Goals::paint(p, "dome-key", (0, 6), None))
        .unwrap();
    b.edit(|p| Goals::paint(p, "erase", (0, 5), None)).unwrap();
    assert_eq!(keys(&b), 0);
    assert!(!b.position().board.hexes.contains(&(0, 5)));
    // An adventure space next to another joins its adventure; painted again, it leaves it.
    b.edit(|p| Goals::paint(p, "adventure", (-3, 3), None))
        .unwrap();
    b.edit(|p| Goals::paint(p, "adventure", (-3, 2), None))
        .unwrap();
    let adventures = |b: &Bench<Goals>| {
        let a = &b.position().board.adventures;
        a.iter().map(|a| a.spaces.clone()).collect::<Vec<_>>()
    };
    assert_eq!(adventures(&b), [vec![(-3, 2), (-3, 3)]]);
    b.edit(|p| Goals::paint(p, "adventure", (-3, 3), None))
        .unwrap();
    assert_eq!(adventures(&b), [vec![(-3, 2)]]);
    // Loot on, its value set, loot off.
    b.edit(|p| Goals::paint(p, "loot", (0, 0), None)).unwrap();
    b.edit(|p| Goals::set(p, Some((0, 0)), "cards", Value::Number(2)))
        .unwrap();
    assert_eq!(b.position().board.loot[0].cards, 2);
    b.edit(|p| Goals::paint(p, "loot", (0, 0), None)).unwrap();
    assert!(b.position().board.loot.is_empty());
    // Woods painted twice is plain ground again.
    b.edit(|p| Goals::paint(p, "woods", (0, 0), None)).unwrap();
    b.edit(|p| Goals::paint(p, "woods", (0, 0), None)).unwrap();
    assert!(b.position().board.woods.is_empty());
}

#[test]
fn another_foe_made_active_acts_and_keeps_its_name_when_renamed() {
    let mut b = Bench::<Goals>::new(Goals::blank());
    b.edit(|p| Goals::paint(p, "foe", (1, -3), None)).unwrap();
    b.edit(|p| Goals::paint(p, "active", (1, -3), None))
        .unwrap();
    assert_eq!(b.position().active, "Foe 2");
    b.edit(|p| Goals::set(p, Some((1, -3)), "name", Value::Text("Warden".into())))
        .unwrap();
    assert_eq!(b.position().active, "Warden");
    let answer = b.answer();
    assert!(answer.summary.starts_with("Warden"), "{}", answer.summary);
    assert!(
        answer.choices.iter().all(|c| c.from == Some((1, -3))),
        "{answer:?}"
    );
    // The foe no longer active may now leave the board; a hero put in its place replaces it.
    b.edit(|p| Goals::paint(p, "hero", (-2, 0), None)).unwrap();
    assert_eq!(b.position().foes.len(), 1);
    assert_eq!(b.position().heroes.len(), 2);
    b.edit(|p| Goals::paint(p, "remove", (-2, 0), None))
        .unwrap();
    assert_eq!(b.position().heroes.len(), 1);
    assert_eq!(b.history(), (5, 0));
}
