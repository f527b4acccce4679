//! Target choices outside a turn: the foe's strike in a hero's Melee step, and reaction shots.
//! Choose Target applies, except that with no valid target the foe strikes an invalid one.

use super::context::{Ctx, Move};
use super::situation::{GoalOption, Outcome};
use super::target::{Cand, Validity, signed};

impl Ctx<'_> {
    fn here(&self) -> Move {
        Move {
            end: self.actor.start,
            points: 0,
            swap: None,
            stacked_on: None,
        }
    }

    /// The Melee step: one adjacent enemy.
    pub(crate) fn melee_step(&self, t: &mut Vec<String>) -> Vec<Outcome> {
        let cands: Vec<Cand> = (0..self.heroes.len())
            .filter(|&h| {
                !self.in_dome(h) && self.board.adjacent(self.hero_idx[h], self.actor.start)
            })
            .map(|h| Cand {
                hero: h,
                hit: self.melee_hit(h),
            })
            .collect();
        let mut words = Vec::new();
        let chosen = self.choose_target(cands, Validity::Fallback, true, &mut words);
        t.push(format!("Melee step: {}.", words.join("; ")));
        chosen
            .iter()
            .map(|c| self.outcome(GoalOption::MeleeStep, Some(c.hero), &self.here()))
            .collect()
    }

    /// A reaction shot: one enemy in range and sight of a weapon.
    pub(crate) fn reaction_shot(&self, t: &mut Vec<String>) -> Vec<Outcome> {
        let start = self.actor.start;
        let cands: Vec<Cand> = (0..self.heroes.len())
            .filter(|&h| !self.in_dome(h))
            .filter_map(|h| {
                let (hit, _) = self.ranged_hit(start, h, self.hero_idx[h])?;
                Some(Cand { hero: h, hit })
            })
            .collect();
        let mut words = Vec::new();
        let chosen = self.choose_target(cands, Validity::Fallback, true, &mut words);
        let mut out = Vec::new();
        for c in &chosen {
            let (_, weapons) = self
                .ranged_hit(start, c.hero, self.hero_idx[c.hero])
                .unwrap_or_default();
            for w in weapons {
                let name = &self.actor.weapons[w].name;
                words.push(format!(
                    "{} with {name} (hit {})",
                    self.name_of(c.hero),
                    signed(c.hit)
                ));
                let mut o = self.outcome(GoalOption::ReactionShot, Some(c.hero), &self.here());
                o.weapon = Some(name.clone());
                out.push(o);
            }
        }
        t.push(format!("Reaction shot: {}.", words.join("; ")));
        out
    }
}
