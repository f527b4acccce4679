//! `foehold replay SAVE [--quiet]`: re-runs a saved game from its scenario, seed and action log and
//! checks that it reaches the state hash stored in the save (exit 0 if so, 1 if not, 2 on bad input).

use super::outln;
use std::path::PathBuf;
use std::process::ExitCode;

use foehold_core::rules::gloomhaven::Save;
use foehold_core::rules::gloomhaven::log;

const USAGE: &str = "usage: foehold replay SAVE [--quiet]";

pub fn run(args: &[String]) -> ExitCode {
    let mut file = None;
    let mut quiet = false;
    for a in args {
        match a.as_str() {
            "--quiet" | "-q" => quiet = true,
            s if s.starts_with('-') => {
                eprintln!("foehold replay: unknown option {s}\n{USAGE}");
                return ExitCode::from(2);
            }
            s => {
                if file.replace(PathBuf::from(s)).is_some() {
                    eprintln!("foehold replay: one save file, please\n{USAGE}");
                    return ExitCode::from(2);
                }
            }
        }
    }
    let Some(path) = file else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let save = match Save::load(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let game = match save.replay(&path) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    if !quiet {
        // Print the log by replaying once more, event by event.
        let mut s = game.initial().clone();
        for a in game.actions() {
            if let Ok(ev) = s.apply(a.clone()) {
                for line in log::lines(&s, &ev) {
                    outln!("{line}");
                }
            }
        }
    }
    let hash = game.state.state_hash();
    if hash == save.state_hash {
        outln!(
            "replay: {} actions, round {}, state hash {hash} matches the save",
            game.actions().len(),
            game.state.round
        );
        ExitCode::SUCCESS
    } else {
        outln!(
            "replay: {} actions, state hash {hash} differs from the save's {}",
            game.actions().len(),
            save.state_hash
        );
        ExitCode::from(1)
    }
}
