//! Speed of the exact odds: a full twenty-card deck with a blessing, a curse and rolling cards, per draw mode.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use foehold_core::modifiers::{Card, Mode, ModifierDeck, odds};

fn deck(rolling: &[&str]) -> Vec<Card> {
    let mut cards = ModifierDeck::standard_cards();
    cards.extend(
        ["bless", "curse"]
            .iter()
            .chain(rolling)
            .map(|n| Card::parse(n).expect("a card name")),
    );
    cards
}

fn bench(c: &mut Criterion) {
    let decks = [
        (
            "26 cards, 4 rolling",
            deck(&["r+1", "r+1", "r+2", "r+0 pierce 1"]),
        ),
        (
            "30 cards, 8 rolling",
            deck(&[
                "r+1",
                "r+1",
                "r+1",
                "r+2",
                "r+2",
                "r+0 pierce 1",
                "r+0 poison",
                "r+1 fire",
            ]),
        ),
    ];
    for (label, cards) in &decks {
        for mode in [Mode::Normal, Mode::Advantage, Mode::Disadvantage] {
            c.bench_function(&format!("odds {label} {mode:?}"), |b| {
                b.iter(|| {
                    odds(black_box(cards), black_box(3), black_box(1), 0, mode).expect("odds")
                });
            });
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
