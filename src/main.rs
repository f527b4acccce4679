//! The `foehold` command: the 3D table by default, plus headless subcommands for solving, odds and play.

use std::process::ExitCode;

#[cfg(feature = "app")]
mod app;
mod cli;

const USAGE: &str = "\
usage:
  foehold [SCENARIO] [--seed N] [--autoplay] [--screenshot PNG [--after-frames N] [--check-not-blank]]
                                          the 3D table (default scenario when none is given)
  foehold solve [--json] FILE|DIR...      what does the active foe do? (puzzle files)
  foehold odds [--json] FILE              exact damage odds of an attack modifier draw
  foehold play --headless SCENARIO --seed N --heroes auto [--save FILE] [--quiet]
                                          play a scenario to the end with the hero autopilot
  foehold replay SAVE [--quiet]           re-run a save and check its final state hash
  foehold help                            this text
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("solve") => cli::solve::run(&args[1..]),
        Some("odds") => cli::odds::run(&args[1..]),
        Some("play") => cli::play::run(&args[1..]),
        Some("replay") => cli::replay::run(&args[1..]),
        Some("help" | "--help" | "-h") => {
            cli::out!("{USAGE}");
            ExitCode::SUCCESS
        }
        // Anything else (nothing, a scenario file, `--screenshot …`) opens the 3D table.
        _ => table(&args),
    }
}

#[cfg(feature = "app")]
fn table(args: &[String]) -> ExitCode {
    app::run(args)
}

#[cfg(not(feature = "app"))]
fn table(_args: &[String]) -> ExitCode {
    eprint!("foehold: the 3D table was not built (build with the `app` feature)\n{USAGE}");
    ExitCode::from(2)
}
