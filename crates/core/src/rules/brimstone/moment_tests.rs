//! Seeded fights of the shipped scenarios: each enemy's targeting is among its case's outcomes,
//! and each placement among its case's layouts.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::Brimstone;
use super::actions::Event;
use super::lab::Case;
use super::state::Stage;
use crate::game::check::seeded_game;
use crate::lab::{Lab, json_cell};

/// The shipped Brimstone scenarios.
const SCENARIOS: [&str; 3] = [
    "cinder-adit.ron",
    "cinder-adit-ambush.ron",
    "sulphur-drift.ron",
];
/// Seeded fights per scenario.
const SEEDS: u64 = 12;
/// Actions at most per fight.
const STEPS: usize = 4_000;

fn scenario(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios")
        .join(name)
}

/// An outcome as the format scores it: the end square, the heroes attacked by name (sorted), and
/// whether the attack is a shot.
type Outcome = ((i32, i32), Vec<String>, bool);

/// The case file of a moment, checked to read back as written, and the rules core's answer to it.
fn written_and_solved(at: &str, p: &Case) -> (String, crate::rules::case::Answer) {
    let text = <Brimstone as Lab>::write(p);
    let back =
        <Brimstone as Lab>::read("moment", &text).unwrap_or_else(|e| panic!("{at}: {e}\n{text}"));
    assert_eq!(&back, p, "{at}: the case reads back as written");
    let answer = super::case::solve("moment", &text).unwrap_or_else(|e| panic!("{at}: {e}"));
    (text, answer)
}

#[test]
fn each_enemy_targeting_is_among_the_outcomes_of_its_moment() {
    let (mut checked, mut single, mut forecast) = (0usize, 0usize, 0usize);
    let mut refused = BTreeSet::new();
    for name in SCENARIOS {
        for seed in 0..SEEDS {
            let mut g = seeded_game::<Brimstone>(&scenario(name), seed)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            // The model the last moment before this activation opened, while another figure acted.
            let mut foreseen: Option<String> = None;
            for _ in 0..STEPS {
                let Some(a) = g.auto_action() else { break };
                let moment = <Brimstone as Lab>::moment(&g.state);
                let targeting = matches!(g.state.stage, Stage::Targeting { .. });
                match &moment {
                    Err(e) => {
                        refused.insert(e.clone());
                        foreseen = None;
                    }
                    Ok(Case::Targeting(c)) if !targeting => foreseen = Some(c.active.name.clone()),
                    Ok(_) => {}
                }
                let ev = g.apply(a).expect("the driver's action");
                let Some(model) = ev.iter().find_map(|e| match e {
                    Event::Targeted { model, .. } => Some(*model),
                    _ => None,
                }) else {
                    continue;
                };
                let at = format!("{name} seed {seed} round {}", g.state.round);
                let Stage::Movement {
                    end,
                    targets,
                    ranged,
                    ..
                } = &g.state.stage
                else {
                    panic!("{at}: no move after the targeting: {:?}", g.state.stage);
                };
                let mut names: Vec<String> = targets
                    .iter()
                    .map(|&h| g.state.hero_name(h).to_string())
                    .collect();
                names.sort();
                let game: Outcome = (*end, names, *ranged);
                let p =
                    moment.unwrap_or_else(|e| panic!("{at}: no moment before a targeting: {e}"));
                let Case::Targeting(c) = &p else {
                    panic!("{at}: the moment is not a Targeting case")
                };
                let model_name = &g.state.models[model].name;
                assert_eq!(
                    &c.active.name, model_name,
                    "{at}: the moment opens another model"
                );
                if let Some(f) = foreseen.take() {
                    assert_eq!(
                        &f, model_name,
                        "{at}: the moment before foresaw another model"
                    );
                    forecast += 1;
                }
                let (text, answer) = written_and_solved(&at, &p);
                let case: BTreeSet<Outcome> = answer.json["outcomes"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|o| {
                        let mut t: Vec<String> = o["targets"]
                            .as_array()?
                            .iter()
                            .filter_map(|n| n.as_str().map(str::to_string))
                            .collect();
                        t.sort();
                        Some((json_cell(&o["end"])?, t, o["attack"] == "Ranged"))
                    })
                    .collect();
                assert!(
                    case.contains(&game),
                    "{at}: the game's {game:?} is not among the case's {case:?}\n{text}"
                );
                checked += 1;
                single += usize::from(case.len() == 1);
            }
        }
    }
    println!(
        "brimstone moments: {checked} targetings among their case's outcomes ({single} the case's \
         only one), {forecast} foreseen by an earlier moment; no moment: {refused:?}"
    );
    assert!(
        checked > 100 && forecast > 20,
        "{checked} checked, {forecast} foreseen"
    );
}

/// A layout as the format scores it: each placed model's square by name, and the unplaced names.
type Layout = (Vec<(String, (i32, i32))>, Vec<String>);

#[test]
fn each_placement_is_among_the_layouts_of_its_moment() {
    let (mut checked, mut ambushes, mut single, mut too_large) = (0usize, 0usize, 0usize, 0usize);
    for name in SCENARIOS {
        for seed in 0..SEEDS {
            let mut g = seeded_game::<Brimstone>(&scenario(name), seed)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let mut steps = 0;
            while steps < STEPS {
                let Some(a) = g.auto_action() else { break };
                let placing = g.state.stage == Stage::Placement && g.state.picks.is_empty();
                if !placing {
                    g.apply(a).expect("the driver's action");
                    steps += 1;
                    continue;
                }
                let at = format!("{name} seed {seed} round {}", g.state.round);
                let p = <Brimstone as Lab>::moment(&g.state)
                    .unwrap_or_else(|e| panic!("{at}: no moment at a placement: {e}"));
                let Case::Placement(c) = &p else {
                    panic!("{at}: the moment is not a Placement case")
                };
                // The case's name of each model of the game, group by group in order.
                let mut case_name = std::collections::BTreeMap::new();
                for (gi, group) in c.groups.iter().enumerate() {
                    let models =
                        (0..g.state.models.len()).filter(|&m| g.state.models[m].group == gi);
                    for (m, n) in models.zip(&group.models) {
                        case_name.insert(m, n.clone());
                    }
                }
                let (text, answer) = written_and_solved(&at, &p);
                let layouts: BTreeSet<Layout> = answer.json["layouts"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|l| {
                        let at: Vec<(String, (i32, i32))> = l["at"]
                            .as_object()?
                            .iter()
                            .filter_map(|(n, sq)| Some((n.clone(), json_cell(sq)?)))
                            .collect();
                        let mut unplaced: Vec<String> = l["unplaced"]
                            .as_array()?
                            .iter()
                            .filter_map(|n| n.as_str().map(str::to_string))
                            .collect();
                        unplaced.sort();
                        Some((at, unplaced))
                    })
                    .collect();
                // The game places: every model's square, from its events, until the stage moves on.
                let (mut placed, mut unplaced) = (Vec::new(), Vec::new());
                while g.state.stage == Stage::Placement && steps < STEPS {
                    let a = g.auto_action().expect("the placement goes on");
                    for e in g.apply(a).expect("the driver's action") {
                        if let Event::Placed { model, at: sq } = e {
                            let n = case_name[&model].clone();
                            match sq {
                                Some(sq) => placed.push((n, sq)),
                                None => unplaced.push(n),
                            }
                        }
                    }
                    steps += 1;
                }
                placed.sort();
                unplaced.sort();
                let game: Layout = (placed, unplaced);
                // A large ambush has more ways than the solver walks: the case says so, and the
                // lab shows that refusal rather than an answer.
                if let Some(e) = answer.json["error"].as_str() {
                    assert!(e.contains("more than"), "{at}: {e}");
                    too_large += 1;
                    continue;
                }
                assert!(
                    layouts.contains(&game),
                    "{at}: the game's {game:?} is not among the case's {layouts:?}\n{text}"
                );
                checked += 1;
                ambushes += usize::from(c.ambush);
                single += usize::from(layouts.len() == 1);
            }
        }
    }
    println!(
        "brimstone placements: {checked} among their case's layouts ({single} the case's only \
         one, {ambushes} ambushes); {too_large} too large for the solver"
    );
    assert!(
        checked >= 10 && ambushes > 0,
        "{checked} checked, {ambushes} ambushes"
    );
}

#[test]
fn a_moment_without_an_enemy_activation_says_why() {
    let g = seeded_game::<Brimstone>(&scenario("cinder-adit.ron"), 0).expect("a fight");
    let e = <Brimstone as Lab>::moment(&g.state).expect_err("no enemy is drawn yet");
    assert!(e.contains("drawn"), "{e}");
    let mut over = g.state.clone();
    over.stage = Stage::Over { won: false };
    let e = <Brimstone as Lab>::moment(&over).expect_err("the fight is over");
    assert!(e.contains("over"), "{e}");
    let mut g = g;
    while <Brimstone as Lab>::moment(&g.state).is_err() {
        let a = g.auto_action().expect("the fight goes on");
        g.apply(a).expect("accepted");
        assert!(g.state.round < 3, "no enemy moment in two rounds");
    }
    let bench = crate::lab::any::moment_bench::<Brimstone>(&g.state).expect("a bench");
    assert_eq!(bench.module(), "brimstone");
    assert!(!bench.answer().choices.is_empty());
}
