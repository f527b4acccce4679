//! Rule coverage: play seeded autopilot games of a scenario and count how often each rule of its
//! module decided something, with the games' results.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::Game;
pub use crate::rules::coverage::Coverage;
use crate::rules::{TieBreaker, ToMove};

/// Safety net against a game that would never end (scenarios have round limits).
pub const MAX_ACTIONS: usize = 200_000;

/// How one rule fared over the games.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Count {
    /// Times it decided something, over all games.
    pub times: u64,
    /// Games in which it decided something at least once.
    pub games: u32,
}

/// The games' results and each rule's count.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Each rule of the module, in its order, with its count.
    pub rules: Vec<(&'static str, Count)>,
    /// Games the heroes won.
    pub won: u32,
    /// Games the heroes lost.
    pub lost: u32,
    /// Games that did not end (stopped by [`MAX_ACTIONS`] or a refused action).
    pub unfinished: u32,
    /// The round each game ended in, in seed order.
    pub rounds: Vec<u32>,
    /// The rules the scenario claims that never fired.
    pub missing: Vec<String>,
    /// Claimed rules the module does not know (a misspelt claim).
    pub unknown: Vec<String>,
}

impl Report {
    /// How many games were played.
    pub fn games(&self) -> u32 {
        self.won + self.lost + self.unfinished
    }

    /// The median round games ended in (the lower middle for an even count).
    pub fn median_round(&self) -> Option<u32> {
        let mut r = self.rounds.clone();
        r.sort_unstable();
        r.get(r.len().saturating_sub(1) / 2).copied()
    }

    /// The count of rule `name`, when the module knows it.
    pub fn count(&self, name: &str) -> Option<Count> {
        self.rules.iter().find(|(n, _)| *n == name).map(|(_, c)| *c)
    }
}

/// Plays one autopilot game of `scenario` per seed (ties broken by the seeded pick) and counts the
/// rules fired. A scenario the module cannot set up gives the error of the first seed.
pub fn cover<R: Coverage>(
    scenario: &Arc<R::Scenario>,
    file: &str,
    seeds: impl IntoIterator<Item = u64>,
) -> Result<Report, crate::rules::SetupError> {
    cover_for::<R>(scenario, file, seeds, crate::rules::PartyChoice::default())
}

/// [`cover`] with every game set up for `choice` (a level, a number of characters).
pub fn cover_for<R: Coverage>(
    scenario: &Arc<R::Scenario>,
    file: &str,
    seeds: impl IntoIterator<Item = u64>,
    choice: crate::rules::PartyChoice,
) -> Result<Report, crate::rules::SetupError> {
    let names = R::coverage_rules();
    let mut times: BTreeMap<&'static str, u64> = BTreeMap::new();
    let mut games: BTreeMap<&'static str, u32> = BTreeMap::new();
    let mut report = Report::default();
    let mut fired = Vec::new();
    for seed in seeds {
        let mut game = Game::<R>::new(scenario.clone(), file, seed, TieBreaker::Seeded)?;
        game.set_up(choice.clone())
            .map_err(crate::rules::SetupError)?;
        let mut this_game: Vec<&'static str> = Vec::new();
        game.play_out(MAX_ACTIONS, |after, action, events| {
            fired.clear();
            R::fired(after, action, events, &mut fired);
            this_game.extend_from_slice(&fired);
        });
        for &name in &this_game {
            *times.entry(name).or_default() += 1;
        }
        this_game.sort_unstable();
        this_game.dedup();
        for &name in &this_game {
            *games.entry(name).or_default() += 1;
        }
        match game.to_move() {
            ToMove::Over { won: true } => report.won += 1,
            ToMove::Over { won: false } => report.lost += 1,
            _ => report.unfinished += 1,
        }
        report.rounds.push(R::round(&game.state));
    }
    report.rules = names
        .iter()
        .map(|&n| {
            let count = Count {
                times: times.get(n).copied().unwrap_or(0),
                games: games.get(n).copied().unwrap_or(0),
            };
            (n, count)
        })
        .collect();
    for claim in R::claims(scenario) {
        match report.count(&claim) {
            None => report.unknown.push(claim),
            Some(c) if c.times == 0 => report.missing.push(claim),
            Some(_) => {}
        }
    }
    Ok(report)
}

/// The report as a table: rule → games fired / times, then the results (for a failing test).
#[cfg(any(test, feature = "testing"))]
fn table(file: &str, r: &Report) -> String {
    let mut out = format!("{file}\n");
    let w = r.rules.iter().map(|(rule, _)| rule.chars().count()).max();
    for (rule, c) in &r.rules {
        out.push_str(&format!(
            "  {rule:<w$} {:>3} / {}\n",
            c.games,
            c.times,
            w = w.unwrap_or(0)
        ));
    }
    out.push_str(&format!(
        "  won {} lost {} unfinished {} median round {:?}\n",
        r.won,
        r.lost,
        r.unfinished,
        r.median_round()
    ));
    out
}

/// Checks what every shipped scenario of a module must show over `seeds` autopilot games.
///
/// It claims rules, each claimed rule fires, every game ends, the heroes win a fifth to four
/// fifths of them, and the median game lasts past round 2. Panics with the coverage table.
#[cfg(any(test, feature = "testing"))]
pub fn check_shipped<R: Coverage>(shipped: &[(&str, &str)], seeds: u64) {
    for &(file, text) in shipped {
        let scenario = Arc::new(R::parse_scenario(file, text).unwrap_or_else(|e| panic!("{e}")));
        assert!(
            !R::claims(&scenario).is_empty(),
            "{file} claims what it exercises"
        );
        let r = cover::<R>(&scenario, file, 0..seeds).unwrap_or_else(|e| panic!("{file}: {e}"));
        let t = table(file, &r);
        assert!(r.unknown.is_empty(), "{file}: unknown {:?}\n{t}", r.unknown);
        assert!(
            r.missing.is_empty(),
            "{file}: never fired {:?}\n{t}",
            r.missing
        );
        assert_eq!(r.unfinished, 0, "{t}");
        let games = r.games();
        assert!(
            r.won * 5 >= games && r.won * 5 <= games * 4,
            "{file}: won {} of {games}\n{t}",
            r.won
        );
        assert!(
            r.median_round().is_some_and(|m| m > 2),
            "{file}: games end too soon\n{t}"
        );
    }
}
