//! A hero's movement and reach on its turn: move ends with their paths, the foes an attack reaches.
//!
//! The table's highlights, the candidate plays ([`super::candidates`]), `apply`'s check of a hero's
//! move and the autopilot all come from here.

use super::movement::{Mode, MoveGraph, Occupant, Score, UNREACHABLE};
use super::scenario::{Condition, Effect};
use super::state::{FigureId, State};
use crate::hex::sight::Sight;
use crate::hex::{Hex, HexMap, distance, qr};

/// Every move one move effect allows a hero.
///
/// It is the step graph monsters move by (`movement.rs`), built
/// from the hero's side (other heroes are allies, foes are enemies), so difficult terrain, traps,
/// thin walls and icy slides work for heroes exactly as for monsters.
///
/// A move's path is the hexes where its steps end: an icy slide is one step, to the hex where it
/// stops. Each end hex has one path, the cheapest by (negative hexes, movement points) with ties
/// broken step by step towards the lowest direction; `apply` accepts a hero's move only along it.
pub struct HeroMoves<'a> {
    /// The board as the hero walks it: closed doors are floor to a character, which opens them.
    map: std::borrow::Cow<'a, HexMap>,
    /// The step graph of this move.
    pub graph: MoveGraph,
    /// The index of the hex the hero stands on.
    pub start: usize,
    /// Per hex, the best (negative hexes, movement points) within the move's points.
    scores: Vec<Score>,
}

impl<'a> HeroMoves<'a> {
    /// The moves of `hero` with `points` movement points, jumping or walking (none when the hero is
    /// immobilized); `None` when the hero stands off the board.
    pub fn new(s: &'a State, hero: usize, points: u32, jump: bool) -> Option<HeroMoves<'a>> {
        let points = if s.has(FigureId::Hero(hero), Condition::Immobilize) {
            0
        } else {
            points
        };
        let closed = s.closed_doors();
        let map = if closed.is_empty() {
            std::borrow::Cow::Borrowed(&s.map.0)
        } else {
            let mut m = s.map.0.clone();
            for h in closed {
                let _ = m.set_terrain(h, crate::hex::Terrain::Floor);
            }
            std::borrow::Cow::Owned(m)
        };
        let start = map.index_of(s.heroes[hero].hex)? as usize;
        let occupants: Vec<Occupant> = (0..map.len())
            .map(|i| match s.figure_at(map.hex_at(i)) {
                Some(FigureId::Hero(h)) if h == hero => Occupant::Myself,
                Some(FigureId::Hero(_) | FigureId::Summon(_)) => Occupant::Ally,
                Some(FigureId::Monster(_)) => Occupant::Enemy,
                None => Occupant::Empty,
            })
            .collect();
        let graph = MoveGraph::new(
            &map,
            &occupants,
            Mode {
                flying: false,
                jumping: jump,
                teleport: false,
                heavy_landing: s.scenario.edition().switches.jump_landing
                    == super::preset::JumpLanding::Terrain,
            },
        );
        let scores = graph.within(start, points.min(u16::MAX as u32) as u16);
        Some(HeroMoves {
            map,
            graph,
            start,
            scores,
        })
    }

    /// Whether the move can end on hex index `i` (other than where the hero stands).
    fn ends_on(&self, i: usize) -> bool {
        i != self.start && self.scores[i] != UNREACHABLE && self.graph.endable[i]
    }

    /// The path of a move ending on `end` (empty for staying), or `None` when no move ends there.
    pub(crate) fn path_to(&self, end: Hex) -> Option<Vec<Hex>> {
        let i = self.map.index_of(end)? as usize;
        if i == self.start {
            return Some(Vec::new());
        }
        self.ends_on(i).then(|| self.path_at(i))
    }

    fn path_at(&self, i: usize) -> Vec<Hex> {
        self.graph
            .path(self.start, i, self.scores[i])
            .into_iter()
            .map(|j| self.map.hex_at(j))
            .collect()
    }

    /// The (negative hexes, movement points) of the path to `end`, `UNREACHABLE` off the board.
    pub fn score(&self, end: Hex) -> Score {
        self.map
            .index_of(end)
            .map_or(UNREACHABLE, |i| self.scores[i as usize])
    }

    /// Every hex the move can end on other than where the hero stands, with its path, in `(q, r)`
    /// order of the end hex.
    pub fn ends(&self) -> Vec<(Hex, Vec<Hex>)> {
        let mut out: Vec<(Hex, Vec<Hex>)> = (0..self.scores.len())
            .filter(|&i| self.ends_on(i))
            .map(|i| (self.map.hex_at(i), self.path_at(i)))
            .collect();
        out.sort_by_key(|(h, _)| qr(*h));
        out
    }
}

/// Hexes a hero can end a move of `points` on, each with the path the move takes (see
/// [`HeroMoves`]), in `(q, r)` order of the end hex.
pub fn reach(s: &State, hero: usize, points: u32, jump: bool) -> Vec<(Hex, Vec<Hex>)> {
    HeroMoves::new(s, hero, points, jump).map_or_else(Vec::new, |m| m.ends())
}

/// Checks a hero's move as `apply` takes it: a non-empty `path` must be the path [`HeroMoves`] gives
/// to its last hex.
pub(crate) fn check_move(
    s: &State,
    hero: usize,
    path: &[Hex],
    points: u32,
    jump: bool,
) -> Result<(), String> {
    let Some(&end) = path.last() else {
        return Ok(());
    };
    let words = |v: &[Hex]| {
        v.iter()
            .map(|h| format!("({}, {})", h.x, h.y))
            .collect::<Vec<_>>()
            .join(" ")
    };
    match HeroMoves::new(s, hero, points, jump).and_then(|m| m.path_to(end)) {
        Some(p) if p == path => Ok(()),
        Some(p) if p.is_empty() => Err("move: the path comes back to where it starts".into()),
        Some(p) => Err(format!(
            "move: the move to ({}, {}) takes the path {}, not {}",
            end.x,
            end.y,
            words(&p),
            words(path)
        )),
        None => Err(format!(
            "move: a move of {points} cannot end on ({}, {})",
            end.x, end.y
        )),
    }
}

/// Movement points of a half and whether it jumps.
pub fn movement(effects: &[Effect]) -> Option<(u32, bool)> {
    effects.iter().find_map(|e| match e {
        Effect::Move(n) => Some((*n, false)),
        Effect::Jump(n) => Some((*n, true)),
        _ => None,
    })
}

/// Attack range and number of targets of a half.
pub fn attack(effects: &[Effect]) -> Option<(u32, u32)> {
    effects.iter().find_map(|e| match e {
        Effect::Attack { range, targets, .. } => Some((*range, *targets)),
        _ => None,
    })
}

/// Living foes an attack of `range` (0: melee) from `from` can reach, in `(q, r)` order.
pub(crate) fn foes_in_reach(s: &State, from: Hex, range: u32) -> Vec<Hex> {
    let sight = (range > 0).then(|| Sight::drawn(&s.map.0, s.scenario.edition().switches.sight));
    let mut out: Vec<Hex> = s
        .living_monsters()
        .map(|m| s.monsters[m].hex)
        .filter(|&t| match &sight {
            None => s.map.0.adjacent(from, t),
            Some(v) => distance(from, t) <= range && v.visible(from, t),
        })
        .collect();
    out.sort_by_key(|h| qr(*h));
    out
}
