//! Which Brimstone-style rules decided something in a fight, read from the events.

use super::Brimstone;
use super::actions::{Action, Event, Figure};
use super::state::State;
use crate::game::coverage::Coverage;

/// Every rule counted, in the order the table lists them.
pub const RULES: &[&str] = &[
    "Ambush",
    "Ambush ends the turn",
    "Variable initiative",
    "Enemy melee",
    "Enemy shot",
    "Hero melee",
    "Hero shot",
    "Model killed",
    "Hero knocked out",
    "Healing",
    "Grit",
    "Loot drawn",
];

impl Coverage for Brimstone {
    fn coverage_rules() -> &'static [&'static str] {
        RULES
    }

    fn fired(_after: &State, _action: &Action, events: &[Event], out: &mut Vec<&'static str>) {
        for e in events {
            match e {
                Event::Ambush { ends_turn } => {
                    out.push("Ambush");
                    if *ends_turn {
                        out.push("Ambush ends the turn");
                    }
                }
                Event::Initiative { .. } => out.push("Variable initiative"),
                Event::Attacks { by, ranged, .. } => out.push(match (by, ranged) {
                    (Figure::Model(_), false) => "Enemy melee",
                    (Figure::Model(_), true) => "Enemy shot",
                    (Figure::Hero(_), false) => "Hero melee",
                    (Figure::Hero(_), true) => "Hero shot",
                }),
                Event::Killed { .. } => out.push("Model killed"),
                Event::KnockedOut(_) => out.push("Hero knocked out"),
                Event::Healed { .. } => out.push("Healing"),
                Event::GritGained(_) => out.push("Grit"),
                Event::Looted { .. } => out.push("Loot drawn"),
                _ => {}
            }
        }
    }

    /// The scenario files claim no rules yet: coverage only counts them.
    fn claims(_scenario: &Self::Scenario) -> Vec<String> {
        Vec::new()
    }
}
