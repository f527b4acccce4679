//! Allies of a scenario: figures of the heroes' side with a turn of their own, the monsters'
//! enemy, a goal of keeping them alive and a defeat when a protected one dies.

use super::actions::Event;
use super::goal_tests::{finish, goal_lines, goals, lines};
use super::scenario::map_hex;
use super::scenario_tests::{in_round_one, parse, walk};
use super::state::{Actor, FigureId, Phase};
use super::{Game, Gloomhaven};
use crate::rules::view::Side;
use crate::rules::{Present, Rules, TieBreaker};

/// Old Ferro (`e`): an ally of 6 hit points who moves 2 and attacks 2 at initiative 10.
fn ferro(victory: &str, map: &[&str], protect: bool) -> String {
    goals(
        victory,
        map,
        &format!(
            "allies: {{ 'e': (name: \"Old Ferro\", hp: 6, move: 2, attack: 2, initiative: 10, protect: {protect}) }},"
        ),
    )
}

#[test]
fn an_ally_acts_at_its_initiative_after_the_characters_and_is_the_monsters_enemy() {
    let text = ferro("Protect(2)", &["1.....", "2..e.a"], true);
    let mut s = in_round_one(&text);
    // Both heroes lead with initiative 10, as Old Ferro: the characters first, then the ally.
    let at = |a: Actor| s.order.iter().position(|x| *x == a).unwrap();
    let rat = s.monsters[0].kind;
    let (ferro, rats) = (at(Actor::Ally(0)), at(Actor::Monsters(rat)));
    assert!(at(Actor::Hero(0)) < ferro && at(Actor::Hero(1)) < ferro && ferro < rats);
    // On the table it is nobody's figure of the heroes' side; the goal panel counts its health.
    let view = Gloomhaven::view(&s);
    let f = view.figures.iter().find(|f| f.name == "Old Ferro").unwrap();
    assert_eq!((f.side, f.owner, f.hp), (Side::Ally, None, 6));
    let panel = goal_lines(&s);
    for want in [
        "Keep Old Ferro alive for 2 rounds.",
        "Old Ferro: 6 of 6 hit points; the heroes lose if it dies.",
    ] {
        assert!(panel.iter().any(|l| l == want), "{want}: {panel:?}");
    }
    let mut said = Vec::new();
    for h in 0..2 {
        let ev = walk(&mut s, h, map_hex(1, h));
        said.extend(lines(&s, &ev));
        let ev = finish(&mut s, Vec::new());
        said.extend(lines(&s, &ev));
    }
    // Its own turn: it walks to the rat and hits it, drawing from the monsters' deck.
    assert!(
        matches!(s.phase, Phase::SummonTurn { summon: 0, .. }),
        "{:?}",
        s.phase
    );
    let (before, decks) = (s.monsters[0].hp, s.clone());
    while matches!(s.phase, Phase::SummonTurn { .. }) {
        let ev = step(&mut s);
        said.extend(lines(&s, &ev));
    }
    assert!(s.monsters[0].hp < before, "{said:?}");
    assert!(
        said.iter()
            .any(|l| l.contains("Old Ferro") && l.contains("Cellar Rat 1")),
        "{said:?}"
    );
    // Its modifier cards are the monsters'.
    assert_eq!(s.deck_owner(FigureId::Summon(0)), FigureId::Summon(0));
    assert_ne!(s.monster_deck, decks.monster_deck);
    assert_eq!(
        (&s.heroes[0].deck, &s.heroes[1].deck),
        (&decks.heroes[0].deck, &decks.heroes[1].deck)
    );
}

/// One step of the rules: a draw's first outcome, a tie's first option, or the next step.
fn step(s: &mut super::state::State) -> Vec<Event> {
    let a = if s.drawing.is_some() {
        super::actions::Action::Draw(0)
    } else if s.pending.is_some() {
        super::actions::Action::Choose(0)
    } else {
        super::actions::Action::Advance
    };
    s.apply(a).unwrap()
}

/// Old Ferro of 1 hit point, who neither moves nor attacks, beside two rats.
fn frail(victory: &str, protect: bool) -> String {
    ferro(victory, &["1.....", "2...ea", "....a."], protect)
        .replace("hp: 6, move: 2, attack: 2", "hp: 1, move: 0, attack: 0")
}

#[test]
fn the_monsters_hunt_an_ally_and_a_protected_one_dying_loses_the_scenario() {
    use crate::game::coverage::cover;
    let (mut lost, mut kept_on) = (0, 0);
    for protect in [true, false] {
        let scenario = parse(&frail("AllFoesDead", protect));
        for seed in 0..10 {
            let mut g = Game::new(scenario.clone(), "ally.ron", seed, TieBreaker::Seeded).unwrap();
            let mut said = Vec::new();
            g.play_out(20_000, |st, _, ev| said.extend(lines(st, ev)));
            if g.state.summons[0].alive {
                continue;
            }
            // A rat chose the ally for its focus: the nearest enemy.
            assert!(
                said.iter().any(|l| l.contains("focuses Old Ferro")),
                "{said:?}"
            );
            let end = said
                .iter()
                .position(|l| l.contains("DEFEAT"))
                .map(|i| &said[i]);
            if protect {
                lost += 1;
                assert!(
                    end.is_some_and(|l| l.ends_with("Old Ferro, whom the heroes protect, is dead")),
                    "{said:?}"
                );
                assert!(goal_lines(&g.state).contains(&"Old Ferro: dead.".to_string()));
            } else {
                // An ally the heroes may lose: the scenario goes on without it.
                kept_on += 1;
                assert!(end.is_none_or(|l| !l.contains("Old Ferro")), "{said:?}");
            }
        }
    }
    assert!(lost > 0 && kept_on > 0, "lost {lost}, kept on {kept_on}");
    let r = cover::<Gloomhaven>(&parse(&frail("AllFoesDead", true)), "ally.ron", 0..10).unwrap();
    assert!(r.count("Defeat: ally dead").expect("a row").games > 0);
}

#[test]
fn keeping_the_allies_alive_to_the_round_wins_and_the_rows_fire() {
    use crate::game::coverage::cover;
    let scenario = parse(&ferro("Protect(2)", &["1.....", "2..e..", ".....a"], true));
    let mut won = 0;
    for seed in 0..10 {
        let mut g = Game::new(scenario.clone(), "ally.ron", seed, TieBreaker::Seeded).unwrap();
        let mut said = Vec::new();
        g.play_out(20_000, |st, _, ev| said.extend(lines(st, ev)));
        assert!(g.state.phase.is_over(), "seed {seed}");
        if g.state.phase == Phase::Victory {
            won += 1;
            assert_eq!(g.state.round, 2);
            assert!(
                said.iter()
                    .any(|l| l.ends_with("VICTORY: the allies lived to the end of round 2")),
                "{said:?}"
            );
        }
    }
    assert!(won > 0, "won {won} of 10");
    let r = cover::<Gloomhaven>(&scenario, "ally.ron", 0..10).unwrap();
    for row in ["Objective: protect", "Ally turn"] {
        assert!(r.count(row).expect("a row").games > 0, "{row}");
    }
}

#[test]
fn allies_that_cannot_be_are_refused_where_they_are_written() {
    let refused = |text: String, says: &str| {
        let e = Gloomhaven::parse_scenario("ally.ron", &text).unwrap_err();
        assert!(e.message.contains(says), "{says}: {e}");
        assert!(e.line >= 1 && e.column >= 1, "{e}");
    };
    let map = &["1.....", "2..e.a"][..];
    let ok = ferro("Protect(2)", map, true);
    parse(&ok);
    refused(
        ok.replace("hp: 6, move: 2", "hp: 0, move: 2"),
        "has no hit points",
    );
    refused(
        ok.replace("attack: 2,", "attack: 0,"),
        "moves but has no attack",
    );
    refused(
        ok.replace("initiative: 10,", "initiative: 0,"),
        "initiative",
    );
    refused(ok.replace("'e': (", "'a': ("), "is also in the legend");
    refused(
        ferro("Protect(2)", &["1.....", "2....a"], true),
        "'e' is not on the map",
    );
    refused(
        ferro("Protect(2)", &["1.....", "2..e.a", "e....."], true),
        "stands twice",
    );
    refused(
        ferro("Protect(2)", map, false),
        "Protect(2) needs an ally to protect",
    );
    refused(
        ferro("Protect(2)", map, true).replace("allies:", "round_limit: 4, allies:"),
        "needs no `round_limit`",
    );
    refused(ferro("Protect(0)", map, true), "`Protect` is 0");
    // An ally starts in the first room, with the characters.
    let rooms = ferro("AllFoesDead", &["1..#...", "2..+.ea", "...#..."], true).replace(
        "allies:",
        "rooms: [\"AAAABBB\", \"AAA+BBB\", \"AAAABBB\"], allies:",
    );
    refused(rooms, "an ally starts in the first room");
}

#[test]
fn a_character_heals_an_ally_within_range() {
    // Ash's second card heals 2 at range 3.
    let text = ferro("Protect(2)", &["1.....", "2..e.a"], true).replacen(
        "(name: \"Ash 2\", initiative: 20, top: (effects: [Attack(value: 2)], xp: 2)",
        "(name: \"Ash 2\", initiative: 20, top: (effects: [Heal(value: 2, range: 3)], xp: 2)",
        1,
    );
    let mut s = in_round_one(&text);
    s.summons[0].hp = 3;
    let ferro = s.summons[0].hex;
    // The table is offered the ally as the heal's target.
    let offered = super::candidates::play_candidates(&s, 0).iter().any(
        |p| matches!(p, super::actions::Action::Play { card: 1, ally: Some(h), .. } if *h == ferro),
    );
    assert!(offered, "Old Ferro is a heal target");
    walk(&mut s, 0, map_hex(1, 0));
    let ev = s
        .apply(super::actions::Action::Play {
            card: 1,
            half: super::state::Half::Top,
            basic: false,
            path: Vec::new(),
            targets: Vec::new(),
            ally: Some(ferro),
        })
        .unwrap();
    assert!(
        ev.contains(&Event::Healed {
            figure: FigureId::Summon(0),
            amount: 2
        }),
        "{ev:?}"
    );
    assert_eq!(s.summons[0].hp, 5);
}
