//! The hero autopilot of a goal-priority game: always one of the hero's legal actions.

use super::actions::{Action, Fig};
use super::state::{AdventureState, Phase, State};
use crate::hex::{distance, hex};

/// How far `p` is from the nearest open adventure space no foe and no other hero holds (hex
/// count), if any.
fn to_adventure(s: &State, h: usize, p: (i32, i32)) -> Option<u32> {
    let from = hex(p.0, p.1);
    s.scenario
        .layout
        .adventures
        .iter()
        .enumerate()
        .filter(|(a, _)| s.adventures[*a] == AdventureState::Open)
        .flat_map(|(_, spaces)| spaces.iter())
        .filter(|x| {
            let q = (x.x, x.y);
            s.foe_at(q).is_none() && s.hero_at(q).is_none_or(|o| o == h)
        })
        .map(|x| distance(from, *x))
        .min()
}

/// What the autopilot does for hero `h` now, among its legal actions.
pub fn next_action(s: &State, h: usize) -> Option<Action> {
    let Phase::Hero { hero, moved } = s.phase else {
        return None;
    };
    if hero != h || s.tie.is_some() || !s.rolls.is_empty() {
        return None;
    }
    let legal = s.hero_actions(h, moved);
    if legal.contains(&Action::Explore) {
        return Some(Action::Explore);
    }
    if legal.contains(&Action::PickUp) {
        return Some(Action::PickUp);
    }
    // The attack with the best hit chance, if it is not hopeless.
    let spec = &s.file().heroes[h];
    let bonus = s.aura_bonus(Fig::Hero(h));
    let best = legal
        .iter()
        .filter_map(|a| match *a {
            Action::Melee(f) => Some((spec.melee - s.defence(Fig::Foe(f), false) + bonus, a)),
            Action::Shoot(f) => Some((spec.aim - s.defence(Fig::Foe(f), true) + bonus, a)),
            _ => None,
        })
        .max_by_key(|(chance, _)| *chance);
    if let Some((chance, a)) = best
        && chance >= -1
    {
        return Some(a.clone());
    }
    if !moved {
        let here = to_adventure(s, h, s.heroes[h].hex);
        // The move that gets nearest an open adventure, the first in board order when several do.
        let step = legal
            .iter()
            .filter_map(|a| match a {
                Action::Move(p) => to_adventure(s, h, *p).map(|d| (d, a)),
                _ => None,
            })
            .min_by_key(|(d, _)| *d);
        if let (Some((d, a)), Some(now)) = (step, here)
            && d < now
        {
            return Some(a.clone());
        }
    }
    legal.last().cloned()
}
