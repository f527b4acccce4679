//! `Game` over a rule module that is not Gloomhaven (the test-only toy): apply, undo, redo, ties,
//! saves and replays only need the `Rules` interface.

use std::sync::Arc;

use super::Game;
use super::save::Save;
use crate::rules::toy::{self, Action, Stage, Toy};
use crate::rules::{Present, Rules, Seat, TieBreaker, ToMove, rules_field, state_hash};
use crate::storage::Storage;

fn new_game(seed: u64, ties: TieBreaker) -> Game<Toy> {
    let scenario = toy::scenario().unwrap_or_else(|e| panic!("{e}"));
    Game::new(scenario, "toy.ron", seed, ties).expect("the toy sets up")
}

/// A small seeded generator for picking among legal actions (splitmix64).
fn pick(state: &mut u64, n: usize) -> usize {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ((z ^ (z >> 31)) % n.max(1) as u64) as usize
}

#[test]
fn the_automatic_driver_plays_the_toy_to_its_end_the_same_way_twice() {
    let mut outcomes = Vec::new();
    for seed in 0..20 {
        let run = || {
            let mut g = new_game(seed, TieBreaker::Seeded);
            let n = g.play_out(1000, |_, _, _| {});
            (n, g.to_move(), g.actions().to_vec(), state_hash(&g.state))
        };
        let (n, to_move, actions, hash) = run();
        assert!(n > 0 && n < 1000, "seed {seed}: {n} actions");
        assert!(
            matches!(to_move, ToMove::Over { .. }),
            "seed {seed}: {to_move:?}"
        );
        assert_eq!((n, to_move.clone(), actions, hash), run(), "seed {seed}");
        outcomes.push(to_move);
    }
    assert!(
        outcomes.contains(&ToMove::Over { won: true }),
        "the hero wins some"
    );
}

#[test]
fn every_legal_action_is_accepted_and_a_refused_one_changes_nothing() {
    for seed in 0..10 {
        let mut g = new_game(seed, TieBreaker::Table);
        let mut rng = seed;
        for _ in 0..200 {
            let seat = match g.to_move() {
                ToMove::Over { .. } => break,
                ToMove::Rules { stage } => {
                    assert!(Toy::STAGES.contains(&stage));
                    Seat::Rules
                }
                ToMove::Chance { stage, outcomes } => {
                    assert!(Toy::STAGES.contains(&stage));
                    assert_eq!(g.legal_actions(Seat::Chance).len(), outcomes);
                    Seat::Chance
                }
                ToMove::Tie { .. } => Seat::Table,
                ToMove::Heroes(heroes) => Seat::Hero(heroes[0]),
            };
            for other in [
                Seat::Rules,
                Seat::Chance,
                Seat::Table,
                Seat::Hero(0),
                Seat::Hero(1),
            ] {
                if other != seat {
                    assert!(g.legal_actions(other).is_empty(), "{other:?} may not act");
                }
            }
            let before = g.state.clone();
            let (log, cursor) = (g.log.len(), g.cursor);
            for wrong in [
                Action::Choose(9),
                Action::Step(toy::Dir::North),
                Action::Advance,
            ] {
                if !g.legal_actions(seat).contains(&wrong) && g.apply(wrong).is_err() {
                    assert_eq!(g.state, before);
                    assert_eq!((g.log.len(), g.cursor), (log, cursor));
                }
            }
            let legal = g.legal_actions(seat);
            assert!(!legal.is_empty(), "{seat:?} is to move");
            let a = legal[pick(&mut rng, legal.len())].clone();
            g.apply(a.clone())
                .unwrap_or_else(|e| panic!("legal {a:?} refused: {e}"));
        }
    }
}

#[test]
fn undo_and_redo_walk_the_log_both_ways() {
    let mut g = new_game(3, TieBreaker::Seeded);
    let mut states = vec![g.state.clone()];
    while let Some(a) = g.auto_action() {
        g.apply(a).expect("the driver's action is accepted");
        states.push(g.state.clone());
    }
    let n = g.cursor;
    assert!(n > 5);
    for k in (0..n).rev() {
        assert!(g.undo());
        assert_eq!(g.state, states[k], "undo to step {k}");
    }
    assert!(!g.undo());
    assert_eq!(g.state, *g.initial());
    for (k, s) in states.iter().enumerate().skip(1) {
        assert!(g.redo());
        assert_eq!(g.state, *s, "redo to step {k}");
    }
    assert!(!g.redo());
    // A new action after an undo drops the undone tail.
    g.undo();
    g.undo();
    let a = g.auto_action().expect("one step before the end");
    g.apply(a).expect("accepted");
    assert_eq!((g.log.len(), g.cursor), (n - 1, n - 1));
}

#[test]
fn a_tie_waits_for_the_table_unless_the_seeded_tie_breaker_is_on() {
    let mut g = new_game(1, TieBreaker::Table);
    while let Some(a) = g.auto_action() {
        g.apply(a).expect("accepted");
    }
    // The foe starts in the far corner: its first step is a tie of two.
    assert_eq!(g.to_move(), ToMove::Tie { options: 2 });
    assert_eq!(
        g.legal_actions(Seat::Table),
        vec![Action::Choose(0), Action::Choose(1)]
    );
    assert!(g.clone().apply(Action::Advance).is_err());
    let mut seeded = new_game(1, TieBreaker::Seeded);
    while seeded.cursor < g.cursor {
        let a = seeded.auto_action().expect("the same steps up to the tie");
        seeded.apply(a).expect("accepted");
    }
    assert!(matches!(seeded.auto_action(), Some(Action::Choose(0 | 1))));
    g.apply(Action::Choose(1)).expect("the table picks");
    assert_eq!(g.state.stage, Stage::FoeStrike);
    assert!(g.state.pending.is_none());
}

#[test]
fn a_save_round_trips_through_ron_and_replays_to_the_same_state() {
    // Saves beside their scenario, in a folder of a storage kept in memory.
    let mut store = crate::storage::Memory::default();
    let dir = std::path::Path::new("games");
    let file = dir.join("toy.ron");
    store
        .write(&file, toy::SCENARIO.as_bytes())
        .expect("the scenario is written");
    let scenario =
        Arc::new(Toy::parse_scenario("toy.ron", toy::SCENARIO).unwrap_or_else(|e| panic!("{e}")));
    for seed in 0..5 {
        let mut g = Game::<Toy>::new(
            scenario.clone(),
            file.display().to_string(),
            seed,
            TieBreaker::Seeded,
        )
        .expect("sets up");
        g.play_out(1000, |_, _, _| {});
        let save = Save::of(&g);
        assert_eq!(save.rules, "Toy");
        let text = save.to_ron();
        let back = Save::<Toy>::parse("save.ron", &text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back, save);
        let path = dir.join(format!("save-{seed}.ron"));
        save.write(&mut store, &path).expect("the save is written");
        let loaded = Save::<Toy>::load(&store, &path).unwrap_or_else(|e| panic!("{e}"));
        let replayed = loaded.replay(&store, &path).expect("the save replays");
        assert_eq!(replayed.state, g.state);
        assert_eq!(state_hash(&replayed.state), save.state_hash);
        // A save of one module is refused by another.
        assert!(crate::rules::gloomhaven::Save::parse("save.ron", &text).is_err());
    }
}

#[test]
fn a_save_keeps_the_seats_of_its_table_within_their_bounds() {
    let mut g = new_game(3, TieBreaker::Seeded);
    g.play_out(20, |_, _, _| {});
    let mut save = Save::of(&g);
    assert!(
        !save.to_ron().contains("seats"),
        "a headless save seats nobody"
    );
    save.seats = Some(vec![2]);
    let text = save.to_ron();
    let back = Save::<Toy>::parse("save.ron", &text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.seats, Some(vec![2]));
    for bad in [vec![0], vec![65], vec![1; 65]] {
        save.seats = Some(bad.clone());
        let text = save.to_ron();
        let e = Save::<Toy>::parse("save.ron", &text).expect_err(&format!("{bad:?}"));
        assert!(e.message.contains("`seats`"), "{e}");
        assert_eq!(
            e.line,
            text.lines().position(|l| l.contains("seats:")).unwrap() + 1
        );
    }
}

#[test]
fn the_toy_names_its_rules_and_draws_its_grid() {
    // That it is no shipped module is `tests/kit.rs`: the list has it only in tests.
    assert_eq!(
        rules_field(toy::SCENARIO).map(|(name, _, _)| name),
        Some(Toy::NAME)
    );
    let g = new_game(0, TieBreaker::Seeded);
    let view = Toy::view(&g.state);
    assert_eq!(view.cells.len(), 12);
    assert_eq!(view.figures.len(), 2);
    assert!(Toy::describe(&g.state, &toy::Event::Waited).is_some());
}

#[test]
fn undo_holds_at_every_prefix_of_whole_toy_games() {
    for seed in 0..8 {
        let mut g = new_game(seed, TieBreaker::Seeded);
        let n = super::check::undo_at_every_prefix(&mut g, 1000, Game::auto_action)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(matches!(g.to_move(), ToMove::Over { .. }), "seed {seed}");
        assert_eq!(n, g.actions().len());
    }
}

/// Up to `n` actions of a toy game whose ties the table breaks (the first option) and whose hero the
/// autopilot plays: the game, whether each entry was the players' (from whose move it was), and the
/// state after each prefix.
fn play_with_table_ties(seed: u64, n: usize) -> (Game<Toy>, Vec<bool>, Vec<toy::State>) {
    let mut g = new_game(seed, TieBreaker::Table);
    let mut states = vec![g.state.clone()];
    let mut makers = Vec::new();
    while makers.len() < n {
        let to_move = g.to_move();
        let action = match &to_move {
            ToMove::Tie { .. } => g.legal_actions(Seat::Table).swap_remove(0),
            _ => match g.auto_action() {
                Some(a) => a,
                None => break,
            },
        };
        makers.push(matches!(to_move, ToMove::Heroes(_) | ToMove::Tie { .. }));
        g.apply(action).expect("legal");
        states.push(g.state.clone());
    }
    (g, makers, states)
}

#[test]
fn the_players_decisions_are_told_from_the_rules_own_steps() {
    // Played by the automatic driver with the table breaking ties, so heroes, ties, dice and the
    // rules' steps all take turns; each entry's maker is read from whose move it was.
    let (mut g, makers, _) = play_with_table_ties(3, 200);
    assert!(
        makers.contains(&true) && makers.contains(&false),
        "{makers:?}"
    );
    let n = makers.len();
    let count = |a: usize, b: usize| makers[a.min(b)..a.max(b)].iter().filter(|&&m| m).count();
    assert_eq!(g.decisions_between(0, n), count(0, n));
    assert_eq!(g.decisions_between(n, 3), count(3, n), "either way round");
    // Undo keeps the entries and who made them; a new action drops the undone tail.
    for _ in 0..5 {
        g.undo();
    }
    assert_eq!(g.decisions_between(0, n), count(0, n));
    let again = g
        .auto_action()
        .or_else(|| g.legal_actions(Seat::Table).into_iter().next());
    g.apply(again.expect("an action")).expect("legal");
    assert_eq!(g.log.len(), n - 4);
    assert_eq!(
        g.decisions_between(0, n - 5),
        count(0, n - 5),
        "the entries kept"
    );
    assert_eq!(g.decisions_between(0, 0), 0);
}

#[test]
fn undo_by_decision_takes_the_rules_own_steps_with_it_and_redo_brings_them_back() {
    // The table breaks ties and the autopilot plays the hero, so decisions and the rules' own
    // steps (dice among them) alternate.
    let (mut g, makers, states) = play_with_table_ties(5, 120);
    let n = g.cursor;
    let decisions: Vec<usize> = (0..n).filter(|&i| makers[i]).collect();
    assert!(decisions.len() > 3, "{makers:?}");
    // Back decision by decision: each undo lands just before one, whatever the rules did after it.
    for &d in decisions.iter().rev() {
        assert_eq!(g.decision_before(), d);
        assert!(g.go_to(g.decision_before()));
        assert_eq!(g.state, states[d], "before decision {d}");
        assert!((0..g.cursor).filter(|&i| !g.is_decision(i)).count() <= d);
    }
    // Before the first decision only the rules moved: the next undo goes to the start.
    assert_eq!(g.decision_before(), 0);
    g.go_to(0);
    assert_eq!(g.state, *g.initial());
    assert!(!g.go_to(0), "nothing to undo");
    // Forward again: each redo brings back one decision and the rules' steps after it, up to the
    // next decision.
    let mut stops: Vec<usize> = decisions.clone();
    stops.push(n);
    let mut at = 0;
    for &stop in &stops {
        if stop == 0 {
            continue;
        }
        let to = g.decision_after();
        assert_eq!(to, stop, "from {at}");
        assert!(g.go_to(to));
        assert_eq!(g.state, states[to]);
        at = to;
    }
    assert_eq!(g.decision_after(), n, "nothing to redo");
    assert!(!g.go_to(g.decision_after()));
    // A jump anywhere is one replay back or a redo forward, to the same states.
    for k in [n / 2, 3, n, 0, n - 1] {
        g.go_to(k);
        assert_eq!((g.cursor, &g.state), (k, &states[k]));
    }
    assert_eq!(g.log.len(), n, "going back and forth keeps the log");
}

#[test]
fn a_roll_entered_by_the_table_is_logged_as_its_decision_and_refused_elsewhere() {
    let mut g = new_game(4, TieBreaker::Seeded);
    let not_yet = g.enter(Action::Roll(1));
    assert!(not_yet.is_err(), "no roll waits at the start");
    assert_eq!((g.cursor, g.log.len()), (0, 0), "and nothing changed");
    while !matches!(g.to_move(), ToMove::Chance { .. }) {
        let a = g.auto_action().expect("the toy goes on to a roll");
        g.apply(a).expect("legal");
    }
    let at = g.cursor;
    let before = state_hash(&g.state);
    // The table rolled a 3, whatever the seeded pick would have made.
    g.enter(Action::Roll(3)).expect("a legal outcome");
    assert_eq!(g.actions()[at], Action::Roll(3));
    assert!(g.is_decision(at), "the table's entry is its decision");
    assert_eq!(g.decision_before(), at, "an undo takes it back");
    assert!(g.go_to(g.decision_before()));
    assert_eq!(state_hash(&g.state), before, "as it was before the roll");
    assert!(g.enter(Action::Roll(9)).is_err(), "no face 9 on the die");
    assert_eq!(
        state_hash(&g.state),
        before,
        "a refused entry changes nothing"
    );
}

#[test]
fn a_save_naming_a_file_that_is_no_scenario_is_refused_before_it_is_read() {
    let g = new_game(0, TieBreaker::Seeded);
    let mut save = Save::of(&g);
    save.scenario = "/etc/passwd".into();
    let mut store = crate::storage::Memory::default();
    // Were it read, its first word would be in the error: it never is.
    store
        .write(std::path::Path::new("/etc/passwd"), b"root:x:0:0")
        .unwrap();
    let e = save
        .replay(&store, std::path::Path::new("save.ron"))
        .unwrap_err();
    assert!(e.contains("expected a .ron scenario file"), "{e}");
    assert!(!e.contains("root"), "{e}");
}

#[test]
fn a_kept_journal_holds_each_action_applied_with_its_state_before_and_events_once() {
    let mut g = new_game(4, TieBreaker::Seeded);
    assert!(g.take_journal().is_empty(), "no journal unless kept");
    g.apply(g.automatic(true, true).expect("a first step"))
        .expect("legal");
    assert!(g.take_journal().is_empty(), "still none");
    assert!(g.keep_journal(), "it starts now");
    assert!(!g.keep_journal(), "and is kept");
    let mut states = vec![g.state.clone()];
    let mut events = Vec::new();
    let from = g.cursor;
    for _ in 0..6 {
        let Some(a) = g.automatic(true, true) else {
            break;
        };
        events.push(g.apply(a).expect("legal"));
        states.push(g.state.clone());
    }
    let journal = g.take_journal();
    assert_eq!(journal.len(), events.len());
    for (i, j) in journal.iter().enumerate() {
        assert_eq!(j.at, from + i);
        assert_eq!(j.action, g.log[from + i]);
        assert_eq!(state_hash(&j.before), state_hash(&states[i]));
        assert_eq!(j.events, events[i]);
    }
    assert!(g.take_journal().is_empty(), "taken once");
    // Moves through the log are not applied actions: a presenter sees the cursor move instead.
    g.go_to(from);
    g.go_to(g.log.len());
    assert!(g.take_journal().is_empty());
    // A copy keeps none.
    let mut copy = g.clone();
    copy.apply(copy.automatic(true, true).expect("a step"))
        .expect("legal");
    assert!(copy.take_journal().is_empty());
}
