//! Putting a game on the table, in place, whatever its rules: the scenario the command line names,
//! one chosen in the New game window, a loaded save. The game of the last module goes, the new
//! one's board, figures, log and seats come, and the window keeps running.
//!
//! A game arrives as everything on the table does ([`arrive`]): at one point of the frame, with its
//! mode ([`OnTable`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use foehold_core::game::Game;
use foehold_core::library::Library;
use foehold_core::rules::{PartyChoice, Present, TieBreaker};
use foehold_loop::CoreGame;

use super::follow::{Record, Seen};
use super::{Installed, Keeping, Log, Pace, Seats, Showing, Shown};
use crate::app::Options;
use crate::app::board::CellMarks;
use crate::app::screen::{self, Arrival, Arriving, OnTable, Screen, arrive};
use crate::app::table::Table;
use crate::app::view::BoardView;
use crate::modules::{ForRules, Module, with_rules};

/// A problem waiting for the players to read it.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct Problem(pub Option<String>);

/// The scenario file the players chose to start, in place, whatever its rules, and the level and
/// party they chose for it.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct StartScenario(pub PathBuf, pub PartyChoice);

pub(super) fn plugin(app: &mut App) {
    // Before the frame's other systems and its state transition: they see one game all frame,
    // the old or the new, in its mode.
    app.init_resource::<GameFile>()
        .add_systems(PreUpdate, start.before(Arriving));
}

/// The scenario file of the game on the table, as it was read when the game began: online play
/// hosts it and sends its text. `None` while the lab is open.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct GameFile(pub Option<(String, Option<String>)>);

/// Starts the scenario chosen in the New game window on this table, whatever its rules.
fn start(mut commands: Commands, mut starts: MessageReader<StartScenario>) {
    for StartScenario(path, choice) in starts.read() {
        let (path, choice) = (path.clone(), choice.clone());
        commands.queue(move |world: &mut World| {
            let seed = world.resource::<Options>().seed;
            if let Err(e) = open_for(world, &path, seed, choice) {
                // The game on the table stays.
                world.resource_mut::<Problem>().0 = Some(format!("Could not start the game:\n{e}"));
            }
        });
    }
}

/// How many games were put on the table so far: what follows one game (an online session) knows
/// when another came.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Installs(pub u64);

/// A new game of the scenario in a file's text, of whichever rules it names, set up as chosen.
struct NewGame<'a> {
    file: &'a str,
    text: &'a str,
    library: &'a Library,
    seed: u64,
    choice: PartyChoice,
}

impl ForRules for NewGame<'_> {
    type Out = Result<Arrival, String>;

    fn run<R: Module>(self) -> Self::Out {
        let mut game = new_game::<R>(self.file, self.text, self.library, self.seed)?;
        game.set_up(self.choice)
            .map_err(|e| format!("{}: {e}", self.file))?;
        Ok(Box::new(move |world: &mut World| {
            install::<R>(world, game, false);
        }))
    }
}

/// A new game of rules `R` on the scenario `text` read from `file` with `library` (the player's
/// monster types and classes, found before the built-in ones); ties are the table's (the
/// autopilot's seeded pick breaks them under `--autoplay`).
pub fn new_game<R: Present>(
    file: &str,
    text: &str,
    library: &Library,
    seed: u64,
) -> Result<Game<R>, String> {
    let scenario = R::parse_scenario_in(file, text, library).map_err(|e| e.to_string())?;
    Game::new(Arc::new(scenario), file, seed, TieBreaker::Table)
        .map(|g| g.with_scenario_text(text))
        .map_err(|e| format!("{file}: {e}"))
}

/// Opens the scenario in `path` on the table, replacing the game there (it arrives early in the
/// next frame); errors name the file, line and column, and leave the table as it was.
pub fn open(world: &mut World, path: &Path, seed: u64) -> Result<(), String> {
    open_for(world, path, seed, PartyChoice::default())
}

/// [`open`], with the game set up for a level and a number of characters.
pub fn open_for(
    world: &mut World,
    path: &Path,
    seed: u64,
    choice: PartyChoice,
) -> Result<(), String> {
    let text = world.resource::<crate::app::store::Store>().read(path)?;
    let library = crate::app::store::library(world);
    open_text(
        world,
        &path.display().to_string(),
        &text,
        &library,
        seed,
        choice,
    )
}

/// [`open_for`] on a scenario's text (a draft of the workshop), read as the file `file` with
/// `library`.
pub fn open_text(
    world: &mut World,
    file: &str,
    text: &str,
    library: &Library,
    seed: u64,
    choice: PartyChoice,
) -> Result<(), String> {
    let install = with_rules(
        file,
        text,
        NewGame {
            file,
            text,
            library,
            seed,
            choice,
        },
    )
    .map_err(|e| e.to_string())??;
    arrive(world, install);
    Ok(())
}

/// Seats the players as a loaded save had them, when it seats every hero of the game on the
/// table; else the Players window asks, as for a new game.
pub fn reseat(world: &mut World, seated: Option<Vec<u32>>) {
    let mut seats = world.resource_mut::<Seats>();
    if let Some(owner) = seated.filter(|o| o.len() == seats.owner.len()) {
        *seats = Seats::of_owners(owner);
        seats.ready = true;
    }
}

/// Puts `game` on the table: the last game goes (of whatever rules: leaving its mode takes it),
/// the board is built anew, the log and history are told from the game, the players are asked to
/// sit again. A `loaded` game waits for the players before the rules go on. Called where things
/// arrive on the table ([`arrive`]), or before the first frame.
pub fn install<R: Module>(world: &mut World, game: Game<R>, loaded: bool) {
    let view = R::view(&game.state);
    let title = R::scenario_name(&game.scenario).to_string();
    let about = R::scenario_about(&game.scenario).to_string();
    let mut table = Table::of_view(title.clone(), about, BoardView::of(&view));
    table.show(view.clone());
    let unattended = {
        let o = world.resource::<Options>();
        o.autoplay || o.unattended()
    };
    let mut seats = Seats::of_view(&view);
    // Unattended runs (screenshots, autoplay, the frame benchmark) skip the Players window.
    seats.ready = unattended;
    let keeping = world
        .get_resource::<Keeping>()
        .cloned()
        .unwrap_or_default()
        .of::<R>(game.cursor, R::round(&game.state));
    world.insert_resource(table);
    world.insert_resource(seats);
    world.insert_resource(keeping);
    world.insert_resource(Log::default());
    world.insert_resource(Seen::<R>::default());
    world.insert_resource(Record::<R>::default());
    world.insert_resource(Shown::default());
    world.insert_resource(Showing::default());
    if let Some(mut marks) = world.get_resource_mut::<CellMarks>() {
        marks.clear_all();
    }
    {
        let mut pace = world.resource_mut::<Pace>();
        pace.wait = 0.6;
        pace.paused |= loaded;
    }
    world.insert_resource(GameFile(Some((
        game.scenario_path.clone(),
        game.scenario_hash.clone(),
    ))));
    world.insert_resource(CoreGame(game));
    screen::change(world, OnTable::game::<R>());
    world.get_resource_or_insert_with(Installs::default).0 += 1;
    world.write_message(Installed);
    // The table screen is entered again: the last board goes, this one's is built.
    screen::go(world, Screen::Table);
    let mut windows = world.query_filtered::<&mut Window, With<PrimaryWindow>>();
    for mut w in windows.iter_mut(world) {
        w.title = format!("Foehold — {title}");
    }
}

/// Takes the game of rules `R` off the table as its mode ends (another game or the lab came).
pub(super) fn take_off<R: Module>(world: &mut World) {
    world.remove_resource::<CoreGame<R>>();
}
