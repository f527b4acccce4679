//! The Special goal: special items, stopping a trade, loot, area effects and a hero in a Dome; then
//! on down the Attack goal.

use super::attack_goal::{at, least};
use super::context::{Ctx, Move};
use super::situation::{Affects, AuraEffect, GoalOption, ItemEffect, ItemKind, Outcome};
use super::target::{Cand, Validity};
use crate::hex::path::UNREACHED;

impl Ctx<'_> {
    /// The Special goal from option `from` (1 to 5; 6 goes down the Attack goal).
    pub(crate) fn special_goal(&self, from: u8, t: &mut Vec<String>) -> Vec<Outcome> {
        for option in from.max(1)..=5 {
            let outcomes = match option {
                1 => self.special_items(t),
                2 => self.stop_trading(t),
                3 => self.take_loot(t),
                4 => self.area_effects(t),
                _ => self.dome_hero(t),
            };
            if let Some(o) = outcomes {
                return o;
            }
        }
        t.push("Option 6: down the Attack goal.".to_string());
        self.attack_goal(t)
    }

    /// Whether an outcome ends next to an enemy (after any Slip Away).
    fn ends_next_to_enemy(&self, o: &Outcome) -> bool {
        let Some(end) = self.board.index(o.end) else {
            return false;
        };
        (0..self.heroes.len()).any(|h| {
            if self.in_dome(h) {
                return false;
            }
            let p = if o.swap.as_deref() == Some(self.name_of(h)) {
                self.actor.start
            } else {
                self.hero_idx[h]
            };
            self.board.adjacent(p, end)
        })
    }

    /// Special option 1: the first meaningful item, in the order Surprise, single-use, once per game.
    fn special_items(&self, t: &mut Vec<String>) -> Option<Vec<Outcome>> {
        if self.actor.items.is_empty() {
            t.push("Option 1: no special item.".to_string());
            return None;
        }
        let mut order: Vec<usize> = (0..self.actor.items.len()).collect();
        order.sort_by_key(|&k| (self.actor.items[k].kind, k));
        Some(self.items_from(&order, t))
    }

    /// Examines items `order[..]` in turn; past the last one, carries on with option 2.
    fn items_from(&self, order: &[usize], t: &mut Vec<String>) -> Vec<Outcome> {
        let Some((&k, rest)) = order.split_first() else {
            return self.special_goal(2, t);
        };
        let item = &self.actor.items[k];
        let with = |mut outs: Vec<Outcome>| {
            for o in &mut outs {
                o.used.push(item.name.clone());
                o.used.sort();
            }
            outs
        };
        match item.effect {
            ItemEffect::Lurk { min, max, strike } if item.kind == ItemKind::Surprise => {
                match self.lurk(&item.name, (min, max), strike, t) {
                    Some(o) => o,
                    None => self.items_from(rest, t),
                }
            }
            ItemEffect::Lurk { .. } => {
                t.push(format!(
                    "Option 1: {} lurks only as a Surprise card.",
                    item.name
                ));
                self.items_from(rest, t)
            }
            ItemEffect::Burst { radius, affects } => {
                let start = self.actor.start;
                let near = |p: usize| self.board.distance(p, start) <= radius;
                let meaningful = match affects {
                    Affects::Enemies => {
                        (0..self.heroes.len()).any(|h| !self.in_dome(h) && near(self.hero_idx[h]))
                    }
                    // Healing means something only to an ally that has lost wounds.
                    Affects::Allies => self.allies.iter().any(|a| a.hurt && near(a.at)),
                };
                if !meaningful {
                    let nobody = match affects {
                        Affects::Enemies => "nobody",
                        Affects::Allies => "no hurt ally",
                    };
                    t.push(format!("Option 1: {} would reach {nobody}.", item.name));
                    return self.items_from(rest, t);
                }
                if !item.action {
                    t.push(format!("Option 1: uses {} and carries on.", item.name));
                    return with(self.special_goal(2, t));
                }
                if !self.actor.own_end {
                    t.push(format!(
                        "Option 1: {} is used where it stands, and it may not stay.",
                        item.name
                    ));
                    return self.items_from(rest, t);
                }
                t.push(format!("Option 1: uses {} where it stands.", item.name));
                let mut o = Outcome::new(GoalOption::Special(1), self.board.hex(start));
                o.used.push(item.name.clone());
                vec![o]
            }
            ItemEffect::Guard => {
                t.push(format!(
                    "Option 1: {} counts where the foe ends next to an enemy.",
                    item.name
                ));
                let later = self.special_goal(2, t);
                let (next_to, apart): (Vec<Outcome>, Vec<Outcome>) =
                    later.into_iter().partition(|o| self.ends_next_to_enemy(o));
                if next_to.is_empty() {
                    t.push(format!("Option 1: {} is not meaningful.", item.name));
                    return self.items_from(rest, t);
                }
                let mut out = with(next_to);
                if !apart.is_empty() {
                    t.push(format!(
                        "Option 1: where it ends apart, the items after {} are examined.",
                        item.name
                    ));
                    out.extend(
                        self.items_from(rest, t)
                            .into_iter()
                            .filter(|o| !self.ends_next_to_enemy(o)),
                    );
                }
                out
            }
        }
    }

    /// A Lurk card: move where a valid target of its strike is in range and sight.
    ///
    /// The card strikes from hiding with Aim + `strike` against Stealth (+2 in woods), so that
    /// hit chance decides validity and the easiest target: the foe moves to use the card
    /// effectively.
    fn lurk(
        &self,
        name: &str,
        (min, max): (u32, u32),
        strike: i32,
        t: &mut Vec<String>,
    ) -> Option<Vec<Outcome>> {
        let seen = |m: &Move, h: usize| {
            let p = self.hero_idx[h];
            let d = self.board.distance(m.end, p);
            d >= min && d <= max && self.sees(m.end, p)
        };
        let cands: Vec<Cand> = (0..self.heroes.len())
            .filter(|&h| !self.in_dome(h) && self.moves().iter().any(|m| seen(m, h)))
            .map(|h| Cand {
                hero: h,
                hit: self.surprise_hit(h, strike),
            })
            .collect();
        if cands.is_empty() {
            t.push(format!("Option 1: {name} finds no enemy to lurk by."));
            return None;
        }
        let mut words = vec![format!("{name}")];
        let chosen = self.choose_target(cands, Validity::Required, true, &mut words);
        if chosen.is_empty() {
            t.push(format!(
                "Option 1: {}; {name} is not meaningful.",
                words.join("; ")
            ));
            return None;
        }
        let mut out = Vec::new();
        for c in &chosen {
            let spaces: Vec<Move> = self
                .moves()
                .iter()
                .filter(|m| seen(m, c.hero))
                .copied()
                .collect();
            let spaces = least(spaces, |m| m.points);
            words.push(format!("fewest move points → {}", self.ends(&spaces)));
            for m in &spaces {
                let mut o = self.outcome(GoalOption::Special(1), Some(c.hero), m);
                o.used.push(name.to_string());
                out.push(o);
            }
        }
        t.push(format!("Option 1: {}.", words.join("; ")));
        Some(out)
    }

    /// Special option 2: end next to as many trading heroes as possible.
    fn stop_trading(&self, t: &mut Vec<String>) -> Option<Vec<Outcome>> {
        let n = self.heroes.len();
        let watched = |h: usize| {
            self.allies
                .iter()
                .any(|a| self.board.adjacent(a.at, self.hero_idx[h]))
        };
        let mut trading = vec![false; n];
        for a in 0..n {
            for b in a + 1..n {
                let (ha, hb) = (self.hero(a), self.hero(b));
                let linked = !self.in_dome(a)
                    && !self.in_dome(b)
                    && self.board.adjacent(self.hero_idx[a], self.hero_idx[b])
                    && ha.can_trade
                    && hb.can_trade
                    && (ha.loot > 0 || hb.loot > 0)
                    && !watched(a)
                    && !watched(b);
                if linked {
                    trading[a] = true;
                    trading[b] = true;
                }
            }
        }
        let traders: Vec<usize> = (0..n).filter(|&h| trading[h]).collect();
        if traders.is_empty() {
            t.push("Option 2: nobody is trading.".to_string());
            return None;
        }
        let score = |m: &Move| {
            traders
                .iter()
                .filter(|&&h| self.board.adjacent(m.end, self.hero_idx[h]))
                .count()
        };
        let spaces: Vec<Move> = self
            .moves()
            .iter()
            .filter(|m| score(m) > 0)
            .copied()
            .collect();
        if spaces.is_empty() {
            t.push(format!(
                "Option 2: {} trading, but no space next to them.",
                self.names(traders)
            ));
            return None;
        }
        let spaces = least(spaces, |m| (std::cmp::Reverse(score(m)), m.points));
        t.push(format!(
            "Option 2: {} trading; most trading heroes, then fewest move points → {}.",
            self.names(traders),
            self.ends(&spaces)
        ));
        Some(
            spaces
                .iter()
                .map(|m| self.outcome(GoalOption::Special(2), None, m))
                .collect(),
        )
    }

    /// Special option 3: the most valuable loot it can end on (a Slip Away for what no Move reaches).
    fn take_loot(&self, t: &mut Vec<String>) -> Option<Vec<Outcome>> {
        let mut value = vec![0u32; self.board.len()];
        for l in self.board.loot() {
            if let Some(i) = self.board.index(l.hex) {
                value[i] += l.value();
            }
        }
        let mut spaces: Vec<Move> = self
            .moves()
            .iter()
            .filter(|m| value[m.end] > 0)
            .copied()
            .collect();
        spaces.extend(
            self.slips()
                .iter()
                .filter(|s| value[s.end] > 0 && !self.moves().iter().any(|m| m.end == s.end)),
        );
        if spaces.is_empty() {
            t.push("Option 3: no loot within reach.".to_string());
            return None;
        }
        let spaces = least(spaces, |m| std::cmp::Reverse(value[m.end]));
        t.push(format!(
            "Option 3: the most valuable loot ({}) → {}.",
            value[spaces[0].end],
            self.ends(&spaces)
        ));
        Some(
            spaces
                .iter()
                .map(|m| self.outcome(GoalOption::Special(3), None, m))
                .collect(),
        )
    }

    /// Special option 4: where its auras reach the most enemies (Hinder) or acted allies (Help).
    fn area_effects(&self, t: &mut Vec<String>) -> Option<Vec<Outcome>> {
        if self.actor.auras.is_empty() {
            t.push("Option 4: no aura.".to_string());
            return None;
        }
        let within = |a: usize, b: usize, r: u32| {
            let d = self.board.distance(a, b);
            d >= 1 && d <= r
        };
        let score = |m: &Move| -> usize {
            self.actor
                .auras
                .iter()
                .map(|x| match x.effect {
                    AuraEffect::Hinder => (0..self.heroes.len())
                        .filter(|&h| !self.in_dome(h) && within(self.hero_idx[h], m.end, x.radius))
                        .count(),
                    AuraEffect::Help => self
                        .allies
                        .iter()
                        .filter(|a| a.acted && within(a.at, m.end, x.radius))
                        .count(),
                })
                .sum()
        };
        let spaces: Vec<Move> = self
            .moves()
            .iter()
            .filter(|m| score(m) > 0)
            .copied()
            .collect();
        if spaces.is_empty() {
            t.push("Option 4: its auras would reach nobody.".to_string());
            return None;
        }
        let spaces = least(spaces, |m| (std::cmp::Reverse(score(m)), m.points));
        t.push(format!(
            "Option 4: auras reach {} at best; fewest move points → {}.",
            score(&spaces[0]),
            self.ends(&spaces)
        ));
        Some(
            spaces
                .iter()
                .map(|m| self.outcome(GoalOption::Special(4), None, m))
                .collect(),
        )
    }

    /// Special option 5: stand where a hero in a Dome has the longest way to an adventure.
    fn dome_hero(&self, t: &mut Vec<String>) -> Option<Vec<Outcome>> {
        let open = self.open_adventure_spaces();
        let mut words = Vec::new();
        let mut domed: Vec<(usize, Vec<usize>, Vec<Move>)> = Vec::new();
        for h in 0..self.heroes.len() {
            if self.hero(h).minion || !self.in_dome(h) {
                continue;
            }
            let dome = self.hero_idx[h];
            let spaces: Vec<Move> = self
                .moves()
                .iter()
                .filter(|m| self.board.adjacent(m.end, dome))
                .copied()
                .collect();
            if spaces.is_empty() {
                words.push(format!("no space next to {}'s Dome", self.name_of(h)));
                continue;
            }
            let cost = self.hero_costs(h, Some(self.actor.start), u32::MAX);
            let best = open.iter().map(|&i| cost[i]).min().unwrap_or(UNREACHED);
            if best == UNREACHED {
                words.push(format!("{} can reach no adventure", self.name_of(h)));
                continue;
            }
            let nearest: Vec<usize> = open.iter().copied().filter(|&i| cost[i] == best).collect();
            domed.push((h, nearest, spaces));
        }
        if domed.is_empty() {
            if words.is_empty() {
                words.push("no hero in a Dome".to_string());
            }
            t.push(format!("Option 5: {}.", words.join("; ")));
            return None;
        }
        let cands: Vec<Cand> = domed
            .iter()
            .map(|(h, _, _)| Cand { hero: *h, hit: 0 })
            .collect();
        let chosen = if cands.len() > 1 {
            self.override_step(cands, &mut words)
        } else {
            cands
        };
        let mut out = Vec::new();
        for c in &chosen {
            let Some((h, nearest, spaces)) = domed.iter().find(|(h, _, _)| *h == c.hero) else {
                continue;
            };
            let after = |m: &Move| {
                let cost = self.hero_costs(*h, Some(m.end), u32::MAX);
                nearest.iter().map(|&i| cost[i]).min().unwrap_or(UNREACHED)
            };
            let scored: Vec<(Move, u32)> = spaces.iter().map(|m| (*m, after(m))).collect();
            let scored = least(scored, |(m, c)| (std::cmp::Reverse(*c), m.points));
            let moves: Vec<Move> = scored.iter().map(|(m, _)| *m).collect();
            let list: Vec<String> = nearest.iter().map(|&i| at(self, i)).collect();
            words.push(format!(
                "{} heads for {}; longest way for that hero, then fewest move points → {}",
                self.name_of(*h),
                list.join(", "),
                self.ends(&moves)
            ));
            out.extend(
                moves
                    .iter()
                    .map(|m| self.outcome(GoalOption::Special(5), Some(*h), m)),
            );
        }
        t.push(format!("Option 5: {}.", words.join("; ")));
        Some(out)
    }
}
