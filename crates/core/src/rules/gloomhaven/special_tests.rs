//! Special rules and bosses: each trigger sets its rules off in play, each effect does what it
//! says with its log line, a rule fires once unless it repeats, and the files that name what is
//! not there are refused where they name it.

use super::actions::Event;
use super::goal_tests::{goal_lines, goals, lines};
use super::scenario::map_hex;
use super::scenario_tests::{in_round_one, parse, state, walk};
use super::state::{FigureId, Phase};
use super::{Game, Gloomhaven};
use crate::hex::Terrain;
use crate::rules::{Present, Rules, TieBreaker};

#[test]
fn a_character_entering_a_marked_hex_sets_off_its_rules_once_unless_they_repeat() {
    let text = goals(
        "AllFoesDead",
        &["1.....", "2.....", ".....a"],
        "marks: [\"..p...\", \"..p.s.\", \"..pt..\"], \
         special_rules: [\
           (name: \"the bell rope\", when: Enters('p'), then: [\
             Spawn(monster: \"Cellar Rat\", at: 's'), Message(\"Bells ring below.\"), \
             Place(terrain: Trap, at: 't')]), \
           (name: \"the echo\", when: Enters('p'), repeat: true, then: [Message(\"Again.\")])],",
    );
    let mut s = in_round_one(&text);
    let before = s.clone();
    let ev = walk(&mut s, 0, map_hex(2, 0));
    assert!(ev.contains(&Event::SpecialRule {
        rule: 0,
        by: Some(FigureId::Hero(0))
    }));
    // The table shows the rule over the hero who set it off, and the rat appearing.
    let cues: Vec<String> = super::show::shows(&before, &s, &ev)
        .into_iter()
        .filter_map(|c| match c {
            crate::rules::view::Show::Over { text, .. } => Some(text),
            _ => None,
        })
        .collect();
    assert!(cues.contains(&"the bell rope".to_string()), "{cues:?}");
    assert!(cues.contains(&"appears".to_string()), "{cues:?}");
    let panel = goal_lines(&s);
    assert!(
        panel.contains(
            &"· the bell rope: when a character enters a hex marked p (fired)".to_string()
        ),
        "{panel:?}"
    );
    // A marked hex names its mark and the rules about it when a player points at it.
    let plate = Gloomhaven::view(&s)
        .cells
        .into_iter()
        .find(|c| c.key == crate::hex::qr(map_hex(2, 1)))
        .and_then(|c| c.place);
    assert_eq!(plate.as_deref(), Some("marked p: the bell rope, the echo"));
    // Each hex a rule names lies on the board as a mark token, so that players see it.
    let marks: Vec<((i32, i32), String)> = Gloomhaven::view(&s)
        .tokens
        .into_iter()
        .filter(|t| t.label.starts_with("mark"))
        .map(|t| (t.cell, t.label))
        .collect();
    for (h, label) in [
        ((2, 0), "mark p"),
        ((2, 2), "mark p"),
        ((4, 1), "mark s"),
        ((3, 2), "mark t"),
    ] {
        let at = crate::hex::qr(map_hex(h.0, h.1));
        assert!(
            marks.contains(&(at, label.to_string())),
            "{label} at {h:?}: {marks:?}"
        );
    }
    let said = lines(&s, &ev);
    for want in [
        "special rule \"the bell rope\" fires when a character enters a hex marked p (Ash)",
        "Cellar Rat 2 appears on (4, -1)",
        "“Bells ring below.”",
        "(3, 1) becomes a trap",
        "“Again.”",
    ] {
        assert!(said.iter().any(|l| l.ends_with(want)), "{want}: {said:?}");
    }
    assert_eq!(s.map.0.terrain(map_hex(3, 2)), Some(Terrain::Trap));
    // The rat a rule brings acts this round, its type's initiative being still to come.
    let rat = s.monsters.len() - 1;
    assert_eq!(
        (s.monsters[rat].hex, s.monsters[rat].arrived),
        (map_hex(4, 1), 0)
    );
    assert_eq!(s.fired, [1, 1]);
    // Birch's turn comes after Ash's two halves; it enters another hex marked p.
    super::goal_tests::finish(&mut s, Vec::new());
    let ev = walk(&mut s, 1, map_hex(2, 1));
    let fired: Vec<usize> = ev
        .iter()
        .filter_map(|e| match e {
            Event::SpecialRule { rule, .. } => Some(*rule),
            _ => None,
        })
        .collect();
    assert_eq!(fired, [1], "the bell rope fires once, the echo each time");
    assert_eq!(s.fired, [1, 2]);
}

/// Rooms A and B behind a door, a Rat King (`k`) in A and a rat in B, and these rules.
fn cellar(rules: &str) -> String {
    goals(
        "AllFoesDead",
        &["1.k#..a", "2..+..."],
        &format!("rooms: [\"AAAABBB\", \"AAA+BBB\"], special_rules: [{rules}],"),
    )
}

#[test]
fn a_locked_door_stays_shut_until_a_rule_opens_it_and_a_cleared_room_can_lose_the_game() {
    let text = cellar(
        "(name: \"the bolt\", when: RoundStarts(1), then: [LockDoor(\"AB\")]), \
         (name: \"the key\", when: Dies(\"Rat King\"), then: [OpenDoor(\"AB\"), Message(\"The key fits.\")]), \
         (name: \"the flood\", when: RoomCleared('B'), then: [Lose(\"the cellar floods\")])",
    );
    let mut s = state(&text);
    let door = map_hex(3, 1);
    assert_eq!(s.closed_doors(), [door]);
    let ev = s.apply(super::Action::Advance).unwrap();
    assert!(ev.contains(&Event::DoorClosed {
        door: 0,
        locked: true
    }));
    assert!(s.closed_doors().is_empty(), "a locked door is no way in");
    // Drawn as a door on a wall: no one walks into it.
    let cell = Gloomhaven::view(&s)
        .cells
        .into_iter()
        .find(|c| c.key == crate::hex::qr(door))
        .expect("the door's cell");
    assert!(cell.door);
    assert_eq!(cell.ground, crate::rules::view::Ground::Wall);
    assert_eq!(s.closed_door_at(door), None);
    assert!(s.doors[0].locked);
    // The king dies: the key opens the door and the room behind it is revealed.
    let king = s
        .monsters
        .iter()
        .position(|m| m.alive)
        .expect("the king stands");
    let mut ev = Vec::new();
    s.damage(FigureId::Monster(king), 99, &mut ev);
    s.run_special_rules(&mut ev);
    let said = lines(&s, &ev);
    assert!(
        said.iter().any(
            |l| l.ends_with("special rule \"the key\" fires when a Rat King dies (Rat King 1)")
        ),
        "{said:?}"
    );
    assert!(
        said.iter()
            .any(|l| l.ends_with("the door between room A and room B opens")),
        "{said:?}"
    );
    assert!(s.doors[0].open && !s.doors[0].locked);
    assert!(s.revealed.iter().all(|&r| r), "room B is revealed");
    let rat = s.monsters.len() - 1;
    assert_eq!(s.monsters[rat].room, Some(1), "the rat came in with room B");
    // Its rat dies: room B is cleared, and the flood loses the scenario.
    let mut ev = Vec::new();
    s.damage(FigureId::Monster(rat), 99, &mut ev);
    s.run_special_rules(&mut ev);
    assert_eq!(s.phase, Phase::Defeat);
    let said = lines(&s, &ev);
    assert!(
        said.iter()
            .any(|l| l.ends_with("DEFEAT: the cellar floods")),
        "{said:?}"
    );
}

#[test]
fn a_rule_of_rounds_fires_at_its_round_and_every_so_many_after() {
    let text = goals(
        "AllFoesDead",
        &["1.....", "2....a"],
        "marks: [\"w.h...\", \"......\"], special_rules: [\
           (name: \"the tide\", when: RoundEnds(2), every: 2, then: [\
             Damage(amount: 2, area: Everywhere), \
             Give(condition: Wound, area: Marked('w'), figures: Everyone), \
             Heal(amount: 1, area: Everywhere, figures: Monsters), \
             Place(terrain: Hazard, at: 'h')]), \
           (name: \"the dawn\", when: RoundStarts(3), then: [Goal(Survive(5))])],",
    );
    let mut s = state(&text);
    let fires = |s: &mut super::state::State, e: Event| {
        let mut ev = vec![e];
        s.run_special_rules(&mut ev);
        ev.iter()
            .filter(|e| matches!(e, Event::SpecialRule { .. }))
            .count()
    };
    assert_eq!(fires(&mut s, Event::RoundEnded { round: 1 }), 0);
    let hp = s.heroes[0].hp;
    let mut ev = vec![Event::RoundEnded { round: 2 }];
    s.run_special_rules(&mut ev);
    assert_eq!(s.heroes[0].hp, hp - 2, "{ev:?}");
    assert_eq!(s.heroes[1].hp, hp - 2);
    assert!(s.has(FigureId::Hero(0), super::scenario::Condition::Wound));
    assert!(!s.has(FigureId::Hero(1), super::scenario::Condition::Wound));
    let said = lines(&s, &ev);
    assert!(
        said.iter()
            .any(|l| l.ends_with("Ash suffers 2 damage from the special rule \"the tide\"")),
        "{said:?}"
    );
    // The rat is unhurt: the heal passes it by, saying nothing.
    assert!(
        !ev.iter().any(|e| matches!(e, Event::Healed { .. })),
        "{ev:?}"
    );
    assert!(ev.iter().any(|e| matches!(e, Event::TerrainChanged { .. })));
    // The hazard is there already the next time: not placed again, not logged again.
    let mut again = vec![Event::RoundEnded { round: 4 }];
    s.run_special_rules(&mut again);
    assert!(
        !again
            .iter()
            .any(|e| matches!(e, Event::TerrainChanged { .. })),
        "{again:?}"
    );
    assert_eq!(fires(&mut s, Event::RoundEnded { round: 3 }), 0);
    assert_eq!(fires(&mut s, Event::RoundEnded { round: 6 }), 1);
    assert_eq!(fires(&mut s, Event::RoundEnded { round: 8 }), 1);
    // A changed goal is the one the game plays to.
    assert_eq!(fires(&mut s, Event::RoundStarted { round: 3 }), 1);
    assert_eq!(*s.victory(), super::Victory::Survive(5));
}

#[test]
fn a_boss_performs_its_specials_from_its_own_list() {
    // A king of 30 hit points, to live long enough to act.
    let text = goals("Kill(\"Rat King\")", &["1.....", "2...k."], "")
        .replace(
            "deck: [(name: \"Hold Court\", initiative: 90, actions: [Move(0), Attack(value: 0)])]",
            "specials: [[Shield(3)], [Move(1), Attack(value: 1)]], \
             deck: [(name: \"Hold Court\", initiative: 90, actions: [Special(1), Special(2)])]",
        )
        .replace("normal: (hp: 4,", "normal: (hp: 30,");
    let scenario = parse(&text);
    // The file keeps the card as written; the game plays it with the specials in place.
    assert_eq!(scenario.monsters[0].deck[0].actions.len(), 2);
    let mut g = Game::new(scenario, "boss.ron", 1, TieBreaker::Seeded).unwrap();
    let king = &g.state.scenario.monsters[0];
    assert_eq!(king.deck[0].actions.len(), 5);
    assert!(king.specials.is_empty());
    let mut said = Vec::new();
    let mut shields = 0;
    g.play_out(20_000, |st, _, ev| {
        said.extend(lines(st, ev));
        shields += ev
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::ShieldGained {
                        figure: FigureId::Monster(_),
                        amount: 3
                    }
                )
            })
            .count();
    });
    assert!(
        said.iter()
            .any(|l| l.ends_with("Rat King 1 performs its special 1")),
        "{said:?}"
    );
    assert!(
        said.iter()
            .any(|l| l.ends_with("Rat King 1 performs its special 2")),
        "{said:?}"
    );
    assert!(shields > 0, "special 1 shields the king");
    let r = crate::game::coverage::cover::<Gloomhaven>(&parse(&text), "boss.ron", 0..3).unwrap();
    assert!(r.count("Boss special").is_some_and(|c| c.games > 0));
}

#[test]
fn special_rules_that_name_what_is_not_there_are_refused_where_they_name_it() {
    let refused = |text: String, says: &str| {
        let e = Gloomhaven::parse_scenario("rules.ron", &text).unwrap_err();
        assert!(e.message.contains(says), "{says}: {e}");
        assert!(e.line >= 1 && e.column >= 1, "{e}");
        e
    };
    let rule =
        |when: &str, then: &str| cellar(&format!("(name: \"r\", when: {when}, then: [{then}])"));
    refused(
        rule("DoorOpened(\"AC\")", "Message(\"x\")"),
        "DoorOpened(\"AC\"): no door joins",
    );
    refused(
        rule("RoundStarts(1)", "OpenDoor(\"BB\")"),
        "OpenDoor(\"BB\"): no door joins",
    );
    refused(
        rule("Enters('p')", "Message(\"x\")"),
        "Enters: no hex is marked 'p'",
    );
    refused(
        rule("Dies(\"Bat\")", "Message(\"x\")"),
        "Dies(\"Bat\") names an unknown monster type",
    );
    refused(
        rule("Dies(\"Warding Stone\")", "Message(\"x\")"),
        "Dies(\"Warding Stone\") can never fire",
    );
    refused(
        rule("RoomCleared('C')", "Message(\"x\")"),
        "RoomCleared('C'): no room is drawn",
    );
    refused(
        rule("RoundStarts(1)", "Spawn(monster: \"Bat\", at: 'p')"),
        "unknown monster type",
    );
    refused(
        rule("RoundStarts(1)", "Goal(Loot(2))"),
        "the map has 0 treasure tiles",
    );
    refused(rule("RoundStarts(1)", ""), "expected 1 to 16");
    // A library type the goal or a rule names, but nothing places: known, and never standing.
    refused(
        goals("Kill(\"Sluice Warden\")", &["1.....", "2....a"], ""),
        "Kill(\"Sluice Warden\"): no Sluice Warden is placed",
    );
    refused(
        rule("Dies(\"Husk Beetle\")", "Message(\"x\")"),
        "Dies(\"Husk Beetle\") can never fire",
    );
    let e = refused(
        rule("RoundStarts(0)", "Message(\"x\")"),
        "expected a round from 1",
    );
    assert_eq!(e.line, 1);
    let text = rule("RoundStarts(13)", "Message(\"x\")")
        .replace("special_rules", "round_limit: 12, special_rules");
    refused(text, "can never fire: the scenario ends with round 12");
    refused(
        rule("Enters('p')", "Message(\"x\")")
            .replace("repeat", "")
            .replace("then:", "every: 2, then:"),
        "`every` repeats a trigger of rounds",
    );
    refused(
        rule("RoomCleared('B')", "Message(\"x\")").replace("then:", "repeat: true, then:"),
        "a room is cleared once",
    );
    // Marks are drawn over the map, row for row, on hexes of the map.
    let marked = |marks: &str| {
        cellar("(name: \"r\", when: Enters('p'), then: [Message(\"x\")])")
            .replace("special_rules", &format!("marks: {marks}, special_rules"))
    };
    refused(marked("[\"p\"]"), "marks: 1 rows, but the map has 2");
    refused(
        marked("[\".......p\", \".......\"]"),
        "marks no hex of the map",
    );
    refused(
        marked("[\"..!....\", \".......\"]"),
        "a mark is a letter or digit",
    );
    refused(
        marked("[\"...p...\", \".......\"]"),
        "every hex marked 'p' is a wall or an obstacle",
    );
    assert!(Gloomhaven::parse_scenario("rules.ron", &marked("[\"..p....\", \".......\"]")).is_ok());
    // A boss's specials are numbered from 1, and a special lists plain actions.
    let boss = |specials: &str, card: &str| {
        goals("AllFoesDead", &["1.....", "2...k."], "").replace(
            "deck: [(name: \"Hold Court\", initiative: 90, actions: [Move(0), Attack(value: 0)])]",
            &format!("specials: {specials}, deck: [(name: \"Hold Court\", initiative: 90, actions: [{card}])]"),
        )
    };
    refused(
        boss("[[Shield(1)]]", "Special(2)"),
        "Special(2), but Rat King has 1 special",
    );
    refused(
        boss("[[Special(1)]]", "Special(1)"),
        "a special lists plain actions",
    );
    refused(
        boss("[[Move(1)]]", "Move(0), Special(1)"),
        "at most one move and one attack",
    );
}

#[test]
fn every_trigger_kind_is_a_coverage_row() {
    for kind in super::scenario::Trigger::KINDS {
        assert!(super::coverage::RULES.contains(&kind), "{kind}");
    }
}

#[test]
fn pierce_and_targets_on_a_statistics_card_reach_every_attack_of_the_type() {
    let text = goals("AllFoesDead", &["1.....", "2...k."], "").replace(
        "normal: (hp: 4, move: 1, attack: 1)",
        "normal: (hp: 4, move: 1, attack: 1, pierce: 2, targets: 2)",
    );
    let mut s = in_round_one(&text);
    let king = s.monsters.iter().position(|m| m.alive).unwrap();
    let (action, plan) = s.monster_action(king);
    // The card says one target and no pierce; the statistics add theirs.
    assert_eq!((action.targets, plan.pierce), (2, 2));
    // Disarmed, it attacks nobody, whatever its statistics say.
    let mut ev = Vec::new();
    s.add_condition(
        FigureId::Monster(king),
        super::scenario::Condition::Disarm,
        &mut ev,
    );
    assert_eq!(s.monster_action(king).0.targets, 0);
    let card = Gloomhaven::view(&s)
        .figures
        .into_iter()
        .find(|f| f.name == "Rat King 1")
        .expect("the king's figure")
        .card;
    assert!(
        card.iter().any(|l| l == "Its attacks pierce 2 more"),
        "{card:?}"
    );
    assert!(
        card.iter().any(|l| l == "Its attacks have 2 targets"),
        "{card:?}"
    );
    let too_many = text.replace("targets: 2)", "targets: 65)");
    let e = Gloomhaven::parse_scenario("stats.ron", &too_many).unwrap_err();
    assert!(e.message.contains("`targets` is 65"), "{e}");
}

#[test]
fn what_loads_but_is_most_likely_a_slip_is_a_warning_where_it_is_written() {
    let warnings = |text: &str| {
        Gloomhaven::check_scenario("slips.ron", text, &crate::library::Library::default())
            .map(|(_, w)| w)
            .unwrap_or_else(|e| panic!("{e}"))
    };
    // A third room behind a wall with no door, a plate in it and rules on both.
    let text = goals(
        "AllFoesDead",
        &["1.k#..a#a.", "2..+...#.."],
        "rooms: [\"AAAABBBCCC\", \"AAA+BBBCCC\"], \
         marks: [\"..........\", \".........p\"], \
         special_rules: [(name: \"the plate\", when: Enters('p'), then: [Message(\"x\")]), \
         (name: \"the crypt\", when: RoomCleared('C'), then: [Message(\"y\")]), \
         (name: \"the bell\", when: RoundStarts(2), then: [Message(\"z\")])],",
    );
    let found = warnings(&text);
    let said: Vec<&str> = found.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(
        said,
        [
            "rooms: room C is never revealed: no door leads to it from the first room",
            "legend: 's' (Warding Stone) stands nowhere on the map",
            "monsters: Warding Stone is written but nothing places or spawns it",
            "special_rules: \"the plate\" can never fire: every hex marked 'p' lies in a room never revealed",
            "special_rules: \"the crypt\" can never fire: room 'C' is never revealed",
        ]
    );
    // Each where it is written: the room's first letter in `rooms`, the rule at its name.
    let place = |w: &crate::LoadError| (w.line, w.column);
    let (line, column) = crate::error::find_position(&text, "AAAABBBCCC").unwrap();
    assert_eq!(place(&found[0]), (line, column + 7));
    assert_eq!(
        place(&found[3]),
        crate::error::find_position(&text, "\"the plate\"").unwrap()
    );
    // A door into the third room makes all of it reachable: only the unused stone is left.
    let joined = text
        .replace(
            "\"1.k#..a#a.\", \"2..+...#..\"",
            "\"1.k#..a#a.\", \"2..+...+..\"",
        )
        .replace("\"AAA+BBBCCC\"", "\"AAA+BBB+CC\"");
    let said: Vec<String> = warnings(&joined).into_iter().map(|w| w.message).collect();
    assert_eq!(
        said,
        [
            "legend: 's' (Warding Stone) stands nowhere on the map",
            "monsters: Warding Stone is written but nothing places or spawns it",
        ]
    );
}
