//! Checks the exact odds against a brute force over every ordering of small decks, played with the deck,
//! draw and attack code the game itself uses.

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use super::{Card, Fraction, Mode, ModifierDeck, Odds, odds, resolve_attack};

/// Heap's algorithm: calls `visit` with every ordering of `items`.
fn permutations(items: &mut Vec<usize>, k: usize, visit: &mut impl FnMut(&[usize])) {
    if k <= 1 {
        visit(items);
        return;
    }
    for i in 0..k {
        permutations(items, k - 1, visit);
        let j = if k.is_multiple_of(2) { i } else { 0 };
        if i + 1 < k {
            items.swap(j, k - 1);
        }
    }
}

/// The odds by stacking the deck in every order and drawing as the game does, taking the outcome
/// that deals the most damage where the attacker's side has a choice.
fn brute_force(deck: &[Card], attack: u32, shield: u32, pierce: u32, mode: Mode) -> Odds {
    let mut counts: BTreeMap<u32, u128> = BTreeMap::new();
    let (mut nulls, mut choices, mut total) = (0u128, 0u128, 0u128);
    let mut order: Vec<usize> = (0..deck.len()).collect();
    permutations(&mut order, deck.len(), &mut |perm| {
        let mut stacked = ModifierDeck::stacked(perm.iter().map(|&i| deck[i].clone()).collect());
        let draw = stacked.draw(mode, attack as i32, "the", &mut crate::chance::Top);
        let result = resolve_attack(&draw, shield, pierce);
        let best = result.best();
        *counts.entry(best.damage).or_default() += 1;
        nulls += best.nullified as u128;
        choices += result.options.iter().any(|o| o.damage != best.damage) as u128;
        total += 1;
    });
    let p = |n: u128| Fraction::new(n, total);
    let distribution: BTreeMap<u32, Fraction> = counts.iter().map(|(d, n)| (*d, p(*n))).collect();
    let expected = counts
        .iter()
        .fold(Fraction::ZERO, |acc, (d, n)| acc + p(*n * *d as u128));
    Odds {
        distribution,
        expected,
        null_chance: p(nulls),
        choice_chance: p(choices),
    }
}

fn cards(names: &[&str]) -> Vec<Card> {
    names.iter().map(|n| Card::parse(n).unwrap()).collect()
}

const MODES: [Mode; 3] = [Mode::Normal, Mode::Advantage, Mode::Disadvantage];

#[test]
fn exact_odds_match_every_ordering_of_chosen_small_decks() {
    let decks = [
        cards(&["+0", "+1", "-1", "x2", "null", "r+1", "r+2"]),
        cards(&["r+1", "r+1", "r+0", "+0", "null", "bless"]),
        cards(&["+0 poison", "+1", "x2", "curse", "r+1 pierce 1", "-2", "+2"]),
        cards(&["r+1", "r+2", "r+0 wound", "r+1", "x2", "-1", "+0"]),
        cards(&["r+1", "r+1", "r+1", "r+1", "r+2"]),
        cards(&[
            "x2",
            "+2",
            "+0 pierce 2",
            "+1 poison",
            "+1",
            "r+0 fire",
            "null",
        ]),
    ];
    for deck in &decks {
        for mode in MODES {
            for (attack, shield, pierce) in [(0, 0, 0), (1, 0, 0), (2, 1, 0), (3, 2, 1), (4, 3, 0)]
            {
                let exact = odds(deck, attack, shield, pierce, mode).unwrap();
                let brute = brute_force(deck, attack, shield, pierce, mode);
                let names: Vec<String> = deck.iter().map(Card::name).collect();
                assert_eq!(
                    exact, brute,
                    "{mode} {names:?} attack {attack} shield {shield} pierce {pierce}"
                );
            }
        }
    }
}

#[test]
fn exact_odds_match_every_ordering_of_seeded_random_decks() {
    let pool = cards(&[
        "+0",
        "+0",
        "+1",
        "+1",
        "-1",
        "-1",
        "+2",
        "-2",
        "x2",
        "null",
        "bless",
        "curse",
        "r+0",
        "r+1",
        "r+1",
        "r+2",
        "+0 poison",
        "+1 pierce 1",
        "r+0 push 1",
        "+1 wound",
        "x2 stun",
        "+2 muddle",
    ]);
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    for round in 0..24 {
        let size = 3 + round % 5;
        let deck: Vec<Card> = (0..size)
            .map(|_| {
                pool.choose(&mut rng)
                    .cloned()
                    .unwrap_or_else(|| Card::plus(0))
            })
            .collect();
        let mode = MODES[round % 3];
        let (attack, shield) = ((round % 5) as u32, (round % 3) as u32);
        let exact = odds(&deck, attack, shield, 0, mode).unwrap();
        let brute = brute_force(&deck, attack, shield, 0, mode);
        let names: Vec<String> = deck.iter().map(Card::name).collect();
        assert_eq!(
            exact, brute,
            "{mode} {names:?} attack {attack} shield {shield}"
        );
    }
}
