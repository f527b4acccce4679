//! `foehold play --headless SCENARIO --seed N --heroes auto [--save FILE] [--quiet]`: plays a scenario
//! to the end with the hero autopilot and the seeded tie-breaker, printing the log and the result.

use super::outln;
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use foehold_core::error::read_file;
use foehold_core::rules::gloomhaven::Save;
use foehold_core::rules::gloomhaven::{Event, Game, Phase, Scenario, TieBreaker, log};

/// Safety net against a game that would never end (the scenarios have round limits).
const MAX_ACTIONS: usize = 200_000;

/// Who plays the heroes headless.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Heroes {
    /// The hero autopilot
    Auto,
}

/// Plays a scenario to its end with the hero autopilot and the seeded tie-breaker, printing the log
/// and the result (exit 0 when the game ends, 1 when it does not, 2 on bad input).
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Without the 3D table: the only way to play from the command line
    #[arg(long, required = true)]
    headless: bool,
    /// The scenario file
    scenario: PathBuf,
    /// Seed of the game's dice
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Who plays the heroes
    #[arg(long, value_enum, required = true)]
    heroes: Heroes,
    /// Where to write the save when the game ends
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// Print only the result
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(o: &PlayArgs) -> ExitCode {
    let file = o.scenario.display().to_string();
    let loaded = read_file(&o.scenario).and_then(|text| Ok((Scenario::parse(&file, &text)?, text)));
    let (scenario, text) = match loaded {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let mut game = match Game::new(
        Arc::new(scenario),
        o.scenario.display().to_string(),
        o.seed,
        TieBreaker::Seeded,
    ) {
        Ok(g) => g.with_scenario_text(&text),
        Err(e) => {
            eprintln!("{}: {e}", o.scenario.display());
            return ExitCode::from(2);
        }
    };
    let autosave = o
        .save
        .clone()
        .unwrap_or_else(|| std::env::temp_dir().join("foehold-autosave.ron"));
    if !o.quiet {
        outln!(
            "{} · seed {} · {} heroes against {} foes",
            game.state.scenario.name,
            o.seed,
            game.state.heroes.len(),
            game.state.monsters.len()
        );
    }
    let mut save_error = None;
    let mut steps = 0;
    while steps < MAX_ACTIONS {
        let Some(action) = game.auto_action() else {
            break;
        };
        let events = match game.apply(action.clone()) {
            Ok(ev) => ev,
            Err(e) => {
                eprintln!("foehold play: the autopilot's action {action:?} was refused: {e}");
                break;
            }
        };
        steps += 1;
        if !o.quiet {
            for line in log::lines(&game.state, &events) {
                outln!("{line}");
            }
        }
        // Autosave at the end of every round.
        if events.iter().any(|e| matches!(e, Event::RoundEnded { .. }))
            && let Err(e) = Save::of(&game).write(&autosave)
        {
            save_error = Some(format!("{}: {e}", autosave.display()));
        }
    }
    if let Some(path) = &o.save
        && let Err(e) = Save::of(&game).write(path)
    {
        save_error = Some(format!("{}: {e}", path.display()));
    }
    let s = &game.state;
    let result = match s.phase {
        Phase::Victory => "victory",
        Phase::Defeat => "defeat",
        _ => "unfinished",
    };
    outln!(
        "result: {result} in round {} after {} actions · state hash {}",
        s.round,
        game.actions().len(),
        s.state_hash()
    );
    if let Some(e) = save_error {
        eprintln!("foehold play: cannot write the save: {e}");
        return ExitCode::from(1);
    }
    if s.phase.is_over() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
