//! Scenarios as the books lay them out: what a file gets from the library, what the scenario
//! level sets, where the party's size places monsters, rooms behind doors, and saves of them.

use std::path::Path;
use std::sync::Arc;

use super::actions::{Action, Event};
use super::log;
use super::scenario::{LevelTable, Party, Scenario};
use super::state::{Actor, Phase, State};
use super::{Game, Gloomhaven};
use crate::game::save::Save;
use crate::hex::Hex;
use crate::library::Library;
use crate::rules::{Rules, TieBreaker};
use crate::storage::{Memory, Storage};

/// A hero with two cards: attack 1 on top, move 2 below.
fn hero(name: &str, level: u32) -> String {
    format!(
        "(name: \"{name}\", hp: 8, level: {level}, cards: [\
         (name: \"{name} A\", initiative: 20, top: (effects: [Attack(value: 1)]), bottom: (effects: [Move(2)])), \
         (name: \"{name} B\", initiative: 40, top: (effects: [Attack(value: 1)]), bottom: (effects: [Move(2)]))])"
    )
}

/// Four heroes at the given levels, spots `a` (normal, normal, elite), `b` (absent, normal,
/// elite) and `c` (absent, absent, normal), and the library's Cellar Rat.
fn four(levels: [u32; 4]) -> String {
    let heroes: Vec<String> = ["Ash", "Birch", "Cedar", "Dune"]
        .iter()
        .zip(levels)
        .map(|(n, l)| hero(n, l))
        .collect();
    format!(
        "Scenario(rules: Gloomhaven, format: 2, name: \"party\", grid: Hex, \
         map: [\"1234.....\", \"......abc\"], \
         legend: {{ 'a': (monster: \"Cellar Rat\", players: (Normal, Normal, Elite)), \
         'b': (monster: \"Cellar Rat\", players: (Absent, Normal, Elite)), \
         'c': (monster: \"Cellar Rat\", players: (Absent, Absent, Normal)) }}, \
         heroes: [{}], victory: AllFoesDead)",
        heroes.join(", ")
    )
}

pub(super) fn parse(text: &str) -> Arc<Scenario> {
    Arc::new(Gloomhaven::parse_scenario("party.ron", text).unwrap_or_else(|e| panic!("{e}")))
}

pub(super) fn state(text: &str) -> State {
    State::new(parse(text), 1, TieBreaker::Seeded).expect("sets up")
}

/// The monsters on the board: elite or not, in id order.
fn ranks(s: &State) -> Vec<bool> {
    s.monsters
        .iter()
        .filter(|m| m.alive)
        .map(|m| m.elite)
        .collect()
}

#[test]
fn a_library_type_is_copied_into_the_scenario_that_names_it() {
    let s = parse(&four([1; 4]));
    let rat = &s.monsters[0];
    assert_eq!(rat.name, "Cellar Rat");
    assert_eq!(rat.levels.len(), 8, "the file's type keeps every level");
    // Without the library the name is unknown, at the legend entry that names it.
    let e = Scenario::parse_in("party.ron", &four([1; 4]), &Library::default()).unwrap_err();
    assert!(
        e.message.contains("unknown monster type \"Cellar Rat\""),
        "{e}"
    );
    assert_eq!(e.line, 1, "{e}");
}

#[test]
fn a_library_file_with_a_fault_is_refused_at_its_own_line_and_column() {
    let built_in = Library::built_in();
    let text = built_in.monsters[0].text.clone().unwrap();
    // Level 3's normal rat with no hit points.
    let broken = text.replacen("(normal: (hp: 5,", "(normal: (hp: 0,", 1);
    assert_ne!(broken, text);
    let lib = Library::of_monsters(&[("mine/cellar-rat.ron", &broken)]);
    let e = Gloomhaven::parse_scenario_in("party.ron", &four([1; 4]), &lib).unwrap_err();
    assert_eq!(e.file, "mine/cellar-rat.ron", "{e}");
    assert!(e.message.contains("hp of at least 1 at level 3"), "{e}");
    assert!(e.line > 1, "{e}");
    // Seven levels instead of eight: refused naming the count.
    let start = broken.find("        (normal: (hp: 9,").unwrap();
    let end = start + broken[start..].find('\n').unwrap() + 1;
    let short = format!("{}{}", &text[..start], &text[end..]);
    let lib = Library::of_monsters(&[("mine/cellar-rat.ron", &short)]);
    let e = Gloomhaven::parse_scenario_in("party.ron", &four([1; 4]), &lib).unwrap_err();
    assert!(e.message.contains("statistics for 7 levels"), "{e}");
    // A file that cannot be read is named when the type is not found elsewhere.
    let lib = Library {
        monsters: vec![crate::library::Entry {
            file: "mine/rat.ron".into(),
            text: Err("cannot read file: denied".into()),
        }],
        ..Library::default()
    };
    let e = Scenario::parse_in("party.ron", &four([1; 4]), &lib).unwrap_err();
    assert!(
        e.message.contains("mine/rat.ron") && e.message.contains("denied"),
        "{e}"
    );
}

#[test]
fn the_level_sets_statistics_trap_damage_and_the_log_says_so() {
    // Level-1 heroes recommend level 1; level-5 ones level 3 (half their level, rounded up).
    assert_eq!(parse(&four([1; 4])).recommended_level(), 1);
    assert_eq!(parse(&four([5, 5, 6, 4])).recommended_level(), 3);
    let file = parse(&four([1; 4]));
    let lib_rat = file.monsters[0].clone();
    for level in 0..=7 {
        let mut s = state(&four([1; 4]));
        let ev = s
            .apply(Action::Setup(Party {
                level,
                heroes: vec![0, 1, 2, 3],
                picks: Vec::new(),
            }))
            .expect("a party of four");
        let rat = &s.scenario.monsters[0];
        assert_eq!(rat.normal, lib_rat.levels[level as usize].normal);
        assert_eq!(rat.elite, lib_rat.levels[level as usize].elite);
        let t = LevelTable::of(level);
        assert_eq!(s.scenario.trap_damage, 2 + level);
        assert_eq!(s.scenario.hazard_damage, t.hazard);
        let elite = s
            .monsters
            .iter()
            .find(|m| m.elite)
            .expect("an elite for four");
        assert_eq!(elite.hp, rat.elite.hp as i32);
        let line = log::describe(&s, &ev[0]).unwrap();
        assert!(
            line.ends_with(&format!(
                "Set up for 4 characters at scenario level {level}: traps deal {} damage, hazardous terrain {}, a money token is worth {} gold, bonus experience {}",
                t.trap, t.hazard, t.coin, t.bonus_experience
            )),
            "{line}"
        );
    }
    // The table as the rules tabulate it.
    let coins: Vec<u32> = (0..=7).map(|l| LevelTable::of(l).coin).collect();
    assert_eq!(coins, [2, 2, 3, 3, 4, 4, 5, 6]);
    let hazards: Vec<u32> = (0..=7).map(|l| LevelTable::of(l).hazard).collect();
    assert_eq!(hazards, [1, 2, 2, 2, 3, 3, 3, 4]);
    let bonus: Vec<u32> = (0..=7)
        .map(|l| LevelTable::of(l).bonus_experience)
        .collect();
    assert_eq!(bonus, [4, 6, 8, 10, 12, 14, 16, 18]);
}

#[test]
fn the_party_size_places_the_monsters_of_each_spot() {
    // Every hero of the file: four characters.
    assert_eq!(ranks(&state(&four([1; 4]))), [true, true, false]);
    for (party, want) in [
        (vec![0, 1], vec![false]),
        (vec![2, 0, 3], vec![false, false]),
        (vec![3, 2, 1, 0], vec![true, true, false]),
    ] {
        let mut s = state(&four([1; 4]));
        s.apply(Action::Setup(Party {
            level: 1,
            heroes: party.clone(),
            picks: Vec::new(),
        }))
        .unwrap();
        assert_eq!(ranks(&s), want, "{party:?}");
        // The party stands on the first starts, in its order.
        let names: Vec<&str> = s.scenario.heroes.iter().map(|h| h.name.as_str()).collect();
        let file = parse(&four([1; 4]));
        let wanted: Vec<&str> = party
            .iter()
            .map(|&h| file.heroes[h].name.as_str())
            .collect();
        assert_eq!(names, wanted);
        assert_eq!(s.heroes[0].hex, super::scenario::map_hex(0, 0));
    }
}

#[test]
fn a_party_is_chosen_before_anything_else_and_a_bad_one_changes_nothing() {
    let mut s = state(&four([1; 4]));
    let before = s.clone();
    for (bad, why) in [
        (
            Party {
                level: 8,
                heroes: vec![0, 1],
                picks: Vec::new(),
            },
            "from 0 to 7",
        ),
        (
            Party {
                level: 1,
                heroes: vec![0],
                picks: Vec::new(),
            },
            "seats 2 to 4",
        ),
        (
            Party {
                level: 1,
                heroes: vec![0, 0],
                picks: Vec::new(),
            },
            "twice",
        ),
        (
            Party {
                level: 1,
                heroes: vec![0, 9],
                picks: Vec::new(),
            },
            "not in the scenario",
        ),
    ] {
        let e = s.apply(Action::Setup(bad.clone())).unwrap_err();
        assert!(e.to_string().contains(why), "{bad:?}: {e}");
        assert_eq!(s, before, "{bad:?}");
    }
    assert!(
        Gloomhaven::check_action(&Action::Setup(Party {
            level: 1,
            heroes: vec![0; 5],
            picks: Vec::new(),
        }))
        .is_err()
    );
    s.apply(Action::Advance).unwrap();
    assert_eq!(s.phase, Phase::CardSelection);
    let e = s
        .apply(Action::Setup(Party {
            level: 1,
            heroes: vec![0, 1],
            picks: Vec::new(),
        }))
        .unwrap_err();
    assert!(e.to_string().contains("before anything else"), "{e}");
}

#[test]
fn a_game_set_up_for_a_party_is_saved_and_replays_to_the_same_state() {
    let text = four([3; 4]);
    let mut store = Memory::default();
    store
        .write(Path::new("scenarios/party.ron"), text.as_bytes())
        .unwrap();
    let scenario = Arc::new(Gloomhaven::parse_scenario("scenarios/party.ron", &text).unwrap());
    let mut game = Game::new(scenario, "scenarios/party.ron", 7, TieBreaker::Seeded)
        .unwrap()
        .with_scenario_text(&text);
    let events = game
        .apply(Action::Setup(Party {
            level: 4,
            heroes: vec![1, 3, 0],
            picks: Vec::new(),
        }))
        .unwrap();
    assert!(matches!(
        events[..],
        [Event::SetUp {
            level: Some(4),
            characters: 3
        }]
    ));
    game.play_out(2_000, |_, _, _| {});
    assert!(game.state.phase.is_over(), "the game ends");
    let save = Save::of(&game);
    let replay = save
        .replay_report(&store, Path::new("saves/party-save.ron"))
        .expect("replays");
    assert!(replay.parted.is_none());
    assert_eq!(replay.game.state, game.state);
    assert_eq!(replay.game.state.scenario.level, Some(4));
}

/// Three rooms in a row: A (the start), B behind door 1, C behind door 2. B holds a Cellar Rat
/// for every party and an elite one for four; C a Bog Sentry (one card, initiative `late`) and a
/// Cellar Rat. Heroes move 3 (bottom) and attack 2 (top); their cards' initiatives are 10 to 80.
fn three_rooms(late: u32) -> String {
    let heroes: Vec<String> = ["Ash", "Birch", "Cedar", "Dune"]
        .iter()
        .map(|n| {
            // Eight cards, so that the party lasts: attack 2 on top, move 3 below.
            let cards: Vec<String> = (1..=8)
                .map(|i| {
                    format!(
                        "(name: \"{n} {i}\", initiative: {}, top: (effects: [Attack(value: 2)]), bottom: (effects: [Move(3)]))",
                        i * 10
                    )
                })
                .collect();
            format!("(name: \"{n}\", hp: 10, cards: [{}])", cards.join(", "))
        })
        .collect();
    format!(
        "Scenario(rules: Gloomhaven, format: 2, name: \"rooms\", grid: Hex, \
         map:   [\"###########\", \"#1..+.a.+b#\", \"#2..#.A.#s#\", \"#34.#...#.#\", \"###########\"], \
         rooms: [\"AAAABBBBCCC\", \"AAAA+BBB+CC\", \"AAAABBBBCCC\", \"AAAABBBBCCC\", \"AAAABBBBCCC\"], \
         room_names: {{ 'B': \"the Pantry\" }}, \
         legend: {{ 'a': (monster: \"Cellar Rat\"), \
         'A': (monster: \"Cellar Rat\", players: (Absent, Absent, Elite)), \
         'b': (monster: \"Cellar Rat\"), 's': (monster: \"Bog Sentry\") }}, \
         heroes: [{}], \
         monsters: [(name: \"Bog Sentry\", normal: (hp: 2, move: 1, attack: 1), elite: (hp: 3, move: 1, attack: 1), \
         deck: [(name: \"Watch\", initiative: {late}, actions: [Move(0), Attack(value: 0)])])], \
         victory: AllFoesDead)",
        heroes.join(", ")
    )
}

/// A state after round 1's cards are revealed: every hero plays its initiative-10 card first.
pub(super) fn in_round_one(text: &str) -> State {
    let mut s = state(text);
    s.apply(Action::Advance).unwrap();
    for h in 0..s.heroes.len() {
        s.apply(Action::SelectCards {
            hero: h,
            leading: 0,
            other: 1,
        })
        .unwrap();
    }
    s.apply(Action::Advance).unwrap();
    // Cards drawn take their top; ties between the heroes are the players': the first listed goes
    // first.
    loop {
        if s.drawing.is_some() {
            s.apply(Action::Draw(0)).unwrap();
        } else if matches!(s.pending, Some(super::state::Pending::TurnOrder { .. })) {
            s.apply(Action::Choose(0)).unwrap();
        } else {
            return s;
        }
    }
}

/// Hero `h` walks onto `to` with its bottom half (card 0), drawing the top card of every pile.
pub(super) fn walk(s: &mut State, h: usize, to: Hex) -> Vec<Event> {
    let path = super::heroes::reach(s, h, 3, false)
        .into_iter()
        .find(|(e, _)| *e == to)
        .map(|(_, p)| p)
        .unwrap_or_else(|| panic!("{} cannot reach ({}, {})", s.heroes[h].hex.x, to.x, to.y));
    let mut ev = s
        .apply(Action::Play {
            card: 0,
            half: super::state::Half::Bottom,
            basic: false,
            path,
            targets: Vec::new(),
            ally: None,
        })
        .unwrap();
    while s.drawing.is_some() {
        ev.extend(s.apply(Action::Draw(0)).unwrap());
    }
    ev
}

#[test]
fn only_the_first_room_is_on_the_board_and_its_doors_are_walls() {
    let s = state(&three_rooms(90));
    let door = super::scenario::map_hex(4, 1);
    assert_eq!(s.map.0.terrain(door), Some(crate::hex::Terrain::Wall));
    assert!(
        !s.map.0.contains(super::scenario::map_hex(6, 1)),
        "room B is not on the board"
    );
    assert!(s.monsters.is_empty(), "no monster stands in the first room");
    assert_eq!(s.revealed, [true, false, false]);
    assert_eq!(s.closed_doors(), [door]);
    // A hero can walk onto the door; a monster's board has it as a wall.
    let ends: Vec<Hex> = super::heroes::reach(&s, 0, 3, false)
        .into_iter()
        .map(|(h, _)| h)
        .collect();
    assert!(ends.contains(&door), "{ends:?}");
}

#[test]
fn a_hero_entering_a_door_reveals_the_room_and_its_monsters_act_this_round() {
    let mut s = in_round_one(&three_rooms(90));
    assert_eq!(
        s.phase,
        Phase::HeroTurn {
            hero: 0,
            played: None
        }
    );
    let door = super::scenario::map_hex(4, 1);
    let ev = walk(&mut s, 0, door);
    let lines: Vec<String> = ev.iter().filter_map(|e| log::describe(&s, e)).collect();
    assert!(
        lines
            .iter()
            .any(|l| l.ends_with("Ash opens the door between room A and the Pantry")),
        "{lines:?}"
    );
    // Four characters: the elite spot is filled; elites come first.
    assert!(
        lines
            .iter()
            .any(|l| l.ends_with("the Pantry is revealed: elite Cellar Rat 1 and Cellar Rat 2")),
        "{lines:?}"
    );
    assert_eq!(s.revealed, [true, true, false]);
    assert_eq!(s.map.0.terrain(door), Some(crate::hex::Terrain::Floor));
    assert!(s.map.0.contains(super::scenario::map_hex(6, 1)));
    // Door 2 is on the board now, closed; room C is not.
    assert_eq!(s.closed_doors(), [super::scenario::map_hex(8, 1)]);
    assert!(!s.map.0.contains(super::scenario::map_hex(9, 1)));
    // The rats drew their card and stand in the order after the heroes' 10s if it is later.
    let rat = s.scenario.monster_index("Cellar Rat").unwrap();
    let card = s.kinds[rat].current.expect("the rats drew a card");
    let init = s.scenario.monsters[rat].deck[card].initiative;
    assert_eq!(
        s.order.contains(&Actor::Monsters(rat)),
        init > 10,
        "initiative {init}"
    );
}

#[test]
fn a_type_revealed_after_its_initiative_waits_for_the_next_round() {
    // The Bog Sentry's only card has initiative 5: its place passed before the heroes' 10s.
    for (late, joins) in [(5, false), (90, true)] {
        let mut s = in_round_one(&three_rooms(late));
        // Ash opens door 1 on its turn; door 2 is then opened by the same rule a step on it runs.
        walk(&mut s, 0, super::scenario::map_hex(4, 1));
        let sentry = s.scenario.monster_index("Bog Sentry").unwrap();
        // Put the sentry's room on the board directly through the door rule.
        let d = s.closed_door_at(super::scenario::map_hex(8, 1)).unwrap();
        let mut ev = Vec::new();
        s.open_door(d, Some(0), &mut ev);
        while s.drawing.is_some() {
            s.apply(Action::Draw(0)).unwrap();
        }
        assert!(s.revealed.iter().all(|&r| r));
        assert_eq!(
            s.order.contains(&Actor::Monsters(sentry)),
            joins,
            "initiative {late}"
        );
    }
}

#[test]
fn the_heroes_win_only_when_every_room_is_revealed_and_cleared() {
    let s = in_round_one(&three_rooms(90));
    // No monster stands anywhere on the board, but two rooms are hidden: the game goes on.
    assert!(s.monsters.is_empty());
    assert!(!s.phase.is_over());
    let mut g = Game::new(parse(&three_rooms(90)), "rooms.ron", 3, TieBreaker::Seeded).unwrap();
    let mut opened = 0;
    let mut lines = Vec::new();
    g.play_out(20_000, |st, _, ev| {
        lines.extend(ev.iter().filter_map(|e| log::describe(st, e)));
        for e in ev {
            if let Event::DoorOpened { .. } = e {
                opened += 1;
            }
            if matches!(e, Event::Victory) {
                assert!(st.all_revealed());
            }
        }
    });
    assert!(
        g.state.phase.is_over(),
        "the autopilot plays the rooms to the end"
    );
    assert_eq!(opened, 2, "both doors were opened:\n{}", lines.join("\n"));
}

#[test]
fn rooms_that_do_not_fit_the_map_are_refused_where_they_are_written() {
    let good = three_rooms(90);
    for (from, to, says) in [
        (
            "\"AAAA+BBB+CC\", \"AAAABBBBCCC\", \"AAAABBBBCCC\", \"AAAABBBBCCC\"]",
            "\"AAAA+BBB+CC\", \"AAAABBBBCCC\", \"AAAABBBBCCC\"]",
            "rooms: 4 rows, but the map has 5",
        ),
        (
            "\"AAAA+BBB+CC\"",
            "\"AAAA+BBB CC\"",
            "the door on row 2, column 9 is marked ' '",
        ),
        (
            "\"AAAABBBBCCC\", \"AAAA+",
            "\"AAAABBB CCC\", \"AAAA+",
            "the hex on row 1, column 8 has no room",
        ),
        (
            "\"#34.#...#.#\"",
            "\"#3..#4..#.#\"",
            "start hex 4 is in the Pantry",
        ),
        (
            "'B': \"the Pantry\"",
            "'Z': \"the Pantry\"",
            "no room is drawn with 'Z'",
        ),
    ] {
        let text = good.replacen(from, to, 1);
        assert_ne!(text, good, "{from}");
        let e = Gloomhaven::parse_scenario("rooms.ron", &text).unwrap_err();
        assert!(e.message.contains(says), "{to}: {e}");
        assert_eq!(e.line, 1, "{e}");
        assert!(e.column > 1, "{to}: {e}");
    }
    // A door inside one room joins nothing.
    let text = good
        .replacen("\"#2..#.A.#s#\"", "\"#2+.#.A.#s#\"", 1)
        .replacen(
            "\"AAAA+BBB+CC\", \"AAAABBBBCCC\"",
            "\"AAAA+BBB+CC\", \"AA+ABBBBCCC\"",
            1,
        );
    let e = Gloomhaven::parse_scenario("rooms.ron", &text).unwrap_err();
    assert!(
        e.message
            .contains("row 3, column 3 touches 1 room: a door joins two"),
        "{e}"
    );
    // A door needs rooms drawn.
    let e = Gloomhaven::parse_scenario(
        "rooms.ron",
        &four([1; 4]).replacen("\"1234.....\"", "\"1234+....\"", 1),
    )
    .unwrap_err();
    assert!(e.message.contains("draw them in `rooms`"), "{e}");
}

#[test]
fn choosing_what_the_scenario_offers_first_is_the_game_it_starts_as() {
    use crate::rules::PartyChoice;
    // Level-5 heroes recommend level 3 for all four; the first two (levels 1 and 5) level 2.
    let text = four([1, 5, 6, 4]);
    let file = parse(&text);
    assert_eq!(file.recommended_level(), 2);
    assert_eq!(file.recommended_level_of(&[1, 2]), 3);
    for (choice, set_up) in [
        (PartyChoice::default(), None),
        (
            PartyChoice {
                level: Some(2),
                players: None,
                heroes: Vec::new(),
            },
            None,
        ),
        (
            PartyChoice {
                level: None,
                players: Some(4),
                heroes: Vec::new(),
            },
            None,
        ),
        (
            PartyChoice {
                level: Some(3),
                players: None,
                heroes: Vec::new(),
            },
            Some((3, 4)),
        ),
        // Two characters: the first two heroes (levels 1 and 5) recommend 2.
        (
            PartyChoice {
                level: None,
                players: Some(2),
                heroes: Vec::new(),
            },
            Some((2, 2)),
        ),
    ] {
        let mut g = Game::new(file.clone(), "party.ron", 1, TieBreaker::Seeded).unwrap();
        let events = g.set_up(choice.clone()).unwrap();
        match set_up {
            None => {
                assert!(events.is_empty() && g.actions().is_empty(), "{choice:?}");
            }
            Some((level, characters)) => assert!(
                matches!(events[..], [Event::SetUp { level: Some(l), characters: c }] if l == level && c == characters),
                "{choice:?}: {events:?}"
            ),
        }
    }
}

#[test]
fn a_save_of_a_players_own_monster_replays_with_the_players_library_only() {
    let rat = Library::built_in().monsters[0].text.clone().unwrap();
    assert!(rat.contains("\"Cellar Rat\""));
    let mine = Library::of_monsters(&[(
        "library/monsters/mire-rat.ron",
        &rat.replace("\"Cellar Rat\"", "\"Mire Rat\""),
    )]);
    let text = four([1; 4]).replace("\"Cellar Rat\"", "\"Mire Rat\"");
    let mut store = Memory::default();
    store
        .write(Path::new("scenarios/mire.ron"), text.as_bytes())
        .unwrap();
    assert!(Gloomhaven::parse_scenario("scenarios/mire.ron", &text).is_err());
    let scenario =
        Arc::new(Gloomhaven::parse_scenario_in("scenarios/mire.ron", &text, &mine).unwrap());
    let mut game = Game::new(scenario, "scenarios/mire.ron", 7, TieBreaker::Seeded)
        .unwrap()
        .with_scenario_text(&text);
    game.play_out(300, |_, _, _| {});
    assert!(game.cursor > 0, "the game moved");
    let save = Save::of(&game);
    let at = Path::new("saves/mire-save.ron");
    let e = save.replay_report(&store, at).unwrap_err();
    assert!(e.contains("Mire Rat"), "without the library: {e}");
    let replay = save.replay_report_in(&store, at, &mine).expect("replays");
    assert!(replay.parted.is_none() && replay.scenario_changed.is_none());
    assert_eq!(replay.game.state, game.state);
}
