//! Watching a game of a rule module whose windows the table does not have yet (Brimstone-style
//! fights, goal-priority scenarios): the board, minis and tokens drawn from the module's view, and
//! every rules step, die, tie and hero move (by the autopilot) applied at a pace people can follow,
//! with the log beside it. Space pauses, `.` steps.

use std::process::ExitCode;
use std::sync::Arc;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass, egui};
use foehold_core::game::Game;
use foehold_core::rules::{Rules, TieBreaker, ToMove};
use foehold_loop::{CoreGame, GameEvent, GameLoopPlugin, LoopSettings, LoopSystems, StepRequest};

use super::Options;
use super::table::Table;
use super::view::BoardView;
use crate::cli::modules::ForRules;

/// Seconds between two steps of the game.
const PACE: f32 = 0.4;

/// The watched game's log and pacing.
#[derive(Resource, Default)]
struct Watching {
    log: Vec<String>,
    since_step: f32,
    paused: bool,
}

/// Opens the table on a scenario of rules `R` (see [`ForRules`]).
pub struct Watch<'a> {
    /// The table's options.
    pub options: Options,
    /// The scenario file's name, for errors.
    pub file: &'a str,
    /// The scenario file's text.
    pub text: &'a str,
}

impl ForRules for Watch<'_> {
    type Out = ExitCode;

    fn run<R: Rules>(self) -> ExitCode {
        let Watch {
            options,
            file,
            text,
        } = self;
        let scenario = match R::parse_scenario(file, text) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        };
        let game = match Game::<R>::new(Arc::new(scenario), file, options.seed, TieBreaker::Seeded)
        {
            Ok(g) => g.with_scenario_text(text),
            Err(e) => {
                eprintln!("{file}: {e}");
                return ExitCode::from(2);
            }
        };
        let view = R::view(&game.state);
        let title = R::scenario_name(&game.scenario).to_string();
        let mut table = Table::of_view(title.clone(), BoardView::of(&view));
        table.show(view);
        let mut app = App::new();
        app.add_plugins(super::window_plugins(&title, &options))
            .add_plugins((MeshPickingPlugin, EguiPlugin::default()))
            .insert_resource(ClearColor(super::CLEAR))
            .insert_resource(options)
            .insert_resource(table)
            .insert_resource(CoreGame(game))
            // Heroes by the autopilot, ties and dice by the seeded pick, one step per request.
            .insert_resource(LoopSettings {
                seeded_ties: true,
                autopilot_heroes: true,
                auto_advance: false,
            })
            .init_resource::<Watching>()
            .init_resource::<super::play::Shown>()
            .add_plugins(GameLoopPlugin::<R>::default())
            .add_plugins((
                super::board::plugin,
                super::minis::plugin,
                super::tokens::plugin,
                super::camera::plugin,
                super::picking::plugin,
                super::ui::plugin,
                super::screenshot::plugin,
            ))
            .add_systems(Update, pace.before(LoopSystems::Input))
            .add_systems(Update, follow::<R>.after(LoopSystems::Sync))
            .add_systems(EguiPrimaryContextPass, windows::<R>.after(super::ui::Drawn));
        match app.run() {
            AppExit::Success => ExitCode::SUCCESS,
            AppExit::Error(code) => ExitCode::from(code.get()),
        }
    }
}

/// Asks the loop for the next step every [`PACE`] seconds, unless paused.
fn pace(
    time: Res<Time>,
    keys: Res<ButtonInput<KeyCode>>,
    mut watching: ResMut<Watching>,
    mut steps: MessageWriter<StepRequest>,
) {
    if keys.just_pressed(KeyCode::Space) {
        watching.paused = !watching.paused;
    }
    watching.since_step += time.delta_secs();
    let step = keys.just_pressed(KeyCode::Period);
    if step || (!watching.paused && watching.since_step >= PACE) {
        watching.since_step = 0.0;
        steps.write(StepRequest);
    }
}

/// Follows the game: the table shows the module's view after each action, the log grows.
fn follow<R: Rules>(
    game: Res<CoreGame<R>>,
    mut events: MessageReader<GameEvent<R>>,
    mut table: ResMut<Table>,
    mut watching: ResMut<Watching>,
) {
    let mut changed = false;
    for e in events.read() {
        changed = true;
        watching.log.extend(e.line.clone());
    }
    if changed {
        table.show(R::view(&game.0.state));
    }
}

/// The banner (where the game stands) and the log.
fn windows<R: Rules>(
    mut contexts: EguiContexts,
    table: Res<Table>,
    game: Res<CoreGame<R>>,
    watching: Res<Watching>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // The module's banner says how a game ended; only the pause is the table's own.
    let paused = if watching.paused && !matches!(game.0.to_move(), ToMove::Over { .. }) {
        " · paused (Space)"
    } else {
        ""
    };
    egui::Window::new("banner")
        .title_bar(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 8.0])
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                ui.heading(&table.title);
                ui.separator();
                ui.label(format!("Round {}", table.round));
                ui.separator();
                ui.label(format!("{}{paused}", table.phase));
            });
        });
    egui::Window::new("Log")
        .anchor(egui::Align2::RIGHT_TOP, [-8.0, 8.0])
        .default_width(360.0)
        .show(ctx, |ui| {
            ui.label("The rules, the dice and the heroes' autopilot play; Space pauses, . steps.");
            ui.separator();
            egui::ScrollArea::vertical()
                .max_height(420.0)
                .stick_to_bottom(true)
                .show(ui, |ui| {
                    for line in &watching.log {
                        ui.label(line);
                    }
                });
        });
    Ok(())
}
