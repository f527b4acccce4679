//! What the toy's coverage counts: its four rules, read off the events of each action.

use super::{Action, Event, Scenario, State, Toy, Who};
use crate::rules::coverage::Coverage;

const STEP: &str = "the foe steps closer";
const TIE: &str = "the foe's step is a tie";
const FOE_STRIKES: &str = "the foe strikes";
const HERO_STRIKES: &str = "the hero strikes";

impl Coverage for Toy {
    fn coverage_rules() -> &'static [&'static str] {
        &[STEP, TIE, FOE_STRIKES, HERO_STRIKES]
    }

    fn fired(_after: &State, _action: &Action, events: &[Event], out: &mut Vec<&'static str>) {
        for e in events {
            match e {
                Event::Stepped { who: Who::Foe, .. } => out.push(STEP),
                Event::TieOffered { .. } => out.push(TIE),
                Event::Struck { who: Who::Foe, .. } => out.push(FOE_STRIKES),
                Event::Struck { who: Who::Hero, .. } => out.push(HERO_STRIKES),
                _ => {}
            }
        }
    }

    fn claims(scenario: &Scenario) -> Vec<String> {
        scenario.exercises.clone()
    }
}
