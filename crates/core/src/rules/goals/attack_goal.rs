//! The Attack goal: ranged attack, move next to a valid melee target, trap a hero on a Dome key,
//! ranged ambush, and otherwise the Adventure goal (an unleashed minion heads for a target instead).

use super::context::{Ctx, Move};
use super::situation::{GoalOption, Outcome};
use super::target::{Cand, VALID_HIT, Validity, signed};
use crate::hex::path::UNREACHED;

/// A hex as players write it.
pub(crate) fn at(ctx: &Ctx<'_>, i: usize) -> String {
    let h = ctx.board.hex(i);
    format!("({}, {})", h.x, h.y)
}

/// Keeps the items with the least key (all of them when tied).
pub(crate) fn least<T, K: Ord>(items: Vec<T>, key: impl Fn(&T) -> K) -> Vec<T> {
    let Some(best) = items.iter().map(&key).min() else {
        return items;
    };
    items.into_iter().filter(|x| key(x) == best).collect()
}

impl Ctx<'_> {
    /// The outcome of ending with move `m`.
    pub fn outcome(&self, option: GoalOption, target: Option<usize>, m: &Move) -> Outcome {
        let mut o = Outcome::new(option, self.board.hex(m.end));
        o.target = target.map(|h| self.name_of(h).to_string());
        o.swap = m.swap.map(|h| self.name_of(h).to_string());
        o.stacked_on = m.stacked_on.map(|a| self.allies[a].name.to_string());
        o
    }

    /// The spaces a list of moves ends on, for a trace.
    pub fn ends(&self, moves: &[Move]) -> String {
        let v: Vec<String> = moves
            .iter()
            .map(|m| match m.swap {
                Some(h) => format!("{} switching with {}", at(self, m.end), self.name_of(h)),
                None => at(self, m.end),
            })
            .collect();
        v.join(", ")
    }

    /// Options 1 to 4 of the Attack goal, then option 5.
    pub(crate) fn attack_goal(&self, t: &mut Vec<String>) -> Vec<Outcome> {
        if let Some(o) = self.attack_ranged(t) {
            return o;
        }
        if let Some(o) = self.attack_melee(t) {
            return o;
        }
        if let Some(o) = self.attack_trap(t) {
            return o;
        }
        if let Some(o) = self.attack_ambush(t) {
            return o;
        }
        if self.actor.is_minion {
            self.minion_toward(t)
        } else {
            t.push("Option 5: on to the Adventure goal.".to_string());
            self.adventure_goal(t)
        }
    }

    /// Attack option 1: shoot from where it stands.
    fn attack_ranged(&self, t: &mut Vec<String>) -> Option<Vec<Outcome>> {
        if self.actor.weapons.is_empty() {
            t.push("Option 1: no ranged weapon.".to_string());
            return None;
        }
        if !self.actor.own_end {
            t.push("Option 1: it may not stay on its hex.".to_string());
            return None;
        }
        let start = self.actor.start;
        let cands: Vec<Cand> = (0..self.heroes.len())
            .filter(|&h| !self.in_dome(h))
            .filter_map(|h| {
                let (hit, _) = self.ranged_hit(start, h, self.hero_idx[h])?;
                Some(Cand { hero: h, hit })
            })
            .collect();
        let mut words = Vec::new();
        let chosen = self.choose_target(cands, Validity::Required, true, &mut words);
        let mut out = Vec::new();
        for c in &chosen {
            let (_, weapons) = self
                .ranged_hit(start, c.hero, self.hero_idx[c.hero])
                .unwrap_or_default();
            let stay = Move {
                end: start,
                points: 0,
                swap: None,
                stacked_on: None,
            };
            for w in weapons {
                let mut o = self.outcome(GoalOption::Attack(1), Some(c.hero), &stay);
                o.weapon = Some(self.actor.weapons[w].name.clone());
                words.push(format!(
                    "{} with {} (hit {})",
                    self.name_of(c.hero),
                    self.actor.weapons[w].name,
                    signed(c.hit)
                ));
                out.push(o);
            }
        }
        t.push(format!("Option 1: {}.", words.join("; ")));
        (!out.is_empty()).then_some(out)
    }

    /// Attack option 2: move (or slip away) next to a valid melee target.
    fn attack_melee(&self, t: &mut Vec<String>) -> Option<Vec<Outcome>> {
        let mut reach: Vec<(usize, Vec<Move>)> = Vec::new();
        for h in 0..self.heroes.len() {
            if self.in_dome(h) {
                continue;
            }
            // "All targets it could move adjacent to using a Move or Slip Away": the ends of
            // both are ranked together.
            let ends: Vec<Move> = self
                .moves()
                .iter()
                .filter(|m| self.board.adjacent(m.end, self.hero_idx[h]))
                .chain(
                    self.slips()
                        .iter()
                        .filter(|m| self.board.adjacent(m.end, self.hero_at(Some(m), h))),
                )
                .copied()
                .collect();
            if !ends.is_empty() {
                reach.push((h, ends));
            }
        }
        let cands: Vec<Cand> = reach
            .iter()
            .map(|(h, _)| Cand {
                hero: *h,
                hit: self.melee_hit(*h),
            })
            .collect();
        let mut words = Vec::new();
        let chosen = self.choose_target(cands, Validity::Required, true, &mut words);
        let mut out = Vec::new();
        for c in &chosen {
            let Some((_, ends)) = reach.iter().find(|(h, _)| *h == c.hero) else {
                continue;
            };
            let how = match ends.iter().filter(|m| m.swap.is_some()).count() {
                0 => "by a Move",
                n if n == ends.len() => "by Slip Away",
                _ => "by a Move or Slip Away",
            };
            words.push(format!(
                "{} space{} next to {} {how}: {}",
                ends.len(),
                if ends.len() == 1 { "" } else { "s" },
                self.name_of(c.hero),
                self.ends(ends)
            ));
            let ends = least(ends.clone(), |m| self.enemies_next_to(Some(m), m.end));
            words.push(format!("fewest adjacent enemies → {}", self.ends(&ends)));
            let ends = least(ends, |m| -self.advantage(m));
            words.push(format!("greatest advantage → {}", self.ends(&ends)));
            let ends = least(ends, |m| m.points);
            words.push(format!("fewest move points → {}", self.ends(&ends)));
            out.extend(
                ends.iter()
                    .map(|m| self.outcome(GoalOption::Attack(2), Some(c.hero), m)),
            );
        }
        t.push(format!("Option 2: {}.", words.join("; ")));
        (!out.is_empty()).then_some(out)
    }

    /// Advantage of ending with move `m`: allies' Help auras reaching the space, enemies inside the
    /// actor's own Hinder auras from there, minus enemies' Hinder auras reaching it.
    pub fn advantage(&self, m: &Move) -> i32 {
        let s = m.end;
        let within = |from: usize, r: u32| {
            let d = self.board.distance(from, s);
            d >= 1 && d <= r
        };
        let mut adv = 0;
        for a in &self.allies {
            adv += a
                .auras
                .iter()
                .filter(|x| {
                    x.effect == super::situation::AuraEffect::Help && within(a.at, x.radius)
                })
                .count() as i32;
        }
        for h in 0..self.heroes.len() {
            if self.in_dome(h) {
                continue;
            }
            let p = self.hero_at(Some(m), h);
            adv += self
                .actor
                .auras
                .iter()
                .filter(|x| x.effect == super::situation::AuraEffect::Hinder && within(p, x.radius))
                .count() as i32;
            adv -= self
                .hero(h)
                .auras
                .iter()
                .filter(|x| x.effect == super::situation::AuraEffect::Hinder && within(p, x.radius))
                .count() as i32;
        }
        adv
    }

    /// Whether hero `h` on Dome key `key` can reach a hex outside it with the actor on `actor_at`.
    fn can_leave(&self, h: usize, key: usize, actor_at: Option<usize>) -> bool {
        let cost = self.hero_costs(h, actor_at, self.hero(h).speed);
        cost.iter()
            .enumerate()
            .any(|(i, &c)| c != UNREACHED && self.board.key_of(i) != Some(key))
    }

    /// Attack option 3: trap a hero on a Dome key.
    fn attack_trap(&self, t: &mut Vec<String>) -> Option<Vec<Outcome>> {
        if self.board.dome_keys().is_empty() {
            t.push("Option 3: no Dome key.".to_string());
            return None;
        }
        let mut traps: Vec<(usize, Vec<Move>)> = Vec::new();
        let mut words = Vec::new();
        for h in 0..self.heroes.len() {
            let hero = self.hero(h);
            let Some(key) = self.board.key_of(self.hero_idx[h]) else {
                continue;
            };
            if hero.minion || hero.trapped {
                continue;
            }
            if !self.can_leave(h, key, None) {
                words.push(format!("{} cannot leave the key anyway", hero.name));
                continue;
            }
            let spaces: Vec<Move> = self
                .moves()
                .iter()
                .filter(|m| !self.can_leave(h, key, Some(m.end)))
                .copied()
                .collect();
            if spaces.is_empty() {
                words.push(format!("no space traps {}", hero.name));
            } else {
                words.push(format!("{} trapped from {}", hero.name, self.ends(&spaces)));
                traps.push((h, spaces));
            }
        }
        let cands: Vec<Cand> = traps
            .iter()
            .map(|(h, _)| Cand {
                hero: *h,
                hit: self.melee_hit(*h),
            })
            .collect();
        if cands.is_empty() {
            words.push("nobody to trap".to_string());
            t.push(format!("Option 3: {}.", words.join("; ")));
            return None;
        }
        let chosen = self.choose_target(cands, Validity::Skip, true, &mut words);
        let mut out = Vec::new();
        for c in &chosen {
            let Some((_, spaces)) = traps.iter().find(|(h, _)| *h == c.hero) else {
                continue;
            };
            let target = self.hero_idx[c.hero];
            let spaces = least(spaces.clone(), |m| self.board.distance(m.end, target));
            words.push(format!("closest trapping space → {}", self.ends(&spaces)));
            out.extend(
                spaces
                    .iter()
                    .map(|m| self.outcome(GoalOption::Attack(3), Some(c.hero), m)),
            );
        }
        t.push(format!("Option 3: {}.", words.join("; ")));
        (!out.is_empty()).then_some(out)
    }

    /// Free spaces of uncaptured adventures (no figure on them).
    pub(crate) fn open_adventure_spaces(&self) -> Vec<usize> {
        let mut v: Vec<usize> = self
            .board
            .adventures()
            .iter()
            .filter(|a| !a.captured)
            .flat_map(|a| a.spaces.iter())
            .filter_map(|&h| self.board.index(h))
            .filter(|&i| {
                self.hero_on[i] == crate::hex::NONE
                    && self.allies_on[i] == 0
                    && i != self.actor.start
            })
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Attack option 4: a ranged ambush on a hero heading for an adventure.
    fn attack_ambush(&self, t: &mut Vec<String>) -> Option<Vec<Outcome>> {
        if self.actor.weapons.is_empty() {
            t.push("Option 4: no ranged weapon.".to_string());
            return None;
        }
        let open = self.open_adventure_spaces();
        let mut words = Vec::new();
        // Per hero: its ambush spaces with the worst hit chance over its adventure spaces.
        let mut ambush: Vec<(usize, Vec<(Move, i32)>)> = Vec::new();
        for h in 0..self.heroes.len() {
            // A hero inside a Dome is never a ranged target: only options 3 and 5 deal with it.
            if self.hero(h).minion || self.in_dome(h) {
                continue;
            }
            let reach = self.hero_costs(h, Some(self.actor.start), self.hero(h).speed);
            let goals: Vec<usize> = open
                .iter()
                .copied()
                .filter(|&i| reach[i] != UNREACHED)
                .collect();
            if goals.is_empty() {
                continue;
            }
            let mut spaces = Vec::new();
            for m in self.moves() {
                if self.enemies_next_to(None, m.end) > 0 {
                    continue;
                }
                let mut worst = i32::MAX;
                let mut ok = true;
                for &g in &goals {
                    match self.ranged_hit(m.end, h, g) {
                        Some((hit, _)) if hit >= VALID_HIT => worst = worst.min(hit),
                        _ => {
                            ok = false;
                            break;
                        }
                    }
                }
                if !ok {
                    continue;
                }
                // The hero steps next to the foe where it lies in wait: its reach is judged with
                // the foe on the ambush space, its old hex left free.
                let waiting = self.hero_costs(h, Some(m.end), self.hero(h).speed);
                let next_ok = self.board.neighbours(m.end).all(|n| {
                    let free = self.hero_on[n] == crate::hex::NONE && self.allies_on[n] == 0;
                    if waiting[n] == UNREACHED || !free {
                        return true;
                    }
                    self.ranged_hit(m.end, h, n)
                        .is_some_and(|(hit, _)| hit >= VALID_HIT)
                });
                if next_ok {
                    spaces.push((*m, worst));
                }
            }
            let list: Vec<String> = goals.iter().map(|&g| at(self, g)).collect();
            words.push(format!(
                "{} could reach {}; {} ambush spaces",
                self.name_of(h),
                list.join(", "),
                spaces.len()
            ));
            if !spaces.is_empty() {
                ambush.push((h, spaces));
            }
        }
        if ambush.is_empty() {
            words.push("no ambush".to_string());
            t.push(format!("Option 4: {}.", words.join("; ")));
            return None;
        }
        let cands: Vec<Cand> = ambush
            .iter()
            .map(|(h, _)| Cand { hero: *h, hit: 0 })
            .collect();
        let chosen = if cands.len() > 1 {
            self.override_step(cands, &mut words)
        } else {
            cands
        };
        let mut out = Vec::new();
        for c in &chosen {
            let Some((_, spaces)) = ambush.iter().find(|(h, _)| *h == c.hero) else {
                continue;
            };
            let spaces = least(spaces.clone(), |(m, worst)| (-worst, m.points));
            let moves: Vec<Move> = spaces.iter().map(|(m, _)| *m).collect();
            words.push(format!(
                "best shot at the worst adventure space, then fewest move points → {}",
                self.ends(&moves)
            ));
            out.extend(
                moves
                    .iter()
                    .map(|m| self.outcome(GoalOption::Attack(4), Some(c.hero), m)),
            );
        }
        t.push(format!("Option 4: {}.", words.join("; ")));
        Some(out)
    }
}
