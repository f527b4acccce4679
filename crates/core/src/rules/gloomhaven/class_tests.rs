//! Heroes of the library's classes: hit points by level, the hand a hero takes, and the files and
//! hands that are refused.

use super::Gloomhaven;
use super::scenario::Scenario;
use crate::library::Library;
use crate::rules::Rules;

/// A scenario with one Bulwark hero (`hero` is its fields after the class) and a Cellar Rat.
fn with_hero(hero: &str) -> String {
    format!(
        "Scenario(rules: Gloomhaven, format: 2, name: \"classes\", grid: Hex, map: [\"12...a\"], \
         legend: {{ 'a': (monster: \"Cellar Rat\") }}, \
         heroes: [(name: \"Orrin\", class: \"Bulwark\"{hero}), (name: \"Wick\", class: \"Cutpurse\")], \
         victory: AllFoesDead)"
    )
}

fn names(s: &Scenario, h: usize) -> Vec<&str> {
    s.heroes[h].cards.iter().map(|c| c.name.as_str()).collect()
}

#[test]
fn a_hero_of_a_class_takes_its_hit_points_and_first_cards_for_its_level() {
    let s = Gloomhaven::parse_scenario("classes.ron", &with_hero("")).unwrap();
    assert_eq!(s.heroes[0].hp, 12);
    assert_eq!(
        names(&s, 0),
        [
            "Shield Rush",
            "Hold the Line",
            "Hammer Down",
            "Brawl",
            "Iron Skin",
            "Crack Shell",
            "Bull Charge",
            "Stamp"
        ]
    );
    let s = Gloomhaven::parse_scenario("classes.ron", &with_hero(", level: 4")).unwrap();
    assert_eq!(s.heroes[0].hp, 15, "level 4's hit points");
    // A level-3 hero may hold the level-3 card in a hand it names, in the order written.
    let s = Gloomhaven::parse_scenario(
        "classes.ron",
        &with_hero(", level: 3, hand: [\"Breaker\", \"Stand Fast\", \"Brawl\"]"),
    )
    .unwrap();
    assert_eq!(names(&s, 0), ["Breaker", "Stand Fast", "Brawl"]);
    assert_eq!(s.heroes[0].cards[0].top.xp, 2);
}

#[test]
fn a_hand_the_class_cannot_give_is_refused_at_the_hero() {
    for (hero, says) in [
        (
            ", hand: [\"Breaker\", \"Brawl\"]",
            "is a level 3 card: Orrin is level 1",
        ),
        (", hand: [\"Brawl\", \"Brawl\"]", "names \"Brawl\" twice"),
        (
            ", hand: [\"Moonbeam\", \"Brawl\"]",
            "\"Moonbeam\" is not a card of the Bulwark",
        ),
        (
            ", hand: [\"Shield Rush\", \"Hold the Line\", \"Hammer Down\", \"Brawl\", \"Iron Skin\", \
             \"Crack Shell\", \"Bull Charge\", \"Stamp\", \"Stand Fast\"], level: 2",
            "holds 9 cards: a Bulwark takes 8",
        ),
        (
            ", cards: [(name: \"X\", initiative: 1, top: (effects: []), bottom: (effects: []))]",
            "its cards come from the class",
        ),
    ] {
        let e = Gloomhaven::parse_scenario("classes.ron", &with_hero(hero)).unwrap_err();
        assert!(e.message.contains(says), "{hero}: {e}");
        assert_eq!((e.file.as_str(), e.line), ("classes.ron", 1), "{e}");
    }
    let text = with_hero("").replace("\"Cutpurse\"", "\"Juggler\"");
    let e = Gloomhaven::parse_scenario("classes.ron", &text).unwrap_err();
    assert!(e.message.contains("Wick: unknown class \"Juggler\""), "{e}");
}

#[test]
fn a_class_file_with_a_fault_is_refused_at_its_own_line() {
    let built = Library::built_in();
    let bulwark = built
        .classes
        .iter()
        .find(|e| e.file.ends_with("bulwark.ron"))
        .and_then(|e| e.text.clone().ok())
        .expect("the Bulwark is built in");
    // What to break, into what, what the error says, and the line it points at (the first one
    // holding `on`).
    for (from, to, says, on) in [
        (
            "hp: [12, 13, 14, 15, 16, 17, 18, 19, 20]",
            "hp: [12, 13, 14, 15, 16, 17, 18, 19]",
            "lists hit points for 8 levels",
            "hp: [",
        ),
        (
            "hand_size: 8",
            "hand_size: 9",
            "takes 9 cards but has 8 of level 1",
            "hand_size:",
        ),
        ("level: 3,", "level: 12,", "`level` is 12", "level: 12"),
        (
            "(name: \"Brawl\"",
            "(name: \"Stamp\"",
            "Stamp is written twice",
            "\"Stamp\"",
        ),
    ] {
        let broken = bulwark.replace(from, to);
        assert_ne!(broken, bulwark, "{from}");
        let lib = Library {
            classes: vec![crate::library::Entry {
                file: "mine/bulwark.ron".into(),
                text: Ok(broken.clone()),
            }],
            ..Library::default()
        }
        .with_built_in();
        let e = Scenario::parse_in("classes.ron", &with_hero(""), &lib).unwrap_err();
        assert!(e.message.contains(says), "{to}: {e}");
        assert_eq!(e.file, "mine/bulwark.ron", "{e}");
        let line = broken.lines().position(|l| l.contains(on)).map(|i| i + 1);
        assert_eq!(Some(e.line), line, "{to}: {e}");
    }
}

/// The Cutpurse's level-1 cards with Light Fingers (level 2) in place of Deep Cut.
const PICKED: [&str; 8] = [
    "Twin Knives",
    "Backstab",
    "Tumble",
    "Poisoned Edge",
    "Vanish",
    "Gut Slash",
    "Pickpocket",
    "Light Fingers",
];

fn pick(class: &str, level: u32, hand: &[&str]) -> Option<crate::rules::HeroPick> {
    Some(crate::rules::HeroPick {
        class: class.into(),
        level,
        hand: hand.iter().map(ToString::to_string).collect(),
        perks: Vec::new(),
    })
}

#[test]
fn a_player_makes_a_character_of_any_class_at_setup_with_a_hand_of_its_pool() {
    use crate::game::Game;
    use crate::rules::{PartyChoice, TieBreaker};
    let file =
        std::sync::Arc::new(Gloomhaven::parse_scenario("classes.ron", &with_hero("")).unwrap());
    // The table is offered every class of the library, each with its pool.
    let offer = Gloomhaven::party_offer(&file).expect("an offer");
    let classes: Vec<&str> = offer.classes.iter().map(|c| c.name.as_str()).collect();
    for c in ["Bulwark", "Fen Archer", "Lamplighter", "Cutpurse"] {
        assert!(classes.contains(&c), "{classes:?}");
    }
    assert_eq!(offer.seats[0].class.as_deref(), Some("Bulwark"));
    // Orrin's seat becomes a level-2 Cutpurse with a chosen hand; Wick stays as written.
    let mut g =
        Game::<Gloomhaven>::new(file.clone(), "classes.ron", 1, TieBreaker::Seeded).unwrap();
    let choice = PartyChoice {
        heroes: vec![pick("Cutpurse", 2, &PICKED)],
        ..PartyChoice::default()
    };
    g.set_up(choice.clone()).unwrap();
    let s = &g.state.scenario;
    assert_eq!(
        (s.heroes[0].name.as_str(), s.heroes[0].class.as_deref()),
        ("Orrin", Some("Cutpurse"))
    );
    assert_eq!((s.heroes[0].level, s.heroes[0].hp), (2, 9));
    assert_eq!(names(s, 0), PICKED);
    assert_eq!(s.heroes[1].class.as_deref(), Some("Cutpurse"));
    assert_eq!(g.state.heroes[0].max_hp, 9);
    // The save replays to the same game.
    g.play_out(40, |_, _, _| {});
    use crate::game::save::Save;
    let text = Save::of(&g).to_ron();
    let save = Save::<Gloomhaven>::parse("classes.save.ron", &text).unwrap();
    let mut again =
        Game::<Gloomhaven>::new(file.clone(), "classes.ron", 1, TieBreaker::Seeded).unwrap();
    for a in save.actions {
        again.apply(a).unwrap();
    }
    assert_eq!(again.state.state_hash(), g.state.state_hash());
    assert!(text.contains("Light Fingers"), "the save names the hand");
    // A choice the class cannot give is refused and the game stays as it was.
    for (bad, says) in [
        (
            pick("Cutpurse", 1, &PICKED),
            "a level 2 card: Orrin is level 1",
        ),
        (pick("Cutpurse", 2, &PICKED[..7]), "takes exactly 8"),
        (pick("Tinker", 1, &[]), "unknown class \"Tinker\""),
        (
            pick("Cutpurse", 0, &[]),
            "expected a character level from 1 to 9",
        ),
    ] {
        let mut g =
            Game::<Gloomhaven>::new(file.clone(), "classes.ron", 1, TieBreaker::Seeded).unwrap();
        let before = g.state.state_hash();
        let e = g
            .set_up(PartyChoice {
                heroes: vec![bad],
                ..PartyChoice::default()
            })
            .unwrap_err();
        assert!(e.contains(says), "{says}: {e}");
        assert_eq!(g.state.state_hash(), before);
    }
}

#[test]
fn perks_change_a_characters_modifier_deck_within_what_its_level_allows() {
    let deck = |hero: &str| {
        let s = Gloomhaven::parse_scenario("classes.ron", &with_hero(hero)).unwrap();
        s.heroes[0]
            .modifiers
            .clone()
            .unwrap_or_else(super::scenario::standard_modifiers)
    };
    let count = |d: &[String], c: &str| d.iter().filter(|x| *x == c).count();
    let plain = deck("");
    assert_eq!((plain.len(), count(&plain, "-1")), (20, 5));
    // Two -1 out twice, a +0 made a stunning +1.
    let d = deck(", perks: [\"Steady Footing\", \"Steady Footing\", \"Braced Blow\"]");
    assert_eq!(count(&d, "-1"), 1);
    assert_eq!(count(&d, "+0"), count(&plain, "+0") - 1);
    assert_eq!(count(&d, "+1 stun"), 1);
    assert_eq!(d.len(), 16);
    // Every class's perks read as modifier cards: each class can take each perk once.
    for (class, perks) in [
        ("Bulwark", "[\"Hardened\", \"Shield Wall\"]"),
        (
            "Cutpurse",
            "[\"Clean Cuts\", \"Dirty Tricks\", \"Quick Hands\"]",
        ),
        (
            "Fen Archer",
            "[\"Practised Draw\", \"Pinning Shot\", \"Steady Aim\", \"True Flight\"]",
        ),
        (
            "Lamplighter",
            "[\"Calm Hands\", \"Bright Burn\", \"Warding Light\"]",
        ),
    ] {
        let text = with_hero(&format!(", perks: {perks}")).replacen("Bulwark", class, 1);
        let s = Gloomhaven::parse_scenario("classes.ron", &text).unwrap_or_else(|e| panic!("{e}"));
        let mut g = crate::game::Game::<Gloomhaven>::new(
            std::sync::Arc::new(s),
            "classes.ron",
            1,
            crate::rules::TieBreaker::Seeded,
        )
        .unwrap();
        g.play_out(5_000, |_, _, _| {});
        assert!(g.state.phase.is_over(), "{class} plays to the end");
    }
    // Refused at the hero: an unknown perk, one taken too often, more than the level allows, and
    // a perk removing what the deck no longer holds.
    for (hero, says) in [
        (
            ", perks: [\"Second Wind\"]",
            "\"Second Wind\" is not a perk of the Bulwark",
        ),
        (
            ", perks: [\"Hardened\", \"Hardened\"]",
            "takes \"Hardened\" 2 times: it may be taken once",
        ),
        (
            ", perks: [\"Steady Footing\", \"Steady Footing\", \"Braced Blow\", \"Hardened\", \"Shield Wall\", \"Steady Footing\", \"Braced Blow\"]",
            "takes 7 perks: a level-1 character holds at most 6",
        ),
    ] {
        let e = Gloomhaven::parse_scenario("classes.ron", &with_hero(hero)).unwrap_err();
        assert!(e.message.contains(says), "{says}: {e}");
    }
    let e = Gloomhaven::parse_scenario(
        "classes.ron",
        &with_hero(", modifiers: [\"+0\", \"-1\"], perks: [\"Steady Footing\"]"),
    )
    .unwrap_err();
    assert!(
        e.message.contains("removes a -1 the deck no longer holds"),
        "{e}"
    );
    // A hero written out whole has no class to take perks from.
    let whole = "Scenario(rules: Gloomhaven, format: 2, name: \"w\", grid: Hex, map: [\"12...a\"], \
         legend: { 'a': (monster: \"Cellar Rat\") }, heroes: [(name: \"Mara\", hp: 8, perks: [\"Hardened\"], \
         cards: [(name: \"A\", initiative: 10, top: (effects: [Attack(value: 2)]), bottom: (effects: [Move(2)])), \
         (name: \"B\", initiative: 20, top: (effects: [Attack(value: 2)]), bottom: (effects: [Move(2)]))]), \
         (name: \"Wick\", class: \"Cutpurse\")], victory: AllFoesDead)";
    let e = Gloomhaven::parse_scenario("w.ron", whole).unwrap_err();
    assert!(
        e.message.contains("names a hand or perks but no class"),
        "{e}"
    );
}

/// [`with_hero`] with classes written in the scenario (`classes` is the list's inside).
fn with_classes(classes: &str) -> String {
    with_hero("").replacen("victory:", &format!("classes: [{classes}], victory:"), 1)
}

/// A class written in a scenario: `name`, hit points from `hp` up, a hand of two.
fn own_class(name: &str, hp: u32) -> String {
    let hps: Vec<String> = (hp..hp + 9).map(|h| h.to_string()).collect();
    format!(
        "(name: \"{name}\", hp: [{}], hand_size: 2, cards: [\
         (name: \"Jab\", initiative: 20, top: (effects: [Attack(value: 2)]), bottom: (effects: [Move(2)])), \
         (name: \"Skip\", initiative: 40, top: (effects: [Attack(value: 1)]), bottom: (effects: [Move(3)]))])",
        hps.join(", ")
    )
}

#[test]
fn a_class_the_scenario_writes_is_found_before_the_librarys_and_offered_first() {
    let text = with_classes(&own_class("Bulwark", 30));
    let s = Gloomhaven::parse_scenario("classes.ron", &text).unwrap();
    assert_eq!(s.heroes[0].hp, 30);
    assert_eq!(names(&s, 0), ["Jab", "Skip"]);
    // The library's Cutpurse still makes the second hero.
    assert_eq!(s.heroes[1].class.as_deref(), Some("Cutpurse"));
    assert!(s.heroes[1].cards.len() > 2);
    let offered: Vec<String> = s.class_offers().into_iter().map(|c| c.name).collect();
    assert_eq!(offered[0], "Bulwark");
    assert_eq!(offered.iter().filter(|n| *n == "Bulwark").count(), 1);
    // Of the scenario's own class, not the library's: two cards only.
    let bulwark = s.class_offers().remove(0);
    assert_eq!(bulwark.cards.len(), 2);
}

#[test]
fn a_class_the_scenario_writes_with_a_fault_is_refused_in_the_scenario() {
    // A hand of two from one card of level 1.
    let one_card = own_class("Reed Dancer", 8).replace(
        "(name: \"Skip\", initiative: 40",
        "(name: \"Skip\", level: 2, initiative: 40",
    );
    let e = Gloomhaven::parse_scenario("classes.ron", &with_classes(&one_card)).unwrap_err();
    assert_eq!(e.file, "classes.ron");
    assert!(
        e.message
            .contains("hand_size: Reed Dancer takes 2 cards but has 1"),
        "{e}"
    );
    let twice = format!(
        "{}, {}",
        own_class("Reed Dancer", 8),
        own_class("Reed Dancer", 9)
    );
    let e = Gloomhaven::parse_scenario("classes.ron", &with_classes(&twice)).unwrap_err();
    assert!(
        e.message.contains("classes: Reed Dancer is written twice"),
        "{e}"
    );
    // Eight levels of hit points: refused though no hero is of the class.
    let short = own_class("Reed Dancer", 8).replace("hp: [8, ", "hp: [");
    let e = Gloomhaven::parse_scenario("classes.ron", &with_classes(&short)).unwrap_err();
    assert!(e.message.contains("8 levels"), "{e}");
}
