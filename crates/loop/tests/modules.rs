//! Two rule modules' loops in one app: the game on the table is whichever module's `CoreGame` is
//! there, and switching one for the other leaves nothing of the first running.

use std::path::PathBuf;
use std::sync::Arc;

use bevy::ecs::schedule::{LogLevel, ScheduleBuildSettings};
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use foehold_core::game::Game;
use foehold_core::rules::gloomhaven::{Gloomhaven, Scenario};
use foehold_core::rules::toy::{self, Toy};
use foehold_core::rules::{Rules, TieBreaker, ToMove};
use foehold_loop::*;

fn toy_game(seed: u64) -> Game<Toy> {
    let scenario = Toy::parse_scenario("toy.ron", toy::SCENARIO).expect("the toy scenario parses");
    Game::new(Arc::new(scenario), "toy.ron", seed, TieBreaker::Seeded).expect("the toy sets up")
}

fn tutorial(seed: u64) -> Game<Gloomhaven> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/tutorial.ron");
    let s = Scenario::load(&p).unwrap_or_else(|e| panic!("{e}"));
    Game::new(
        Arc::new(s),
        p.display().to_string(),
        seed,
        TieBreaker::Seeded,
    )
    .expect("sets up")
}

/// Lines each module's events carried.
#[derive(Resource, Default)]
struct Heard {
    toy: usize,
    gloomhaven: usize,
}

fn hear(
    mut heard: ResMut<Heard>,
    mut toy: MessageReader<GameEvent<Toy>>,
    mut gloomhaven: MessageReader<GameEvent<Gloomhaven>>,
) {
    heard.toy += toy.read().count();
    heard.gloomhaven += gloomhaven.read().count();
}

/// The phase of module `R`'s game.
fn phase<R: Rules>(app: &App) -> PhaseOf<R> {
    *app.world().resource::<State<PhaseOf<R>>>().get()
}

/// Updates until the game of rules `R` is over (or `frames` pass); the frames it took.
fn play_out<R: Rules>(app: &mut App, frames: usize) -> usize {
    for n in 1..=frames {
        app.update();
        if matches!(
            app.world().resource::<CoreGame<R>>().0.to_move(),
            ToMove::Over { .. }
        ) {
            return n;
        }
    }
    frames
}

#[test]
fn two_modules_share_one_app_and_the_table_switches_between_them() {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        StatesPlugin,
        GameLoopPlugin::<Toy>::default(),
        GameLoopPlugin::<Gloomhaven>::default(),
    ))
    .insert_resource(LoopSettings::HEADLESS)
    .init_resource::<Heard>()
    .add_systems(Update, hear.after(LoopSystems::Sync));
    // Systems of two modules that could touch the same resource in one frame fail the build.
    app.edit_schedule(Update, |schedule| {
        schedule.set_build_settings(ScheduleBuildSettings {
            ambiguity_detection: LogLevel::Error,
            ..default()
        });
    });
    // No game yet: nothing runs, nothing fails.
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(phase::<Toy>(&app), GamePhase::Idle);
    assert_eq!(phase::<Gloomhaven>(&app), GamePhase::Idle);

    // The toy plays to its end as it does alone.
    app.insert_resource(CoreGame(toy_game(5)));
    let frames = play_out::<Toy>(&mut app, 2_000);
    let alone = {
        let mut g = toy_game(5);
        while let Some(a) = g.automatic(true, true) {
            g.apply(a).expect("the automatic action is legal");
        }
        g
    };
    let toy = &app.world().resource::<CoreGame<Toy>>().0;
    assert_eq!(toy.state, alone.state, "after {frames} frames");
    app.update();
    assert!(matches!(phase::<Toy>(&app), GamePhase::Over { .. }));
    let heard = app.world().resource::<Heard>();
    assert!(heard.toy > 0 && heard.gloomhaven == 0);

    // Switch: the toy's game goes, a Gloomhaven game comes; each module's phase follows its game.
    app.world_mut().remove_resource::<CoreGame<Toy>>();
    app.insert_resource(CoreGame(tutorial(2)));
    app.update();
    app.update();
    let g = &app.world().resource::<CoreGame<Gloomhaven>>().0;
    assert!(g.cursor > 0, "the Gloomhaven loop plays");
    assert_eq!(phase::<Gloomhaven>(&app), GamePhase::of_game(g));
    assert_eq!(phase::<Toy>(&app), GamePhase::Idle, "the toy's game went");
    let heard_toy = app.world().resource::<Heard>().toy;
    play_out::<Gloomhaven>(&mut app, 20_000);
    assert!(matches!(
        app.world().resource::<CoreGame<Gloomhaven>>().0.to_move(),
        ToMove::Over { .. }
    ));
    let heard = app.world().resource::<Heard>();
    assert_eq!(heard.toy, heard_toy, "the toy's loop stayed still");
    assert!(heard.gloomhaven > 0);

    // Taken off the table with none after it: the phase goes back to idle.
    app.world_mut().remove_resource::<CoreGame<Gloomhaven>>();
    app.update();
    app.update();
    assert_eq!(phase::<Gloomhaven>(&app), GamePhase::Idle);
}
