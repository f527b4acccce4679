//! `foehold replay SAVE [--quiet]`: re-runs a saved game from its scenario, seed and action log and
//! checks that it reaches the state hash stored in the save (exit 0 if so, 1 if not, 2 on bad input).

use super::outln;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

use foehold_core::rules::gloomhaven::Save;
use foehold_core::rules::gloomhaven::log;

/// Re-runs a save from its scenario, seed and action log and checks that it reaches the state hash
/// stored in the save (exit 0 if so, 1 if not, 2 on bad input).
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The save file
    save: PathBuf,
    /// Print only the result, not the log
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: &ReplayArgs) -> ExitCode {
    let (path, quiet) = (args.save.clone(), args.quiet);
    let save = match Save::load(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let (game, parted) = match save.replay_report(&path) {
        Ok(r) => {
            if let Some(note) = &r.scenario_changed {
                eprintln!("{}: {note}", path.display());
            }
            (r.game, r.parted)
        }
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
        match parted {
            Some(p) => eprintln!("{}: {p}", path.display()),
            None if save.hashes.is_empty() => eprintln!(
                "{}: the save records no hash per action, so where the games part is unknown",
                path.display()
            ),
            None => eprintln!(
                "{}: every action gives the state the save recorded; only the final hash differs",
                path.display()
            ),
        }
        ExitCode::from(1)
    }
}
