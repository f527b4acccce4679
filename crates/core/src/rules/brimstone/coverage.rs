//! Which rules of a Brimstone-style fight decided something in one applied action, by name.

use super::Brimstone;
use super::actions::{Action, Event, Figure};
use super::placement::Style;
use super::scenario::{RULES, Scenario};
use super::state::State;
use super::targeting::Behaviour;
use crate::rules::coverage::Coverage;

/// The coverage name of a behaviour's targeting.
const fn targeting(b: Behaviour) -> &'static str {
    match b {
        Behaviour::Melee => "target-melee",
        Behaviour::Ranged => "target-ranged",
        Behaviour::MeleeOrRanged => "target-melee-or-ranged",
        Behaviour::AcidBlob => "target-acid-blob",
        Behaviour::Shootout => "target-shootout",
        Behaviour::Support => "target-support",
    }
}

/// The coverage name of a group's ambush placement.
const fn ambush_style(s: Style) -> &'static str {
    match s {
        Style::Plain => "ambush-plain",
        Style::Shootout => "ambush-shootout",
        Style::Support => "ambush-support",
        Style::Immobile => "ambush-immobile",
    }
}

impl Coverage for Brimstone {
    fn coverage_rules() -> &'static [&'static str] {
        RULES
    }

    fn fired(after: &State, action: &Action, events: &[Event], out: &mut Vec<&'static str>) {
        // A placement fires its style once per group placed; the ambush event comes first.
        let mut ambush = false;
        let mut groups_placed: Vec<usize> = Vec::new();
        if let Action::Breath(_) = action {
            out.push("no-turn-choice");
        }
        for e in events {
            match e {
                Event::ThreatDrawn { .. } => out.push("threat-draw"),
                Event::Ambush { ends_turn, ended } => {
                    ambush = true;
                    out.push("ambush-initiative");
                    if ended.is_some() {
                        out.push("ambush-ends-turn");
                    } else if !ends_turn {
                        out.push("ambush-keeps-turn");
                    }
                }
                Event::Placed { model, at } => {
                    let group = after.models[*model].group;
                    if at.is_none() {
                        out.push("place-no-room");
                    } else if !groups_placed.contains(&group) {
                        groups_placed.push(group);
                        out.push(if ambush {
                            ambush_style(after.spec(group).style)
                        } else {
                            "place-normal"
                        });
                    }
                }
                Event::Rolled { what, .. } => match *what {
                    "lurk" => out.push("lurk-roll"),
                    "retreat" => out.push("shootout-retreat"),
                    "healing" => out.push("healing-roll"),
                    _ => {}
                },
                Event::Initiative { .. } => out.push("variable-initiative"),
                Event::Targeted {
                    behaviour,
                    even_distribution,
                    moved_away,
                    ..
                } => {
                    out.push(targeting(*behaviour));
                    if *even_distribution {
                        out.push("even-distribution");
                    }
                    if *moved_away {
                        out.push("support-moves-away");
                    }
                }
                Event::Attacks {
                    by, ranged, free, ..
                } => match by {
                    Figure::Hero(_) if *free => out.push("free-attack"),
                    Figure::Hero(_) if *ranged => out.push("hero-shot"),
                    Figure::Hero(_) => out.push("hero-melee"),
                    Figure::Model(m) => {
                        if *ranged
                            && after.spec(after.models[*m].group).behaviour == Behaviour::Shootout
                        {
                            out.push("shootout-marker");
                        }
                    }
                },
                Event::Wounded { splash: true, .. } => out.push("splash"),
                Event::Killed { splash, .. } => {
                    out.push("kill-xp");
                    if *splash {
                        out.push("splash-kill");
                    }
                }
                Event::KnockedOut(_) => out.push("knocked-out"),
                Event::GritGained(_) => out.push("grit"),
                Event::Looted { .. } => out.push("loot-draw"),
                Event::Over { won: false, .. } if !after.lost() => out.push("round-limit"),
                _ => {}
            }
        }
    }

    fn claims(scenario: &Scenario) -> Vec<String> {
        scenario.file.exercises.clone()
    }
}
