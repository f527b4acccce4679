//! Seeded playouts of every Gloomhaven scenario through the playout checker every module shares
//! (`game::check::random_playout`): at every step, applying to a clone gives the same state and
//! events, the state survives a RON round trip, every legal action is accepted and nobody acts out
//! of turn, replaying the log gives the same state, the autopilot plays legal actions, and the
//! invariants hold (hit points in range, one figure per hex, decks keep their cards).

use std::path::PathBuf;
use std::sync::Arc;

use foehold_core::hex::{Terrain, qr};
use foehold_core::modifiers::card::CardKind;
use foehold_core::rules::gloomhaven::Save;
use foehold_core::rules::gloomhaven::autopilot::next_action;
use foehold_core::rules::gloomhaven::state::{Pending, Phase, State};
use foehold_core::rules::gloomhaven::{Action, Game, Gloomhaven, Half, Scenario, TieBreaker};
use foehold_core::rules::{Rules, rules_name};

/// A small seeded generator for the test driver's detours (splitmix64).
struct Detours(u64);

impl Detours {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n.max(1) as u64) as usize
    }
}

fn scenarios() -> Vec<(PathBuf, Arc<Scenario>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("scenarios/ exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        // Gloomhaven scenarios only (a file without `rules:` is one, from before there were others).
        .filter(|p| {
            let text = std::fs::read_to_string(p).expect("readable scenario");
            rules_name(&text) == Gloomhaven::NAME
        })
        .collect();
    files.sort();
    assert!(files.len() >= 3, "at least three scenarios");
    files
        .into_iter()
        .map(|p| {
            (
                p.clone(),
                Arc::new(Scenario::load(&p).unwrap_or_else(|e| panic!("{e}"))),
            )
        })
        .collect()
}

/// The autopilot, with seeded detours: random card picks, skipped halves, early ends of turn and
/// random tie picks, so the playouts visit more of the rules than the autopilot alone.
fn driver(s: &State, rng: &mut Detours) -> Option<Action> {
    let auto = next_action(s)?;
    if rng.below(10) >= 3 {
        return Some(auto);
    }
    Some(match (&auto, s.phase) {
        (Action::Choose(_), _) => Action::Choose(rng.below(s.pending_options())),
        (Action::SelectCards { hero, .. }, Phase::CardSelection) => {
            let hand = &s.heroes[*hero].hand;
            let a = hand[rng.below(hand.len())];
            let b = hand[rng.below(hand.len())];
            if a == b {
                auto
            } else {
                Action::SelectCards {
                    hero: *hero,
                    leading: a,
                    other: b,
                }
            }
        }
        (Action::Play { card, half, .. }, Phase::HeroTurn { .. }) => match rng.below(3) {
            // The same half as a basic action in place (no move, no target).
            0 => Action::Play {
                card: *card,
                half: *half,
                basic: true,
                path: vec![],
                targets: vec![],
                ally: None,
            },
            1 => Action::Advance,
            _ => auto,
        },
        _ => auto,
    })
}

fn check_invariants(s: &State, initial: &State) {
    let mut hexes = Vec::new();
    for (i, h) in s.heroes.iter().enumerate() {
        let n = s.scenario.heroes[i].cards.len();
        let mut all: Vec<usize> = h
            .hand
            .iter()
            .chain(&h.discard)
            .chain(&h.lost)
            .copied()
            .collect();
        all.sort_unstable();
        assert_eq!(
            all,
            (0..n).collect::<Vec<_>>(),
            "hero {i} keeps every card exactly once"
        );
        let deck_cards = |st: &State| {
            let d = &st.heroes[i].deck;
            d.draw_pile
                .iter()
                .chain(&d.discard)
                .filter(|c| c.kind == CardKind::Deck)
                .count()
        };
        assert_eq!(
            deck_cards(s),
            deck_cards(initial),
            "hero {i}'s modifier deck keeps its cards"
        );
        if h.exhausted {
            continue;
        }
        assert!(
            h.hp > 0 && h.hp <= h.max_hp,
            "hero {i} hp {} of {}",
            h.hp,
            h.max_hp
        );
        hexes.push(h.hex);
    }
    for (i, m) in s.monsters.iter().enumerate() {
        if !m.alive {
            assert_eq!(m.hp, 0);
            continue;
        }
        assert!(
            m.hp > 0 && m.hp <= m.max_hp,
            "monster {i} hp {} of {}",
            m.hp,
            m.max_hp
        );
        let t = s.map.0.terrain(m.hex);
        assert!(
            t.is_some() && t != Some(Terrain::Wall),
            "monster {i} stands on the board"
        );
        if !s.scenario.monsters[m.kind].flying {
            assert_ne!(
                t,
                Some(Terrain::Obstacle),
                "a walking monster never ends on an obstacle"
            );
        }
        hexes.push(m.hex);
    }
    for (i, x) in s.summons.iter().enumerate() {
        if !x.alive {
            continue;
        }
        assert!(
            x.hp > 0 && x.hp <= x.spec.hp as i32,
            "summon {i} hp {} of {}",
            x.hp,
            x.spec.hp
        );
        // A scenario's ally has no summoner and stays.
        assert!(
            x.leader().is_none_or(|h| !s.heroes[h].exhausted),
            "summon {i} left with its exhausted summoner"
        );
        let t = s.map.0.terrain(x.hex);
        assert!(
            t.is_some() && t != Some(Terrain::Wall) && t != Some(Terrain::Obstacle),
            "summon {i} stands on the board"
        );
        hexes.push(x.hex);
    }
    let n = hexes.len();
    hexes.sort_by_key(|h| qr(*h));
    hexes.dedup();
    assert_eq!(hexes.len(), n, "one figure per hex");
    for (k, ks) in s.kinds.iter().enumerate() {
        let mut cards: Vec<usize> = ks
            .draw_pile
            .iter()
            .chain(&ks.discard)
            .chain(ks.current.iter())
            .copied()
            .collect();
        cards.sort_unstable();
        assert_eq!(
            cards,
            (0..s.scenario.monsters[k].deck.len()).collect::<Vec<_>>(),
            "ability deck {k} keeps its cards"
        );
    }
    let deck = |st: &State| {
        st.monster_deck
            .draw_pile
            .iter()
            .chain(&st.monster_deck.discard)
            .filter(|c| c.kind == CardKind::Deck)
            .count()
    };
    assert_eq!(
        deck(s),
        deck(initial),
        "the monster modifier deck keeps its cards"
    );
    if let Some(Pending::FoeOption { options, .. }) = &s.pending {
        assert!(options.len() > 1, "a tie has at least two options");
    }
}

/// Plays one game by the detour driver, checking what the interface promises at every step
/// (`game::check::random_playout`: clone + apply, the RON round trip, every legal action accepted,
/// nobody out of turn) and the invariants; `heavy_every` sets how often the replay of the whole log
/// from the start is checked (1 = every step; it is quadratic in the game's length). At every step
/// the autopilot's action must be a legal action of a seat to move.
fn playout(path: &str, scenario: &Arc<Scenario>, seed: u64, heavy_every: usize) -> Game {
    let game = Game::new(scenario.clone(), path, seed, TieBreaker::Seeded).expect("sets up");
    let initial = game.state.clone();
    let mut rng = Detours(seed ^ 0xD1CE);
    let mut step = 0;
    let game = foehold_core::game::check::random_playout(
        game,
        20_000,
        heavy_every,
        |g| {
            step += 1;
            assert_autopilot_is_legal(g, &format!("{path} seed {seed} step {step}"));
            driver(&g.state, &mut rng)
        },
        |s, _, _| {
            check_invariants(s, &initial);
            Ok(())
        },
    )
    .unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(
        game.state.phase.is_over(),
        "{path} seed {seed}: the game reached a win or a loss"
    );
    game
}

/// The autopilot's next action is one of the legal actions of a seat to move.
fn assert_autopilot_is_legal(game: &Game, at: &str) {
    let Some(auto) = next_action(&game.state) else {
        return;
    };
    let seats = foehold_core::game::check::seats_to_move(&game.to_move());
    assert!(
        seats
            .iter()
            .any(|&seat| game.legal_actions(seat).contains(&auto)),
        "{at}: the autopilot's {auto:?} is not a legal action of {seats:?}"
    );
}

/// Seeds per scenario: 20 by default, more with `FOEHOLD_PLAYOUT_SEEDS=N` (e.g. in release builds).
fn seeds() -> u64 {
    std::env::var("FOEHOLD_PLAYOUT_SEEDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20)
}

/// Plays every scenario for the seeds `first, first + 2, …` (two tests share the seeds so they run
/// in parallel) and checks that each save replays to the same state.
fn play_every_scenario(first: u64) {
    for (path, scenario) in scenarios() {
        let path = path.display().to_string();
        for seed in (first..seeds()).step_by(2) {
            // Every check at every step for the first seeds; the round trip and the (quadratic) replay
            // every 25 steps and at the end for the others, to keep the test quick in debug builds.
            let every = if seed < 2 { 1 } else { 25 };
            let game = playout(&path, &scenario, seed, every);
            let save = Save::of(&game);
            let text = save.to_ron();
            let back: Save = ron::from_str(&text).expect("the save reads back");
            assert_eq!(back, save);
            let replayed = back
                .replay(&foehold_core::game::check::Disk, std::path::Path::new("."))
                .expect("the save replays");
            assert_eq!(
                replayed.state.state_hash(),
                save.state_hash,
                "{path} seed {seed}: save → load → same hash"
            );
            assert_eq!(replayed.state, game.state);
        }
    }
}

#[test]
fn every_scenario_plays_to_the_end_with_every_check_at_every_step_even_seeds() {
    play_every_scenario(0);
}

#[test]
fn every_scenario_plays_to_the_end_with_every_check_at_every_step_odd_seeds() {
    play_every_scenario(1);
}

#[test]
fn the_same_seed_gives_the_same_log_twice_and_other_seeds_differ() {
    for (path, scenario) in scenarios() {
        let run = |seed| {
            let mut g = Game::new(
                scenario.clone(),
                path.display().to_string(),
                seed,
                TieBreaker::Seeded,
            )
            .unwrap();
            g.play_out(100_000, |_, _, _| {});
            (g.actions().to_vec(), g.state.state_hash())
        };
        let (a, b) = (run(7), run(7));
        assert_eq!(a, b, "{}", path.display());
        let others: Vec<String> = (8..12).map(|s| run(s).1).collect();
        assert!(
            others.iter().any(|h| *h != a.1),
            "different seeds give different games"
        );
    }
}

#[test]
fn undo_holds_at_every_prefix_of_whole_games() {
    for (path, scenario) in scenarios() {
        for seed in [1, 4] {
            let mut g = Game::new(
                scenario.clone(),
                path.display().to_string(),
                seed,
                TieBreaker::Seeded,
            )
            .unwrap();
            let mut rng = Detours(seed.wrapping_mul(0x9E37_79B9) | 1);
            let n = foehold_core::game::check::undo_at_every_prefix(&mut g, 5000, |g| {
                driver(&g.state, &mut rng)
            })
            .unwrap_or_else(|e| panic!("{} seed {seed}: {e}", path.display()));
            assert!(g.state.phase.is_over(), "{} seed {seed}", path.display());
            assert!(n > 20, "{} seed {seed}: a whole game", path.display());
        }
    }
}

#[test]
fn undo_and_redo_walk_the_log_both_ways() {
    let (path, scenario) = scenarios().remove(0);
    let mut g = Game::new(scenario, path.display().to_string(), 3, TieBreaker::Seeded).unwrap();
    let mut hashes = vec![g.state.state_hash()];
    for _ in 0..40 {
        let Some(a) = g.auto_action() else { break };
        g.apply(a).unwrap();
        hashes.push(g.state.state_hash());
    }
    let n = g.cursor;
    for k in (0..n).rev() {
        assert!(g.undo());
        assert_eq!(g.state.state_hash(), hashes[k], "undo to step {k}");
    }
    assert!(!g.undo(), "nothing before the start");
    for (k, hash) in hashes.iter().enumerate().skip(1) {
        assert!(g.redo());
        assert_eq!(g.state.state_hash(), *hash, "redo to step {k}");
    }
    assert!(!g.redo(), "nothing after the end");
    // A new action after an undo drops the undone tail.
    g.undo();
    g.undo();
    let a = g.auto_action().unwrap();
    g.apply(a).unwrap();
    assert_eq!(g.log.len(), g.cursor);
    assert_eq!(g.cursor, n - 1);
}

#[test]
fn a_tie_waits_for_the_table_unless_the_seeded_tie_breaker_is_on() {
    // Find a position where a tie is pending, then check that only Choose resolves it.
    for (path, scenario) in scenarios() {
        for seed in 0..30 {
            let mut g = Game::new(
                scenario.clone(),
                path.display().to_string(),
                seed,
                TieBreaker::Table,
            )
            .unwrap();
            while let Some(a) = g.auto_action() {
                g.apply(a).unwrap();
            }
            if g.state.phase.is_over() {
                continue;
            }
            assert!(
                g.state.pending.is_some(),
                "the table game stops only at a tie"
            );
            assert_eq!(
                g.state.clone().apply(Action::Advance),
                Err(foehold_core::rules::gloomhaven::ActionError::PendingChoice)
            );
            let n = g.state.pending_options();
            assert!(n > 1);
            assert!(
                g.state.clone().apply(Action::Choose(n)).is_err(),
                "out-of-range option"
            );
            g.apply(Action::Choose(n - 1)).unwrap();
            assert!(g.state.pending.is_none());
            return;
        }
    }
    panic!("no scenario and seed produced a tie");
}

#[test]
fn a_refused_action_changes_nothing() {
    let (path, scenario) = scenarios().remove(0);
    let mut g = Game::new(scenario, path.display().to_string(), 1, TieBreaker::Seeded).unwrap();
    let before = g.state.clone();
    assert!(
        g.apply(Action::Play {
            card: 0,
            half: Half::Top,
            basic: false,
            path: vec![],
            targets: vec![],
            ally: None
        })
        .is_err()
    );
    assert!(g.apply(Action::Choose(0)).is_err());
    assert!(g.apply(Action::ShortRest { hero: 0 }).is_err());
    assert_eq!(g.state, before);
    assert!(g.log.is_empty());
}

/// Random playouts that pick uniformly among the legal actions of whoever is to move: every listed
/// action is accepted, and after each the invariants hold; the RON round trip and the replay of the
/// log are checked every few steps.
#[test]
fn uniform_random_playouts_over_the_legal_actions_are_accepted_and_keep_the_invariants() {
    for (path, scenario) in scenarios() {
        let path = path.display().to_string();
        for seed in 1..=3 {
            let game =
                Game::new(scenario.clone(), &path, seed, TieBreaker::Table).expect("sets up");
            let initial = game.state.clone();
            let mut plays = 0;
            let game = foehold_core::game::check::random_playout(
                game,
                20_000,
                50,
                |_| None,
                |s, a, _| {
                    plays += usize::from(matches!(a, Action::Play { .. }));
                    check_invariants(s, &initial);
                    Ok(())
                },
            )
            .unwrap_or_else(|e| panic!("{path}: {e}"));
            eprintln!(
                "{path} seed {seed}: {} actions, {plays} card halves played, round {}, {:?}",
                game.cursor,
                game.state.round,
                game.to_move()
            );
            assert!(plays > 0, "{path} seed {seed}: the heroes played cards");
        }
    }
}
