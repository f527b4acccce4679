//! `foehold play --headless SCENARIO --seed N --heroes auto …`: plays a scenario to its end.
//!
//! The hero autopilot and the seeded tie-breaker play; the log and the result are printed. A
//! Gloomhaven-family game may be set up first (`--level L`, `--players N`); `--save FILE` keeps it.

use super::outln;
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use foehold_core::game::Game;
use foehold_core::game::save::Save;
use foehold_core::rules::view::Side;
use foehold_core::rules::{TieBreaker, ToMove, state_hash};
use foehold_desktop::files::Files;

use foehold_core::kit::{ForRules, Module, with_rules};

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
    #[command(flatten)]
    party: super::PartyArgs,
}

pub fn run(o: &PlayArgs) -> ExitCode {
    let (file, text) = match super::read_scenario(&o.scenario) {
        Ok(read) => read,
        Err(code) => return code,
    };
    match with_rules(
        &file,
        &text,
        Play {
            o,
            file: &file,
            text: &text,
        },
    ) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

/// `play` for the rule module the scenario names.
struct Play<'a> {
    o: &'a PlayArgs,
    file: &'a str,
    text: &'a str,
}

impl ForRules for Play<'_> {
    type Out = ExitCode;

    fn run<R: Module>(self) -> ExitCode {
        let Play { o, file, text } = self;
        let scenario = match R::parse_scenario_in(file, text, &super::player_library()) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        };
        let mut game = match Game::<R>::new(Arc::new(scenario), file, o.seed, TieBreaker::Seeded) {
            Ok(g) => g.with_scenario_text(text),
            Err(e) => {
                eprintln!("{file}: {e}");
                return ExitCode::from(2);
            }
        };
        let set_up = match game.set_up(o.party.choice()) {
            Ok(events) => events,
            Err(e) => {
                eprintln!("{file}: {e}");
                return ExitCode::from(2);
            }
        };
        let autosave = o
            .save
            .clone()
            .unwrap_or_else(|| std::env::temp_dir().join("foehold-autosave.ron"));
        if !o.quiet {
            let view = R::view(&game.state);
            let count = |side: Side| view.figures.iter().filter(|f| f.side == side).count();
            let n = |k: usize, one: &str, many: &str| {
                format!("{k} {}", if k == 1 { one } else { many })
            };
            let allies = match count(Side::Ally) {
                0 => String::new(),
                k => format!(" with {}", n(k, "ally", "allies")),
            };
            outln!(
                // Foes behind closed doors are not counted: the players do not know them yet.
                "{} · seed {} · {}{allies} against {} in view",
                R::scenario_name(&game.scenario),
                o.seed,
                n(count(Side::Hero), "hero", "heroes"),
                n(count(Side::Foe), "foe", "foes")
            );
            for line in set_up.iter().filter_map(|e| R::describe(&game.state, e)) {
                outln!("{line}");
            }
        }
        let mut save_error = None;
        let mut steps = 0;
        while steps < MAX_ACTIONS {
            let Some(action) = game.auto_action() else {
                break;
            };
            let round = R::round(&game.state);
            let events = match game.apply(action.clone()) {
                Ok(ev) => ev,
                Err(e) => {
                    eprintln!("foehold play: the autopilot's action {action:?} was refused: {e}");
                    break;
                }
            };
            steps += 1;
            if !o.quiet {
                for line in events.iter().filter_map(|e| R::describe(&game.state, e)) {
                    outln!("{line}");
                }
            }
            // Autosave whenever a round ends.
            if R::round(&game.state) != round
                && let Err(e) = Save::of(&game).write(&mut Files, &autosave)
            {
                save_error = Some(e);
            }
        }
        if let Some(path) = &o.save
            && let Err(e) = Save::of(&game).write(&mut Files, path)
        {
            save_error = Some(e);
        }
        let over = game.to_move();
        let result = match over {
            ToMove::Over { won: true } => "victory",
            ToMove::Over { won: false } => "defeat",
            _ => "unfinished",
        };
        outln!(
            "result: {result} in round {} after {} actions · state hash {}",
            R::round(&game.state),
            game.actions().len(),
            state_hash(&game.state)
        );
        if let Some(e) = save_error {
            eprintln!("foehold play: cannot write the save: {e}");
            return ExitCode::from(1);
        }
        if matches!(over, ToMove::Over { .. }) {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        }
    }
}
