//! The deck files under `assets/decks/` load, and the standard ones hold the printed twenty cards.

use std::path::PathBuf;

use foehold_core::modifiers::{Card, DeckFile, Mode, ModifierDeck, odds};

fn decks_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/decks")
}

#[test]
fn every_deck_file_loads() {
    let mut names: Vec<PathBuf> = std::fs::read_dir(decks_dir())
        .expect("assets/decks exists")
        .map(|e| e.expect("entry").path())
        .collect();
    names.sort();
    assert!(names.len() >= 3, "{names:?}");
    for path in names {
        let deck = DeckFile::load(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(!deck.cards.is_empty(), "{}", path.display());
    }
}

#[test]
fn the_standard_and_monster_decks_are_the_twenty_printed_cards() {
    let mut want = ModifierDeck::standard_cards();
    want.sort();
    for name in ["standard.ron", "monster.ron"] {
        let mut cards = DeckFile::load(&decks_dir().join(name))
            .unwrap_or_else(|e| panic!("{e}"))
            .cards;
        cards.sort();
        assert_eq!(cards, want, "{name}");
    }
}

#[test]
fn the_perked_deck_mixes_both_card_forms() {
    let deck =
        DeckFile::load(&decks_dir().join("cinder-warden.ron")).unwrap_or_else(|e| panic!("{e}"));
    let rolling: Vec<String> = deck
        .cards
        .iter()
        .filter(|c| c.rolling)
        .map(Card::name)
        .collect();
    assert_eq!(
        rolling,
        ["r+1", "r+1", "r+0 fire", "r+0 pierce 2", "r+0 push 1"]
    );
    assert!(
        deck.cards
            .contains(&Card::parse("+1 wound").expect("a card"))
    );
    let o = odds(&deck.cards, 3, 1, 0, Mode::Advantage).expect("odds");
    assert!(o.null_chance.to_f64() > 0.0);
}
