//! Unit tests of the Brimstone fight rules beyond the public cases: each behaviour and retarget rule,
//! ambush spread, checkerboard skips, clamps, D8, splash, and the hit odds against brute force.

use super::attack::{self, AttackKind, DamageHit, DamageModifier, Die, HitKind, Roll, Target};
use super::end_of_fight::{Breath, Member, heal_chances, settle_member};
use super::placement::{Fight, Group, Initiative, Style, place};
use super::targeting::{Active, Attack, Behaviour, Situation, activate};
use super::*;
use crate::decision::ChosenBy;
use crate::modifiers::fraction::Fraction;
use crate::square::{SquareBoard, Tile};

/// A one-tile board drawn row by row from the back (highest `y`) to the front (`y = 0`): `#` walls,
/// `A`..`D` heroes (Ann, Bo, Cy, Di), `E` the active enemy, `e` other enemies, anything else floor.
struct Art {
    board: SquareBoard,
    heroes: Vec<Hero>,
    enemies: Vec<Square>,
    active: Square,
}

const HERO_NAMES: [(char, &str); 4] = [('A', "Ann"), ('B', "Bo"), ('C', "Cy"), ('D', "Di")];

fn art(rows: &[&str]) -> Art {
    let h = rows.len() as i32;
    let w = rows[0].len() as i32;
    let mut walls = Vec::new();
    let mut heroes = Vec::new();
    let mut enemies = Vec::new();
    let mut active = (0, 0);
    for (r, row) in rows.iter().enumerate() {
        let y = h - 1 - r as i32;
        for (x, c) in row.chars().enumerate() {
            let s = (x as i32, y);
            match c {
                '#' => walls.push(s),
                'E' => active = s,
                'e' => enemies.push(s),
                _ => {
                    if let Some((_, name)) = HERO_NAMES.iter().find(|(k, _)| *k == c) {
                        heroes.push(Hero {
                            name: name.to_string(),
                            at: s,
                            markers: 0,
                        });
                    }
                }
            }
        }
    }
    walls.sort();
    heroes.sort_by(|a, b| a.name.cmp(&b.name));
    let tile = Tile {
        name: "A".into(),
        x: 0,
        y: 0,
        w,
        h,
    };
    Art {
        board: SquareBoard::new(vec![tile], &walls).unwrap(),
        heroes,
        enemies,
        active,
    }
}

fn hero(a: &Art, name: &str) -> usize {
    a.heroes.iter().position(|h| h.name == name).unwrap()
}

fn enemy(a: &Art, behaviour: Behaviour, move_points: u32, range: u32) -> Active {
    Active {
        name: "Foe".into(),
        at: a.active,
        behaviour,
        move_points,
        range,
        current_target: None,
        same_type_count: 1,
        targeted_by_same_type: Vec::new(),
    }
}

/// `(end, targets, attack, chosen_by)` of every outcome, and the retarget flag.
type Seen = (bool, Vec<(Square, Vec<String>, Attack, ChosenBy)>);

fn run(a: &Art, active: &Active, retreat_roll: Option<u8>) -> Seen {
    let act = activate(&Situation {
        board: &a.board,
        heroes: &a.heroes,
        enemies: &a.enemies,
        active,
        retreat_roll,
    });
    assert!(
        !act.outcomes.trace.is_empty(),
        "every activation explains itself"
    );
    let outcomes = act
        .outcomes
        .options
        .into_iter()
        .map(|o| (o.end, o.targets, o.attack, o.chosen_by))
        .collect();
    (act.retarget, outcomes)
}

fn out(
    end: Square,
    targets: &[&str],
    attack: Attack,
    by: ChosenBy,
) -> (Square, Vec<String>, Attack, ChosenBy) {
    (
        end,
        targets.iter().map(ToString::to_string).collect(),
        attack,
        by,
    )
}

use Attack::{Melee as M, NoAttack as N, Ranged as R};
use ChosenBy::{Fixed, Players, Random, RandomAndPlayers};

// --- Melee ---------------------------------------------------------------------------------------

#[test]
fn melee_keeps_an_adjacent_current_target_and_neither_moves_nor_retargets() {
    let a = art(&["....", ".AE.", "..B."]);
    let mut foe = enemy(&a, Behaviour::Melee, 3, 0);
    foe.current_target = Some(hero(&a, "Bo"));
    assert_eq!(
        run(&a, &foe, None),
        (false, vec![out((2, 1), &["Bo"], M, Fixed)])
    );
}

#[test]
fn melee_with_a_distant_current_target_retargets_and_moves_as_far_as_it_can() {
    // Ann is adjacent already, but the target is picked afresh; it still goes round to the square
    // next to Ann that costs the most movement.
    let a = art(&["A....", ".E...", ".....", "....B"]);
    let mut foe = enemy(&a, Behaviour::Melee, 2, 0);
    foe.current_target = Some(hero(&a, "Bo"));
    let (retarget, outcomes) = run(&a, &foe, None);
    assert!(retarget);
    // Ann at (0, 3): the squares next to her cost 0 ((1, 2), where it stands) or 1 ((0, 2), (1, 3)).
    // Bo at (4, 0): (3, 0) and (3, 1) cost 2; (4, 1) costs 3, out of reach.
    assert_eq!(
        outcomes,
        vec![
            out((0, 2), &["Ann"], M, RandomAndPlayers),
            out((1, 3), &["Ann"], M, RandomAndPlayers),
            out((3, 0), &["Bo"], M, RandomAndPlayers),
            out((3, 1), &["Bo"], M, RandomAndPlayers),
        ]
    );
}

#[test]
fn melee_even_distribution_leaves_out_heroes_its_type_already_targets() {
    let a = art(&["A...B", "..E..", "....."]);
    let mut foe = enemy(&a, Behaviour::Melee, 3, 0);
    foe.targeted_by_same_type = vec![hero(&a, "Ann")];
    let spread = run(&a, &foe, None).1;
    assert!(
        spread.iter().all(|o| o.1 == vec!["Bo".to_string()]),
        "{spread:?}"
    );
    // As many enemies of the type as heroes: plain random pick again.
    foe.same_type_count = 2;
    let plain = run(&a, &foe, None).1;
    assert!(
        plain.iter().any(|o| o.1 == vec!["Ann".to_string()]),
        "{plain:?}"
    );
}

#[test]
fn melee_without_a_reachable_hero_approaches_the_closest_and_ties_are_the_players() {
    // Ann and Bo are both 5 steps away; with move 1 neither can be reached.
    let a = art(&["A....E....B"]);
    let foe = enemy(&a, Behaviour::Melee, 1, 0);
    let (retarget, outcomes) = run(&a, &foe, None);
    assert!(retarget);
    assert_eq!(
        outcomes,
        vec![out((4, 0), &[], N, Players), out((6, 0), &[], N, Players)]
    );
}

#[test]
fn other_models_block_the_enemys_path() {
    // The only way to Ann runs through the gap at (2, 1), which another enemy fills.
    let a = art(&["..#..", "A.e.E", "..#.."]);
    let foe = enemy(&a, Behaviour::Melee, 3, 0);
    let blocked = run(&a, &foe, None).1;
    assert!(blocked.iter().all(|o| o.2 == N), "{blocked:?}");
}

// --- Ranged --------------------------------------------------------------------------------------

#[test]
fn ranged_shoots_an_adjacent_hero_first_and_the_attack_is_ranged() {
    let a = art(&["A.....", ".E...B"]);
    let foe = enemy(&a, Behaviour::Ranged, 3, 6);
    assert_eq!(
        run(&a, &foe, None),
        (true, vec![out((1, 0), &["Ann"], R, Fixed)])
    );
}

#[test]
fn ranged_needs_line_of_sight_and_moves_until_the_closest_hero_is_in_sight() {
    // Bo is 3 squares away but the wall at (2, 5) hides him; Ann is out of range (5).
    let a = art(&["E.#B", "....", "....", "....", "....", "A..."]);
    let foe = enemy(&a, Behaviour::Ranged, 2, 3);
    let (_, outcomes) = run(&a, &foe, None);
    // Bo is the closest by walking (4). No square at cost 1 sees him past the wall; at cost 2,
    // (1, 3), (2, 3) and (2, 4) do ((2, 4) only touches the wall's corner): a players' tie. Next to
    // Bo on (2, 4) it must shoot him; elsewhere Ann is in range too: a random pick.
    assert_eq!(
        outcomes,
        vec![
            out((1, 3), &["Ann"], R, RandomAndPlayers),
            out((1, 3), &["Bo"], R, RandomAndPlayers),
            out((2, 3), &["Ann"], R, RandomAndPlayers),
            out((2, 3), &["Bo"], R, RandomAndPlayers),
            out((2, 4), &["Bo"], R, Players),
        ]
    );
}

#[test]
fn ranged_with_no_hero_in_range_after_a_full_move_does_not_attack() {
    let a = art(&["A.........E"]);
    let foe = enemy(&a, Behaviour::Ranged, 3, 2);
    assert_eq!(
        run(&a, &foe, None),
        (true, vec![out((7, 0), &[], N, Fixed)])
    );
}

// --- Melee or ranged -------------------------------------------------------------------------------

#[test]
fn melee_or_ranged_fights_an_adjacent_hero_in_melee_and_retargets() {
    let a = art(&["AE..B"]);
    let mut foe = enemy(&a, Behaviour::MeleeOrRanged, 3, 4);
    foe.current_target = Some(hero(&a, "Bo"));
    assert_eq!(
        run(&a, &foe, None),
        (true, vec![out((1, 0), &["Ann"], M, Fixed)])
    );
}

#[test]
fn melee_or_ranged_never_ends_next_to_any_hero() {
    // Cy, the closest hero, hides behind the wall at (5, 1). The cheapest square that sees him,
    // (5, 0), is next to him, and every other square that would see him is out of reach; so it ends
    // on (6, 0), the closest allowed square, where nobody is in range.
    let a = art(&["....C#..", "A......E"]);
    let foe = enemy(&a, Behaviour::MeleeOrRanged, 4, 3);
    assert_eq!(
        run(&a, &foe, None),
        (true, vec![out((6, 0), &[], N, Fixed)])
    );
}

// --- Acid Blob -----------------------------------------------------------------------------------

#[test]
fn an_acid_blob_keeps_its_target_unless_a_strictly_larger_group_is_reachable() {
    let a = art(&["A.B.....C", "....E...."]);
    let mut foe = enemy(&a, Behaviour::AcidBlob, 3, 0);
    foe.current_target = Some(hero(&a, "Cy"));
    // Ann and Bo together (at (1, 0)/(1, 1)) beat Cy alone: it retargets to that group.
    let (retarget, outcomes) = run(&a, &foe, None);
    assert!(retarget);
    assert_eq!(
        outcomes,
        vec![
            out((1, 0), &["Ann", "Bo"], M, Players),
            out((1, 1), &["Ann", "Bo"], M, Players),
        ]
    );
    // Targeting Bo instead: Bo is in a largest group, so it keeps him.
    foe.current_target = Some(hero(&a, "Bo"));
    let (retarget, kept) = run(&a, &foe, None);
    assert!(!retarget);
    assert_eq!(kept, outcomes);
}

#[test]
fn an_acid_blob_out_of_reach_approaches_its_current_target() {
    let a = art(&["A.........E.........B"]);
    let mut foe = enemy(&a, Behaviour::AcidBlob, 2, 0);
    foe.current_target = Some(hero(&a, "Bo"));
    assert_eq!(
        run(&a, &foe, None),
        (false, vec![out((12, 0), &[], N, Fixed)])
    );
}

// --- Shootout ------------------------------------------------------------------------------------

#[test]
fn a_shootout_retreat_left_to_the_die_lists_both_results() {
    let a = art(&[".....", "AE...", "....."]);
    let foe = enemy(&a, Behaviour::Shootout, 3, 3);
    let (retarget, outcomes) = run(&a, &foe, None);
    assert!(retarget);
    // On 1-3: melee on Ann where it stands. On 4-6: the nearest squares next to no hero, (2, y),
    // then Ann (the only hero) is in range: it shoots from there.
    assert_eq!(
        outcomes,
        vec![
            out((1, 1), &["Ann"], M, Random),
            out((2, 0), &["Ann"], R, RandomAndPlayers),
            out((2, 1), &["Ann"], R, RandomAndPlayers),
            out((2, 2), &["Ann"], R, RandomAndPlayers),
        ]
    );
}

#[test]
fn a_shootout_retreat_with_nowhere_to_go_fails() {
    let a = art(&["AEB"]);
    let foe = enemy(&a, Behaviour::Shootout, 3, 3);
    let (_, outcomes) = run(&a, &foe, Some(6));
    let want = vec![
        out((1, 0), &["Ann"], M, Random),
        out((1, 0), &["Bo"], M, Random),
    ];
    assert_eq!(outcomes, want);
    // Left to the die, both results lead to the same outcomes: the roll is no choice at all.
    assert_eq!(run(&a, &foe, None).1, want);
}

#[test]
fn a_shootout_enemy_targets_the_heroes_with_the_fewest_markers() {
    let mut a = art(&["A...E...B"]);
    let ann = hero(&a, "Ann");
    a.heroes[ann].markers = 1;
    let foe = enemy(&a, Behaviour::Shootout, 2, 4);
    assert_eq!(
        run(&a, &foe, None),
        (true, vec![out((4, 0), &["Bo"], R, Fixed)])
    );
}

// --- Support -------------------------------------------------------------------------------------

#[test]
fn support_stays_when_a_hero_shares_its_tile_and_none_is_adjacent() {
    let a = art(&["A...E"]);
    let foe = enemy(&a, Behaviour::Support, 3, 0);
    assert_eq!(
        run(&a, &foe, None),
        (false, vec![out((4, 0), &[], N, Fixed)])
    );
}

#[test]
fn support_on_a_tile_without_heroes_walks_towards_the_closest_heros_tile() {
    // Two tiles side by side: the enemy on the right one, Ann on the left one.
    let tiles = vec![
        Tile {
            name: "L".into(),
            x: 0,
            y: 0,
            w: 3,
            h: 1,
        },
        Tile {
            name: "R".into(),
            x: 3,
            y: 0,
            w: 4,
            h: 1,
        },
    ];
    let board = SquareBoard::new(tiles, &[]).unwrap();
    let heroes = vec![Hero {
        name: "Ann".into(),
        at: (0, 0),
        markers: 0,
    }];
    let a = Art {
        board,
        heroes,
        enemies: vec![],
        active: (6, 0),
    };
    let foe = enemy(&a, Behaviour::Support, 5, 0);
    // (2, 0) is the first square of Ann's tile and is not next to her.
    assert_eq!(
        run(&a, &foe, None),
        (false, vec![out((2, 0), &[], N, Fixed)])
    );
}

// --- Placement -----------------------------------------------------------------------------------

fn group(name: &str, initiative: Initiative, style: Style, models: &[&str]) -> Group {
    Group {
        name: name.into(),
        initiative,
        style,
        ambushed_hero: None,
        models: models.iter().map(ToString::to_string).collect(),
    }
}

type Layouts = Vec<(Vec<(String, Square)>, Vec<String>, ChosenBy)>;

fn layouts(a: &Art, groups: &[Group], ambush: bool) -> Layouts {
    let p = place(&Fight {
        board: &a.board,
        heroes: &a.heroes,
        groups,
        fight_tile: 0,
        ambush,
        triggered_before_anyone_moved: false,
    })
    .unwrap();
    p.layouts
        .options
        .into_iter()
        .map(|l| (l.at, l.unplaced, l.chosen_by))
        .collect()
}

fn at(pairs: &[(&str, Square)]) -> Vec<(String, Square)> {
    pairs.iter().map(|(m, s)| (m.to_string(), *s)).collect()
}

#[test]
fn normal_placement_passes_over_a_blocked_pattern_square_to_the_next_one() {
    // Back row y=2: (0,2) is a wall and (2,2) holds Ann; the next pattern square is (4,2), then the
    // second row's (1,1).
    let a = art(&["#.A..", ".....", "....."]);
    let g = [group(
        "Hounds",
        Initiative::Fixed(3),
        Style::Plain,
        &["H1", "H2"],
    )];
    assert_eq!(
        layouts(&a, &g, false),
        vec![(at(&[("H1", (4, 2)), ("H2", (1, 1))]), vec![], Fixed)]
    );
}

#[test]
fn normal_placement_uses_the_skipped_squares_once_the_pattern_is_full_then_leaves_models_off() {
    let a = art(&["...", "#A."]);
    // Pattern squares: (0,1), (2,1); then the second row's (1,0) holds Ann. Skipped: (1,1), then (0,0)
    // is a wall and (2,0) is left: four free squares for five models.
    let g = [group(
        "Rats",
        Initiative::Fixed(1),
        Style::Plain,
        &["R1", "R2", "R3", "R4", "R5"],
    )];
    assert_eq!(
        layouts(&a, &g, false),
        vec![(
            at(&[
                ("R1", (0, 1)),
                ("R2", (2, 1)),
                ("R3", (1, 1)),
                ("R4", (2, 0))
            ]),
            vec!["R5".to_string()],
            Fixed
        )]
    );
}

#[test]
fn tied_initiatives_are_placed_in_an_order_the_players_choose() {
    let a = art(&["...", "..."]);
    let g = [
        group("Left", Initiative::Fixed(2), Style::Plain, &["L1"]),
        group("Right", Initiative::Fixed(2), Style::Plain, &["R1"]),
    ];
    assert_eq!(
        layouts(&a, &g, false),
        vec![
            (at(&[("L1", (0, 1)), ("R1", (2, 1))]), vec![], Players),
            (at(&[("L1", (2, 1)), ("R1", (0, 1))]), vec![], Players),
        ]
    );
}

#[test]
fn a_plain_ambush_spreads_models_over_heroes_when_heroes_outnumber_them() {
    // Three heroes with one free square beside each: (1, 2) by Ann, (3, 2) by Bo, (1, 0) by Cy.
    // With two models the second never falls on the first one's hero, so no model ever needs the
    // fallback squares: exactly the six ordered pairs of distinct heroes, each a random result.
    let a = art(&["A.#.B", "##.##", "C.#.."]);
    let g = [group(
        "Hounds",
        Initiative::Fixed(3),
        Style::Plain,
        &["H1", "H2"],
    )];
    let beside = [(1, 2), (3, 2), (1, 0)];
    let mut want = Vec::new();
    for s1 in beside {
        for s2 in beside {
            if s1 != s2 {
                want.push((at(&[("H1", s1), ("H2", s2)]), vec![], Random));
            }
        }
    }
    want.sort();
    assert_eq!(layouts(&a, &g, true), want);
    // With as many models as heroes, a hero may be drawn twice; each hero's corner holds one free
    // square only, so a model drawn to a full corner is left off the board.
    let g3 = [group(
        "Hounds",
        Initiative::Fixed(3),
        Style::Plain,
        &["H1", "H2", "H3"],
    )];
    let three = layouts(&a, &g3, true);
    assert!(three.iter().any(|l| !l.1.is_empty()));
    assert!(three.iter().any(|l| l.1.is_empty()));
}

#[test]
fn an_immobile_ambush_leaves_models_off_when_the_heros_tile_is_full_but_shootout_overflows() {
    let tiles = vec![
        Tile {
            name: "Small".into(),
            x: 0,
            y: 0,
            w: 2,
            h: 1,
        },
        Tile {
            name: "Next".into(),
            x: 2,
            y: 0,
            w: 3,
            h: 1,
        },
    ];
    let board = SquareBoard::new(tiles, &[]).unwrap();
    let heroes = vec![Hero {
        name: "Ann".into(),
        at: (0, 0),
        markers: 0,
    }];
    let a = Art {
        board,
        heroes,
        enemies: vec![],
        active: (0, 0),
    };
    let immobile = [group(
        "Totems",
        Initiative::Fixed(1),
        Style::Immobile,
        &["T1", "T2"],
    )];
    assert_eq!(
        layouts(&a, &immobile, true),
        vec![(at(&[("T1", (1, 0))]), vec!["T2".to_string()], Fixed)]
    );
    let shootout = [group(
        "Guns",
        Initiative::Fixed(1),
        Style::Shootout,
        &["G1", "G2"],
    )];
    assert_eq!(
        layouts(&a, &shootout, true),
        vec![(at(&[("G1", (1, 0)), ("G2", (4, 0))]), vec![], Fixed)]
    );
}

#[test]
fn an_ambush_ends_the_turn_unless_triggered_before_anyone_moved() {
    let a = art(&["A.."]);
    let g = [group("Hounds", Initiative::Variable, Style::Plain, &["H1"])];
    for (before, ends) in [(false, true), (true, false)] {
        let p = place(&Fight {
            board: &a.board,
            heroes: &a.heroes,
            groups: &g,
            fight_tile: 0,
            ambush: true,
            triggered_before_anyone_moved: before,
        })
        .unwrap();
        assert_eq!((p.initiative_bonus, p.ends_turn), (2, ends));
    }
}

// --- Hero attacks --------------------------------------------------------------------------------

fn roll(kind: AttackKind, die: Die, to_hit: u32, bonus: i32, dice: u32) -> Roll {
    Roll {
        kind,
        die,
        to_hit,
        to_hit_bonus: bonus,
        combat: dice,
        shots: dice,
        weapon_combat: 1,
        extra_dice: 0,
        free: false,
        free_attacks_used_this_turn: 0,
        in_own_activation: true,
    }
}

#[test]
fn the_target_number_is_clamped_to_two_and_to_the_dies_sides() {
    let cases = [
        (Die::D6, 4, 0, 4),
        (Die::D6, 4, 1, 3),
        (Die::D6, 3, 5, 2),
        (Die::D6, 9, 0, 6),
        (Die::D8, 9, 0, 8),
        (Die::D8, 7, 0, 7),
        (Die::D6, 4, -3, 6),
    ];
    for (die, to_hit, bonus, want) in cases {
        let r = roll(AttackKind::Melee, die, to_hit, bonus, 2);
        assert_eq!(
            attack::target_number(&r),
            want,
            "{to_hit}+ with {bonus} on {die:?}"
        );
    }
}

#[test]
fn dice_come_from_shots_combat_or_the_weapon_and_stop_at_six_even_on_d8() {
    let mut r = roll(AttackKind::Ranged, Die::D8, 7, 0, 5);
    r.combat = 1;
    r.extra_dice = 3;
    assert_eq!(attack::dice(&r), 6);
    r.kind = AttackKind::Melee;
    assert_eq!(attack::dice(&r), 4, "combat 1 + 3 extra");
    r.free = true;
    assert_eq!(attack::dice(&r), 4, "weapon combat 1 + 3 extra");
    r.extra_dice = -5;
    assert_eq!(attack::dice(&r), 0);
}

#[test]
fn a_free_attack_is_allowed_once_per_turn_in_the_heros_own_activation() {
    let mut r = roll(AttackKind::Melee, Die::D6, 4, 0, 3);
    r.free = true;
    assert!(attack::allowed(&r));
    r.in_own_activation = false;
    assert!(!attack::allowed(&r));
    r.in_own_activation = true;
    r.free_attacks_used_this_turn = 1;
    assert!(!attack::allowed(&r));
    r.free = false;
    assert!(attack::allowed(&r), "ordinary attacks are not limited");
    let not = attack::resolve(&Roll { free: true, ..r }, &[], &[], &[]);
    assert_eq!((not.dice, not.hits.clone()), (0, vec![Fraction::ONE]));
}

#[test]
fn exact_hit_odds_match_a_brute_force_count_of_every_roll() {
    for die in [Die::D6, Die::D8] {
        let sides = die.sides();
        for target in 2..=sides {
            for n in 0..=6u32 {
                let total = u128::from(sides).pow(n);
                let mut count = vec![0u128; n as usize + 1];
                for mut code in 0..total {
                    let mut hits = 0;
                    for _ in 0..n {
                        let face = (code % u128::from(sides)) as u32 + 1;
                        code /= u128::from(sides);
                        if face != 1 && face >= target {
                            hits += 1;
                        }
                    }
                    count[hits] += 1;
                }
                let brute: Vec<Fraction> = count.iter().map(|&c| Fraction::new(c, total)).collect();
                assert_eq!(
                    attack::hit_chances(n, die, target),
                    brute,
                    "{n} {die:?} at {target}+"
                );
            }
        }
    }
}

#[test]
fn splash_gets_only_the_modifiers_that_say_so_and_area_damage_gets_them_all() {
    let targets = [
        Target {
            name: "Hound".into(),
            wounds: 5,
            xp: 10,
        },
        Target {
            name: "Rat".into(),
            wounds: 2,
            xp: 5,
        },
        Target {
            name: "Crow".into(),
            wounds: 9,
            xp: 20,
        },
    ];
    let modifiers = [
        DamageModifier {
            amount: 2,
            applies_to_splash: false,
        },
        DamageModifier {
            amount: -1,
            applies_to_splash: true,
        },
    ];
    let hits = [
        DamageHit {
            target: 0,
            roll: 3,
            kind: HitKind::Direct,
        },
        DamageHit {
            target: 1,
            roll: 3,
            kind: HitKind::Splash,
        },
        DamageHit {
            target: 2,
            roll: 1,
            kind: HitKind::Splash,
        },
        DamageHit {
            target: 2,
            roll: 4,
            kind: HitKind::Area,
        },
    ];
    let r = attack::resolve(
        &roll(AttackKind::Melee, Die::D6, 4, 0, 3),
        &targets,
        &modifiers,
        &hits,
    );
    // Hound 3+2-1 = 4 (alive); Rat 3-1 = 2 by splash (killed: its XP counts); Crow max(0, 1-1) + 4+1.
    assert_eq!(
        r.damage,
        vec![
            ("Crow".to_string(), 5),
            ("Hound".to_string(), 4),
            ("Rat".to_string(), 2)
        ]
    );
    assert_eq!((r.killed, r.xp), (vec!["Rat".to_string()], 5));
}

// --- End of fight --------------------------------------------------------------------------------

#[test]
fn healing_is_capped_by_the_damage_taken() {
    let f = |a, b| Fraction::new(a, b);
    let cases = [
        (3, 5, vec![f(0, 1), f(1, 3), f(1, 3), f(1, 3)]),
        (6, 2, vec![f(0, 1), f(1, 6), f(5, 6)]),
        (6, 0, vec![f(1, 1)]),
    ];
    for (die, cap, want) in cases {
        assert_eq!(heal_chances(die, cap), want, "D{die} capped at {cap}");
    }
}

#[test]
fn a_member_at_full_grit_only_heals_and_an_ally_draws_no_loot() {
    let mut m = Member {
        name: "Pike".into(),
        ally: true,
        got_turn: false,
        wounds: 4,
        sanity_damage: 0,
        grit: 2,
        max_grit: 2,
    };
    let s = settle_member(&m, 5);
    assert_eq!(s.loot, 0);
    assert_eq!(s.catch_breath.options.len(), 1);
    assert!(matches!(
        s.catch_breath.options[0].option,
        Breath::Heal { die: 6, .. }
    ));
    assert_eq!(s.catch_breath.options[0].chosen_by, Fixed);
    m.ally = false;
    m.grit = 0;
    let s = settle_member(&m, 5);
    assert_eq!(s.loot, 3, "at most 3 Loot cards");
    assert_eq!(s.catch_breath.options.len(), 2);
    assert!(
        s.catch_breath
            .options
            .iter()
            .all(|o| o.chosen_by == Players)
    );
}

// --- Case files ----------------------------------------------------------------------------------

const ATTACK_CASE: &str = r#"// a small attack
HeroAttack(
    id: "t-1",
    hero: "Vera",
    attack: (kind: Melee, die: D8, to_hit: 9, to_hit_bonus: 0, combat: 2, shots: 0,
             weapon_combat: 0, extra_dice: 0, free: false, free_attacks_used_this_turn: 0,
             in_own_activation: true),
    targets: [(name: "Rat", wounds: 2, xp: 5)],
    damage_modifiers: [],
    damage_hits: [(model: "Rat", roll: 2, kind: Direct)],
    expect: (allowed: true, target_number: 8, dice: 2, hits: ["49/64", "14/64", "1/64", "0/1"],
             damage: [("Rat", 2)], killed: ["Rat"], xp: 5),
)
"#;

#[test]
fn an_attack_case_answers_with_the_formats_json_and_compares_fractions_by_value() {
    let a = case::solve("t.ron", ATTACK_CASE).unwrap();
    assert_eq!(a.verdict, Some(Ok(())), "{}", a.text);
    assert_eq!(
        a.json,
        serde_json::json!({"allowed": true, "target_number": 8, "dice": 2,
            "hits": ["49/64", "7/32", "1/64"], "damage": {"Rat": 2}, "killed": ["Rat"], "xp": 5})
    );
    let wrong = ATTACK_CASE.replace("xp: 5),\n)", "xp: 6),\n)");
    let v = case::solve("t.ron", &wrong).unwrap().verdict;
    assert!(matches!(&v, Some(Err(why)) if why.contains("xp")), "{v:?}");
}

#[test]
fn bad_case_files_give_the_file_line_column_and_what_was_expected() {
    let cases = [
        (
            ATTACK_CASE.replace("hero: \"Vera\"", "hero: \"Vera\", colour: 1"),
            4,
            "colour",
        ),
        (
            ATTACK_CASE.replace("\"14/64\"", "\"14/x\""),
            11,
            "expected a fraction",
        ),
        (
            ATTACK_CASE.replace("(model: \"Rat\"", "(model: \"Cat\""),
            10,
            "expected one of the targets",
        ),
        (
            ATTACK_CASE.replace("combat: 2,", "combat: 500,"),
            5,
            "at most 100",
        ),
    ];
    for (text, line, says) in cases {
        let err = case::solve("t.ron", &text).unwrap_err();
        assert_eq!((err.file.as_str(), err.line), ("t.ron", line), "{err}");
        assert!(err.column >= 1 && err.message.contains(says), "{err}");
    }
}

#[test]
fn a_board_case_refuses_a_hero_on_a_wall_and_an_oversized_board() {
    let text = r#"EndOfFight(id: "x", threat_cards: 1, party: [])"#;
    assert!(case::solve("e.ron", text).unwrap().verdict.is_none());
    let targeting = |tiles: &str, hero: &str| {
        format!(
            "Targeting(\n  id: \"t\",\n  board: (tiles: [{tiles}], walls: [(1, 0)]),\n  heroes: [(name: \"Vera\", at: {hero}, markers: 0)],\n  enemies: [],\n  active: (name: \"Foe\", at: (0, 0), behaviour: Melee, move: 3, range: 0, current_target: None, same_type_count: 1, targeted_by_same_type: []),\n  retreat_roll: None,\n)"
        )
    };
    let on_wall = case::solve(
        "w.ron",
        &targeting("(name: \"A\", x: 0, y: 0, w: 3, h: 1)", "(1, 0)"),
    )
    .unwrap_err();
    assert_eq!(on_wall.line, 4, "{on_wall}");
    assert!(
        on_wall.message.contains("expected a board square"),
        "{on_wall}"
    );
    let huge = case::solve(
        "h.ron",
        &targeting("(name: \"A\", x: 0, y: 0, w: 200, h: 200)", "(2, 0)"),
    )
    .unwrap_err();
    assert_eq!(huge.line, 3, "{huge}");
    assert!(huge.message.contains("at most 16384"), "{huge}");
    let fine = case::solve(
        "f.ron",
        &targeting("(name: \"A\", x: 0, y: 0, w: 3, h: 1)", "(2, 0)"),
    )
    .unwrap();
    assert!(fine.text.contains("rule steps"), "{}", fine.text);
}

#[test]
fn a_plain_ambush_lists_every_way_the_draws_and_the_players_can_place_it() {
    // Two heroes far apart in the open, eight free squares round each; two models, no spreading
    // (as many models as heroes): every ordered pair of distinct squares out of those sixteen.
    let a = art(&["........", ".A....B.", "........"]);
    let g = [group(
        "Hounds",
        Initiative::Fixed(3),
        Style::Plain,
        &["H1", "H2"],
    )];
    let all = layouts(&a, &g, true);
    assert_eq!(all.len(), 16 * 15);
    assert!(
        all.iter()
            .all(|l| l.2 == RandomAndPlayers && l.1.is_empty())
    );
    let three = [group(
        "Hounds",
        Initiative::Fixed(3),
        Style::Plain,
        &["H1", "H2", "H3"],
    )];
    assert_eq!(layouts(&a, &three, true).len(), 16 * 15 * 14);
}

/// Every way `n` six-sided dice can fall, each once.
fn all_rolls(n: u32) -> Vec<Vec<u32>> {
    (0..n).fold(vec![Vec::new()], |rolls, _| {
        rolls
            .iter()
            .flat_map(|r| {
                (1..=6).map(move |d| {
                    let mut r = r.clone();
                    r.push(d);
                    r
                })
            })
            .collect()
    })
}

#[test]
fn the_wounds_of_a_whole_attack_match_every_way_its_dice_can_fall() {
    // Hits on 4+, then a damage die a hit with +1 and −2 armour, capped at what kills: the exact
    // distribution against a count over every to-hit and damage die.
    let (needed, bonus, armour) = (4u32, 1i64, 2i64);
    let mut per_hit = vec![Fraction::ZERO; 6];
    for r in 1..=6i64 {
        per_hit[(r + bonus - armour).max(0) as usize] += Fraction::new(1, 6);
    }
    for dice in 0..=3u32 {
        for cap in [1u32, 3, 7] {
            let got =
                attack::wounds_of_hits(&attack::hit_chances(dice, Die::D6, needed), &per_hit, cap);
            let mut counts = vec![0u128; cap as usize + 1];
            let mut total = 0u128;
            for to_hit in all_rolls(dice) {
                let hits = to_hit.iter().filter(|&&r| r >= needed).count() as u32;
                // Each to-hit outcome weighs 6^(3 - hits) damage outcomes so all count alike.
                for damage in all_rolls(hits) {
                    let sum: i64 = damage
                        .iter()
                        .map(|&r| (i64::from(r) + bonus - armour).max(0))
                        .sum();
                    let weight = 6u128.pow(3 - hits);
                    counts[(sum as usize).min(cap as usize)] += weight;
                    total += weight;
                }
            }
            let want: Vec<Fraction> = counts.iter().map(|&c| Fraction::new(c, total)).collect();
            assert_eq!(got, want, "{dice} dice, cap {cap}");
        }
    }
}
