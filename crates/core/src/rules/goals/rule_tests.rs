//! Whole-game rule tests on hand-made boards: each rule the goal-priority foes and heroes follow,
//! met in a game as players meet it.

use std::sync::Arc;

use super::actions::{Action, Event};
use super::scenario::Scenario;
use super::situation::{GoalOption, Outcome};
use super::state::Phase;
use super::{Game, Goals};
use crate::rules::{Rules, TieBreaker};

/// A scenario on `map` with one adventure, the given heroes and foes (RON lists) and one override
/// card (lowest Agility).
fn scenario(map: &[&str], adventures: &str, heroes: &str, foes: &str) -> Arc<Scenario> {
    let rows: Vec<String> = map.iter().map(|r| format!("\"{r}\"")).collect();
    let text = format!(
        "(rules: Goals, name: \"Rule test\", round_limit: 9, explore_to_win: 1, captures_to_lose: 1,
          map: [{}], dome_keys: [], adventures: [{adventures}], loot: [],
          heroes: [{heroes}], foes: [{foes}],
          override_deck: [(rating: Agility, pick: Lowest)])",
        rows.join(", ")
    );
    Arc::new(Goals::parse_scenario("rule-test.ron", &text).unwrap_or_else(|e| panic!("{e}")))
}

/// A hero's fields with the ratings most tests leave alone.
fn hero(name: &str, hex: (i32, i32), speed: u32, stealth: i32, agility: i32) -> String {
    format!(
        "(name: \"{name}\", hex: {hex:?}, speed: {speed}, melee: 3, aim: 3, agility: {agility},
          stealth: {stealth}, wits: 3, armor: 2, health: 4, range: None, can_trade: true, auras: [])"
    )
}

/// A game of `scenario` set at the foes' turn with only foe `f` still to act.
fn foes_turn(scenario: Arc<Scenario>, f: usize) -> Game {
    let mut g = Game::new(scenario, "rule-test.ron", 1, TieBreaker::Table).expect("sets up");
    let s = &mut g.state;
    s.card = Some(0);
    s.deck.retain(|&c| c != 0);
    s.phase = Phase::Foes;
    for (i, x) in s.foes.iter_mut().enumerate() {
        x.acted = i != f;
    }
    g
}

/// The outcomes foe `f` offers or takes on its next step.
fn next_outcomes(g: &mut Game, f: usize) -> Vec<Outcome> {
    let ev = g.apply(Action::Advance).expect("the foe acts");
    next_outcomes_in(&ev, f)
}

fn ends(outcomes: &[Outcome]) -> Vec<(i32, i32)> {
    let mut v: Vec<(i32, i32)> = outcomes.iter().map(|o| (o.end.x, o.end.y)).collect();
    v.sort_unstable();
    v
}

/// Attack option 4.2: a hero who steps next to the foe where it lies in wait must still be in its
/// sights, so the hex the foe leaves counts as one the hero could step on.
#[test]
fn an_ambush_space_is_judged_with_the_foe_lying_in_wait_on_it() {
    // Wren stands in woods (out of the Longbow's reach for option 1), three steps from the foe on
    // (3, 0) and from the adventure on (0, 3). Next to (3, 0), (4, 0) is out of Wren's reach only
    // while the foe blocks (3, 0): once it stands on (4, 0), Wren can step onto (3, 0), where a
    // Longbow (range 2 to 6) cannot hit her.
    let map = [
        "*.......", "........", "........", "A.......", "........", "........",
    ];
    let s = scenario(
        &map,
        "(name: \"Well\", at: (0, 3), difficulty: 20, foes_use: true)",
        &hero("Wren", (0, 0), 3, 3, 4),
        "(name: \"Bowman\", hex: (3, 0), goal: Attack, speed: 2, melee: 0, aim: 2, agility: 3,
          stealth: 3, armor: 2, health: 3, weapons: [(name: \"Longbow\", range: (2, 6), hit: 0)],
          auras: [], specials: [], minion_card: None, slip_away: false)",
    );
    let mut g = foes_turn(s, 0);
    let out = next_outcomes(&mut g, 0);
    assert!(
        out.iter().all(|o| o.option == GoalOption::Attack(4)),
        "{out:?}"
    );
    let spaces = ends(&out);
    assert!(!spaces.contains(&(4, 0)), "{spaces:?}");
    assert_eq!(spaces, [(3, 2), (4, 1), (5, -2), (5, -1), (5, 0)]);
}

/// Attack option 2.1: "all targets that it could move adjacent to using a Move or Slip Away" — the
/// end spaces of both are ranked together, so a Slip Away that leaves the foe next to fewer
/// enemies wins over a Move that also reaches the target.
#[test]
fn slip_away_ends_rank_with_move_ends_next_to_the_target() {
    // The Cutpurse on (1, 2) stands next to Tam (0, 3) and Vim (2, 2) already. Tam is the only
    // valid melee target (Agility 2 against the others' 6). Every space a Move reaches next to Tam
    // is also next to Vim; switching places with Tam puts the Cutpurse on (0, 3), next to Tam
    // alone.
    let map = [".....A", "......", "......", "......", "......"];
    let heroes = [
        hero("Tam", (0, 3), 3, 3, 2),
        hero("Ulla", (5, 0), 3, 3, 6),
        hero("Vim", (2, 2), 3, 3, 6),
    ]
    .join(", ");
    let s = scenario(
        &map,
        "(name: \"Well\", at: (5, -2), difficulty: 20, foes_use: true)",
        &heroes,
        "(name: \"Cutpurse\", hex: (1, 2), goal: Attack, speed: 2, melee: 3, aim: 0, agility: 3,
          stealth: 3, armor: 2, health: 3, weapons: [], auras: [], specials: [],
          minion_card: None, slip_away: true)",
    );
    let mut g = foes_turn(s, 0);
    let ev = g.apply(Action::Advance).expect("the Cutpurse acts");
    let trace = walk(&ev);
    assert!(trace.contains("by a Move or Slip Away"), "{trace}");
    assert!(trace.contains("(0, 3) switching with Tam"), "{trace}");
    let out: Vec<&Outcome> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Acts { foe: 0, outcome } => Some(outcome),
            _ => None,
        })
        .collect();
    assert_eq!(out.len(), 1, "{ev:?}");
    assert_eq!(out[0].option, GoalOption::Attack(2));
    assert_eq!(out[0].swap.as_deref(), Some("Tam"));
    assert_eq!((out[0].end.x, out[0].end.y), (0, 3));
    // In the game: Tam now stands on the Cutpurse's old hex and is struck there.
    assert_eq!(g.state.heroes[0].hex, (1, 2));
    assert_eq!(g.state.foes[0].hex, (0, 3));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Attacks {
            attacker: super::actions::Fig::Foe(0),
            defender: super::actions::Fig::Hero(0),
            ranged: None,
            ..
        }
    )));
}

/// An unleashed minion with no target in reach heads for one, chosen by Choose Target: "NEVER
/// choose a target based on which one is closest".
#[test]
fn an_unleashed_minion_heads_for_the_target_the_card_picks_not_the_nearest() {
    // Near (Agility 5) is five hexes off, Far (Agility 3) nine; the card picks the lowest Agility.
    let map = ["..........", ".........A", ".........."];
    let heroes = [
        hero("Near", (5, -2), 3, 3, 5),
        hero("Far", (9, -4), 3, 3, 3),
    ]
    .join(", ");
    let s = scenario(
        &map,
        "(name: \"Well\", at: (9, -3), difficulty: 20, foes_use: true)",
        &heroes,
        "(name: \"Kennel Keeper\", hex: (0, 0), goal: Attack, speed: 2, melee: 2, aim: 0,
          agility: 3, stealth: 3, armor: 2, health: 3, weapons: [], auras: [], specials: [],
          minion_card: Some((name: \"Hound\", speed: 2, melee: 5, aim: 0)), slip_away: false)",
    );
    let mut g = foes_turn(s, 0);
    let ev = g.apply(Action::Advance).expect("the keeper acts");
    let tied = next_outcomes_in(&ev, 0);
    assert!(!tied.is_empty());
    for out in &tied {
        assert_eq!(out.option, GoalOption::Unleash);
        let m = out.minion.clone().expect("a minion move");
        assert_eq!(m.option, GoalOption::Attack(5));
        assert_eq!(m.target.as_deref(), Some("Far"));
    }
    if tied.len() > 1 {
        g.apply(Action::Choose(0)).expect("the table picks");
    }
    let trace = walk(&ev);
    assert!(trace.contains("override Lowest Agility → Far"), "{trace}");
    // It is in the game, two hexes nearer Far.
    let hound = g.state.foes.len() - 1;
    assert!(g.state.foes[hound].minion);
    let d = |a: (i32, i32), b: (i32, i32)| {
        crate::hex::distance(crate::hex::hex(a.0, a.1), crate::hex::hex(b.0, b.1))
    };
    assert_eq!(d(g.state.foes[hound].hex, (9, -4)), d((0, 0), (9, -4)) - 2);
}

/// The first foe's option walk among `ev`, as one line.
fn walk(ev: &[Event]) -> String {
    ev.iter()
        .find_map(|e| match e {
            Event::Decided { trace, .. } => Some(trace.join(" ")),
            _ => None,
        })
        .unwrap_or_default()
}

/// The outcomes foe `f` carried out or offered the table among `ev`.
fn next_outcomes_in(ev: &[Event], f: usize) -> Vec<Outcome> {
    ev.iter()
        .find_map(|e| match e {
            Event::Acts { foe, outcome } if *foe == f => Some(vec![outcome.clone()]),
            Event::TieOffered { foe, options } if *foe == f => Some(options.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

/// A healing burst is meaningful only when an ally within its radius has lost wounds: unhurt allies
/// leave the item for later and the foe goes on down its options; a hurt one is healed.
#[test]
fn a_healing_burst_is_used_only_when_an_ally_near_is_hurt() {
    let map = ["........", "........", ".......A"];
    let foes = "(name: \"Chanter\", hex: (2, 0), goal: Special, speed: 2, melee: 2, aim: 0,
          agility: 3, stealth: 3, armor: 2, health: 3, weapons: [], auras: [],
          specials: [(name: \"Mending Hymn\", kind: SingleUse,
                      effect: Burst(radius: 2, affects: Allies), action: true)],
          minion_card: None, slip_away: false),
        (name: \"Brute\", hex: (3, 0), goal: Attack, speed: 2, melee: 2, aim: 0,
          agility: 3, stealth: 3, armor: 2, health: 4, weapons: [], auras: [], specials: [],
          minion_card: None, slip_away: false)";
    let s = scenario(
        &map,
        "(name: \"Well\", at: (7, -1), difficulty: 20, foes_use: true)",
        &hero("Wren", (0, 2), 3, 3, 4),
        foes,
    );
    // Unhurt: the hymn is not used; the Chanter goes on down its options.
    let mut g = foes_turn(s.clone(), 0);
    let ev = g.apply(Action::Advance).expect("acts");
    let trace = walk(&ev);
    assert!(
        trace.contains("Mending Hymn would reach no hurt ally"),
        "{trace}"
    );
    assert!(
        !ev.iter().any(|e| matches!(e, Event::Used { .. })),
        "{ev:?}"
    );
    assert_eq!(g.state.foes[0].specials.len(), 1);
    // Hurt: the hymn is used where the Chanter stands and heals the Brute.
    let mut g = foes_turn(s, 0);
    g.state.foes[1].health = 2;
    let ev = g.apply(Action::Advance).expect("acts");
    let out = next_outcomes_in(&ev, 0);
    assert_eq!(out.len(), 1, "{ev:?}");
    assert_eq!(out[0].option, GoalOption::Special(1));
    assert_eq!(out[0].used, ["Mending Hymn"]);
    assert!(ev.contains(&Event::Healed { foe: 1 }), "{ev:?}");
    assert_eq!(g.state.foes[1].health, 3);
}

/// A Surprise card moves its foe into position and then strikes from hiding: a shot with Aim plus
/// the card's strike against the target's Stealth, rolled as any attack.
#[test]
fn a_surprise_card_ends_with_a_shot_from_hiding() {
    let map = ["........", "........", ".......A"];
    let s = scenario(
        &map,
        "(name: \"Well\", at: (7, -1), difficulty: 20, foes_use: true)",
        &hero("Wren", (0, 1), 3, 3, 4),
        "(name: \"Dusk Thief\", hex: (6, -2), goal: Special, speed: 4, melee: 2, aim: 1,
          agility: 3, stealth: 3, armor: 2, health: 3, weapons: [], auras: [],
          specials: [(name: \"Shadow Step\", kind: Surprise,
                      effect: Lurk(range: (2, 3), strike: 3), action: true)],
          minion_card: None, slip_away: false)",
    );
    let mut g = foes_turn(s, 0);
    let ev = g.apply(Action::Advance).expect("the thief acts");
    let out = next_outcomes_in(&ev, 0);
    assert!(!out.is_empty(), "{ev:?}");
    if out.len() > 1 {
        let ev = g.apply(Action::Choose(0)).expect("the table picks");
        assert!(
            ev.iter().any(|e| matches!(e, Event::Attacks { .. })),
            "{ev:?}"
        );
    }
    for o in &out {
        assert_eq!(o.option, GoalOption::Special(1));
        assert_eq!(o.used, ["Shadow Step"]);
        assert_eq!(o.target.as_deref(), Some("Wren"));
    }
    let thief = g.state.foes[0].hex;
    let d = crate::hex::distance(crate::hex::hex(thief.0, thief.1), crate::hex::hex(0, 1));
    assert!((2..=3).contains(&d), "lurks at distance {d}");
    // Aim 1 + strike 3 − Stealth 3 (Wren stands in the open).
    let shot = g.state.rolls.first().copied();
    assert_eq!(
        shot,
        Some(super::actions::Roll::Hit {
            attacker: super::actions::Fig::Foe(0),
            defender: super::actions::Fig::Hero(0),
            chance: 1
        })
    );
    assert!(g.state.foes[0].specials.is_empty(), "the card is spent");
}

/// Special option 1 with a Surprise card: the foe lurks for the target its strike from hiding can
/// hit, by that strike's hit chance (Aim + strike against Stealth), not by Melee against Agility.
/// Ana is the easiest to strike in melee (+1) but hides well (−4 for the card: not valid); Bea is
/// hard to strike in melee (−3) and easy to shoot (+2).
#[test]
fn a_surprise_card_lurks_for_the_target_its_strike_from_hiding_can_hit() {
    // One adventure, far in a corner, that the foe does not go for.
    let mut rows = ["\"..........\""; 5];
    rows[0] = "\"A.........\"";
    let hero = |name: &str, hex: (i32, i32), agility: i32, stealth: i32| {
        format!(
            "(name: \"{name}\", hex: {hex:?}, speed: 5, melee: 3, aim: 3, agility: {agility},
              stealth: {stealth}, wits: 3, armor: 2, health: 4, range: None, can_trade: true,
              auras: [])"
        )
    };
    let text = format!(
        "(rules: Goals, name: \"Surprise\", round_limit: 9, explore_to_win: 1,
          captures_to_lose: 1, map: [{}], dome_keys: [],
          adventures: [(name: \"Well\", at: (0, 0), difficulty: 20, foes_use: false)], loot: [],
          heroes: [{}, {}],
          foes: [(name: \"Dusk Thief\", hex: (7, -1), goal: Special, speed: 5, melee: 3, aim: 1,
                  agility: 3, stealth: 3, armor: 2, health: 3, weapons: [], auras: [],
                  specials: [(name: \"Shadow Step\", kind: Surprise,
                              effect: Lurk(range: (2, 3)), action: true)],
                  minion_card: None, slip_away: false)],
          override_deck: [(rating: Speed, pick: Highest)])",
        rows.join(", "),
        hero("Ana", (2, 0), 2, 7),
        hero("Bea", (2, 2), 6, 1),
    );
    let s =
        Arc::new(Goals::parse_scenario("rule-test.ron", &text).unwrap_or_else(|e| panic!("{e}")));
    let mut g = foes_turn(s, 0);
    let ev = g.apply(Action::Advance).expect("the thief acts");
    let out = next_outcomes_in(&ev, 0);
    assert!(!out.is_empty(), "{}", walk(&ev));
    for o in &out {
        assert_eq!(o.option, GoalOption::Special(1), "{}", walk(&ev));
        assert_eq!(o.used, ["Shadow Step"]);
        assert_eq!(o.target.as_deref(), Some("Bea"), "{}", walk(&ev));
    }
    assert!(walk(&ev).contains("Ana invalid (hit −4)"), "{}", walk(&ev));
}

/// A game of `scenario` at hero `h`'s turn, the round's card drawn.
fn heroes_turn(scenario: Arc<Scenario>, h: usize) -> Game {
    let mut g = Game::new(scenario, "rule-test.ron", 1, TieBreaker::Table).expect("sets up");
    let s = &mut g.state;
    s.card = Some(0);
    s.deck.retain(|&c| c != 0);
    s.phase = Phase::Hero {
        hero: h,
        moved: false,
    };
    g
}

/// The Melee step: a hero's melee attack is a fight both ways. Once the hero's blow is settled the
/// foe strikes back at an adjacent enemy, chosen by Choose Target (an invalid one when no valid
/// one is left), and its blow is rolled like any other.
#[test]
fn a_foe_struck_in_melee_strikes_back_in_the_melee_step() {
    let map = ["......", ".....A", "......"];
    let heroes = [
        hero("Oskar", (2, 0), 3, 3, 3),
        hero("Wren", (9, -4), 3, 3, 4),
    ]
    .join(", ");
    let heroes = heroes.replacen("(9, -4)", "(0, 2)", 1);
    let s = scenario(
        &map,
        "(name: \"Well\", at: (5, -1), difficulty: 20, foes_use: true)",
        &heroes,
        "(name: \"Gravel Knight\", hex: (3, 0), goal: Attack, speed: 3, melee: 4, aim: 0,
          agility: 2, stealth: 2, armor: 5, health: 4, weapons: [], auras: [], specials: [],
          minion_card: None, slip_away: false)",
    );
    let mut g = heroes_turn(s, 0);
    g.apply(Action::Melee(0)).expect("Oskar strikes");
    // Oskar's blow misses; then the knight answers.
    g.apply(Action::Roll(1)).expect("the hit die");
    assert_eq!(
        g.to_move(),
        crate::rules::ToMove::Rules {
            stage: super::Step::Foes
        }
    );
    assert!(
        g.legal_actions(crate::rules::Seat::Hero(1)).is_empty(),
        "Wren waits for the knight's answer"
    );
    let ev = g.apply(Action::Advance).expect("the knight strikes back");
    let out = next_outcomes_in(&ev, 0);
    assert_eq!(out.len(), 1, "{ev:?}");
    assert_eq!(out[0].option, GoalOption::MeleeStep);
    assert_eq!(out[0].target.as_deref(), Some("Oskar"));
    assert_eq!(g.state.foes[0].hex, (3, 0), "it strikes where it stands");
    // Melee 4 against Agility 3.
    assert_eq!(
        g.state.rolls,
        [super::actions::Roll::Hit {
            attacker: super::actions::Fig::Foe(0),
            defender: super::actions::Fig::Hero(0),
            chance: 1
        }]
    );
    assert!(!g.state.foes[0].acted, "its own turn is still to come");
    g.apply(Action::Roll(1)).expect("its hit die");
    assert_eq!(
        g.to_move(),
        crate::rules::ToMove::Heroes(vec![1]),
        "Wren's turn"
    );
}

/// A foe lying in wait (Attack option 4) shoots the hero who steps onto the adventure it watches,
/// in the heroes' next turn, once.
#[test]
fn a_foe_lying_in_wait_shoots_the_hero_who_steps_onto_the_adventure() {
    let map = [
        "*.......", "........", "........", "A.......", "........", "........",
    ];
    let s = scenario(
        &map,
        "(name: \"Well\", at: (0, 3), difficulty: 20, foes_use: true)",
        &hero("Wren", (0, 0), 3, 3, 4),
        "(name: \"Bowman\", hex: (3, 0), goal: Attack, speed: 2, melee: 0, aim: 2, agility: 3,
          stealth: 3, armor: 2, health: 3, weapons: [(name: \"Longbow\", range: (2, 6), hit: 0)],
          auras: [], specials: [], minion_card: None, slip_away: false)",
    );
    let mut g = foes_turn(s, 0);
    let out = next_outcomes(&mut g, 0);
    assert!(out.iter().all(|o| o.option == GoalOption::Attack(4)));
    if out.len() > 1 {
        g.apply(Action::Choose(0)).expect("the table picks");
    }
    assert!(g.state.foes[0].waiting);
    assert_eq!(
        g.state.foes[0].watch,
        Some(super::state::Watch {
            hero: 0,
            adventures: vec![0]
        }),
        "it watches Wren and the Well she can reach"
    );
    // The round ends; the next one's card; Wren steps onto the Well.
    while let crate::rules::ToMove::Rules { .. } = g.to_move() {
        g.apply(Action::Advance)
            .expect("the foes' turn ends, then the round");
    }
    let draw = g.legal_actions(crate::rules::Seat::Chance)[0].clone();
    g.apply(draw).expect("the card");
    assert!(
        g.state.foes[0].waiting,
        "it still waits in the heroes' turn"
    );
    let ev = g.apply(Action::Move((0, 3))).expect("Wren moves");
    assert!(ev.iter().any(|e| matches!(e, Event::Moved { .. })));
    let ev = g.apply(Action::Advance).expect("the Bowman shoots");
    let out = next_outcomes_in(&ev, 0);
    assert_eq!(out.len(), 1, "{ev:?}");
    assert_eq!(out[0].option, GoalOption::ReactionShot);
    assert_eq!(out[0].weapon.as_deref(), Some("Longbow"));
    assert!(!g.state.foes[0].waiting, "one shot per wait");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Attacks {
            attacker: super::actions::Fig::Foe(0),
            ranged: Some(_),
            ..
        }
    )));
    // After the die, Wren's turn goes on: she may still act.
    g.apply(Action::Roll(1)).expect("the hit die");
    assert_eq!(g.to_move(), crate::rules::ToMove::Heroes(vec![0]));
    assert!(
        g.legal_actions(crate::rules::Seat::Hero(0))
            .contains(&Action::Explore)
    );
}

/// A foe lying in wait watches the hero its ambush is for and the adventures that hero could
/// reach: Bea stepping onto the Far Bell, in the Bowman's range but not watched, draws no shot;
/// Ana stepping onto the Old Mill does.
#[test]
fn a_foe_lying_in_wait_shoots_only_for_the_hero_and_adventure_it_watches() {
    let map = [
        "........", "........", "........", "A.....A.", "........", "........",
    ];
    let s = scenario(
        &map,
        "(name: \"Old Mill\", at: (0, 3), difficulty: 20, foes_use: true),
         (name: \"Far Bell\", at: (6, 0), difficulty: 20, foes_use: true)",
        &format!(
            "{}, {}",
            hero("Ana", (0, 0), 3, 3, 4),
            hero("Bea", (7, 0), 3, 3, 4)
        ),
        "(name: \"Bowman\", hex: (3, 0), goal: Attack, speed: 2, melee: 0, aim: 2, agility: 3,
          stealth: 3, armor: 2, health: 3, weapons: [(name: \"Longbow\", range: (2, 6), hit: 0)],
          auras: [], specials: [], minion_card: None, slip_away: false)",
    );
    let lying_in_wait = |h: usize, watch: Option<super::state::Watch>| {
        let mut g = heroes_turn(s.clone(), h);
        let foe = &mut g.state.foes[0];
        foe.acted = true;
        foe.waiting = true;
        foe.watch = watch;
        g
    };
    let for_ana = || {
        Some(super::state::Watch {
            hero: 0,
            adventures: vec![0],
        })
    };
    let shot_drawn = |g: &Game| matches!(g.to_move(), crate::rules::ToMove::Rules { .. });
    // Bea onto the Far Bell, three hexes from the Bowman: no shot, and it still waits.
    let mut g = lying_in_wait(1, for_ana());
    g.apply(Action::Move((6, 0))).expect("Bea moves");
    assert!(!shot_drawn(&g), "{:?}", g.to_move());
    assert!(g.state.foes[0].waiting);
    // Ana onto the Old Mill: the shot.
    let mut g = lying_in_wait(0, for_ana());
    g.apply(Action::Move((0, 3))).expect("Ana moves");
    assert!(shot_drawn(&g), "{:?}", g.to_move());
    let ev = g.apply(Action::Advance).expect("the Bowman shoots");
    assert_eq!(next_outcomes_in(&ev, 0)[0].option, GoalOption::ReactionShot);
    // A wait from a game saved before the watch was kept fires for any open adventure, as then.
    let mut g = lying_in_wait(1, None);
    g.apply(Action::Move((6, 0))).expect("Bea moves");
    assert!(shot_drawn(&g), "{:?}", g.to_move());
}

/// A hero's minion in a scenario: Choose Target step 2 leaves it out while a hero who is not a
/// minion is a possible target, even when the minion is the easiest to hit.
#[test]
fn a_foe_strikes_a_hero_before_the_heros_minion() {
    let map = ["......", "......", ".....A"];
    // Burr (Agility 1) is far easier to hit in melee than Maren (Agility 4); both stand where the
    // Stalker can end a Move next to them.
    let heroes = format!(
        "{}, (name: \"Burr\", hex: (2, 1), speed: 5, melee: 3, aim: 0, agility: 1, stealth: 3,
          wits: 0, armor: 2, health: 3, range: None, can_trade: false, auras: [], minion: true)",
        hero("Maren", (0, 0), 3, 3, 4)
    );
    let s = scenario(
        &map,
        "(name: \"Well\", at: (5, 0), difficulty: 20, foes_use: true)",
        &heroes,
        "(name: \"Stalker\", hex: (3, 0), goal: Attack, speed: 3, melee: 5, aim: 0, agility: 3,
          stealth: 3, armor: 2, health: 3, weapons: [], auras: [], specials: [],
          minion_card: None, slip_away: false)",
    );
    let mut g = foes_turn(s.clone(), 0);
    let ev = g.apply(Action::Advance).expect("the Stalker acts");
    let trace = walk(&ev);
    assert!(trace.contains("minions left out"), "{trace}");
    let out = next_outcomes_in(&ev, 0);
    assert!(!out.is_empty(), "{ev:?}");
    for o in &out {
        assert_eq!(o.option, GoalOption::Attack(2), "{o:?}");
        assert_eq!(o.target.as_deref(), Some("Maren"), "not Burr: {o:?}");
    }
    // With Maren out of the game, Burr is the Stalker's target.
    let mut g = foes_turn(s, 0);
    g.state.heroes[0].health = 0;
    let out = next_outcomes(&mut g, 0);
    assert!(
        !out.is_empty() && out.iter().all(|o| o.target.as_deref() == Some("Burr")),
        "{out:?}"
    );
}

/// A hero's minion fights but never explores or picks up loot, and the heroes lose once every
/// hero who is not a minion is out, whoever else stands.
#[test]
fn a_minion_fights_but_neither_explores_nor_keeps_the_heroes_in_the_game() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/lantern-fen.ron"),
    )
    .expect("shipped scenario");
    let s =
        Arc::new(Goals::parse_scenario("lantern-fen.ron", &text).unwrap_or_else(|e| panic!("{e}")));
    let burr = s
        .file
        .heroes
        .iter()
        .position(|h| h.minion)
        .expect("a minion");
    let mut g = Game::new(s.clone(), "lantern-fen.ron", 1, TieBreaker::Table).expect("sets up");
    // Burr on an adventure space with loot under him: neither Explore nor Pick up is his.
    let chapel = (8, -4);
    g.state.heroes[burr].hex = chapel;
    g.state.loot.push(super::state::Pile {
        hex: chapel,
        gold: 1,
        cards: 0,
    });
    let actions = g.state.hero_actions(burr, true);
    assert!(!actions.contains(&Action::Explore), "{actions:?}");
    assert!(!actions.contains(&Action::PickUp), "{actions:?}");
    assert!(actions.contains(&Action::End), "{actions:?}");
    // A hero who is not a minion on the same kind of space may do both.
    let maren = (0..s.file.heroes.len())
        .find(|&h| h != burr)
        .expect("a hero");
    g.state.heroes[burr].hex = (0, 1);
    g.state.heroes[maren].hex = chapel;
    let actions = g.state.hero_actions(maren, true);
    assert!(actions.contains(&Action::Explore), "{actions:?}");
    assert!(actions.contains(&Action::PickUp), "{actions:?}");
    // Every hero but Burr out: the heroes have lost.
    for h in (0..s.file.heroes.len()).filter(|&h| h != burr) {
        g.state.heroes[h].health = 0;
    }
    let mut ev = Vec::new();
    g.state.check_end(&mut ev);
    assert!(
        matches!(g.state.phase, Phase::Over { won: false }),
        "{:?} {ev:?}",
        g.state.phase
    );
}

/// A minion that could trade, or a party of minions alone, is refused with the hero named.
#[test]
fn a_scenario_refuses_a_trading_minion_and_a_party_of_minions() {
    let minion = |trade: bool| {
        format!(
            "(name: \"Burr\", hex: (1, 1), speed: 5, melee: 3, aim: 0, agility: 1, stealth: 3,
              wits: 0, armor: 2, health: 3, range: None, can_trade: {trade}, auras: [],
              minion: true)"
        )
    };
    let text = |heroes: &str| {
        format!(
            "(rules: Goals, name: \"Bad\", round_limit: 9, explore_to_win: 1, captures_to_lose: 1,
              map: [\"....A\", \".....\"], dome_keys: [], adventures: [(name: \"Well\", at: (4, -2),
              difficulty: 20, foes_use: true)], loot: [], heroes: [{heroes}],
              foes: [(name: \"Stalker\", hex: (3, -1), goal: Attack, speed: 3, melee: 5, aim: 0,
              agility: 3, stealth: 3, armor: 2, health: 3, weapons: [], auras: [], specials: [],
              minion_card: None, slip_away: false)],
              override_deck: [(rating: Agility, pick: Lowest)])"
        )
    };
    let both = format!("{}, {}", hero("Maren", (0, 0), 3, 3, 4), minion(true));
    let e = Goals::parse_scenario("bad.ron", &text(&both)).expect_err("refused");
    assert!(e.to_string().contains("a minion cannot trade"), "{e}");
    let e = Goals::parse_scenario("bad.ron", &text(&minion(false))).expect_err("refused");
    assert!(e.to_string().contains("every hero is a minion"), "{e}");
    let fine = format!("{}, {}", hero("Maren", (0, 0), 3, 3, 4), minion(false));
    Goals::parse_scenario("fine.ron", &text(&fine)).unwrap_or_else(|e| panic!("{e}"));
}
