//! Movement: where the acting foe can end a Move or a Slip Away, and how far heroes and foes are
//! from places by move points (woods and rough cost 2; foes pass allies, heroes pass heroes).

use super::context::{Ctx, Move};
use crate::hex::NONE;
use crate::hex::path::{UNREACHED, path_costs};

/// Move points of a Slip Away's shift.
pub(crate) const SLIP_SHIFT: u32 = 2;

impl Ctx<'_> {
    /// Whether the actor may end on board index `i`, with `hero_on(i)` telling who stands where;
    /// `Some(stacked_on)` when it may.
    fn end_here(&self, i: usize, hero_there: bool) -> Option<Option<usize>> {
        if hero_there || (i == self.actor.start && !self.actor.own_end) {
            return None;
        }
        match self.allies_on[i] {
            0 => Some(None),
            1 => {
                let a = self.ally_on(i)?;
                (!self.allies[a].acted).then_some(Some(a))
            }
            _ => None,
        }
    }

    /// Move points for the actor to every hex, passing allies, never heroes, up to `limit`.
    pub(crate) fn foe_costs_from(&self, sources: &[usize], limit: u32) -> Vec<u32> {
        path_costs(self.board.map(), sources, limit, |_, to| {
            if self.hero_on[to] != NONE {
                return None;
            }
            self.board.enter_cost(to)
        })
    }

    /// Every place the actor can end a Move (its own hex at 0 points included when allowed).
    pub fn moves(&self) -> &[Move] {
        self.moves.get_or_init(|| {
            let cost = self.foe_costs_from(&[self.actor.start], self.actor.speed);
            (0..self.board.len())
                .filter(|&i| cost[i] != UNREACHED)
                .filter_map(|i| {
                    let stacked_on = self.end_here(i, self.hero_on[i] != NONE)?;
                    Some(Move {
                        end: i,
                        points: cost[i],
                        swap: None,
                        stacked_on,
                    })
                })
                .collect()
        })
    }

    /// Every place the actor can end a Slip Away: switch with an adjacent hero, then shift 2.
    pub(crate) fn slips(&self) -> &[Move] {
        self.slips.get_or_init(|| {
            let mut out = Vec::new();
            if !self.actor.slip {
                return out;
            }
            let start = self.actor.start;
            for h in 0..self.heroes.len() {
                let at = self.hero_idx[h];
                if self.in_dome(h) || !self.board.adjacent(at, start) {
                    continue;
                }
                // After the switch the hero stands on the foe's old hex and its own is the foe's.
                let hero_there = |i: usize| i == start || (i != at && self.hero_on[i] != NONE);
                let cost = path_costs(self.board.map(), &[at], SLIP_SHIFT, |_, to| {
                    if hero_there(to) {
                        return None;
                    }
                    self.board.enter_cost(to)
                });
                for (i, &c) in cost.iter().enumerate() {
                    if c == UNREACHED {
                        continue;
                    }
                    if let Some(stacked_on) = self.end_here(i, hero_there(i)) {
                        out.push(Move {
                            end: i,
                            points: c,
                            swap: Some(h),
                            stacked_on,
                        });
                    }
                }
            }
            out
        })
    }

    /// Move points for hero `h` to every hex (passing heroes, never foes, never into a Dome), with
    /// the actor standing on `actor_at` (or off the board), up to `limit`.
    pub(crate) fn hero_costs(&self, h: usize, actor_at: Option<usize>, limit: u32) -> Vec<u32> {
        path_costs(self.board.map(), &[self.hero_idx[h]], limit, |_, to| {
            if self.allies_on[to] > 0 || actor_at == Some(to) {
                return None;
            }
            self.board.enter_cost(to)
        })
    }

    /// Move points from every hex to the nearest of `targets` along the actor's paths (passing
    /// allies, never heroes), of any length. Paths are walked backwards: a step costs its entry.
    pub(crate) fn foe_costs_to(&self, targets: &[usize]) -> Vec<u32> {
        path_costs(self.board.map(), targets, u32::MAX, |from, to| {
            if self.hero_on[to] != NONE || self.board.enter_cost(to).is_none() {
                return None;
            }
            self.board.enter_cost(from)
        })
    }
}
