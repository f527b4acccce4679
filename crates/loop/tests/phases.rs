//! Headless Bevy app tests of the game loop: phase order, messages, ties, and the same game as the
//! core alone (the loop never decides rules by itself).

use std::path::PathBuf;
use std::sync::Arc;

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use foehold_core::rules::gloomhaven::{Action, Game, Scenario, TieBreaker};
use foehold_loop::*;

fn scenario(name: &str) -> (String, Arc<Scenario>) {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios")
        .join(name);
    let s = Scenario::load(&p).unwrap_or_else(|e| panic!("{e}"));
    (p.display().to_string(), Arc::new(s))
}

/// Phases entered, in order, and the messages seen, recorded by ordinary systems.
#[derive(Resource, Default)]
struct Seen {
    phases: Vec<GamePhase>,
    targeted: Vec<usize>,
    paths: usize,
    drawn: usize,
    resolved: usize,
    died: usize,
    ties: usize,
    refused: usize,
    lines: Vec<String>,
}

#[expect(
    clippy::too_many_arguments,
    reason = "a Bevy system takes one parameter per message type it reads"
)]
fn record(
    state: Res<State<GamePhase>>,
    mut seen: ResMut<Seen>,
    mut t: MessageReader<FoeTargeted>,
    mut p: MessageReader<PathChosen>,
    mut d: MessageReader<CardsDrawn>,
    mut r: MessageReader<AttackResolved>,
    mut f: MessageReader<FigureDied>,
    mut ties: MessageReader<TieToBreak>,
    mut refused: MessageReader<ActionRefused>,
    mut ev: MessageReader<GameEvent>,
) {
    if seen.phases.last() != Some(state.get()) {
        seen.phases.push(*state.get());
    }
    seen.targeted.extend(t.read().map(|m| m.monster));
    seen.paths += p.read().count();
    seen.drawn += d.read().count();
    seen.resolved += r.read().count();
    seen.died += f.read().count();
    seen.ties += ties.read().count();
    seen.refused += refused.read().count();
    let lines: Vec<String> = ev.read().filter_map(|e| e.line.clone()).collect();
    seen.lines.extend(lines);
}

fn app(game: Game, settings: LoopSettings) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, GameLoopPlugin))
        .insert_resource(CoreGame(game))
        .insert_resource(settings)
        .init_resource::<Seen>()
        .add_systems(Update, record.after(LoopSet::Sync));
    app
}

fn run_to_end(app: &mut App, max_frames: usize) -> usize {
    for frame in 0..max_frames {
        app.update();
        if app.world().resource::<CoreGame>().0.state.phase.is_over() {
            // One more frame lets the state mirror the end.
            app.update();
            app.update();
            return frame;
        }
    }
    panic!("the game did not end in {max_frames} frames");
}

#[test]
fn a_headless_app_plays_a_whole_scenario_and_the_phases_come_in_rule_order() {
    let (path, s) = scenario("tutorial.ron");
    let game = Game::new(s, path, 5, TieBreaker::Seeded).unwrap();
    let mut app = app(game, LoopSettings::HEADLESS);
    run_to_end(&mut app, 20_000);
    let seen = app.world().resource::<Seen>();
    let phases = &seen.phases;
    assert_eq!(phases[0], GamePhase::Setup);
    assert_eq!(phases[1], GamePhase::CardSelection, "{phases:?}");
    let last = *phases.last().unwrap();
    assert!(
        matches!(last, GamePhase::Victory | GamePhase::Defeat),
        "{phases:?}"
    );
    // Every phase follows one the rules allow before it.
    for w in phases.windows(2) {
        let ok = match w[1] {
            GamePhase::Setup => false,
            GamePhase::CardSelection => matches!(w[0], GamePhase::Setup | GamePhase::RoundEnd),
            GamePhase::HeroTurn | GamePhase::FoeTargeting => {
                matches!(
                    w[0],
                    GamePhase::CardSelection
                        | GamePhase::HeroTurn
                        | GamePhase::FoeTargeting
                        | GamePhase::FoeMovement
                        | GamePhase::FoeAttack
                )
            }
            GamePhase::FoeMovement => w[0] == GamePhase::FoeTargeting,
            GamePhase::FoeAttack => w[0] == GamePhase::FoeMovement,
            GamePhase::RoundEnd => matches!(
                w[0],
                GamePhase::HeroTurn
                    | GamePhase::FoeAttack
                    | GamePhase::FoeTargeting
                    | GamePhase::FoeMovement
                    | GamePhase::CardSelection
            ),
            GamePhase::Victory | GamePhase::Defeat => w[0] != GamePhase::Setup,
        };
        assert!(ok, "{:?} cannot follow {:?}", w[1], w[0]);
    }
    assert!(!seen.targeted.is_empty() && seen.drawn > 0 && seen.resolved > 0 && seen.died > 0);
    assert_eq!(seen.refused, 0);
    assert!(
        seen.lines.iter().any(|l| l.contains("focuses")),
        "log lines come with the events"
    );
}

#[test]
fn the_loop_plays_exactly_the_game_the_core_plays_alone() {
    for (name, seed) in [("tutorial.ron", 2), ("sunken-kiln.ron", 4)] {
        let (path, s) = scenario(name);
        let mut alone = Game::new(s.clone(), path.clone(), seed, TieBreaker::Seeded).unwrap();
        alone.play_out(100_000, |_, _, _| {});
        let mut app = app(
            Game::new(s, path, seed, TieBreaker::Seeded).unwrap(),
            LoopSettings::HEADLESS,
        );
        run_to_end(&mut app, 50_000);
        let looped = &app.world().resource::<CoreGame>().0;
        assert_eq!(looped.actions(), alone.actions(), "{name}: same action log");
        assert_eq!(
            looped.state.state_hash(),
            alone.state.state_hash(),
            "{name}: same final state"
        );
        let phase = *app.world().resource::<State<GamePhase>>().get();
        assert_eq!(
            phase,
            GamePhase::of(alone.state.phase),
            "the Bevy state mirrors the core phase"
        );
    }
}

#[test]
fn without_auto_advance_a_foe_steps_only_when_asked() {
    let (path, s) = scenario("tutorial.ron");
    let settings = LoopSettings {
        seeded_ties: true,
        autopilot_heroes: true,
        auto_advance: false,
    };
    let mut app = app(Game::new(s, path, 1, TieBreaker::Seeded).unwrap(), settings);
    // Setup waits for a step.
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(
        app.world().resource::<CoreGame>().0.cursor,
        0,
        "nothing happens by itself"
    );
    app.world_mut().write_message(StepFoe);
    app.update();
    assert_eq!(
        app.world().resource::<CoreGame>().0.cursor,
        1,
        "one step per request"
    );
    // Drive to the first foe targeting, one request per frame, and check the foe steps one by one.
    let mut frames = 0;
    let core_phase = |app: &App| GamePhase::of(app.world().resource::<CoreGame>().0.state.phase);
    while core_phase(&app) != GamePhase::FoeTargeting {
        app.world_mut().write_message(StepFoe);
        app.update();
        frames += 1;
        assert!(frames < 500, "a foe turn comes");
    }
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(core_phase(&app), GamePhase::FoeTargeting, "the foe waits");
    assert_eq!(
        *app.world().resource::<State<GamePhase>>().get(),
        GamePhase::FoeTargeting,
        "the state mirrors it"
    );
    app.world_mut().write_message(StepFoe);
    app.update();
    app.update();
    assert_eq!(
        *app.world().resource::<State<GamePhase>>().get(),
        GamePhase::FoeMovement
    );
    assert!(
        !app.world().resource::<Seen>().targeted.is_empty(),
        "FoeTargeted was sent"
    );
}

#[test]
fn a_table_game_waits_at_a_tie_until_an_action_chooses() {
    // Find a seed where the table (no seeded ties) reaches a tie.
    let (path, s) = scenario("sunken-kiln.ron");
    for seed in 0..30 {
        let mut probe = Game::new(s.clone(), path.clone(), seed, TieBreaker::Table).unwrap();
        while let Some(a) = probe.auto_action() {
            probe.apply(a).unwrap();
        }
        if probe.state.pending.is_none() {
            continue;
        }
        let settings = LoopSettings {
            seeded_ties: false,
            autopilot_heroes: true,
            auto_advance: true,
        };
        let mut app = app(
            Game::new(s.clone(), path.clone(), seed, TieBreaker::Table).unwrap(),
            settings,
        );
        for _ in 0..(probe.cursor * 3 + 50) {
            app.update();
        }
        let cursor = app.world().resource::<CoreGame>().0.cursor;
        assert_eq!(cursor, probe.cursor, "the loop stops at the same tie");
        assert!(app.world().resource::<AwaitingChoice>().0);
        assert!(
            app.world().resource::<Seen>().ties > 0,
            "TieToBreak was sent"
        );
        app.world_mut()
            .write_message(SubmitAction(Action::Choose(0)));
        app.update();
        assert!(
            app.world().resource::<CoreGame>().0.cursor > cursor,
            "the choice unblocks the loop"
        );
        return;
    }
    panic!("no seed reached a tie");
}
