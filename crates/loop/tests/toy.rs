//! The game loop running the test-only toy module (one hero, one foe, dice as chance outcomes):
//! proof that neither the loop nor the game depends on Gloomhaven.

use std::sync::Arc;

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use foehold_core::game::Game;
use foehold_core::rules::toy::{self, Step, Toy};
use foehold_core::rules::{Present, Rules, TieBreaker, ToMove, state_hash};
use foehold_loop::*;

fn new_game(seed: u64) -> Game<Toy> {
    let scenario = Toy::parse_scenario("toy.ron", toy::SCENARIO).expect("the toy scenario parses");
    Game::new(Arc::new(scenario), "toy.ron", seed, TieBreaker::Seeded).expect("the toy sets up")
}

/// Phases entered, in order, and the log lines the loop's events carried.
#[derive(Resource, Default)]
struct Seen {
    phases: Vec<PhaseOf<Toy>>,
    lines: Vec<String>,
    /// Frames on which a system of the `Roll` stage set ran.
    roll_stage: usize,
}

fn record(
    state: Res<State<PhaseOf<Toy>>>,
    mut seen: ResMut<Seen>,
    mut ev: MessageReader<GameEvent<Toy>>,
) {
    if seen.phases.last() != Some(state.get()) {
        seen.phases.push(*state.get());
    }
    for GameEvent { line, .. } in ev.read() {
        seen.lines.extend(line.clone());
    }
}

fn in_roll_stage(mut seen: ResMut<Seen>) {
    seen.roll_stage += 1;
}

fn app(game: Game<Toy>) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        StatesPlugin,
        GameLoopPlugin::<Toy>::default(),
    ))
    .insert_resource(CoreGame(game))
    .insert_resource(LoopSettings::HEADLESS)
    .init_resource::<Seen>()
    .add_systems(Update, record.after(LoopSystems::Sync))
    .add_systems(Update, in_roll_stage.in_set(InStage(Step::Roll)));
    app
}

#[test]
fn the_loop_plays_the_toy_exactly_as_the_game_alone() {
    let mut won = 0;
    for seed in 0..12 {
        let mut alone = new_game(seed);
        let mut lines = Vec::new();
        alone.play_out(10_000, |s, _, ev| {
            lines.extend(ev.iter().filter_map(|e| Toy::describe(s, e)));
        });
        let over = alone.to_move();
        assert!(matches!(over, ToMove::Over { .. }), "seed {seed}: {over:?}");
        won += usize::from(over == ToMove::Over { won: true });

        let mut app = app(new_game(seed));
        for _ in 0..10_000 {
            app.update();
            if matches!(
                app.world().resource::<State<PhaseOf<Toy>>>().get(),
                GamePhase::Over { .. }
            ) {
                break;
            }
        }
        let looped = &app.world().resource::<CoreGame<Toy>>().0;
        assert_eq!(looped.actions(), alone.actions(), "seed {seed}: same log");
        assert_eq!(state_hash(&looped.state), state_hash(&alone.state));
        let seen = app.world().resource::<Seen>();
        assert_eq!(
            seen.lines, lines,
            "seed {seed}: the loop's events tell the same story"
        );
        // The dice are stages like any other: the loop enters them and runs their set.
        assert!(
            seen.phases.contains(&GamePhase::Stage(Step::Roll)),
            "seed {seed}"
        );
        assert!(
            seen.phases.contains(&GamePhase::Stage(Step::FoeMove)),
            "seed {seed}"
        );
        assert!(
            seen.roll_stage > 0,
            "seed {seed}: the Roll stage's systems ran"
        );
        assert_eq!(seen.phases.last(), Some(&GamePhase::of(&over)));
    }
    assert!(won > 0 && won < 12, "the toy is won and lost: {won} of 12");
}
