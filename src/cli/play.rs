//! `foehold play --headless SCENARIO --seed N --heroes auto [--save FILE] [--quiet]`: plays a scenario
//! to the end with the hero autopilot and the seeded tie-breaker, printing the log and the result.

use super::outln;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use foehold_core::rules::gloomhaven::Save;
use foehold_core::rules::gloomhaven::{Event, Game, Phase, Scenario, TieBreaker, log};

const USAGE: &str =
    "usage: foehold play --headless SCENARIO --seed N --heroes auto [--save FILE] [--quiet]";

/// Safety net against a game that would never end (the scenarios have round limits).
const MAX_ACTIONS: usize = 200_000;

struct Options {
    scenario: PathBuf,
    seed: u64,
    save: Option<PathBuf>,
    quiet: bool,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let (mut scenario, mut seed, mut save, mut quiet, mut headless, mut heroes) =
        (None, None, None, false, false, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--headless" => headless = true,
            "--quiet" | "-q" => quiet = true,
            "--seed" => {
                let v = it.next().ok_or("--seed needs a number")?;
                seed = Some(
                    v.parse::<u64>()
                        .map_err(|_| format!("--seed: {v:?} is not a whole number"))?,
                );
            }
            "--heroes" => heroes = Some(it.next().ok_or("--heroes needs a value (auto)")?.clone()),
            "--save" => save = Some(PathBuf::from(it.next().ok_or("--save needs a file")?)),
            s if s.starts_with('-') => return Err(format!("unknown option {s}")),
            s => {
                if scenario.replace(PathBuf::from(s)).is_some() {
                    return Err("only one scenario file, please".into());
                }
            }
        }
    }
    if !headless {
        return Err(
            "only --headless play exists on the command line; the 3D table plays on screen".into(),
        );
    }
    match heroes.as_deref() {
        Some("auto") => {}
        Some(o) => {
            return Err(format!(
                "--heroes {o}: only `auto` (the autopilot) plays heroes headless"
            ));
        }
        None => {
            return Err(
                "--heroes auto is required: headless heroes are played by the autopilot".into(),
            );
        }
    }
    Ok(Options {
        scenario: scenario.ok_or("a scenario file is required")?,
        seed: seed.unwrap_or(0),
        save,
        quiet,
    })
}

pub fn run(args: &[String]) -> ExitCode {
    let o = match parse(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("foehold play: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let scenario = match Scenario::load(&o.scenario) {
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
        Ok(g) => g,
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
