//! Goals and what the heroes take away: treasure tiles, exits, a named type to kill, objectives to
//! destroy, rounds to survive, and the tally at the end; and the files that cannot be won.

use super::actions::{Action, Event, Tally};
use super::log;
use super::scenario::{Condition, map_hex};
use super::scenario_tests::{in_round_one, parse, walk};
use super::state::{Half, Phase, State};
use super::{Game, Gloomhaven};
use crate::rules::{Present, Rules, TieBreaker};

/// Two heroes with eight cards (attack 2 on top, move 3 below; card 1's top gives 2 experience),
/// the library's Cellar Rat (`a`), a Rat King (`k`), a Warding Stone objective of 3 hit points per
/// character (`s`), treasures `T` (trapped) and `U` (gold) where the map draws them, and `extra`
/// fields.
pub(super) fn goals(victory: &str, map: &[&str], extra: &str) -> String {
    let heroes: Vec<String> = ["Ash", "Birch"]
        .iter()
        .map(|n| {
            let cards: Vec<String> = (1..=8)
                .map(|i| {
                    let xp = if i == 2 { ", xp: 2" } else { "" };
                    format!(
                        "(name: \"{n} {i}\", initiative: {}, top: (effects: [Attack(value: 2)]{xp}), bottom: (effects: [Move(3)]))",
                        i * 10
                    )
                })
                .collect();
            format!("(name: \"{n}\", hp: 10, cards: [{}])", cards.join(", "))
        })
        .collect();
    let rows: Vec<String> = map.iter().map(|r| format!("\"{r}\"")).collect();
    let on_map = |c: char| map.iter().any(|r| r.contains(c));
    let mut treasures = Vec::new();
    if on_map('T') {
        treasures.push("'T': (gold: 12, item: \"Tin Lantern\", damage: 2, conditions: [Poison])");
    }
    if on_map('U') {
        treasures.push("'U': (gold: 5)");
    }
    format!(
        "Scenario(rules: Gloomhaven, format: 2, name: \"goals\", grid: Hex, map: [{}], \
         legend: {{ 'a': (monster: \"Cellar Rat\"), 'k': (monster: \"Rat King\"), 's': (monster: \"Warding Stone\") }}, \
         treasures: {{ {} }}, \
         heroes: [{}], \
         monsters: [(name: \"Rat King\", normal: (hp: 4, move: 1, attack: 1), elite: (hp: 6, move: 1, attack: 1), \
         deck: [(name: \"Hold Court\", initiative: 90, actions: [Move(0), Attack(value: 0)])]), \
         (name: \"Warding Stone\", objective: true, hp_per_character: true, normal: (hp: 3, move: 0, attack: 0), \
         elite: (hp: 3, move: 0, attack: 0), deck: [])], \
         {extra} victory: {victory})",
        rows.join(", "),
        treasures.join(", "),
        heroes.join(", ")
    )
}

/// Hero `h` ends its turn with card 1's top half (an attack on `targets`, or on nobody).
pub(super) fn finish(s: &mut State, targets: Vec<crate::hex::Hex>) -> Vec<Event> {
    let mut ev = s
        .apply(Action::Play {
            card: 1,
            half: Half::Top,
            basic: false,
            path: Vec::new(),
            targets,
            ally: None,
        })
        .unwrap();
    while s.drawing.is_some() {
        ev.extend(s.apply(Action::Draw(0)).unwrap());
    }
    ev
}

pub(super) fn lines(s: &State, ev: &[Event]) -> Vec<String> {
    ev.iter().filter_map(|e| log::describe(s, e)).collect()
}

const LOOT_MAP: &[&str] = &["1..T...", "2..U...", "......a"];

#[test]
fn a_treasure_is_looted_at_the_end_of_a_turn_on_it_and_the_goal_counts_it() {
    let mut s = in_round_one(&goals("Loot(2)", LOOT_MAP, ""));
    walk(&mut s, 0, map_hex(3, 0));
    // Moving onto it takes nothing: the turn's end does.
    assert!(s.treasures.iter().all(|t| t.looted_by.is_none()));
    let ev = finish(&mut s, Vec::new());
    let said = lines(&s, &ev);
    assert!(
        said.iter().any(|l| l.ends_with(
            "Ash loots the treasure on (3, -1): 12 gold, Tin Lantern, 2 damage, poison"
        )),
        "{said:?}"
    );
    let ash = &s.heroes[0];
    assert_eq!((ash.hp, ash.gold), (8, 12));
    assert_eq!(ash.items, ["Tin Lantern"]);
    assert!(s.has(super::state::FigureId::Hero(0), Condition::Poison));
    assert_eq!(s.treasures_looted(), 1);
    assert!(!s.phase.is_over(), "one treasure of two");
    let goal = goal_lines(&s);
    assert_eq!(
        goal[..2],
        ["Loot 2 treasures.", "Treasures looted: 1 of 2."]
    );
    // The looted chest is gone from the table; the other still lies there.
    let view = Gloomhaven::view(&s);
    let chests: Vec<_> = view
        .tokens
        .iter()
        .filter(|t| t.label == "treasure")
        .collect();
    assert_eq!(chests.len(), 1);
    assert_eq!(chests[0].cell, crate::hex::qr(map_hex(3, 1)));
    // Birch takes the second: the goal is met at once, and each hero's tally follows.
    walk(&mut s, 1, map_hex(3, 1));
    let ev = finish(&mut s, Vec::new());
    assert_eq!(s.phase, Phase::Victory);
    let said = lines(&s, &ev);
    assert!(
        said.iter()
            .any(|l| l.ends_with("VICTORY: 2 treasures looted")),
        "{said:?}"
    );
    // Level 1 (the heroes' recommended level): bonus experience 6; card 1's top gave 2 each.
    let tally: Vec<Tally> = ev
        .iter()
        .find_map(|e| match e {
            Event::Reckoned { tally } => Some(tally.clone()),
            _ => None,
        })
        .expect("the tally");
    assert_eq!(
        (tally[0].gold, tally[0].experience, tally[0].bonus),
        (12, 8, 6)
    );
    assert_eq!(tally[0].items, ["Tin Lantern"]);
    assert_eq!((tally[1].gold, tally[1].experience), (5, 8));
    let goal = goal_lines(&s);
    let end = goal
        .iter()
        .position(|l| l == "What each takes away:")
        .expect("the tally shows");
    assert_eq!(
        goal[end + 1..],
        [
            "Ash: 12 gold, 8 experience, Tin Lantern",
            "Birch: 5 gold, 8 experience"
        ]
    );
}

/// The lines of the table's goal panel.
pub(super) fn goal_lines(s: &State) -> Vec<String> {
    Gloomhaven::view(s)
        .panels
        .into_iter()
        .find(|p| p.title == "The goal")
        .expect("a goal panel")
        .lines
}

#[test]
fn a_treasure_in_a_hidden_room_is_out_of_reach() {
    let text = goals(
        "Loot(1)",
        &["#1.+.T#", "#2.#..a"],
        "rooms: [\"AAA+BBB\", \"AAABBBB\"],",
    );
    let mut s = in_round_one(&text);
    let mut ev = Vec::new();
    s.loot(0, 30, &mut ev);
    assert!(ev.is_empty(), "{ev:?}");
    assert_eq!(s.treasures_looted(), 0);
}

#[test]
fn a_character_on_an_exit_at_the_end_of_its_turn_escapes_and_the_last_one_out_wins() {
    let map = &["1..>...", "2..>...", "......a"];
    let mut s = in_round_one(&goals("Escape", map, ""));
    walk(&mut s, 0, map_hex(3, 0));
    let ev = finish(&mut s, Vec::new());
    assert!(ev.contains(&Event::HeroEscaped {
        hero: 0,
        hex: map_hex(3, 0)
    }));
    assert!(s.heroes[0].escaped && s.heroes[0].exhausted);
    assert_eq!(
        s.figure_at(map_hex(3, 0)),
        None,
        "an escaped hero leaves the board"
    );
    assert!(!s.phase.is_over());
    assert_eq!(goal_lines(&s)[1], "Out through an exit: 1 of 2 characters.");
    assert!(
        Gloomhaven::view(&s)
            .cells
            .iter()
            .any(|c| c.key == crate::hex::qr(map_hex(3, 1))
                && c.ground == crate::rules::view::Ground::Exit),
        "exits are drawn as exits"
    );
    walk(&mut s, 1, map_hex(3, 1));
    let ev = finish(&mut s, Vec::new());
    assert_eq!(s.phase, Phase::Victory);
    assert!(
        lines(&s, &ev)
            .iter()
            .any(|l| l.ends_with("VICTORY: every character still standing is out")),
    );
}

#[test]
fn killing_the_named_type_wins_while_other_foes_stand() {
    let map = &["1.k....", "2.....a"];
    let mut s = in_round_one(&goals("Kill(\"Rat King\")", map, ""));
    let king = s.scenario.monster_index("Rat King").unwrap();
    let m = s.monsters.iter().position(|m| m.kind == king).unwrap();
    s.monsters[m].hp = 2;
    // Ash is next to the king: card 1's attack 2 with a +0 kills it.
    s.heroes[0].deck = crate::modifiers::deck::ModifierDeck::stacked(vec![
        crate::modifiers::card::Card::parse("+0").unwrap(),
    ]);
    let ev = walk(&mut s, 0, map_hex(1, 0));
    assert!(!ev.contains(&Event::Victory));
    let ev = finish(&mut s, vec![map_hex(2, 0)]);
    assert_eq!(s.phase, Phase::Victory, "{:?}", lines(&s, &ev));
    assert!(s.living_monsters().next().is_some(), "the rat still stands");
    assert!(
        lines(&s, &ev)
            .iter()
            .any(|l| l.ends_with("VICTORY: every Rat King is dead"))
    );
}

#[test]
fn a_named_type_in_a_hidden_room_keeps_the_goal_open() {
    let text = goals(
        "Kill(\"Rat King\")",
        &["#1k+..#", "#2.#.ka"],
        "rooms: [\"AAA+BBB\", \"AAABBBB\"],",
    );
    let mut s = in_round_one(&text);
    let king = s.scenario.monster_index("Rat King").unwrap();
    let first = s.monsters.iter().position(|m| m.kind == king).unwrap();
    let mut ev = Vec::new();
    s.kill(first, &mut ev);
    s.check_end(&mut ev);
    assert!(!s.phase.is_over(), "a second king waits behind the door");
    // The panel does not say none is left while one waits unseen.
    assert_eq!(goal_lines(&s)[1], "Rat King: none in view yet.");
}

#[test]
fn an_objective_never_acts_takes_no_condition_and_scales_with_the_party() {
    let map = &["1.s....", "2.....a"];
    let mut s = in_round_one(&goals("Destroy", map, ""));
    let stone = s.scenario.monster_index("Warding Stone").unwrap();
    let m = s.monsters.iter().position(|m| m.kind == stone).unwrap();
    assert_eq!(s.monsters[m].max_hp, 6, "3 per character, two characters");
    assert!(
        !s.order.contains(&super::state::Actor::Monsters(stone)),
        "no card, no turn: {:?}",
        s.order
    );
    let mut ev = Vec::new();
    s.add_condition(
        super::state::FigureId::Monster(m),
        Condition::Poison,
        &mut ev,
    );
    assert!(ev.is_empty() && s.monsters[m].conditions.is_empty());
    // Destroyed, it leaves no money token, and the goal is met with the rat alive.
    s.damage(super::state::FigureId::Monster(m), 6, &mut ev);
    assert!(s.money.is_empty());
    s.check_end(&mut ev);
    assert_eq!(s.phase, Phase::Victory);
}

#[test]
fn surviving_wins_when_the_round_ends_and_the_round_limit_loses_otherwise() {
    for (victory, extra, won) in [
        ("Survive(1)", "", true),
        ("AllFoesDead", "round_limit: 1,", false),
    ] {
        let map = &["1.....", "2....a"];
        let mut g = Game::new(
            parse(&goals(victory, map, extra)),
            "goals.ron",
            3,
            TieBreaker::Seeded,
        )
        .unwrap();
        let mut said = Vec::new();
        g.play_out(5_000, |st, _, ev| said.extend(lines(st, ev)));
        assert_eq!(g.state.round, 1, "{victory}: {said:?}");
        assert_eq!(g.state.phase == Phase::Victory, won, "{victory}: {said:?}");
        let last = &said[said.len() - 2];
        assert!(
            last.ends_with(if won {
                "VICTORY: the heroes held out to the end of round 1"
            } else {
                "DEFEAT: round 1 ended with foes left"
            }),
            "{said:?}"
        );
    }
}

#[test]
fn the_autopilot_plays_each_goal_to_its_end() {
    for (victory, map) in [
        ("Loot(2)", LOOT_MAP),
        ("Escape", &["1......", "2......", "a....>>"][..]),
        ("Destroy", &["1......", "2....sa"][..]),
        ("Kill(\"Rat King\")", &["1......", "2...ak."][..]),
    ] {
        let scenario = parse(&goals(victory, map, ""));
        let mut won = 0;
        for seed in 0..10 {
            let mut g = Game::new(scenario.clone(), "goals.ron", seed, TieBreaker::Seeded).unwrap();
            g.play_out(20_000, |_, _, _| {});
            assert!(g.state.phase.is_over(), "{victory}, seed {seed}");
            won += usize::from(g.state.phase == Phase::Victory);
        }
        assert!(won >= 5, "{victory}: the autopilot won {won} of 10");
    }
}

#[test]
fn a_goal_that_cannot_be_met_is_refused_where_it_is_written() {
    let refused = |victory: &str, map: &[&str], extra: &str, says: &str| {
        let text = goals(victory, map, extra);
        let e = Gloomhaven::parse_scenario("goals.ron", &text).unwrap_err();
        assert!(e.message.contains(says), "{victory}: {e}");
        assert!(e.line >= 1 && e.column >= 1, "{e}");
    };
    let plain = &["1.T..U", "2....a"][..];
    refused("Loot(3)", plain, "", "the map has 2 treasure tiles");
    refused("Loot(0)", plain, "", "`Loot` is 0");
    refused("Escape", plain, "", "Escape needs exit hexes");
    refused(
        "AllFoesDead",
        &["1.T.>U", "2....a"],
        "",
        "an exit (>) leads out only",
    );
    refused("Kill(\"Bat\")", plain, "", "unknown monster type");
    refused("Kill(\"Rat King\")", plain, "", "no Rat King is placed");
    refused("Destroy", plain, "", "Destroy needs an objective");
    refused(
        "Survive(3)",
        plain,
        "round_limit: 5,",
        "needs no `round_limit`",
    );
    let text =
        goals("AllFoesDead", &["1.T...", "2....a"], "").replace("'T': (", "'U': (gold: 5), 'T': (");
    let e = Gloomhaven::parse_scenario("goals.ron", &text).unwrap_err();
    assert!(e.message.contains("'U' is not on the map"), "{e}");
    // A letter is a monster or a treasure, not both; and a treasure gives something.
    let text = goals("AllFoesDead", plain, "").replace("'U': (gold: 5)", "'a': (gold: 5)");
    let e = Gloomhaven::parse_scenario("goals.ron", &text).unwrap_err();
    assert!(e.message.contains("is also in the legend"), "{e}");
    let text = goals("AllFoesDead", plain, "").replace("'U': (gold: 5)", "'U': ()");
    let e = Gloomhaven::parse_scenario("goals.ron", &text).unwrap_err();
    assert!(e.message.contains("gives nothing"), "{e}");
    // An objective acts never, so it has no deck.
    let text = goals("Destroy", &["1.s...", "2....a"], "")
        .replace("deck: [])", "deck: [(name: \"Hum\", initiative: 5)])");
    let e = Gloomhaven::parse_scenario("goals.ron", &text).unwrap_err();
    assert!(e.message.contains("has no ability deck"), "{e}");
}

#[test]
fn the_goal_rows_fire_in_coverage() {
    use crate::game::coverage::cover;
    for (victory, map, row) in [
        ("Loot(2)", LOOT_MAP, "Objective: loot"),
        (
            "Escape",
            &["1......", "2......", "a....>>"][..],
            "Objective: escape",
        ),
        ("Destroy", &["1......", "2....sa"][..], "Objective: destroy"),
        (
            "Survive(2)",
            &["1......", "2....aa"][..],
            "Objective: survive",
        ),
    ] {
        let scenario = parse(&goals(victory, map, ""));
        let r = cover::<Gloomhaven>(&scenario, "goals.ron", 0..10).unwrap();
        let c = r.count(row).expect("a coverage row");
        assert!(c.games > 0, "{victory}: {row} never fired");
    }
}

#[test]
fn a_monster_retaliates_on_its_attacker_and_shrugs_off_what_it_is_immune_to() {
    let map = &["1.k....", "2.....a"];
    let text = goals("AllFoesDead", map, "").replace(
        "normal: (hp: 4, move: 1, attack: 1), elite:",
        "immunities: [Poison], normal: (hp: 4, move: 1, attack: 1, retaliate: 1), elite:",
    );
    let mut s = in_round_one(&text);
    let king = s.scenario.monster_index("Rat King").unwrap();
    let m = s.monsters.iter().position(|m| m.kind == king).unwrap();
    s.heroes[0].deck = crate::modifiers::deck::ModifierDeck::stacked(vec![
        crate::modifiers::card::Card::parse("+0").unwrap(),
    ]);
    walk(&mut s, 0, map_hex(1, 0));
    let ev = finish(&mut s, vec![map_hex(2, 0)]);
    assert_eq!(s.monsters[m].hp, 2);
    assert_eq!(s.heroes[0].hp, 9, "{:?}", lines(&s, &ev));
    assert!(
        lines(&s, &ev)
            .iter()
            .any(|l| l.ends_with("Ash suffers 1 damage from Rat King 1's retaliation")),
        "{:?}",
        lines(&s, &ev)
    );
    let mut ev = Vec::new();
    s.add_condition(
        super::state::FigureId::Monster(m),
        Condition::Poison,
        &mut ev,
    );
    s.add_condition(
        super::state::FigureId::Monster(m),
        Condition::Wound,
        &mut ev,
    );
    let got: Vec<Condition> = s.monsters[m]
        .conditions
        .iter()
        .map(|c| c.condition)
        .collect();
    assert_eq!(got, [Condition::Wound], "immune to poison only");
    let card = Gloomhaven::view(&s)
        .figures
        .into_iter()
        .find(|f| f.name == "Rat King 1")
        .expect("the king on the table")
        .card;
    assert!(card.contains(&"Retaliate 1".to_string()), "{card:?}");
    assert!(card.contains(&"Immune to poison".to_string()), "{card:?}");
}
