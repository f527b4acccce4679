//! Scenarios that name library monsters, the scenario level and the party: what a file gets from
//! the library, what the level sets, where the party's size places monsters, and saves of them.

use std::path::Path;
use std::sync::Arc;

use super::actions::{Action, Event};
use super::log;
use super::scenario::{LevelTable, Party, Scenario};
use super::state::{Phase, State};
use super::{Game, Gloomhaven};
use crate::game::save::Save;
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

fn parse(text: &str) -> Arc<Scenario> {
    Arc::new(Gloomhaven::parse_scenario("party.ron", text).unwrap_or_else(|e| panic!("{e}")))
}

fn state(text: &str) -> State {
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
            },
            "from 0 to 7",
        ),
        (
            Party {
                level: 1,
                heroes: vec![0],
            },
            "seats 2 to 4",
        ),
        (
            Party {
                level: 1,
                heroes: vec![0, 0],
            },
            "twice",
        ),
        (
            Party {
                level: 1,
                heroes: vec![0, 9],
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
            heroes: vec![0; 5]
        }))
        .is_err()
    );
    s.apply(Action::Advance).unwrap();
    assert_eq!(s.phase, Phase::CardSelection);
    let e = s
        .apply(Action::Setup(Party {
            level: 1,
            heroes: vec![0, 1],
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
