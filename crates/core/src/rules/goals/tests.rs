//! Unit tests of the goal-priority rules beyond the public cases: each option, each Choose Target
//! step, stacking, minions, reactions and the case loader's errors.

use super::*;
use crate::hex::{Hex, hex};

/// A parallelogram board of columns `0..w` and rows `0..h`, then whatever `f` adds.
fn board(w: i32, h: i32, f: impl FnOnce(&mut BoardSpec)) -> Board {
    let mut spec = BoardSpec::default();
    for q in 0..w {
        for r in 0..h {
            spec.hexes.push(hex(q, r));
        }
    }
    f(&mut spec);
    spec.hexes.retain(|x| !spec.walls.contains(x));
    Board::new(spec).expect("a valid test board")
}

fn hero(name: &str, at: Hex) -> Hero {
    Hero {
        name: name.into(),
        hex: at,
        speed: 5,
        melee: 3,
        aim: 3,
        agility: 4,
        stealth: 4,
        wits: 3,
        armor: 2,
        minion: false,
        loot: 0,
        can_trade: false,
        trapped: false,
        auras: Vec::new(),
    }
}

fn foe(name: &str, at: Hex) -> Foe {
    Foe {
        name: name.into(),
        hex: at,
        speed: 5,
        melee: 4,
        aim: 0,
        weapons: Vec::new(),
        auras: Vec::new(),
        items: Vec::new(),
        minion_card: None,
        slip_away: true,
        acted: false,
        entered_from: None,
        hurt: false,
    }
}

fn weapon(name: &str, min: u32, max: u32, hit: i32) -> Weapon {
    Weapon {
        name: name.into(),
        min,
        max,
        hit,
    }
}

fn situation(board: Board, heroes: Vec<Hero>, foes: Vec<Foe>, mode: Mode) -> Situation {
    Situation {
        board,
        heroes,
        foes,
        active: 0,
        mode,
        override_card: OverrideCard {
            rating: Rating::Stealth,
            pick: Pick::Highest,
        },
    }
}

/// The outcomes as `(option, target, end)`, sorted.
fn short(s: &Situation) -> Vec<(GoalOption, Option<String>, (i32, i32))> {
    let d = decide(s);
    assert!(!d.trace.is_empty());
    d.options
        .iter()
        .map(|o| (o.option, o.target.clone(), (o.end.x, o.end.y)))
        .collect()
}

fn one(
    option: GoalOption,
    target: Option<&str>,
    end: (i32, i32),
) -> (GoalOption, Option<String>, (i32, i32)) {
    (option, target.map(String::from), end)
}

#[test]
fn option_1_returns_every_weapon_tied_for_the_best_hit() {
    let mut f = foe("Archer", hex(0, 0));
    f.aim = 5;
    f.weapons = vec![
        weapon("Bow", 1, 3, 0),
        weapon("Sling", 2, 4, 0),
        weapon("Dart", 1, 1, 3),
    ];
    let s = situation(
        board(6, 3, |_| {}),
        vec![hero("Ash", hex(2, 0))],
        vec![f],
        Mode::Attack,
    );
    let d = decide(&s);
    let weapons: Vec<Option<String>> = d.options.iter().map(|o| o.weapon.clone()).collect();
    assert_eq!(weapons, vec![Some("Bow".into()), Some("Sling".into())]);
    assert!(
        d.options
            .iter()
            .all(|o| o.option == GoalOption::Attack(1) && o.end == hex(0, 0))
    );
}

#[test]
fn a_hero_in_woods_can_be_an_invalid_ranged_target() {
    // Aim 5 against Stealth 6 + 2 in woods: −3, invalid; the foe goes on to melee.
    let mut f = foe("Archer", hex(0, 1));
    f.aim = 5;
    f.weapons = vec![weapon("Bow", 1, 4, 0)];
    let mut h = hero("Ash", hex(3, 1));
    h.stealth = 6;
    let b = board(6, 3, |b| b.woods.push(hex(3, 1)));
    let s = situation(b, vec![h], vec![f], Mode::Attack);
    assert!(
        short(&s)
            .iter()
            .all(|(o, _, _)| *o == GoalOption::Attack(2))
    );
}

#[test]
fn easiest_to_damage_breaks_a_tie_of_hit_chances() {
    let mut a = hero("Ash", hex(2, 2));
    a.armor = 3;
    let mut b = hero("Bram", hex(2, 0));
    b.armor = 1;
    let s = situation(
        board(6, 5, |_| {}),
        vec![a, b],
        vec![foe("Brute", hex(0, 2))],
        Mode::Attack,
    );
    assert!(
        short(&s)
            .iter()
            .all(|(_, t, _)| t.as_deref() == Some("Bram"))
    );
}

#[test]
fn the_override_card_can_pick_the_lowest_rating() {
    let mut a = hero("Ash", hex(2, 2));
    a.stealth = 5;
    let mut b = hero("Bram", hex(2, 0));
    b.stealth = 3;
    let mut s = situation(
        board(6, 5, |_| {}),
        vec![a, b],
        vec![foe("Brute", hex(0, 2))],
        Mode::Attack,
    );
    s.override_card.pick = Pick::Lowest;
    assert!(
        short(&s)
            .iter()
            .all(|(_, t, _)| t.as_deref() == Some("Bram"))
    );
    s.override_card.pick = Pick::Highest;
    assert!(
        short(&s)
            .iter()
            .all(|(_, t, _)| t.as_deref() == Some("Ash"))
    );
}

#[test]
fn a_minion_is_a_target_when_it_is_the_only_one() {
    let mut imp = hero("Imp", hex(3, 1));
    imp.minion = true;
    let s = situation(
        board(6, 3, |_| {}),
        vec![imp],
        vec![foe("Brute", hex(0, 1))],
        Mode::Attack,
    );
    assert!(
        short(&s)
            .iter()
            .all(|(o, t, _)| *o == GoalOption::Attack(2) && t.as_deref() == Some("Imp"))
    );
}

#[test]
fn slip_away_reaches_a_target_no_move_can() {
    // Speed 0: a Move reaches only Tall (invalid); a Slip Away with Tall reaches Ash.
    let mut f = foe("Eel", hex(0, 0));
    f.speed = 0;
    let mut tall = hero("Tall", hex(1, 0));
    tall.agility = 9;
    let s = situation(
        board(6, 3, |_| {}),
        vec![tall, hero("Ash", hex(3, 0))],
        vec![f],
        Mode::Attack,
    );
    let d = decide(&s);
    assert_eq!(d.options.len(), 1);
    let o = &d.options[0];
    assert_eq!(
        (o.option, o.target.as_deref(), o.end, o.swap.as_deref()),
        (GoalOption::Attack(2), Some("Ash"), hex(2, 0), Some("Tall"))
    );
}

#[test]
fn an_allys_help_aura_outweighs_move_points() {
    let mut ally = foe("Banner", hex(4, 0));
    ally.acted = true;
    ally.auras = vec![Aura {
        radius: 1,
        effect: AuraEffect::Help,
    }];
    let s = situation(
        board(7, 5, |_| {}),
        vec![hero("Ash", hex(3, 2))],
        vec![foe("Brute", hex(0, 2)), ally],
        Mode::Attack,
    );
    assert_eq!(
        short(&s),
        vec![one(GoalOption::Attack(2), Some("Ash"), (3, 1))]
    );
}

/// One row `q = 0..15`; the key is `q = 0..=9` with a Dome at (0, 0); Ash (Speed 2) at (8, 0).
fn trap_situation(trapped: bool) -> Situation {
    let b = board(15, 1, |b| {
        b.dome_keys.push(DomeKey {
            name: "Ring".into(),
            hexes: (0..10).map(|q| hex(q, 0)).collect(),
            domes: vec![hex(0, 0)],
        });
    });
    let mut h = hero("Ash", hex(8, 0));
    h.speed = 2;
    h.agility = 9;
    h.trapped = trapped;
    let mut f = foe("Warden", hex(13, 0));
    f.melee = 2;
    situation(b, vec![h], vec![f], Mode::Attack)
}

#[test]
fn option_3_traps_from_the_trapping_space_closest_to_the_hero() {
    // From (9, 0) or (10, 0) the foe keeps Ash in; (9, 0) is closer to him.
    assert_eq!(
        short(&trap_situation(false)),
        vec![one(GoalOption::Attack(3), Some("Ash"), (9, 0))]
    );
}

#[test]
fn a_hero_already_trapped_is_not_trapped_again() {
    // Nothing else to do and no adventure: the foe stays.
    assert_eq!(
        short(&trap_situation(true)),
        vec![one(GoalOption::Adventure, None, (13, 0))]
    );
}

#[test]
fn a_burst_action_is_used_where_the_foe_stands() {
    let mut f = foe("Shaman", hex(0, 1));
    f.items = vec![
        Item {
            name: "Ward".into(),
            kind: ItemKind::OncePerGame,
            effect: ItemEffect::Guard,
            action: false,
        },
        Item {
            name: "Howl".into(),
            kind: ItemKind::SingleUse,
            effect: ItemEffect::Burst {
                radius: 2,
                affects: Affects::Enemies,
            },
            action: true,
        },
    ];
    let s = situation(
        board(6, 3, |_| {}),
        vec![hero("Ash", hex(2, 1))],
        vec![f],
        Mode::Special,
    );
    let d = decide(&s);
    assert_eq!(d.options.len(), 1);
    assert_eq!(
        (
            d.options[0].option,
            d.options[0].end,
            d.options[0].used.clone()
        ),
        (GoalOption::Special(1), hex(0, 1), vec!["Howl".to_string()])
    );
}

#[test]
fn a_burst_out_of_reach_is_skipped_and_one_that_is_no_action_carries_on() {
    let mut f = foe("Shaman", hex(0, 1));
    f.items = vec![
        Item {
            name: "Far".into(),
            kind: ItemKind::Surprise,
            effect: ItemEffect::Burst {
                radius: 1,
                affects: Affects::Enemies,
            },
            action: true,
        },
        Item {
            name: "Cheer".into(),
            kind: ItemKind::SingleUse,
            effect: ItemEffect::Burst {
                radius: 3,
                affects: Affects::Enemies,
            },
            action: false,
        },
    ];
    let s = situation(
        board(6, 3, |_| {}),
        vec![hero("Ash", hex(3, 1))],
        vec![f],
        Mode::Special,
    );
    let d = decide(&s);
    assert!(!d.options.is_empty());
    for o in &d.options {
        assert_eq!(
            (o.option, o.used.clone()),
            (GoalOption::Attack(2), vec!["Cheer".to_string()])
        );
    }
}

#[test]
fn a_guard_counts_only_where_the_foe_ends_next_to_an_enemy() {
    let mut f = foe("Knight", hex(0, 1));
    f.items = vec![Item {
        name: "Ward".into(),
        kind: ItemKind::OncePerGame,
        effect: ItemEffect::Guard,
        action: false,
    }];
    let s = situation(
        board(6, 3, |_| {}),
        vec![hero("Ash", hex(3, 1))],
        vec![f.clone()],
        Mode::Special,
    );
    assert!(
        decide(&s)
            .options
            .iter()
            .all(|o| o.used == vec!["Ward".to_string()])
    );
    // Against an invalid target it heads for an adventure far from Ash instead: no Guard.
    let mut h = hero("Ash", hex(3, 1));
    h.agility = 9;
    let b = board(6, 3, |b| {
        b.adventures.push(Adventure {
            name: "Well".into(),
            spaces: vec![hex(0, 2)],
            captured: false,
            foes_use: true,
        });
    });
    let s = situation(b, vec![h], vec![f], Mode::Special);
    let d = decide(&s);
    assert_eq!(d.options.len(), 1);
    assert_eq!(
        (d.options[0].option, d.options[0].end),
        (GoalOption::Adventure, hex(0, 2))
    );
    assert!(d.options[0].used.is_empty());
}

#[test]
fn trading_watched_by_another_foe_is_not_stopped() {
    let mut a = hero("Ash", hex(3, 2));
    a.can_trade = true;
    let mut b = hero("Bram", hex(4, 1));
    b.can_trade = true;
    b.loot = 1;
    let heroes = vec![a, b];
    let free = situation(
        board(7, 5, |_| {}),
        heroes.clone(),
        vec![foe("Spoiler", hex(0, 3))],
        Mode::Special,
    );
    assert_eq!(
        short(&free),
        vec![one(GoalOption::Special(2), None, (3, 1))]
    );
    let mut watcher = foe("Watcher", hex(5, 1));
    watcher.acted = true;
    let watched = situation(
        board(7, 5, |_| {}),
        heroes,
        vec![foe("Spoiler", hex(0, 3)), watcher],
        Mode::Special,
    );
    assert!(
        short(&watched)
            .iter()
            .all(|(o, _, _)| *o != GoalOption::Special(2))
    );
}

#[test]
fn the_most_valuable_loot_wins_whatever_the_distance() {
    let b = board(8, 3, |b| {
        b.loot.push(Loot {
            hex: hex(1, 1),
            gold: 1,
            cards: 0,
        });
        b.loot.push(Loot {
            hex: hex(5, 1),
            gold: 0,
            cards: 1,
        });
    });
    let s = situation(
        b,
        vec![hero("Ash", hex(7, 2))],
        vec![foe("Magpie", hex(0, 1))],
        Mode::Special,
    );
    assert_eq!(short(&s), vec![one(GoalOption::Special(3), None, (5, 1))]);
}

#[test]
fn the_adventure_goal_ignores_captured_and_unused_adventures() {
    let b = board(14, 1, |b| {
        b.adventures.push(Adventure {
            name: "Taken".into(),
            spaces: vec![hex(2, 0)],
            captured: true,
            foes_use: true,
        });
        b.adventures.push(Adventure {
            name: "Shunned".into(),
            spaces: vec![hex(3, 0)],
            captured: false,
            foes_use: false,
        });
        b.adventures.push(Adventure {
            name: "Far".into(),
            spaces: vec![hex(12, 0)],
            captured: false,
            foes_use: true,
        });
    });
    let mut f = foe("Walker", hex(0, 0));
    f.speed = 4;
    let s = situation(b, Vec::new(), vec![f], Mode::Attack);
    assert_eq!(short(&s), vec![one(GoalOption::Adventure, None, (4, 0))]);
}

#[test]
fn an_invaded_foe_that_must_shoot_from_its_hex_stays_and_pushes_the_invader_back() {
    let mut f = foe("Archer", hex(2, 2));
    f.aim = 5;
    f.weapons = vec![weapon("Bow", 1, 4, 0)];
    let mut inv = foe("Runner", hex(2, 2));
    inv.acted = true;
    inv.entered_from = Some(hex(1, 2));
    let s = situation(
        board(7, 5, |_| {}),
        vec![hero("Ash", hex(5, 2))],
        vec![f, inv],
        Mode::Attack,
    );
    let d = decide(&s);
    assert_eq!(d.options.len(), 1);
    assert_eq!(
        d.options[0].unstack,
        Some(("Runner".to_string(), hex(1, 2)))
    );
    assert_eq!(
        (d.options[0].option, d.options[0].end),
        (GoalOption::Attack(1), hex(2, 2))
    );
}

#[test]
fn an_invaded_foe_that_can_still_reach_its_target_moves_off() {
    let mut inv = foe("Runner", hex(2, 2));
    inv.acted = true;
    inv.entered_from = Some(hex(1, 2));
    let s = situation(
        board(7, 5, |_| {}),
        vec![hero("Ash", hex(3, 2))],
        vec![foe("Brute", hex(2, 2)), inv],
        Mode::Attack,
    );
    let d = decide(&s);
    assert!(d.options.iter().all(|o| o.unstack.is_none()));
    assert_eq!(
        short(&s),
        vec![
            one(GoalOption::Attack(2), Some("Ash"), (2, 3)),
            one(GoalOption::Attack(2), Some("Ash"), (3, 1))
        ]
    );
}

#[test]
fn an_unleashed_minion_heads_for_the_nearest_valid_target() {
    let mut f = foe("Keeper", hex(0, 0));
    f.minion_card = Some(MinionCard {
        name: "Pup".into(),
        speed: 2,
        melee: 4,
        aim: 0,
    });
    let s = situation(
        board(10, 1, |_| {}),
        vec![hero("Ash", hex(8, 0))],
        vec![f],
        Mode::Attack,
    );
    let d = decide(&s);
    assert_eq!(d.options.len(), 1);
    let o = &d.options[0];
    assert_eq!((o.option, o.end), (GoalOption::Unleash, hex(0, 0)));
    assert_eq!(
        o.minion,
        Some(MinionMove {
            option: GoalOption::Attack(5),
            target: Some("Ash".into()),
            end: hex(2, 0)
        })
    );
}

#[test]
fn a_reaction_shot_takes_an_invalid_target_when_none_is_valid() {
    let mut f = foe("Archer", hex(0, 1));
    f.aim = 1;
    f.weapons = vec![weapon("Bow", 1, 5, 0)];
    let mut a = hero("Ash", hex(3, 1));
    a.stealth = 6;
    let mut b = hero("Bram", hex(4, 0));
    b.stealth = 5;
    let mut s = situation(board(6, 3, |_| {}), vec![a, b], vec![f], Mode::ReactionShot);
    s.override_card.pick = Pick::Lowest;
    let d = decide(&s);
    assert_eq!(d.options.len(), 1);
    assert_eq!(
        (
            d.options[0].option,
            d.options[0].target.as_deref(),
            d.options[0].weapon.as_deref()
        ),
        (GoalOption::ReactionShot, Some("Bram"), Some("Bow"))
    );
}

#[test]
fn a_hero_in_a_dome_is_kept_far_from_his_adventure() {
    // Una in a Dome at (2, 1); the foe ends next to the Dome where her way out is longest.
    let b = board(8, 4, |b| {
        b.dome_keys.push(DomeKey {
            name: "Hollow".into(),
            hexes: vec![
                hex(0, 0),
                hex(0, 1),
                hex(0, 2),
                hex(1, 0),
                hex(1, 1),
                hex(1, 2),
                hex(2, 0),
                hex(2, 1),
                hex(3, 0),
                hex(3, 1),
            ],
            domes: vec![hex(2, 1)],
        });
        b.adventures.push(Adventure {
            name: "Quarry".into(),
            spaces: vec![hex(7, 1)],
            captured: false,
            foes_use: true,
        });
    });
    let s = situation(
        b,
        vec![hero("Una", hex(2, 1))],
        vec![foe("Warder", hex(6, 3))],
        Mode::Special,
    );
    // Standing on (3, 1), east of the Dome, makes her way to the Quarry 6 instead of 5; the other
    // spaces next to the Dome leave it at 5.
    assert_eq!(
        short(&s),
        vec![one(GoalOption::Special(5), Some("Una"), (3, 1))]
    );
}

mod loading {
    use crate::rules::goals::case::solve;

    const GOOD: &str = include_str!("../../../../../tests/conformance/goals/gh-007.ron");

    #[test]
    fn a_coordinate_out_of_bounds_is_a_positioned_error() {
        let text = GOOD.replace("(5, 0), speed: 5", "(900, 0), speed: 5");
        let err = solve("x.ron", &text).unwrap_err();
        assert!(err.line > 0 && err.message.contains("±255"), "{err}");
    }

    #[test]
    fn an_unknown_field_is_refused() {
        let text = GOOD.replace("trapped: false,", "trapped: false, sneaky: true,");
        let err = solve("x.ron", &text).unwrap_err();
        assert!(err.line > 0 && err.message.contains("sneaky"), "{err}");
    }

    #[test]
    fn a_dome_key_needs_ten_hexes() {
        let text = GOOD.replace(
            "dome_keys: [],",
            "dome_keys: [(name: \"Ring\", hexes: [(0, 0)], domes: [])],",
        );
        let err = solve("x.ron", &text).unwrap_err();
        assert!(err.message.contains("exactly ten"), "{err}");
    }

    #[test]
    fn a_speed_beyond_the_bound_is_refused() {
        let text = GOOD.replace("speed: 5, melee: 3", "speed: 5000, melee: 3");
        let err = solve("x.ron", &text).unwrap_err();
        assert!(err.message.contains("at most 64"), "{err}");
    }

    #[test]
    fn an_expected_unstack_reads_as_a_struct_or_a_tuple() {
        for form in [
            "Some((foe: \"Foe 8\", to: (3, 0)))",
            "Some((\"Foe 8\", (3, 0)))",
        ] {
            let text = GOOD.replace(
                "minion: None, unstack: None",
                &format!("minion: None, unstack: {form}"),
            );
            let answer = solve("x.ron", &text).expect("a readable case");
            let why = answer.verdict.expect("an expected answer").unwrap_err();
            assert!(why.contains("Foe 8 goes back to (3, 0)"), "{why}");
        }
    }
}
