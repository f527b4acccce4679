//! The `foehold` command: headless subcommands for solving, odds and play, and the 3D table (its own
//! program, `foehold-table`, started from here) when no subcommand is given.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use foehold::cli;

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
    table: foehold_desktop::TableArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// What does the active foe do? Answers case files of every rule module
    Solve(cli::solve::SolveArgs),
    /// Exact damage odds of an attack modifier draw
    Odds(cli::odds::OddsArgs),
    /// Play a scenario to the end with the hero autopilot
    Play(cli::play::PlayArgs),
    /// How often each rule decided something over seeded autopilot games
    Coverage(cli::coverage::CoverageArgs),
    /// Check scenarios, cases and library files without playing them: errors and warnings
    Check(cli::check::CheckArgs),
    /// A case file as a short code to paste into the position lab, and back
    Code(cli::code::CodeArgs),
    /// A scenario with the monsters and classes it names as a share code or bundle, and back
    Share(cli::share::ShareArgs),
    /// Re-run a save and check its final state hash
    Replay(cli::replay::ReplayArgs),
    /// Host a game for friends on other machines: prints the code they join with
    #[cfg(feature = "online")]
    Host(cli::online::HostArgs),
    /// Join a friend's game with the code its host printed
    #[cfg(feature = "online")]
    Join(cli::online::JoinArgs),
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
        Some(Command::Coverage(a)) => cli::coverage::run(a),
        Some(Command::Code(a)) => cli::code::run(a),
        Some(Command::Check(a)) => cli::check::run(a),
        Some(Command::Share(a)) => cli::share::run(a),
        #[cfg(feature = "online")]
        Some(Command::Host(a)) => cli::online::host(a),
        #[cfg(feature = "online")]
        Some(Command::Join(a)) => cli::online::join(a),
        #[cfg(feature = "dev")]
        Some(Command::WriteSavesForever(a)) => cli::saves::run(a),
        None => table(&cli.table),
    }
}

/// Starts the 3D table, the program `foehold-table` beside this one, with the same arguments. It
/// is a program of its own so that the headless commands start without loading an engine.
fn table(_args: &foehold_desktop::TableArgs) -> ExitCode {
    let name = format!("foehold-table{}", std::env::consts::EXE_SUFFIX);
    let Some(path) = std::env::current_exe()
        .ok()
        .map(|me| me.with_file_name(&name))
        .filter(|p| p.is_file())
    else {
        eprintln!(
            "foehold: the 3D table ({name}) is not built beside this program: build it with \
             `cargo build --release -p foehold-table`, or see `foehold --help` for the headless commands"
        );
        return ExitCode::from(2);
    };
    let mut command = std::process::Command::new(&path);
    command.args(std::env::args_os().skip(1));
    #[cfg(unix)]
    {
        // The table takes this process's place: one process, whose exit status is the table's.
        use std::os::unix::process::CommandExt;
        let e = command.exec();
        eprintln!("foehold: cannot start {}: {e}", path.display());
        ExitCode::FAILURE
    }
    #[cfg(not(unix))]
    match command.status() {
        Ok(status) => ExitCode::from(u8::try_from(status.code().unwrap_or(1)).unwrap_or(1)),
        Err(e) => {
            eprintln!("foehold: cannot start {}: {e}", path.display());
            ExitCode::FAILURE
        }
    }
}
