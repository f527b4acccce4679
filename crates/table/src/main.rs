//! `foehold-table`: the 3D table. `foehold` without a subcommand starts it with the same arguments.

use std::process::ExitCode;

use clap::Parser;
use foehold_desktop::TableArgs;

mod app;
mod modules;

/// A 3D tabletop simulator whose foes play themselves by the printed rules: the table.
#[derive(Debug, Parser)]
#[command(name = "foehold", version)]
struct Cli {
    #[command(flatten)]
    table: TableArgs,
}

fn main() -> ExitCode {
    app::run(&Cli::parse().table)
}
