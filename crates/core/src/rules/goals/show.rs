//! What the goal-priority table shows beside the board.
//!
//! The round's override card, the odds of the roll waiting for its die, and for a moment what each
//! action did (a foe's option walk with the option it took, aims, steps, dice, wounds).

use super::FOE_BASE;
use super::actions::{Event, Fig, Roll};
use super::scenario::Qr;
use super::situation::{GoalOption, Outcome};
use super::state::{AdventureState, State};
use super::turn::DIE;
use crate::modifiers::fraction::Fraction;
use crate::rules::view::{Odds, Panel, Show, WholeAttack};

/// A figure's table id.
fn id(fig: Fig) -> u32 {
    match fig {
        Fig::Hero(h) => h as u32,
        Fig::Foe(f) => FOE_BASE + f as u32,
    }
}

/// The scenario's goal and the score, then the round's override card, in view all game.
pub fn panels(s: &State) -> Vec<Panel> {
    vec![goal(s), override_card(s)]
}

/// What each side needs to win, how far it got, and each adventure by name with who closed it.
fn goal(s: &State) -> Panel {
    let file = s.file();
    let count = |w: AdventureState| s.adventures.iter().filter(|a| **a == w).count();
    let mut lines = vec![
        format!(
            "Heroes: {} of {} adventures explored",
            count(AdventureState::Explored),
            file.explore_to_win
        ),
        format!(
            "Foes: {} of {} adventures captured",
            count(AdventureState::Captured),
            file.captures_to_lose
        ),
        format!("The heroes lose when round {} ends", file.round_limit),
    ];
    for (spec, state) in file.adventures.iter().zip(&s.adventures) {
        let how = match state {
            AdventureState::Open if spec.foes_use => {
                format!("open, explored on {}+, the foes go for it", spec.difficulty)
            }
            AdventureState::Open => format!("open, explored on {}+", spec.difficulty),
            AdventureState::Explored => "explored".into(),
            AdventureState::Captured => "captured".into(),
        };
        lines.push(format!("{}: {how}", spec.name));
    }
    Panel {
        title: "The goal".into(),
        lines,
    }
}

/// The round's override card, in view all round.
fn override_card(s: &State) -> Panel {
    let file = s.file();
    let lines = match s.card {
        Some(c) => vec![
            format!("Choose Target picks the {}", file.override_deck[c].words()),
            format!("{} left in the deck", s.deck.len()),
        ],
        None => vec![format!("to draw ({} in the deck)", s.deck.len())],
    };
    Panel {
        title: "Override card".into(),
        lines,
    }
}

/// What a roll is for, in a few words.
fn roll_words(s: &State, roll: &Roll) -> String {
    match *roll {
        Roll::Hit {
            attacker, defender, ..
        } => format!("{} attacks {}", s.name(attacker), s.name(defender)),
        Roll::Wound { defender } => format!("does the hit wound {}?", s.name(defender)),
        Roll::Explore {
            hero, adventure, ..
        } => format!(
            "{} explores {}",
            s.name(Fig::Hero(hero)),
            s.file().adventures[adventure].name
        ),
    }
}

/// The chance that the roll waiting for its die succeeds: one die, 0 or 1 success.
pub fn odds(s: &State) -> Option<Odds> {
    let roll = s.rolls.first()?;
    let needed = s.needed(roll);
    let sides = u128::from(DIE);
    let succeed = (sides + 1).saturating_sub(u128::from(needed)).min(sides);
    Some(Odds {
        what: roll_words(s, roll),
        sides: u32::from(DIE),
        needed: u32::from(needed),
        chances: vec![
            Fraction::new(sides - succeed, sides),
            Fraction::new(succeed, sides),
        ],
        rolled: Vec::new(),
        whole: whole(s, roll),
    })
}

/// A strike as a whole: its hit roll, then the wound roll a hit brings (one wound at most).
fn whole(s: &State, roll: &Roll) -> Option<WholeAttack> {
    let Roll::Hit { defender, .. } = *roll else {
        return None;
    };
    let sides = u128::from(DIE);
    let chance = |r: &Roll| {
        let needed = u128::from(s.needed(r));
        Fraction::new((sides + 1).saturating_sub(needed).min(sides), sides)
    };
    let wounds = chance(roll) * chance(&Roll::Wound { defender });
    Some(WholeAttack {
        what: format!(
            "wounds to {}: the hit, then a die over its Armor",
            s.name(defender)
        ),
        wounds: vec![
            Fraction::new(
                wounds.denominator() - wounds.numerator(),
                wounds.denominator(),
            ),
            wounds,
        ],
    })
}

/// The line of a foe's walk that names the option it took: the last "Option N" line, or the
/// Melee step's or reaction shot's line.
fn chosen_line(trace: &[String]) -> Option<usize> {
    trace.iter().rposition(|l| {
        let l = l.trim_start();
        l.starts_with("Option ")
            || l.contains(": Option ")
            || l.starts_with("Melee step")
            || l.starts_with("Reaction shot")
    })
}

/// The hexes foe `f` walks through to carry out `o`, from where it stood: a Slip Away first
/// switches places with its hero, then shifts; an unleashed minion leaves its foe where it is.
fn foe_walk(before: &State, f: usize, o: &Outcome) -> Vec<Qr> {
    let Some(start) = before.foes.get(f).map(|foe| foe.hex) else {
        return Vec::new();
    };
    let end = (o.end.x, o.end.y);
    if o.option == GoalOption::Unleash || end == start {
        return Vec::new();
    }
    let swapped = o.swap.as_deref().and_then(|n| before.hero_named(n));
    let Some(h) = swapped else {
        return before.walked(f, start, end);
    };
    // The shift is walked with the hero already on the foe's old hex, as it is carried out.
    let mut during = before.clone();
    let at = during.heroes[h].hex;
    during.heroes[h].hex = start;
    let mut path = vec![start];
    path.extend(during.walked(f, at, end));
    path
}

/// What the events of one action show for a moment.
pub fn shows(before: &State, after: &State, events: &[Event]) -> Vec<Show> {
    let hero_named =
        |name: &str| (0..after.heroes.len()).find(|&h| after.file().heroes[h].name == name);
    let mut out = Vec::new();
    for e in events {
        match e {
            Event::Decided { foe, trace, .. } => out.push(Show::Walk {
                who: after.foe_name(*foe).to_string(),
                lines: trace.clone(),
                chosen: chosen_line(trace),
            }),
            Event::Acts { foe, outcome } => {
                if let Some(target) = outcome.target.as_deref().and_then(hero_named) {
                    out.push(Show::Aim {
                        by: id(Fig::Foe(*foe)),
                        at: vec![target as u32],
                    });
                }
                let walk = foe_walk(before, *foe, outcome);
                for (from, to) in walk.iter().zip(walk.iter().skip(1)) {
                    out.push(Show::Step {
                        figure: id(Fig::Foe(*foe)),
                        from: *from,
                        to: *to,
                    });
                }
            }
            Event::Moved { hero, to, .. } => {
                if let Some(from) = before.heroes.get(*hero).map(|h| h.hex) {
                    let walk = before.hero_walked(from, *to);
                    for (from, to) in walk.iter().zip(walk.iter().skip(1)) {
                        out.push(Show::Step {
                            figure: id(Fig::Hero(*hero)),
                            from: *from,
                            to: *to,
                        });
                    }
                }
            }
            Event::Attacks {
                attacker, defender, ..
            } => {
                out.push(Show::Aim {
                    by: id(*attacker),
                    at: vec![id(*defender)],
                });
                out.push(Show::Roll {
                    what: format!(
                        "{} attacks {}",
                        after.name(*attacker),
                        after.name(*defender)
                    ),
                });
            }
            Event::Explores { hero, adventure } => out.push(Show::Roll {
                what: format!(
                    "{} explores {}",
                    after.name(Fig::Hero(*hero)),
                    after.file().adventures[*adventure].name
                ),
            }),
            Event::Rolled { roll, die, .. } => out.push(Show::Die {
                what: roll_words(before, roll),
                sides: u32::from(DIE),
                roll: u32::from(*die),
                needed: u32::from(before.needed(roll)),
            }),
            Event::Wounded { fig, .. } => out.push(Show::Over {
                figure: id(*fig),
                text: "-1".into(),
                harm: true,
            }),
            Event::Out { fig } => out.push(Show::Over {
                figure: id(*fig),
                text: "out".into(),
                harm: true,
            }),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chosen_line_is_the_last_option_named() {
        let trace: Vec<String> = [
            "Gravel Knight acts from (18, -8), Attack goal.",
            "Option 1: no ranged weapon.",
            "Option 5: on to the Adventure goal.",
            "Adventure: heads for (11, -4).",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(chosen_line(&trace), Some(2));
        assert_eq!(chosen_line(&trace[..1]), None);
    }
}
