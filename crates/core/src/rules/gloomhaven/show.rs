//! Gloomhaven events as the table's module-free cues, and the cell each action is about.
//!
//! The cues: a foe's focus with the rule steps that chose it, the path a figure walks hex by hex,
//! the modifier cards drawn, damage, conditions, healing and deaths, doors opened, rooms
//! revealed, special rules and bosses' specials.

use super::actions::{Action, Cause, Event};
use super::state::{FigureId, Pending, State};
use super::{log, table_id};
use crate::hex::qr;
use crate::rules::view::{CellKey, Show};

/// The cues of one action's events; `before` is the state the action was applied to.
pub fn shows(before: &State, after: &State, events: &[Event]) -> Vec<Show> {
    let mut out = Vec::new();
    for e in events {
        match e {
            Event::FoeTargeted {
                monster,
                focus,
                trace,
                ..
            } => focus_cues(after, FigureId::Monster(*monster), focus, trace, &mut out),
            Event::SummonTargeted {
                summon,
                focus,
                trace,
                ..
            } => focus_cues(after, FigureId::Summon(*summon), focus, trace, &mut out),
            Event::PathChosen { figure, path } => {
                let id = table_id(*figure);
                // Where the figure stood before this action: the first step starts there.
                let mut from = qr(before.hex_of(*figure));
                for &h in path {
                    out.push(Show::Step {
                        figure: id,
                        from,
                        to: qr(h),
                    });
                    from = qr(h);
                }
            }
            Event::CardsDrawn {
                attacker,
                target,
                mode,
                cards,
            } => {
                out.push(Show::Aim {
                    by: table_id(*attacker),
                    at: vec![table_id(*target)],
                });
                out.push(Show::Over {
                    figure: table_id(*attacker),
                    text: format!("draws {}{}", cards.join(", "), log::mode_words(*mode)),
                    harm: false,
                });
            }
            Event::AttackResolved { target, damage, .. } => out.push(Show::Over {
                figure: table_id(*target),
                text: format!("−{damage}"),
                harm: true,
            }),
            Event::Suffered {
                figure,
                amount,
                cause,
            } => out.push(Show::Over {
                figure: table_id(*figure),
                text: format!(
                    "−{amount} {}",
                    match cause {
                        Cause::Wound => "wound",
                        Cause::Trap => "trap",
                        Cause::Hazard => "hazard",
                        Cause::Treasure => "trapped",
                        Cause::Retaliate(_) => "retaliate",
                        Cause::Special(_) => "rule",
                    }
                ),
                harm: true,
            }),
            Event::Healed { figure, amount } => out.push(Show::Over {
                figure: table_id(*figure),
                text: format!("+{amount}"),
                harm: false,
            }),
            Event::ConditionGained { figure, condition } => out.push(Show::Over {
                figure: table_id(*figure),
                text: condition.name().to_string(),
                harm: true,
            }),
            // The rooms and the scenario's own rules, over the figures they are about.
            Event::DoorOpened { hero: Some(h), .. } => out.push(Show::Over {
                figure: table_id(FigureId::Hero(*h)),
                text: "opens the door".into(),
                harm: false,
            }),
            Event::RoomRevealed { monsters, .. } => {
                out.extend(monsters.iter().map(|&m| Show::Over {
                    figure: table_id(FigureId::Monster(m)),
                    text: "revealed".into(),
                    harm: true,
                }));
            }
            Event::RuleSpawned { monster, .. } => out.push(Show::Over {
                figure: table_id(FigureId::Monster(*monster)),
                text: "appears".into(),
                harm: true,
            }),
            Event::SpecialRule { rule, by: Some(f) } => out.push(Show::Over {
                figure: table_id(*f),
                text: after.scenario.special_rules[*rule].name.clone(),
                harm: false,
            }),
            Event::BossSpecial { monster, special } => out.push(Show::Over {
                figure: table_id(FigureId::Monster(*monster)),
                text: format!("special {special}"),
                harm: true,
            }),
            Event::FigureDied { figure, .. } => out.push(Show::Over {
                figure: table_id(*figure),
                text: "falls".into(),
                harm: true,
            }),
            _ => {}
        }
    }
    out
}

/// A foe's (or summon's) focus: the aim at it, and the rule steps that chose it as its option walk.
fn focus_cues(s: &State, who: FigureId, focus: &[FigureId], trace: &[String], out: &mut Vec<Show>) {
    if !focus.is_empty() {
        out.push(Show::Aim {
            by: table_id(who),
            at: focus.iter().map(|&f| table_id(f)).collect(),
        });
    }
    out.push(Show::Walk {
        who: s.name(who),
        lines: trace.to_vec(),
        chosen: None,
    });
}

/// The cell an action is about: where a hero's move ends, else the first hex it attacks or the
/// ally it heals; where a foe's tied option ends.
pub fn action_cell(s: &State, a: &Action) -> Option<CellKey> {
    match a {
        Action::Play {
            path,
            targets,
            ally,
            ..
        } => path
            .last()
            .or(targets.first())
            .or(ally.as_ref())
            .map(|h| qr(*h)),
        Action::Choose(i) => match &s.pending {
            Some(Pending::FoeOption { options, .. } | Pending::SummonOption { options, .. }) => {
                options.get(*i).map(|o| qr(o.end))
            }
            _ => None,
        },
        Action::Advance
        | Action::Arrange(_)
        | Action::SelectCards { .. }
        | Action::LongRest { .. }
        | Action::ShortRest { .. }
        | Action::ChooseByDice
        | Action::Draw(_)
        | Action::Setup(_) => None,
    }
}
