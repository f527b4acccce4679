//! The hero autopilot of a goal-priority game: always one of the hero's legal actions.
//!
//! It plays as a player would, in integers: each legal action gets a score, the highest wins and
//! the first in the legal order breaks ties, so a game replays the same from its seed. A Move is
//! scored by where it ends and the best action the hero could take there; any other action by
//! what it does where the hero stands. Where it ends counts by the move points left to the
//! adventure this hero heads for (the one it can reach first among the heroes, else the one the
//! team reaches soonest); loot with cards, a card handed to the explorer, Slip Away past a foe,
//! a Dome when hurt and threatened and a good attack add to that.

use super::actions::{Action, Fig};
use super::board::Board;
use super::scenario::Qr;
use super::state::{AdventureState, Phase, State};
use super::turn::TO_HIT;
use crate::hex::path::{UNREACHED, path_costs};
use crate::hex::{distance, hex};

/// Score of one move point nearer the adventure the hero heads for.
const STEP: i64 = 10;
/// Score of standing where the hero explores next, before the odds.
const EXPLORE: i64 = 1000;
/// Score of each die face that explores.
const EXPLORE_FACE: i64 = 120;
/// Score of a card picked up by a hero that has none (it adds two to an Explore roll).
const CARD: i64 = 250;
/// Score of a hurt, threatened hero hiding in a Dome.
const HIDE: i64 = 2000;
/// Score of handing loot with cards to a hero that explores sooner and has none.
const HAND_OVER: i64 = 300;
/// Score of each die face that hits and then wounds, out of 36.
const WOUND_FACE: i64 = 12;
/// Hit-and-wound faces out of 36 below which an attack is not worth the action.
const GOOD_ODDS: i64 = 8;
/// Penalty for each foe that can reach a hurt hero where it ends.
const DANGER: i64 = 60;
/// Move points that stand for "no way there".
const FAR: u32 = 200;

/// Die faces (of six) that reach `needed`, with a 1 always failing and a 6 always succeeding.
fn faces(needed: i32) -> i64 {
    i64::from(7 - needed.clamp(2, 6))
}

/// What the autopilot knows of the board for one hero's decision.
struct Plan<'a> {
    s: &'a State,
    board: Board,
    h: usize,
    /// Move points from each board hex to the adventure this hero heads for ([`FAR`] if none).
    to_goal: Vec<u32>,
    /// The heroes (other than `h`) who would use a card sooner: they head for an adventure they
    /// reach with fewer move points than `h`, carry no card and can trade.
    wanting: Vec<usize>,
    hurt: bool,
}

impl<'a> Plan<'a> {
    fn new(s: &'a State, h: usize) -> Option<Plan<'a>> {
        let board = s.board().ok()?;
        // The explorers: a minion explores nothing, so it follows the team's adventure.
        let heroes: Vec<usize> = (0..s.heroes.len())
            .filter(|&o| s.hero_in(o) && !s.file().heroes[o].minion)
            .collect();
        // Move points to every open adventure's free spaces, for every hex.
        let mut costs: Vec<(usize, Vec<u32>)> = Vec::new();
        for (a, spaces) in s.scenario.layout.adventures.iter().enumerate() {
            if s.adventures[a] != AdventureState::Open {
                continue;
            }
            let free: Vec<usize> = spaces
                .iter()
                .filter(|x| s.foe_at((x.x, x.y)).is_none())
                .filter_map(|x| board.index(*x))
                .collect();
            if !free.is_empty() {
                costs.push((a, reverse_costs(s, &board, &free)));
            }
        }
        let at = |o: usize| {
            let p = s.heroes[o].hex;
            board.index(hex(p.0, p.1))
        };
        // A hero in a Dome steps out first: count from the cheapest hex next to it.
        let cost_of = |c: &[u32], o: usize| -> u32 {
            let Some(i) = at(o) else { return FAR };
            if board.is_dome(i) {
                board
                    .neighbours(i)
                    .map(|n| c[n].saturating_add(1))
                    .min()
                    .unwrap_or(FAR)
                    .min(FAR)
            } else {
                c[i].min(FAR)
            }
        };
        // The adventure a hero heads for: the one it reaches first among the heroes (lowest
        // cost), else the one the team reaches soonest. Ties: the first adventure.
        let goal_of = |o: usize| -> Option<usize> {
            let mut mine: Option<(u32, usize)> = None;
            let mut team: Option<(u32, usize)> = None;
            for (k, (_, c)) in costs.iter().enumerate() {
                let own = cost_of(c, o);
                let best = heroes.iter().map(|&x| cost_of(c, x)).min().unwrap_or(FAR);
                if heroes.contains(&o) && own == best && mine.is_none_or(|(m, _)| own < m) {
                    mine = Some((own, k));
                }
                if team.is_none_or(|(t, _)| best < t) {
                    team = Some((best, k));
                }
            }
            mine.or(team).map(|(_, k)| k)
        };
        let own_goal = goal_of(h);
        let to_goal = match own_goal {
            Some(k) => costs[k].1.clone(),
            None => vec![FAR; board.len()],
        };
        let mine = own_goal.map_or(FAR, |k| cost_of(&costs[k].1, h));
        let file = s.file();
        let wanting = heroes
            .iter()
            .copied()
            .filter(|&o| o != h && file.heroes[o].can_trade && s.heroes[o].cards == 0)
            .filter(|&o| goal_of(o).is_some_and(|k| cost_of(&costs[k].1, o) < mine))
            .collect();
        let x = &s.heroes[h];
        let hurt = x.health < file.heroes[h].health && x.health <= 2;
        Some(Plan {
            s,
            board,
            h,
            to_goal,
            wanting,
            hurt,
        })
    }

    /// Move points from `p` to the adventure the hero heads for.
    fn goal_cost(&self, p: Qr) -> u32 {
        self.board
            .index(hex(p.0, p.1))
            .map_or(FAR, |i| self.to_goal[i].min(FAR))
    }

    /// How many foes could come next to (or shoot at) a hero standing on `p`.
    fn threats(&self, p: Qr) -> i64 {
        let s = self.s;
        let at = hex(p.0, p.1);
        let n = (0..s.foes.len())
            .filter(|&f| s.foe_in(f))
            .filter(|&f| {
                let x = &s.foes[f];
                let spec = &s.file().foes[x.spec];
                let (speed, reach) = match (&spec.minion_card, x.minion) {
                    (Some(m), true) => (m.speed, 1),
                    _ => (
                        spec.speed,
                        spec.weapons.iter().map(|w| w.range.1).max().unwrap_or(1),
                    ),
                };
                distance(at, hex(x.hex.0, x.hex.1)) <= speed + reach.max(1)
            })
            .count();
        i64::try_from(n).unwrap_or(i64::MAX)
    }

    /// What standing on `p` is worth, before any action there.
    fn place(&self, p: Qr) -> i64 {
        let mut v = -STEP * i64::from(self.goal_cost(p));
        if self.hurt && !self.s.is_dome(p) {
            v -= DANGER * self.threats(p);
        }
        v
    }

    /// The best action the hero could take standing on `p` (not moving on), and its worth.
    fn best_there(&self, p: Qr) -> i64 {
        let s = self.s;
        let x = &s.heroes[self.h];
        let spec = &s.file().heroes[self.h];
        let at = hex(p.0, p.1);
        let mut best = 0;
        if s.is_dome(p) {
            return best;
        }
        if let Some(a) = s.adventure_at(p)
            && s.adventures[a] == AdventureState::Open
        {
            best = best.max(self.explore_worth(a, x.cards > 0));
        }
        if let Some(pile) = s.loot.iter().find(|l| l.hex == p) {
            best = best.max(self.pile_worth(pile.gold, pile.cards));
        }
        if x.cards > 0 && spec.can_trade {
            for &o in &self.wanting {
                let q = s.heroes[o].hex;
                if !s.is_dome(q) && distance(at, hex(q.0, q.1)) == 1 {
                    best = best.max(HAND_OVER);
                }
            }
        }
        for f in (0..s.foes.len()).filter(|&f| s.foe_in(f)) {
            let q = s.foes[f].hex;
            let d = distance(at, hex(q.0, q.1));
            if d == 1 {
                best = best.max(self.attack_worth(f, spec.melee, false, p));
                let alone = (0..s.foes.len())
                    .filter(|&g| s.foe_in(g) && s.foes[g].hex == q)
                    .count()
                    == 1;
                if alone {
                    best = best.max(self.place(q) - self.place(p));
                }
            }
            if let Some((lo, hi)) = spec.range
                && (lo..=hi).contains(&d)
                && self.sees(p, q)
            {
                best = best.max(self.attack_worth(f, spec.aim, true, p));
            }
        }
        if self.hurt && self.threats(p) > 0 && self.free_dome_next_to(p).is_some() {
            best = best.max(HIDE);
        }
        best
    }

    fn sees(&self, a: Qr, b: Qr) -> bool {
        match (
            self.board.index(hex(a.0, a.1)),
            self.board.index(hex(b.0, b.1)),
        ) {
            (Some(i), Some(j)) => self.board.sees(i, j),
            _ => false,
        }
    }

    fn free_dome_next_to(&self, p: Qr) -> Option<Qr> {
        let at = hex(p.0, p.1);
        (0..6)
            .map(|d| crate::hex::step(at, d))
            .map(|q| (q.x, q.y))
            .find(|&q| self.s.is_dome(q) && self.s.hero_at(q).is_none())
    }

    /// An Explore of adventure `a` now: worth its odds, nothing when no die can do it.
    fn explore_worth(&self, a: usize, card: bool) -> i64 {
        let s = self.s;
        let needed = s.file().adventures[a].difficulty
            - s.file().heroes[self.h].wits
            - if card { 2 } else { 0 };
        // Explore has no sure 6: a roll short of the difficulty fails.
        let f = i64::from(7 - needed.clamp(1, 7));
        if f == 0 {
            0
        } else {
            EXPLORE + EXPLORE_FACE * f
        }
    }

    /// Picking up a pile: cards count when the hero has none, gold a little.
    fn pile_worth(&self, gold: u32, cards: u32) -> i64 {
        let x = &self.s.heroes[self.h];
        let card = if cards > 0 && x.cards == 0 {
            CARD
        } else {
            i64::from(cards.min(10)) * 20
        };
        card + i64::from(gold.min(10)) * 5
    }

    /// An attack on foe `f` with `rating` from `p`: worth its hit-and-wound odds, if good enough.
    fn attack_worth(&self, f: usize, rating: i32, ranged: bool, p: Qr) -> i64 {
        let s = self.s;
        let mut chance = rating - s.defence(Fig::Foe(f), ranged);
        // Auras as they would reach the hero where it stands then: only its own spot counts here.
        if p == s.heroes[self.h].hex {
            chance += s.aura_bonus(Fig::Hero(self.h));
        }
        let odds = faces(TO_HIT - chance) * faces(s.armor(Fig::Foe(f)) + 1);
        if odds < GOOD_ODDS {
            return 0;
        }
        // A foe with one wound left is worth more: it is out on a hit that wounds.
        let last = if s.foes[f].health <= 1 { 2 } else { 1 };
        WOUND_FACE * odds * last
    }

    /// The worth of one legal action.
    fn score(&self, a: &Action) -> i64 {
        let s = self.s;
        let here = s.heroes[self.h].hex;
        match *a {
            Action::Move(p) => self.place(p) + self.best_there(p),
            Action::Explore => {
                let adv = s.adventure_at(here).unwrap_or(0);
                self.place(here) + self.explore_worth(adv, s.heroes[self.h].cards > 0)
            }
            Action::PickUp => s
                .loot
                .iter()
                .find(|l| l.hex == here)
                .map_or(0, |l| self.place(here) + self.pile_worth(l.gold, l.cards)),
            Action::Trade(o) => {
                if self.wanting.contains(&o) && s.heroes[self.h].cards > 0 {
                    self.place(here) + HAND_OVER
                } else {
                    i64::MIN
                }
            }
            Action::Melee(f) => {
                self.place(here) + self.attack_worth(f, s.file().heroes[self.h].melee, false, here)
            }
            Action::Shoot(f) => {
                self.place(here) + self.attack_worth(f, s.file().heroes[self.h].aim, true, here)
            }
            Action::SlipAway(f) => self.place(s.foes[f].hex),
            Action::Hide(d) => {
                if self.hurt && self.threats(here) > 0 {
                    self.place(d) + HIDE
                } else {
                    i64::MIN
                }
            }
            // Staying put: in a Dome while still threatened and hurt, that is hiding on.
            Action::End => {
                if s.is_dome(here) && self.hurt && self.threats(here) > 0 {
                    HIDE
                } else {
                    self.place(here)
                }
            }
            Action::Advance
            | Action::Draw(_)
            | Action::Roll(_)
            | Action::Choose(_)
            | Action::Arrange(_) => i64::MIN,
        }
    }
}

/// Move points from every board hex to the nearest of `targets` for a hero: foes, walls,
/// prohibited terrain and Domes block; woods and rough cost 2. A foe's own hex gets the cost of
/// a hero that slipped away onto it and walks on from there.
fn reverse_costs(s: &State, board: &Board, targets: &[usize]) -> Vec<u32> {
    // Searching back from the targets, the step from `from` to `to` stands for a hero's step from
    // `to` into `from`, so it costs what entering `from` costs, and a foe on `from` bars it.
    path_costs(board.map(), targets, FAR, |from, to| {
        let q = board.hex(from);
        if s.foe_at((q.x, q.y)).is_some() {
            return None;
        }
        board.enter_cost(to)?;
        board.enter_cost(from)
    })
    .into_iter()
    .map(|c| if c == UNREACHED { FAR } else { c })
    .collect()
}

/// What the autopilot does for hero `h` now, among its legal actions.
pub fn next_action(s: &State, h: usize) -> Option<Action> {
    let Phase::Hero { hero, moved } = s.phase else {
        return None;
    };
    if hero != h || s.tie.is_some() || !s.rolls.is_empty() {
        return None;
    }
    let legal = s.hero_actions(h, moved);
    let Some(plan) = Plan::new(s, h) else {
        return legal.last().cloned();
    };
    let mut best: Option<(i64, &Action)> = None;
    for a in &legal {
        let v = plan.score(a);
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, a));
        }
    }
    best.map(|(_, a)| a.clone())
}
