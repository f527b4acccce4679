//! A simple but sensible hero autopilot, and the automatic driver of headless games.
//!
//! It picks the card with the best attack and the card with the best move, walks toward the nearest
//! foe it can attack, hits the weakest foes in reach, and rests when the hand runs out.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::actions::Action;
use super::scenario::{Effect, HeroCard};
use super::state::{FigureId, Half, Phase, State};
use crate::hex::sight::Sight;
use crate::hex::{Hex, NONE, Terrain, distance};
use crate::rules::TieBreaker;

/// The next action of a headless game, or `None` when it is over or a tie waits for the table.
pub fn next_action(s: &State) -> Option<Action> {
    if s.phase.is_over() {
        return None;
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

fn move_score(c: &HeroCard) -> i32 {
    let m = c.bottom.movement().map_or(2, |(n, _)| n as i32);
    m * 2 - if c.bottom.lost { 3 } else { 0 }
}

fn choose_cards(s: &State, h: usize) -> Action {
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
        .max_by_key(|&&c| (attack_score(&cards[c]), Reverse(c)))
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
    let cards = &s.scenario.heroes[hero].cards;
    let (atk, mv) = if attack_score(&cards[sel[0]]) >= attack_score(&cards[sel[1]]) {
        (sel[0], sel[1])
    } else {
        (sel[1], sel[0])
    };
    let f = FigureId::Hero(hero);
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
    let immobile = s.has(f, super::scenario::Condition::Immobilize);
    let disarmed = s.has(f, super::scenario::Condition::Disarm);
    // The attack the hero is heading for: this half's, else the attack card's top.
    let goal_range = attack_of(&effects)
        .or_else(|| attack_of(&s.half_effects(hero, atk, Half::Top, false)))
        .map_or(0, |(r, _)| r);
    let mut pos = here;
    let mut path = Vec::new();
    let mut targets = Vec::new();
    let mut ally = None;
    for e in &effects {
        match e {
            Effect::Move(n) | Effect::Jump(n) if !immobile => {
                path = plan_path(s, hero, *n, goal_range);
                if let Some(&end) = path.last() {
                    pos = end;
                }
            }
            Effect::Attack {
                range, targets: t, ..
            } if !disarmed => targets = targets_from(s, pos, *range, *t as usize),
            Effect::Heal { range, .. } if *range > 0 => {
                let hurt = s
                    .active_heroes()
                    .filter(|&a| distance(s.heroes[a].hex, pos) <= *range)
                    .max_by_key(|&a| (s.heroes[a].max_hp - s.heroes[a].hp, Reverse(a)));
                ally = hurt.filter(|&a| a != hero).map(|a| s.heroes[a].hex);
            }
            _ => {}
        }
    }
    Some(Action::Play {
        card,
        half,
        basic: false,
        path,
        targets,
        ally,
    })
}

/// Foes attackable from `from` with an attack of `range` (0 = melee): weakest first, at most `n`.
fn targets_from(s: &State, from: Hex, range: u32, n: usize) -> Vec<Hex> {
    let sight = (range > 0).then(|| Sight::new(&s.map.0));
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

/// A walking path of at most `points` toward the nearest hex from which a foe can be attacked; a
/// ranged attacker first looks for such a hex with no foe next to it (no disadvantage).
fn plan_path(s: &State, hero: usize, points: u32, range: u32) -> Vec<Hex> {
    if range > 0
        && let Some(p) = plan_path_to(s, hero, points, range, true)
    {
        return p;
    }
    plan_path_to(s, hero, points, range, false).unwrap_or_default()
}

fn plan_path_to(
    s: &State,
    hero: usize,
    points: u32,
    range: u32,
    keep_away: bool,
) -> Option<Vec<Hex>> {
    let map = &s.map.0;
    let n = map.len();
    let start = map.index_of(s.heroes[hero].hex)?;
    let start = start as usize;
    let monster_at: Vec<bool> = {
        let mut v = vec![false; n];
        for m in s.living_monsters() {
            if let Some(i) = map.index_of(s.monsters[m].hex) {
                v[i as usize] = true;
            }
        }
        v
    };
    let taken = |i: usize| {
        s.figure_at(map.hex_at(i))
            .is_some_and(|f| f != FigureId::Hero(hero))
    };
    let sight = (range > 0).then(|| Sight::new(map));
    let is_goal = |i: usize| {
        if taken(i) {
            return false;
        }
        let h = map.hex_at(i);
        if keep_away
            && s.living_monsters()
                .any(|m| map.adjacent(h, s.monsters[m].hex))
        {
            return false;
        }
        s.living_monsters().any(|m| {
            let mh = s.monsters[m].hex;
            match &sight {
                None => map.adjacent(h, mh),
                Some(sg) => distance(h, mh) <= range && sg.visible(h, mh),
            }
        })
    };
    if is_goal(start) {
        return Some(Vec::new());
    }
    // Dijkstra on (cost with a heavy penalty for traps and hazards, real cost).
    const PENALTY: u32 = 20;
    let mut best = vec![u32::MAX; n];
    let mut real = vec![0u32; n];
    let mut prev = vec![usize::MAX; n];
    let mut heap = BinaryHeap::new();
    best[start] = 0;
    heap.push(Reverse((0u32, start)));
    let mut goal = None;
    while let Some(Reverse((c, i))) = heap.pop() {
        if c > best[i] {
            continue;
        }
        if is_goal(i) {
            goal = Some(i);
            break;
        }
        for d in 0..6 {
            let j = map.neighbour(i, d);
            if j == NONE || map.thin_wall(i, d) {
                continue;
            }
            let j = j as usize;
            let t = map.terrain_at(j);
            if matches!(t, Terrain::Wall | Terrain::Obstacle) || monster_at[j] {
                continue;
            }
            let step = if t == Terrain::Difficult { 2 } else { 1 };
            let pen = if t.is_negative() { PENALTY } else { 0 };
            let nc = c + step + pen;
            if nc < best[j] {
                best[j] = nc;
                real[j] = real[i] + step;
                prev[j] = i;
                heap.push(Reverse((nc, j)));
            }
        }
    }
    let goal = goal?;
    let mut rev = vec![goal];
    while let Some(&last) = rev.last() {
        let p = prev[last];
        if p == usize::MAX || p == start {
            break;
        }
        rev.push(p);
    }
    rev.reverse();
    // Walk as far as the points allow, then back off to a hex nobody stands on.
    let mut end = 0;
    for (k, &i) in rev.iter().enumerate() {
        if real[i] <= points {
            end = k + 1;
        }
    }
    while end > 0 && taken(rev[end - 1]) {
        end -= 1;
    }
    // Do not step onto a trap or hazard short of the goal just to get closer.
    while end > 0 && end < rev.len() && map.terrain_at(rev[end - 1]).is_negative() {
        end -= 1;
    }
    Some(rev[..end].iter().map(|&i| map.hex_at(i)).collect())
}
