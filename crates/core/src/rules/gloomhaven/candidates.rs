//! The card halves a hero may play now, each with every end hex, target set and ally it allows:
//! the heroes' legal actions and the autopilot's options.

use super::actions::Action;
use super::heroes::{attack, foes_in_reach, movement, reach};
use super::scenario::{Condition, Effect};
use super::state::{FigureId, Half, Phase, State};
use crate::hex::{Hex, Terrain, distance, qr};

/// Every subset of `items` with at most `max` elements, the empty one first, each in `items` order.
fn subsets(items: &[Hex], max: usize) -> Vec<Vec<Hex>> {
    let mut out: Vec<Vec<Hex>> = vec![Vec::new()];
    for &x in items {
        let grown: Vec<Vec<Hex>> = out
            .iter()
            .filter(|v| v.len() < max)
            .map(|v| {
                let mut v = v.clone();
                v.push(x);
                v
            })
            .collect();
        out.extend(grown);
    }
    out.sort_by_key(|v| (v.len(), keys(v)));
    out
}

fn keys(v: &[Hex]) -> Vec<(i32, i32)> {
    v.iter().map(|h| qr(*h)).collect()
}

/// Candidate plays of the acting hero: every unplayed half of its two cards (printed or basic).
///
/// Each comes with every end hex its move allows, every set of foes its attack can reach from where
/// the attack is made, and every ally its heal can reach. The rules' `apply` has the last word on
/// each.
pub(crate) fn play_candidates(s: &State, hero: usize) -> Vec<Action> {
    let Some(sel) = s.heroes[hero].selected else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for card in sel {
        for half in [Half::Top, Half::Bottom] {
            for basic in [false, true] {
                out.extend(half_candidates(s, hero, card, half, basic));
            }
        }
    }
    out
}

/// The candidate plays of one half (see [`play_candidates`]); empty when the half may not be played
/// now.
pub(crate) fn half_candidates(
    s: &State,
    hero: usize,
    card: usize,
    half: Half,
    basic: bool,
) -> Vec<Action> {
    let Phase::HeroTurn { played, .. } = s.phase else {
        return Vec::new();
    };
    let x = &s.heroes[hero];
    let (Some(sel), None) = (x.selected, x.long_rest) else {
        return Vec::new();
    };
    if !sel.contains(&card) || played.is_some_and(|(pc, ph, _)| pc == card || ph == half) {
        return Vec::new();
    }
    let f = FigureId::Hero(hero);
    let mut out = Vec::new();
    let effects = s.half_effects(hero, card, half, basic);
    let start = x.hex;
    let mut moves: Vec<(Hex, Vec<Hex>)> = vec![(start, Vec::new())];
    if let Some((points, jump)) = movement(&effects)
        && !s.has(f, Condition::Immobilize)
    {
        moves.extend(reach(s, hero, points, jump));
    }
    let move_at = effects
        .iter()
        .position(|e| matches!(e, Effect::Move(_) | Effect::Jump(_)));
    let attack_at = effects
        .iter()
        .position(|e| matches!(e, Effect::Attack { .. }));
    let heal_range = effects.iter().find_map(|e| match e {
        Effect::Heal { range, .. } => Some(*range),
        _ => None,
    });
    let summon_at = effects.iter().position(|e| matches!(e, Effect::Summon(_)));
    for (end, path) in &moves {
        // An attack printed before the move is made from where the hero starts.
        let from = match (move_at, attack_at) {
            (Some(m), Some(a)) if a < m => start,
            _ => *end,
        };
        let target_sets = match attack(&effects) {
            Some((range, n)) if !s.has(f, Condition::Disarm) => {
                subsets(&foes_in_reach(s, from, range), n as usize)
            }
            _ => vec![Vec::new()],
        };
        let mut allies: Vec<Option<Hex>> = vec![None];
        if let Some(range) = heal_range {
            // The other characters, and the scenario's allies (summons are not healed).
            let mut others: Vec<Hex> = s
                .active_heroes()
                .filter(|&o| o != hero)
                .map(|o| s.heroes[o].hex)
                .chain(s.living_allies().map(|i| s.summons[i].hex))
                .filter(|h| distance(*end, *h) <= range)
                .collect();
            others.sort_by_key(|h| qr(*h));
            allies.extend(others.into_iter().map(Some));
        }
        if let Some(at) = summon_at {
            // Where the summon goes: an empty hex next to the hero when the summon happens.
            let from = match move_at {
                Some(m) if m < at => *end,
                _ => start,
            };
            let mut free = s.free_hexes_next_to(from);
            // The hero's own start hex is empty once it has moved away.
            if from != start
                && s.map.0.adjacent(from, start)
                && matches!(
                    s.map.0.terrain(start),
                    Some(Terrain::Floor | Terrain::Difficult | Terrain::Icy)
                )
            {
                free.push(start);
                free.sort_by_key(|h| qr(*h));
            }
            allies.extend(free.into_iter().map(Some));
        }
        for targets in &target_sets {
            for ally in &allies {
                out.push(Action::Play {
                    card,
                    half,
                    basic,
                    path: path.clone(),
                    targets: targets.clone(),
                    ally: *ally,
                });
            }
        }
    }
    out
}
