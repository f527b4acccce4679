//! `foehold odds [--json] FILE`: the exact damage distribution of one attack modifier draw.

use super::{out, outln};
use std::path::Path;
use std::process::ExitCode;

use foehold_core::error::read_file;
use foehold_core::modifiers::OddsQuery;

const USAGE: &str = "usage: foehold odds [--json] FILE

FILE is a query, e.g.
  OddsQuery(
      deck: [\"+0\", \"+1\", \"-1\", \"x2\", \"null\", \"bless\", \"r+1\", (2, \"+0\")],
      attack: 3,       // the value after the attacker's own modifiers
      shield: 1,       // the target's shield
      mode: Advantage, // Normal | Advantage | Disadvantage
      pierce: 0,       // optional: the attack's own pierce
  )
`deck` is the draw pile, every order equally likely.";

/// Runs the subcommand; exit status 0 on success, 2 on bad usage or a bad query.
pub fn run(args: &[String]) -> ExitCode {
    let mut json = false;
    let mut files = Vec::new();
    for arg in args {
        match arg.as_str() {
            "--json" => json = true,
            "-h" | "--help" => {
                outln!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            s if s.starts_with('-') && s.len() > 1 => {
                eprintln!("foehold odds: unknown option `{s}`\n{USAGE}");
                return ExitCode::from(2);
            }
            _ => files.push(arg.as_str()),
        }
    }
    let [file] = files.as_slice() else {
        eprintln!(
            "foehold odds: expected exactly one query file, found {}\n{USAGE}",
            files.len()
        );
        return ExitCode::from(2);
    };
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
