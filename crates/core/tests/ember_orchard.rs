//! The Ember Orchard, played headless for many seeds: every game ends, replays from its save to the
//! same state hash, and the rules the scenario is there for (summons, spawns, bless and curse,
//! perked decks, advantage, a card at 99, a type's elements, heroes tied on initiative) happen.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

use foehold_core::modifiers::draw::Mode;
use foehold_core::rules::gloomhaven::state::State;
use foehold_core::rules::gloomhaven::{Event, FigureId, Game, Save, Scenario, TieBreaker, log};

const SEEDS: u64 = 50;

fn path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/ember-orchard.ron")
}

/// One finished game: its events, each with the state just after it, and its log.
struct Played {
    game: Game,
    events: Vec<(State, Event)>,
    lines: Vec<String>,
}

fn play(scenario: &Arc<Scenario>, seed: u64) -> Played {
    let mut game = Game::new(
        scenario.clone(),
        "ember-orchard.ron",
        seed,
        TieBreaker::Seeded,
    )
    .expect("sets up");
    let mut events = Vec::new();
    let mut lines = Vec::new();
    game.play_out(20_000, |state, _, ev| {
        lines.extend(log::lines(state, ev));
        events.extend(ev.iter().map(|e| (state.clone(), e.clone())));
    });
    assert!(game.state.phase.is_over(), "seed {seed}: the game ends");
    Played {
        game,
        events,
        lines,
    }
}

fn games() -> Vec<Played> {
    let scenario = Arc::new(Scenario::load(&path()).unwrap_or_else(|e| panic!("{e}")));
    (1..=SEEDS).map(|seed| play(&scenario, seed)).collect()
}

#[test]
fn every_game_ends_and_replays_to_the_same_hash() {
    let started = std::time::Instant::now();
    let scenario = Arc::new(Scenario::load(&path()).unwrap_or_else(|e| panic!("{e}")));
    let (mut wins, mut losses) = (0, 0);
    for seed in 1..=SEEDS {
        let first = play(&scenario, seed);
        let again = play(&scenario, seed);
        assert_eq!(first.lines, again.lines, "seed {seed}: the same log twice");
        let save = Save::of(&first.game);
        let text = save.to_ron();
        let back = Save::parse("ember.save.ron", &text).unwrap_or_else(|e| panic!("{e}"));
        let mut copy = back.clone();
        copy.scenario = path().display().to_string();
        let replay = copy
            .replay_report(&foehold_core::game::check::Disk, &path())
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(replay.parted.is_none(), "seed {seed}: the replay parts");
        assert_eq!(
            replay.game.state.state_hash(),
            first.game.state.state_hash(),
            "seed {seed}: the replay reaches the same state"
        );
        if matches!(
            first.game.state.phase,
            foehold_core::rules::gloomhaven::Phase::Victory
        ) {
            wins += 1;
        } else {
            losses += 1;
        }
    }
    eprintln!(
        "The Ember Orchard over {SEEDS} seeds: {wins} won, {losses} lost ({:.1?} with the replays)",
        started.elapsed()
    );
    assert!(wins > 0, "the heroes can win");
    assert!(losses > 0, "the heroes can lose");
}

#[test]
fn the_rules_the_scenario_is_for_happen() {
    let games = games();
    let all = || games.iter().flat_map(|g| g.events.iter());
    let name = |s: &State, f: FigureId| s.name(f);

    // Summons are called, act by the focus rules, attack with their summoner's deck.
    assert!(all().any(|(_, e)| matches!(e, Event::Summoned { .. })));
    assert!(all().any(|(_, e)| matches!(e, Event::SummonTargeted { .. })));
    assert!(all().any(|(_, e)| matches!(
        e,
        Event::AttackResolved {
            attacker: FigureId::Summon(_),
            ..
        }
    )));
    // Every summon's turn is followed by its summoner's (or by another summon of the same
    // summoner), unless the game ended first.
    let mut summon_turns = 0;
    for g in &games {
        for (i, (s, e)) in g.events.iter().enumerate() {
            let Event::TurnStarted {
                figure: FigureId::Summon(x),
            } = e
            else {
                continue;
            };
            summon_turns += 1;
            let hero = s.summons[*x].summoner;
            let next = g.events[i + 1..].iter().find_map(|(_, e)| match e {
                Event::TurnStarted { figure } => Some(*figure),
                _ => None,
            });
            match next {
                Some(FigureId::Summon(y)) => assert_eq!(s.summons[y].summoner, hero),
                Some(f) => assert_eq!(f, FigureId::Hero(hero), "{}", name(s, f)),
                None => assert!(g.game.state.phase.is_over()),
            }
        }
    }
    assert!(summon_turns > 0);
    // Monsters focus summons and attack them.
    assert!(all().any(|(_, e)| matches!(
        e,
        Event::FoeTargeted { focus, .. } if focus.iter().any(|f| matches!(f, FigureId::Summon(_)))
    )));
    assert!(all().any(|(_, e)| matches!(
        e,
        Event::AttackResolved {
            attacker: FigureId::Monster(_),
            target: FigureId::Summon(_),
            ..
        }
    )));
    // Summons die without money and leave with their exhausted summoner.
    assert!(all().any(|(_, e)| matches!(
        e,
        Event::FigureDied {
            figure: FigureId::Summon(_),
            ..
        }
    )));
    assert!(all().any(|(_, e)| matches!(e, Event::SummonsDismissed { .. })));
    // Spawns, and spawned monsters die without money.
    assert!(all().any(|(_, e)| matches!(e, Event::Spawned { .. })));
    let spawned_deaths = all()
        .filter(|(s, e)| {
            matches!(
                e,
                Event::FigureDied { figure: FigureId::Monster(m), .. }
                    if s.monsters[*m].origin == foehold_core::modifiers::attack::Origin::Spawned
            )
        })
        .count();
    assert!(spawned_deaths > 0, "a spawned monster dies");
    for (s, e) in all() {
        if let Event::MoneyDropped { figure, .. } = e {
            let FigureId::Monster(m) = figure else {
                panic!("only monsters leave money: {}", name(s, *figure));
            };
            assert_eq!(
                s.monsters[*m].origin,
                foehold_core::modifiers::attack::Origin::Placed
            );
        }
    }
    // Bless and curse are shuffled in and drawn; rolling and effect cards of the perked decks are
    // drawn.
    let drawn = |card: &str| {
        all().any(|(_, e)| {
            matches!(e, Event::CardsDrawn { cards, .. } if cards.iter().any(|c| c == card))
        })
    };
    assert!(all().any(|(_, e)| matches!(e, Event::CardShuffledIn { curse: false, .. })));
    assert!(all().any(|(_, e)| matches!(e, Event::CardShuffledIn { curse: true, .. })));
    for card in [
        "bless",
        "curse",
        "r+1",
        "r+0 light",
        "r+1 wound",
        "r+0 fire",
    ] {
        assert!(drawn(card), "{card} is drawn");
    }
    // The brood mother attacks with advantage; a card at initiative 99 is revealed.
    assert!(all().any(|(s, e)| matches!(
        e,
        Event::CardsDrawn { attacker: FigureId::Monster(m), mode: Mode::Advantage, .. }
            if s.scenario.monsters[s.monsters[*m].kind].advantage
    )));
    assert!(all().any(|(_, e)| matches!(e, Event::AbilityRevealed { initiative: 99, .. })));
    // Several monsters of one type infuse and consume its elements.
    // Within one game, two monsters of one type.
    let by_kind = |consumed: bool| {
        games.iter().any(|g| {
            let mut seen: BTreeSet<(usize, usize)> = BTreeSet::new();
            for (s, e) in &g.events {
                let by = match e {
                    Event::ElementInfused { by, .. } if !consumed => by,
                    Event::ElementConsumed { by, .. } if consumed => by,
                    _ => continue,
                };
                if let FigureId::Monster(m) = by {
                    seen.insert((s.monsters[*m].kind, *m));
                }
            }
            seen.iter()
                .any(|&(k, m)| seen.iter().any(|&(x, n)| x == k && n != m))
        })
    };
    assert!(by_kind(false), "two monsters of one type infuse");
    // The first monster of a type to activate consumes for the whole type: another monster of
    // the type attacks later that round with the bonus.
    let shared_bonus = games.iter().any(|g| {
        let mut consumed: Option<(usize, usize)> = None;
        g.events.iter().any(|(s, e)| match e {
            Event::RoundStarted { .. } => {
                consumed = None;
                false
            }
            Event::ElementConsumed {
                by: FigureId::Monster(m),
                ..
            } => {
                consumed = Some((s.monsters[*m].kind, *m));
                false
            }
            Event::AttackResolved {
                attacker: FigureId::Monster(n),
                ..
            } => consumed.is_some_and(|(k, m)| s.monsters[*n].kind == k && *n != m),
            _ => false,
        })
    });
    assert!(
        shared_bonus,
        "a monster attacks with the element another of its type consumed"
    );
    // The heroes' cards tie on initiative and the players order them.
    assert!(all().any(|(s, e)| matches!(
        e,
        Event::TieToBreak { about, .. }
            if about.contains("same initiative")
                && s.scenario.heroes.iter().all(|h| about.contains(&h.name))
    )));
}
