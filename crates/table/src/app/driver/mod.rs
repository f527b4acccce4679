//! The table's driver, one for every rule module: it opens scenarios (any module's, in place),
//! applies what the players ask through the game loop, runs the rules' own steps at a pace people
//! can follow, tells the log, keeps undo, history, saves and the replay of the rules' last run,
//! and turns what each action shows (`Present::shows`) into the board's animations.
//!
//! Everything here goes through the module's `Present` interface. A module adds only what is its
//! own ([`crate::modules::Extra`]): its card choice, say, or a play built from several clicks.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;
use foehold_core::rules::{Seat, ToMove};
use foehold_loop::{CoreGame, GameLoopPlugin, LoopSettings, LoopSystems};

use crate::modules::{EachModule, Module, each_module};

mod controls;
pub mod draws;
pub mod follow;
mod keep;
mod moves;
pub mod open;
pub mod seats;
pub mod showing;
pub mod told;

use super::Options;
use super::screen::OnTable;
use super::table::Table;
use super::view::Side;
pub use keep::{AtRisk, Keeping};
pub use open::{GameFile, Installs, Problem, StartScenario};
pub use seats::{Here, Seats};
pub use showing::{Showing, Shown};
pub use told::Told;

/// The players have confirmed who plays which hero.
pub fn seated(seats: Res<Seats>) -> bool {
    seats.ready
}

/// The players play (not the autopilot).
pub fn players_play(pace: Res<Pace>) -> bool {
    !pace.autoplay
}

/// The run condition of a module's systems: its game is the one on the table (its mode, which
/// changes with the game, before the frame's state transition: [`crate::app::screen::arrive`]).
pub fn playing<R: Module>() -> impl FnMut(Option<Res<State<OnTable>>>) -> bool + Clone {
    in_state(OnTable::game::<R>())
}

/// The table shows the game of rules `R` as it stands: nothing applied ahead of it (online, the
/// host's turn) waits to be shown. Until then no move is offered.
pub fn caught_up<R: Module>(seen: Res<follow::Seen<R>>) -> bool {
    seen.caught_up()
}

/// The pace of the rules' own steps, and a word for the players.
#[derive(Resource, Debug)]
pub struct Pace {
    pub paused: bool,
    /// Run exactly one automatic step even while paused.
    pub step: bool,
    pub speed: f32,
    /// The autopilot plays the heroes and the seeded pick the ties (`--autoplay`).
    pub autoplay: bool,
    /// Seconds until the next automatic step: what the last one showed plays out first.
    pub wait: f32,
    /// A message for the players (refusals, errors), with seconds left on screen.
    pub message: Option<(String, f32)>,
}

impl Pace {
    /// Tells the players something for a few seconds.
    pub fn say(&mut self, text: impl Into<String>) {
        self.message = Some((text.into(), 4.0));
    }
}

/// Requests on the game as a whole, from the windows and the keys.
#[derive(Message, Debug, Clone, PartialEq)]
pub enum Control {
    /// Back to just before the players' last decision.
    Undo,
    /// On through the next decision and the rules' steps after it.
    Redo,
    /// To the game just after this many actions (clicked in the history).
    JumpTo(usize),
    /// Shows the rules' last run of steps again.
    ReplayRules,
    /// The seeded pick breaks the tie the players were to break.
    Dice,
    Save(PathBuf),
    Load(PathBuf),
}

/// The log and the history, told from the game's actions.
#[derive(Resource, Debug, Default)]
pub struct Log {
    pub told: Told,
    /// A line per action of the game's log (undone ones too, to redo), from the state before it.
    pub history: Vec<told::HistoryLine>,
    /// How many of them are in effect.
    pub cursor: usize,
}

/// Whose move it is, in the table's words, for the windows that every module shares.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct Turn {
    /// Heroes that may act now (indices in hero order).
    pub heroes: Vec<usize>,
    /// The player to act now, by the seats.
    pub player: Option<u32>,
    /// A tie waits for the players.
    pub tie: bool,
    /// The game is over: whether the heroes won.
    pub over: Option<bool>,
    /// The rules' last run is being shown again.
    pub replaying: bool,
    /// A run of the rules' steps is kept to show again.
    pub replayable: bool,
    /// Position in the game's log, and its length.
    pub cursor: usize,
    pub log: usize,
    /// The players' decisions among the actions in effect.
    pub decisions: usize,
}

/// The players at this screen ask the host of their online game to take back their last decision
/// (Undo, while another machine holds the game).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct AskUndo;

/// A new game (or a loaded one) was put on the table: what a module keeps about the last one goes.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Installed;

/// The shared part of the driver; [`ModulePlugin`] adds each module's.
pub fn plugin(app: &mut App) {
    // Files go through one storage, the desktop's unless a test put its own first.
    app.init_resource::<crate::app::store::Store>()
        .init_resource::<crate::app::store::Mine>();
    let options = app.world().resource::<Options>().clone();
    let autoplay = options.autoplay;
    // The loop applies every action and runs the rules' steps when the driver asks, so the pace is
    // the table's; the autopilot and the seeded tie-breaks play only under `--autoplay`.
    app.insert_resource(LoopSettings {
        seeded_ties: autoplay,
        autopilot_heroes: autoplay,
        auto_advance: false,
        table_draws: options.table_draws,
        held_elsewhere: false,
    })
    .insert_resource(Pace {
        paused: options.benchmark(),
        step: false,
        speed: options.speed,
        autoplay,
        wait: 0.6,
        message: None,
    })
    .add_message::<Control>()
    .add_message::<Installed>()
    .add_message::<AskUndo>()
    .init_resource::<Installs>()
    .init_resource::<Log>()
    .init_resource::<Turn>()
    .init_resource::<Keeping>()
    .init_resource::<crate::app::notice::Notice>()
    .init_resource::<Shown>()
    .init_resource::<Showing>()
    .init_resource::<Seats>()
    .init_resource::<AtRisk>()
    .init_resource::<Problem>()
    .add_message::<StartScenario>()
    .init_resource::<moves::ClickedCell>()
    .init_resource::<moves::AutoTurn>()
    .add_plugins(open::plugin)
    .init_resource::<controls::Keys>()
    // The real window's plugin adds them; a headless table has none but reads them alike.
    .add_message::<bevy::window::WindowEvent>()
    .add_systems(Update, controls::read_keys.before(LoopSystems::Input))
    .add_systems(Update, showing::age)
    .add_systems(Update, seat_figures.after(Following));
    struct AddModules<'a>(&'a mut App);
    impl EachModule for AddModules<'_> {
        fn visit<R: Module>(&mut self) {
            self.0.add_plugins(ModulePlugin::<R>::default());
        }
    }
    each_module(&mut AddModules(app));
}

/// The driver's systems for the game of rules `R`; they run only while it is on the table.
pub struct ModulePlugin<R>(std::marker::PhantomData<fn() -> R>);

impl<R> Default for ModulePlugin<R> {
    fn default() -> Self {
        ModulePlugin(std::marker::PhantomData)
    }
}

impl<R: Module> Plugin for ModulePlugin<R> {
    fn build(&self, app: &mut App) {
        app.add_plugins(GameLoopPlugin::<R>::default())
            // The game goes with its mode: another game or the lab came.
            .add_systems(OnExit(OnTable::game::<R>()), open::take_off::<R>)
            .insert_resource(follow::Seen::<R>::default())
            .insert_resource(follow::Record::<R>::default())
            // Undo, redo and the pace come after the actions submitted before them are applied:
            // at a low frame rate a move clicked in one frame and a Ctrl+Z pressed before the next
            // are applied in that order, so the undo takes back the move instead of the move
            // being refused after an undo. The step asked for here is taken next frame.
            .add_systems(
                Update,
                // While the players choose a new game, the one on the table waits.
                (controls::controls::<R>, follow::drive::<R>)
                    .chain()
                    .after(LoopSystems::Input)
                    .before(LoopSystems::StepRules)
                    .run_if(playing::<R>())
                    .run_if(crate::app::screen::at_table),
            )
            .add_systems(
                Update,
                (follow::follow::<R>, keep::keep::<R>, note_turn::<R>)
                    .chain()
                    .in_set(Following)
                    .after(LoopSystems::Sync)
                    .run_if(playing::<R>()),
            );
        if R::TABLE.moves {
            app.add_systems(
                Update,
                (
                    moves::click_cells::<R>,
                    moves::mark_actions::<R>,
                    moves::preview::<R>,
                    moves::autopilot_turn::<R>,
                )
                    .chain()
                    .before(LoopSystems::Input)
                    .run_if(playing::<R>())
                    .run_if(caught_up::<R>),
            )
            .add_systems(
                EguiPrimaryContextPass,
                moves::moves::<R>
                    .run_if(playing::<R>())
                    .run_if(caught_up::<R>)
                    .run_if(seated)
                    .run_if(crate::app::screen::at_table)
                    .after(super::ui::Windows),
            );
        }
        // Every module's draws and rolls can come from the players' own table.
        app.add_systems(
            EguiPrimaryContextPass,
            draws::draws::<R>
                .run_if(playing::<R>())
                .run_if(seated)
                .run_if(crate::app::screen::at_table)
                .after(super::ui::Windows),
        );
        (R::TABLE.plugin)(app);
    }
}

/// The systems that follow the game after the loop ran: the table shows the game after them.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Following;

/// Each hero figure shows the player the Players window seated at it.
fn seat_figures(seats: Res<Seats>, mut table: ResMut<Table>) {
    if !seats.is_changed() && !table.is_changed() {
        return;
    }
    let owners: Vec<Option<u8>> = (0..table.hero_names().len())
        .map(|h| u8::try_from(seats.owner_of(h)).ok())
        .collect();
    let heroes = table.figures.iter().filter(|f| f.side == Side::Hero);
    let now: Vec<Option<u8>> = heroes.map(|f| f.owner).collect();
    // Written only when it differs: a write every frame would mark the table changed every frame.
    if owners != now {
        for (f, o) in table
            .figures
            .iter_mut()
            .filter(|f| f.side == Side::Hero)
            .zip(owners)
        {
            f.owner = o;
        }
    }
}

/// Whose move it is, for the shared windows.
fn note_turn<R: Module>(
    game: Res<CoreGame<R>>,
    seats: Res<Seats>,
    (record, seen): (Res<follow::Record<R>>, Res<follow::Seen<R>>),
    mut turn: ResMut<Turn>,
) {
    let g = &game.0;
    let mut now = Turn {
        cursor: g.cursor,
        log: g.log.len(),
        decisions: g.decisions_between(0, g.cursor),
        replaying: record.replay.is_some(),
        replayable: !record.steps.is_empty(),
        ..Turn::default()
    };
    // While the table still shows what was applied ahead of it, nobody's move is asked for.
    if seen.caught_up() {
        match g.to_move() {
            ToMove::Heroes(heroes) => {
                now.player = heroes.iter().map(|&h| seats.owner_of(h)).min();
                now.heroes = heroes;
            }
            ToMove::Tie { .. } => now.tie = true,
            ToMove::Over { won } => now.over = Some(won),
            ToMove::Rules { .. } | ToMove::Chance { .. } => {}
        }
    }
    // Written only when it differs: the windows watch it for changes.
    turn.set_if_neq(now);
}

/// The "let the dice choose" of a tie the players break: the module's own action for it when it
/// lists one after the tie's options (a chance step of its rules), else the seeded pick among them.
fn dice_pick<R: Module>(
    game: &foehold_core::game::Game<R>,
    table_draws: bool,
) -> Result<Option<R::Action>, String> {
    let ToMove::Tie { options } = game.to_move() else {
        return Ok(None);
    };
    let mut table = game.legal_actions(Seat::Table);
    // The module's own roll for it: its die is a chance step, asked of a table that rolls.
    if table.len() > options {
        return Ok(Some(table.swap_remove(options)));
    }
    // Otherwise the program's seeded pick is the die: a table that rolls its own is asked.
    if table_draws {
        return Err(format!(
            "you roll at your table: roll for one of the {options} options and click the one it gives"
        ));
    }
    Ok(game.automatic(true, false))
}

#[cfg(test)]
pub(super) mod tests;
