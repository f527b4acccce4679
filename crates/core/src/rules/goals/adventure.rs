//! The Adventure goal, and minions: unleashing one, and where a minion with no target in reach goes.

use super::attack_goal::{at, least};
use super::context::{Ctx, Move};
use super::situation::{GoalOption, MinionMove, Outcome, Situation};
use super::target::{Cand, Validity};
use crate::hex::NONE;
use crate::hex::path::UNREACHED;

impl Ctx<'_> {
    /// The Adventure goal: onto a valid adventure space it can reach, else toward the nearest.
    pub(crate) fn adventure_goal(&self, t: &mut Vec<String>) -> Vec<Outcome> {
        let mut valid: Vec<usize> = self
            .board
            .adventures()
            .iter()
            .filter(|a| !a.captured && a.foes_use)
            .flat_map(|a| a.spaces.iter())
            .filter_map(|&h| self.board.index(h))
            .collect();
        valid.sort_unstable();
        valid.dedup();
        let onto: Vec<Move> = self
            .moves()
            .iter()
            .filter(|m| valid.contains(&m.end))
            .copied()
            .collect();
        if !onto.is_empty() {
            t.push(format!(
                "Adventure: valid adventure spaces in reach → {}.",
                self.ends(&onto)
            ));
            return onto
                .iter()
                .map(|m| self.outcome(GoalOption::Adventure, None, m))
                .collect();
        }
        let cost = self.foe_costs_from(&[self.actor.start], u32::MAX);
        let best = valid.iter().map(|&i| cost[i]).min().unwrap_or(UNREACHED);
        let stay = Move {
            end: self.actor.start,
            points: 0,
            swap: None,
            stacked_on: None,
        };
        if best == UNREACHED {
            if !self.actor.own_end {
                t.push(
                    "Adventure: no valid adventure space can be reached, and it may not stay."
                        .to_string(),
                );
                return Vec::new();
            }
            t.push("Adventure: no valid adventure space can be reached; it stays.".to_string());
            return vec![self.outcome(GoalOption::Adventure, None, &stay)];
        }
        let nearest: Vec<usize> = valid.iter().copied().filter(|&i| cost[i] == best).collect();
        let rest = self.foe_costs_to(&nearest);
        let ends = least(self.moves().to_vec(), |m| (rest[m.end], m.points));
        let list: Vec<String> = nearest.iter().map(|&i| at(self, i)).collect();
        t.push(format!(
            "Adventure: heads for {} ({best} move points away); least way left, then fewest move points → {}.",
            list.join(", "),
            self.ends(&ends)
        ));
        ends.iter()
            .map(|m| self.outcome(GoalOption::Adventure, None, m))
            .collect()
    }

    /// Attack option 5 for an unleashed minion: toward the valid target Choose Target picks among
    /// those it can find a way to.
    pub(crate) fn minion_toward(&self, t: &mut Vec<String>) -> Vec<Outcome> {
        let cands: Vec<usize> = (0..self.heroes.len())
            .filter(|&h| !self.in_dome(h))
            .collect();
        let cost = self.foe_costs_from(&[self.actor.start], u32::MAX);
        let next_to = |h: usize| -> Vec<usize> {
            self.board
                .neighbours(self.hero_idx[h])
                .filter(|&n| self.hero_on[n] == NONE && self.board.enter_cost(n).is_some())
                .collect()
        };
        let way = |h: usize| {
            next_to(h)
                .iter()
                .map(|&n| cost[n])
                .min()
                .unwrap_or(UNREACHED)
        };
        let cands: Vec<usize> = cands.into_iter().filter(|&h| way(h) != UNREACHED).collect();
        let stay = Move {
            end: self.actor.start,
            points: 0,
            swap: None,
            stacked_on: None,
        };
        if cands.is_empty() {
            t.push("Option 5: no valid target can be reached; the minion stays.".to_string());
            return vec![self.outcome(GoalOption::Attack(5), None, &stay)];
        }
        // "NEVER choose a target based on which one is closest": the enemies it can find a way to
        // go through Choose Target, then it heads for the one chosen.
        let mut words = Vec::new();
        let cands: Vec<Cand> = cands
            .into_iter()
            .map(|h| Cand {
                hero: h,
                hit: self.melee_hit(h),
            })
            .collect();
        let chosen = self.choose_target(cands, Validity::Required, true, &mut words);
        if chosen.is_empty() {
            t.push(format!("Option 5: {}; the minion stays.", words.join("; ")));
            return vec![self.outcome(GoalOption::Attack(5), None, &stay)];
        }
        let mut out = Vec::new();
        for h in chosen.iter().map(|c| c.hero) {
            let rest = self.foe_costs_to(&next_to(h));
            let ends = least(self.moves().to_vec(), |m| (rest[m.end], m.points));
            words.push(format!(
                "toward {}: least way left, then fewest move points → {}",
                self.name_of(h),
                self.ends(&ends)
            ));
            out.extend(
                ends.iter()
                    .map(|m| self.outcome(GoalOption::Attack(5), Some(h), m)),
            );
        }
        t.push(format!("Option 5: {}.", words.join("; ")));
        out
    }
}

/// A foe with a minion card unleashes it before any goal option: its action, and it stays put.
/// `None` when it has no card (or may not stay on its hex).
pub(crate) fn unleash(
    s: &Situation,
    ignore: Option<usize>,
    own_end: bool,
    t: &mut Vec<String>,
) -> Option<Vec<Outcome>> {
    let foe = &s.foes[s.active];
    let card = foe.minion_card.as_ref()?;
    if !own_end {
        t.push(format!(
            "Unleash: {} would stay on its hex, which it must leave.",
            foe.name
        ));
        return None;
    }
    let ctx = Ctx::for_minion(s, card, ignore);
    let mut inner = Vec::new();
    let moves = ctx.attack_goal(&mut inner);
    t.push(format!("Unleash: {} appears and acts.", card.name));
    t.extend(inner.into_iter().map(|l| format!("  {}: {l}", card.name)));
    Some(
        moves
            .into_iter()
            .map(|m| {
                let mut o = Outcome::new(GoalOption::Unleash, foe.hex);
                o.minion = Some(MinionMove {
                    option: m.option,
                    target: m.target,
                    end: m.end,
                });
                o
            })
            .collect(),
    )
}
