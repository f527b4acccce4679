//! `foehold write-saves-forever SCENARIO SAVE` (hidden): writes one save over and over until killed.
//!
//! It plays a scenario headless, then writes its save as a rotating autosave again and again, each time
//! with the next number as its seed. The test that kills a writer at random moments runs it.

use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use foehold_core::rules::gloomhaven::{Game, Save, Scenario, TieBreaker};
use foehold_desktop::files::{Files, read_file};

#[derive(Debug, Args)]
pub struct WriteArgs {
    /// The scenario to play before writing
    scenario: PathBuf,
    /// The autosave to write over and over
    save: PathBuf,
    /// Stop after this many writes (0: never)
    #[arg(long, default_value_t = 0)]
    count: u64,
}

pub fn run(a: &WriteArgs) -> ExitCode {
    let read = read_file(&a.scenario)
        .and_then(|text| Scenario::parse(&a.scenario.display().to_string(), &text));
    let scenario = match read {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let path = a.scenario.display().to_string();
    let mut game = match Game::new(Arc::new(scenario), path, 1, TieBreaker::Seeded) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{}: {e}", super::shown(&a.scenario));
            return ExitCode::from(2);
        }
    };
    game.play_out(200_000, |_, _, _| {});
    let mut save = Save::of(&game);
    let mut n = 0;
    while a.count == 0 || n < a.count {
        // The seed marks which write a file holds; the test checks it reads back whole.
        save.seed = n;
        if let Err(e) = save.write_autosave(&mut Files, &a.save) {
            eprintln!("cannot write: {e}");
            return ExitCode::from(1);
        }
        n += 1;
    }
    ExitCode::SUCCESS
}
