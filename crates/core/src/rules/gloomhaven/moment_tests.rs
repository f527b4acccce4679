//! Seeded games of the shipped scenarios: each monster's decision is among the puzzle's outcomes.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::case::parse;
use super::state::{FoePlan, Pending};
use super::{Event, Gloomhaven};
use crate::game::check::seeded_game;
use crate::hex::qr;
use crate::lab::Lab;
use crate::rules::Rules;

/// The shipped Gloomhaven-family scenarios.
const SCENARIOS: [&str; 4] = [
    "tutorial.ron",
    "ember-orchard.ron",
    "frozen-sluice.ron",
    "sunken-kiln.ron",
];
/// Seeded games per scenario.
const SEEDS: u64 = 6;
/// Actions at most per game.
const STEPS: usize = 4_000;

fn scenario(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios")
        .join(name)
}

type Pair = ((i32, i32), Vec<(i32, i32)>);

/// The outcomes as the puzzle format scores them: where the monster ends, whom it attacks.
fn pairs<'a>(
    plans: impl Iterator<Item = (&'a crate::hex::Hex, &'a [crate::hex::Hex])>,
) -> BTreeSet<Pair> {
    plans
        .map(|(end, targets)| {
            let mut t: Vec<(i32, i32)> = targets.iter().map(|h| qr(*h)).collect();
            t.sort_unstable();
            (qr(*end), t)
        })
        .collect()
}

fn plan_pairs(plans: &[FoePlan]) -> BTreeSet<Pair> {
    pairs(plans.iter().map(|p| (&p.end, p.targets.as_slice())))
}

/// What the moments of the games came to.
#[derive(Debug, Default)]
struct Tally {
    /// Monster decisions met.
    checked: usize,
    /// The game's outcomes are exactly the puzzle's.
    exact: usize,
    /// The game's outcomes are among the puzzle's, which leaves a tie the game settles by an order
    /// the format cannot write (a summon before its summoner, a character's second card on an equal
    /// initiative): with that order given, the puzzle's position decides exactly as the game did.
    ordered: usize,
}

#[test]
fn each_monster_decision_is_among_the_outcomes_of_its_moment() {
    let mut tally = Tally::default();
    let mut refused = BTreeSet::new();
    for name in SCENARIOS {
        for seed in 0..SEEDS {
            let mut g = seeded_game::<Gloomhaven>(&scenario(name), seed)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            for _ in 0..STEPS {
                let Some(a) = g.auto_action() else { break };
                let moment = <Gloomhaven as Lab>::moment(&g.state);
                if let Err(e) = &moment {
                    refused.insert(e.clone());
                }
                let ev = g.apply(a).expect("the driver's action");
                let Some(monster) = ev.iter().find_map(|e| match e {
                    Event::FoeTargeted { monster, .. } => Some(*monster),
                    _ => None,
                }) else {
                    continue;
                };
                let at = format!("{name} seed {seed} round {}", g.state.round);
                tally.checked += 1;
                let game = match &g.state.pending {
                    Some(Pending::FoeOption { options, .. }) => plan_pairs(options),
                    _ => plan_pairs(g.state.plan.as_slice()),
                };
                let p = moment.unwrap_or_else(|e| panic!("{at}: no moment before a decision: {e}"));
                // Planning moves nobody: the monster still stands where it decided.
                assert_eq!(
                    p.active,
                    qr(g.state.monsters[monster].hex),
                    "{at}: the moment opens another monster"
                );
                let text = <Gloomhaven as Lab>::write(&p);
                let (back, pos) =
                    parse("moment", &text).unwrap_or_else(|e| panic!("{at}: {e}\n{text}"));
                assert_eq!(back, p, "{at}: the puzzle reads back as written");
                let d = pos.decide();
                let case = pairs(d.options.iter().map(|o| (&o.end, o.targets.as_slice())));
                if game == case {
                    tally.exact += 1;
                } else {
                    assert!(
                        game.is_subset(&case),
                        "{at}: the game's {game:?} is not among the puzzle's {case:?}\n{text}"
                    );
                    let mut ordered = pos.clone();
                    for e in &mut ordered.enemies {
                        (e.second, e.order) = game_order(&g.state, e.hex);
                    }
                    let d = ordered.decide();
                    let again = pairs(d.options.iter().map(|o| (&o.end, o.targets.as_slice())));
                    assert_eq!(game, again, "{at}: more than the order differs\n{text}");
                    tally.ordered += 1;
                }
            }
        }
    }
    println!("gloomhaven moments: {tally:?}; no moment: {refused:?}");
    assert!(tally.checked > 200, "{tally:?}");
    assert!(tally.exact * 10 > tally.checked * 9, "{tally:?}");
}

/// How the game orders the character or summon on `h` among those of its initiative, as its own
/// decision reads them (`second`, `order`): what the puzzle format has no field for.
fn game_order(s: &super::State, h: crate::hex::Hex) -> (u32, u32) {
    if let Some(x) = s.heroes.iter().find(|x| !x.exhausted && x.hex == h) {
        return (x.second_initiative, super::targeting::LAST);
    }
    let Some(i) = s.living_summons().find(|&i| s.summons[i].hex == h) else {
        return (0, super::targeting::LAST);
    };
    let summoner = s.summons[i].summoner;
    let place = s
        .living_summons()
        .take_while(|&j| j != i)
        .filter(|&j| s.summons[j].summoner == summoner)
        .count();
    (
        s.heroes[summoner].second_initiative,
        u32::try_from(place).unwrap_or(u32::MAX),
    )
}

#[test]
fn a_moment_without_a_monster_decision_says_why() {
    let g = seeded_game::<Gloomhaven>(&scenario("tutorial.ron"), 0).expect("a game");
    let e = <Gloomhaven as Lab>::moment(&g.state).expect_err("nothing is revealed at setup");
    assert!(e.contains("not revealed"), "{e}");
    let mut over = g.state.clone();
    over.phase = super::Phase::Victory;
    let e = <Gloomhaven as Lab>::moment(&over).expect_err("the game is over");
    assert!(e.contains("over"), "{e}");
    // Once the cards are revealed the first monster to act opens, and a table can put it on a bench.
    let mut g = g;
    while <Gloomhaven as Lab>::moment(&g.state).is_err() {
        let a = g.auto_action().expect("the game goes on");
        g.apply(a).expect("accepted");
        assert!(
            Gloomhaven::round(&g.state) < 3,
            "no monster moment in two rounds"
        );
    }
    let bench = crate::lab::any::moment_bench::<Gloomhaven>(&g.state).expect("a bench");
    assert_eq!(bench.module(), "gloomhaven");
    assert!(!bench.answer().choices.is_empty());
}

/// A monster's plan during the heroes' turns: its revealed card, and the same outcomes as the lab's
/// moment of it (when it is the next to decide) told in the game's names.
#[test]
fn a_monsters_plan_in_the_heroes_turns_is_its_moment_in_names() {
    use crate::lab::any::plan_of;
    let mut plans = 0;
    let mut named = 0;
    for seed in 0..SEEDS {
        let mut g = seeded_game::<Gloomhaven>(&scenario("tutorial.ron"), seed).expect("a game");
        for _ in 0..STEPS {
            let Some(a) = g.auto_action() else { break };
            if matches!(g.state.phase, super::Phase::HeroTurn { .. })
                && let Ok((next, _)) = super::lab::moment_monster(&g.state)
            {
                let figure = super::table_id(super::FigureId::Monster(next));
                let plan = plan_of::<Gloomhaven>(&g.state, figure);
                let kind = g.state.monsters[next].kind;
                let card = &g.state.scenario.monsters[kind].deck
                    [g.state.kinds[kind].current.expect("revealed")];
                assert!(plan.card[0].starts_with(&card.name), "{:?}", plan.card);
                let answer = plan.answer.expect("a plan");
                let moment = <Gloomhaven as Lab>::answer(
                    &<Gloomhaven as Lab>::moment(&g.state).expect("a moment"),
                );
                let ends = |a: &crate::lab::Answer| -> Vec<_> {
                    a.choices
                        .iter()
                        .map(|c| (c.end, c.targets.clone()))
                        .collect()
                };
                assert_eq!(ends(&answer), ends(&moment));
                plans += 1;
                let heroes: Vec<String> = (0..g.state.heroes.len())
                    .map(|h| g.state.name(super::FigureId::Hero(h)))
                    .collect();
                for c in &answer.choices {
                    for t in &c.targets {
                        assert!(
                            !c.label.contains(&format!("({}, {})", t.0, t.1)),
                            "a target by its coordinate: {}",
                            c.label
                        );
                    }
                    named += heroes.iter().any(|h| c.label.contains(h.as_str())) as usize;
                }
            }
            g.apply(a).expect("the driver's action");
        }
    }
    assert!(plans > 20, "{plans} plans");
    assert!(named > 10, "{named} outcomes name a hero");
}

#[test]
fn a_plan_says_why_there_is_none() {
    use crate::lab::any::plan_of;
    let g = seeded_game::<Gloomhaven>(&scenario("tutorial.ron"), 0).expect("a game");
    let monster = super::table_id(super::FigureId::Monster(0));
    let plan = plan_of::<Gloomhaven>(&g.state, monster);
    assert!(plan.card.is_empty());
    let e = plan.answer.expect_err("nothing is revealed at setup");
    assert!(e.contains("not revealed"), "{e}");
    let hero = super::table_id(super::FigureId::Hero(0));
    let e = plan_of::<Gloomhaven>(&g.state, hero)
        .answer
        .expect_err("a hero");
    assert!(e.contains("players"), "{e}");
}
