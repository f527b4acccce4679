//! The position lab headless: a case file opens on the bench, clicks paint with the brush in hand,
//! refused edits say why, Ctrl+Z undoes, and the answer's marks follow every edit.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;

use super::{LAYER, LabBench, LabTools, open_case};
use crate::app::board::{CellMarks, Mark, RebuildBoard};
use crate::app::focus::Typing;
use crate::app::picking::{Picked, Target};
use crate::app::table::Table;
use crate::app::view::Ground;

/// A path in the repository (the table's crate is two folders down).
fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// The lab under `MinimalPlugins`, on a case file: what the board drawing, picking and egui would
/// add is inserted bare.
fn lab_app(case: &str) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin))
        .init_resource::<ButtonInput<KeyCode>>()
        .init_resource::<CellMarks>()
        .init_resource::<Typing>()
        .add_message::<Picked>()
        .add_message::<RebuildBoard>()
        .add_plugins((crate::app::screen::plugin, super::plugin));
    let path = repo(case);
    let text = std::fs::read_to_string(&path).unwrap();
    open_case(app.world_mut(), &path.display().to_string(), &text).unwrap();
    app.update();
    app
}

fn marks(app: &App, mark: Mark) -> Vec<(i32, i32)> {
    let layers = &app.world().resource::<CellMarks>().layers;
    layers
        .get(LAYER)
        .map(|l| {
            l.iter()
                .filter(|(_, m)| **m == mark)
                .map(|(k, _)| *k)
                .collect()
        })
        .unwrap_or_default()
}

fn click(app: &mut App, brush: &str, cell: (i32, i32)) {
    app.world_mut().resource_mut::<LabTools>().brush = brush.into();
    app.world_mut().write_message(Picked(Target::Cell(cell)));
    app.update();
}

#[test]
fn a_puzzle_opens_in_the_lab_and_its_tied_ends_light_up() {
    let app = lab_app("tests/puzzles/e2-001.ron");
    let table = app.world().resource::<Table>();
    // The active monster and the two characters.
    assert_eq!(table.figures.len(), 3);
    assert!(
        table
            .board
            .cells
            .iter()
            .any(|c| c.ground == Ground::Outside)
    );
    // e2-001's three equal outcomes end on (4, 2), (4, 3) and (5, 1): the players' tie.
    assert_eq!(marks(&app, Mark::Tie), [(4, 2), (4, 3), (5, 1)]);
}

#[test]
fn a_click_paints_a_refused_one_says_why_and_ctrl_z_takes_an_edit_back() {
    let mut app = lab_app("tests/puzzles/e2-001.ron");
    let before = app.world().resource::<LabBench>().0.answer().clone();
    // A wall on the monster's way: the board is built again with it, the answer follows.
    click(&mut app, "wall", (4, 2));
    let ground = |app: &App, k| {
        app.world()
            .resource::<Table>()
            .board
            .cells
            .iter()
            .find(|c| c.key == k)
            .map(|c| c.ground)
    };
    assert_eq!(ground(&app, (4, 2)), Some(Ground::Wall));
    let after = app.world().resource::<LabBench>().0.answer().clone();
    assert_ne!(after, before);
    assert!(!marks(&app, Mark::Tie).contains(&(4, 2)));
    // A wall under a character is refused, with the reason, and nothing changes.
    click(&mut app, "wall", (6, 2));
    let tools = app.world().resource::<LabTools>();
    assert!(
        tools
            .refused
            .as_deref()
            .is_some_and(|r| r.contains("figure")),
        "{:?}",
        tools.refused
    );
    assert_eq!(app.world().resource::<LabBench>().0.history(), (1, 0));
    // Ctrl+Z: the wall goes.
    {
        let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
        keys.press(KeyCode::ControlLeft);
        keys.press(KeyCode::KeyZ);
    }
    app.update();
    assert_eq!(app.world().resource::<LabBench>().0.history(), (0, 1));
    assert_eq!(ground(&app, (4, 2)), Some(Ground::Floor));
    assert_eq!(app.world().resource::<LabBench>().0.answer(), &before);
}

#[test]
fn a_figure_moves_in_two_clicks_and_a_character_placed_joins_the_table() {
    let mut app = lab_app("tests/puzzles/e2-001.ron");
    click(&mut app, super::MOVE, (7, 2));
    click(&mut app, super::MOVE, (8, 1));
    let table = app.world().resource::<Table>();
    assert!(table.figure_at((8, 1)).is_some() && table.figure_at((7, 2)).is_none());
    click(&mut app, "character", (9, 0));
    let table = app.world().resource::<Table>();
    assert_eq!(table.figures.len(), 4);
    assert_eq!(app.world().resource::<LabTools>().selected, Some((9, 0)));
}
