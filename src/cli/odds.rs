//! `foehold odds [--json] FILE`: the exact damage distribution of one attack modifier draw.

use super::{out, outln};
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use foehold_core::modifiers::OddsQuery;
use foehold_desktop::files::read_file;

const QUERY_FORMAT: &str = "FILE is a query, e.g.
  OddsQuery(
      deck: [\"+0\", \"+1\", \"-1\", \"x2\", \"null\", \"bless\", \"r+1\", (2, \"+0\")],
      attack: 3,       // the value after the attacker's own modifiers
      shield: 1,       // the target's shield
      mode: Advantage, // Normal | Advantage | Disadvantage
      pierce: 0,       // optional: the attack's own pierce
  )
`deck` is the draw pile, every order equally likely.";

/// The exact damage distribution of one attack modifier draw (normal, advantage, disadvantage,
/// rolling cards), as fractions.
#[derive(Debug, Args)]
#[command(after_help = QUERY_FORMAT)]
pub struct OddsArgs {
    /// One JSON object instead of a table
    #[arg(long)]
    json: bool,
    /// The query file
    file: PathBuf,
}

/// Runs the subcommand; exit status 0 on success, 2 on a bad query.
pub fn run(args: &OddsArgs) -> ExitCode {
    let json = args.json;
    let file = args.file.display().to_string();
    let file = file.as_str();
    let path = Path::new(file);
    let query = match read_file(path).and_then(|text| OddsQuery::parse(file, &text)) {
        Ok(q) => q,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    match query.odds() {
        Ok(odds) if json => outln!("{}", odds.to_json()),
        Ok(odds) => out!("{}", odds.table(&query)),
        Err(e) => {
            eprintln!("{file}: {e}");
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}
