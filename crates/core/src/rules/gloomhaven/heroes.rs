//! A hero's options on its turn: move ends, attack targets, and the card halves it may play.
//!
//! Where a move can end comes with one cheapest path each. The table's highlights and the legal
//! actions both come from here.

use super::actions::Action;
use super::movement::{Mode, MoveGraph, Occupant, UNREACHABLE};
use super::scenario::{Condition, Effect};
use super::state::{FigureId, Half, Phase, State};
use crate::hex::sight::Sight;
use crate::hex::{Hex, distance, qr};

/// Hexes a hero can end a move of `points` on, each with one cheapest path (hexes entered), in
/// `(q, r)` order of the end hex.
pub fn reach(s: &State, hero: usize, points: u32, jump: bool) -> Vec<(Hex, Vec<Hex>)> {
    let map = &s.map.0;
    let Some(start) = map.index_of(s.heroes[hero].hex) else {
        return Vec::new();
    };
    let occupants: Vec<Occupant> = (0..map.len())
        .map(|i| match s.figure_at(map.hex_at(i)) {
            Some(FigureId::Hero(h)) if h == hero => Occupant::Myself,
            Some(FigureId::Hero(_)) => Occupant::Ally,
            Some(FigureId::Monster(_)) => Occupant::Enemy,
            None => Occupant::Empty,
        })
        .collect();
    let graph = MoveGraph::new(
        map,
        &occupants,
        Mode {
            flying: false,
            jumping: jump,
            teleport: false,
        },
    );
    let budget = points.min(u16::MAX as u32) as u16;
    let scores = graph.within(start as usize, budget);
    let mut out = Vec::new();
    for (i, &score) in scores.iter().enumerate() {
        if i == start as usize || score == UNREACHABLE || !graph.endable[i] {
            continue;
        }
        let path = graph
            .path(start as usize, i, score)
            .into_iter()
            .map(|j| map.hex_at(j))
            .collect();
        out.push((map.hex_at(i), path));
    }
    out.sort_by_key(|(h, _)| qr(*h));
    out
}

/// Movement points of a half and whether it jumps.
pub fn movement(effects: &[Effect]) -> Option<(u32, bool)> {
    effects.iter().find_map(|e| match e {
        Effect::Move(n) => Some((*n, false)),
        Effect::Jump(n) => Some((*n, true)),
        _ => None,
    })
}

/// Attack range and number of targets of a half.
pub fn attack(effects: &[Effect]) -> Option<(u32, u32)> {
    effects.iter().find_map(|e| match e {
        Effect::Attack { range, targets, .. } => Some((*range, *targets)),
        _ => None,
    })
}

/// Living foes an attack of `range` (0: melee) from `from` can reach, in `(q, r)` order.
pub fn foes_in_reach(s: &State, from: Hex, range: u32) -> Vec<Hex> {
    let sight = (range > 0).then(|| Sight::new(&s.map.0));
    let mut out: Vec<Hex> = s
        .living_monsters()
        .map(|m| s.monsters[m].hex)
        .filter(|&t| match &sight {
            None => s.map.0.adjacent(from, t),
            Some(v) => distance(from, t) <= range && v.visible(from, t),
        })
        .collect();
    out.sort_by_key(|h| qr(*h));
    out
}

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
pub fn play_candidates(s: &State, hero: usize) -> Vec<Action> {
    let Phase::HeroTurn { played, .. } = s.phase else {
        return Vec::new();
    };
    let x = &s.heroes[hero];
    let (Some(sel), None) = (x.selected, x.long_rest) else {
        return Vec::new();
    };
    let f = FigureId::Hero(hero);
    let mut out = Vec::new();
    for card in sel {
        for half in [Half::Top, Half::Bottom] {
            if played.is_some_and(|(pc, ph, _)| pc == card || ph == half) {
                continue;
            }
            for basic in [false, true] {
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
                        let mut others: Vec<Hex> = s
                            .active_heroes()
                            .filter(|&o| o != hero && distance(*end, s.heroes[o].hex) <= range)
                            .map(|o| s.heroes[o].hex)
                            .collect();
                        others.sort_by_key(|h| qr(*h));
                        allies.extend(others.into_iter().map(Some));
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
            }
        }
    }
    out
}
