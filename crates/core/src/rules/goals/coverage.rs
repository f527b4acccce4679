//! Which goal-priority rules decided something in a game: the foes' options, Choose Target's steps,
//! items, stacking, reactions and the heroes' actions, read from the events.

use super::Goals;
use super::actions::{Action, Event};
use super::scenario::{EffectSpec, Goal, KindSpec, RULES};
use super::situation::GoalOption;
use super::state::State;
use super::target::step_words;
use crate::rules::coverage::Coverage;

impl Coverage for Goals {
    fn coverage_rules() -> &'static [&'static str] {
        RULES
    }

    fn fired(after: &State, _action: &Action, events: &[Event], out: &mut Vec<&'static str>) {
        for e in events {
            fired_by(after, e, out);
        }
    }

    fn claims(scenario: &Self::Scenario) -> Vec<String> {
        scenario.file.exercises.clone()
    }
}

/// The rules one event shows deciding something.
fn fired_by(after: &State, e: &Event, out: &mut Vec<&'static str>) {
    match e {
        Event::Decided { trace, .. } => {
            for line in trace {
                target_steps(line, out);
            }
        }
        Event::TieOffered { .. } => out.push("Outcomes tied"),
        Event::Acts { foe, outcome } => {
            let Some(x) = after.foes.get(*foe) else {
                return;
            };
            let goal = after.file().foes.get(x.spec).map(|s| s.goal);
            let slip = outcome.swap.is_some();
            match outcome.option {
                GoalOption::Attack(2) if slip => out.push("Attack 2 by Slip Away"),
                GoalOption::Special(3) if slip => out.push("Special 3 by Slip Away"),
                GoalOption::Attack(n @ 1..=5) => out.push(
                    ["Attack 1", "Attack 2", "Attack 3", "Attack 4", "Attack 5"]
                        [usize::from(n - 1)],
                ),
                GoalOption::Special(n @ 1..=5) => out.push(
                    [
                        "Special 1",
                        "Special 2",
                        "Special 3",
                        "Special 4",
                        "Special 5",
                    ][usize::from(n - 1)],
                ),
                GoalOption::Adventure => {
                    out.push("Adventure goal");
                    out.push("Attack 5");
                }
                GoalOption::Unleash => out.push("Unleash"),
                GoalOption::MeleeStep => out.push("Melee step"),
                GoalOption::ReactionShot => out.push("Reaction shot"),
                GoalOption::Attack(_) | GoalOption::Special(_) => {}
            }
            if !outcome.used.is_empty() && outcome.option != GoalOption::Special(1) {
                out.push("Special 1");
            }
            let down_the_attack_goal = matches!(
                outcome.option,
                GoalOption::Attack(_) | GoalOption::Adventure
            );
            if goal == Some(Goal::Special) && !x.minion && down_the_attack_goal {
                out.push("Special 6");
            }
            if let Some(m) = &outcome.minion
                && m.option == GoalOption::Attack(5)
            {
                out.push("Minion option 5");
            }
            if outcome.stacked_on.is_some() {
                out.push("Invading an ally");
            }
            if outcome.unstack.is_some() {
                out.push("Pushed back");
            }
        }
        Event::Used { foe, special } => {
            let Some(x) = after.foes.get(*foe) else {
                return;
            };
            let Some(spec) = after.file().foes.get(x.spec) else {
                return;
            };
            if let Some(item) = spec.specials.iter().find(|s| &s.name == special) {
                if item.kind == KindSpec::Surprise {
                    out.push("Surprise card");
                }
                match item.effect {
                    EffectSpec::Burst { affects, .. } => out.push(match affects {
                        super::scenario::AffectsSpec::Enemies => "Burst",
                        super::scenario::AffectsSpec::Allies => "Healing burst",
                    }),
                    EffectSpec::Guard => out.push("Guard"),
                    EffectSpec::Lurk { .. } => {}
                }
            }
        }
        Event::Attacks {
            attacker: super::actions::Fig::Hero(_),
            ranged,
            ..
        } => out.push(if ranged.is_some() {
            "Hero: shoot"
        } else {
            "Hero: melee"
        }),
        Event::PickedUp { .. } => out.push("Hero: pick up"),
        Event::Traded { .. } => out.push("Hero: trade"),
        Event::SlippedAway { .. } => out.push("Hero: Slip Away"),
        Event::Explores { .. } => out.push("Hero: explore"),
        Event::Hid { .. } => out.push("Hero: hide"),
        Event::Captured { .. } => out.push("Capture"),
        _ => {}
    }
}

/// The Choose Target steps a trace line shows narrowing the targets.
fn target_steps(line: &str, out: &mut Vec<&'static str>) {
    let from = out.len();
    for part in line.split("; ") {
        if part.contains(step_words::MINIONS_OUT) {
            out.push("Target: minions out");
        } else if part.contains(step_words::INVALID) {
            out.push("Target: validity");
        } else if part.contains(step_words::OVERRIDE) && part.contains('→') {
            if !part.contains(step_words::OVERRIDE_ALL_TIE) {
                out.push("Target: override");
            }
        } else if part.starts_with(step_words::EASIEST) {
            if !part.contains(step_words::OVERRIDE_ALL_TIE) {
                out.push("Target: easiest");
            }
        } else if part.contains(step_words::PLAYERS) {
            out.push("Target: players' tie");
        }
    }
    // Several invalid targets are one step deciding.
    let mut seen = Vec::new();
    let mut k = from;
    while k < out.len() {
        if seen.contains(&out[k]) {
            out.remove(k);
        } else {
            seen.push(out[k]);
            k += 1;
        }
    }
}
