//! `foehold replay SAVE [--quiet]`: re-runs a saved game from its scenario, seed and action log and
//! checks that it reaches the state hash stored in the save (exit 0 if so, 1 if not, 2 on bad input).

use super::outln;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

use foehold_core::game::save::{SAVE_FORMAT, Save};
use foehold_core::rules::state_hash;
use foehold_desktop::files::{Files, read_file};

use foehold_core::kit::{ForRules, Module, with_rules};

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
    let file = args.save.display().to_string();
    let text = match read_file(&args.save) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    match with_rules(&file, &text, Replay { args, text: &text }) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

/// `replay` for the rule module the save names.
struct Replay<'a> {
    args: &'a ReplayArgs,
    text: &'a str,
}

impl ForRules for Replay<'_> {
    type Out = ExitCode;

    fn run<R: Module>(self) -> ExitCode {
        let (path, quiet) = (&self.args.save, self.args.quiet);
        let save = match Save::<R>::parse(&path.display().to_string(), self.text) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        };
        let (game, parted, converted) =
            match save.replay_report_in(&Files, path, &super::player_library()) {
                Ok(r) => {
                    if let Some(note) = &r.scenario_changed {
                        eprintln!("{}: {note}", super::shown(path));
                    }
                    (r.game, r.parted, r.converted)
                }
                Err(e) => {
                    eprintln!("{}: {e}", super::shown(path));
                    return ExitCode::from(2);
                }
            };
        if !quiet {
            for line in game.log_lines() {
                outln!("{line}");
            }
        }
        let hash = state_hash(&game.state);
        if let Some(note) = converted {
            // Its hashes are of the old format's state: the rebuilding checked each action
            // against the old rules' own run instead.
            eprintln!("{}: {note}", super::shown(path));
            outln!(
                "replay: {} actions, round {}, state hash {hash} (format {SAVE_FORMAT})",
                game.actions().len(),
                R::round(&game.state)
            );
            ExitCode::SUCCESS
        } else if hash == save.state_hash
            && let Some(p) = &parted
        {
            // The end agrees but the way there does not: the save's per-action hashes are not
            // this game's.
            outln!(
                "replay: {} actions, state hash {hash} matches the save, but an action's does not",
                game.actions().len(),
            );
            eprintln!("{}: {p}", super::shown(path));
            ExitCode::from(1)
        } else if hash == save.state_hash {
            outln!(
                "replay: {} actions, round {}, state hash {hash} matches the save",
                game.actions().len(),
                R::round(&game.state)
            );
            ExitCode::SUCCESS
        } else {
            outln!(
                "replay: {} actions, state hash {hash} differs from the save's {}",
                game.actions().len(),
                save.state_hash
            );
            match parted {
                Some(p) => eprintln!("{}: {p}", super::shown(path)),
                None if save.hashes.is_empty() => eprintln!(
                    "{}: the save records no hash per action, so where the games part is unknown",
                    super::shown(path)
                ),
                None => eprintln!(
                    "{}: every action gives the state the save recorded; only the final hash differs",
                    super::shown(path)
                ),
            }
            ExitCode::from(1)
        }
    }
}
