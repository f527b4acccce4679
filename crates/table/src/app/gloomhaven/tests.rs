//! The Gloomhaven table headless: the driver and this module's part under `MinimalPlugins`, driven
//! by picking messages (what a click on a mini or a hex becomes) and checked against the game's
//! state; and the table going from a Gloomhaven scenario to a Brimstone one and back in place.

use std::path::PathBuf;

use bevy::prelude::*;
use foehold_core::hex::qr;
use foehold_core::rules::Present;
use foehold_core::rules::gloomhaven::state::Pending;
use foehold_core::rules::gloomhaven::{
    Action, FigureId, Gloomhaven, Half, Phase, TieBreaker, autopilot,
};
use foehold_loop::SubmitAction;

use super::CoreGame;
use super::orders::{Intent, movement, reach};
use crate::app::driver::AtRisk;
use crate::app::driver::{Control, Keeping, Log, Pace};
use crate::app::picking::{Picked, Target};
use crate::app::table::Table;

type Game = foehold_core::game::Game<Gloomhaven>;

fn scenario_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios")
        .join(name)
}

/// A new game of the scenario file `name`, as the table starts it.
fn new_game(path: &std::path::Path, seed: u64) -> Result<Game, String> {
    let text = foehold_desktop::files::read_file(path).map_err(|e| e.to_string())?;
    crate::app::driver::open::new_game::<Gloomhaven>(
        &path.display().to_string(),
        &text,
        &foehold_core::library::Library::default(),
        seed,
    )
}

/// The table's driver with `game` on it, headless, the players seated and the rules paused.
fn app_with(game: Game) -> App {
    let mut app = crate::app::driver::tests::headless(game.seed);
    crate::app::driver::open::install::<Gloomhaven>(app.world_mut(), game, false);
    app.world_mut()
        .resource_mut::<crate::app::driver::Seats>()
        .ready = true;
    app.world_mut().resource_mut::<Pace>().paused = true;
    app.update();
    app
}

/// An app at the first hero turn of the tutorial.
fn app_at_hero_turn() -> App {
    let path = scenario_path("tutorial.ron");
    let mut game = new_game(&path, 7).expect("the tutorial loads");
    while !matches!(game.state.phase, Phase::HeroTurn { .. }) {
        let a = autopilot::next_action(&game.state).expect("the game goes on");
        game.apply(a).expect("autopilot actions are legal");
    }
    app_with(game)
}

fn acting_hero(app: &App) -> usize {
    match app.world().resource::<CoreGame>().0.state.phase {
        Phase::HeroTurn { hero, .. } => hero,
        p => panic!("expected a hero turn, got {p:?}"),
    }
}

#[test]
fn clicking_a_reachable_hex_with_a_move_half_moves_the_hero_there() {
    let mut app = app_at_hero_turn();
    let hero = acting_hero(&app);
    let (card, half, points) = {
        let s = &app.world().resource::<CoreGame>().0.state;
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
        let s = &app.world().resource::<CoreGame>().0.state;
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
            assert_eq!(path.last(), Some(&goal), "the path ends on the clicked hex");
        }
        a => panic!("expected a play, got {a:?}"),
    }
    app.world_mut()
        .write_message(SubmitAction::<Gloomhaven>(action));
    app.update();
    let s = &app.world().resource::<CoreGame>().0.state;
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
        let s = &app.world().resource::<CoreGame>().0.state;
        (0..s.heroes.len())
            .find(|&h| h != hero)
            .expect("the tutorial has two heroes")
    };
    let before = app.world().resource::<CoreGame>().0.state.clone();
    app.world_mut().write_message(Picked(Target::Figure(
        foehold_core::rules::gloomhaven::table_id(FigureId::Hero(other)),
    )));
    app.update();
    let message = app
        .world()
        .resource::<Pace>()
        .message
        .clone()
        .map(|m| m.0)
        .unwrap_or_default();
    assert!(message.contains("belongs to Player"), "got {message:?}");
    assert_eq!(
        app.world().resource::<CoreGame>().0.state,
        before,
        "a refused click changes nothing"
    );
}

#[test]
fn undo_takes_back_the_last_decision_with_the_rules_steps_after_it() {
    let mut app = app_at_hero_turn();
    let (cursor, back) = {
        let g = &app.world().resource::<CoreGame>().0;
        (g.cursor, g.decision_before())
    };
    {
        let g = &app.world().resource::<CoreGame>().0;
        assert!(
            (back + 1..cursor).all(|i| !g.is_decision(i)) && cursor - back > 1,
            "the reveal and the draws came after the last pick"
        );
    }
    app.world_mut().write_message(Control::Undo);
    app.update();
    let g = &app.world().resource::<CoreGame>().0;
    assert_eq!(g.cursor, back, "one undo goes back past the rules' steps");
    assert_eq!(g.state.phase, Phase::CardSelection, "to the pick itself");
    app.world_mut().write_message(Control::Redo);
    app.update();
    assert_eq!(app.world().resource::<CoreGame>().0.cursor, cursor);
}

#[test]
fn a_ctrl_z_pressed_and_released_within_one_frame_still_undoes() {
    let mut app = app_at_hero_turn();
    let back = app.world().resource::<CoreGame>().0.decision_before();
    {
        let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
        keys.press(KeyCode::ControlLeft);
        keys.press(KeyCode::KeyZ);
        keys.release(KeyCode::KeyZ);
        keys.release(KeyCode::ControlLeft);
    }
    app.update();
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .clear();
    assert_eq!(app.world().resource::<CoreGame>().0.cursor, back);
    // A Z alone is no undo.
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .press(KeyCode::KeyZ);
    app.update();
    assert_eq!(app.world().resource::<CoreGame>().0.cursor, back);
}

#[test]
fn the_table_steps_an_enemy_turn_through_the_loop_and_keeps_it_for_replay() {
    let path = scenario_path("tutorial.ron");
    let mut game = new_game(&path, 3).expect("the tutorial loads");
    while !matches!(game.state.phase, Phase::FoeTurn { .. }) {
        let a = autopilot::next_action(&game.state).expect("the game goes on");
        game.apply(a).expect("autopilot actions are legal");
    }
    let mut app = app_with(game);
    let start = app.world().resource::<CoreGame>().0.cursor;
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(
        app.world().resource::<CoreGame>().0.cursor,
        start,
        "paused: the foe waits"
    );
    {
        let mut d = app.world_mut().resource_mut::<Pace>();
        d.paused = false;
        // Fast enough that the test does not wait for the animations' pace.
        d.speed = 1.0e6;
        d.wait = 0.0;
    }
    let mut frames = 0;
    while matches!(
        app.world().resource::<CoreGame>().0.state.phase,
        Phase::FoeTurn { .. }
    ) && app.world().resource::<CoreGame>().0.state.pending.is_none()
    {
        app.update();
        frames += 1;
        assert!(
            frames < 2000,
            "the enemy turns end; still at {:?}",
            app.world().resource::<CoreGame>().0.state.phase
        );
    }
    let g = &app.world().resource::<CoreGame>().0;
    assert!(g.cursor > start, "the loop applied the foe's steps");
    let record = app
        .world()
        .resource::<crate::app::driver::follow::Record<Gloomhaven>>();
    assert!(!record.steps.is_empty(), "the last enemy turn is kept");
    let (before, at) = record.before.clone().expect("with the state before it");
    // Replaying the recorded steps from the state before them gives the state after them.
    let mut replayed = before;
    for a in &record.steps {
        replayed
            .apply(a.clone())
            .expect("recorded steps apply again");
    }
    assert_eq!(replayed, g.replay_prefix(at + record.steps.len()));
    assert!(
        !app.world().resource::<Log>().told.log.is_empty(),
        "the log shows what happened"
    );
}

#[test]
fn a_tie_is_broken_by_clicking_one_of_its_highlighted_hexes() {
    let path = scenario_path("sunken-kiln.ron");
    let scenario =
        foehold_core::rules::gloomhaven::Scenario::load(&path).expect("the scenario loads");
    let scenario = std::sync::Arc::new(scenario);
    for seed in 0..40 {
        let mut game = Game::new(
            scenario.clone(),
            path.display().to_string(),
            seed,
            TieBreaker::Table,
        )
        .expect("sets up");
        while let Some(a) = game.auto_action() {
            game.apply(a).expect("autopilot actions are legal");
        }
        let Some(Pending::FoeOption { options, .. }) = game.state.pending.clone() else {
            continue;
        };
        // An option whose end hex no other option ends on or attacks: one click names it.
        let unique = (0..options.len()).find(|&i| {
            let e = options[i].end;
            (0..options.len())
                .filter(|&j| options[j].end == e || options[j].targets.contains(&e))
                .count()
                == 1
        });
        let Some(i) = unique else { continue };
        let cursor = game.cursor;
        let mut app = app_with(game);
        let marks = app
            .world()
            .resource::<crate::app::board::CellMarks>()
            .merged();
        let cell = qr(options[i].end);
        assert_eq!(
            marks.get(&cell),
            Some(&crate::app::board::Mark::Tie),
            "the option's end hex lights up"
        );
        app.world_mut().write_message(Picked(Target::Cell(cell)));
        app.update();
        let g = &app.world().resource::<CoreGame>().0;
        assert_eq!(g.cursor, cursor + 1, "the click became one action");
        assert_eq!(
            g.log[cursor],
            Action::Choose(i),
            "the clicked option was chosen"
        );
        return;
    }
    panic!("no seed reached a tie with an option one click can name");
}

#[test]
fn whole_games_play_to_their_end_through_the_table() {
    for (name, seed) in [("tutorial.ron", 5), ("sunken-kiln.ron", 3)] {
        play_through_the_table(name, seed);
    }
}

/// The players' moves (cards, hero turns, rests, ties) go in as the table's own actions, as clicks
/// and panels send them; the enemy turns are stepped by the table's driver through the loop.
fn play_through_the_table(name: &str, seed: u64) {
    let path = scenario_path(name);
    let game = new_game(&path, seed).expect("the scenario loads");
    let mut app = app_with(game);
    {
        let mut d = app.world_mut().resource_mut::<Pace>();
        d.paused = false;
        d.speed = 1.0e6;
        d.wait = 0.0;
    }
    let mut frames = 0;
    let mut money_seen = false;
    loop {
        let s = app.world().resource::<CoreGame>().0.state.clone();
        // The table draws exactly the module's view: its figures and its tokens.
        let table = app.world().resource::<Table>();
        let view = Gloomhaven::view(&s);
        assert_eq!(table.figures, view.figures);
        assert_eq!(table.tokens, view.tokens);
        money_seen |= !s.money.is_empty();
        if s.phase.is_over() {
            break;
        }
        if s.pending.is_some() {
            app.world_mut()
                .write_message(SubmitAction::<Gloomhaven>(Action::Choose(
                    s.seeded_pick(s.pending_options()),
                )));
        } else if super::players_turn(&s) {
            let a = autopilot::next_action(&s).expect("a player's move");
            app.world_mut().write_message(SubmitAction::<Gloomhaven>(a));
        }
        app.update();
        frames += 1;
        assert!(frames < 20_000, "the game ends; still at {:?}", s.phase);
    }
    let g = &app.world().resource::<CoreGame>().0;
    assert!(g.state.phase.is_over());
    assert!(money_seen, "{name}: a fallen foe leaves money on the board");
    // The table's game is an ordinary game: its log replays to the same state.
    assert_eq!(g.replay_prefix(g.cursor), g.state);
    let log = &app.world().resource::<Log>().told.log;
    assert!(
        log.iter()
            .any(|l| l.contains("VICTORY") || l.contains("DEFEAT")),
        "the log ends with the result"
    );
}

#[test]
fn card_picks_stay_off_the_log_until_everyone_has_chosen() {
    let path = scenario_path("tutorial.ron");
    let mut game = new_game(&path, 2).expect("the tutorial loads");
    while game.state.phase != Phase::CardSelection {
        let a = autopilot::next_action(&game.state).expect("the game goes on");
        game.apply(a).expect("autopilot actions are legal");
    }
    let mut app = app_with(game);
    let picks = |app: &App| {
        app.world()
            .resource::<Log>()
            .told
            .log
            .iter()
            .filter(|l| l.contains(" picks "))
            .count()
    };
    let pick = |app: &mut App| {
        let s = app.world().resource::<CoreGame>().0.state.clone();
        let a = autopilot::next_action(&s).expect("a hero picks");
        assert!(matches!(a, Action::SelectCards { .. }), "got {a:?}");
        app.world_mut().write_message(SubmitAction::<Gloomhaven>(a));
        app.update();
    };
    pick(&mut app);
    let log = app.world().resource::<Log>().told.log.clone();
    assert!(
        log.iter().any(|l| l.ends_with("has chosen")),
        "the log says a choice was made: {log:?}"
    );
    assert_eq!(picks(&app), 0, "but not which cards");
    pick(&mut app);
    assert_eq!(picks(&app), 0, "still secret before the reveal");
    // The reveal is a rules step, and each monster type's ability card a draw (a chance step).
    app.world_mut().resource_mut::<Pace>().paused = false;
    for _ in 0..10 {
        if picks(&app) == 2 {
            break;
        }
        app.world_mut().resource_mut::<Pace>().wait = 0.0;
        app.update();
    }
    assert_eq!(picks(&app), 2, "both picks are shown at the reveal");
}

/// The table's log as the game's own action log tells it.
fn told_again(app: &App) -> Vec<String> {
    let g = &app.world().resource::<CoreGame>().0;
    crate::app::driver::told::retell(g).0.log
}

#[test]
fn undo_and_redo_leave_a_log_that_matches_the_game() {
    let mut app = app_at_hero_turn();
    let before = app.world().resource::<Log>().told.log.clone();
    assert_eq!(
        before,
        told_again(&app),
        "a new table tells the game so far"
    );
    assert!(!before.is_empty());
    for _ in 0..3 {
        app.world_mut().write_message(Control::Undo);
        app.update();
    }
    let undone = app.world().resource::<Log>().told.log.clone();
    assert_eq!(undone, told_again(&app), "after undo");
    assert!(undone.len() < before.len(), "undone lines are gone");
    assert!(!undone.iter().any(|l| l.contains("undone")));
    for _ in 0..3 {
        app.world_mut().write_message(Control::Redo);
        app.update();
    }
    assert_eq!(
        app.world().resource::<Log>().told.log,
        before,
        "redo brings every line back"
    );
}

#[test]
fn a_history_jump_back_into_an_enemy_turn_keeps_the_future_to_redo() {
    let path = scenario_path("tutorial.ron");
    let mut game = new_game(&path, 3).expect("the tutorial loads");
    // Play past the first enemy turn.
    let mut foe_step = None;
    while game.state.round < 2 {
        if foe_step.is_none() && matches!(game.state.phase, Phase::FoeTurn { .. }) {
            foe_step = Some(game.cursor);
        }
        let a = game.auto_action().expect("the game goes on");
        game.apply(a).expect("autopilot actions are legal");
    }
    let foe_step = foe_step.expect("an enemy acted in round 1");
    let end = game.cursor;
    let mut app = app_with(game);
    {
        let mut d = app.world_mut().resource_mut::<Pace>();
        d.paused = false;
        d.speed = 1.0e6;
        d.wait = 0.0;
    }
    app.world_mut().write_message(Control::JumpTo(foe_step));
    for _ in 0..20 {
        app.update();
    }
    let g = &app.world().resource::<CoreGame>().0;
    assert_eq!(g.cursor, foe_step, "the foes did not run on after the jump");
    assert_eq!(g.log.len(), end, "the future is still there");
    assert!(app.world().resource::<Pace>().paused);
    app.world_mut().write_message(Control::JumpTo(end));
    app.update();
    assert_eq!(
        app.world().resource::<CoreGame>().0.cursor,
        end,
        "and redo gets it back"
    );
    let history = &app.world().resource::<Log>().history;
    assert_eq!(history.len(), end, "one history line per action");
    assert!(
        history
            .iter()
            .any(|l| l.text.starts_with("round 1 · ") && l.text.contains(" acts")),
        "history lines say the round and who acted: {history:?}"
    );
}

#[test]
fn a_loaded_game_shows_its_log_and_counts_as_saved() {
    let mut app = app_at_hero_turn();
    // The game was played before the table took it: nothing of it is saved.
    app.world_mut().resource_mut::<Keeping>().saved_at = Some(0);
    let dir = std::env::temp_dir().join(format!("foehold-table-{}", std::process::id()));
    let file = dir.join("loaded.ron");
    {
        let g = &app.world().resource::<CoreGame>().0;
        let saved_at = app.world().resource::<Keeping>().saved_at;
        assert!(AtRisk::of(g, saved_at).0 > 0, "moves since the start");
    }
    app.world_mut().write_message(Control::Save(file.clone()));
    app.update();
    {
        let g = &app.world().resource::<CoreGame>().0;
        let saved_at = app.world().resource::<Keeping>().saved_at;
        assert_eq!(AtRisk::of(g, saved_at).0, 0, "saved");
    }
    app.world_mut().write_message(Control::Undo);
    app.update();
    app.world_mut().write_message(Control::Load(file));
    app.update();
    let log = app.world().resource::<Log>().told.log.clone();
    assert!(!log.is_empty(), "the log of a loaded game is told");
    assert_eq!(log, told_again(&app));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn pointing_at_a_reachable_hex_previews_the_path_before_the_click() {
    let mut app = app_at_hero_turn();
    let hero = acting_hero(&app);
    let card = {
        let s = &app.world().resource::<CoreGame>().0.state;
        s.heroes[hero].selected.expect("the hero picked cards")[0]
    };
    app.world_mut().resource_mut::<Intent>().half = Some((card, Half::Bottom, true));
    app.update();
    let (goal, path) = {
        let s = &app.world().resource::<CoreGame>().0.state;
        reach(s, hero, 2, false)
            .into_iter()
            .max_by_key(|(_, p)| p.len())
            .expect("somewhere to go")
    };
    let marks = app
        .world()
        .resource::<crate::app::board::CellMarks>()
        .merged();
    assert_eq!(
        marks.get(&qr(goal)),
        Some(&crate::app::board::Mark::Reach),
        "reach is lit"
    );
    app.world_mut()
        .resource_mut::<crate::app::picking::Hovered>()
        .0 = Some(Target::Cell(qr(goal)));
    app.update();
    let marks = app
        .world()
        .resource::<crate::app::board::CellMarks>()
        .merged();
    for h in &path {
        assert_eq!(
            marks.get(&qr(*h)),
            Some(&crate::app::board::Mark::Path),
            "the path to the pointed hex shows"
        );
    }
}

#[test]
fn an_attack_half_lights_up_the_foes_it_can_reach_and_no_others() {
    let mut app = app_at_hero_turn();
    let hero = acting_hero(&app);
    // Stand the hero next to a foe: the basic top half (attack 2, melee) reaches that one only.
    let (card, foe_hex) = {
        let mut game = app.world_mut().resource_mut::<CoreGame>();
        let s = &mut game.0.state;
        let foe = s.monsters.iter().find(|m| m.hp > 0).expect("a foe").hex;
        let free = s
            .map
            .0
            .hexes()
            .iter()
            .copied()
            .find(|&h| {
                s.map.0.adjacent(foe, h)
                    && s.map.0.terrain(h) == Some(foehold_core::hex::Terrain::Floor)
                    && s.figure_at(h).is_none()
            })
            .expect("an open hex next to the foe");
        s.heroes[hero].hex = free;
        (s.heroes[hero].selected.expect("cards picked")[0], foe)
    };
    app.world_mut().resource_mut::<Intent>().half = Some((card, Half::Top, true));
    app.update();
    let marks = app
        .world()
        .resource::<crate::app::board::CellMarks>()
        .merged();
    let s = &app.world().resource::<CoreGame>().0.state;
    let here = s.heroes[hero].hex;
    assert_eq!(
        marks.get(&qr(foe_hex)),
        Some(&crate::app::board::Mark::Target),
        "the foe next to the hero is lit"
    );
    for m in s.monsters.iter().filter(|m| m.hp > 0) {
        if foehold_core::hex::distance(m.hex, here) > 1 {
            assert_ne!(
                marks.get(&qr(m.hex)),
                Some(&crate::app::board::Mark::Target),
                "a foe out of a melee attack's reach is not lit"
            );
        }
    }
}

#[test]
fn the_dice_break_a_tie_the_players_leave_to_them_and_nothing_else() {
    let path = scenario_path("sunken-kiln.ron");
    for seed in 0..40 {
        let mut game = new_game(&path, seed).expect("the scenario loads");
        while let Some(a) = game.auto_action() {
            game.apply(a).expect("autopilot actions are legal");
        }
        if !matches!(game.state.pending, Some(Pending::FoeOption { .. })) {
            continue;
        }
        let cursor = game.cursor;
        let mut app = app_with(game);
        app.world_mut().write_message(Control::Dice);
        // The pick is submitted like a click and applied with the next frame's actions.
        app.update();
        app.update();
        let g = &app.world().resource::<CoreGame>().0;
        assert_eq!(g.cursor, cursor + 1, "one action");
        assert_eq!(
            g.log[cursor],
            Action::ChooseByDice,
            "the rules' own chance step"
        );
        // Where no tie waits, the dice decide nothing (the rules' steps wait: the table is paused).
        assert!(g.state.pending.is_none(), "the tie is broken");
        let before = g.cursor;
        app.world_mut().write_message(Control::Dice);
        app.update();
        assert_eq!(app.world().resource::<CoreGame>().0.cursor, before);
        return;
    }
    panic!("no seed reached a foe's tie");
}

/// One app, two modules: the game on the table is replaced in place.
mod switching {
    use bevy::prelude::*;
    use foehold_core::rules::Present;
    use foehold_core::rules::brimstone::Brimstone;
    use foehold_core::rules::gloomhaven::Gloomhaven;
    use foehold_loop::{CoreGame, GamePhase, PhaseOf};

    use crate::app::driver::tests::{headless, hold, play, repo};
    use crate::app::driver::{Keeping, Log, Problem, Seats, StartScenario};
    use crate::app::table::Table;

    #[test]
    fn the_table_goes_from_a_gloomhaven_scenario_to_a_brimstone_one_and_back_in_place() {
        let mut app = headless(4);
        let tutorial = repo("scenarios/tutorial.ron");
        crate::app::driver::open::open(app.world_mut(), &tutorial, 4).expect("the tutorial opens");
        // On the table before the first frame, as the table's command-line scenario is.
        crate::app::screen::take_arrivals(app.world_mut());
        app.world_mut().resource_mut::<Seats>().ready = true;
        play(&mut app, 30);
        let g = &app.world().resource::<CoreGame<Gloomhaven>>().0;
        assert!(g.cursor > 5, "the Gloomhaven game plays: {}", g.cursor);
        let hex_title = app.world().resource::<Table>().title.clone();
        let piece = crate::app::driver::tests::board_piece(&mut app);

        // The New game window asks for a scenario of other rules: it starts in place.
        hold(&mut app);
        app.world_mut().write_message(StartScenario(
            repo("scenarios/cinder-adit.ron"),
            Default::default(),
        ));
        app.update();
        assert!(!app.world().contains_resource::<CoreGame<Gloomhaven>>());
        let g = &app.world().resource::<CoreGame<Brimstone>>().0;
        assert_eq!(g.cursor, 0, "a new game");
        let table = app.world().resource::<Table>();
        assert!(
            app.world().get_entity(piece).is_err(),
            "the board is built anew: the last one went"
        );
        assert_ne!(table.title, hex_title);
        assert_eq!(table.figures, Brimstone::view(&g.state).figures);
        assert!(
            !app.world().resource::<Seats>().ready,
            "the players are asked to sit again"
        );
        assert_eq!(app.world().resource::<Keeping>().saved_at, Some(0));
        app.world_mut().resource_mut::<Seats>().ready = true;
        play(&mut app, 40);
        // The phase follows a frame later.
        hold(&mut app);
        app.update();
        let g = &app.world().resource::<CoreGame<Brimstone>>().0;
        assert!(g.cursor > 5, "the Brimstone game plays: {}", g.cursor);
        assert_eq!(
            *app.world().resource::<State<PhaseOf<Brimstone>>>().get(),
            GamePhase::of_game(g)
        );
        assert_eq!(
            *app.world().resource::<State<PhaseOf<Gloomhaven>>>().get(),
            GamePhase::Idle,
            "the hex game's phase went with it"
        );
        let log = &app.world().resource::<Log>().told.log;
        assert_eq!(*log, g.log_lines(), "the log is the Brimstone game's");

        // A file that cannot be played is refused and the game stays.
        let dir = tempfile::tempdir().expect("a scratch folder");
        let bad = dir.path().join("bad.ron");
        std::fs::write(&bad, "(rules: \"Chess\")").expect("written");
        app.world_mut()
            .write_message(StartScenario(bad, Default::default()));
        app.update();
        let problem = app.world().resource::<Problem>().0.clone();
        assert!(
            problem.as_deref().is_some_and(|p| p.contains("bad.ron:1:")),
            "{problem:?}"
        );
        assert!(app.world().contains_resource::<CoreGame<Brimstone>>());

        // And back.
        hold(&mut app);
        app.world_mut()
            .write_message(StartScenario(tutorial, Default::default()));
        app.update();
        assert!(!app.world().contains_resource::<CoreGame<Brimstone>>());
        let g = &app.world().resource::<CoreGame<Gloomhaven>>().0;
        assert_eq!(g.cursor, 0);
        assert_eq!(app.world().resource::<Table>().title, hex_title);
        app.world_mut().resource_mut::<Seats>().ready = true;
        play(&mut app, 30);
        let g = &app.world().resource::<CoreGame<Gloomhaven>>().0;
        assert!(g.cursor > 5, "the Gloomhaven game plays again");
        assert_eq!(
            app.world().resource::<Log>().told,
            crate::app::driver::told::retell(g).0,
            "its log is told from its own actions"
        );
    }

    #[test]
    fn a_scenario_started_for_a_level_and_a_party_is_set_up_for_them() {
        use foehold_core::rules::PartyChoice;
        let mut app = headless(4);
        let granary = repo("scenarios/drowned-granary.ron");
        hold(&mut app);
        let choice = PartyChoice {
            level: Some(3),
            players: Some(2),
            heroes: Vec::new(),
        };
        app.world_mut()
            .write_message(StartScenario(granary.clone(), choice));
        app.update();
        let g = &app.world().resource::<CoreGame<Gloomhaven>>().0;
        assert_eq!(g.state.heroes.len(), 2, "two characters");
        assert_eq!(g.state.scenario.level, Some(3));
        assert_eq!(g.cursor, 1, "the set-up is the game's first action");
        let table = app.world().resource::<Table>();
        assert_eq!(table.hero_names(), ["Orrin", "Lisbet"]);
        assert_eq!(
            app.world().resource::<Seats>().owner.len(),
            2,
            "a seat for each character"
        );
        // A choice the scenario cannot seat is refused, and the game stays.
        let too_many = PartyChoice {
            level: None,
            players: Some(5),
            heroes: Vec::new(),
        };
        app.world_mut()
            .write_message(StartScenario(granary, too_many));
        app.update();
        let problem = app.world().resource::<Problem>().0.clone();
        assert!(
            problem
                .as_deref()
                .is_some_and(|p| p.contains("cannot seat 5")),
            "{problem:?}"
        );
        assert_eq!(
            app.world()
                .resource::<CoreGame<Gloomhaven>>()
                .0
                .state
                .heroes
                .len(),
            2
        );
    }
}
