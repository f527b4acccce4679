//! Playtests of a draft: seeded autopilot games, one at a time, so that a table can show the
//! progress and stop them.

use std::sync::Arc;

use crate::game::coverage::{Report, cover_for};
use crate::library::Library;
use crate::rules::PartyChoice;
use crate::rules::coverage::Coverage;

/// The most games one playtest plays.
pub const MAX_GAMES: u32 = 10_000;

/// Seeded autopilot games of one scenario, played a game a step.
pub struct Playtest {
    /// Plays the game of a seed.
    play: Box<dyn FnMut(u64) -> Result<Report, String> + Send>,
    /// The games played so far, merged.
    pub report: Report,
    /// How many games it plays in all.
    pub games: u32,
    /// Why a game could not be set up, if one could not: the playtest stops there.
    pub trouble: Option<String>,
}

impl Playtest {
    /// `games` seeded games (seeds 0, 1, …) of the scenario `text` read with `library`, each set
    /// up for `choice`; an error when the scenario does not load.
    pub fn new<R: Coverage>(
        file: &str,
        text: &str,
        library: &Library,
        games: u32,
        choice: PartyChoice,
    ) -> Result<Playtest, String> {
        if games == 0 || games > MAX_GAMES {
            return Err(format!("{games} games: a playtest plays 1 to {MAX_GAMES}"));
        }
        let scenario =
            Arc::new(R::parse_scenario_in(file, text, library).map_err(|e| e.to_string())?);
        let file = file.to_string();
        Ok(Playtest {
            play: Box::new(move |seed| {
                cover_for::<R>(&scenario, &file, [seed], choice.clone()).map_err(|e| e.to_string())
            }),
            report: Report::default(),
            games,
            trouble: None,
        })
    }

    /// How many games are played.
    pub fn played(&self) -> u32 {
        self.report.games()
    }

    /// Whether every game is played (or one could not be set up).
    pub fn done(&self) -> bool {
        self.trouble.is_some() || self.played() >= self.games
    }

    /// Plays the next game; false when none is left.
    pub fn step(&mut self) -> bool {
        if self.done() {
            return false;
        }
        let seed = u64::from(self.played());
        match (self.play)(seed) {
            Ok(one) => merge(&mut self.report, one),
            Err(e) => self.trouble = Some(e),
        }
        !self.done()
    }

    /// The share of games won, in whole per cent.
    pub fn win_rate(&self) -> Option<u32> {
        let n = self.played();
        (n > 0).then(|| (self.report.won * 100 + n / 2) / n)
    }
}

/// Adds one game's report to the games' before it.
fn merge(all: &mut Report, one: Report) {
    let first = all.games() == 0;
    if first {
        *all = one;
        return;
    }
    for ((_, c), (_, d)) in all.rules.iter_mut().zip(&one.rules) {
        c.times += d.times;
        c.games += d.games;
    }
    all.won += one.won;
    all.lost += one.lost;
    all.unfinished += one.unfinished;
    all.rounds.extend(one.rounds);
    // A claimed rule is missing while no game has fired it.
    all.missing.retain(|m| one.missing.contains(m));
}
