//! Heroes' moves come from one source: every end hex `heroes::reach` offers is a legal action that
//! `apply` accepts, ending where reach said (icy slides included), and the autopilot only plays legal
//! actions.

use std::path::PathBuf;
use std::sync::Arc;

use foehold_core::hex::{Hex, Terrain, distance, hex, step};
use foehold_core::rules::gloomhaven::autopilot::next_action;
use foehold_core::rules::gloomhaven::heroes::{movement, reach};
use foehold_core::rules::gloomhaven::scenario::Condition;
use foehold_core::rules::gloomhaven::{
    Action, FigureId, Game, Gloomhaven, Half, Phase, Scenario, State,
};
use foehold_core::rules::{Rules, Seat, TieBreaker, ToMove};

fn ice_scenario() -> Arc<Scenario> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/frozen-sluice.ron");
    Arc::new(Scenario::load(&path).unwrap_or_else(|e| panic!("{e}")))
}

/// Whether a path (from `start`) has a step that is not to a neighbour: a slide over ice.
fn slides(start: Hex, path: &[Hex]) -> bool {
    std::iter::once(start)
        .chain(path.iter().copied())
        .zip(path)
        .any(|(a, b)| distance(a, *b) > 1)
}

/// Every half the acting hero may still play that moves: (card, half, basic, points, jump).
fn move_halves(s: &State, hero: usize) -> Vec<(usize, Half, bool, u32, bool)> {
    let Phase::HeroTurn { played, .. } = s.phase else {
        return Vec::new();
    };
    let Some(sel) = s.heroes[hero].selected else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for card in sel {
        for half in [Half::Top, Half::Bottom] {
            if played.is_some_and(|(c, h, _)| c == card || h == half) {
                continue;
            }
            for basic in [false, true] {
                if let Some((points, jump)) = movement(&s.half_effects(hero, card, half, basic))
                    && !s.has(FigureId::Hero(hero), Condition::Immobilize)
                {
                    out.push((card, half, basic, points, jump));
                }
            }
        }
    }
    out
}

/// Checks every end hex reach offers the acting hero now; returns how many of them slide.
fn check_reach(s: &State, hero: usize) -> usize {
    let legal = Gloomhaven::legal_actions(s, Seat::Hero(hero));
    let mut slid = 0;
    for (card, half, basic, points, jump) in move_halves(s, hero) {
        for (end, path) in reach(s, hero, points, jump) {
            assert_eq!(path.last(), Some(&end), "the path ends on its end hex");
            let play = Action::Play {
                card,
                half,
                basic,
                path: path.clone(),
                targets: Vec::new(),
                ally: None,
            };
            assert!(legal.contains(&play), "{play:?} is a legal action");
            let mut after = s.clone();
            after
                .apply(play.clone())
                .unwrap_or_else(|e| panic!("{play:?} offered by reach is refused: {e}"));
            let x = &after.heroes[hero];
            assert!(
                x.hex == end || x.exhausted,
                "{play:?}: the hero ends on {:?}, not {end:?}",
                x.hex
            );
            slid += usize::from(slides(s.heroes[hero].hex, &path));
        }
    }
    slid
}

#[test]
fn every_end_hex_reach_offers_on_the_ice_is_legal_accepted_and_reached() {
    let scenario = ice_scenario();
    let mut slides_offered = 0;
    let mut slides_taken = 0;
    let mut hero_turns = 0;
    for seed in 0..6 {
        let mut game = Game::new(
            scenario.clone(),
            "frozen-sluice.ron",
            seed,
            TieBreaker::Seeded,
        )
        .expect("sets up");
        while let Some(action) = game.auto_action() {
            if let (ToMove::Heroes(heroes), Phase::HeroTurn { .. }) =
                (game.to_move(), game.state.phase)
            {
                hero_turns += 1;
                slides_offered += check_reach(&game.state, heroes[0]);
            }
            let before = game.state.clone();
            game.apply(action.clone())
                .unwrap_or_else(|e| panic!("seed {seed}: {action:?} is refused: {e}"));
            if let (Action::Play { path, .. }, Phase::HeroTurn { hero, .. }) =
                (&action, before.phase)
                && slides(before.heroes[hero].hex, path)
            {
                slides_taken += 1;
            }
        }
        assert!(game.state.phase.is_over(), "seed {seed}: the game ends");
    }
    assert!(hero_turns > 50, "{hero_turns} hero turns checked");
    assert!(slides_offered > 0, "reach offers slides on the ice");
    assert!(slides_taken > 0, "the autopilot slides on the ice");
}

#[test]
fn the_autopilot_only_plays_legal_actions() {
    let scenario = ice_scenario();
    for seed in 0..6 {
        let mut game = Game::new(
            scenario.clone(),
            "frozen-sluice.ron",
            seed,
            TieBreaker::Seeded,
        )
        .expect("sets up");
        let mut steps = 0;
        while let Some(action) = next_action(&game.state) {
            let seats = match game.to_move() {
                ToMove::Heroes(heroes) => heroes.into_iter().map(Seat::Hero).collect(),
                ToMove::Rules { .. } => vec![Seat::Rules],
                ToMove::Chance { .. } => vec![Seat::Chance],
                ToMove::Tie { .. } => vec![Seat::Table],
                ToMove::Over { .. } => Vec::new(),
            };
            assert!(
                seats
                    .iter()
                    .any(|&seat| game.legal_actions(seat).contains(&action)),
                "seed {seed} step {steps}: {action:?} is not a legal action of {seats:?}"
            );
            game.apply(action).expect("a legal action is accepted");
            steps += 1;
        }
        assert!(game.state.phase.is_over(), "seed {seed}: the game ends");
    }
}

/// One hero and one idle foe in an empty room, for hand-made boards.
const ROOM: &str = r#"
Scenario(
    rules: Gloomhaven,
    name: "Room",
    grid: Hex,
    map: [
        "........a",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        "1........",
    ],
    legend: { 'a': (monster: "Post") },
    heroes: [(name: "Tess", hp: 10, cards: [
        (name: "Stride", initiative: 10, top: (effects: [Attack(value: 1)]), bottom: (effects: [Move(2)])),
        (name: "Hop", initiative: 20, top: (effects: [Attack(value: 1)]), bottom: (effects: [Jump(2)])),
        (name: "Wait", initiative: 30, top: (effects: [Shield(1)]), bottom: (effects: [Move(1)])),
    ])],
    monsters: [(
        name: "Post",
        normal: (hp: 9, move: 0, attack: 0),
        elite: (hp: 9, move: 0, attack: 0),
        deck: [(name: "Stand", initiative: 90, actions: [Shield(1)])],
    )],
    victory: AllFoesDead,
)
"#;

const FROM: Hex = hex(3, 1);
const EAST: usize = 0;

/// The room at the hero's first turn, with the hero on `FROM`, the foe in a far corner and `icy`
/// hexes along the line east of `FROM` (1 = the next hex); `other` puts a terrain further on.
fn room(icy: &[i32], other: Option<(i32, Terrain)>) -> State {
    let scenario = Arc::new(Scenario::parse("room.ron", ROOM).unwrap_or_else(|e| panic!("{e}")));
    let mut game = Game::new(scenario, "room.ron", 1, TieBreaker::Seeded).expect("sets up");
    while !matches!(game.state.phase, Phase::HeroTurn { .. }) {
        let a = game.auto_action().expect("the game goes on");
        game.apply(a).expect("accepted");
    }
    let mut s = game.state;
    s.heroes[0].hex = FROM;
    s.heroes[0].selected = Some([0, 1]);
    let at = |k: i32| (0..k).fold(FROM, |h, _| step(h, EAST));
    for &k in icy {
        s.map
            .0
            .set_terrain(at(k), Terrain::Icy)
            .expect("on the board");
    }
    if let Some((k, t)) = other {
        s.map.0.set_terrain(at(k), t).expect("on the board");
    }
    s
}

fn east(k: i32) -> Hex {
    (0..k).fold(FROM, |h, _| step(h, EAST))
}

fn walk(path: Vec<Hex>) -> Action {
    Action::Play {
        card: 0,
        half: Half::Bottom,
        basic: false,
        path,
        targets: Vec::new(),
        ally: None,
    }
}

#[test]
fn a_step_onto_ice_slides_to_firm_ground_for_one_point_and_apply_takes_the_slide() {
    let s = room(&[1, 2], None);
    let offered = reach(&s, 0, 2, false);
    let find = |h: Hex| {
        offered
            .iter()
            .find(|(e, _)| *e == h)
            .map(|(_, p)| p.clone())
    };
    assert_eq!(
        find(east(3)),
        Some(vec![east(3)]),
        "one step slides to (+3)"
    );
    assert_eq!(
        find(east(4)),
        Some(vec![east(3), east(4)]),
        "and one more walks on"
    );
    assert_eq!(
        find(east(1)),
        None,
        "a walker cannot stop on the first icy hex"
    );
    assert_eq!(find(east(2)), None, "nor on the second");
    let mut after = s.clone();
    after
        .apply(walk(vec![east(3)]))
        .expect("the slide is accepted");
    assert_eq!(after.heroes[0].hex, east(3));
    // Stopping on the ice, or listing the slid-over hexes, is not the move reach offers.
    assert!(s.clone().apply(walk(vec![east(1)])).is_err());
    assert!(
        s.clone()
            .apply(walk(vec![east(1), east(2), east(3)]))
            .is_err()
    );
}

#[test]
fn a_slide_stops_on_the_ice_before_an_obstacle_and_lands_on_a_trap_after_the_ice() {
    let s = room(&[1, 2], Some((3, Terrain::Obstacle)));
    let offered = reach(&s, 0, 1, false);
    assert!(
        offered
            .iter()
            .any(|(e, p)| *e == east(2) && *p == vec![east(2)]),
        "the slide stops on the last icy hex: {offered:?}"
    );
    let s = room(&[1], Some((2, Terrain::Trap)));
    let offered = reach(&s, 0, 1, false);
    assert!(
        offered
            .iter()
            .any(|(e, p)| *e == east(2) && *p == vec![east(2)]),
        "the slide ends on the first hex past the ice, a trap: {offered:?}"
    );
    let mut after = s.clone();
    let hp = after.heroes[0].hp;
    after.apply(walk(vec![east(2)])).expect("accepted");
    assert_eq!(after.heroes[0].hex, east(2));
    assert_eq!(
        after.heroes[0].hp,
        hp - 3,
        "the trap at the end of a slide springs"
    );
}

#[test]
fn a_jump_lands_on_ice_without_sliding() {
    let s = room(&[1, 2], None);
    let offered = reach(&s, 0, 2, true);
    let (_, path) = offered
        .iter()
        .find(|(e, _)| *e == east(1))
        .expect("a jumper may land on the ice");
    let hop = Action::Play {
        card: 1,
        half: Half::Bottom,
        basic: false,
        path: path.clone(),
        targets: Vec::new(),
        ally: None,
    };
    let mut after = s.clone();
    after.apply(hop).expect("accepted");
    assert_eq!(after.heroes[0].hex, east(1));
}
