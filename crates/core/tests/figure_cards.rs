//! Every figure of every module's scenarios carries its printed card in the table's view, so a
//! player can check what the rules compare ("the override card picks the highest Wits").

use std::path::Path;

use foehold_core::game::check::seeded_game;
use foehold_core::rules::Present;
use foehold_core::rules::brimstone::Brimstone;
use foehold_core::rules::gloomhaven::Gloomhaven;
use foehold_core::rules::goals::Goals;
use foehold_core::rules::view::{FigureInfo, Side};

/// The figures of `scenario`'s view once the game has played `steps` automatic actions (foes
/// placed in the modules that place them during play).
fn figures<R: Present>(scenario: &str, steps: usize) -> Vec<FigureInfo> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios")
        .join(scenario);
    let mut game = seeded_game::<R>(&path, 1).unwrap_or_else(|e| panic!("{e}"));
    for _ in 0..steps {
        let Some(a) = game.automatic(true, true) else {
            break;
        };
        game.apply(a).expect("an automatic action is legal");
    }
    R::view(&game.state).figures
}

fn lines(f: &FigureInfo) -> String {
    f.card.join(" | ")
}

#[test]
fn every_figure_has_its_card_with_the_stats_its_rules_compare() {
    let hex = figures::<Gloomhaven>("sunken-kiln.ron", 0);
    let square = figures::<Brimstone>("cinder-adit.ron", 60);
    let dome = figures::<Goals>("dome-crossing.ron", 0);
    for f in hex.iter().chain(&square).chain(&dome) {
        assert!(!f.card.is_empty(), "{} has a card", f.name);
    }
    let foe = |fs: &[FigureInfo]| fs.iter().find(|f| f.side == Side::Foe).cloned();
    let hero = |fs: &[FigureInfo]| fs.iter().find(|f| f.side == Side::Hero).cloned();

    let monster = foe(&hex).expect("the kiln has monsters");
    assert!(lines(&monster).starts_with("Move "), "{}", lines(&monster));
    assert!(lines(&monster).contains("Attack "), "{}", lines(&monster));
    assert!(lines(&hero(&hex).unwrap()).contains("Hand "));

    let enemy = foe(&square).expect("the fight has enemies once placed");
    assert!(lines(&enemy).contains("hit on"), "{}", lines(&enemy));
    assert!(lines(&hero(&square).unwrap()).contains("Defense "));

    // The override cards compare the heroes' ratings: every one is on the card.
    let h = lines(&hero(&dome).unwrap());
    for rating in [
        "Speed", "Melee", "Aim", "Agility", "Stealth", "Wits", "Armor",
    ] {
        assert!(h.contains(rating), "{rating} in {h}");
    }
    assert!(lines(&foe(&dome).unwrap()).contains("goal"));
}
