//! Draws and rolls entered by the players at their own table, in every shipped scenario of every
//! module: each chance step says what to draw or roll, its outcomes have names, an outcome the table
//! enters (not the one the seeded pick would take) is logged as the players' decision, and the log
//! replays to the same game.

use std::path::{Path, PathBuf};

use foehold_core::game::check::seeded_game;
use foehold_core::kit::{ForRules, Module, with_rules};
use foehold_core::rules::{Seat, ToMove, seeded_pick, state_hash};

/// Plays a seeded game in which the table enters every draw and roll, and counts them.
struct EnterEveryDraw<'a>(&'a Path);

impl ForRules for EnterEveryDraw<'_> {
    type Out = Result<usize, String>;
    fn run<R: Module>(self) -> Result<usize, String> {
        let mut game = seeded_game::<R>(self.0, 5)?;
        let mut entered = 0;
        for _ in 0..20_000 {
            match game.to_move() {
                ToMove::Over { .. } => break,
                ToMove::Chance { outcomes, .. } => {
                    let words = R::chance_words(&game.state);
                    if words.is_empty() || words == "nothing" {
                        return Err(format!("a draw with no words at action {}", game.cursor));
                    }
                    let options = game.legal_actions(Seat::Chance);
                    if options.len() != outcomes {
                        return Err(format!("{} outcomes listed of {outcomes}", options.len()));
                    }
                    if let Some(a) = options
                        .iter()
                        .find(|a| R::action_label(&game.state, a).is_empty())
                    {
                        return Err(format!("an outcome with no name: {a:?}"));
                    }
                    // Not the outcome the program would draw: the table's own card.
                    let seeded = seeded_pick(R::seed(&game.state), R::steps(&game.state), outcomes);
                    let pick = (seeded + 1) % outcomes;
                    let at = game.cursor;
                    game.enter(options[pick].clone())
                        .map_err(|e| e.to_string())?;
                    if !game.is_decision(at) {
                        return Err(format!("the entry at {at} is not the players'"));
                    }
                    entered += 1;
                }
                _ => {
                    let Some(a) = game.auto_action() else { break };
                    game.apply(a).map_err(|e| e.to_string())?;
                }
            }
        }
        let replayed = game.replay_prefix(game.cursor);
        if state_hash(&replayed) != state_hash(&game.state) {
            return Err("the log does not replay to the same game".into());
        }
        Ok(entered)
    }
}

#[test]
fn every_shipped_scenario_takes_the_draws_and_rolls_its_table_enters() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("scenarios/ exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    assert!(files.len() >= 6, "the shipped scenarios are there");
    for p in &files {
        let text = std::fs::read_to_string(p).expect("readable");
        let name = p.display().to_string();
        let entered = with_rules(&name, &text, EnterEveryDraw(p))
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        eprintln!("{name}: {entered} draws and rolls entered");
        assert!(entered > 0, "{name}: the table entered no draw");
    }
}
