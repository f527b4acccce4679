//! Whole goal-priority games: playouts, replays, refusals, load errors and foes that act as decided.

use std::sync::Arc;

use super::actions::{Action, Event};
use super::case;
use super::scenario::Scenario;
use super::state::{Phase, State};
use super::{Game, Goals, Step, decide};
use crate::error::LoadError;
use crate::rules::view::{Ground, Side};
use crate::rules::{Present, Rules, Seat, TieBreaker, ToMove, state_hash};

const DOME_CROSSING: &str = include_str!("../../../../../scenarios/dome-crossing.ron");

fn scenario() -> Arc<Scenario> {
    Arc::new(
        Goals::parse_scenario("dome-crossing.ron", DOME_CROSSING).unwrap_or_else(|e| panic!("{e}")),
    )
}

fn new_game(seed: u64, ties: TieBreaker) -> Game {
    Game::new(scenario(), "dome-crossing.ron", seed, ties).expect("the scenario sets up")
}

/// A small seeded generator for picking among legal actions (splitmix64).
fn pick(state: &mut u64, n: usize) -> usize {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ((z ^ (z >> 31)) % n.max(1) as u64) as usize
}

/// The seat to move, checking that the others have nothing to do.
fn seat_to_move(g: &Game) -> Option<Seat> {
    let seat = match g.to_move() {
        ToMove::Over { .. } => return None,
        ToMove::Rules { stage } => {
            assert!(Goals::STAGES.contains(&stage), "{stage:?}");
            Seat::Rules
        }
        ToMove::Chance { stage, outcomes } => {
            assert!(Goals::STAGES.contains(&stage), "{stage:?}");
            assert_eq!(g.legal_actions(Seat::Chance).len(), outcomes);
            Seat::Chance
        }
        ToMove::Tie { options } => {
            assert!(options > 1);
            assert_eq!(g.legal_actions(Seat::Table).len(), options);
            Seat::Table
        }
        ToMove::Heroes(h) => {
            assert_eq!(h.len(), 1);
            Seat::Hero(h[0])
        }
    };
    for other in [
        Seat::Rules,
        Seat::Chance,
        Seat::Table,
        Seat::Hero(0),
        Seat::Hero(1),
        Seat::Hero(2),
        Seat::Hero(3),
    ] {
        if other != seat {
            assert!(g.legal_actions(other).is_empty(), "{other:?} may not act");
        }
    }
    Some(seat)
}

/// Figures never share a hex with the other side, heroes never share one, and nothing stands on a
/// wall, off the map or (for foes) in a Dome.
fn check_invariants(s: &State) {
    let mut heroes = Vec::new();
    for (h, x) in s.heroes.iter().enumerate() {
        if !s.hero_in(h) {
            continue;
        }
        assert!(!heroes.contains(&x.hex), "two heroes on {:?}", x.hex);
        heroes.push(x.hex);
        assert!(s.foe_at(x.hex).is_none(), "a hero and a foe on {:?}", x.hex);
        let t = s.tile(x.hex).expect("on the map");
        assert!(!matches!(
            t,
            super::scenario::Tile::Wall | super::scenario::Tile::Prohibited
        ));
    }
    for (f, x) in s.foes.iter().enumerate() {
        if !s.foe_in(f) {
            continue;
        }
        let t = s.tile(x.hex).expect("on the map");
        assert!(!matches!(
            t,
            super::scenario::Tile::Wall
                | super::scenario::Tile::Prohibited
                | super::scenario::Tile::Dome
        ));
        if let Phase::Hero { .. } | Phase::Draw = s.phase {
            let sharing = (0..s.foes.len())
                .filter(|&g| s.foe_in(g) && s.foes[g].hex == x.hex)
                .count();
            assert_eq!(sharing, 1, "foes stacked outside the foes' turns");
        }
    }
}

#[test]
fn random_playouts_accept_every_legal_action_and_replay_exactly() {
    // What the playouts met, by the variant's name: the rules they visited.
    let mut seen = std::collections::BTreeSet::new();
    let kind = |d: String| {
        d.split(['(', ' ', '{'])
            .next()
            .unwrap_or_default()
            .to_string()
    };
    for seed in 0..10u64 {
        crate::game::check::random_playout(
            new_game(seed, TieBreaker::Table),
            5000,
            25,
            // Half the games have the autopilot play the heroes, so that they reach the adventures
            // behind the walls and explore; the others are random throughout.
            |g| {
                let heroes = matches!(g.to_move(), ToMove::Heroes(_));
                if seed % 2 == 1 && heroes {
                    g.auto_action()
                } else {
                    None
                }
            },
            |s, a, events| {
                seen.insert(kind(format!("{a:?}")));
                seen.extend(events.iter().map(|e| kind(format!("{e:?}"))));
                if let Some(e) = events
                    .iter()
                    .find(|e| Goals::describe(s, e).is_none_or(|l| l.is_empty()))
                {
                    return Err(format!("{e:?} has no log line"));
                }
                check_invariants(s);
                Ok(())
            },
        )
        .unwrap_or_else(|e| panic!("{e}"));
    }
    for k in [
        "Draw",
        "Roll",
        "Move",
        "Melee",
        "Shoot",
        "PickUp",
        "Explore",
        "Hide",
        "SlipAway",
        "End",
        "Advance",
        "Choose",
        "Decided",
        "TieOffered",
        "Acts",
        "Unleashed",
        "Used",
        "Took",
        "Wounded",
        "Captured",
        "RoundBegins",
        "Over",
    ] {
        assert!(seen.contains(k), "no {k} in the playouts: {seen:?}");
    }
}

#[test]
fn seeded_headless_games_finish_and_repeat() {
    let mut outcomes = Vec::new();
    for seed in 0..8u64 {
        let run = || {
            let mut g = new_game(seed, TieBreaker::Seeded);
            let n = g.play_out(10_000, |_, _, _| {});
            (
                n,
                g.to_move(),
                g.actions().to_vec(),
                state_hash(&g.state),
                g,
            )
        };
        let (n, to_move, actions, hash, g) = run();
        assert!(
            matches!(to_move, ToMove::Over { .. }),
            "seed {seed}: {to_move:?}"
        );
        let (n2, to_move2, actions2, hash2, _) = run();
        assert_eq!(
            (n, &to_move, &actions, &hash),
            (n2, &to_move2, &actions2, &hash2)
        );
        // A replay of the log from the start reaches the same state.
        let mut replay = new_game(seed, TieBreaker::Seeded);
        for a in &actions {
            replay.apply(a.clone()).expect("the log replays");
        }
        assert_eq!(state_hash(&replay.state), hash);
        assert_eq!(replay.state, g.state);
        // Chance outcomes are in the log: dice and override cards.
        assert!(actions.iter().any(|a| matches!(a, Action::Draw(_))));
        assert!(actions.iter().any(|a| matches!(a, Action::Roll(_))));
        outcomes.push(to_move);
    }
    assert!(
        outcomes.contains(&ToMove::Over { won: true }),
        "{outcomes:?}"
    );
}

#[test]
fn a_refused_action_changes_nothing() {
    let mut refused = 0;
    let mut rng = 11u64;
    // Random games one after another, so that enough positions are met whatever their length.
    let mut games = [3, 5, 7, 9]
        .map(|seed| new_game(seed, TieBreaker::Seeded))
        .into_iter();
    let Some(mut g) = games.next() else { return };
    for _ in 0..800 {
        let Some(seat) = seat_to_move(&g) else {
            match games.next() {
                Some(next) => {
                    g = next;
                    continue;
                }
                None => break,
            }
        };
        let before = g.state.clone();
        let (log, cursor) = (g.log.len(), g.cursor);
        let legal = g.legal_actions(seat);
        for wrong in [
            Action::Choose(99),
            Action::Roll(0),
            Action::Roll(7),
            Action::Draw(999),
            Action::Move((99, 99)),
            Action::Melee(99),
            Action::Trade(99),
            Action::Hide((0, 0)),
            Action::Advance,
            Action::Explore,
            Action::PickUp,
        ] {
            if legal.contains(&wrong) {
                continue;
            }
            assert!(g.apply(wrong.clone()).is_err(), "{wrong:?} accepted");
            assert_eq!(g.state, before, "{wrong:?} changed the state");
            assert_eq!((g.log.len(), g.cursor), (log, cursor));
            refused += 1;
        }
        let a = legal[pick(&mut rng, legal.len())].clone();
        g.apply(a).expect("legal");
    }
    assert!(refused > 1000, "{refused}");
}

/// Every foe decision of seeded games, on its own turn or in reaction to a hero, is what the case
/// of the moment just before it answers ([`crate::lab::Lab::moment`]): the game's foe and the case file agree.
#[test]
fn each_foe_does_what_the_decision_on_its_case_file_returns() {
    let (mut checked, mut ties, mut reactions) = (0, 0, 0);
    for seed in 0..4u64 {
        let mut g = new_game(seed, TieBreaker::Seeded);
        while let Some(a) = g.auto_action() {
            let s = &g.state;
            // A foe decides in this action: a reaction to a hero once its dice are in, or a foe's
            // own turn.
            let reacting = s
                .reactions
                .first()
                .map(|r| r.foe())
                .filter(|&f| s.foe_in(f));
            let foe = match (s.tie, s.rolls.is_empty(), reacting, &s.phase) {
                (None, true, Some(f), _) => Some(f),
                (None, true, None, Phase::Foes) if s.reactions.is_empty() => s.next_foe(),
                _ => None,
            };
            let expected = foe.map(|f| {
                let p = <Goals as crate::lab::Lab>::moment(s)
                    .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
                assert_eq!(
                    p.active,
                    s.foe_name(f),
                    "seed {seed}: the foe the moment opens"
                );
                let text = <Goals as crate::lab::Lab>::write(&p);
                let (turn, situation, _) =
                    case::load("game.ron", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
                assert_eq!(turn, p, "seed {seed}: the case reads back as written");
                decide(&situation).options
            });
            let ev = g.apply(a).expect("the driver's action");
            let Some(expected) = expected else { continue };
            let offered = ev.iter().find_map(|e| match e {
                Event::TieOffered { options, .. } => Some(options.clone()),
                _ => None,
            });
            let acted: Vec<_> = ev
                .iter()
                .filter_map(|e| match e {
                    Event::Acts { outcome, .. } => Some(outcome.clone()),
                    _ => None,
                })
                .collect();
            match offered {
                Some(options) => {
                    assert_eq!(options, expected, "seed {seed}: the tie offered");
                    ties += 1;
                }
                None if expected.is_empty() => assert!(acted.is_empty()),
                None => assert_eq!(acted, expected, "seed {seed}: the foe's move"),
            }
            checked += 1;
            reactions += usize::from(reacting.is_some());
        }
    }
    assert!(
        checked > 20 && ties > 0 && reactions > 0,
        "{checked} foe decisions, {ties} ties, {reactions} reactions"
    );
    println!(
        "{checked} foe decisions agreed with their moments: {ties} ties, {reactions} reactions"
    );
}

/// A moment with no foe to decide says why: before the round's card is drawn, once the game is over.
#[test]
fn a_moment_without_a_foe_decision_says_why() {
    let g = new_game(0, TieBreaker::Seeded);
    let e = <Goals as crate::lab::Lab>::moment(&g.state).expect_err("no card is drawn yet");
    assert!(e.contains("override card"), "{e}");
    let mut over = g.state.clone();
    over.phase = Phase::Over { won: true };
    let e = <Goals as crate::lab::Lab>::moment(&over).expect_err("the game is over");
    assert!(e.contains("over"), "{e}");
    // Once the card is drawn the first foe's turn opens, though the heroes act first.
    let mut g = g;
    let a = g.auto_action().expect("the card is drawn");
    g.apply(a).expect("accepted");
    let p = <Goals as crate::lab::Lab>::moment(&g.state).expect("the first foe's moment");
    assert_eq!(p.active, g.state.foe_name(0));
    let bench = crate::lab::any::moment_bench::<Goals>(&g.state).expect("a bench");
    assert_eq!(bench.module(), "goals");
    assert_eq!(bench.file(), <Goals as crate::lab::Lab>::write(&p));
}

#[test]
fn the_table_breaks_a_tie_and_the_foe_takes_that_outcome() {
    let mut g = new_game(0, TieBreaker::Table);
    // Heroes end their turns at once: the foes meet ties heading for the adventures.
    let mut offered = None;
    for _ in 0..500 {
        match g.to_move() {
            ToMove::Tie { options } => {
                offered = Some(options);
                break;
            }
            ToMove::Heroes(_) => {
                g.apply(Action::End).expect("a hero may end its turn");
            }
            _ => {
                let a = g.automatic(false, false).expect("an automatic step");
                g.apply(a).expect("accepted");
            }
        }
    }
    let n = offered.expect("a tie comes up");
    let f = g.state.tie.expect("a tie").0;
    let options = g.state.decision(f).expect("a decision").options;
    assert_eq!(options.len(), n);
    assert!(
        g.automatic(false, true).is_none(),
        "the table decides, not the driver"
    );
    assert!(g.clone().apply(Action::Choose(n)).is_err());
    let pick = n - 1;
    let ev = g.apply(Action::Choose(pick)).expect("the table picks");
    assert!(ev.contains(&Event::Acts {
        foe: f,
        outcome: options[pick].clone()
    }));
    let end = options[pick].end;
    if options[pick].option != super::GoalOption::Unleash {
        assert_eq!(g.state.foes[f].hex, (end.x, end.y));
    }
    assert!(g.state.foes[f].acted);
}

#[test]
fn the_view_shows_the_map_figures_loot_and_the_card() {
    let mut g = new_game(2, TieBreaker::Seeded);
    let v = Goals::view(&g.state);
    let s = g.state.scenario.clone();
    assert_eq!(v.cells.len(), s.layout.tiles.len());
    for ground in [
        Ground::Woods,
        Ground::Dome,
        Ground::DomeGap,
        Ground::Adventure,
        Ground::Wall,
        Ground::Difficult,
        Ground::Obstacle,
    ] {
        assert!(v.cells.iter().any(|c| c.ground == ground), "{ground:?}");
    }
    let side = |v: &crate::rules::view::TableView, side| {
        v.figures.iter().filter(|f| f.side == side).count()
    };
    assert_eq!(side(&v, Side::Hero), s.file.heroes.len());
    assert_eq!(side(&v, Side::Foe), s.file.foes.len());
    assert_eq!(v.tokens.len(), s.file.loot.len());
    assert_eq!(v.round, 1);
    let a = g.auto_action().expect("the card is drawn");
    g.apply(a).expect("accepted");
    let v = Goals::view(&g.state);
    let card = s.file.override_deck[g.state.card.expect("drawn")].words();
    assert!(v.banner.contains(&card), "{}", v.banner);
    assert_eq!(v.active, Some(0), "the first hero acts");
}

fn load_error(edit: impl Fn(&str) -> String) -> LoadError {
    let text = edit(DOME_CROSSING);
    Goals::parse_scenario("bad.ron", &text).expect_err("refused")
}

fn position_of(text: &str, needle: &str) -> (usize, usize) {
    crate::error::find_position(text, needle).expect("the needle is in the text")
}

#[test]
fn bad_scenario_files_give_positioned_errors() {
    // An unknown map character points at the character itself.
    let edit = |t: &str| t.replacen("\"..**.#####", "\"..**.#?###", 1);
    let e = load_error(edit);
    let (line, column) = position_of(&edit(DOME_CROSSING), "?");
    assert_eq!((e.line, e.column), (line, column), "{e}");
    assert!(e.message.contains("unknown character"), "{e}");
    // A speed beyond its bound names the number.
    let edit = |t: &str| t.replacen("speed: 5, melee: 3", "speed: 99, melee: 3", 1);
    let e = load_error(edit);
    assert_eq!(
        (e.line, e.column),
        position_of(&edit(DOME_CROSSING), "99"),
        "{e}"
    );
    assert!(e.message.contains("expected a number from 0 to 12"), "{e}");
    // A syntax error is reported where the parser stops.
    let e = load_error(|t| t.replacen("round_limit: 12", "round_limit: twelve", 1));
    assert!(e.line > 1 && e.column > 1, "{e}");
    // A Dome key named on a clear hex.
    let edit = |t: &str| t.replacen("at: (7, -1)", "at: (0, 0)", 1);
    let e = load_error(edit);
    assert_eq!(
        (e.line, e.column),
        position_of(&edit(DOME_CROSSING), "(0, 0)")
    );
    assert!(e.message.contains("`O` or `o`"), "{e}");
    // A Dome key that is not ten hexes.
    let e = load_error(|t| t.replacen("\"..%%..#oOo#", "\"..%%..#o.o#", 1));
    assert!(e.message.contains("expected exactly 10"), "{e}");
    // A figure on a wall.
    let edit = |t: &str| {
        t.replacen(
            "\"Wren Halloway\", hex: (0, 1)",
            "\"Wren Halloway\", hex: (9, -4)",
            1,
        )
    };
    let e = load_error(edit);
    assert_eq!(
        (e.line, e.column),
        position_of(&edit(DOME_CROSSING), "(9, -4)")
    );
    // Two figures with one name.
    let e = load_error(|t| t.replacen("\"Oskar Vell\"", "\"Wren Halloway\"", 1));
    assert!(e.message.contains("named twice"), "{e}");
    // More foes than allowed, counted before anything is built.
    let e = load_error(|t| {
        let at = t.find("foes: [").expect("foes");
        let one = "(name: \"X\", hex: (0, 0), goal: Attack, speed: 1, melee: 1, aim: 1, agility: 1, stealth: 1, armor: 1, health: 1, weapons: [], auras: [], specials: [], minion_card: None, slip_away: false),";
        format!("{}foes: [{}{}", &t[..at], one.repeat(40), &t[at + 7..])
    });
    assert!(e.message.contains("expected 1 to 32"), "{e}");
    assert!(e.line > 0, "{e}");
    // Winning needs more adventures than the map has.
    let e = load_error(|t| t.replacen("explore_to_win: 2", "explore_to_win: 5", 1));
    assert!(e.message.contains("explore_to_win"), "{e}");
    // An unknown field.
    let e = load_error(|t| t.replacen("round_limit: 12", "round_limit: 12, fog: true", 1));
    assert!(e.message.contains("fog"), "{e}");
    assert!(e.line > 0);
}

#[test]
fn mutated_scenarios_load_or_fail_with_a_position_and_what_loads_plays_without_panic() {
    let mut rng = 5u64;
    let bytes: Vec<char> = DOME_CROSSING.chars().collect();
    let pieces = [
        "0", "1", "9", "12", "-1", "99", "O", "o", "A", "#", "*", "~", ".", " ", "(", ")", ",",
    ];
    let (mut loaded, mut refused) = (0, 0);
    for _ in 0..300 {
        // One to three edits: a character replaced by a piece, or removed.
        let mut text = bytes.clone();
        for _ in 0..=pick(&mut rng, 3) {
            let at = pick(&mut rng, text.len());
            if pick(&mut rng, 4) == 0 {
                text.remove(at);
            } else {
                let p = pieces[pick(&mut rng, pieces.len())];
                text.splice(at..=at, p.chars());
            }
        }
        let text: String = text.into_iter().collect();
        match Goals::parse_scenario("mutant.ron", &text) {
            Err(e) => {
                assert_eq!(e.file, "mutant.ron");
                assert!(!e.message.is_empty());
                refused += 1;
            }
            Ok(s) => {
                loaded += 1;
                let mut g = Game::new(Arc::new(s), "mutant.ron", rng, TieBreaker::Seeded)
                    .expect("a loaded scenario sets up");
                g.play_out(3000, |_, _, _| {});
                assert!(matches!(g.to_move(), ToMove::Over { .. }), "{text}");
            }
        }
    }
    assert!(
        loaded > 20 && refused > 20,
        "{loaded} loaded, {refused} refused"
    );
}

#[test]
fn an_invaded_foe_that_shoots_from_its_hex_pushes_the_invader_back() {
    let mut g = new_game(0, TieBreaker::Seeded);
    let s = &mut g.state;
    // Ash Archer (foe 1) is the only foe still to act; Gravel Knight (foe 0) ended on its hex,
    // coming from (19, -4); Wren stands three hexes off in the open.
    s.card = Some(0);
    s.deck.retain(|&c| c != 0);
    s.phase = Phase::Foes;
    for f in &mut s.foes {
        f.acted = true;
    }
    s.foes[1].acted = false;
    let archer = s.foes[1].hex;
    assert_eq!(archer, (19, -5));
    s.foes[0].hex = archer;
    s.foes[0].entered_from = Some((19, -4));
    s.heroes[0].hex = (16, -5);
    let ev = g.apply(Action::Advance).expect("the archer acts");
    let outcome = ev
        .iter()
        .find_map(|e| match e {
            Event::Acts { foe: 1, outcome } => Some(outcome.clone()),
            _ => None,
        })
        .expect("one outcome, carried out");
    assert_eq!(outcome.option, super::GoalOption::Attack(1));
    assert_eq!(outcome.target.as_deref(), Some("Wren Halloway"));
    assert!(ev.contains(&Event::PushedBack {
        foe: 0,
        to: (19, -4)
    }));
    assert_eq!(
        (g.state.foes[0].hex, g.state.foes[1].hex),
        ((19, -4), archer)
    );
    assert_eq!(
        g.to_move(),
        ToMove::Chance {
            stage: Step::Roll,
            outcomes: 6
        }
    );
}

#[test]
fn undo_holds_at_every_prefix_of_whole_games() {
    for seed in [1, 4] {
        let mut g = new_game(seed, TieBreaker::Seeded);
        let n = crate::game::check::undo_at_every_prefix(&mut g, 5000, Game::auto_action)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(matches!(g.to_move(), ToMove::Over { .. }), "seed {seed}");
        assert!(n > 20, "seed {seed}: a whole game, {n} actions");
    }
}

#[test]
fn every_hero_action_with_a_cell_names_a_hex_of_the_board() {
    for seed in 0..6 {
        let mut g = new_game(seed, TieBreaker::Seeded);
        let named = crate::game::check::action_cells_on_board(&mut g, 2_000)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(named > 0, "seed {seed}: the heroes had moves on cells");
    }
    let s = &new_game(1, TieBreaker::Seeded).state;
    assert_eq!(Goals::action_cell(s, &Action::Move((2, 3))), Some((2, 3)));
    assert_eq!(
        Goals::action_cell(s, &Action::Melee(0)),
        Some(s.foes[0].hex)
    );
    assert_eq!(Goals::action_cell(s, &Action::End), None);
    assert_eq!(
        Goals::action_label(s, &Action::Melee(0)),
        format!("strike {}", s.foe_name(0))
    );
}

#[test]
fn a_die_succeeds_from_the_number_the_table_shows_as_the_printed_rule_says() {
    use super::actions::{Fig, Roll};
    let g = new_game(1, TieBreaker::Seeded);
    let s = &g.state;
    for die in 1..=6u8 {
        let d = i32::from(die);
        for chance in -8..=8 {
            let roll = Roll::Hit {
                attacker: Fig::Hero(0),
                defender: Fig::Foe(0),
                chance,
            };
            // A 6 always hits, a 1 never does; else the die plus the chance makes 4.
            let printed = die == 6 || (die > 1 && d + chance >= 4);
            assert_eq!(die >= s.needed(&roll), printed, "die {die} chance {chance}");
        }
        for f in 0..s.foes.len() {
            let defender = Fig::Foe(f);
            let printed = die == 6 || (die > 1 && d > s.armor(defender));
            assert_eq!(die >= s.needed(&Roll::Wound { defender }), printed);
        }
        for adventure in 0..s.adventures.len() {
            for bonus in [0, 2] {
                let roll = Roll::Explore {
                    hero: 0,
                    adventure,
                    bonus,
                };
                let file = s.file();
                let printed =
                    d + file.heroes[0].wits + bonus >= file.adventures[adventure].difficulty;
                assert_eq!(die >= s.needed(&roll), printed);
            }
        }
    }
}

#[test]
fn the_table_is_shown_each_foes_walk_the_dice_and_the_odds_of_each_roll() {
    use crate::modifiers::fraction::Fraction;
    use crate::rules::view::Show;
    let (mut walks, mut dice, mut odds_seen) = (0, 0, 0);
    for seed in 0..4 {
        let mut g = new_game(seed, TieBreaker::Seeded);
        let mut rolling = false;
        while let Some(a) = g.auto_action() {
            let before = g.state.clone();
            let view = Goals::view(&before);
            let titles: Vec<&str> = view.panels.iter().map(|p| p.title.as_str()).collect();
            assert_eq!(
                titles,
                ["The goal", "Override card"],
                "the goal and the override card are in view"
            );
            if let Some(odds) = view.odds {
                odds_seen += 1;
                let total = odds.chances.iter().fold(Fraction::new(0, 1), |t, &c| t + c);
                assert_eq!(total, Fraction::new(1, 1));
                assert!(
                    matches!(a, Action::Roll(_)),
                    "odds are up while a die waits"
                );
            }
            let events = g.apply(a.clone()).expect("accepted");
            for s in Goals::shows(&before, &g.state, &events) {
                match s {
                    Show::Walk { lines, chosen, .. } => {
                        let i = chosen.expect("a walk names the option taken");
                        assert!(
                            ["Option ", "Melee step", "Reaction shot"]
                                .iter()
                                .any(|w| lines[i].contains(w)),
                            "{}",
                            lines[i]
                        );
                        walks += 1;
                    }
                    Show::Roll { .. } => rolling = true,
                    Show::Die { roll, needed, .. } => {
                        assert!(rolling, "a die lands in a tray a roll opened");
                        assert_eq!(Action::Roll(roll as u8), a);
                        let success = events
                            .iter()
                            .any(|e| matches!(e, Event::Rolled { success, .. } if *success));
                        assert_eq!(roll >= needed, success);
                        dice += 1;
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(
        walks > 20 && dice > 10 && odds_seen == dice,
        "{walks} {dice} {odds_seen}"
    );
}

#[test]
fn each_outcome_of_a_tie_lights_its_end_hex_and_reads_as_the_log_words_it() {
    let mut ties = 0;
    for seed in 0..6 {
        let mut g = new_game(seed, TieBreaker::Table);
        let mut rng = seed ^ 0x7ab1e;
        while let Some(seat) = seat_to_move(&g) {
            let legal = g.legal_actions(seat);
            let a = legal[pick(&mut rng, legal.len())].clone();
            let events = g.apply(a).expect("legal");
            for e in &events {
                let Event::TieOffered { options, .. } = e else {
                    continue;
                };
                ties += 1;
                for (i, o) in options.iter().enumerate() {
                    let choose = Action::Choose(i);
                    assert_eq!(
                        Goals::action_cell(&g.state, &choose),
                        Some((o.end.x, o.end.y))
                    );
                    let label = Goals::action_label(&g.state, &choose);
                    // The outcome's cells read in the game's names, apart from the others'.
                    let words = &super::tie_words(&g.state, options)[i];
                    assert!(label.ends_with(words.as_str()), "{label}");
                }
            }
        }
    }
    assert!(ties > 5, "{ties} ties");
}

#[test]
fn a_foes_move_is_shown_hex_by_hex_on_a_path_it_could_walk() {
    use crate::rules::view::Show;
    let (mut walked, mut slips, mut long) = (0, 0, 0);
    each_action(6, |before, after, events| {
        for e in events {
            let Event::Acts { foe, outcome } = e else {
                continue;
            };
            let figure = super::FOE_BASE + *foe as u32;
            let steps: Vec<_> = Goals::shows(before, after, events)
                .into_iter()
                .filter_map(|s| match s {
                    Show::Step {
                        figure: f,
                        from,
                        to,
                    } if f == figure => Some((from, to)),
                    _ => None,
                })
                .collect();
            let start = before.foes[*foe].hex;
            let end = (outcome.end.x, outcome.end.y);
            if steps.is_empty() {
                assert!(
                    end == start || outcome.option == super::situation::GoalOption::Unleash,
                    "a move with no steps shown"
                );
                continue;
            }
            walked += 1;
            long += usize::from(steps.len() > 1);
            assert_eq!(steps[0].0, start, "the walk starts where the foe stood");
            assert_eq!(
                steps[steps.len() - 1].1,
                end,
                "the walk ends at the outcome's end"
            );
            let board = before.board().expect("a board");
            let mut points = 0;
            for (k, &(from, to)) in steps.iter().enumerate() {
                if k > 0 {
                    assert_eq!(steps[k - 1].1, from, "each step goes on from the last");
                }
                let (a, b) = (crate::hex::hex(from.0, from.1), crate::hex::hex(to.0, to.1));
                assert_eq!(crate::hex::distance(a, b), 1, "{from:?} → {to:?}");
                let i = board.index(b).expect("on the board");
                let swap = k == 0 && outcome.swap.is_some();
                if swap {
                    slips += 1;
                    continue;
                }
                if to != end {
                    assert!(before.hero_at(to).is_none(), "a foe walks through a hero");
                }
                points += board.enter_cost(i).expect("a hex one can enter");
            }
            let situation = before.situation(*foe).expect("a situation").0;
            let speed = situation.foes[situation.active].speed;
            let allowed = if outcome.swap.is_some() {
                super::movement::SLIP_SHIFT
            } else {
                speed
            };
            assert!(points <= allowed, "{points} move points of {allowed}");
        }
    });
    assert!(
        walked > 30 && long > 10,
        "{walked} walks, {long} of several hexes"
    );
    eprintln!("{walked} walks, {long} of several hexes, {slips} after a Slip Away");
}

#[test]
fn a_heros_move_is_shown_hex_by_hex_around_foes_for_the_points_it_spent() {
    use crate::rules::view::Show;
    let mut moves = 0;
    each_action(6, |before, after, events| {
        for e in events {
            let Event::Moved { hero, to, points } = e else {
                continue;
            };
            moves += 1;
            let steps: Vec<_> = Goals::shows(before, after, events)
                .into_iter()
                .filter_map(|s| match s {
                    Show::Step { figure, from, to } if figure == *hero as u32 => Some((from, to)),
                    _ => None,
                })
                .collect();
            assert_eq!(steps[0].0, before.heroes[*hero].hex);
            assert_eq!(steps[steps.len() - 1].1, *to);
            let board = before.board().expect("a board");
            let mut spent = 0;
            for (k, &(from, step)) in steps.iter().enumerate() {
                if k > 0 {
                    assert_eq!(steps[k - 1].1, from, "each step goes on from the last");
                }
                let b = crate::hex::hex(step.0, step.1);
                assert_eq!(crate::hex::distance(crate::hex::hex(from.0, from.1), b), 1);
                assert!(before.foe_at(step).is_none(), "a hero walks through a foe");
                spent += board
                    .enter_cost(board.index(b).expect("on the board"))
                    .expect("a hex one can enter");
            }
            assert_eq!(spent, *points, "the walk shown costs the points spent");
        }
    });
    assert!(moves > 30, "{moves} moves");
}

/// Plays seeds `0..seeds` of the scenario to their end with the autopilot and seeded ties, calling
/// `f` with the state before and after each action and its events.
fn each_action(seeds: u64, mut f: impl FnMut(&State, &State, &[Event])) {
    for seed in 0..seeds {
        let mut g = new_game(seed, TieBreaker::Seeded);
        while let Some(a) = g.auto_action() {
            let before = g.state.clone();
            let events = g.apply(a).expect("accepted");
            f(&before, &g.state, &events);
        }
    }
}

#[test]
fn the_goal_panel_names_every_adventure_and_keeps_the_score() {
    let mut g = new_game(1, TieBreaker::Seeded);
    let file = g.state.file().clone();
    let goal = |g: &Game| {
        let panels = Goals::view(&g.state).panels;
        assert_eq!(panels[1].title, "Override card");
        panels[0].clone()
    };
    let panel = goal(&g);
    assert_eq!(panel.title, "The goal");
    assert_eq!(
        panel.lines[0],
        format!("Heroes: 0 of {} adventures explored", file.explore_to_win)
    );
    for a in &file.adventures {
        assert!(
            panel
                .lines
                .iter()
                .any(|l| l.starts_with(&format!("{}: open", a.name))),
            "{} is named: {:?}",
            a.name,
            panel.lines
        );
    }
    // Played to its end, the panel counts what the state counts.
    g.play_out(20_000, |_, _, _| {});
    let panel = goal(&g);
    let count = |w| g.state.adventures.iter().filter(|a| **a == w).count();
    let explored = count(super::state::AdventureState::Explored);
    let captured = count(super::state::AdventureState::Captured);
    assert_eq!(
        panel.lines[0],
        format!(
            "Heroes: {explored} of {} adventures explored",
            file.explore_to_win
        )
    );
    assert_eq!(
        panel.lines[1],
        format!(
            "Foes: {captured} of {} adventures captured",
            file.captures_to_lose
        )
    );
    let closed = panel
        .lines
        .iter()
        .filter(|l| l.ends_with(": explored") || l.ends_with(": captured"))
        .count();
    assert_eq!(closed, explored + captured);
}

/// In whole Dome Crossing games the Dusk Thief spends its once-only Surprise card only on a target
/// its strike from hiding can hit (a hit chance of −2 or better), where it once lurked for the
/// hero easiest to strike in melee even at −5.
#[test]
fn a_surprise_strike_in_a_game_is_never_made_at_an_invalid_target() {
    let mut strikes = 0;
    each_action(200, |_, _, events| {
        for e in events {
            if let Event::Attacks {
                ranged: Some(card),
                chance,
                ..
            } = e
                && card == "Shadow Step"
            {
                strikes += 1;
                assert!(*chance >= -2, "a Surprise strike at hit chance {chance}");
            }
        }
    });
    assert!(strikes > 20, "{strikes} Surprise strikes in 200 games");
}

/// In whole Dome Crossing games a foe lying in wait shoots only when the hero its ambush watches
/// steps onto an adventure it watches or next to it, never for another hero's step elsewhere.
#[test]
fn a_reaction_shot_in_a_game_answers_the_watched_heros_step() {
    use super::state::Reaction;
    let mut shots = 0;
    each_action(200, |before, after, events| {
        for e in events {
            let Event::Moved { hero, to, .. } = e else {
                continue;
            };
            for (f, foe) in before.foes.iter().enumerate() {
                let drawn = after.reactions.contains(&Reaction::Shot(f))
                    && !before.reactions.contains(&Reaction::Shot(f));
                if !drawn {
                    continue;
                }
                shots += 1;
                let w = foe.watch.as_ref().expect("an ambush in play watches");
                assert_eq!(w.hero, *hero, "a shot for another hero's step");
                let next_to = crate::hex::distance(
                    crate::hex::hex(to.0, to.1),
                    crate::hex::hex(foe.hex.0, foe.hex.1),
                ) == 1;
                let onto = before
                    .adventure_at(*to)
                    .is_some_and(|a| w.adventures.contains(&a));
                assert!(next_to || onto, "a shot for a step onto {to:?}");
            }
        }
    });
    assert!(shots > 5, "{shots} reaction shots in 200 games");
}
