//! The 3D table: a Bevy app that draws the board and minis and turns clicks into game actions.
//!
//! One plugin per feature; each reads the table model ([`table`]) and never decides rules itself.

use std::path::PathBuf;
use std::process::ExitCode;

use bevy::prelude::*;
use bevy::window::{PresentMode, WindowResolution};
use bevy_egui::EguiPlugin;
use foehold_core::rules::gloomhaven::Gloomhaven;
use foehold_core::rules::{Rules, rules_name};

mod bench;
mod board;
mod camera;
mod gloomhaven;
mod hotseat;
mod minis;
mod orders;
mod picking;
mod play;
mod pointer;
mod probe;
mod screenshot;
mod shows;
mod table;
mod tokens;
mod ui;
mod view;
mod watch;
mod windows;

/// The game on the table: the loop's core game of the Gloomhaven rules.
pub type CoreGame = foehold_loop::CoreGame<Gloomhaven>;

/// The command line of the table.
#[derive(Debug, Clone, Resource, Default)]
pub struct Options {
    pub scenario: Option<PathBuf>,
    pub seed: u64,
    pub autoplay: bool,
    pub screenshot: Option<PathBuf>,
    pub after_frames: u32,
    pub check_not_blank: bool,
    /// Frames per phase of the frame-time benchmark (0: no benchmark).
    pub bench_frames: u32,
    /// Where to write what the table shows, for programs that drive it (`--probe`).
    pub probe: Option<PathBuf>,
}

impl Options {
    /// The table's options as parsed from the command line.
    fn from_args(a: &crate::cli::table::TableArgs) -> Options {
        Options {
            scenario: a.scenario.clone(),
            seed: a.seed,
            autoplay: a.autoplay,
            screenshot: a.screenshot.clone(),
            after_frames: a.after_frames,
            check_not_blank: a.check_not_blank,
            bench_frames: a.bench_frames,
            probe: a.probe.clone(),
        }
    }
}

/// The colour of the empty table around the board.
pub const CLEAR: Color = Color::srgb(0.07, 0.075, 0.09);

/// Bevy's default plugins with the table's window and log filter.
fn window_plugins(title: &str, options: &Options) -> impl PluginGroup {
    DefaultPlugins
        .set(WindowPlugin {
            primary_window: Some(Window {
                title: format!("Foehold — {title}"),
                resolution: WindowResolution::new(1280, 800),
                // The benchmark measures frame time, not the display's refresh rate.
                present_mode: if options.bench_frames > 0 {
                    PresentMode::AutoNoVsync
                } else {
                    PresentMode::AutoVsync
                },
                ..default()
            }),
            ..default()
        })
        .set(bevy::log::LogPlugin {
            filter: "warn,foehold=info".into(),
            ..default()
        })
}

/// Reopens the table on the scenario in `path`, with this table's seed, autopilot and probe: its
/// rules may be another module's, whose table is another app, and a window's event loop opens once
/// per process. Returns only when the program could not be started again, with why.
pub fn reopen_on(path: &std::path::Path, options: &Options) -> String {
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => return format!("Could not reopen the table on {}:\n{e}", path.display()),
    };
    let mut command = std::process::Command::new(exe);
    command
        .arg(path)
        .arg("--seed")
        .arg(options.seed.to_string());
    if options.autoplay {
        command.arg("--autoplay");
    }
    if let Some(probe) = &options.probe {
        command.arg("--probe").arg(probe);
    }
    #[cfg(unix)]
    let e = std::os::unix::process::CommandExt::exec(&mut command);
    #[cfg(not(unix))]
    let e = match command.spawn() {
        Ok(_) => std::process::exit(0),
        Err(e) => e,
    };
    format!("Could not reopen the table on {}:\n{e}", path.display())
}

/// Opens the table window with the options of the command line.
pub fn run(args: &crate::cli::table::TableArgs) -> ExitCode {
    let options = Options::from_args(args);
    // A scenario of another rule module than Gloomhaven is watched: the table has no windows for
    // its heroes yet.
    if let Some(path) = &options.scenario
        && let Ok(text) = foehold_core::error::read_file(path)
        && rules_name(&text) != Gloomhaven::NAME
    {
        let file = path.display().to_string();
        let work = watch::Watch {
            options: options.clone(),
            file: &file,
            text: &text,
        };
        return match crate::cli::modules::with_rules(&file, &text, work) {
            Ok(code) => code,
            Err(e) => {
                eprintln!("{e}");
                ExitCode::from(2)
            }
        };
    }
    let unattended = options.screenshot.is_some() || options.bench_frames > 0;
    let (game, problem) = match table::open(&options) {
        Ok(g) => (g, None),
        Err(e) => {
            eprintln!("{e}");
            // Someone who started the table from a desktop icon sees no standard error: the table
            // opens on the default scenario and says what went wrong in the window.
            let fallback = table::default_scenario()
                .filter(|_| !unattended && options.scenario.is_some())
                .and_then(|p| table::new_game(&p, options.seed).ok());
            match fallback {
                Some(g) => (g, Some(format!("Could not open the scenario:\n{e}"))),
                None => return ExitCode::from(2),
            }
        }
    };
    let table = table::Table::of_game(&game);
    let scenario = PathBuf::from(&game.scenario_path);
    let mut app = App::new();
    app.add_plugins(window_plugins(&table.title, &options))
        .add_plugins((MeshPickingPlugin, EguiPlugin::default()))
        .insert_resource(ClearColor(CLEAR))
        .insert_resource(options)
        .insert_resource(table)
        .insert_resource(windows::Problem(problem))
        .insert_resource(foehold_loop::CoreGame(game))
        .insert_resource(play::Play {
            scenario,
            saved_at: Some(0),
        })
        .add_plugins((
            play::plugin,
            hotseat::plugin,
            orders::plugin,
            board::plugin,
            minis::plugin,
            tokens::plugin,
            camera::plugin,
            picking::plugin,
            ui::plugin,
            windows::plugin,
            gloomhaven::plugin,
            screenshot::plugin,
            bench::plugin,
            probe::plugin,
            pointer::plugin,
        ));
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

#[cfg(test)]
mod tests;
