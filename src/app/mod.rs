//! The 3D table: a Bevy app that draws the board and minis and turns clicks into game actions.
//!
//! One plugin per feature; each reads the table model ([`table`]) and never decides rules itself.

use std::path::PathBuf;
use std::process::ExitCode;

use bevy::prelude::*;
use bevy::window::{PresentMode, WindowResolution};
use bevy_egui::EguiPlugin;

mod bench;
mod board;
mod camera;
mod hotseat;
mod minis;
mod mirror;
mod orders;
mod panels;
mod picking;
mod play;
mod screenshot;
mod table;
mod ui;
mod view;

const USAGE: &str = "\
usage: foehold [SCENARIO] [--seed N] [--autoplay]
               [--screenshot PATH [--after-frames N] [--check-not-blank]] [--bench-frames N]
  SCENARIO            a scenario file (default: the first file under scenarios/)
  --seed N            seed of the game's dice (default 1)
  --autoplay          the heroes' autopilot plays too
  --screenshot PATH   render N frames, save the window to PATH (PNG) and exit
  --after-frames N    frames to render before the screenshot (default 60)
  --check-not-blank   exit 1 when the screenshot is a blank picture
  --bench-frames N    frame time of the board with 100 minis against a bare 3D scene
";

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
}

impl Options {
    fn parse(args: &[String]) -> Result<Options, String> {
        let mut o = Options {
            seed: 1,
            after_frames: 60,
            ..Options::default()
        };
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let mut value = |name: &str| {
                it.next()
                    .cloned()
                    .ok_or_else(|| format!("{name} needs a value"))
            };
            match a.as_str() {
                "--seed" => o.seed = number(&value("--seed")?, "--seed")?,
                "--autoplay" => o.autoplay = true,
                "--screenshot" => o.screenshot = Some(PathBuf::from(value("--screenshot")?)),
                "--after-frames" => {
                    o.after_frames = number(&value("--after-frames")?, "--after-frames")?;
                }
                "--check-not-blank" => o.check_not_blank = true,
                "--bench-frames" => {
                    o.bench_frames = number(&value("--bench-frames")?, "--bench-frames")?;
                }
                s if s.starts_with("--") => return Err(format!("unknown option {s}")),
                s if o.scenario.is_none() => o.scenario = Some(PathBuf::from(s)),
                s => return Err(format!("unexpected argument {s} (one scenario at a time)")),
            }
        }
        Ok(o)
    }
}

fn number<T: std::str::FromStr>(s: &str, name: &str) -> Result<T, String> {
    s.parse()
        .map_err(|_| format!("{name}: expected a whole number, got {s:?}"))
}

/// Opens the table window. `args` are the command-line arguments after the program name.
pub fn run(args: &[String]) -> ExitCode {
    let options = match Options::parse(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("foehold: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let game = match table::open(&options) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let table = table::Table::of_game(&game);
    let scenario = PathBuf::from(&game.scenario_path);
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: format!("Foehold — {}", table.title),
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
            }),
    )
    .add_plugins((MeshPickingPlugin, EguiPlugin::default()))
    .insert_resource(ClearColor(Color::srgb(0.07, 0.075, 0.09)))
    .insert_resource(options)
    .insert_resource(table)
    .insert_resource(foehold_loop::CoreGame(game))
    .insert_resource(play::Play { scenario })
    .add_plugins((
        play::plugin,
        hotseat::plugin,
        orders::plugin,
        board::plugin,
        minis::plugin,
        camera::plugin,
        picking::plugin,
        ui::plugin,
        screenshot::plugin,
        bench::plugin,
    ));
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

#[cfg(test)]
mod tests;
