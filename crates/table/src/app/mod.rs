//! The 3D table: a Bevy app that draws the board and minis and turns clicks into game actions.
//!
//! One app for every rule module: the driver ([`driver`]) plays whichever module's game is on the
//! table, the board drawing reads the table model ([`table`]), and a module adds only its own
//! windows in its own folder. No plugin decides a rule itself.

use std::path::PathBuf;
use std::process::ExitCode;

use bevy::prelude::*;
use bevy::window::{PresentMode, WindowResolution};
use bevy_egui::EguiPlugin;

mod board;
mod camera;
mod clipboard;
#[cfg(feature = "dev")]
mod dev;
mod dock;
mod driver;
mod fields;
mod focus;
pub mod gloomhaven;
mod keys;
pub mod lab;
mod minis;
mod notice;
mod online;
mod picking;
mod plans;
mod pointer;
pub mod screen;
mod shown;
pub mod store;
mod table;
mod tag;
mod tokens;
mod ui;
mod view;
mod windows;
pub mod workshop;

/// The command line of the table.
#[derive(Debug, Clone, Resource)]
pub struct Options {
    pub scenario: Option<PathBuf>,
    /// Open the position lab on a blank position of this module.
    pub lab: Option<String>,
    /// Open the scenario workshop (on the scenario given, else on a new one).
    pub workshop: bool,
    pub seed: u64,
    pub autoplay: bool,
    /// The players draw and roll at their own table and enter the outcomes (`--table-draws`).
    pub table_draws: bool,
    /// The speed of the rules' own steps at the start (`--speed`).
    pub speed: f32,
    /// Online play asked for on the command line (`--host`, `--join`).
    pub online: foehold_desktop::OnlineArgs,
    /// The tools' options, in a build with them.
    #[cfg(feature = "dev")]
    pub tools: foehold_desktop::DevArgs,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            scenario: None,
            lab: None,
            workshop: false,
            seed: 0,
            autoplay: false,
            table_draws: false,
            // The usual pace, as the slider starts.
            speed: 1.0,
            online: Default::default(),
            #[cfg(feature = "dev")]
            tools: Default::default(),
        }
    }
}

impl Options {
    /// The table's options as parsed from the command line.
    fn from_args(a: &foehold_desktop::TableArgs) -> Options {
        Options {
            scenario: a.scenario.clone(),
            lab: a.lab.clone(),
            workshop: a.workshop,
            seed: a.seed,
            autoplay: a.autoplay,
            table_draws: a.table_draws,
            speed: a.speed,
            online: a.online.clone(),
            #[cfg(feature = "dev")]
            tools: a.dev.clone(),
        }
    }

    /// A run no one watches (a screenshot, the frame benchmark): it skips the Players window.
    pub fn unattended(&self) -> bool {
        #[cfg(feature = "dev")]
        let tools = self.tools.screenshot.is_some() || self.benchmark();
        #[cfg(not(feature = "dev"))]
        let tools = false;
        tools
    }

    /// Whether the board is drawn without shadows and multisampling (`--quick-render`).
    pub fn quick_render(&self) -> bool {
        #[cfg(feature = "dev")]
        let quick = self.tools.quick_render;
        #[cfg(not(feature = "dev"))]
        let quick = false;
        quick
    }

    /// The frame benchmark runs: frames as fast as they go, the rules paused.
    pub fn benchmark(&self) -> bool {
        #[cfg(feature = "dev")]
        let bench = self.tools.bench_frames > 0;
        #[cfg(not(feature = "dev"))]
        let bench = false;
        bench
    }
}

/// The colour of the empty table around the board.
pub const CLEAR: Color = Color::srgb(0.07, 0.075, 0.09);

/// Bevy's default plugins with the table's window and log filter; the window is named after the
/// scenario once one is on the table.
fn window_plugins(title: &str, options: &Options) -> impl PluginGroup {
    DefaultPlugins
        .set(WindowPlugin {
            primary_window: Some(Window {
                title: format!("Foehold — {title}"),
                resolution: WindowResolution::new(1280, 800),
                // The benchmark measures frame time, not the display's refresh rate.
                present_mode: if options.benchmark() {
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

/// Opens a file on the table: a case file (a puzzle, a fight's question, a foe's turn) is a
/// position and opens in the lab; a scenario or save starts its game.
fn open_file(world: &mut World, path: &std::path::Path, seed: u64) -> Result<(), String> {
    let text = world.resource::<store::Store>().read(path)?;
    if foehold_core::kit::is_case(&text) {
        return lab::open_case(world, &path.display().to_string(), &text);
    }
    driver::open::open(world, path, seed)
}

/// Opens the workshop on a scenario file, or on a new scenario of the first module it makes.
fn open_in_workshop(world: &mut World, path: Option<&std::path::Path>) -> Result<(), String> {
    match path {
        Some(path) => {
            let text = world.resource::<store::Store>().read(path)?;
            workshop::open_file(world, &path.display().to_string(), &text)
        }
        None => workshop::open_blank(world, foehold_core::workshop::any::shop_modules()[0].module),
    }
}

/// Opens the table window with the options of the command line.
pub fn run(args: &foehold_desktop::TableArgs) -> ExitCode {
    let options = Options::from_args(args);
    let unattended = options.unattended();
    let mut app = App::new();
    app.add_plugins(window_plugins("", &options))
        .add_plugins((MeshPickingPlugin, EguiPlugin::default()))
        .insert_resource(ClearColor(CLEAR))
        .insert_resource(options.clone())
        .add_plugins((
            screen::plugin,
            driver::plugin,
            board::plugin,
            minis::plugin,
            tokens::plugin,
            camera::plugin,
            dock::plugin,
            picking::plugin,
            ui::plugin,
            windows::plugin,
            pointer::plugin,
            lab::plugin,
            online::plugin,
        ))
        .add_plugins((
            notice::plugin,
            clipboard::plugin,
            keys::plugin,
            plans::plugin,
            workshop::plugin,
        ));
    #[cfg(feature = "dev")]
    app.add_plugins(dev::plugin);
    // The first game goes on the table before the first frame, as any later one does.
    let path = options
        .scenario
        .clone()
        .or_else(|| store::default_scenario(&foehold_desktop::files::Files));
    let opened = match (&options.lab, &path) {
        (Some(module), _) => lab::open_blank(app.world_mut(), module),
        (None, _) if options.workshop => {
            open_in_workshop(app.world_mut(), options.scenario.as_deref())
        }
        (None, Some(p)) => open_file(app.world_mut(), p, options.seed),
        (None, None) => Err("no scenario given and none found under scenarios/".into()),
    };
    if let Err(e) = opened {
        eprintln!("{e}");
        // Someone who started the table from a desktop icon sees no standard error: the table
        // opens on the default scenario and says what went wrong in the window.
        let fallback = store::default_scenario(&foehold_desktop::files::Files)
            .filter(|_| !unattended && options.scenario.is_some())
            .is_some_and(|p| driver::open::open(app.world_mut(), &p, options.seed).is_ok());
        if !fallback {
            return ExitCode::from(2);
        }
        app.world_mut().resource_mut::<driver::Problem>().0 =
            Some(format!("Could not open the scenario:\n{e}"));
    }
    // Before the first frame, as any later arrival comes before its frame's state transition.
    screen::take_arrivals(app.world_mut());
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}
