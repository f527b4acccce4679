//! The hero autopilot of a Brimstone-style fight: attack the most wounded enemy in reach with the
//! weapon likelier to hit, else move where an enemy comes into reach (or closer), else end the turn.

use super::Brimstone;
use super::actions::{Action, BreathChoice};
use super::state::{Stage, State};
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
        Stage::Hero { .. } => Some(
            best_attack(s, hero, &legal)
                .or_else(|| best_move(s, hero, &legal))
                .unwrap_or(Action::EndTurn),
        ),
        _ => legal.first().cloned(),
    }
}

/// The attack on the enemy with the fewest wounds left, with the weapon giving more hit chances
/// (dice × faces that hit), first in legal order on ties.
fn best_attack(s: &State, hero: usize, legal: &[Action]) -> Option<Action> {
    let score = |a: &Action| match a {
        Action::Attack { target, weapon } => {
            let m = &s.models[*target];
            let left = s.spec(m.group).wounds - m.wounds;
            let roll = s.hero_roll(hero, *weapon);
            let dice = super::attack::dice(&roll);
            let faces = 7 - super::attack::target_number(&roll);
            Some((left, u32::MAX - dice * faces))
        }
        _ => None,
    };
    legal
        .iter()
        .filter_map(|a| score(a).map(|k| (k, a)))
        .min_by_key(|(k, _)| *k)
        .map(|(_, a)| a.clone())
}

/// The move after which an enemy is in reach, cheapest first by walking distance; else the move that
/// ends closest (by walking) to an enemy, if it gets closer than standing still.
fn best_move(s: &State, hero: usize, legal: &[Action]) -> Option<Action> {
    let board = &s.scenario.board;
    let enemies: Vec<Square> = s
        .models
        .iter()
        .filter(|m| m.active())
        .filter_map(|m| m.at)
        .collect();
    let dist: Vec<Vec<u32>> = enemies
        .iter()
        .filter_map(|&e| board.index_of(e))
        .map(|i| board.distances_from(i))
        .collect();
    let gun = s.scenario.file.heroes[hero].gun;
    let combat = s.scenario.file.heroes[hero].combat;
    let nearest = |sq: Square| {
        board
            .index_of(sq)
            .and_then(|i| dist.iter().map(|d| d[i]).min())
            .unwrap_or(UNREACHABLE)
    };
    let in_reach = |sq: Square| {
        enemies.iter().any(|&e| {
            (combat > 0 && adjacent(sq, e))
                || gun.is_some_and(|g| {
                    let r = range(sq, e);
                    r >= 1 && r <= g.range && board.sees(sq, e)
                })
        })
    };
    let from = s.heroes[hero].at;
    let here = nearest(from);
    let moves = legal.iter().filter_map(|a| match a {
        Action::Move(to) => Some(*to),
        _ => None,
    });
    let reach = moves
        .clone()
        .filter(|&to| in_reach(to))
        .min_by_key(|&to| (range(from, to), nearest(to)));
    let closer = || {
        moves
            .clone()
            .filter(|&to| nearest(to) < here)
            .min_by_key(|&to| nearest(to))
    };
    reach.or_else(closer).map(Action::Move)
}
