//! A simple but sensible hero autopilot, and the automatic driver of headless games.
//!
//! It picks the card with the best attack and the card with the best move (a summon card instead of
//! the attack while the hero has no summon on the board), walks toward the exits of an escape or
//! the treasures of a loot, else the nearest foe it can attack, then treasure, then a closed door;
//! hits the weakest foes in reach, places summons nearest the foes, and rests when the hand runs
//! out. A hero's play
//! is always one of its half's candidates in `heroes.rs` that the rules accept: one of its legal
//! actions.

use std::cmp::Reverse;

use super::actions::Action;
use super::heroes::{HeroMoves, movement};
use super::movement::{Score, UNREACHABLE};
use super::scenario::{Effect, HeroCard, Victory};
use super::state::{FigureId, Half, Phase, State};
use crate::hex::sight::Sight;
use crate::hex::{Hex, distance};
use crate::rules::TieBreaker;

/// The next action of a headless game, or `None` when it is over or a tie waits for the table.
pub fn next_action(s: &State) -> Option<Action> {
    if s.phase.is_over() {
        return None;
    }
    // A card being drawn: the seeded pick draws it, as `Game::automatic` does.
    if let Some(d) = &s.drawing {
        return Some(Action::Draw(s.seeded_pick(d.want.options.len())));
    }
    if s.pending.is_some() {
        return match s.tie_breaker {
            TieBreaker::Seeded => Some(Action::Choose(s.seeded_pick(s.pending_options()))),
            TieBreaker::Table => None,
        };
    }
    Some(match s.phase {
        Phase::CardSelection => {
            match s
                .active_heroes()
                .find(|&h| s.heroes[h].selected.is_none() && s.heroes[h].long_rest.is_none())
            {
                Some(h) => choose_cards(s, h),
                None => Action::Advance,
            }
        }
        Phase::HeroTurn { hero, played } => {
            if s.heroes[hero].long_rest.is_some() {
                Action::Advance
            } else {
                hero_half(s, hero, played.map(|(c, h, _)| (c, h))).unwrap_or(Action::Advance)
            }
        }
        Phase::RoundEnd => {
            let tired = s
                .active_heroes()
                .find(|&h| s.may_short_rest(h) && s.heroes[h].hand.len() < 2);
            match tired {
                Some(h) => Action::ShortRest { hero: h },
                None => Action::Advance,
            }
        }
        _ => Action::Advance,
    })
}

fn attack_score(c: &HeroCard) -> i32 {
    let a = c.top.effects.iter().find_map(|e| match e {
        Effect::Attack {
            value,
            targets,
            range,
            ..
        } => Some(*value as i32 * 2 + (*targets as i32 - 1) * 2 + (*range > 0) as i32),
        _ => None,
    });
    let heal = c
        .top
        .effects
        .iter()
        .any(|e| matches!(e, Effect::Heal { .. })) as i32;
    a.unwrap_or(2 * 2) + heal - if c.top.lost { 3 } else { 0 }
}

/// How much the hero wants a card's top: a summon first while the hero has none on the board (it
/// calls one when it can), then the attack score.
fn top_value(s: &State, hero: usize, card: usize) -> (bool, i32) {
    let c = &s.scenario.heroes[hero].cards[card];
    let summons = c.top.effects.iter().any(|e| matches!(e, Effect::Summon(_)));
    let alone = !s
        .living_summons()
        .any(|i| s.summons[i].leader() == Some(hero));
    (summons && alone, attack_score(c))
}

fn move_score(c: &HeroCard) -> i32 {
    let m = c.bottom.movement().map_or(2, |(n, _)| n as i32);
    m * 2 - if c.bottom.lost { 3 } else { 0 }
}

/// The cards hero `h` chooses for the round (or the long rest it declares).
pub(super) fn choose_cards(s: &State, h: usize) -> Action {
    let x = &s.heroes[h];
    let cards = &s.scenario.heroes[h].cards;
    let low_hp = x.hp * 3 <= x.max_hp && x.discard.len() >= 3;
    if (x.hand.len() < 2 || low_hp) && x.discard.len() >= 2 {
        // Lose the card that helps least.
        let lose = *x
            .discard
            .iter()
            .min_by_key(|&&c| (attack_score(&cards[c]) + move_score(&cards[c]), c))
            .unwrap_or(&x.discard[0]);
        return Action::LongRest { hero: h, lose };
    }
    let attack = *x
        .hand
        .iter()
        .max_by_key(|&&c| (top_value(s, h, c), Reverse(c)))
        .unwrap_or(&x.hand[0]);
    let mover = *x
        .hand
        .iter()
        .filter(|&&c| c != attack)
        .max_by_key(|&&c| (move_score(&cards[c]), Reverse(c)))
        .unwrap_or(&x.hand[1]);
    let (leading, other) = if cards[attack].initiative <= cards[mover].initiative {
        (attack, mover)
    } else {
        (mover, attack)
    };
    Action::SelectCards {
        hero: h,
        leading,
        other,
    }
}

/// The attack of a half: (range, targets).
fn attack_of(effects: &[Effect]) -> Option<(u32, u32)> {
    effects.iter().find_map(|e| match e {
        Effect::Attack { range, targets, .. } => Some((*range, *targets)),
        _ => None,
    })
}

fn hero_half(s: &State, hero: usize, played: Option<(usize, Half)>) -> Option<Action> {
    let sel = s.heroes[hero].selected?;
    let (atk, mv) = if top_value(s, hero, sel[0]) >= top_value(s, hero, sel[1]) {
        (sel[0], sel[1])
    } else {
        (sel[1], sel[0])
    };
    let here = s.heroes[hero].hex;
    let (card, half) = match played {
        None => {
            let eff = s.half_effects(hero, atk, Half::Top, false);
            let can_hit_now =
                attack_of(&eff).is_some_and(|(r, _)| !targets_from(s, here, r, 1).is_empty());
            if can_hit_now {
                (atk, Half::Top)
            } else {
                (mv, Half::Bottom)
            }
        }
        Some((c, h)) => (
            if c == atk { mv } else { atk },
            if h == Half::Top {
                Half::Bottom
            } else {
                Half::Top
            },
        ),
    };
    let effects = s.half_effects(hero, card, half, false);
    // The attack the hero is heading for: this half's, else the attack card's top.
    let goal_range = attack_of(&effects)
        .or_else(|| attack_of(&s.half_effects(hero, atk, Half::Top, false)))
        .map_or(0, |(r, _)| r);
    let moves = movement(&effects).and_then(|(n, jump)| HeroMoves::new(s, hero, n, jump));
    let to_goal = moves.as_ref().map(|m| goal_distances(s, m, goal_range));
    let summons = effects.iter().any(|e| matches!(e, Effect::Summon(_)));
    // The half's own candidates, best first; the first one the rules accept is a legal action.
    let mut options = super::candidates::half_candidates(s, hero, card, half, false);
    options.sort_by_cached_key(|a| {
        let Action::Play {
            path,
            targets,
            ally,
            ..
        } = a
        else {
            return Default::default();
        };
        let end = path.last().copied().unwrap_or(here);
        let (taken, left) = match (&moves, &to_goal) {
            (Some(m), Some(g)) => (
                m.score(end),
                s.map.0.index_of(end).map_or(UNREACHABLE, |i| g[i as usize]),
            ),
            _ => ((0, 0), UNREACHABLE),
        };
        let mut weakest: Vec<(i32, usize)> = targets
            .iter()
            .filter_map(|&t| match s.figure_at(t) {
                Some(FigureId::Monster(m)) => Some((s.monsters[m].hp, m)),
                _ => None,
            })
            .collect();
        weakest.sort_unstable();
        let healed = match ally {
            Some(h) => s.figure_at(*h),
            None => Some(FigureId::Hero(hero)),
        };
        let hurt = match healed {
            Some(FigureId::Hero(a)) => s.heroes[a].max_hp - s.heroes[a].hp,
            Some(FigureId::Summon(i)) if s.summons[i].ally.is_some() => {
                s.summons[i].spec.hp as i32 - s.summons[i].hp
            }
            _ => 0,
        };
        // A summon goes as near the foes as it can.
        let summon_near = match ally {
            Some(h) if summons => s
                .living_monsters()
                .map(|m| distance(*h, s.monsters[m].hex))
                .min()
                .unwrap_or(0),
            _ => 0,
        };
        (
            Reverse(targets.len()),
            // Negative hexes crossed now or still ahead on the way to an attack hex: crossing one that
            // cannot be avoided sooner or later costs the same.
            taken.0.saturating_add(left.0),
            left.1,
            taken.1,
            weakest,
            Reverse(hurt),
            summon_near,
        )
    });
    options
        .into_iter()
        .find(|a| s.clone().apply(a.clone()).is_ok())
}

/// Foes attackable from `from` with an attack of `range` (0 = melee): weakest first, at most `n`.
fn targets_from(s: &State, from: Hex, range: u32, n: usize) -> Vec<Hex> {
    let sight = (range > 0).then(|| Sight::drawn(&s.map.0, s.scenario.edition().switches.sight));
    let mut foes: Vec<(i32, usize, Hex)> = s
        .living_monsters()
        .map(|m| (s.monsters[m].hp, m, s.monsters[m].hex))
        .filter(|&(_, _, h)| match &sight {
            None => s.map.0.adjacent(from, h),
            Some(sg) => distance(from, h) <= range && sg.visible(from, h),
        })
        .collect();
    foes.sort_by_key(|&(hp, m, _)| (hp, m));
    foes.into_iter().take(n).map(|(_, _, h)| h).collect()
}

/// Per hex, the (negative hexes, movement points) still to go to the nearest hex a move may end on
/// from which a foe can be attacked with `range` (0 = melee); a ranged attacker heads for such hexes
/// with no foe next to them (no disadvantage) when it can reach one.
fn goal_distances(s: &State, moves: &HeroMoves, range: u32) -> Vec<Score> {
    let map = &s.map.0;
    let marked = |is: &dyn Fn(Hex) -> bool| -> Vec<bool> {
        (0..map.len()).map(|i| is(map.hex_at(i))).collect()
    };
    let treasure = |h: Hex| {
        s.treasures
            .iter()
            .any(|t| t.looted_by.is_none() && t.hex == h)
    };
    // A goal of hexes comes first: the exits of an escape, the treasures of a loot.
    let first = match *s.victory() {
        Victory::Escape => Some(marked(&|h| s.exits.contains(&h))),
        Victory::Loot(_) => Some(marked(&treasure)),
        _ => None,
    };
    if let Some(goals) = first {
        let d = moves.graph.to_any(&goals);
        if d[moves.start] != UNREACHABLE {
            return d;
        }
    }
    let sight = (range > 0).then(|| Sight::drawn(map, s.scenario.edition().switches.sight));
    let foes: Vec<Hex> = s.living_monsters().map(|m| s.monsters[m].hex).collect();
    let can_end = |i: usize| i == moves.start || moves.graph.endable[i];
    let attack_from = |h: Hex| {
        foes.iter().any(|&f| match &sight {
            None => map.adjacent(h, f),
            Some(sg) => distance(h, f) <= range && sg.visible(h, f),
        })
    };
    let goals: Vec<bool> = (0..map.len())
        .map(|i| can_end(i) && attack_from(map.hex_at(i)))
        .collect();
    if range > 0 {
        let away: Vec<bool> = (0..map.len())
            .map(|i| goals[i] && !foes.iter().any(|&f| map.adjacent(map.hex_at(i), f)))
            .collect();
        let d = moves.graph.to_any(&away);
        if d[moves.start] != UNREACHABLE {
            return d;
        }
    }
    let d = moves.graph.to_any(&goals);
    if d[moves.start] != UNREACHABLE {
        return d;
    }
    // No foe to reach: the nearest treasure, else the nearest closed door, to reveal what lies
    // behind it.
    let d = moves.graph.to_any(&marked(&treasure));
    if d[moves.start] != UNREACHABLE {
        return d;
    }
    moves
        .graph
        .to_any(&marked(&|h| s.closed_door_at(h).is_some()))
}
