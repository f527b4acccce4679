//! Table-style tests of the monster solver on small hand-made boards.

use super::targeting::*;
use crate::hex::{Hex, HexMap, Terrain, hex};

/// A 9 × 9 parallelogram of floor with the given terrain and wall hexes.
fn board(terrain: &[((i32, i32), Terrain)]) -> HexMap {
    let mut hexes = Vec::new();
    let mut walls = Vec::new();
    for q in 0..9 {
        for r in -4..5 {
            match terrain.iter().find(|(h, _)| *h == (q, r)) {
                Some((_, Terrain::Wall)) => walls.push(hex(q, r)),
                _ => hexes.push(hex(q, r)),
            }
        }
    }
    let mut m = HexMap::new(&hexes, &walls).unwrap();
    for &((q, r), t) in terrain {
        if t != Terrain::Wall {
            m.set_terrain(hex(q, r), t).unwrap();
        }
    }
    m
}

fn enemies(list: &[(i32, i32, u32)]) -> Vec<Enemy> {
    list.iter()
        .map(|&(q, r, i)| Enemy {
            hex: hex(q, r),
            initiative: i,
            second: 0,
            order: LAST,
            name: String::new(),
        })
        .collect()
}

fn solve(
    map: &HexMap,
    active: (i32, i32),
    allies: &[(i32, i32)],
    foes: &[(i32, i32, u32)],
    action: &MonsterAction,
) -> Decision {
    let allies: Vec<Hex> = allies.iter().map(|&(q, r)| hex(q, r)).collect();
    let enemies = enemies(foes);
    decide(&Situation {
        map,
        active: hex(active.0, active.1),
        allies: &allies,
        enemies: &enemies,
        action,
        edition: crate::rules::gloomhaven::Edition::of(
            crate::rules::gloomhaven::Preset::Frosthaven,
        ),
    })
    .unwrap()
}

fn ends(d: &Decision) -> Vec<(i32, i32)> {
    d.options.iter().map(|o| (o.end.x, o.end.y)).collect()
}

#[test]
fn a_monster_with_no_enemy_in_reach_has_no_focus_and_stays() {
    // The enemy at (4, 0) is walled in on all six sides.
    let walls: Vec<((i32, i32), Terrain)> = (0..6)
        .map(|d| {
            let n = crate::hex::step(hex(4, 0), d);
            ((n.x, n.y), Terrain::Wall)
        })
        .collect();
    let m = board(&walls);
    let d = solve(&m, (0, 0), &[], &[(4, 0, 10)], &MonsterAction::melee(3));
    assert!(d.focus.is_empty());
    assert_eq!(ends(&d), vec![(0, 0)]);
    assert!(d.options[0].targets.is_empty());
}

#[test]
fn a_walking_monster_goes_around_a_trap_even_when_that_is_longer() {
    // Straight line (0,0) → (3,0) passes (1,0) and (2,0); a trap on (1,0).
    let m = board(&[((1, 0), Terrain::Trap)]);
    let d = solve(&m, (0, 0), &[], &[(3, 0, 10)], &MonsterAction::melee(2));
    assert_eq!(d.focus, vec![hex(3, 0)]);
    for o in &d.options {
        assert!(!o.path.contains(&hex(1, 0)), "{:?}", o.path);
    }
}

#[test]
fn difficult_terrain_costs_two_movement_points() {
    // A ring of difficult terrain around the monster: with 1 point it cannot leave.
    let ring: Vec<((i32, i32), Terrain)> = (0..6)
        .map(|d| {
            let n = crate::hex::step(hex(1, 0), d);
            ((n.x, n.y), Terrain::Difficult)
        })
        .collect();
    let m = board(&ring);
    let d = solve(&m, (1, 0), &[], &[(5, 0, 10)], &MonsterAction::melee(1));
    assert_eq!(ends(&d), vec![(1, 0)]);
    let d = solve(&m, (1, 0), &[], &[(5, 0, 10)], &MonsterAction::melee(2));
    assert_eq!(ends(&d), vec![(2, 0)]);
}

#[test]
fn an_icy_hex_slides_a_walker_on_to_the_next_plain_hex() {
    let m = board(&[((2, 0), Terrain::Icy), ((3, 0), Terrain::Icy)]);
    // One step east from (1, 0) slides over (2, 0) and (3, 0) to (4, 0), next to the enemy at (5, 0).
    let d = solve(&m, (1, 0), &[], &[(5, 0, 10)], &MonsterAction::melee(1));
    assert_eq!(ends(&d), vec![(4, 0)]);
    assert_eq!(d.options[0].targets, vec![hex(5, 0)]);
}

#[test]
fn a_jumper_passes_over_obstacles_that_stop_a_walker() {
    let wall_of_obstacles: Vec<((i32, i32), Terrain)> =
        (-4..5).map(|r| ((2, r), Terrain::Obstacle)).collect();
    let m = board(&wall_of_obstacles);
    let walk = solve(&m, (1, 0), &[], &[(4, 0, 10)], &MonsterAction::melee(2));
    assert!(
        walk.focus.is_empty(),
        "a walker cannot cross a full line of obstacles"
    );
    let jump = MonsterAction {
        jumping: true,
        ..MonsterAction::melee(2)
    };
    let d = solve(&m, (1, 0), &[], &[(4, 0, 10)], &jump);
    assert_eq!(d.focus, vec![hex(4, 0)]);
    assert!(
        d.options
            .iter()
            .all(|o| o.targets == vec![hex(4, 0)] && o.end.x == 3),
        "{:?}",
        ends(&d)
    );
}

#[test]
fn only_a_flyer_may_end_its_move_on_an_obstacle() {
    let m = board(&[((3, 0), Terrain::Obstacle)]);
    let fly = MonsterAction {
        flying: true,
        ..MonsterAction::melee(3)
    };
    let d = solve(&m, (0, 0), &[], &[(4, 0, 10)], &fly);
    assert!(ends(&d).contains(&(3, 0)), "{:?}", ends(&d));
    let walk = solve(&m, (0, 0), &[], &[(4, 0, 10)], &MonsterAction::melee(3));
    assert!(!ends(&walk).contains(&(3, 0)));
}

#[test]
fn equally_good_foci_are_all_returned_for_the_players() {
    let m = board(&[]);
    let d = solve(
        &m,
        (4, 0),
        &[],
        &[(1, 0, 20), (7, 0, 20)],
        &MonsterAction::melee(1),
    );
    assert_eq!(d.focus, vec![hex(1, 0), hex(7, 0)]);
    assert!(d.trace.iter().any(|t| t.contains("players break")));
}

#[test]
fn the_lower_initiative_breaks_an_otherwise_equal_focus() {
    let m = board(&[]);
    let d = solve(
        &m,
        (4, 0),
        &[],
        &[(1, 0, 20), (7, 0, 15)],
        &MonsterAction::melee(1),
    );
    assert_eq!(d.focus, vec![hex(7, 0)]);
    assert!(d.trace.iter().any(|t| t.contains("lowest initiative")));
}

#[test]
fn a_ranged_monster_steps_away_from_an_adjacent_focus_unless_muddled() {
    let m = board(&[]);
    let ranged = MonsterAction {
        range: 3,
        ..MonsterAction::melee(2)
    };
    let d = solve(&m, (4, 0), &[], &[(5, 0, 10)], &ranged);
    assert!(
        d.options
            .iter()
            .all(|o| !m.adjacent(o.end, hex(5, 0)) && o.targets == vec![hex(5, 0)])
    );
    let muddled = MonsterAction {
        muddled: true,
        ..ranged
    };
    let d = solve(&m, (4, 0), &[], &[(5, 0, 10)], &muddled);
    assert_eq!(ends(&d), vec![(4, 0)], "muddled: no reason to move");
}

#[test]
fn a_monster_may_walk_through_an_ally_but_not_stop_on_it() {
    let m = board(&[]);
    let d = solve(
        &m,
        (0, 0),
        &[(1, 0)],
        &[(3, 0, 10)],
        &MonsterAction::melee(1),
    );
    assert!(!ends(&d).contains(&(1, 0)));
    let d = solve(
        &m,
        (0, 0),
        &[(1, 0)],
        &[(3, 0, 10)],
        &MonsterAction::melee(2),
    );
    assert_eq!(ends(&d), vec![(2, 0)]);
    assert_eq!(d.options[0].path, vec![hex(1, 0), hex(2, 0)]);
}

#[test]
fn a_multi_target_attack_takes_as_many_enemies_as_it_can() {
    let m = board(&[]);
    let two = MonsterAction {
        targets: 2,
        ..MonsterAction::melee(0)
    };
    let d = solve(&m, (4, 0), &[], &[(5, 0, 10), (3, 0, 20), (8, 0, 30)], &two);
    assert_eq!(d.focus, vec![hex(5, 0)]);
    assert_eq!(d.options.len(), 1);
    assert_eq!(d.options[0].targets, vec![hex(3, 0), hex(5, 0)]);
}

#[test]
fn a_melee_area_hits_every_enemy_under_one_orientation() {
    let m = board(&[]);
    // A line of two hexes from the attacker: (1,0) and (2,0) in one orientation.
    let area = MonsterAction {
        aoe: vec![hex(1, 0), hex(2, 0)],
        aoe_melee: true,
        ..MonsterAction::melee(0)
    };
    let d = solve(&m, (2, 0), &[], &[(3, 0, 10), (4, 0, 20)], &area);
    assert_eq!(d.options.len(), 1);
    assert_eq!(d.options[0].targets, vec![hex(3, 0), hex(4, 0)]);
    assert_eq!(d.options[0].aoe, vec![hex(3, 0), hex(4, 0)]);
}

#[test]
fn without_an_attack_the_monster_still_closes_in_but_attacks_no_one() {
    let m = board(&[]);
    let none = MonsterAction {
        targets: 0,
        ..MonsterAction::melee(2)
    };
    let d = solve(&m, (0, 0), &[], &[(3, 0, 10)], &none);
    assert_eq!(ends(&d), vec![(2, 0)]);
    assert!(d.options[0].targets.is_empty() && d.options[0].heading_to.is_empty());
}

/// A puzzle on one row of 70 hexes: the monster at the west end, `enemies` foes in a row from
/// (2, 0), a ranged attack on `targets` of them.
fn crowd_puzzle(enemies: i32, targets: u32) -> String {
    let hexes: Vec<String> = (0..70).map(|q| format!("({q}, 0)")).collect();
    let foes: Vec<String> = (0..enemies)
        .map(|k| format!("(hex: ({}, 0), initiative: {k})", 2 + k))
        .collect();
    format!(
        "Puzzle(id: \"crowd\", rules: Frosthaven,
    map: (hexes: [{}], walls: [], obstacles: [], traps: [], hazards: [], difficult: [], icy: [],
          thin_walls: []),
    active: (0, 0), allies: [], enemies: [{}],
    action: (move: 0, range: 64, targets: {targets}, aoe: [], aoe_melee: false,
             flying: false, jumping: false, teleport: false, muddled: false),
)",
        hexes.join(", "),
        foes.join(", ")
    )
}

#[test]
fn a_crowd_of_sixty_and_two_targets_is_answered() {
    // Before, the groups walked all 2^60 sub-masks of the enemies and never ended.
    let answer = crate::kit::solve("crowd.ron", &crowd_puzzle(60, 2)).expect("answered");
    assert!(answer.text.contains("(2, 0)"), "{}", answer.text);
}

#[test]
fn an_attack_with_too_many_sets_of_targets_is_refused_where_it_says_so() {
    let text = crowd_puzzle(40, 20);
    let e = crate::kit::solve("crowd.ron", &text).expect_err("refused");
    assert!(
        e.message.contains("`targets` is 20 against 40 enemies"),
        "{e}"
    );
    let line = text[..text.find("targets:").expect("in the text")]
        .matches('\n')
        .count()
        + 1;
    assert_eq!((e.file.as_str(), e.line), ("crowd.ron", line), "{e}");
}

/// An open 16 × 9 parallelogram, so no edge of the board changes where a monster may end.
fn open_board(terrain: &[((i32, i32), Terrain)]) -> HexMap {
    let hexes: Vec<Hex> = (0..16)
        .flat_map(|q| (-2..7).map(move |r| hex(q, r)))
        .collect();
    let mut m = HexMap::new(&hexes, &[]).unwrap();
    for &((q, r), t) in terrain {
        m.set_terrain(hex(q, r), t).unwrap();
    }
    m
}

fn solve_2e(
    map: &HexMap,
    active: (i32, i32),
    foes: &[(i32, i32, u32)],
    action: &MonsterAction,
) -> Decision {
    let enemies = enemies(foes);
    decide(&Situation {
        map,
        active: hex(active.0, active.1),
        allies: &[],
        enemies: &enemies,
        action,
        edition: crate::rules::gloomhaven::Edition::of(
            crate::rules::gloomhaven::Preset::Gloomhaven2e,
        ),
    })
    .unwrap()
}

/// The probes' action: melee, move 2, two targets.
fn melee_two_targets_move_2() -> MonsterAction {
    MonsterAction {
        targets: 2,
        move_points: 2,
        ..MonsterAction::melee(0)
    }
}

/// Second edition: the other targets are chosen by the focus rules from the starting hex, with no
/// movement criterion before them. The second target of lower initiative one step further is
/// taken over the nearer one of higher initiative (first-edition order: ends (5, 3) on (6, 3)).
#[test]
fn second_edition_other_targets_are_not_cut_by_movement_first() {
    let m = open_board(&[]);
    let two = melee_two_targets_move_2();
    let d = solve_2e(&m, (5, 2), &[(5, 4, 10), (6, 3, 30), (3, 4, 20)], &two);
    assert_eq!(d.focus, vec![hex(5, 4)], "{:#?}", d.trace);
    assert_eq!(ends(&d), vec![(4, 4)], "{:#?}", d.trace);
    assert_eq!(d.options[0].targets, vec![hex(3, 4), hex(5, 4)]);
}

/// Second edition: the other targets are ranked by the whole focus rules (negative hexes on the
/// path, then path length) before proximity and initiative. A, one step to attack, beats B, two
/// steps round an obstacle, though B has the lower initiative and both are at proximity 2.
#[test]
fn second_edition_ranks_other_targets_by_their_path_first() {
    let m = open_board(&[((4, 3), Terrain::Obstacle)]);
    let two = melee_two_targets_move_2();
    let d = solve_2e(&m, (5, 2), &[(5, 4, 5), (7, 2, 30), (3, 4, 20)], &two);
    assert_eq!(d.focus, vec![hex(5, 4)], "{:#?}", d.trace);
    assert_eq!(ends(&d), vec![(6, 3)], "{:#?}", d.trace);
    assert_eq!(d.options[0].targets, vec![hex(5, 4), hex(7, 2)]);
}
