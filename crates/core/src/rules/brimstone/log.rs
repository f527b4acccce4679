//! The readable log line of each event of a Brimstone-style fight.

use super::actions::{Actor, Event, Figure};
use super::square_name;
use super::state::State;

/// A figure's name.
pub(crate) fn figure_name(s: &State, f: Figure) -> String {
    match f {
        Figure::Hero(h) => s.hero_name(h).to_string(),
        Figure::Model(m) => s.models[m].name.clone(),
    }
}

/// The log line of an event.
pub fn describe(s: &State, e: &Event) -> Option<String> {
    Some(match e {
        Event::Arranged { moved, taken_off } => {
            crate::rules::lab::arranged_line(*moved, taken_off, 0, "")
        }
        Event::Rule(line) => format!("  · {line}"),
        Event::ThreatDrawn { card } => {
            let card = &s.scenario.file.threats[*card];
            let groups: Vec<String> = card
                .groups
                .iter()
                .map(|g| format!("{} × {}", g.count, g.name))
                .collect();
            format!("threat: {} ({})", card.name, groups.join(", "))
        }
        Event::Ambush { ends_turn, ended } => format!(
            "ambush! the enemies get +2 initiative in their first round{}",
            match (ended, ends_turn) {
                (Some(h), _) => format!(" and {}'s turn ends at once", s.hero_name(*h)),
                (None, true) => " (no turn was under way to end)".to_string(),
                (None, false) => ", sprung before anyone moved: no turn ends".to_string(),
            }
        ),
        Event::Lurking => "nothing stirs in the dark yet".to_string(),
        Event::Targeted {
            model, behaviour, ..
        } => format!(
            "{} has chosen as a {behaviour:?} enemy does",
            s.models[*model].name
        ),
        Event::Placed { model, at } => match at {
            Some(at) => format!(
                "{} is placed on {}",
                s.models[*model].name,
                square_name(*at)
            ),
            None => format!(
                "{} finds no room and stays off the board",
                s.models[*model].name
            ),
        },
        Event::Round(n) => format!("— round {n} —"),
        Event::Initiative { group, roll } => {
            format!("{} rolls {roll} for initiative", s.spec(*group).name)
        }
        Event::Turn(Actor::Hero(h)) => format!("{}'s turn", s.hero_name(*h)),
        Event::Turn(Actor::Group(g)) => {
            // Our enemy names take a plain "s"; one model left acts alone.
            let standing = s
                .models
                .iter()
                .filter(|m| m.group == *g && !m.dead && m.at.is_some())
                .count();
            let name = &s.spec(*g).name;
            if standing == 1 {
                format!("the {name} acts")
            } else {
                format!("the {name}s act")
            }
        }
        Event::Chose { option } => format!("the table picks: {option}"),
        Event::Drew { option } => format!("drawn at random: {option}"),
        Event::Rolled { what, roll, needed } if *needed > 1 => {
            format!("{what} roll: {roll} (needs {needed}+)")
        }
        Event::Rolled { what, roll, .. } => format!("{what} roll: {roll}"),
        Event::Moved { figure, from, to } => format!(
            "{} moves from {} to {}",
            figure_name(s, *figure),
            square_name(*from),
            square_name(*to)
        ),
        Event::Attacks {
            by,
            on,
            ranged,
            free,
        } => {
            let on: Vec<String> = on.iter().map(|&f| figure_name(s, f)).collect();
            format!(
                "{} {} {}",
                figure_name(s, *by),
                match (ranged, free) {
                    (true, _) => "shoots at",
                    (false, true) => "makes a free attack on",
                    (false, false) => "attacks",
                },
                super::join_names(&on)
            )
        }
        Event::Wounded {
            figure,
            amount,
            splash,
        } => {
            let wounds = if *amount == 1 { "wound" } else { "wounds" };
            let splash = if *splash { " of splash damage" } else { "" };
            format!(
                "{} takes {amount} {wounds}{splash}",
                figure_name(s, *figure)
            )
        }
        Event::Killed {
            model,
            by,
            xp,
            splash,
        } => format!(
            "{} is killed by {}{} (+{xp} XP)",
            s.models[*model].name,
            s.hero_name(*by),
            if *splash { "'s splash damage" } else { "" }
        ),
        Event::KnockedOut(h) => format!("{} is knocked out", s.hero_name(*h)),
        Event::TurnEnded(h) => format!("{} ends the turn", s.hero_name(*h)),
        Event::Healed { hero, amount: 0 } => format!(
            "{} catches their breath: nothing to heal",
            s.hero_name(*hero)
        ),
        Event::Healed { hero, amount } => {
            format!(
                "{} catches their breath and heals {amount}",
                s.hero_name(*hero)
            )
        }
        Event::GritGained(h) => format!(
            "{} catches their breath and recovers 1 Grit",
            s.hero_name(*h)
        ),
        Event::Looted { hero, card } => {
            format!(
                "{} draws loot: {}",
                s.hero_name(*hero),
                s.scenario.file.loot[*card]
            )
        }
        Event::Over { won, why } => format!("{}: {why}", if *won { "victory" } else { "defeat" }),
    })
}
