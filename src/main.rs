//! The `foehold` command: the 3D table by default, plus headless subcommands for solving, odds and play.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[cfg(feature = "app")]
mod app;
mod cli;
mod modules;

/// A 3D tabletop simulator whose foes play themselves by the printed rules. Without a subcommand it
/// opens the table; the subcommands work headless.
#[derive(Debug, Parser)]
#[command(
    name = "foehold",
    version,
    args_conflicts_with_subcommands = true,
    after_help = "Bad input gets `file:line:column: what was expected` on standard error and exit status 2."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    table: cli::table::TableArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// What does the active foe do? Answers case files of every rule module
    Solve(cli::solve::SolveArgs),
    /// Exact damage odds of an attack modifier draw
    Odds(cli::odds::OddsArgs),
    /// Play a scenario to the end with the hero autopilot
    Play(cli::play::PlayArgs),
    /// Re-run a save and check its final state hash
    Replay(cli::replay::ReplayArgs),
    /// Writes saves in a loop, for the test that kills a writer (not for people)
    #[cfg(feature = "dev")]
    #[command(hide = true)]
    WriteSavesForever(cli::saves::WriteArgs),
}

fn main() -> ExitCode {
    // Usage errors exit with status 2 in clap's own words; `--help` and `--version` with 0.
    let cli = Cli::parse();
    match &cli.command {
        Some(Command::Solve(a)) => cli::solve::run(a),
        Some(Command::Odds(a)) => cli::odds::run(a),
        Some(Command::Play(a)) => cli::play::run(a),
        Some(Command::Replay(a)) => cli::replay::run(a),
        #[cfg(feature = "dev")]
        Some(Command::WriteSavesForever(a)) => cli::saves::run(a),
        None => table(&cli.table),
    }
}

#[cfg(feature = "app")]
fn table(args: &cli::table::TableArgs) -> ExitCode {
    app::run(args)
}

#[cfg(not(feature = "app"))]
fn table(_args: &cli::table::TableArgs) -> ExitCode {
    eprintln!(
        "foehold: the 3D table was not built (build with the `app` feature); see `foehold --help`"
    );
    ExitCode::from(2)
}
