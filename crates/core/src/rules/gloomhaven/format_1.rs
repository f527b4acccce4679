//! Saves of format 1: their draws rebuilt from the generator a Gloomhaven state held then.
//!
//! Until 2026-11-24 a Gloomhaven state carried a `ChaCha8` generator seeded with the game's seed: it
//! shuffled every deck at setup (each hero's modifier deck in turn, then each monster type's
//! ability pile, then the monsters' modifier deck), shuffled a pile again whenever it was refilled
//! or had a blessing or curse shuffled in, and chose the card a short rest loses. Each draw took
//! the top of its pile, and no draw was logged. Today every deck keeps its cards unshuffled and
//! each draw is a chance action; the same generator is still called at the same places through a
//! format-1 [`Dealer`], so an old game runs again exactly as it ran.
//!
//! The old game and today's are played side by side: each saved action goes to both; the cards
//! the old one drew are entered in today's as the chance actions that draw the same cards. After
//! every action the two must be the same game but for the order of their piles (which today's
//! does not keep), or the rebuilding stops and says where.

use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::Action;
use super::scenario::Scenario;
use super::state::State;
use crate::chance::{Dealer, Picker};
use crate::rules::{TieBreaker, state_hash};

/// Today's actions for the actions of a format-1 save: each followed by the chance actions that
/// draw what the old game drew, and each roll of the dice for a tie as the option it rolled.
pub(super) fn actions(
    scenario: Arc<Scenario>,
    seed: u64,
    ties: TieBreaker,
    saved: &[Action],
) -> Result<Vec<Action>, String> {
    let setup = |s: Arc<Scenario>| State::new(s, seed, ties).map_err(|e| e.to_string());
    let mut old = shuffled_as_format_1(setup(scenario.clone())?, seed);
    let mut new = setup(scenario)?;
    let mut out = Vec::with_capacity(saved.len() * 2);
    for (i, a) in saved.iter().enumerate() {
        let n = i + 1;
        if matches!(a, Action::Draw(_)) {
            return Err(format!(
                "action {n} is a draw: a format-1 save logs none, so this save is damaged"
            ));
        }
        // A roll of the dice reads the step count, which today's game also advances on each
        // draw: today's game takes the option the old one rolled.
        let today = match a {
            Action::ChooseByDice => Action::Choose(old.seeded_pick(old.pending_options())),
            other => other.clone(),
        };
        old.apply(a.clone())
            .map_err(|e| format!("action {n} ({a:?}) is refused: {e}"))?;
        new.apply(today.clone())
            .map_err(|e| format!("action {n} ({a:?}) is refused by today's rules: {e}"))?;
        out.push(today);
        let mut drawn = old.dealer.take_format_1_draws().into_iter();
        while let Some(d) = &new.drawing {
            let want = &d.want;
            let Some((what, name)) = drawn.next() else {
                return Err(format!(
                    "action {n} ({a:?}) draws {} today, which it did not then",
                    want.what
                ));
            };
            let Some(pick) = (what == want.what)
                .then(|| want.options.iter().position(|o| *o == name))
                .flatten()
            else {
                return Err(format!(
                    "action {n} ({a:?}) drew {name} of {what} then, where today it draws {} \
                     among {}",
                    want.what,
                    want.options.join(", ")
                ));
            };
            new.apply(Action::Draw(pick))
                .map_err(|e| format!("action {n}: the draw of {name} is refused: {e}"))?;
            out.push(Action::Draw(pick));
        }
        if let Some((what, name)) = drawn.next() {
            return Err(format!(
                "action {n} ({a:?}) drew {name} of {what} then, which it does not draw today"
            ));
        }
        if state_hash(&unordered(&old)) != state_hash(&unordered(&new)) {
            return Err(format!(
                "after action {n} ({a:?}) the rebuilt game is not the game the save played"
            ));
        }
    }
    Ok(out)
}

/// A freshly set-up state with every deck shuffled as a format-1 setup shuffled it, and the
/// generator that goes on shuffling and choosing as that format's rules did.
fn shuffled_as_format_1(mut s: State, seed: u64) -> State {
    let mut dealer = Dealer::format_1(ChaCha8Rng::seed_from_u64(seed));
    for h in &mut s.heroes {
        dealer.shuffle(&mut h.deck.draw_pile);
    }
    for k in &mut s.kinds {
        // That format's piles started in the printed order (today's in reverse: the top is last).
        k.draw_pile.sort_unstable();
        dealer.shuffle(&mut k.draw_pile);
    }
    dealer.shuffle(&mut s.monster_deck.draw_pile);
    s.dealer = dealer;
    s
}

/// The state with its piles sorted and its step count cleared: what a format-1 game and today's
/// must share after every action (today's counts its draws as steps and keeps no pile order).
fn unordered(s: &State) -> State {
    let mut s = s.clone();
    s.steps = 0;
    for h in &mut s.heroes {
        h.deck.draw_pile.sort_unstable();
    }
    for k in &mut s.kinds {
        k.draw_pile.sort_unstable();
    }
    s.monster_deck.draw_pile.sort_unstable();
    s
}
