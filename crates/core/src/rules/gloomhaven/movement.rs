//! How a figure moves: walking (terrain costs, negative hexes, icy slides), jumping, flying and
//! teleport. Monsters move by this graph, and so do heroes (`heroes.rs` builds it from a hero's side).
//!
//! Every mode is a graph of single steps with a cost and a count of negative hexes entered, plus a
//! "landing" penalty for modes where only the last hex of a move counts (jumping, teleport). Paths are
//! compared lexicographically by (negative hexes, movement points).

use crate::hex::{HexMap, NONE, Terrain};

/// A path score: negative hexes entered, then movement points.
pub(crate) type Score = (u16, u16);

/// The score of a hex no move reaches.
pub(crate) const UNREACHABLE: Score = (u16::MAX, u16::MAX);

/// Who stands on a hex, from the moving figure's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Occupant {
    /// Nobody.
    Empty,
    /// An ally of the monster: it may pass, not stop.
    Ally,
    /// An enemy: it blocks walking.
    Enemy,
    /// The moving figure itself.
    Myself,
}

/// Movement type of the moving figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mode {
    /// Flies: passes over terrain and figures, not wall hexes.
    pub flying: bool,
    /// Jumps: passes over terrain and figures; only the hex a move ends on counts.
    pub jumping: bool,
    /// Teleports: passes even wall hexes (not thin walls); only the end hex counts.
    pub teleport: bool,
    /// A jump's last hex costs what its terrain costs (2 on difficult terrain), as in the
    /// Gloomhaven preset; otherwise every hex of a jump costs 1.
    pub heavy_landing: bool,
}

impl Mode {
    /// Whether the monster walks (none of the other modes).
    pub const fn walking(self) -> bool {
        !self.flying && !self.jumping && !self.teleport
    }

    /// How the monster moves, in a log line.
    pub fn describe(self) -> &'static str {
        match (self.teleport, self.flying, self.jumping) {
            (true, true, _) => "teleports (flying)",
            (true, false, _) => "teleports",
            (false, true, _) => "flies",
            (false, false, true) => "jumps",
            _ => "walks",
        }
    }
}

/// One step of a move: the hex where it ends, its cost and negative hexes entered on the way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edge {
    /// Dense index of the hex the step ends on.
    pub to: u16,
    /// Movement points it costs.
    pub cost: u8,
    /// Negative hexes entered on the way.
    pub neg: u8,
}

/// The step graph of one monster on one board with its figures.
///
/// Stored flat (at most six steps leave a hex; incoming steps in compressed rows) because solving a
/// position builds one graph and runs several searches over it.
#[derive(Debug, Clone)]
pub struct MoveGraph {
    out: Vec<[Edge; 6]>,
    out_len: Vec<u8>,
    /// Incoming steps of hex `v`: `incoming[in_start[v]..in_start[v + 1]]`, each with the hex it
    /// starts from in place of where it ends.
    in_start: Vec<u32>,
    incoming: Vec<Edge>,
    /// Negative hexes counted where a move ends (jumping, teleport).
    pub landing: Vec<u8>,
    /// Movement points a move pays for where it ends, beyond its steps (a heavy jump landing on
    /// difficult terrain).
    pub landing_points: Vec<u8>,
    /// Whether the monster may end a move on each hex.
    pub endable: Vec<bool>,
    /// Every step costs 1 and enters no negative hex: searches are plain breadth-first.
    uniform: bool,
}

const NO_EDGE: Edge = Edge {
    to: NONE,
    cost: 0,
    neg: 0,
};

impl MoveGraph {
    /// The step graph for a monster moving by `mode` among `occupants` (one per dense hex index).
    pub fn new(map: &HexMap, occupants: &[Occupant], mode: Mode) -> Self {
        let n = map.len();
        let mut out = vec![[NO_EDGE; 6]; n];
        let mut out_len = vec![0u8; n];
        let mut landing = vec![0u8; n];
        let mut landing_points = vec![0u8; n];
        let mut endable = vec![false; n];
        for i in 0..n {
            let t = map.terrain_at(i);
            // A monster may always stay where it stands, even on an obstacle it could not enter.
            endable[i] = occupants[i] == Occupant::Myself
                || (t != Terrain::Wall
                    && (t != Terrain::Obstacle || mode.flying)
                    && occupants[i] == Occupant::Empty);
            if (mode.jumping || (mode.teleport && !mode.flying)) && t.is_negative() {
                landing[i] = 1;
            }
            if mode.jumping && !mode.teleport && !mode.flying && mode.heavy_landing {
                landing_points[i] = u8::from(t == Terrain::Difficult);
            }
        }
        let mut in_count = vec![0u32; n + 1];
        for u in 0..n {
            if mode.walking() && !walkable(map, occupants, u) && occupants[u] != Occupant::Myself {
                // Nothing starts from a hex a walker can never stand in.
                continue;
            }
            for d in 0..6 {
                let v = map.neighbour(u, d);
                if v == NONE || map.thin_wall(u, d) {
                    continue;
                }
                let v = v as usize;
                let edge = if mode.teleport {
                    Edge {
                        to: v as u16,
                        cost: 1,
                        neg: 0,
                    }
                } else if !mode.walking() {
                    if map.terrain_at(v) == Terrain::Wall {
                        continue;
                    }
                    Edge {
                        to: v as u16,
                        cost: 1,
                        neg: 0,
                    }
                } else if walkable(map, occupants, v) {
                    walk_step(map, occupants, v, d)
                } else {
                    continue;
                };
                out[u][out_len[u] as usize] = edge;
                out_len[u] += 1;
                in_count[edge.to as usize + 1] += 1;
            }
        }
        for v in 0..n {
            in_count[v + 1] += in_count[v];
        }
        let in_start = in_count.clone();
        let mut fill = in_count;
        let mut incoming = vec![NO_EDGE; in_start[n] as usize];
        for u in 0..n {
            for e in &out[u][..out_len[u] as usize] {
                let slot = &mut fill[e.to as usize];
                incoming[*slot as usize] = Edge { to: u as u16, ..*e };
                *slot += 1;
            }
        }
        let uniform = incoming.iter().all(|e| e.cost == 1 && e.neg == 0);
        MoveGraph {
            out,
            out_len,
            in_start,
            incoming,
            landing,
            landing_points,
            endable,
            uniform,
        }
    }

    /// A path's score `s` of steps ending on `h`, with what landing there adds.
    #[inline]
    pub fn landed(&self, s: Score, h: usize) -> Score {
        (
            s.0 + u16::from(self.landing[h]),
            s.1 + u16::from(self.landing_points[h]),
        )
    }

    /// The steps leaving hex `u`.
    #[inline]
    pub fn steps(&self, u: usize) -> &[Edge] {
        &self.out[u][..self.out_len[u] as usize]
    }

    /// The steps entering hex `v`, each with where it starts in place of where it ends.
    #[inline]
    fn steps_into(&self, v: usize) -> &[Edge] {
        &self.incoming[self.in_start[v] as usize..self.in_start[v + 1] as usize]
    }

    /// Best score from `start` to every hex with unlimited movement (landing penalty included).
    pub fn from(&self, start: usize) -> Vec<Score> {
        let mut best = search(
            &[(start, (0, 0))],
            None,
            self.uniform,
            self.out.len(),
            |u| self.steps(u),
        );
        for (i, s) in best.iter_mut().enumerate() {
            if *s != UNREACHABLE {
                *s = self.landed(*s, i);
            }
        }
        // Staying put enters no hex, so it lands on none: a jumper on a trap pays nothing to stay.
        best[start] = (0, 0);
        best
    }

    /// Best score from every hex to `target` (landing penalty of the target included). With `until`,
    /// only the hexes marked there are sure to be final: the search stops once they are.
    pub fn to(&self, target: usize, until: Option<&[bool]>) -> Vec<Score> {
        let mut best = search(
            &[(target, (0, 0))],
            until,
            self.uniform,
            self.out.len(),
            |v| self.steps_into(v),
        );
        for s in best.iter_mut() {
            if *s != UNREACHABLE {
                *s = self.landed(*s, target);
            }
        }
        best
    }

    /// Best score from every hex to the nearest hex marked in `goals` (landing penalty of the goal
    /// included); `UNREACHABLE` where no marked hex can be reached.
    pub(crate) fn to_any(&self, goals: &[bool]) -> Vec<Score> {
        let sources: Vec<(usize, Score)> = goals
            .iter()
            .enumerate()
            .filter(|(_, g)| **g)
            .map(|(i, _)| (i, self.landed((0, 0), i)))
            .collect();
        // Sources start with different scores: only a search by score takes them in order.
        search(&sources, None, false, self.out.len(), |v| {
            self.steps_into(v)
        })
    }

    /// For a move of at most `budget` points from `start`: per hex, the fewest negative hexes and then
    /// the fewest points (landing penalty included), or `UNREACHABLE`.
    pub fn within(&self, start: usize, budget: u16) -> Vec<Score> {
        let n = self.out.len();
        let b = budget as usize;
        // Every step costs at least 1, so only the hexes within `budget` steps are reached: they
        // alone get a row (`slot`), the rest of the board is never looked at.
        let live = self.within_steps(start, b);
        let mut slot = vec![u32::MAX; n];
        for (i, &v) in live.iter().enumerate() {
            slot[v] = i as u32;
        }
        let m = live.len();
        // layer[c * m + slot[v]]: fewest negatives reaching v with exactly c points.
        let mut layer = vec![u16::MAX; (b + 1) * m];
        layer[slot[start] as usize] = 0;
        for c in 0..=b {
            for (i, &u) in live.iter().enumerate() {
                let cur = layer[c * m + i];
                if cur == u16::MAX {
                    continue;
                }
                for e in self.steps(u) {
                    let c2 = c + e.cost as usize;
                    if c2 <= b {
                        let at = &mut layer[c2 * m + slot[e.to as usize] as usize];
                        *at = (*at).min(cur + e.neg as u16);
                    }
                }
            }
        }
        let mut best = vec![UNREACHABLE; n];
        for c in 0..=b {
            for (i, &v) in live.iter().enumerate() {
                let neg = layer[c * m + i];
                if neg != u16::MAX {
                    let cand = self.landed((neg, c as u16), v);
                    if usize::from(cand.1) <= b && cand < best[v] {
                        best[v] = cand;
                    }
                }
            }
        }
        // Staying put enters no hex (see `from`).
        best[start] = (0, 0);
        best
    }

    /// The hexes at most `steps` steps from `start`, in the order found.
    fn within_steps(&self, start: usize, steps: usize) -> Vec<usize> {
        let mut depth = vec![u16::MAX; self.out.len()];
        depth[start] = 0;
        let mut found = vec![start];
        let mut head = 0;
        while head < found.len() {
            let u = found[head];
            head += 1;
            if depth[u] as usize >= steps {
                continue;
            }
            for e in self.steps(u) {
                let v = e.to as usize;
                if depth[v] == u16::MAX {
                    depth[v] = depth[u] + 1;
                    found.push(v);
                }
            }
        }
        found
    }

    /// One cheapest path (hexes entered, in order) from `start` to `goal` with score `want`; ties
    /// between equal paths go to the lowest direction index, step by step.
    pub fn path(&self, start: usize, goal: usize, want: Score) -> Vec<usize> {
        if start == goal || want == UNREACHABLE {
            return Vec::new();
        }
        let n = self.out.len();
        let target_neg = want.0.saturating_sub(self.landing[goal] as u16);
        let total = want.1.saturating_sub(self.landing_points[goal] as u16) as usize;
        // Every step costs at least 1, so the walk below only visits hexes within `total` steps of
        // the start: they alone get a row (`slot`), the rest of the board is never looked at.
        let live = self.within_steps(start, total);
        let mut slot = vec![u32::MAX; n];
        for (i, &v) in live.iter().enumerate() {
            slot[v] = i as u32;
        }
        let m = live.len();
        // Having spent c points it stands at most c steps from the start, and `live` comes nearest
        // first: only its first `upto[c]` hexes are filled in for c.
        let mut upto = vec![0usize; total + 1];
        {
            let mut depth = vec![0usize; m];
            for (i, &u) in live.iter().enumerate() {
                for e in self.steps(u) {
                    let j = slot[e.to as usize];
                    if j != u32::MAX && j as usize > i && depth[j as usize] == 0 {
                        depth[j as usize] = depth[i] + 1;
                    }
                }
                if let Some(x) = upto.get_mut(depth[i]) {
                    *x = i + 1;
                }
            }
            for c in 1..=total {
                upto[c] = upto[c].max(upto[c - 1]);
            }
        }
        // rest[c * m + slot[v]]: fewest negatives from v, having spent c points, to goal at exactly
        // want.1; a hex without a row has none.
        let rest_at = |rest: &[u16], c: usize, v: usize| match slot[v] {
            u32::MAX => u16::MAX,
            i => rest[c * m + i as usize],
        };
        let mut rest = vec![u16::MAX; (total + 1) * m];
        if slot[goal] != u32::MAX {
            rest[total * m + slot[goal] as usize] = 0;
        }
        for c in (0..total).rev() {
            for (i, &u) in live[..upto[c]].iter().enumerate() {
                let mut best = u16::MAX;
                for e in self.steps(u) {
                    let c2 = c + e.cost as usize;
                    if c2 <= total {
                        let r = rest_at(&rest, c2, e.to as usize);
                        if r != u16::MAX {
                            best = best.min(r + e.neg as u16);
                        }
                    }
                }
                rest[c * m + i] = best;
            }
        }
        let mut out = Vec::new();
        let (mut u, mut c, mut negs) = (start, 0usize, 0u16);
        while u != goal || c != total {
            let next = self.steps(u).iter().find(|e| {
                let c2 = c + e.cost as usize;
                c2 <= total && {
                    let r = rest_at(&rest, c2, e.to as usize);
                    r != u16::MAX && negs + e.neg as u16 + r == target_neg
                }
            });
            let Some(e) = next else { break };
            negs += e.neg as u16;
            c += e.cost as usize;
            u = e.to as usize;
            out.push(u);
        }
        out
    }
}

fn walkable(map: &HexMap, occupants: &[Occupant], v: usize) -> bool {
    let t = map.terrain_at(v);
    t != Terrain::Wall && t != Terrain::Obstacle && occupants[v] != Occupant::Enemy
}

/// A walking step into `v` in direction `d`, following an icy slide to where it stops.
fn walk_step(map: &HexMap, occupants: &[Occupant], v: usize, d: usize) -> Edge {
    let mut cur = v;
    if map.terrain_at(v) == Terrain::Icy {
        loop {
            let next = map.neighbour(cur, d);
            if next == NONE
                || map.thin_wall(cur, d)
                || !walkable(map, occupants, next as usize)
                || occupants[next as usize] == Occupant::Ally
            {
                break;
            }
            cur = next as usize;
            if map.terrain_at(cur) != Terrain::Icy {
                break;
            }
        }
        let neg = map.terrain_at(cur).is_negative() as u8;
        return Edge {
            to: cur as u16,
            cost: 1,
            neg,
        };
    }
    let cost = if map.terrain_at(v) == Terrain::Difficult {
        2
    } else {
        1
    };
    Edge {
        to: v as u16,
        cost,
        neg: map.terrain_at(v).is_negative() as u8,
    }
}

/// Best scores from `sources` (each with the score it starts with) along `steps`: breadth-first
/// when every step costs 1 and enters no negative hex (`uniform`, one source), else by score.
///
/// With `until`, the search may stop once every hex marked there has its final score; other hexes
/// are then left unfinished.
fn search<'g>(
    sources: &[(usize, Score)],
    until: Option<&[bool]>,
    uniform: bool,
    n: usize,
    steps: impl Fn(usize) -> &'g [Edge],
) -> Vec<Score> {
    match sources {
        [(source, (0, 0))] if uniform => breadth_first(n, *source, until, steps),
        _ => dijkstra_from(n, sources, until, steps),
    }
}

/// Scores when every step costs 1 and no hex is negative: breadth-first search (see [`search`]).
fn breadth_first<'g>(
    n: usize,
    source: usize,
    until: Option<&[bool]>,
    steps: impl Fn(usize) -> &'g [Edge],
) -> Vec<Score> {
    let mut best = vec![UNREACHABLE; n];
    let mut left = until.map_or(usize::MAX, |u| u.iter().filter(|x| **x).count());
    let mut queue = Vec::with_capacity(n);
    best[source] = (0, 0);
    queue.push(source);
    // A hex's breadth-first score is final as soon as it is found.
    let settle = |v: usize, left: &mut usize| {
        if until.is_some_and(|u| u[v]) {
            *left -= 1;
        }
    };
    settle(source, &mut left);
    let mut head = 0;
    while head < queue.len() && left > 0 {
        let u = queue[head];
        head += 1;
        let d = best[u].1 + 1;
        for e in steps(u) {
            let v = usize::from(e.to);
            if best[v] == UNREACHABLE {
                best[v] = (0, d);
                queue.push(v);
                settle(v, &mut left);
            }
        }
    }
    best
}

/// No entry: the end of a bucket's list.
const NIL: u32 = u32::MAX;

/// Lexicographic (negatives, points) Dijkstra (see [`search`]).
///
/// Scores are small integers, so the queue is buckets rather than a heap: one list of hexes per
/// count of negatives, whose points come in any order, and, for the count in hand, one list per
/// point total. A step that enters no negative hex stays in the count in hand, at a higher total;
/// one that does waits for its count. Hexes come out in the order of their scores, as from a heap.
fn dijkstra_from<'g>(
    n: usize,
    sources: &[(usize, Score)],
    until: Option<&[bool]>,
    steps: impl Fn(usize) -> &'g [Edge],
) -> Vec<Score> {
    let mut best = vec![UNREACHABLE; n];
    let mut left = until.map_or(usize::MAX, |u| u.iter().filter(|x| **x).count());
    // Per count of negatives: (points, hex) found with that count and not yet taken out.
    let mut waiting: Vec<Vec<(u16, u16)>> = Vec::new();
    let wait = |waiting: &mut Vec<Vec<(u16, u16)>>, v: usize, s: Score| {
        let level = usize::from(s.0);
        if waiting.len() <= level {
            waiting.resize_with(level + 1, Vec::new);
        }
        waiting[level].push((s.1, v as u16));
    };
    for &(source, score) in sources {
        if score < best[source] {
            best[source] = score;
            wait(&mut waiting, source, score);
        }
    }
    let mut buckets = Buckets {
        head: Vec::with_capacity(n),
        pool: Vec::with_capacity(n),
        hi: 0,
    };
    let mut level = 0;
    'levels: while level < waiting.len() {
        let neg = level as u16;
        buckets.pool.clear();
        let mut c = usize::MAX;
        for (points, v) in std::mem::take(&mut waiting[level]) {
            c = c.min(usize::from(points));
            buckets.put(v, points);
        }
        while c <= buckets.hi {
            // A step of no points would add to the list in hand: it is taken again until empty.
            let mut e = std::mem::replace(&mut buckets.head[c], NIL);
            if e == NIL {
                c += 1;
                continue;
            }
            while e != NIL {
                let (u, next) = buckets.pool[e as usize];
                e = next;
                let u = usize::from(u);
                // Entries left behind by a better score are skipped; an entry with the best score
                // is final: every lower score came out before.
                if best[u] != (neg, c as u16) {
                    continue;
                }
                if until.is_some_and(|m| m[u]) {
                    left -= 1;
                    if left == 0 {
                        break 'levels;
                    }
                }
                for e in steps(u) {
                    let v = usize::from(e.to);
                    let cand = (neg + u16::from(e.neg), c as u16 + u16::from(e.cost));
                    if cand < best[v] {
                        best[v] = cand;
                        if e.neg == 0 {
                            buckets.put(e.to, cand.1);
                        } else {
                            wait(&mut waiting, v, cand);
                        }
                    }
                }
            }
        }
        buckets.hi = 0;
        level += 1;
    }
    best
}

/// The lists of hexes per point total for one count of negatives (see [`dijkstra_from`]).
#[derive(Debug, Clone)]
struct Buckets {
    /// Per point total, the first entry of its list in `pool`, or [`NIL`].
    head: Vec<u32>,
    /// Entries: a hex and the next entry of its list.
    pool: Vec<(u16, u32)>,
    /// The highest point total with an entry.
    hi: usize,
}

impl Buckets {
    #[inline]
    fn put(&mut self, v: u16, points: u16) {
        let c = usize::from(points);
        if self.head.len() <= c {
            self.head.resize(c + 1, NIL);
        }
        self.pool.push((v, self.head[c]));
        self.head[c] = (self.pool.len() - 1) as u32;
        self.hi = self.hi.max(c);
    }
}

/// A search by score over a [`MoveGraph`] that settles one hex at a time and may be resumed.
///
/// Hexes are settled in the order of their scores (as `search` would find them): a question
/// about the hexes near where it starts stops it early, and a later question about farther hexes
/// takes it on from there.
///
/// Scores are those of the search itself: the landing penalty, counted where a move ends, is the
/// caller's to add.
#[derive(Debug, Clone)]
pub(crate) struct Frontier {
    /// Along incoming steps (scores towards the source) rather than outgoing ones.
    reverse: bool,
    uniform: bool,
    /// Best score found so far; final once the hex is settled.
    best: Vec<Score>,
    settled: Vec<bool>,
    /// Breadth-first: hexes in the order found (their scores are final when found), and the next
    /// one to settle.
    queue: Vec<u16>,
    head: usize,
    /// By score (see [`dijkstra_from`]): per count of negatives the (points, hex) waiting for it, the
    /// count in hand, the point total in hand and the entry of its list to look at next.
    waiting: Vec<Vec<(u16, u16)>>,
    buckets: Buckets,
    level: usize,
    points: usize,
    entry: u32,
}

impl Frontier {
    /// A search from `source` with score `(0, 0)`, along outgoing steps or, when `reverse`, incoming
    /// ones (then the scores are those of paths ending at `source`).
    pub fn new(graph: &MoveGraph, source: usize, reverse: bool) -> Self {
        let n = graph.out.len();
        let mut best = vec![UNREACHABLE; n];
        best[source] = (0, 0);
        let mut f = Frontier {
            reverse,
            uniform: graph.uniform,
            best,
            settled: vec![false; n],
            queue: Vec::new(),
            head: 0,
            waiting: Vec::new(),
            buckets: Buckets {
                head: Vec::new(),
                pool: Vec::new(),
                hi: 0,
            },
            level: 0,
            points: usize::MAX,
            entry: NIL,
        };
        if f.uniform {
            f.queue.reserve(n);
            f.queue.push(source as u16);
        } else {
            f.buckets.put(source as u16, 0);
            f.points = 0;
        }
        f
    }

    /// The score of hex `i`: final once settled, the best found so far before.
    #[inline]
    pub fn score(&self, i: usize) -> Score {
        self.best[i]
    }

    /// Whether hex `i` has its final score.
    #[inline]
    pub(crate) fn is_settled(&self, i: usize) -> bool {
        self.settled[i]
    }

    /// Settles the next hex (the one with the lowest score left) and returns it with its score, or
    /// `None` when every hex the search reaches is settled.
    pub fn next(&mut self, graph: &MoveGraph) -> Option<(usize, Score)> {
        let u = if self.uniform {
            self.next_breadth_first(graph)?
        } else {
            self.next_by_score(graph)?
        };
        self.settled[u] = true;
        Some((u, self.best[u]))
    }

    fn steps<'g>(&self, graph: &'g MoveGraph, u: usize) -> &'g [Edge] {
        if self.reverse {
            graph.steps_into(u)
        } else {
            graph.steps(u)
        }
    }

    fn next_breadth_first(&mut self, graph: &MoveGraph) -> Option<usize> {
        let u = usize::from(*self.queue.get(self.head)?);
        self.head += 1;
        let d = self.best[u].1 + 1;
        for e in self.steps(graph, u) {
            let v = usize::from(e.to);
            if self.best[v] == UNREACHABLE {
                self.best[v] = (0, d);
                self.queue.push(e.to);
            }
        }
        Some(u)
    }

    /// [`dijkstra_from`]'s loops, unrolled so that they stop after each hex settled.
    fn next_by_score(&mut self, graph: &MoveGraph) -> Option<usize> {
        loop {
            while self.entry != NIL {
                let (u, next) = self.buckets.pool[self.entry as usize];
                self.entry = next;
                let u = usize::from(u);
                let neg = self.level as u16;
                let c = self.points as u16;
                // Entries left behind by a better score are skipped.
                if self.best[u] != (neg, c) {
                    continue;
                }
                let steps = if self.reverse {
                    graph.steps_into(u)
                } else {
                    graph.steps(u)
                };
                for e in steps {
                    let v = usize::from(e.to);
                    let cand = (neg + u16::from(e.neg), c + u16::from(e.cost));
                    if cand < self.best[v] {
                        self.best[v] = cand;
                        if e.neg == 0 {
                            self.buckets.put(e.to, cand.1);
                        } else {
                            let level = usize::from(cand.0);
                            if self.waiting.len() <= level {
                                self.waiting.resize_with(level + 1, Vec::new);
                            }
                            self.waiting[level].push((cand.1, e.to));
                        }
                    }
                }
                return Some(u);
            }
            if self.points <= self.buckets.hi {
                // The list in hand again (a step of no points adds to it), else the next total.
                self.entry = std::mem::replace(&mut self.buckets.head[self.points], NIL);
                if self.entry == NIL {
                    self.points += 1;
                }
                continue;
            }
            // The next count of negatives.
            self.buckets.hi = 0;
            self.level += 1;
            if self.level >= self.waiting.len() {
                return None;
            }
            self.buckets.pool.clear();
            self.points = usize::MAX;
            for (points, v) in std::mem::take(&mut self.waiting[self.level]) {
                self.points = self.points.min(usize::from(points));
                self.buckets.put(v, points);
            }
        }
    }
}

/// Hex-step distance from `from` to every hex along paths that avoid wall hexes and thin walls
/// (range and proximity are counted this way); `u16::MAX` where no such path exists.
pub(crate) fn range_field(map: &HexMap, from: usize) -> Vec<u16> {
    range_field_within(map, from, u16::MAX)
}

/// [`range_field`] counted only up to `limit` steps; farther hexes are left at `u16::MAX`. An attack's
/// range needs no more, and on a large board this is a small part of it.
pub(crate) fn range_field_within(map: &HexMap, from: usize, limit: u16) -> Vec<u16> {
    let mut dist = Vec::new();
    range_field_into(map, from, limit, &mut dist, &mut Vec::new());
    dist
}

/// [`range_field_within`] written into `dist`, with `queue` as the search's queue: a caller asking
/// for many fields keeps both and allocates nothing.
pub(crate) fn range_field_into(
    map: &HexMap,
    from: usize,
    limit: u16,
    dist: &mut Vec<u16>,
    queue: &mut Vec<usize>,
) {
    let n = map.len();
    dist.clear();
    dist.resize(n, u16::MAX);
    if map.terrain_at(from) == Terrain::Wall {
        return;
    }
    // A plain vector serves as the queue: every hex enters it at most once.
    queue.clear();
    dist[from] = 0;
    queue.push(from);
    let mut head = 0;
    while head < queue.len() {
        let u = queue[head];
        head += 1;
        if dist[u] >= limit {
            continue;
        }
        for d in 0..6 {
            let v = map.neighbour(u, d);
            if v == NONE || map.thin_wall(u, d) || map.terrain_at(v as usize) == Terrain::Wall {
                continue;
            }
            if dist[v as usize] == u16::MAX {
                dist[v as usize] = dist[u] + 1;
                queue.push(v as usize);
            }
        }
    }
}
