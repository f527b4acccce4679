//! The hero autopilot of a Brimstone-style fight: attacks weighed by their odds and targets' harm.
//!
//! Every attack is worth its exact odds of killing (splash included) times the harm its victims
//! would do; the hero moves where the turn's attacks are worth most, closes in otherwise, and
//! explores towards the fight while a threat lurks.

use super::Brimstone;
use super::actions::{Action, BreathChoice, Weapon};
use super::attack::{self, Die};
use super::state::{Lurk, Stage, State};
use super::targeting::Behaviour;
use crate::modifiers::fraction::Fraction;
use crate::rules::{Rules, Seat};
use crate::square::{Square, UNREACHABLE, adjacent, range};

/// What the autopilot does for `hero` now: always one of its legal actions, or `None` when it may
/// not act.
pub fn next_action(s: &State, hero: usize) -> Option<Action> {
    let legal = Brimstone::legal_actions(s, Seat::Hero(hero));
    if legal.is_empty() {
        return None;
    }
    match s.stage {
        Stage::Breath { .. } => {
            let spec = &s.scenario.file.heroes[hero];
            let hurt = spec.health - s.heroes[hero].hp;
            // Healing helps only when at least a couple of wounds are there to heal.
            let choice = if hurt >= 2 {
                BreathChoice::Heal
            } else {
                BreathChoice::Grit
            };
            Some(Action::Breath(choice))
        }
        Stage::Hero { .. } => Some(turn(s, hero, &legal)),
        _ => legal.first().cloned(),
    }
}

/// A hero's turn: the attack or move worth most now, else closing in (or exploring), else the end.
fn turn(s: &State, hero: usize, legal: &[Action]) -> Action {
    let values = Values::new(s, hero);
    let here = s.heroes[hero].at;
    let attacks = legal.iter().filter_map(|a| match a {
        Action::Attack { target, weapon } => Some((values.of(*target, *weapon), a)),
        _ => None,
    });
    // The best attack now; on equal worth the first in legal order.
    let best_now = attacks.fold(None::<(Fraction, &Action)>, |best, (v, a)| match best {
        Some((b, _)) if b >= v => best,
        _ => Some((v, a)),
    });
    let moves: Vec<Square> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Move(to) => Some(*to),
            _ => None,
        })
        .collect();
    // A move pays when the attacks still to make this turn are worth more from there.
    let worth_here = values.turn_from(s, here);
    let best_there = moves.iter().map(|&to| (values.turn_from(s, to), to)).fold(
        None::<(Fraction, Square)>,
        |best, (v, to)| match best {
            Some((b, _)) if b >= v => best,
            _ => Some((v, to)),
        },
    );
    if let Some((v, to)) = best_there
        && v > worth_here
    {
        return Action::Move(to);
    }
    if let Some((_, a)) = best_now {
        return a.clone();
    }
    if s.lurk == Lurk::Hidden {
        if let Some(to) = explore(s, &moves) {
            return Action::Move(to);
        }
    } else if let Some(to) = close_in(s, hero, &moves) {
        return Action::Move(to);
    }
    Action::EndTurn
}

/// What each attack of the hero is worth this turn, model by model and weapon by weapon.
struct Values {
    hero: usize,
    /// `(model, weapon, worth)` of every attack the hero has left this turn.
    worth: Vec<(usize, Weapon, Fraction)>,
}

impl Values {
    fn new(s: &State, hero: usize) -> Values {
        let Stage::Hero {
            attacked,
            free_attacks,
            ..
        } = s.stage
        else {
            return Values {
                hero,
                worth: Vec::new(),
            };
        };
        let spec = &s.scenario.file.heroes[hero];
        let mut weapons = Vec::new();
        if !attacked {
            if spec.combat > 0 {
                weapons.push(Weapon::Melee);
            }
            if spec.gun.is_some() {
                weapons.push(Weapon::Gun);
            }
        }
        if spec.weapon.as_ref().is_some_and(|w| w.free_attack)
            && attack::allowed(&s.hero_roll(hero, Weapon::Hand, free_attacks))
        {
            weapons.push(Weapon::Hand);
        }
        let mut worth = Vec::new();
        for (m, model) in s.models.iter().enumerate() {
            if !model.active() {
                continue;
            }
            for &w in &weapons {
                worth.push((m, w, attack_worth(s, hero, m, w, free_attacks)));
            }
        }
        Values { hero, worth }
    }

    fn of(&self, model: usize, weapon: Weapon) -> Fraction {
        self.worth
            .iter()
            .find(|(m, w, _)| *m == model && *w == weapon)
            .map_or(Fraction::ZERO, |(_, _, v)| *v)
    }

    /// The best normal attack plus the best free attack the hero could make standing on `from`.
    fn turn_from(&self, s: &State, from: Square) -> Fraction {
        let mut normal = Fraction::ZERO;
        let mut free = Fraction::ZERO;
        for &(m, w, v) in &self.worth {
            let Some(at) = s.models[m].at else { continue };
            let reaches = match w {
                Weapon::Melee | Weapon::Hand => adjacent(from, at),
                Weapon::Gun => s.scenario.file.heroes[self.hero].gun.is_some_and(|g| {
                    let r = range(from, at);
                    r >= 1 && r <= g.range && s.scenario.board.sees(from, at)
                }),
            };
            if !reaches {
                continue;
            }
            let slot = if w == Weapon::Hand {
                &mut free
            } else {
                &mut normal
            };
            if v > *slot {
                *slot = v;
            }
        }
        normal + free
    }
}

/// How much harm a model does each activation, roughly: dice × hitting faces × damage; a model
/// that never attacks still has to go for the fight to be won.
fn harm(s: &State, model: usize) -> u128 {
    let spec = s.spec(s.models[model].group);
    if spec.behaviour == Behaviour::Support {
        return 1;
    }
    u128::from(spec.combat * (7 - spec.to_hit) * spec.damage) + 1
}

/// The worth of one attack: for the target and every model it splashes, the model's harm times
/// (twice the exact chance to kill it plus the expected share of its wounds left dealt).
fn attack_worth(
    s: &State,
    hero: usize,
    target: usize,
    weapon: Weapon,
    free_before: u32,
) -> Fraction {
    let roll = s.hero_roll(hero, weapon, free_before);
    let hits = attack::hit_chances(attack::dice(&roll), roll.die, attack::target_number(&roll));
    let bonus = s.scenario.file.heroes[hero].damage_bonus;
    let mut struck = vec![(target, bonus)];
    if s.splashes(hero, weapon) {
        // The hero's damage bonus does not reach splash damage.
        struck.extend(s.splashed(target).into_iter().map(|m| (m, 0)));
    }
    let mut total = Fraction::ZERO;
    for (m, bonus) in struck {
        let model = &s.models[m];
        let spec = s.spec(model.group);
        let left = spec.wounds - model.wounds;
        let sides = Die::D6.sides();
        let mut per_hit = vec![Fraction::ZERO; (sides + bonus) as usize + 1];
        for r in 1..=sides {
            let w = (r + bonus).saturating_sub(spec.armour) as usize;
            per_hit[w] += Fraction::new(1, u128::from(sides));
        }
        let wounds = attack::wounds_of_hits(&hits, &per_hit, left);
        let kill = wounds.last().copied().unwrap_or(Fraction::ZERO);
        let dealt = wounds
            .iter()
            .enumerate()
            .fold(Fraction::ZERO, |acc, (k, &p)| acc + p.times(k as u128));
        let share = dealt * Fraction::new(1, u128::from(left.max(1)));
        total += (kill.times(2) + share).times(harm(s, m));
    }
    total
}

/// While the threat lurks: the move that ends nearest (by walking) to the fight tile.
fn explore(s: &State, moves: &[Square]) -> Option<Square> {
    let board = &s.scenario.board;
    let goal: Vec<Vec<u32>> = (0..board.len())
        .filter(|&i| board.tile_of(i) == s.scenario.fight_tile)
        .map(|g| board.distances_from(g))
        .collect();
    let dist = |sq: Square| {
        board.index_of(sq).map_or(UNREACHABLE, |i| {
            goal.iter().map(|d| d[i]).min().unwrap_or(UNREACHABLE)
        })
    };
    moves.iter().copied().min_by_key(|&to| dist(to))
}

/// The move that ends nearest (by walking) to a model, if nearer than standing still.
fn close_in(s: &State, hero: usize, moves: &[Square]) -> Option<Square> {
    let board = &s.scenario.board;
    let dist: Vec<Vec<u32>> = s
        .models
        .iter()
        .filter(|m| m.active())
        .filter_map(|m| m.at)
        .filter_map(|e| board.index_of(e))
        .map(|i| board.distances_from(i))
        .collect();
    let nearest = |sq: Square| {
        board
            .index_of(sq)
            .and_then(|i| dist.iter().map(|d| d[i]).min())
            .unwrap_or(UNREACHABLE)
    };
    let here = nearest(s.heroes[hero].at);
    moves
        .iter()
        .copied()
        .filter(|&to| nearest(to) < here)
        .min_by_key(|&to| nearest(to))
}
