//! Headless app tests: the play, hot-seat and order plugins under `MinimalPlugins`, driven by picking
//! messages (what a click on a mini or a hex becomes) and checked against the game's state.

use std::path::PathBuf;

use bevy::prelude::*;
use foehold_core::game::{Action, FigureId, Half, Phase, autopilot};
use foehold_core::hex::qr;

use super::orders::{Intent, movement, reach};
use super::picking::{Picked, Target};
use super::play::{Driver, Play};
use super::table::{Table, new_game};
use super::{Options, hotseat, minis, orders, play};

/// An app at the first hero turn of the tutorial, the automatic driver paused.
fn app_at_hero_turn() -> App {
    let path = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/tutorial.ron"
    ));
    let mut game = new_game(&path, 7).expect("the tutorial loads");
    while !matches!(game.state.phase, Phase::HeroTurn { .. }) {
        let a = autopilot::next_action(&game.state).expect("the game goes on");
        game.apply(a).expect("autopilot actions are legal");
    }
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        // The keyboard the real window's input plugin provides (undo/redo and pacing keys).
        .init_resource::<ButtonInput<KeyCode>>()
        .insert_resource(Options {
            seed: 7,
            ..Options::default()
        })
        .insert_resource(Table::of_game(&game))
        .insert_resource(Play {
            game,
            scenario: path,
        })
        .add_message::<Picked>()
        .insert_resource(minis::WalkSpeed(1.0))
        .init_resource::<minis::PendingPaths>()
        .init_resource::<super::board::CellMarks>()
        .add_plugins((play::plugin, hotseat::plugin, orders::plugin));
    app.world_mut().resource_mut::<Driver>().paused = true;
    app.update();
    app
}

fn acting_hero(app: &App) -> usize {
    match app.world().resource::<Play>().game.state.phase {
        Phase::HeroTurn { hero, .. } => hero,
        p => panic!("expected a hero turn, got {p:?}"),
    }
}

#[test]
fn clicking_a_reachable_hex_with_a_move_half_moves_the_hero_there() {
    let mut app = app_at_hero_turn();
    let hero = acting_hero(&app);
    let (card, half, points) = {
        let s = &app.world().resource::<Play>().game.state;
        let sel = s.heroes[hero].selected.expect("the hero picked cards");
        // The basic bottom half is always a move 2.
        let effects = s.half_effects(hero, sel[0], Half::Bottom, true);
        (
            sel[0],
            Half::Bottom,
            movement(&effects).expect("a basic bottom moves").0,
        )
    };
    app.world_mut().resource_mut::<Intent>().half = Some((card, half, true));
    let (goal, start) = {
        let s = &app.world().resource::<Play>().game.state;
        let options = reach(s, hero, points, false);
        assert!(
            !options.is_empty(),
            "a hero with move {points} can go somewhere"
        );
        (options.last().expect("non-empty").0, s.heroes[hero].hex)
    };
    app.world_mut()
        .write_message(Picked(Target::Cell(qr(goal))));
    app.update();
    let action = app
        .world()
        .resource::<Intent>()
        .action()
        .expect("a half is chosen");
    match &action {
        Action::Play { path, .. } => {
            assert_eq!(path.last(), Some(&goal), "the path ends on the clicked hex")
        }
        a => panic!("expected a play, got {a:?}"),
    }
    app.world_mut().write_message(play::Act(action));
    app.update();
    let s = &app.world().resource::<Play>().game.state;
    assert_ne!(start, goal);
    assert_eq!(
        s.heroes[hero].hex, goal,
        "the game moved the hero to the clicked hex"
    );
}

#[test]
fn clicking_another_players_hero_is_refused_with_a_message() {
    let mut app = app_at_hero_turn();
    let hero = acting_hero(&app);
    let other = {
        let s = &app.world().resource::<Play>().game.state;
        (0..s.heroes.len())
            .find(|&h| h != hero)
            .expect("the tutorial has two heroes")
    };
    let before = app.world().resource::<Play>().game.state.clone();
    app.world_mut()
        .write_message(Picked(Target::Figure(super::mirror::table_id(
            FigureId::Hero(other),
        ))));
    app.update();
    let message = app
        .world()
        .resource::<Driver>()
        .message
        .clone()
        .map(|m| m.0)
        .unwrap_or_default();
    assert!(message.contains("belongs to Player"), "got {message:?}");
    assert_eq!(
        app.world().resource::<Play>().game.state,
        before,
        "a refused click changes nothing"
    );
}

#[test]
fn undo_takes_back_the_last_action() {
    let mut app = app_at_hero_turn();
    let cursor = app.world().resource::<Play>().game.cursor;
    app.world_mut().write_message(play::Control::Undo);
    app.update();
    assert_eq!(app.world().resource::<Play>().game.cursor, cursor - 1);
    app.world_mut().write_message(play::Control::Redo);
    app.update();
    assert_eq!(app.world().resource::<Play>().game.cursor, cursor);
}
