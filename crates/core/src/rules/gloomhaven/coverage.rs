//! Which Gloomhaven-family rules decided something in a game, read from its events.
//!
//! Focus, ties, elements, conditions, summons and spawns, loot and treasure, rests and exhaustion,
//! doors, and the goal met.

use super::Gloomhaven;
use super::actions::{Action, Cause, Event};
use super::scenario::Victory;
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
    "Retaliate",
    "Summon",
    "Spawn",
    "Money looted",
    "Long rest",
    "Short rest",
    "Hero exhausted",
    "Door opened",
    "Room revealed",
    "Treasure looted",
    "Hero escaped",
    "Objective: every foe",
    "Objective: kill",
    "Objective: loot",
    "Objective: escape",
    "Objective: survive",
    "Objective: destroy",
    "Objective: protect",
    "Ally turn",
    "Defeat: ally dead",
    "Defeat: round limit",
    "Defeat: special rule",
    "Boss special",
    "Special rule: door opened",
    "Special rule: round starts",
    "Special rule: round ends",
    "Special rule: character enters",
    "Special rule: monster enters",
    "Special rule: monster dies",
    "Special rule: room cleared",
];

/// The coverage row of a goal met.
fn objective(v: &Victory) -> &'static str {
    match v {
        Victory::AllFoesDead => "Objective: every foe",
        Victory::Kill(_) => "Objective: kill",
        Victory::Loot(_) => "Objective: loot",
        Victory::Escape => "Objective: escape",
        Victory::Survive(_) => "Objective: survive",
        Victory::Destroy => "Objective: destroy",
        Victory::Protect(_) => "Objective: protect",
    }
}

impl Coverage for Gloomhaven {
    fn coverage_rules() -> &'static [&'static str] {
        RULES
    }

    fn fired(after: &State, _action: &Action, events: &[Event], out: &mut Vec<&'static str>) {
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
                Event::SummonTargeted { summon, .. } => {
                    out.push(if after.summons[*summon].ally.is_some() {
                        "Ally turn"
                    } else {
                        "Summon focus"
                    });
                }
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
                Event::Suffered {
                    cause: Cause::Retaliate(_),
                    ..
                } => out.push("Retaliate"),
                Event::Summoned { .. } => out.push("Summon"),
                Event::Spawned { .. } => out.push("Spawn"),
                Event::MoneyLooted { .. } => out.push("Money looted"),
                Event::Rested { long: true, .. } => out.push("Long rest"),
                Event::Rested { long: false, .. } => out.push("Short rest"),
                Event::HeroExhausted { .. } => out.push("Hero exhausted"),
                Event::TreasureLooted { .. } => out.push("Treasure looted"),
                Event::HeroEscaped { .. } => out.push("Hero escaped"),
                Event::Victory => out.push(objective(after.victory())),
                // With a character still standing, the scenario is lost to a special rule or to
                // the round limit (which ends the game before any rule of its round's end).
                Event::Defeat { .. }
                    if after.protected_allies().any(|i| !after.summons[i].alive) =>
                {
                    out.push("Defeat: ally dead");
                }
                Event::Defeat { .. } if after.active_heroes().next().is_some() => {
                    out.push(
                        if events
                            .iter()
                            .any(|e| matches!(e, Event::SpecialRule { .. }))
                        {
                            "Defeat: special rule"
                        } else {
                            "Defeat: round limit"
                        },
                    );
                }
                Event::BossSpecial { .. } => out.push("Boss special"),
                Event::SpecialRule { rule, .. } => {
                    out.push(after.scenario.special_rules[*rule].when.kind());
                }
                _ => {}
            }
        }
    }

    fn claims(scenario: &Self::Scenario) -> Vec<String> {
        scenario.exercises.clone()
    }
}
