//! Headless Bevy app tests of the game loop: phase order, messages, ties, and the same game as the
//! core alone (the loop never decides rules by itself).

use std::path::PathBuf;
use std::sync::Arc;

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use foehold_core::rules::gloomhaven::{
    Action, Event, Game, Gloomhaven, Scenario, Step, TieBreaker,
};
use foehold_core::rules::{Rules, ToMove};
use foehold_loop::*;

fn scenario(name: &str) -> (String, Arc<Scenario>) {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios")
        .join(name);
    let s = Scenario::load(&p).unwrap_or_else(|e| panic!("{e}"));
    (p.display().to_string(), Arc::new(s))
}

/// Phases entered, in order, and what the events said, recorded by ordinary systems.
#[derive(Resource, Default)]
struct Seen {
    phases: Vec<PhaseOf<Gloomhaven>>,
    targeted: Vec<usize>,
    paths: usize,
    drawn: usize,
    resolved: usize,
    died: usize,
    ties: usize,
    refused: usize,
    lines: Vec<String>,
    /// Frames on which a system of the `FoeAttack` stage set ran, with the phase it saw.
    attack_stage: Vec<PhaseOf<Gloomhaven>>,
    /// Times `OnEnter(FoeMovement)` ran.
    movement_entered: usize,
}

type G = Gloomhaven;

fn record(
    state: Res<State<PhaseOf<Gloomhaven>>>,
    mut seen: ResMut<Seen>,
    mut refused: MessageReader<ActionRefused<G>>,
    mut ev: MessageReader<GameEvent<G>>,
) {
    if seen.phases.last() != Some(state.get()) {
        seen.phases.push(*state.get());
    }
    seen.refused += refused.read().count();
    for GameEvent { event, line } in ev.read() {
        match event {
            Event::FoeTargeted { monster, .. } => seen.targeted.push(*monster),
            Event::PathChosen { .. } => seen.paths += 1,
            Event::CardsDrawn { .. } => seen.drawn += 1,
            Event::AttackResolved { .. } => seen.resolved += 1,
            Event::FigureDied { .. } => seen.died += 1,
            Event::TieToBreak { .. } => seen.ties += 1,
            _ => {}
        }
        seen.lines.extend(line.clone());
    }
}

fn in_attack_stage(state: Res<State<PhaseOf<Gloomhaven>>>, mut seen: ResMut<Seen>) {
    seen.attack_stage.push(*state.get());
}

fn entered_movement(mut seen: ResMut<Seen>) {
    seen.movement_entered += 1;
}

fn app(game: Game, settings: LoopSettings) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, GameLoopPlugin::<G>::default()))
        .insert_resource(CoreGame(game))
        .insert_resource(settings)
        .init_resource::<Seen>()
        .add_systems(Update, record.after(LoopSystems::Sync))
        .add_systems(Update, in_attack_stage.in_set(InStage(Step::FoeAttack)))
        .add_systems(
            OnEnter(GamePhase::Stage(Step::FoeMovement)),
            entered_movement,
        );
    app
}

fn core(app: &App) -> &Game {
    &app.world().resource::<CoreGame<G>>().0
}

fn run_to_end(app: &mut App, max_frames: usize) -> usize {
    for frame in 0..max_frames {
        app.update();
        if core(app).state.phase.is_over() {
            // One more frame lets the state mirror the end.
            app.update();
            app.update();
            return frame;
        }
    }
    panic!("the game did not end in {max_frames} frames");
}

fn phase(app: &App) -> PhaseOf<Gloomhaven> {
    *app.world().resource::<State<PhaseOf<Gloomhaven>>>().get()
}

#[test]
fn a_headless_app_plays_a_whole_scenario_and_the_stages_come_in_rule_order() {
    let (path, s) = scenario("tutorial.ron");
    let game = Game::new(s, path, 5, TieBreaker::Seeded).unwrap();
    let mut app = app(game, LoopSettings::HEADLESS);
    run_to_end(&mut app, 20_000);
    let seen = app.world().resource::<Seen>();
    let phases = &seen.phases;
    assert_eq!(phases[0], GamePhase::Idle);
    // With auto_advance the set-up step runs in the first frame, before the state is mirrored.
    assert_eq!(
        phases[1],
        GamePhase::Heroes,
        "heroes choose cards first: {phases:?}"
    );
    assert!(
        matches!(phases.last(), Some(GamePhase::Over { .. })),
        "{phases:?}"
    );
    // Every stage is one the module lists, and a foe's stages come in their order.
    for w in phases.windows(2) {
        if let GamePhase::Stage(name) = w[1] {
            assert!(
                G::STAGES.contains(&name),
                "{name:?} is one of the module's stages"
            );
        }
        let ok = match w[1] {
            GamePhase::Idle | GamePhase::Stage(Step::Setup) => false,
            // A tie between a foe's equal options comes between its targeting and its move; the
            // modifier card of one target (a draw) between its attacks on two targets.
            GamePhase::Stage(Step::FoeMovement) => {
                matches!(w[0], GamePhase::Stage(Step::FoeTargeting) | GamePhase::Tie)
            }
            GamePhase::Stage(Step::FoeAttack) => matches!(
                w[0],
                GamePhase::Stage(Step::FoeMovement | Step::Draw) | GamePhase::Tie
            ),
            GamePhase::Over { .. } => w[0] != GamePhase::Stage(Step::Setup),
            _ => true,
        };
        assert!(ok, "{:?} cannot follow {:?}", w[1], w[0]);
    }
    assert!(!seen.targeted.is_empty() && seen.drawn > 0 && seen.resolved > 0 && seen.died > 0);
    assert_eq!(seen.refused, 0);
    assert!(
        seen.lines.iter().any(|l| l.contains("focuses")),
        "log lines come with the events"
    );
    // The stage's own set and OnEnter ran, and only in their stage.
    assert!(seen.movement_entered > 0, "OnEnter(FoeMovement) ran");
    assert!(!seen.attack_stage.is_empty(), "the FoeAttack set ran");
    assert!(
        seen.attack_stage
            .iter()
            .all(|p| *p == GamePhase::Stage(Step::FoeAttack)),
        "{:?}",
        seen.attack_stage
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
        let looped = core(&app);
        assert_eq!(looped.actions(), alone.actions(), "{name}: same action log");
        assert_eq!(
            looped.state.state_hash(),
            alone.state.state_hash(),
            "{name}: same final state"
        );
        assert_eq!(
            phase(&app),
            GamePhase::of(&alone.to_move()),
            "the Bevy state mirrors whose move it is"
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
        table_draws: false,
        held_elsewhere: false,
    };
    let mut app = app(Game::new(s, path, 1, TieBreaker::Seeded).unwrap(), settings);
    // Setup waits for a step.
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(core(&app).cursor, 0, "nothing happens by itself");
    app.world_mut().write_message(StepRequest);
    app.update();
    assert_eq!(core(&app).cursor, 1, "one step per request");
    // Drive to the first foe targeting, one request per frame, and check the foe steps one by one.
    let mut frames = 0;
    let targeting = GamePhase::Stage(Step::FoeTargeting);
    while GamePhase::of_game(core(&app)) != targeting {
        app.world_mut().write_message(StepRequest);
        app.update();
        frames += 1;
        assert!(frames < 500, "a foe turn comes");
    }
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(GamePhase::of_game(core(&app)), targeting, "the foe waits");
    assert_eq!(phase(&app), targeting, "the state mirrors it");
    app.world_mut().write_message(StepRequest);
    app.update();
    app.update();
    assert_eq!(phase(&app), GamePhase::Stage(Step::FoeMovement));
    assert!(
        !app.world().resource::<Seen>().targeted.is_empty(),
        "the targeting event was sent"
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
        if !matches!(probe.to_move(), ToMove::Tie { .. }) {
            continue;
        }
        let settings = LoopSettings {
            seeded_ties: false,
            autopilot_heroes: true,
            auto_advance: true,
            table_draws: false,
            held_elsewhere: false,
        };
        let mut app = app(
            Game::new(s.clone(), path.clone(), seed, TieBreaker::Table).unwrap(),
            settings,
        );
        for _ in 0..(probe.cursor * 3 + 50) {
            app.update();
        }
        let cursor = core(&app).cursor;
        assert_eq!(cursor, probe.cursor, "the loop stops at the same tie");
        assert!(app.world().resource::<AwaitingChoice>().0);
        assert_eq!(phase(&app), GamePhase::Tie);
        assert!(
            app.world().resource::<Seen>().ties > 0,
            "the tie event was sent"
        );
        app.world_mut()
            .write_message(SubmitAction::<G>(Action::Choose(0)));
        app.update();
        assert!(core(&app).cursor > cursor, "the choice unblocks the loop");
        return;
    }
    panic!("no seed reached a tie");
}

#[test]
fn a_refused_action_comes_back_and_changes_nothing() {
    let (path, s) = scenario("tutorial.ron");
    let mut app = app(
        Game::new(s, path, 1, TieBreaker::Table).unwrap(),
        LoopSettings::default(),
    );
    app.update();
    let before = core(&app).state.clone();
    app.world_mut()
        .write_message(SubmitAction::<G>(Action::Choose(3)));
    app.update();
    assert_eq!(app.world().resource::<Seen>().refused, 1);
    assert_eq!(core(&app).state, before);
}

#[test]
fn the_loop_schedule_has_no_ambiguous_systems() {
    use bevy::ecs::schedule::{LogLevel, ScheduleBuildSettings};
    let (path, s) = scenario("tutorial.ron");
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, GameLoopPlugin::<G>::default()))
        .insert_resource(CoreGame(Game::new(s, path, 1, TieBreaker::Seeded).unwrap()))
        .insert_resource(LoopSettings::HEADLESS);
    app.edit_schedule(Update, |schedule| {
        schedule.set_build_settings(ScheduleBuildSettings {
            ambiguity_detection: LogLevel::Error,
            ..default()
        });
    });
    // An ambiguity makes building the schedule fail, and the update panics with its list.
    for _ in 0..10 {
        app.update();
    }
    assert!(core(&app).cursor > 0);
}

#[test]
fn with_table_draws_the_loop_waits_for_the_outcome_the_players_enter() {
    let (path, s) = scenario("tutorial.ron");
    let settings = LoopSettings {
        table_draws: true,
        ..LoopSettings::HEADLESS
    };
    let mut app = app(Game::new(s, path, 1, TieBreaker::Seeded).unwrap(), settings);
    let mut frames = 0;
    while !matches!(core(&app).to_move(), ToMove::Chance { .. }) {
        app.update();
        frames += 1;
        assert!(frames < 500, "a draw comes");
    }
    let cursor = core(&app).cursor;
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(core(&app).cursor, cursor, "the loop draws nothing itself");
    // The players drew the last card of the pile, not the one the seeded pick would take.
    let outcomes = core(&app).legal_actions(foehold_core::rules::Seat::Chance);
    let entered = outcomes.last().cloned().expect("a draw has outcomes");
    app.world_mut()
        .write_message(SubmitAction::<G>(entered.clone()));
    app.update();
    let game = core(&app);
    assert_eq!(
        game.actions().get(cursor),
        Some(&entered),
        "logged as entered"
    );
    assert!(game.is_decision(cursor), "the players' entry, for undo");
    assert!(
        !game.is_decision(cursor - 1),
        "the rules' step before it is not"
    );
}

#[test]
fn held_elsewhere_the_loop_applies_nothing_and_follows_the_holders_game() {
    let (path, s) = scenario("tutorial.ron");
    let mut settings = LoopSettings {
        seeded_ties: true,
        autopilot_heroes: false,
        auto_advance: true,
        table_draws: false,
        held_elsewhere: false,
    };
    let mut app = app(Game::new(s, path, 1, TieBreaker::Seeded).unwrap(), settings);
    let mut frames = 0;
    while !matches!(core(&app).to_move(), ToMove::Heroes(_)) {
        app.update();
        frames += 1;
        assert!(frames < 500, "the heroes come to decide");
    }
    settings.held_elsewhere = true;
    app.insert_resource(settings);
    let before = core(&app).clone();
    let ToMove::Heroes(heroes) = before.to_move() else {
        unreachable!("waited for the heroes")
    };
    let choice = before
        .legal_actions(foehold_core::rules::Seat::Hero(heroes[0]))
        .into_iter()
        .next()
        .expect("the heroes have a choice");
    app.world_mut()
        .write_message(SubmitAction::<G>(choice.clone()));
    app.update();
    // Still there for the holder to read (online play proposes it), once.
    let out: Vec<Action> = app
        .world_mut()
        .resource_mut::<Messages<SubmitAction<G>>>()
        .drain()
        .map(|SubmitAction(a)| a)
        .collect();
    assert_eq!(out, vec![choice.clone()], "left to the holder, once");
    assert_eq!(core(&app).actions(), before.actions(), "and not applied");
    // The holder applies it (and the other heroes' choices) to the game, up to a step of the
    // rules: that step is the holder's too.
    {
        let mut core = app.world_mut().resource_mut::<CoreGame<G>>();
        let g = &mut core.0;
        g.apply(choice.clone()).expect("legal");
        while g.automatic(true, false).is_none() {
            let ToMove::Heroes(hs) = g.to_move() else {
                panic!("the heroes or the rules move: {:?}", g.to_move());
            };
            let a = g.legal_actions(foehold_core::rules::Seat::Hero(hs[0]))[0].clone();
            g.apply(a).expect("legal");
        }
    }
    let held = core(&app).actions().to_vec();
    let mut stepped = false;
    for _ in 0..10 {
        app.update();
        stepped |= core(&app).actions() != held.as_slice();
    }
    assert!(!stepped, "the loop ran no step of a game held elsewhere");
    assert!(
        core(&app).automatic(true, false).is_some(),
        "though the rules had one to run"
    );
}
