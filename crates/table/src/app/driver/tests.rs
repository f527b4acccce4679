//! The driver headless, under `MinimalPlugins`: the test-only toy module on it (proof that it needs
//! only the kit's interface), saves, undo and redo by decision, the dice for a tie.

use std::path::{Path, PathBuf};

use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput, NativeKey};
use bevy::input::mouse::MouseButtonInput;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::window::WindowEvent;
use foehold_core::game::Game;
use foehold_core::rules::brimstone::Brimstone;
use foehold_core::rules::toy::{self, Toy};
use foehold_core::rules::{Present, Rules, Seat, TieBreaker, ToMove};
use foehold_loop::{CoreGame, LoopSettings};

use super::AtRisk;
use super::open::{install, open};
use super::{Control, Keeping, Log, Pace, Seats, Turn};
use crate::app::Options;
use crate::app::board::CellMarks;
use crate::app::minis::{Landing, PendingPaths, WalkSpeed};
use crate::app::picking::{Hovered, Picked};
use crate::app::screen::OnTable;
use crate::app::table::Table;

/// The driver and the shared windows' resources under `MinimalPlugins`, no game on the table yet:
/// what the board drawing, picking and egui would add is inserted bare.
pub(crate) fn headless(seed: u64) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin))
        // The keyboard the real window's input plugin provides (undo/redo and pacing keys).
        .init_resource::<ButtonInput<KeyCode>>()
        .insert_resource(Options {
            seed,
            ..Options::default()
        })
        .add_message::<Picked>()
        .init_resource::<Hovered>()
        .insert_resource(WalkSpeed(1.0))
        .init_resource::<PendingPaths>()
        .init_resource::<Landing>()
        .init_resource::<CellMarks>()
        .add_plugins((
            crate::app::screen::plugin,
            super::plugin,
            crate::app::windows::plugin,
        ));
    app
}

/// An entity of the table screen, as the board's are: it goes when the table is set anew.
pub(crate) fn board_piece(app: &mut App) -> Entity {
    app.world_mut().spawn(crate::app::screen::of_table()).id()
}

/// A path in the repository (the table's crate is two folders down).
pub(crate) fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// The toy on the table, seated, its rules playing as fast as the frames go; its scenario read from
/// the file `scenario` (saves name it). The driver added the toy's plugin itself: in this crate's
/// tests the list of modules carries it.
fn toy_app(scenario: &str) -> App {
    let mut app = headless(3);
    let parsed = toy::scenario().expect("the toy scenario parses");
    let game = Game::<Toy>::new(parsed, scenario, 3, TieBreaker::Seeded)
        .expect("sets up")
        .with_scenario_text(toy::SCENARIO);
    install::<Toy>(app.world_mut(), game, false);
    app.world_mut().resource_mut::<Seats>().ready = true;
    app.insert_resource(LoopSettings {
        seeded_ties: true,
        autopilot_heroes: true,
        auto_advance: true,
        table_draws: false,
        held_elsewhere: false,
    });
    fast(&mut app);
    app
}

/// No waiting for animations.
fn fast(app: &mut App) {
    let mut pace = app.world_mut().resource_mut::<Pace>();
    pace.speed = 1.0e6;
    pace.wait = 0.0;
    pace.paused = false;
}

/// The rules stop playing by themselves, and the table stops asking them to.
pub(crate) fn hold(app: &mut App) {
    app.world_mut().resource_mut::<Pace>().paused = true;
    app.insert_resource(LoopSettings {
        seeded_ties: false,
        autopilot_heroes: false,
        auto_advance: false,
        table_draws: false,
        held_elsewhere: false,
    });
}

fn toy(app: &App) -> &Game<Toy> {
    &app.world().resource::<CoreGame<Toy>>().0
}

#[test]
fn undo_and_redo_go_by_decision_and_the_log_and_table_follow() {
    let mut app = toy_app("toy.ron");
    for _ in 0..14 {
        app.update();
    }
    let played = toy(&app).cursor;
    assert!(played >= 6, "the loop played on its own: {played}");
    assert_eq!(
        app.world().resource::<Log>().told.log,
        toy(&app).log_lines()
    );
    hold(&mut app);
    let back = toy(&app).decision_before();
    app.world_mut().write_message(Control::Undo);
    app.update();
    let g = toy(&app);
    assert_eq!(g.cursor, back, "undone to before the last decision");
    assert!(g.cursor < played);
    assert_eq!(app.world().resource::<Log>().told.log, g.log_lines());
    let table = app.world().resource::<Table>();
    assert_eq!(table.figures, Toy::view(&g.state).figures);
    let forward = toy(&app).decision_after();
    app.world_mut().write_message(Control::Redo);
    app.update();
    assert_eq!(toy(&app).cursor, forward);
    // The History window's jumps: back to the start and forward to the end, log and table
    // following.
    for n in [0, 2, played] {
        app.world_mut().write_message(Control::JumpTo(n));
        app.update();
        let g = toy(&app);
        assert_eq!(g.cursor, n);
        let log = app.world().resource::<Log>();
        assert_eq!(log.told.log, g.log_lines());
        assert_eq!(log.cursor, n);
        let table = app.world().resource::<Table>();
        assert_eq!(table.figures, Toy::view(&g.state).figures);
    }
    // Its lines: one per action of the whole log, each with its round, marked as the players'
    // decisions the game counts, and naming who acted when the action's words do not.
    let history = &app.world().resource::<Log>().history;
    let g = toy(&app);
    assert_eq!(history.len(), g.log.len());
    assert!(
        history.iter().all(|l| l.text.starts_with("round ")),
        "{history:?}"
    );
    for (i, l) in history.iter().enumerate() {
        assert_eq!(l.decision, g.is_decision(i), "line {i}: {l:?}");
    }
    assert!(history.iter().any(|l| l.decision) && history.iter().any(|l| !l.decision));
    assert!(
        history.iter().any(|l| l.text.contains("Foe: ")),
        "the foe's steps name it: {history:?}"
    );
}

#[test]
fn the_history_followed_frame_by_frame_is_the_one_told_from_the_log() {
    // Games of two modules played by the loop, one step a frame: each frame's new lines come
    // from the states the loop applied the actions to, and always equal the whole log's telling.
    let mut app = toy_app("toy.ron");
    let mut looked = 0;
    for _ in 0..40 {
        app.update();
        let g = toy(&app);
        let log = app.world().resource::<Log>();
        assert_eq!(log.history, super::told::retell(g).1, "at {}", g.cursor);
        looked = g.cursor;
    }
    assert!(looked >= 10, "the toy played on: {looked}");
    let mut app = ambush_held();
    app.world_mut().resource_mut::<Pace>().paused = false;
    app.insert_resource(LoopSettings::HEADLESS);
    for _ in 0..60 {
        app.update();
    }
    let g = &app.world().resource::<CoreGame<Brimstone>>().0;
    assert!(g.cursor >= 20, "the fight played on: {}", g.cursor);
    let history = &app.world().resource::<Log>().history;
    assert_eq!(history, &super::told::retell(g).1);
}

#[test]
fn a_game_held_elsewhere_is_shown_step_by_step_and_asks_nothing_meanwhile() {
    // Online, the session's copy applies the host's whole turn to the table's game at once: the
    // table shows it step by step, and offers no move until it has.
    let mut app = toy_app("toy.ron");
    app.update();
    hold(&mut app);
    app.world_mut()
        .resource_mut::<LoopSettings>()
        .held_elsewhere = true;
    app.world_mut().resource_mut::<Pace>().speed = 1.0e6;
    let from = toy(&app).cursor;
    {
        // As the copy would: every action the rules make by themselves, up to the heroes' turn.
        let mut core = app.world_mut().resource_mut::<CoreGame<Toy>>();
        let g = &mut core.0;
        let mut n = 0;
        while let Some(a) = g.automatic(true, false) {
            g.apply(a).expect("legal");
            n += 1;
            if n > 1 && matches!(g.to_move(), ToMove::Heroes(_)) {
                break;
            }
        }
    }
    let to = toy(&app).cursor;
    assert!(to >= from + 3, "several actions at once: {from}..{to}");
    // Paused, the host's turn waits here too; Step shows one rules step of it.
    app.world_mut().resource_mut::<Pace>().paused = true;
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(
        app.world().resource::<Log>().cursor,
        from,
        "held while paused"
    );
    app.world_mut().resource_mut::<Pace>().step = true;
    app.update();
    app.update();
    // One rules step (and a tie the dice broke after it, a decision shown at once).
    let stepped = app.world().resource::<Log>().cursor;
    let g = toy(&app);
    let rules_steps = (from..stepped).filter(|&i| !g.is_decision(i)).count();
    assert_eq!(rules_steps, 1, "one step: {from}..{stepped}");
    app.world_mut().resource_mut::<Pace>().paused = false;
    let mut shown = vec![stepped];
    for _ in 0..(to - from) * 4 {
        app.update();
        let log = app.world().resource::<Log>();
        shown.push(log.cursor);
        let turn = app.world().resource::<Turn>();
        if log.cursor < to {
            assert!(
                turn.heroes.is_empty(),
                "no move asked for at {}",
                log.cursor
            );
        }
    }
    assert_eq!(shown.last(), Some(&to), "all shown: {shown:?}");
    // Step by step: what plays out (a walk, a landing) is shown before what comes after it, and
    // only actions with nothing to watch share a frame.
    let mut steps = shown.clone();
    steps.dedup();
    assert!(
        steps.len() >= 2 && steps[0] < to && steps.is_sorted(),
        "step by step, not at once: {shown:?}"
    );
    assert_eq!(
        app.world().resource::<Log>().history,
        super::told::retell(toy(&app)).1
    );
    assert!(
        !app.world().resource::<Turn>().heroes.is_empty(),
        "then the heroes move"
    );
}

/// One of the window's events of a frame.
fn key_down(key_code: KeyCode) -> WindowEvent {
    WindowEvent::KeyboardInput(KeyboardInput {
        key_code,
        logical_key: Key::Unidentified(NativeKey::Unidentified),
        state: ButtonState::Pressed,
        text: None,
        repeat: false,
        window: Entity::PLACEHOLDER,
    })
}

fn left_released() -> WindowEvent {
    WindowEvent::MouseButtonInput(MouseButtonInput {
        button: MouseButton::Left,
        state: ButtonState::Released,
        window: Entity::PLACEHOLDER,
    })
}

/// The toy at its hero's turn, the rules held, and the hero's "wait".
fn toy_at_hero() -> (App, toy::Action) {
    let mut app = toy_app("toy.ron");
    for _ in 0..40 {
        if matches!(toy(&app).to_move(), ToMove::Heroes(_)) {
            break;
        }
        app.update();
    }
    assert!(
        matches!(toy(&app).to_move(), ToMove::Heroes(_)),
        "the toy reaches its hero's turn"
    );
    hold(&mut app);
    let wait = toy(&app)
        .legal_actions(Seat::Hero(0))
        .into_iter()
        .find(|a| matches!(a, toy::Action::Wait))
        .expect("the hero may wait");
    (app, wait)
}

/// Presses Ctrl+Z in this frame, after or before a click.
fn ctrl_z(app: &mut App, after_a_click: bool) {
    let mut events = vec![key_down(KeyCode::ControlLeft), key_down(KeyCode::KeyZ)];
    if after_a_click {
        events.insert(0, left_released());
    } else {
        events.push(left_released());
    }
    for e in events {
        app.world_mut().write_message(e);
    }
    let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    keys.press(KeyCode::ControlLeft);
    keys.press(KeyCode::KeyZ);
}

/// The next frame, with the move a click asked for at the end of the last one, as a window
/// writes it; the keys are up.
fn clicked_move_arrives(app: &mut App, action: &toy::Action) {
    app.world_mut()
        .write_message(foehold_loop::SubmitAction::<Toy>(action.clone()));
    let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    keys.release_all();
    keys.clear();
    app.update();
}

#[test]
fn a_key_pressed_after_a_click_in_the_same_frame_comes_after_what_the_click_asked() {
    // A window's button tells of its click only after the frame's systems ran, so the move it
    // asks for reaches the game a frame later. A Ctrl+Z pressed after that click in the same
    // frame waits as long, and takes back the move.
    let (mut app, wait) = toy_at_hero();
    let (cursor, state) = (toy(&app).cursor, toy(&app).state.clone());
    ctrl_z(&mut app, true);
    app.update();
    assert_eq!(
        toy(&app).cursor,
        cursor,
        "the undo waits for the click's move"
    );
    clicked_move_arrives(&mut app, &wait);
    let g = toy(&app);
    assert_eq!(
        (g.cursor, &g.state),
        (cursor, &state),
        "the move was made, then taken back"
    );
    assert_eq!(g.log.get(cursor), Some(&wait), "and it can be redone");

    // Pressed before the click, the key goes first, and the click's move stays made.
    let (mut app, wait) = toy_at_hero();
    ctrl_z(&mut app, false);
    app.update();
    let undone = toy(&app).cursor;
    clicked_move_arrives(&mut app, &wait);
    let g = toy(&app);
    assert_eq!(
        g.log.get(undone),
        Some(&wait),
        "the move came after the undo"
    );
    assert!(g.cursor > undone, "and stayed made: {} {undone}", g.cursor);
}

#[test]
fn a_move_and_an_undo_made_before_the_next_frame_apply_in_the_order_they_were_made() {
    // At a frame a second, a player's move (a click, submitted as an action) and a Ctrl+Z pressed
    // before the next frame reach the table in one frame: the undo must take back that move,
    // not the decision before it with the move refused after.
    let mut app = toy_app("toy.ron");
    let mut at_hero = false;
    for _ in 0..40 {
        app.update();
        if matches!(toy(&app).to_move(), ToMove::Heroes(_)) {
            at_hero = true;
            break;
        }
    }
    assert!(at_hero, "the toy reaches its hero's turn");
    hold(&mut app);
    let (cursor, state) = (toy(&app).cursor, toy(&app).state.clone());
    let legal = toy(&app).legal_actions(Seat::Hero(0));
    let wait = legal
        .iter()
        .find(|a| matches!(a, toy::Action::Wait))
        .cloned()
        .expect("the hero may wait");
    app.world_mut()
        .write_message(foehold_loop::SubmitAction::<Toy>(wait.clone()));
    app.world_mut().write_message(Control::Undo);
    app.update();
    let g = toy(&app);
    assert_eq!(g.cursor, cursor, "the move was made, then taken back");
    assert_eq!(g.state, state);
    assert_eq!(g.log.get(cursor), Some(&wait), "and it can be redone");
    assert!(
        !app.world()
            .resource::<Pace>()
            .message
            .as_ref()
            .is_some_and(|(m, _)| m.starts_with("not now")),
        "nothing was refused"
    );
}

#[test]
fn a_save_loads_back_into_the_game_it_held_and_the_table_shows_it() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let save = dir.path().join("saves").join("toy-game.ron");
    let scenario = dir.path().join("toy.ron");
    std::fs::write(&scenario, toy::SCENARIO).expect("written");
    let mut app = toy_app(&scenario.display().to_string());
    for _ in 0..8 {
        app.update();
    }
    let (cursor, state, lines) = {
        let g = toy(&app);
        (g.cursor, g.state.clone(), g.log_lines())
    };
    assert!(cursor >= 4, "the loop played: {cursor}");
    assert!(
        app.world().resource::<AtRisk>().0 > 0,
        "moves no save holds"
    );
    hold(&mut app);
    // The hero sits with Player 2 of two: the save keeps it.
    *app.world_mut().resource_mut::<Seats>() = Seats::of_owners(vec![2]);
    app.world_mut().resource_mut::<Seats>().ready = true;
    app.world_mut().write_message(Control::Save(save.clone()));
    app.update();
    assert!(save.exists(), "the save is written");
    assert_eq!(app.world().resource::<AtRisk>().0, 0, "all saved");
    assert_eq!(app.world().resource::<Keeping>().saved_at, Some(cursor));
    // Play on, then load: the game is the saved one again, and the table follows it.
    app.insert_resource(LoopSettings::HEADLESS);
    for _ in 0..6 {
        app.update();
    }
    assert!(toy(&app).cursor > cursor);
    hold(&mut app);
    let piece = board_piece(&mut app);
    app.world_mut().write_message(Control::Load(save.clone()));
    app.update();
    app.update();
    let loaded = toy(&app);
    assert_eq!((loaded.cursor, &loaded.state), (cursor, &state));
    assert_eq!(loaded.log_lines(), lines);
    assert_eq!(
        app.world().resource::<Log>().told.log,
        lines,
        "the log is the saved game's"
    );
    assert!(
        app.world().resource::<Pace>().paused,
        "a loaded game waits for the players"
    );
    assert!(
        app.world().get_entity(piece).is_err(),
        "the table is set anew: the last board went"
    );
    assert_eq!(app.world().resource::<AtRisk>().0, 0);
    let seats = app.world().resource::<Seats>();
    assert_eq!(
        (seats.players, seats.owner.clone(), seats.ready),
        (2, vec![2], true),
        "the players sit as they sat, not asked again"
    );
    // A file that is no save is refused with where and why, and the game stays.
    let bad = dir.path().join("bad.ron");
    std::fs::write(&bad, "(rules: \"Toy\", seed: x)").expect("written");
    app.world_mut().write_message(Control::Load(bad));
    app.update();
    let said = app.world().resource::<Pace>().message.clone();
    let said = said.expect("the table says why").0;
    assert!(said.contains("bad.ron:1:"), "{said}");
    assert_eq!(toy(&app).cursor, cursor);
}

/// Plays `frames` frames with the rules, the autopilot and the seeded ties at full speed.
pub(crate) fn play(app: &mut App, frames: usize) {
    app.insert_resource(LoopSettings::HEADLESS);
    for _ in 0..frames {
        fast(app);
        app.update();
    }
}

/// The Cinder Adit ambushed, two players seated, its rules held to be stepped by the test.
fn ambush_held() -> App {
    let mut app = headless(2);
    open(
        app.world_mut(),
        &repo("scenarios/cinder-adit-ambush.ron"),
        2,
    )
    .expect("opens");
    // On the table before the first frame, as the table's command-line scenario is.
    crate::app::screen::take_arrivals(app.world_mut());
    app.world_mut().resource_mut::<Seats>().ready = true;
    hold(&mut app);
    app
}

#[test]
fn the_dice_break_a_tie_of_a_module_without_its_own_dice_action_by_the_seeded_pick() {
    let mut app = ambush_held();
    // The rules' own steps up to the first tie the players break (the ambush's placements).
    for _ in 0..200 {
        let g = &app.world().resource::<CoreGame<Brimstone>>().0;
        if matches!(g.to_move(), ToMove::Tie { .. }) {
            break;
        }
        let a = g.automatic(false, true).expect("the rules go on to a tie");
        app.world_mut()
            .write_message(foehold_loop::SubmitAction::<Brimstone>(a));
        app.update();
    }
    let g = &app.world().resource::<CoreGame<Brimstone>>().0;
    let ToMove::Tie { options } = g.to_move() else {
        panic!("no tie reached: {:?}", g.to_move());
    };
    // The table says why the tie is the players' before they pick.
    let why = app.world().resource::<Table>().tie.clone();
    assert!(
        why.as_deref()
            .is_some_and(|w| w.contains("the players choose")),
        "{why:?}"
    );
    let mut table = g.legal_actions(Seat::Table);
    table.truncate(options);
    let (cursor, pick) = (g.cursor, g.automatic(true, false));
    // A table that rolls its own dice is asked to click what its roll gives: no die of ours.
    app.world_mut().resource_mut::<LoopSettings>().table_draws = true;
    app.world_mut().write_message(Control::Dice);
    app.update();
    app.update();
    assert_eq!(
        app.world().resource::<CoreGame<Brimstone>>().0.cursor,
        cursor
    );
    let said = app.world().resource::<Pace>().message.clone();
    assert!(
        said.as_ref()
            .is_some_and(|(m, _)| m.contains("roll at your table")),
        "{said:?}"
    );
    app.world_mut().resource_mut::<LoopSettings>().table_draws = false;
    app.world_mut().write_message(Control::Dice);
    // The pick is submitted like a click and applied with the next frame's actions.
    app.update();
    app.update();
    let g = &app.world().resource::<CoreGame<Brimstone>>().0;
    assert_eq!(g.cursor, cursor + 1, "one action");
    assert_eq!(Some(&g.log[cursor]), pick.as_ref(), "the seeded pick");
    assert!(table.contains(&g.log[cursor]), "one of the tie's options");
}

#[test]
fn an_ambushs_enemies_land_one_after_another_and_the_rules_wait_for_them() {
    let mut app = ambush_held();
    let heroes = app.world().resource::<Table>().figures.len();
    // The rules' steps and the ties, one at a time, until the enemies stand on the board.
    for _ in 0..300 {
        if app.world().resource::<Table>().figures.len() > heroes {
            break;
        }
        let g = &app.world().resource::<CoreGame<Brimstone>>().0;
        let a = g.automatic(true, true).expect("the placement goes on");
        app.world_mut()
            .write_message(foehold_loop::SubmitAction::<Brimstone>(a));
        app.update();
    }
    let table = app.world().resource::<Table>();
    let arrived: Vec<u32> = table.figures[heroes..].iter().map(|f| f.id).collect();
    assert!(arrived.len() >= 6, "the ambush placed {arrived:?}");
    assert_eq!(
        app.world().resource::<Landing>().0,
        arrived,
        "every model placed lands, in the order placed"
    );
    let pace = app.world().resource::<Pace>();
    assert!(
        pace.wait >= crate::app::minis::landing_time(arrived.len()) / pace.speed - 0.05,
        "the next step waits for the last to land: {} s",
        pace.wait
    );
}

#[test]
fn a_game_put_on_the_table_closes_the_position_lab() {
    let mut app = headless(1);
    app.add_message::<crate::app::board::RebuildBoard>()
        .init_resource::<crate::app::focus::Typing>()
        .add_plugins(crate::app::lab::plugin);
    let case = repo("tests/puzzles/e2-001.ron");
    let text = std::fs::read_to_string(&case).unwrap();
    crate::app::lab::open_case(app.world_mut(), &case.display().to_string(), &text)
        .expect("a puzzle opens in the lab");
    app.update();
    assert!(app.world().contains_resource::<crate::app::lab::LabBench>());
    assert_eq!(app.world().resource::<Table>().title, "Position lab");
    // A scenario started as from New game: the lab goes, the game and its board come.
    open(
        app.world_mut(),
        &repo("scenarios/cinder-adit-ambush.ron"),
        1,
    )
    .expect("opens");
    app.update();
    assert!(!app.world().contains_resource::<crate::app::lab::LabBench>());
    assert!(app.world().contains_resource::<CoreGame<Brimstone>>());
    assert_ne!(app.world().resource::<Table>().title, "Position lab");
    assert!(
        !app.world()
            .resource::<CellMarks>()
            .layers
            .contains_key("lab"),
        "the lab's marks go with it"
    );
}

/// What every system of a frame sees of the table: its mode and what is on it, in `Update` and in
/// `PostUpdate` (where the windows run).
#[derive(Resource, Default)]
struct Seen(Vec<(OnTable, Vec<&'static str>)>);

fn look(world: &mut World) {
    // The game of whichever module is on the table.
    struct Games<'w>(&'w World, Vec<&'static str>);
    impl crate::modules::EachModule for Games<'_> {
        fn visit<R: crate::modules::Module>(&mut self) {
            if self.0.contains_resource::<CoreGame<R>>() {
                self.1.push(R::NAME);
            }
        }
    }
    let mut games = Games(world, Vec::new());
    crate::modules::each_module(&mut games);
    let mut on = games.1;
    if world.contains_resource::<crate::app::lab::LabBench>() {
        on.push("lab");
    }
    if world.contains_resource::<crate::app::workshop::ShopDraft>() {
        on.push("workshop");
    }
    let mode = *world.resource::<State<OnTable>>().get();
    world.resource_mut::<Seen>().0.push((mode, on));
}

#[test]
fn what_is_on_the_table_and_its_mode_change_together_within_every_frame() {
    use foehold_core::rules::goals::Goals;
    let mut app = headless(1);
    app.add_message::<crate::app::board::RebuildBoard>()
        .init_resource::<crate::app::focus::Typing>()
        .init_resource::<Seen>()
        .add_plugins((crate::app::lab::plugin, crate::app::workshop::plugin))
        .add_systems(Update, look)
        .add_systems(PostUpdate, look);
    let case = repo("tests/puzzles/e2-001.ron");
    let text = std::fs::read_to_string(&case).unwrap();
    // Games of two modules, the same module again, the lab, a game again, a moment set aside
    // in the lab and brought back.
    type Ask = Box<dyn Fn(&mut World)>;
    let asks: Vec<Ask> = vec![
        Box::new(|w| open(w, &repo("scenarios/cinder-adit-ambush.ron"), 1).expect("opens")),
        Box::new(|w| open(w, &repo("scenarios/cinder-adit.ron"), 1).expect("opens")),
        Box::new(|w| open(w, &repo("scenarios/dome-crossing.ron"), 1).expect("opens")),
        Box::new(move |w| {
            crate::app::lab::open_case(w, &case.display().to_string(), &text).expect("opens");
        }),
        // A game on to a foe's moment, put on the table as a loaded save is.
        Box::new(|w| {
            let path = repo("scenarios/dome-crossing.ron");
            let text = std::fs::read_to_string(&path).unwrap();
            let mut game =
                super::open::new_game::<Goals>("dome-crossing.ron", &text, &Default::default(), 1)
                    .unwrap();
            while <Goals as foehold_core::lab::Lab>::moment(&game.state).is_err() {
                let a = game
                    .auto_action()
                    .or_else(|| game.legal_actions(Seat::Table).into_iter().next())
                    .expect("the moment comes");
                game.apply(a).expect("legal");
            }
            crate::app::screen::arrive(w, move |w| install::<Goals>(w, game, true));
        }),
        Box::new(|w| crate::app::lab::open_moment::<Goals>(w).expect("the moment opens")),
        Box::new(crate::app::lab::back_to_the_game),
        // The workshop on a scenario's file, its draft played, and the draft back.
        Box::new(|w| {
            let path = repo("scenarios/tithe-barn.ron");
            let text = std::fs::read_to_string(&path).unwrap();
            crate::app::workshop::open_file(w, "tithe-barn.ron", &text).expect("opens");
        }),
        Box::new(crate::app::workshop::play_now),
        Box::new(crate::app::workshop::back_to_the_workshop),
        Box::new(|w| open(w, &repo("scenarios/dome-crossing.ron"), 1).expect("opens")),
    ];
    // The first arrives with the first frame, as the table's first game does.
    for ask in asks {
        app.world_mut().resource_mut::<Seen>().0.clear();
        // Asked between frames, as in the middle of one: it arrives at the start of the next.
        ask(app.world_mut());
        app.update();
        app.update();
        let seen = std::mem::take(&mut app.world_mut().resource_mut::<Seen>().0);
        assert_eq!(seen.len(), 4, "two looks a frame: {seen:?}");
        agree(&seen);
        assert_eq!(seen[0], seen[3], "one mode both frames: {seen:?}");
    }
    assert_eq!(
        *app.world().resource::<State<OnTable>>().get(),
        OnTable::game::<Goals>(),
        "back to the game"
    );
    // Two asked for in one frame arrive one a frame, each leaving what came before.
    open(app.world_mut(), &repo("scenarios/cinder-adit.ron"), 1).expect("opens");
    open(app.world_mut(), &repo("scenarios/dome-crossing.ron"), 1).expect("opens");
    for _ in 0..3 {
        app.update();
    }
    let seen = std::mem::take(&mut app.world_mut().resource_mut::<Seen>().0);
    agree(&seen);
    assert_eq!(
        seen.last(),
        Some(&(OnTable::game::<Goals>(), vec![Goals::NAME]))
    );
}

/// Every look saw the mode with what goes with it, and nothing else.
fn agree(seen: &[(OnTable, Vec<&'static str>)]) {
    for (mode, on) in seen {
        let expected: Vec<&str> = match mode {
            OnTable::Game(name) => vec![name],
            OnTable::Lab => vec!["lab"],
            OnTable::Workshop => vec!["workshop"],
            OnTable::Nothing => vec![],
        };
        assert_eq!(on, &expected, "a frame saw {mode:?} with {on:?}: {seen:?}");
    }
}

/// A table with the lab, on a Dome Crossing played by the rules (the table's ties broken by their
/// first option) until `until` holds, seated; the game is put back before it is returned.
fn dome_crossing_until(until: impl Fn(&foehold_core::rules::goals::state::State) -> bool) -> App {
    use foehold_core::rules::goals::Goals;
    let mut app = headless(1);
    app.add_message::<crate::app::board::RebuildBoard>()
        .init_resource::<crate::app::focus::Typing>()
        .add_plugins(crate::app::lab::plugin);
    open(app.world_mut(), &repo("scenarios/dome-crossing.ron"), 1).expect("opens");
    app.update();
    app.world_mut().resource_mut::<Seats>().ready = true;
    let mut game = app
        .world_mut()
        .remove_resource::<CoreGame<Goals>>()
        .unwrap()
        .0;
    while !until(&game.state) {
        let a = game
            .auto_action()
            .or_else(|| game.legal_actions(Seat::Table).into_iter().next())
            .expect("the moment comes");
        game.apply(a).expect("legal");
    }
    app.insert_resource(CoreGame(game));
    app
}

#[test]
fn a_moment_of_the_game_opens_in_the_lab_and_the_game_comes_back_as_it_was() {
    use foehold_core::rules::goals::Goals;
    // On to a foe's turn of the first round, as the rules would play it.
    let mut app = dome_crossing_until(|s| <Goals as foehold_core::lab::Lab>::moment(s).is_ok());
    let game = &app.world().resource::<CoreGame<Goals>>().0;
    let (cursor, hash) = (game.cursor, foehold_core::rules::state_hash(&game.state));
    crate::app::lab::open_moment::<Goals>(app.world_mut()).expect("the moment opens");
    app.update();
    let bench = &app.world().resource::<crate::app::lab::LabBench>().0;
    assert_eq!(bench.module(), "goals");
    assert!(!bench.answer().choices.is_empty(), "{:?}", bench.answer());
    assert!(
        !app.world().contains_resource::<CoreGame<Goals>>(),
        "set aside"
    );
    crate::app::lab::back_to_the_game(app.world_mut());
    app.update();
    app.update();
    assert!(!app.world().contains_resource::<crate::app::lab::LabBench>());
    let g = &app.world().resource::<CoreGame<Goals>>().0;
    assert_eq!(g.cursor, cursor, "the game as it was");
    assert_eq!(foehold_core::rules::state_hash(&g.state), hash);
    assert!(
        app.world().resource::<Seats>().ready,
        "the players keep their seats"
    );
}

#[test]
fn a_moment_with_no_foe_to_decide_says_why_and_the_game_stays() {
    // The toy played to its end: no foe turn is left to open.
    let mut app = toy_app("toy.ron");
    for _ in 0..400 {
        if matches!(Toy::to_move(&toy(&app).state), ToMove::Over { .. }) {
            break;
        }
        app.update();
    }
    assert!(matches!(
        Toy::to_move(&toy(&app).state),
        ToMove::Over { .. }
    ));
    let cursor = toy(&app).cursor;
    let e = crate::app::lab::open_moment::<Toy>(app.world_mut()).unwrap_err();
    assert!(
        e.contains("cannot open in the lab: the game is over"),
        "{e}"
    );
    assert!(app.world().contains_resource::<CoreGame<Toy>>());
    assert!(!app.world().contains_resource::<crate::app::lab::LabBench>());
    assert_eq!(toy(&app).cursor, cursor);
}

#[test]
fn a_moment_edited_in_the_lab_plays_on_in_the_game_and_an_undo_takes_the_edit_back() {
    use foehold_core::rules::goals::Goals;
    use foehold_core::rules::goals::state::Phase;
    use foehold_core::rules::view::{Ground, Side};
    // On to a hero's turn whose moment (the first foe still to act) opens.
    let mut app = dome_crossing_until(|s| {
        matches!(s.phase, Phase::Hero { moved: false, .. })
            && <Goals as foehold_core::lab::Lab>::moment(s).is_ok()
    });
    let cursor = app.world().resource::<CoreGame<Goals>>().0.cursor;
    crate::app::lab::open_moment::<Goals>(app.world_mut()).expect("the moment opens");
    app.update();
    // A hero of the moment is moved to a free plain hex, as a drag in the lab would.
    let (from, to) = {
        let view = app.world().resource::<crate::app::lab::LabBench>().0.view();
        let hero = view
            .figures
            .iter()
            .find(|f| f.side == Side::Hero)
            .expect("a hero")
            .cell;
        let free = view
            .cells
            .iter()
            .find(|c| {
                c.ground == Ground::Floor
                    && !view.figures.iter().any(|f| f.cell == c.key)
                    && !view.tokens.iter().any(|t| t.cell == c.key)
            })
            .expect("a free hex")
            .key;
        (hero, free)
    };
    let world = app.world_mut();
    let mut bench = world.resource_mut::<crate::app::lab::LabBench>();
    bench.0.drag(from, to).expect("the drag");
    // First an edit the game cannot take, a wall: refused, and the lab stays.
    let view = bench.0.view();
    let wall = view
        .cells
        .iter()
        .find(|c| c.ground == Ground::Floor && !view.figures.iter().any(|f| f.cell == c.key))
        .expect("another free plain hex")
        .key;
    bench.0.paint("wall", wall, None).expect("the wall");
    crate::app::lab::play_on(world);
    let refused = world
        .resource::<crate::app::lab::LabTools>()
        .refused
        .clone();
    assert!(
        refused
            .as_deref()
            .is_some_and(|r| r.contains("scenario's map")),
        "{refused:?}"
    );
    assert!(world.contains_resource::<crate::app::lab::LabBench>());
    assert!(world.contains_resource::<crate::app::lab::SetAside>());
    assert!(world.resource_mut::<crate::app::lab::LabBench>().0.undo());
    crate::app::lab::play_on(world);
    app.update();
    app.update();
    assert!(!app.world().contains_resource::<crate::app::lab::LabBench>());
    let g = &app.world().resource::<CoreGame<Goals>>().0;
    assert_eq!(g.cursor, cursor + 1, "one entry: the arrangement");
    let on = |g: &Game<Goals>, c: (i32, i32)| g.state.hero_at(c).is_some();
    assert!(
        on(g, to) && !on(g, from),
        "the hero stands where the lab put it"
    );
    assert!(app.world().resource::<Seats>().ready, "seats kept");
    let mut g = app
        .world_mut()
        .remove_resource::<CoreGame<Goals>>()
        .unwrap()
        .0;
    assert!(g.undo());
    assert!(on(&g, from) && !on(&g, to), "an undo takes the edit back");
}

#[test]
fn the_autopilot_plays_a_goal_heros_whole_turn_to_its_end() {
    use foehold_core::rules::goals::Goals;
    let mut app = dome_crossing_until(|s| matches!(Goals::to_move(s), ToMove::Heroes(_)));
    let ToMove::Heroes(heroes) = app.world().resource::<CoreGame<Goals>>().0.to_move() else {
        unreachable!("a hero's turn")
    };
    let hero = heroes[0];
    app.insert_resource(LoopSettings {
        seeded_ties: true,
        autopilot_heroes: false,
        auto_advance: true,
        table_draws: false,
        held_elsewhere: false,
    });
    fast(&mut app);
    // The game put back on the table is new to the table's systems for one frame.
    app.update();
    app.insert_resource(super::moves::AutoTurn::play(hero));
    let start = app.world().resource::<CoreGame<Goals>>().0.cursor;
    let mut frames = 0;
    loop {
        app.update();
        frames += 1;
        let g = &app.world().resource::<CoreGame<Goals>>().0;
        let still = matches!(g.to_move(), ToMove::Heroes(h) if h.contains(&hero));
        if !still && g.cursor > start && !matches!(g.to_move(), ToMove::Tie { .. }) {
            break;
        }
        assert!(
            frames < 2_000,
            "the turn never ended: {:?}, {:?}, autopilot {:?}, cursor {} from {start}",
            g.to_move(),
            app.world().resource::<super::moves::AutoTurn>(),
            Goals::autopilot(&g.state, hero),
            g.cursor
        );
    }
    app.update();
    let g = &app.world().resource::<CoreGame<Goals>>().0;
    // Its turn is over: the autopilot stopped, and its end is in the log.
    assert_eq!(app.world().resource::<super::moves::AutoTurn>().hero, None);
    assert!(
        g.log[start..g.cursor].contains(&foehold_core::rules::goals::Action::End),
        "the hero's turn ends by its own End: {:?}",
        &g.log[start..g.cursor]
    );
}
