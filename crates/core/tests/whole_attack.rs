//! The odds of a whole attack, apart from its roll's: every die of it (to hit, then defense or
//! damage) in one distribution of wounds, as the Brimstone and goal-priority views give it.

use std::path::Path;

use foehold_core::game::check::seeded_game;
use foehold_core::modifiers::fraction::Fraction;
use foehold_core::rules::Present;
use foehold_core::rules::brimstone::Brimstone;
use foehold_core::rules::goals::Goals;
use foehold_core::rules::view::Odds;

/// Every odds with a whole attack the view shows during a seeded game of `scenario`.
fn odds_seen<R: Present>(scenario: &str, seed: u64) -> Vec<Odds> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios")
        .join(scenario);
    let mut game = seeded_game::<R>(&path, seed).unwrap_or_else(|e| panic!("{e}"));
    let mut seen = Vec::new();
    while let Some(a) = game.automatic(true, true) {
        if let Some(odds) = R::view(&game.state).odds.filter(|o| o.whole.is_some()) {
            seen.push(odds);
        }
        game.apply(a).expect("an automatic action is legal");
    }
    seen
}

fn check(odds: &[Odds]) {
    assert!(!odds.is_empty(), "attacks are made");
    for o in odds {
        let whole = o.whole.as_ref().expect("filtered");
        let total = whole.wounds.iter().fold(Fraction::ZERO, |sum, &p| sum + p);
        assert_eq!(total, Fraction::ONE, "{}: {:?}", whole.what, whole.wounds);
        // A roll with no hit wounds nobody: no wound is at least as likely as no hit.
        assert!(whole.wounds[0] >= o.chances[0], "{}", whole.what);
        assert!(whole.wounds.len() >= 2, "{}", whole.what);
    }
}

#[test]
fn a_whole_attacks_wounds_add_up_and_a_miss_wounds_nobody() {
    let fight = odds_seen::<Brimstone>("cinder-adit.ron", 3);
    check(&fight);
    assert!(
        fight
            .iter()
            .any(|o| o.whole.as_ref().unwrap().what.contains("take it out"))
    );
    assert!(
        fight
            .iter()
            .any(|o| o.whole.as_ref().unwrap().what.contains("blocked on"))
    );
    check(&odds_seen::<Goals>("dome-crossing.ron", 3));
}
