//! `foehold coverage SCENARIO --seeds N [--level L] [--players N]`: how often each rule fired.
//!
//! It plays N seeded autopilot games and prints how often each rule of the scenario's module
//! decided something, with wins, losses and rounds.

use super::outln;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use foehold_core::game::coverage::{Report, cover_for};

use foehold_core::kit::{ForRules, Module, with_rules};

/// The most games one run plays.
const MAX_SEEDS: u64 = 100_000;

/// Plays seeded autopilot games and counts how often each rule of the module decided something.
///
/// Exit 0; 1 when a rule the scenario claims never fired; 2 on bad input.
#[derive(Debug, Args)]
pub struct CoverageArgs {
    /// The scenario file
    scenario: PathBuf,
    /// How many games, with the seeds FIRST, FIRST + 1, …
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=MAX_SEEDS))]
    seeds: u64,
    /// The first game's seed
    #[arg(long, default_value_t = 0, value_name = "FIRST")]
    first_seed: u64,
    #[command(flatten)]
    party: super::PartyArgs,
}

pub fn run(o: &CoverageArgs) -> ExitCode {
    let (file, text) = match super::read_scenario(&o.scenario) {
        Ok(read) => read,
        Err(code) => return code,
    };
    match with_rules(
        &file,
        &text,
        Cover {
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

/// `coverage` for the rule module the scenario names.
struct Cover<'a> {
    o: &'a CoverageArgs,
    file: &'a str,
    text: &'a str,
}

impl ForRules for Cover<'_> {
    type Out = ExitCode;

    fn run<R: Module>(self) -> ExitCode {
        let Cover { o, file, text } = self;
        let scenario = match R::parse_scenario_in(file, text, &super::player_library()) {
            Ok(s) => Arc::new(s),
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        };
        let last = o.first_seed.saturating_add(o.seeds - 1);
        let report = match cover_for::<R>(&scenario, file, o.first_seed..=last, o.party.choice()) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{file}: {e}");
                return ExitCode::from(2);
            }
        };
        print(R::scenario_name(&scenario), &report, o.first_seed, last);
        if report.missing.is_empty() && report.unknown.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        }
    }
}

/// The table: one row per rule, then the results.
fn print(name: &str, r: &Report, first: u64, last: u64) {
    let games = r.games();
    outln!("{name} · {games} games, seeds {first} to {last}");
    let width = r
        .rules
        .iter()
        .map(|(n, _)| n.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    outln!("{:<width$}  {:>7}  {:>7}", "rule", "games", "times");
    for (rule, c) in &r.rules {
        let mark = if c.times == 0 { "  never" } else { "" };
        outln!("{rule:<width$}  {:>7}  {:>7}{mark}", c.games, c.times);
    }
    let pct = |n: u32| {
        if games == 0 {
            0
        } else {
            (u64::from(n) * 100 + u64::from(games) / 2) / u64::from(games)
        }
    };
    outln!(
        "won {} ({} %) · lost {} · unfinished {}",
        r.won,
        pct(r.won),
        r.lost,
        r.unfinished
    );
    let total: u64 = r.rounds.iter().map(|&x| u64::from(x)).sum();
    outln!(
        "rounds: median {} · min {} · max {} · total {total}",
        r.median_round().unwrap_or(0),
        r.rounds.iter().min().copied().unwrap_or(0),
        r.rounds.iter().max().copied().unwrap_or(0),
    );
    for claim in &r.missing {
        outln!("claimed but never fired: {claim}");
    }
    for claim in &r.unknown {
        outln!("claimed but not a rule of this module: {claim}");
    }
}
