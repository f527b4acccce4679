//! Which Gloomhaven-family rules decided something in a game, read from the events: focus, ties,
//! elements, conditions, summons and spawns, loot, rests and exhaustion.

use super::Gloomhaven;
use super::actions::{Action, Cause, Event};
use super::state::State;
use crate::rules::coverage::Coverage;

/// Every rule counted, in the order the table lists them.
pub const RULES: &[&str] = &[
    "Monster focus",
    "No focus",
    "Focus tie to the players",
    "Summon focus",
    "Other tie to the players",
    "Element infused",
    "Element consumed",
    "Curse or bless shuffled in",
    "Condition gained",
    "Stunned",
    "Shield",
    "Heal",
    "Trap or hazard",
    "Summon",
    "Spawn",
    "Money looted",
    "Long rest",
    "Short rest",
    "Hero exhausted",
    "Door opened",
    "Room revealed",
];

impl Coverage for Gloomhaven {
    fn coverage_rules() -> &'static [&'static str] {
        RULES
    }

    fn fired(_after: &State, _action: &Action, events: &[Event], out: &mut Vec<&'static str>) {
        for e in events {
            match e {
                Event::FoeTargeted { focus, options, .. } => {
                    out.push(if focus.is_empty() {
                        "No focus"
                    } else {
                        "Monster focus"
                    });
                    if *options > 1 {
                        out.push("Focus tie to the players");
                    }
                }
                Event::SummonTargeted { .. } => out.push("Summon focus"),
                Event::DoorOpened { .. } => out.push("Door opened"),
                Event::RoomRevealed { .. } => out.push("Room revealed"),
                Event::TieToBreak { .. } => out.push("Other tie to the players"),
                Event::ElementInfused { .. } => out.push("Element infused"),
                Event::ElementConsumed { .. } => out.push("Element consumed"),
                Event::CardShuffledIn { .. } => out.push("Curse or bless shuffled in"),
                Event::ConditionGained { .. } => out.push("Condition gained"),
                Event::Stunned { .. } => out.push("Stunned"),
                Event::ShieldGained { .. } => out.push("Shield"),
                Event::Healed { .. } => out.push("Heal"),
                Event::Suffered {
                    cause: Cause::Trap | Cause::Hazard,
                    ..
                } => out.push("Trap or hazard"),
                Event::Summoned { .. } => out.push("Summon"),
                Event::Spawned { .. } => out.push("Spawn"),
                Event::MoneyLooted { .. } => out.push("Money looted"),
                Event::Rested { long: true, .. } => out.push("Long rest"),
                Event::Rested { long: false, .. } => out.push("Short rest"),
                Event::HeroExhausted { .. } => out.push("Hero exhausted"),
                _ => {}
            }
        }
    }

    fn claims(scenario: &Self::Scenario) -> Vec<String> {
        scenario.exercises.clone()
    }
}
