//! Every card a Gloomhaven game draws (modifier cards, monster ability cards, the card a short rest
//! loses) is a chance action in its log: counted one for one, entered by hand, and replayed exactly.

use std::path::PathBuf;
use std::sync::Arc;

use foehold_core::game::save::Save;
use foehold_core::rules::gloomhaven::{
    Action, Event, FigureId, Game, Gloomhaven, Scenario, TieBreaker,
};
use foehold_core::rules::{Rules, Seat, ToMove};

fn scenario(name: &str) -> (String, Arc<Scenario>) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios")
        .join(name);
    let s = Scenario::load(&path).unwrap_or_else(|e| panic!("{e}"));
    (path.display().to_string(), Arc::new(s))
}

const HEX_SCENARIOS: [&str; 4] = [
    "tutorial.ron",
    "ember-orchard.ron",
    "sunken-kiln.ron",
    "frozen-sluice.ron",
];

/// Cards an action's events say were drawn: modifier cards, ability cards revealed, and the card a
/// short rest lost at random (a long rest's is the player's choice).
fn cards_drawn(events: &[Event]) -> (usize, usize, usize) {
    let mut counts = (0, 0, 0);
    for e in events {
        match e {
            Event::CardsDrawn { cards, .. } => counts.0 += cards.len(),
            Event::AbilityRevealed { .. } => counts.1 += 1,
            Event::Rested { long: false, .. } => counts.2 += 1,
            _ => {}
        }
    }
    counts
}

#[test]
fn every_card_drawn_is_one_chance_action_and_a_replay_is_exact() {
    let mut totals = (0, 0, 0);
    for name in HEX_SCENARIOS {
        for seed in 1..=4 {
            let (path, s) = scenario(name);
            let mut game = Game::new(s, path, seed, TieBreaker::Seeded).unwrap();
            let (mut chance_actions, mut drawn) = (0, (0, 0, 0));
            for _ in 0..20_000 {
                let Some(action) = game.auto_action() else {
                    break;
                };
                let chance = matches!(game.to_move(), ToMove::Chance { .. });
                assert_eq!(
                    chance,
                    matches!(action, Action::Draw(_)),
                    "{name} seed {seed}: draws, and only draws, are chance actions"
                );
                if chance {
                    assert!(
                        Gloomhaven::legal_actions(&game.state, Seat::Chance).contains(&action),
                        "{name} seed {seed}: the draw is one of chance's legal actions"
                    );
                    for seat in [Seat::Rules, Seat::Table, Seat::Hero(0)] {
                        assert!(
                            Gloomhaven::legal_actions(&game.state, seat).is_empty(),
                            "{name} seed {seed}: nobody else acts while a card is drawn"
                        );
                    }
                    chance_actions += 1;
                }
                let events = game.apply(action).expect("the automatic action is legal");
                let (m, a, r) = cards_drawn(&events);
                drawn = (drawn.0 + m, drawn.1 + a, drawn.2 + r);
            }
            assert!(
                matches!(game.to_move(), ToMove::Over { .. }),
                "{name} seed {seed}: the game ends"
            );
            assert_eq!(
                chance_actions,
                drawn.0 + drawn.1 + drawn.2,
                "{name} seed {seed}: one chance action per card drawn"
            );
            totals = (totals.0 + drawn.0, totals.1 + drawn.1, totals.2 + drawn.2);

            // A save holds the chance actions; replaying it gives the same state after every one.
            let save = Save::of(&game);
            let text = save.to_ron();
            let back: Save<Gloomhaven> = Save::parse("game.ron", &text).unwrap();
            let replayed = back
                .replay(
                    &foehold_core::game::check::Disk,
                    std::path::Path::new("game.ron"),
                )
                .unwrap();
            assert_eq!(
                replayed.state, game.state,
                "{name} seed {seed}: the replay is exact"
            );
            let mut state = game.initial().clone();
            for (i, a) in game.actions().iter().enumerate() {
                Gloomhaven::apply(&mut state, a.clone()).unwrap();
                assert_eq!(
                    foehold_core::rules::state_hash(&state),
                    save.hashes[i],
                    "{name} seed {seed}: action {i}"
                );
            }
        }
    }
    let (modifiers, abilities, short_rests) = totals;
    assert!(
        modifiers > 100 && abilities > 50 && short_rests > 0,
        "every kind of draw happens: {totals:?}"
    );
}

#[test]
fn a_card_entered_by_hand_is_the_card_drawn() {
    let (path, s) = scenario("tutorial.ron");
    let mut game = Game::new(s, path, 3, TieBreaker::Seeded).unwrap();
    let (mut modifier, mut ability) = (false, false);
    // The cards entered for the action being applied: a multi-target attack or a rolling card
    // draws several times before its events come.
    let mut entered: Vec<(String, String)> = Vec::new();
    for _ in 0..5_000 {
        if modifier && ability {
            break;
        }
        let Some(d) = game.state.drawing.clone() else {
            let a = game.auto_action().expect("the game goes on");
            game.apply(a).unwrap();
            continue;
        };
        // A table with a physical deck enters the card it drew: here the last one listed.
        let last = d.want.options.len() - 1;
        entered.push((d.want.what.clone(), d.want.options[last].clone()));
        let events = game.apply(Action::Draw(last)).unwrap();
        if game.state.drawing.is_some() {
            continue; // the draw goes on: its events come at the end
        }
        let monsters = &game.state.scenario.monsters;
        let mut drawn: Vec<(String, String)> = Vec::new();
        for e in &events {
            match e {
                Event::CardsDrawn {
                    attacker, cards, ..
                } => {
                    let heroes = &game.state.scenario.heroes;
                    let deck = match attacker {
                        FigureId::Hero(h) => {
                            format!("a card of {}'s modifier deck", heroes[*h].name)
                        }
                        FigureId::Summon(x) => format!(
                            "a card of {}'s modifier deck",
                            heroes[game.state.summons[*x].summoner].name
                        ),
                        FigureId::Monster(_) => "a card of the monsters' modifier deck".to_string(),
                    };
                    drawn.extend(cards.iter().map(|c| (deck.clone(), c.clone())));
                }
                Event::AbilityRevealed { kind, card, .. } => drawn.push((
                    format!("the {} ability card", monsters[*kind].name),
                    monsters[*kind].deck[*card].name.clone(),
                )),
                _ => {}
            }
        }
        // Every card entered is drawn, in the order entered (a short rest's lost card is told
        // by another event).
        let wanted: Vec<(String, String)> = entered
            .drain(..)
            .filter(|(what, _)| !what.contains("short rest"))
            .collect();
        assert_eq!(drawn, wanted);
        let got = drawn;
        modifier |= got.iter().any(|(w, _)| w.contains("modifier"));
        ability |= got.iter().any(|(w, _)| w.contains("ability"));
    }
    assert!(
        modifier && ability,
        "both kinds of card were entered by hand"
    );
    for _ in 0..5_000 {
        if game.state.drawing.is_some() {
            break;
        }
        let a = game.auto_action().expect("the game goes on");
        game.apply(a).unwrap();
    }
    let d = game.state.drawing.clone().expect("another card is drawn");
    let before = game.state.clone();
    let n = d.want.options.len();
    assert!(
        game.apply(Action::Draw(n)).is_err() && game.apply(Action::Advance).is_err(),
        "a card that is not in the pile, or another action, is refused"
    );
    assert_eq!(game.state, before, "and changes nothing");
}
