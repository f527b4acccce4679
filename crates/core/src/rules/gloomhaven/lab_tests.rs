//! The lab's Gloomhaven-family positions: written and read back unchanged, answered as `solve` does.

use super::Gloomhaven;
use super::case::{Puzzle, solve};
use crate::lab::{Bench, Lab, Value, json_cell, round_trip};
use crate::rules::view::Ground;

fn puzzles() -> Vec<(String, String)> {
    crate::lab::case_files("tests/puzzles")
}

#[test]
fn every_shipped_puzzle_is_written_out_and_read_back_unchanged_with_the_same_answer() {
    let all = puzzles();
    assert!(all.len() >= 10, "{}", all.len());
    for (file, text) in all {
        let (p, _, theirs) = round_trip::<Gloomhaven>(&file, &text);
        let lab = Gloomhaven::answer(&p);
        let options = theirs.json["options"].as_array().unwrap();
        assert_eq!(lab.choices.len(), options.len(), "{file}");
        for (c, o) in lab.choices.iter().zip(options) {
            assert_eq!(c.end, json_cell(&o["end"]), "{file}");
        }
    }
}

#[test]
fn a_position_set_up_by_brushes_is_answered_after_every_edit() {
    let mut b = Bench::<Gloomhaven>::new(Gloomhaven::blank());
    let one = b.answer().clone();
    assert_eq!(one.choices.len(), 1, "{one:?}");
    assert_eq!(one.choices[0].end, Some((0, 0)));
    assert_eq!(one.choices[0].targets, [(1, -1)]);
    // A second character as near, with the same initiative: a focus tie the players break.
    b.edit(|p| Gloomhaven::paint(p, "character", (-1, -1), None))
        .unwrap();
    b.edit(|p| Gloomhaven::set(p, Some((-1, -1)), "initiative", Value::Number(10)))
        .unwrap();
    let tied = b.answer().clone();
    let foci: Vec<_> = tied.choices.iter().flat_map(|c| c.focus.clone()).collect();
    assert!(
        foci.contains(&(1, -1)) && foci.contains(&(-1, -1)),
        "{tied:?}"
    );
    // An obstacle on the way to one of them changes the answer.
    b.edit(|p| Gloomhaven::paint(p, "obstacle", (0, 0), None))
        .unwrap();
    let before = tied;
    let view = Gloomhaven::position_view(b.position());
    let cell = view.cells.iter().find(|c| c.key == (0, 0)).unwrap();
    assert_eq!(cell.ground, Ground::Obstacle);
    assert!(view.cells.iter().any(|c| c.ground == Ground::Outside));
    assert_eq!(b.history(), (3, 0));
    // The same brush again takes it off; undo and redo walk the edits.
    assert!(b.undo());
    assert_eq!(b.answer(), &before);
    assert!(b.redo());
    assert_ne!(b.answer(), &before);
    // Painting floor beyond the board adds to it.
    b.edit(|p| Gloomhaven::paint(p, "floor", (4, 0), None))
        .unwrap();
    assert!(b.position().map.hexes.contains(&(4, 0)));
    // The file the bench writes is a case `solve` answers as the lab does.
    let answer = solve("lab", &b.file()).unwrap();
    assert_eq!(answer.verdict, None);
    assert_eq!(
        answer.json["options"].as_array().unwrap().len(),
        b.answer().choices.len()
    );
}

#[test]
fn a_refused_edit_says_why_and_changes_nothing() {
    let mut b = Bench::<Gloomhaven>::new(Gloomhaven::blank());
    let start: Puzzle = b.position().clone();
    let answer = b.answer().clone();
    for (edit, why) in [
        (
            b.edit(|p| Gloomhaven::set(p, None, "move", Value::Number(65))),
            "expected a number from 0 to 64",
        ),
        (
            b.edit(|p| Gloomhaven::paint(p, "wall", (1, -1), None)),
            "a figure stands there",
        ),
        (
            b.edit(|p| Gloomhaven::paint(p, "erase", (-1, 1), None)),
            "active monster",
        ),
        (
            b.edit(|p| Gloomhaven::paint(p, "thin-wall", (0, 0), Some((2, 0)))),
            "neighbouring",
        ),
        // Checked by the file's own loader: a character off the board.
        (b.edit(|p| Gloomhaven::drag(p, (1, -1), (9, 9))), "(9, 9)"),
        (
            b.edit(|p| Gloomhaven::paint(p, "character", (1_001, 0), None)),
            "within ±1000",
        ),
    ] {
        let e = edit.unwrap_err();
        assert!(e.contains(why), "{e}");
        assert_eq!(b.position(), &start);
        assert_eq!(b.answer(), &answer);
        assert_eq!(b.history(), (0, 0));
    }
}
