//! Work the monster turns on one board share, kept between turns.
//!
//! The sight oracle and what it answered, range fields from figures, and step graphs with their
//! searches towards attack hexes. Each piece is kept only while what it depends on is unchanged,
//! which is checked on every use rather than announced by the callers: sight and range fields
//! depend on the board alone (figures block neither), a step graph on the board, the monster's way
//! of moving and where its enemies stand. The monsters of one phase act among the same enemies, so
//! they share graphs even as they move themselves, as long as allies do not change the steps (icy
//! slides and monsters on obstacles aside). Whatever is kept, the answers are those of working
//! everything out afresh.

use std::collections::BTreeMap;

use super::movement::{Frontier, Mode, MoveGraph, Occupant, Score, UNREACHABLE, range_field};
use crate::hex::sight::{Sight, Sightlines};
use crate::hex::{HexMap, Terrain};

/// Rows kept per kind beyond those of the turn in hand: enough for every figure of a large
/// scenario, few enough that a long game cannot pile them up.
const ROWS: usize = 128;

/// Step graphs kept: one per way of moving and enemy set, a phase has few.
const GRAPHS: usize = 8;

/// Searches towards one hex kept per graph.
const TOWARDS: usize = 64;

/// What monster turns on one board have worked out and may reuse (see the module docs).
///
/// It is not part of the game: a clone starts empty, it compares equal to any other and is never
/// saved.
#[derive(Default)]
pub struct Shared {
    /// The board everything below was worked out on.
    board: Option<HexMap>,
    sight: Option<Sight>,
    /// Per hex (dense index): which hexes see it (0 unknown, 1 sees, 2 not).
    seen: BTreeMap<u16, Vec<u8>>,
    /// Per hex: the range from it to every hex.
    ranges: BTreeMap<u16, Vec<u16>>,
    /// Step graphs, oldest first.
    graphs: Vec<Moves>,
    /// Every turn builds its own step graph, as before graphs were shared: the reference the
    /// tests compare with.
    #[cfg(test)]
    alone: bool,
}

/// A step graph shared by the monsters moving one way among the same enemies.
struct Moves {
    mode: Mode,
    /// Where the enemies stand, ascending.
    enemies: Vec<u16>,
    /// Built with the enemies only on the board: every monster's steps when it may share it.
    graph: MoveGraph,
    /// Searches from every hex to a hex, per hex searched towards, each as far as asked so far.
    towards: BTreeMap<u16, Frontier>,
}

/// The parts of [`Shared`] one monster turn uses.
pub(super) struct Turn<'s> {
    /// Its step graph, when it may share one (else the caller builds its own).
    pub graph: Option<&'s MoveGraph>,
    /// Searches towards hexes on that graph, to reuse and to add to.
    pub towards: Option<&'s mut BTreeMap<u16, Frontier>>,
    /// The board's sight oracle.
    pub sight: &'s Sight,
    /// Per enemy (in the turn's order), the range from it to every hex.
    pub ranges: Vec<&'s [u16]>,
}

impl Clone for Shared {
    fn clone(&self) -> Self {
        Shared::default()
    }
}

impl PartialEq for Shared {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Shared")
    }
}

impl Shared {
    /// Forgets everything worked out on another board, or on this one before its terrain changed.
    fn on_board(&mut self, map: &HexMap, lines: Sightlines) {
        if self.board.as_ref().is_some_and(|b| b.same_board(map))
            && self.sight.as_ref().is_some_and(|s| s.lines() == lines)
        {
            return;
        }
        self.board = Some(map.clone());
        self.sight = Some(Sight::drawn(map, lines));
        self.seen.clear();
        self.ranges.clear();
        self.graphs.clear();
    }

    /// Takes out, per enemy hex, which hexes are known to see it; [`Shared::give_back`] returns them.
    pub(super) fn take_seen(
        &mut self,
        map: &HexMap,
        lines: Sightlines,
        enemies: &[usize],
    ) -> Vec<Vec<u8>> {
        self.on_board(map, lines);
        if self.seen.len() > ROWS {
            self.seen.retain(|h, _| enemies.contains(&usize::from(*h)));
        }
        enemies
            .iter()
            .map(|&e| self.seen.remove(&key(e)).unwrap_or_default())
            .collect()
    }

    /// Returns what [`Shared::take_seen`] took, with what was learnt meanwhile.
    pub(super) fn give_back(&mut self, enemies: &[usize], seen: Vec<Vec<u8>>) {
        for (&e, row) in enemies.iter().zip(seen) {
            self.seen.insert(key(e), row);
        }
    }

    /// What a monster at `start` moving by `mode` against `enemies` (dense indices) may reuse,
    /// worked out now where missing. Call [`Shared::take_seen`] first: it settles the board.
    pub(super) fn turn(
        &mut self,
        map: &HexMap,
        start: usize,
        enemies: &[usize],
        mode: Mode,
        lines: Sightlines,
    ) -> Turn<'_> {
        self.on_board(map, lines);
        if self.ranges.len() > ROWS {
            self.ranges
                .retain(|h, _| enemies.contains(&usize::from(*h)));
        }
        for &e in enemies {
            self.ranges
                .entry(key(e))
                .or_insert_with(|| range_field(map, e));
        }
        let index = (Self::shares_graph(map, start, mode) && !self.alone())
            .then(|| self.graph(map, enemies, mode));
        let Shared {
            sight,
            ranges,
            graphs,
            ..
        } = self;
        let (graph, towards) = match index.and_then(|i| graphs.get_mut(i)) {
            Some(m) => (Some(&m.graph), Some(&mut m.towards)),
            None => (None, None),
        };
        Turn {
            graph,
            towards,
            sight: sight.get_or_insert_with(|| Sight::drawn(map, lines)),
            ranges: enemies.iter().map(|&e| &ranges[&key(e)][..]).collect(),
        }
    }

    /// Whether every turn builds its own step graph (see the field; never outside tests).
    fn alone(&self) -> bool {
        #[cfg(test)]
        return self.alone;
        #[cfg(not(test))]
        false
    }

    /// Whether a monster at `start` moving by `mode` has the steps of the graph built with its
    /// enemies alone on the board. Allies and the monster itself only change a walker's steps by
    /// stopping icy slides (allies do, its own hex does not), and a walker standing on an obstacle
    /// steps off it though no one else may step from there; flying, jumping and teleporting pass
    /// over every figure.
    fn shares_graph(map: &HexMap, start: usize, mode: Mode) -> bool {
        !mode.walking()
            || (map.terrain_at(start) != Terrain::Obstacle
                && (0..map.len()).all(|i| map.terrain_at(i) != Terrain::Icy))
    }

    /// The index of the graph for `mode` among `enemies`, built if missing.
    fn graph(&mut self, map: &HexMap, enemies: &[usize], mode: Mode) -> usize {
        let mut sorted: Vec<u16> = enemies.iter().map(|&e| key(e)).collect();
        sorted.sort_unstable();
        if let Some(i) = self
            .graphs
            .iter()
            .position(|m| m.mode == mode && m.enemies == sorted)
        {
            return i;
        }
        let mut occupants = vec![Occupant::Empty; map.len()];
        for &e in enemies {
            occupants[e] = Occupant::Enemy;
        }
        if self.graphs.len() >= GRAPHS {
            self.graphs.remove(0);
        }
        self.graphs.push(Moves {
            mode,
            enemies: sorted,
            graph: MoveGraph::new(map, &occupants, mode),
            towards: BTreeMap::new(),
        });
        self.graphs.len() - 1
    }
}

/// Best scores from hexes to one hex (see [`towards`]).
pub(super) struct Toward<'t> {
    search: &'t Frontier,
    graph: &'t MoveGraph,
    target: usize,
}

impl Toward<'_> {
    /// The best score from `e` to the hex (landing penalty included); `UNREACHABLE` where no path
    /// leads there, or for a hex that was not asked about.
    pub fn score(&self, e: usize) -> Score {
        if !self.search.is_settled(e) {
            return UNREACHABLE;
        }
        self.graph.landed(self.search.score(e), self.target)
    }
}

/// The best score from each hex of `ends` (listed, and marked in `is_end`) to `target` on `graph`.
/// The search towards it is kept in `towards` when given, to go on with when another monster asks
/// about other hexes; else it is the caller's own, in `own`.
pub(super) fn towards<'t>(
    graph: &'t MoveGraph,
    target: usize,
    towards: &'t mut Option<&mut BTreeMap<u16, Frontier>>,
    is_end: &[bool],
    ends: &[usize],
    own: &'t mut Option<Frontier>,
) -> Toward<'t> {
    let search = match towards {
        Some(kept) => {
            if kept.len() >= TOWARDS && !kept.contains_key(&key(target)) {
                kept.clear();
            }
            kept.entry(key(target))
                .or_insert_with(|| Frontier::new(graph, target, true))
        }
        None => own.insert(Frontier::new(graph, target, true)),
    };
    let mut left = ends.iter().filter(|&&e| !search.is_settled(e)).count();
    while left > 0 {
        match search.next(graph) {
            Some((u, _)) => left -= usize::from(is_end[u]),
            None => break,
        }
    }
    Toward {
        search,
        graph,
        target,
    }
}

/// A dense hex index as a key (boards have fewer than `u16::MAX` hexes).
fn key(i: usize) -> u16 {
    u16::try_from(i).unwrap_or(u16::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::{Hex, hex, step};
    use crate::rules::gloomhaven::preset::{Edition, Preset};
    use crate::rules::gloomhaven::targeting::{Enemy, LAST, MonsterAction, Situation, decide_with};
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A random board: floor with wall hexes, obstacles, negative, difficult and (sometimes) icy
    /// hexes, and thin walls.
    fn board(rng: &mut ChaCha8Rng) -> HexMap {
        let (w, h) = (rng.random_range(4..12), rng.random_range(4..10));
        let (mut floor, mut walls) = (Vec::new(), Vec::new());
        for q in 0..w {
            for row in 0..h {
                let x = hex(q, row - q / 2);
                if rng.random_range(0..100) < 8 {
                    walls.push(x);
                } else {
                    floor.push(x);
                }
            }
        }
        let mut map = HexMap::new(&floor, &walls).expect("a board");
        let icy = rng.random_range(0..2) == 0;
        for x in &floor {
            let t = match rng.random_range(0..100) {
                0..6 => Terrain::Obstacle,
                6..10 => Terrain::Trap,
                10..13 => Terrain::Hazard,
                13..19 => Terrain::Difficult,
                19..34 if icy => Terrain::Icy,
                _ => Terrain::Floor,
            };
            map.set_terrain(*x, t).expect("on the board");
            if rng.random_range(0..100) < 5 {
                let _ = map.add_thin_wall(*x, step(*x, rng.random_range(0..6)));
            }
        }
        map
    }

    /// A random attack and way of moving.
    fn action(rng: &mut ChaCha8Rng) -> MonsterAction {
        let range = if rng.random_range(0..2) == 0 {
            0
        } else {
            rng.random_range(1..5)
        };
        let aoe = match rng.random_range(0..4) {
            0 if range == 0 => vec![hex(1, 0), hex(1, -1)],
            0 => vec![hex(0, 0), hex(1, 0), hex(0, 1)],
            _ => Vec::new(),
        };
        let mode = rng.random_range(0..6);
        MonsterAction {
            move_points: rng.random_range(0..5),
            range,
            targets: rng.random_range(0..3),
            aoe_melee: range == 0 && !aoe.is_empty(),
            aoe,
            flying: mode == 1,
            jumping: mode == 2,
            teleport: mode == 3,
            muddled: rng.random_range(0..5) == 0,
        }
    }

    #[test]
    fn searches_settling_one_hex_at_a_time_find_the_whole_searches_scores() {
        // Every hex a search reaches is settled once, in the order of the scores, with the score
        // the search of the whole board gives it (which adds the landing penalty itself); a search
        // stopped halfway and taken on later settles the same hexes.
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let (mut searches, mut negative) = (0, 0);
        for _ in 0..300 {
            let map = board(&mut rng);
            let open: Vec<usize> = (0..map.len())
                .filter(|&i| map.terrain_at(i) != Terrain::Wall)
                .collect();
            if open.is_empty() {
                continue;
            }
            let mut occupants = vec![Occupant::Empty; map.len()];
            for _ in 0..rng.random_range(0..4) {
                occupants[open[rng.random_range(0..open.len())]] = Occupant::Enemy;
            }
            let source = open[rng.random_range(0..open.len())];
            occupants[source] = Occupant::Myself;
            let way = rng.random_range(0..4);
            let mode = Mode {
                flying: way == 1,
                jumping: way == 2,
                teleport: way == 3,
                heavy_landing: rng.random_bool(0.5),
            };
            let graph = MoveGraph::new(&map, &occupants, mode);
            for reverse in [false, true] {
                let whole = if reverse {
                    graph.to(source, None)
                } else {
                    graph.from(source)
                };
                let landed = |h: usize, sc: Score| {
                    let at = if reverse { source } else { h };
                    if !reverse && h == source {
                        sc
                    } else {
                        graph.landed(sc, at)
                    }
                };
                let mut search = Frontier::new(&graph, source, reverse);
                let pause = rng.random_range(0..map.len() + 1);
                let mut last = (0, 0);
                let mut settled = vec![false; map.len()];
                for step in 0.. {
                    if step == pause {
                        // Taken on later, as a kept search is.
                        search = search.clone();
                    }
                    let Some((h, sc)) = search.next(&graph) else {
                        break;
                    };
                    assert!(sc >= last, "settled out of order");
                    assert!(!settled[h], "settled twice");
                    assert!(search.is_settled(h));
                    settled[h] = true;
                    last = sc;
                    assert_eq!(landed(h, sc), whole[h]);
                    negative += usize::from(sc.0 > 0);
                }
                for h in 0..map.len() {
                    assert_eq!(settled[h], whole[h] != UNREACHABLE, "hex {h}");
                }
                searches += 1;
            }
        }
        assert!(searches > 500, "{searches} searches");
        assert!(negative > 100, "{negative} hexes behind negative ones");
    }

    #[test]
    fn turns_sharing_their_work_decide_as_turns_that_do_not() {
        // One store across many boards, and on each board turns whose figures move, whose enemies
        // change and whose terrain changes in between, as in a game; each turn is compared with one
        // that shares nothing and builds its own step graph with every figure on it.
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut shared = Shared::default();
        let (mut turns, mut on_shared_graph, mut heading) = (0, 0, 0);
        for _ in 0..150 {
            let mut map = board(&mut rng);
            let mut enemy_hexes: Vec<Hex> = Vec::new();
            for turn in 0..12 {
                let mut open: Vec<Hex> = map
                    .hexes()
                    .iter()
                    .copied()
                    .filter(|x| map.terrain(*x) != Some(Terrain::Wall))
                    .collect();
                if open.len() < 4 {
                    break;
                }
                // Enemies stay put for a few turns (a foe phase), then move (the heroes' turns).
                enemy_hexes.retain(|x| open.contains(x));
                if turn % 4 == 0 || enemy_hexes.is_empty() {
                    enemy_hexes.clear();
                    for _ in 0..rng.random_range(1..4) {
                        enemy_hexes.push(open.swap_remove(rng.random_range(0..open.len())));
                    }
                } else {
                    open.retain(|x| !enemy_hexes.contains(x));
                }
                let active = open.swap_remove(rng.random_range(0..open.len()));
                let allies: Vec<Hex> = (0..rng.random_range(0..7).min(open.len()))
                    .map(|_| open.swap_remove(rng.random_range(0..open.len())))
                    .collect();
                let enemies: Vec<Enemy> = enemy_hexes
                    .iter()
                    .enumerate()
                    .map(|(k, &x)| Enemy {
                        hex: x,
                        initiative: 10 + k as u32 % 2,
                        second: 0,
                        order: LAST,
                        name: String::new(),
                    })
                    .collect();
                let act = action(&mut rng);
                // Every edition: sight drawn either way, and jumps landing either way.
                let edition = Edition::of(Preset::ALL[rng.random_range(0..Preset::ALL.len())]);
                let s = Situation {
                    map: &map,
                    active,
                    allies: &allies,
                    enemies: &enemies,
                    action: &act,
                    edition,
                };
                let mode = s.mode();
                let start = map.index_of(active).map_or(0, usize::from);
                let shares = Shared::shares_graph(&map, start, mode);
                let d = decide_with(&s, &mut shared).expect("a valid position");
                let mut alone = Shared {
                    alone: true,
                    ..Shared::default()
                };
                assert_eq!(Ok(&d), decide_with(&s, &mut alone).as_ref(), "turn {turns}");
                on_shared_graph += usize::from(shares);
                // Searches towards attack hexes out of reach are the ones kept for later turns.
                heading +=
                    usize::from(shares && d.options.iter().any(|o| !o.heading_to.is_empty()));
                turns += 1;
                // Now and then a trap springs.
                if rng.random_range(0..5) == 0 {
                    let x = map.hexes()[rng.random_range(0..map.len())];
                    if map.terrain(x) == Some(Terrain::Trap) {
                        map.set_terrain(x, Terrain::Floor).expect("on the board");
                    }
                }
            }
        }
        assert!(turns > 1_000, "{turns} turns");
        assert!(
            on_shared_graph > turns / 2,
            "{on_shared_graph} of {turns} on a shared graph"
        );
        assert!(
            heading > turns / 20,
            "{heading} of {turns} heading for attack hexes"
        );
    }
}
