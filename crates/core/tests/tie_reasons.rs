//! A tie the players break says why before they pick: the view of every module that uses the
//! shared table's tie window names the rule that left the options equal.

use std::path::Path;

use foehold_core::game::check::seeded_game;
use foehold_core::rules::brimstone::Brimstone;
use foehold_core::rules::goals::Goals;
use foehold_core::rules::{Present, ToMove};

/// The view's reason at each of the first `n` ties of a seeded game of `scenario`.
fn reasons<R: Present>(scenario: &str, seed: u64, n: usize) -> Vec<Option<String>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios")
        .join(scenario);
    let mut game = seeded_game::<R>(&path, seed).unwrap_or_else(|e| panic!("{e}"));
    let mut out = Vec::new();
    while let Some(a) = game.automatic(true, true) {
        if matches!(game.to_move(), ToMove::Tie { .. }) {
            out.push(R::view(&game.state).tie);
            if out.len() == n {
                break;
            }
        } else {
            assert_eq!(R::view(&game.state).tie, None, "no reason without a tie");
        }
        game.apply(a).expect("an automatic action is legal");
    }
    out
}

#[test]
fn ties_of_placement_targeting_and_goals_say_why_before_the_pick() {
    let ambush = reasons::<Brimstone>("cinder-adit-ambush.ron", 2, 4);
    let fight = reasons::<Brimstone>("cinder-adit.ron", 2, 6);
    let dome = reasons::<Goals>("dome-crossing.ron", 2, 3);
    for (what, got) in [("ambush", &ambush), ("fight", &fight), ("dome", &dome)] {
        assert!(!got.is_empty(), "the {what} meets ties");
        for why in got {
            let why = why
                .as_deref()
                .unwrap_or_else(|| panic!("a {what} tie says why"));
            assert!(why.contains("the players choose"), "{why}");
        }
    }
    // Seed 2 draws the Ash Crows: variable-initiative groups are placed first.
    assert!(
        ambush[0].as_deref().unwrap().starts_with("Ash Crow 1: "),
        "{ambush:?}"
    );
    assert!(
        fight.iter().flatten().any(|w| w.contains("equally close")),
        "{fight:?}"
    );
    assert!(dome[0].as_deref().unwrap().starts_with("Gravel Knight: "));
}
