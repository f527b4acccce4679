//! The log lines of a goal-priority game, one per event, the foes' option walks included.

use super::actions::{Event, Fig, Roll};
use super::case::outcome_words;
use super::state::State;

fn at(p: (i32, i32)) -> String {
    format!("({}, {})", p.0, p.1)
}

/// The readable line of an event.
pub fn describe(s: &State, e: &Event) -> Option<String> {
    let name = |f: Fig| s.name(f).to_string();
    let hero = |h: usize| name(Fig::Hero(h));
    let foe = |f: usize| name(Fig::Foe(f));
    let file = s.file();
    Some(match e {
        Event::Arranged { moved, taken_off } => {
            format!(
                "{}.",
                crate::rules::lab::arranged_line(*moved, taken_off, 0, "")
            )
        }
        Event::RoundBegins { round } => format!("— round {round} —"),
        Event::CardDrawn { card, left } => format!(
            "Override card: {} ({left} left in the deck).",
            file.override_deck[*card].words()
        ),
        Event::Moved {
            hero: h,
            to,
            points,
        } => {
            format!("{} moves to {} ({points} points).", hero(*h), at(*to))
        }
        Event::Hid { hero: h, dome } => {
            format!("{} steps into the Dome at {}.", hero(*h), at(*dome))
        }
        Event::Attacks {
            attacker,
            defender,
            ranged,
            chance,
        } => format!(
            "{} {} {} (hit chance {chance:+}).",
            name(*attacker),
            match ranged.as_deref() {
                None => "strikes".to_string(),
                Some("") => "shoots".to_string(),
                Some(w) => format!("shoots with {w} at"),
            },
            name(*defender)
        ),
        Event::Rolled { roll, die, success } => {
            let what = match roll {
                Roll::Hit { .. } => {
                    if *success {
                        "a hit"
                    } else {
                        "a miss"
                    }
                }
                Roll::Wound { .. } => {
                    if *success {
                        "it wounds"
                    } else {
                        "the armor holds"
                    }
                }
                Roll::Explore { .. } => {
                    if *success {
                        "explored"
                    } else {
                        "not this time"
                    }
                }
            };
            format!("  die {die}: {what}.")
        }
        Event::Wounded { fig, left } => format!("{} is wounded ({left} left).", name(*fig)),
        Event::Out { fig } => format!("{} is out of the game.", name(*fig)),
        Event::Dropped { hex, gold, cards } => {
            format!("Loot falls at {}: {gold} gold, {cards} cards.", at(*hex))
        }
        Event::PickedUp {
            hero: h,
            gold,
            cards,
        } => format!("{} picks up {gold} gold and {cards} cards.", hero(*h)),
        Event::Traded { from, to } => format!("{} hands its loot to {}.", hero(*from), hero(*to)),
        Event::SlippedAway { hero: h, foe: f } => {
            format!("{} slips away past {}.", hero(*h), foe(*f))
        }
        Event::Explores { hero: h, adventure } => format!(
            "{} explores {} (die + Wits {} against {}).",
            hero(*h),
            file.adventures[*adventure].name,
            file.heroes[*h].wits,
            file.adventures[*adventure].difficulty
        ),
        Event::SpentCard { hero: h } => format!("{} spends a card (+2).", hero(*h)),
        Event::Explored { adventure } => {
            format!("The heroes explore {}.", file.adventures[*adventure].name)
        }
        Event::Ends { hero: h } => format!("{} ends its turn.", hero(*h)),
        Event::Decided {
            foe: f,
            trace,
            options,
        } => format!(
            "{} walks its options: {}{}",
            foe(*f),
            // Several outcomes: the walk's last line counts them already.
            trace
                .join(" ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
            match options {
                0 => " (no outcome).",
                1 => " (1 outcome).",
                _ => "",
            }
        ),
        Event::TieOffered { foe: f, options } => format!(
            "{} leaves the players a choice: {}",
            foe(*f),
            // The ends named by who and what is around them, as the tie's buttons do.
            super::tie_words(s, options)
                .iter()
                .enumerate()
                .map(|(i, words)| format!("[{}] {words}", i + 1))
                .collect::<Vec<_>>()
                .join("; ")
        ),
        Event::Acts { foe: f, outcome } => format!("{}: {}", foe(*f), outcome_words(outcome)),
        Event::Stays { foe: f } => format!("{} finds no option and stays.", foe(*f)),
        Event::Used { foe: f, special } => format!("{} uses {special}.", foe(*f)),
        Event::Unleashed { foe: f, minion } => {
            format!("{} unleashes {}.", foe(*f), foe(*minion))
        }
        Event::PushedBack { foe: f, to } => format!("{} goes back to {}.", foe(*f), at(*to)),
        Event::Trapped { hero: h } => format!("{} is trapped on its Dome key.", hero(*h)),
        Event::Healed { foe: f } => format!("{} heals a wound.", foe(*f)),
        Event::Took {
            foe: f,
            gold,
            cards,
        } => format!("{} takes {gold} gold and {cards} cards.", foe(*f)),
        Event::Captured { adventure } => {
            format!("The foes capture {}.", file.adventures[*adventure].name)
        }
        Event::Over { won, why } => format!("{}: {why}.", if *won { "Victory" } else { "Defeat" }),
    })
}
