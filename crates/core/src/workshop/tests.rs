//! The workshop's engine driven as the table drives it: a two-room scenario made by brushes and
//! fields from a blank draft, checked, playtested and written.

use super::any::{AnyDraft, open_draft, played_out, shop_modules};
use crate::library::Library;
use crate::rules::PartyChoice;
use crate::rules::gloomhaven::scenario::map_hex;
use crate::rules::lab::Value;
use crate::rules::view::CellKey;

/// The cell of the map's column `col` and row `row`.
fn at(col: usize, row: usize) -> CellKey {
    let h = map_hex(col, row);
    (h.x, h.y)
}

fn paint(d: &mut dyn AnyDraft, brush: &str, cells: &[(usize, usize)]) {
    for &(c, r) in cells {
        d.paint(brush, at(c, r), None)
            .unwrap_or_else(|e| panic!("{brush} at {c},{r}: {e}"));
    }
}

fn choose(d: &mut dyn AnyDraft, selected: Option<CellKey>, field: &str, word: &str) {
    d.set(selected, field, Value::Choice(word.into()))
        .unwrap_or_else(|e| panic!("{field} = {word}: {e}"));
}

fn block(
    cols: std::ops::RangeInclusive<usize>,
    rows: std::ops::RangeInclusive<usize>,
) -> Vec<(usize, usize)> {
    cols.flat_map(|c| rows.clone().map(move |r| (c, r)))
        .collect()
}

/// Two rooms of floor walled round, a door between them, four starts, rats for the party sizes,
/// the Rat King to kill in the second room and a chest in the first.
fn two_rooms() -> Box<dyn AnyDraft> {
    let gh = shop_modules()
        .into_iter()
        .find(|m| m.module == "Gloomhaven")
        .unwrap();
    let mut d = (gh.blank)("two-rooms.ron", Library::default());
    assert!(!d.playable(), "a blank draft has nothing to play");
    // Walls round two rooms of 4 by 3, a door in the wall between.
    paint(d.as_mut(), "wall", &block(0..=10, 0..=4));
    paint(d.as_mut(), "floor", &block(1..=4, 1..=3));
    paint(d.as_mut(), "door", &[(5, 2)]);
    choose(d.as_mut(), None, "brush:room", "B");
    paint(d.as_mut(), "room", &block(6..=10, 0..=4));
    paint(d.as_mut(), "floor", &block(6..=9, 1..=3));
    paint(d.as_mut(), "start", &[(1, 1), (1, 2), (1, 3), (2, 2)]);
    choose(d.as_mut(), None, "brush:monster", "Cellar Rat");
    paint(d.as_mut(), "monster", &[(7, 1), (7, 3)]);
    // The second rat: absent for two (normal, elite, absent: two clicks), elite for four.
    paint(d.as_mut(), "cycle-2", &[(7, 3)]);
    paint(d.as_mut(), "cycle-2", &[(7, 3)]);
    paint(d.as_mut(), "cycle-4", &[(7, 3)]);
    choose(d.as_mut(), None, "brush:monster", "Rat King");
    paint(d.as_mut(), "monster", &[(9, 2)]);
    paint(d.as_mut(), "treasure", &[(3, 1)]);
    choose(d.as_mut(), None, "victory", "kill");
    choose(d.as_mut(), None, "victory:monster", "Rat King");
    d.set(None, "round_limit", Value::Number(14)).unwrap();
    d.set(
        Some(at(6, 2)),
        "room:name",
        Value::Text("the larder".into()),
    )
    .unwrap();
    d
}

#[test]
fn a_two_room_scenario_made_by_brushes_loads_and_plays() {
    let d = two_rooms();
    assert_eq!(d.report().error, None, "\n{}", d.text());
    let view = d.view();
    let doors = view.cells.iter().filter(|c| c.door).count();
    assert_eq!(doors, 1);
    let foes: Vec<&str> = view
        .figures
        .iter()
        .filter(|f| f.side == crate::rules::view::Side::Foe)
        .map(|f| f.name.as_str())
        .collect();
    assert_eq!(
        foes,
        [
            "Cellar Rat 2n 3n 4n",
            "Rat King 2n 3n 4n",
            "Cellar Rat 2– 3n 4E"
        ]
    );
    assert!(
        d.text()
            .contains("room_names: {\n        'B': \"the larder\""),
        "{}",
        d.text()
    );
    for players in [2, 3, 4] {
        let choice = PartyChoice {
            players: Some(players),
            ..PartyChoice::default()
        };
        let test = played_out(d.as_ref(), 30, choice);
        let r = &test.report;
        assert_eq!((test.played(), r.unfinished), (30, 0), "{players} players");
        let opened = r.count("Door opened").unwrap();
        assert!(
            opened.games > 0,
            "{players} players: the door is never opened"
        );
        assert!(r.won > 0, "{players} players never win: {r:?}");
    }
}

#[test]
fn a_made_scenario_reads_back_the_same_and_undoes_to_blank() {
    let mut d = two_rooms();
    let text = d.text();
    let again = open_draft("two-rooms.ron", &text, Library::default()).unwrap();
    assert_eq!(again.text(), text, "save → open → save changes the bytes");
    let blank = (shop_modules()[0].blank)("two-rooms.ron", Library::default()).text();
    let (undo, redo) = d.history();
    assert_eq!(redo, 0);
    for _ in 0..undo {
        assert!(d.undo());
    }
    assert!(!d.undo());
    assert_eq!(d.text(), blank);
    while d.redo() {}
    assert_eq!(d.text(), text);
}

#[test]
fn brushes_refuse_what_a_file_cannot_hold_and_leave_the_draft() {
    let mut d = two_rooms();
    let before = d.text();
    let history = d.history();
    for (brush, cell, why) in [
        ("monster", at(20, 20), "no hex here"),
        ("cycle-2", at(2, 1), "monster spot"),
        ("start", at(3, 3), "every start"),
        ("room", at(5, 2), "door belongs to no room"),
        ("no-such", at(1, 1), "no brush"),
    ] {
        let e = d.paint(brush, cell, None).unwrap_err();
        assert!(e.contains(why), "{brush}: {e}");
    }
    let e = d.paint("thin-wall", at(1, 1), Some(at(4, 3))).unwrap_err();
    assert!(e.contains("neighbouring"), "{e}");
    assert_eq!(d.text(), before);
    assert_eq!(d.history(), history);
    // A palette setting is no edit.
    choose(d.as_mut(), None, "brush:room", "C");
    assert_eq!(d.history(), history);
}

#[test]
fn a_goal_named_before_its_monster_is_an_error_the_draft_keeps() {
    let mut d = two_rooms();
    choose(d.as_mut(), None, "victory:monster", "Husk Beetle");
    let e = d
        .report()
        .error
        .clone()
        .expect("a goal with no such monster on the map");
    assert!(e.to_string().contains("Husk Beetle"), "{e}");
    assert!(!d.playable());
    assert!(d.playtest(1, PartyChoice::default()).is_err());
    d.undo();
    assert!(d.playable());
}

#[test]
fn a_special_rule_made_in_the_panel_fires_in_playtests() {
    let mut d = two_rooms();
    // A mark in room B, then a rule: at the start of round 2 and every 2 rounds after, a rat
    // spawns there; the door's opening says so.
    paint(d.as_mut(), "mark", &[(8, 1)]);
    choose(d.as_mut(), None, "rule:add", "a round starts");
    choose(d.as_mut(), None, "rule:1:then:1", "spawn");
    choose(d.as_mut(), None, "rule:1:then:1:monster", "Cellar Rat");
    d.set(None, "rule:1:every", Value::Number(2)).unwrap();
    d.set(None, "rule:1:name", Value::Text("the rat run".into()))
        .unwrap();
    choose(d.as_mut(), None, "rule:add", "a door opens");
    d.set(
        None,
        "rule:2:then:1:text",
        Value::Text("The larder reeks.".into()),
    )
    .unwrap();
    assert_eq!(d.report().error, None, "\n{}", d.text());
    let text = d.text();
    assert!(
        text.contains(
            "(name: \"the rat run\", when: RoundStarts(2), every: 2, then: [Spawn(monster: \"Cellar Rat\", at: 'a')])"
        ),
        "{text}"
    );
    assert!(text.contains("when: DoorOpened(\"AB\")"), "{text}");
    let fields: Vec<String> = d.fields(None).into_iter().map(|f| f.id).collect();
    for id in [
        "rule:1:round",
        "rule:1:every",
        "rule:1:then:1:at",
        "rule:2:door",
        "rule:2:repeat",
        "rule:add",
    ] {
        assert!(fields.iter().any(|f| f == id), "{id} in {fields:?}");
    }
    let choice = PartyChoice {
        players: Some(3),
        ..PartyChoice::default()
    };
    let test = played_out(d.as_ref(), 30, choice);
    for rule in ["Special rule: round starts", "Special rule: door opened"] {
        let c = test.report.count(rule).unwrap();
        assert!(c.games > 0, "{rule} never fires");
    }
    // An effect removed, then the rule's trigger changed: each one edit.
    let (undo, _) = d.history();
    choose(d.as_mut(), None, "rule:2:then:1", "remove");
    choose(d.as_mut(), None, "rule:1:when", "a monster dies");
    assert_eq!(d.history().0, undo + 2);
    assert!(
        d.text().contains("when: Dies(\"Cellar Rat\")"),
        "{}",
        d.text()
    );
    // A bad round is the loader's error, in its words, and the draft keeps it.
    d.set(None, "rule:1:when", Value::Choice("a round ends".into()))
        .unwrap();
    d.set(None, "rule:1:round", Value::Number(40)).unwrap();
    let e = d
        .report()
        .error
        .clone()
        .expect("round 40 is past the round limit");
    assert!(e.to_string().contains("40"), "{e}");
}

fn number(d: &mut dyn AnyDraft, field: &str, n: i64) {
    d.set(None, field, Value::Number(n))
        .unwrap_or_else(|e| panic!("{field} = {n}: {e}"));
}

fn shown(d: &dyn AnyDraft, field: &str) -> Option<Value> {
    d.fields(None)
        .into_iter()
        .find(|f| f.id == field)
        .map(|f| f.value)
}

#[test]
fn a_monster_type_made_in_the_panel_plays_goes_to_the_library_and_comes_back() {
    let mut d = two_rooms();
    // A new type: written in the scenario, held by the palette, its rows in the panel.
    choose(d.as_mut(), None, "types:add", "a new type");
    assert_eq!(
        shown(d.as_ref(), "brush:monster"),
        Some(Value::Choice("New Monster".into()))
    );
    d.set(None, "type:name", Value::Text("Bog Leech".into()))
        .unwrap();
    number(d.as_mut(), "type:level", 3);
    number(d.as_mut(), "type:normal:hp", 7);
    number(d.as_mut(), "type:elite:attack", 5);
    d.set(None, "type:card:0:name", Value::Text("Latch On".into()))
        .unwrap();
    number(d.as_mut(), "type:card:0:initiative", 9);
    choose(d.as_mut(), None, "type:card:0:act:1:condition", "wound");
    choose(d.as_mut(), None, "type:card:1:add", "Heal");
    number(d.as_mut(), "type:card:1:act:2:n", 2);
    choose(d.as_mut(), None, "type:card:2:card", "take out");
    choose(d.as_mut(), None, "type:add-card", "a new card");
    // Bounds and names are refused with a reason, the draft unchanged.
    let before = d.text();
    for (field, v) in [
        ("type:normal:hp", Value::Number(0)),
        ("type:card:0:initiative", Value::Number(100)),
        ("type:name", Value::Text("Cellar Rat".into())),
    ] {
        let e = d.set(None, field, v).unwrap_err();
        assert!(!e.is_empty());
        assert_eq!(d.text(), before, "{field}: {e}");
    }
    // The type stands on the board for every party size, and the scenario loads and plays.
    paint(d.as_mut(), "monster", &[(8, 1)]);
    assert_eq!(d.report().error, None, "\n{}", d.text());
    let text = d.text();
    assert!(text.contains("name: \"Bog Leech\""), "{text}");
    assert!(text.contains("Latch On"), "{text}");
    let again = open_draft("two-rooms.ron", &text, Library::default()).unwrap();
    assert_eq!(again.text(), text, "save → open → save changes the bytes");
    // Opened again, the panel shows the scenario's own type, as the palette offers it first.
    assert_eq!(
        shown(again.as_ref(), "type:name"),
        Some(Value::Text("Bog Leech".into()))
    );
    played_out(d.as_ref(), 10, PartyChoice::default());

    // Kept in the library: its file reads back as the same type, and the scenario, without its
    // own copy now, loads with the library that holds it (and not without).
    let entry = d
        .own_entries()
        .pop()
        .expect("the palette holds the scenario's own type");
    assert_eq!(
        (entry.kind, entry.file.as_str()),
        ("monsters", "bog-leech.ron")
    );
    let lib = Library::of_monsters(&[("library/monsters/bog-leech.ron", &entry.text)]);
    let t = crate::rules::gloomhaven::scenario::library_type(&lib, "Bog Leech").unwrap();
    assert_eq!(t.levels[3].normal.hp, 7);
    assert_eq!(t.levels[3].elite.attack, 5);
    assert_eq!(t.deck.len(), 3);
    assert_eq!(
        (t.deck[0].name.as_str(), t.deck[0].initiative),
        ("Latch On", 9)
    );
    d.keep_own_entry("monsters", lib.clone()).unwrap();
    assert!(d.own_entries().is_empty());
    assert!(
        !d.text().contains("Latch On"),
        "the copy goes: {}",
        d.text()
    );
    assert_eq!(d.report().error, None, "\n{}", d.text());
    let kept = d.text();
    let e = crate::kit::check("x.ron", &kept, &Library::default()).unwrap_err();
    assert!(e.message.contains("Bog Leech"), "{e}");
    // Undone, the scenario writes the type again.
    assert!(d.undo());
    assert!(d.text().contains("Latch On"));
    // A copy of a library type keeps its name, and the scenario's is the one played.
    choose(d.as_mut(), None, "types:add", "a copy of Cellar Rat");
    number(d.as_mut(), "type:level", 1);
    number(d.as_mut(), "type:normal:hp", 30);
    assert_eq!(d.report().error, None);
    let s = <crate::rules::gloomhaven::Gloomhaven as crate::rules::Rules>::parse_scenario_in(
        "x.ron",
        &d.text(),
        &Library::default(),
    )
    .unwrap();
    let rat = s.monsters.iter().find(|m| m.name == "Cellar Rat").unwrap();
    assert_eq!(rat.levels[1].normal.hp, 30);
    // Taken out, the library's is read again.
    choose(d.as_mut(), None, "type:type", "take out");
    assert!(!d.text().contains("hp: 30"));
    assert_eq!(d.report().error, None);
}

#[test]
fn a_boss_made_in_the_panel_has_immunities_and_specials_and_plays_them() {
    let mut d = two_rooms();
    choose(d.as_mut(), None, "types:add", "a new type");
    d.set(None, "type:name", Value::Text("Ember Warden".into()))
        .unwrap();
    d.set(None, "type:boss", Value::Flag(true)).unwrap();
    // Immunities: two added, the first changed, the second taken out.
    choose(d.as_mut(), None, "type:immune:add", "stun");
    choose(d.as_mut(), None, "type:immune:add", "poison");
    choose(d.as_mut(), None, "type:immune:0", "wound");
    choose(d.as_mut(), None, "type:immune:1", "take out");
    // No card performs a special the type does not have.
    let e = d
        .set(None, "type:card:0:act:0", Value::Choice("Special".into()))
        .unwrap_err();
    assert!(e.contains("no special"), "{e}");
    // A special: a new one attacks; a move added after it, by 2.
    choose(d.as_mut(), None, "type:add-special", "a new special");
    choose(d.as_mut(), None, "type:special:0:add", "Move");
    number(d.as_mut(), "type:special:0:act:1:n", 2);
    choose(d.as_mut(), None, "type:add-special", "a new special");
    // The first two cards perform the first special instead of their move and attack.
    for c in 0..2 {
        choose(
            d.as_mut(),
            None,
            &format!("type:card:{c}:act:1"),
            "take out",
        );
        choose(d.as_mut(), None, &format!("type:card:{c}:act:0"), "Special");
    }
    // Refused, the draft unchanged: an immunity twice, a special in a special, the special the
    // cards perform taken out, a special's last action taken out.
    choose(d.as_mut(), None, "type:special:1:act:0", "Move");
    let before = d.text();
    let e = d
        .set(None, "type:card:0:act:0:n", Value::Number(3))
        .unwrap_err();
    assert!(e.contains("from 1 to 2"), "{e}");
    assert_eq!(d.text(), before);
    for (field, word, why) in [
        ("type:immune:add", "wound", "immune to wound already"),
        ("type:special:0:add", "Special", "plain actions"),
        ("type:special:0:special", "take out", "performs Special 1"),
        ("type:special:1:act:0", "take out", "needs an action"),
    ] {
        let e = d.set(None, field, Value::Choice(word.into())).unwrap_err();
        assert!(e.contains(why), "{field}: {e}");
        assert_eq!(d.text(), before, "{field}: {e}");
    }
    // The second special, which no card performs, goes.
    choose(d.as_mut(), None, "type:special:1:special", "take out");
    paint(d.as_mut(), "monster", &[(8, 1)]);
    assert_eq!(d.report().error, None, "\n{}", d.text());
    let text = d.text();
    let s = <crate::rules::gloomhaven::Gloomhaven as crate::rules::Rules>::parse_scenario_in(
        "x.ron",
        &text,
        &Library::default(),
    )
    .unwrap();
    let boss = s
        .monsters
        .iter()
        .find(|m| m.name == "Ember Warden")
        .unwrap();
    assert!(boss.hp_per_character);
    use crate::rules::gloomhaven::scenario::{Condition, MonsterEffect};
    assert_eq!(boss.immunities, [Condition::Wound]);
    assert_eq!(boss.specials.len(), 1, "{text}");
    assert!(matches!(
        boss.specials[0][..],
        [
            MonsterEffect::Attack { value: 0, .. },
            MonsterEffect::Move(2)
        ]
    ));
    let again = open_draft("two-rooms.ron", &text, Library::default()).unwrap();
    assert_eq!(again.text(), text, "save → open → save changes the bytes");
    // In games the boss performs its special.
    let test = played_out(d.as_ref(), 10, PartyChoice::default());
    assert!(
        test.report
            .count("Boss special")
            .is_some_and(|c| c.games > 0),
        "the special is never performed"
    );
}

#[test]
fn a_class_made_in_the_panel_is_played_goes_to_the_library_and_comes_back() {
    let mut d = two_rooms();
    choose(d.as_mut(), None, "classes:add", "a new class");
    assert_eq!(
        shown(d.as_ref(), "class:name"),
        Some(Value::Text("New Class".into()))
    );
    // The first hero takes it from the list of classes, the scenario's own first.
    let start = Some(at(1, 1));
    let offered = d
        .fields(start)
        .into_iter()
        .find(|f| f.id == "hero:class")
        .expect("a start shows its hero's class");
    assert_eq!(
        offered.choices.first().map(String::as_str),
        Some("New Class")
    );
    choose(d.as_mut(), start, "hero:class", "New Class");
    // Renamed, the hero follows; hit points, hand and cards row by row.
    d.set(None, "class:name", Value::Text("Reed Dancer".into()))
        .unwrap();
    assert!(d.text().contains("class: \"Reed Dancer\""), "{}", d.text());
    number(d.as_mut(), "class:hp:1", 11);
    number(d.as_mut(), "class:hp:9", 25);
    d.set(None, "class:card:0:name", Value::Text("Whirl".into()))
        .unwrap();
    number(d.as_mut(), "class:card:0:initiative", 7);
    number(d.as_mut(), "class:card:0:top:act:0:pierce", 2);
    choose(
        d.as_mut(),
        None,
        "class:card:0:top:act:0:condition",
        "poison",
    );
    choose(d.as_mut(), None, "class:card:1:bottom:add", "Heal");
    number(d.as_mut(), "class:card:1:bottom:act:1:n", 3);
    choose(d.as_mut(), None, "class:card:2:top:act:0", "Shield");
    number(d.as_mut(), "class:card:7:level", 2);
    // Seven cards of level 1 now: a hand of eight is the loader's error, in its words.
    let e = d.report().error.clone().expect("eight cards from seven");
    assert!(e.message.contains("hand_size"), "{e}");
    number(d.as_mut(), "class:hand", 6);
    choose(d.as_mut(), None, "class:add-card", "a new card");
    choose(d.as_mut(), None, "class:card:3:card", "take out");
    assert_eq!(d.report().error, None, "\n{}", d.text());
    // Bounds and names are refused with a reason, the draft unchanged.
    let before = d.text();
    for (field, v) in [
        ("class:hp:1", Value::Number(0)),
        ("class:hand", Value::Number(1)),
        ("class:card:0:initiative", Value::Number(100)),
        ("class:card:0:top:act:0:targets", Value::Number(0)),
        ("class:name", Value::Text("Bulwark".into())),
        ("class:card:0:top:add", Value::Choice("Fly".into())),
        ("class:hp:10", Value::Number(12)),
    ] {
        let e = d.set(None, field, v).unwrap_err();
        assert!(!e.is_empty());
        assert_eq!(d.text(), before, "{field}: {e}");
    }
    // The hero is made of the class as the loader reads it: its hit points and hand.
    let s = <crate::rules::gloomhaven::Gloomhaven as crate::rules::Rules>::parse_scenario_in(
        "x.ron",
        &d.text(),
        &Library::default(),
    )
    .unwrap();
    let hero = &s.heroes[0];
    assert_eq!(hero.hp, 11);
    assert_eq!(hero.cards.len(), 6);
    assert_eq!(
        (hero.cards[0].name.as_str(), hero.cards[0].initiative),
        ("Whirl", 7)
    );
    assert_eq!(
        s.class_offers().first().map(|c| c.name.as_str()),
        Some("Reed Dancer"),
        "a player may make a character of it at setup"
    );
    let text = d.text();
    let again = open_draft("two-rooms.ron", &text, Library::default()).unwrap();
    assert_eq!(again.text(), text, "save → open → save changes the bytes");
    played_out(d.as_ref(), 10, PartyChoice::default());

    // Kept in the library: its file reads back as the same class, and the scenario, without its
    // own copy now, loads with the library that holds it (and not without).
    let entry = d
        .own_entries()
        .into_iter()
        .find(|e| e.kind == "classes")
        .expect("the panel shows the scenario's own class");
    assert_eq!(entry.file, "reed-dancer.ron");
    let lib = Library {
        classes: vec![crate::library::Entry {
            file: "library/classes/reed-dancer.ron".into(),
            text: Ok(entry.text.clone()),
        }],
        ..Library::default()
    };
    let c = crate::rules::gloomhaven::scenario::library_class(&lib, "Reed Dancer").unwrap();
    assert_eq!((c.hp[0], c.hp[8], c.hand_size), (11, 25, 6));
    d.keep_own_entry("classes", lib.clone()).unwrap();
    assert!(d.own_entries().iter().all(|e| e.kind != "classes"));
    assert!(!d.text().contains("Whirl"), "the copy goes: {}", d.text());
    assert_eq!(d.report().error, None, "\n{}", d.text());
    let e = crate::kit::check("x.ron", &d.text(), &Library::default()).unwrap_err();
    assert!(e.message.contains("Reed Dancer"), "{e}");
    assert!(d.undo());
    assert!(d.text().contains("Whirl"));
    // A copy of a library class keeps its name, and the scenario's is the one played.
    choose(d.as_mut(), None, "classes:add", "a copy of Bulwark");
    choose(d.as_mut(), None, "classes:shown", "Bulwark");
    number(d.as_mut(), "class:hp:1", 40);
    let s = <crate::rules::gloomhaven::Gloomhaven as crate::rules::Rules>::parse_scenario_in(
        "x.ron",
        &d.text(),
        &Library::default(),
    )
    .unwrap();
    let bulwark = s
        .heroes
        .iter()
        .find(|h| h.class.as_deref() == Some("Bulwark"));
    assert_eq!(bulwark.map(|h| h.hp), Some(40));
    choose(d.as_mut(), None, "class:class", "take out");
    assert!(!d.text().contains("hp: [40"), "{}", d.text());
    assert_eq!(d.report().error, None);
}

#[test]
fn a_scenario_of_an_earlier_format_that_gains_a_class_is_written_as_format_3() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let text = std::fs::read_to_string(root.join("tutorial.ron")).unwrap();
    assert!(text.contains("format: 2"), "the tutorial is of format 2");
    let mut d = open_draft("tutorial.ron", &text, Library::default()).unwrap();
    choose(d.as_mut(), None, "classes:add", "a new class");
    assert!(d.text().contains("format: 3"), "{}", d.text());
    assert_eq!(d.report().error, None);
}
