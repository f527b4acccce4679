//! Line of sight between hexes: some straight segment from a point of one hex to a point of the other
//! that touches no wall hex and no thin wall (both closed), decided exactly in integers.
//!
//! The plane is taken in lattice coordinates `X = 3q`, `Y = 2r + q`: the table's `x → 2x`,
//! `y → 2y/√3`. A hex centre is an integer point and its corners are the centre plus `(±2, 0)` and
//! `(±1, ±1)`. An affine map keeps lines, segments and which sets they touch, so sight can be decided
//! there with integer orientation tests, the same on every platform.
//!
//! Why the search is complete: the lines through A and B whose part between them touches no blocker
//! form an open set. Which blockers that part meets only changes when the line passes a corner (of A,
//! B or a blocker) inside the hull of A and B, since hex edges cross only at corners. So the free lines
//! are a union of cells of the arrangement of "lines through corner w", and a cell, if any, has a
//! vertex: a line through two corners `u` and `v`. Around it, the lines through `u` and `v` each moved
//! a little to one side reach every sector of the arrangement, and "a little" only needs to be less
//! than the distance of every other corner from the line, which integer coordinates bound from below.
//! So trying, for every pair of corners, the four lines through them shifted by `±n / K` (`n` the
//! normal of `v - u`, `K >= 32·M²` for coordinates up to `M`) finds a sightline if there is one.
//! A pair whose line crosses a blocker between A and B the way every nearby line does is no such
//! vertex and is skipped, and so is a pair whose line enters every wall hex at one of its corners:
//! passing that corner changes nothing the line meets.

use super::{HexMap, Terrain};
use hexx::Hex;
use std::ops::{Add, Mul, Neg, RangeInclusive, Sub};

#[cfg(test)]
mod float;
mod slopes;

const SQRT3: f64 = 1.732_050_807_568_877_2;

/// A point of the table plane (hexes of side 1, x right, y up), for drawing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// Rightwards.
    pub x: f64,
    /// Upwards.
    pub y: f64,
}

impl Point {
    /// The table point of lattice coordinates `(x, y)`.
    fn from_lattice(x: f64, y: f64) -> Self {
        Point {
            x: x / 2.0,
            y: y * SQRT3 / 2.0,
        }
    }
}

/// Centre of a hex on the table.
pub fn centre(h: Hex) -> Point {
    let (x, y) = lattice(h);
    Point::from_lattice(x as f64, y as f64)
}

/// Corner `k` (at `60 * k` degrees) of a hex on the table.
pub fn corner(h: Hex, k: usize) -> Point {
    let (x, y) = lattice(h);
    let (dx, dy) = CORNERS[k % 6];
    Point::from_lattice((x + dx) as f64, (y + dy) as f64)
}

/// A point in lattice coordinates.
type Lattice = (i64, i64);

/// Centre of a hex in lattice coordinates.
pub(crate) fn lattice(h: Hex) -> (i64, i64) {
    (3 * i64::from(h.x), 2 * i64::from(h.y) + i64::from(h.x))
}

/// Corner offsets of a hex around its centre, corner `k` at `60 * k` degrees.
const CORNERS: [Lattice; 6] = [(2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1)];

/// The hexagon as three slabs `|a·(p - c)| <= h`: normal `a` and half-width `h`.
const SLABS: [(Lattice, i64); 3] = [((0, 1), 1), ((1, 1), 2), ((1, -1), 2)];

/// Edge `k` (from corner `k` to corner `k + 1`) lies where slab `EDGES[k].0` reaches side `EDGES[k].1`.
const EDGES: [(usize, i64); 6] = [(1, 1), (0, 1), (2, -1), (1, -1), (0, -1), (2, 1)];

/// What can block a sightline: a wall hex, or a thin wall on one edge of a hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Blocker {
    /// Centre of the wall hex, or of the hex the thin wall is an edge of.
    centre: Lattice,
    /// `None` for a wall hex, else the edge carrying the thin wall.
    edge: Option<usize>,
    /// A wall hex lying wholly between A and B across the line of their centres (see
    /// `mark_inner`): a line through both meets it, if at all, between them.
    inner: bool,
}

impl Blocker {
    /// The blocker's corners: all six of a wall hex, the two ends of a thin wall.
    fn corners(self) -> impl Iterator<Item = Lattice> {
        let (x, y) = self.centre;
        let ks = match self.edge {
            None => 0..6,
            Some(k) => k..k + 2,
        };
        ks.map(move |k| (x + CORNERS[k % 6].0, y + CORNERS[k % 6].1))
    }

    fn moved(self, by: Lattice) -> Blocker {
        Blocker {
            centre: (self.centre.0 - by.0, self.centre.1 - by.1),
            ..self
        }
    }
}

/// How sightlines are drawn: the editions of the rules differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Sightlines {
    /// From any point of one hex to any point of the other, touching no wall hex and no thin wall
    /// (Frosthaven; the search of the module docs).
    #[default]
    AnyPoint,
    /// From a corner of one hex to a corner of the other. A corner that touches a wall (a corner of a
    /// wall hex, or an end of a thin wall) cannot be used, and the segment must touch no wall hex
    /// and no thin wall (Gloomhaven).
    Corners,
}

/// Side of the square buckets blockers are filed in by their centre, in lattice units.
const BUCKET: i64 = 8;

/// Line-of-sight oracle for one map.
#[derive(Debug, Clone)]
pub struct Sight {
    lines: Sightlines,
    blockers: Vec<Blocker>,
    /// Blockers filed in a grid of square buckets by their centre, so that a sightline only looks at
    /// the blockers around it (large maps have hundreds of wall hexes, almost all far away).
    origin: Lattice,
    columns: usize,
    rows: usize,
    buckets: Vec<Vec<u32>>,
}

impl Sight {
    /// The oracle for a map's wall hexes and thin walls, with sightlines from any point.
    pub fn new(map: &HexMap) -> Self {
        Self::drawn(map, Sightlines::AnyPoint)
    }

    /// The oracle for a map's wall hexes and thin walls, drawing sightlines as `lines` says.
    pub fn drawn(map: &HexMap, lines: Sightlines) -> Self {
        let mut blockers: Vec<Blocker> = map
            .hexes()
            .iter()
            .filter(|h| map.terrain(**h) == Some(Terrain::Wall))
            .map(|&h| Blocker {
                centre: lattice(h),
                edge: None,
                inner: false,
            })
            .collect();
        for (a, b) in map.thin_walls() {
            blockers.push(Blocker {
                centre: lattice(a),
                edge: Some(super::direction_to(a, b).unwrap_or(0)),
                inner: false,
            });
        }
        let lo = blockers.iter().fold((i64::MAX, i64::MAX), |m, b| {
            (m.0.min(b.centre.0), m.1.min(b.centre.1))
        });
        let hi = blockers.iter().fold((i64::MIN, i64::MIN), |m, b| {
            (m.0.max(b.centre.0), m.1.max(b.centre.1))
        });
        let origin = if blockers.is_empty() { (0, 0) } else { lo };
        let span = |l: i64, h: i64| usize::try_from((h - l).max(0) / BUCKET).unwrap_or(0) + 1;
        let (columns, rows) = (span(origin.0, hi.0), span(origin.1, hi.1));
        let mut buckets = vec![Vec::new(); columns * rows];
        for (i, b) in blockers.iter().enumerate() {
            let cx = usize::try_from((b.centre.0 - origin.0) / BUCKET).unwrap_or(0);
            let cy = usize::try_from((b.centre.1 - origin.1) / BUCKET).unwrap_or(0);
            buckets[cy * columns + cx].push(u32::try_from(i).unwrap_or(u32::MAX));
        }
        Sight {
            lines,
            blockers,
            origin,
            columns,
            rows,
            buckets,
        }
    }

    /// The rows and columns of the buckets a segment from hex `a` to hex `b` (centres given) can
    /// touch. A blocker's hex touches the hull of A and B only if its centre lies within twice a
    /// hexagon of the centre segment: at most 4 across and 2 up or down from it.
    fn buckets_near(
        &self,
        a: Lattice,
        b: Lattice,
    ) -> (RangeInclusive<usize>, RangeInclusive<usize>) {
        let cell = |v: i64, o: i64, n: usize| -> usize {
            usize::try_from((v - o).div_euclid(BUCKET).max(0))
                .unwrap_or(0)
                .min(n - 1)
        };
        let (x0, x1) = (a.0.min(b.0) - 4, a.0.max(b.0) + 4);
        let (y0, y1) = (a.1.min(b.1) - 2, a.1.max(b.1) + 2);
        (
            cell(y0, self.origin.1, self.rows)..=cell(y1, self.origin.1, self.rows),
            cell(x0, self.origin.0, self.columns)..=cell(x1, self.origin.0, self.columns),
        )
    }

    /// Whether some blocker filed near a segment from hex `a` to hex `b` (centres given) passes
    /// `test`, in no particular order.
    fn any_near(&self, a: Lattice, b: Lattice, mut test: impl FnMut(&Blocker) -> bool) -> bool {
        let (rows, columns) = self.buckets_near(a, b);
        for cy in rows {
            for cx in columns.clone() {
                for &i in &self.buckets[cy * self.columns + cx] {
                    if test(&self.blockers[i as usize]) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The blockers that can touch a segment from hex `a` to hex `b` (centres given), in the order
    /// they were filed, so that results never depend on the bucket layout.
    fn near(&self, a: Lattice, b: Lattice) -> Vec<Blocker> {
        let (rows, columns) = self.buckets_near(a, b);
        let mut ids: Vec<u32> = Vec::new();
        for cy in rows {
            for cx in columns.clone() {
                ids.extend_from_slice(&self.buckets[cy * self.columns + cx]);
            }
        }
        ids.sort_unstable();
        ids.into_iter()
            .map(|i| self.blockers[i as usize])
            .filter(|bl| segment_meets_hex(a, b, bl.centre, 2))
            .collect()
    }

    /// How this oracle draws sightlines.
    pub fn lines(&self) -> Sightlines {
        self.lines
    }

    /// Whether `a` sees `b`. A hex always sees itself; a wall hex sees nothing else.
    pub fn visible(&self, a: Hex, b: Hex) -> bool {
        a == b
            || match self.lines {
                Sightlines::AnyPoint => {
                    self.centres_clear(a, b)
                        || (!self.wall_on_centres(a, b)
                            && match self.swept(a, b) {
                                Some(seen) => seen,
                                None => {
                                    self.inner_line_clear(a, b) || self.sightline(a, b).is_some()
                                }
                            })
                }
                Sightlines::Corners => self.corner_line(a, b).is_some(),
            }
    }

    /// Whether the segment between the centres of `a` and `b` touches no blocker: then `a` sees
    /// `b`. Blockers cannot enter either hex, so this is the search's first line, tested in plain
    /// integers and without listing the blockers.
    fn centres_clear(&self, a: Hex, b: Hex) -> bool {
        let (ca, cb) = (lattice(a), lattice(b));
        !self.any_near(ca, cb, |bl| touches(bl, ca, cb, 1))
    }

    /// Whether a wall hex is centred on the segment between the centres of `a` and `b`: then it
    /// blocks every line between them (see `sightline_within`), and the searches are spared.
    fn wall_on_centres(&self, a: Hex, b: Hex) -> bool {
        let (ca, cb) = (lattice(a), lattice(b));
        let d = (cb.0 - ca.0, cb.1 - ca.1);
        self.any_near(ca, cb, |bl| {
            let c = (bl.centre.0 - ca.0, bl.centre.1 - ca.1);
            let dot = c.0 * d.0 + c.1 * d.1;
            bl.edge.is_none()
                && c.0 * d.1 - c.1 * d.0 == 0
                && 0 <= dot
                && dot <= d.0 * d.0 + d.1 * d.1
        })
    }

    /// Sight between hexes that are not neighbours by the sweep over slopes (see `slopes`); `None`
    /// for neighbours and where the sweep hands the question back.
    fn swept(&self, a: Hex, b: Hex) -> Option<bool> {
        if super::distance(a, b) < 2 {
            return None;
        }
        let (ca, cb) = (lattice(a), lattice(b));
        // The sweep's answer does not depend on the blockers' order, so they come straight from
        // the buckets.
        let (rows, columns) = self.buckets_near(ca, cb);
        let near = rows
            .flat_map(|cy| columns.clone().map(move |cx| cy * self.columns + cx))
            .flat_map(|i| self.buckets[i].iter())
            .map(|&i| self.blockers[i as usize])
            .filter(|bl| segment_meets_hex(ca, cb, bl.centre, 2))
            .map(|bl| bl.moved(ca));
        slopes::sees((cb.0 - ca.0, cb.1 - ca.1), near)
    }

    /// Whether one of the segments joining points three quarters of the way from each centre to
    /// one of its corners touches no blocker: then `a` sees `b` along it. Most sightlines the
    /// centres' segment misses pass a wall near a corner of both hexes, so these find them in plain
    /// integers before the search (coordinates times 4, so the points are lattice points).
    fn inner_line_clear(&self, a: Hex, b: Hex) -> bool {
        let (ca, cb) = (lattice(a), lattice(b));
        let at = |c: Lattice, k: usize| (4 * c.0 + 3 * CORNERS[k].0, 4 * c.1 + 3 * CORNERS[k].1);
        let near = self.near(ca, cb);
        let blocked = |p: Lattice, q: Lattice| near.iter().any(|bl| touches(bl, p, q, 4));
        (0..6).any(|i| (0..6).any(|j| !blocked(at(ca, i), at(cb, (i + j) % 6))))
    }

    /// The first usable pair of corners (one of `a`, one of `b`, in corner order) whose segment
    /// touches no blocker, in lattice coordinates.
    fn corner_line(&self, a: Hex, b: Hex) -> Option<(Lattice, Lattice)> {
        let (ca, cb) = (lattice(a), lattice(b));
        let near = self.near(ca, cb);
        // A corner touches a blocker when it is one of the blocker's corners: hex corners meet
        // other hexes' boundaries only there.
        let usable = |w: Lattice| !self.any_near(w, w, |bl| bl.corners().any(|c| c == w));
        let ends = |c: Lattice| -> Vec<Lattice> {
            CORNERS
                .iter()
                .map(|o| (c.0 + o.0, c.1 + o.1))
                .filter(|w| usable(*w))
                .collect()
        };
        let (from, to) = (ends(ca), ends(cb));
        for &p in &from {
            for &q in &to {
                if !near.iter().any(|bl| touches(bl, p, q, 1)) {
                    return Some((p, q));
                }
            }
        }
        None
    }

    /// A sightline from a point of `a` to a point of `b` that touches no blocker, if there is one,
    /// on the table plane (the two points lie inside the hexes).
    pub fn witness(&self, a: Hex, b: Hex) -> Option<(Point, Point)> {
        if a == b {
            return Some((centre(a), centre(a)));
        }
        if self.lines == Sightlines::Corners {
            let (p, q) = self.corner_line(a, b)?;
            let at = |w: Lattice| Point::from_lattice(w.0 as f64, w.1 as f64);
            return Some((at(p), at(q)));
        }
        let line = self.sightline(a, b)?;
        let origin = lattice(a);
        let at = |t: f64| {
            Point::from_lattice(
                (line.p.0 + t * line.d.0) / line.k + origin.0 as f64,
                (line.p.1 + t * line.d.1) / line.k + origin.1 as f64,
            )
        };
        Some((at(line.in_a), at(line.in_b)))
    }

    /// The search of the module docs.
    fn sightline(&self, a: Hex, b: Hex) -> Option<Sightline> {
        self.sightline_within(a, b, 180)
    }

    /// The search, relative to A's centre so that the numbers stay small, in `i64` while coordinates
    /// stay within `narrow` (see `Int`), else in `i128`.
    fn sightline_within(&self, a: Hex, b: Hex, narrow: i64) -> Option<Sightline> {
        let (ca, cb) = (lattice(a), lattice(b));
        let b0 = (cb.0 - ca.0, cb.1 - ca.1);
        let mut near: Vec<Blocker> = self
            .near(ca, cb)
            .into_iter()
            .map(|bl| bl.moved(ca))
            .collect();
        // The line through both centres first: it settles most open cases at once.
        let straight = Line { p: (0, 0), d: b0 };
        if let Some(found) = clear(straight, b0, 1, &mut near) {
            return Some(found);
        }
        // A wall hex on A or B, or centred on the segment between their centres, blocks every
        // line: A, B and the wall are one hexagon translated along that segment, so the wall fills
        // the whole band of lines from A to B, and walls are closed.
        let on_centres = |c: Lattice| {
            let dot = c.0 * b0.0 + c.1 * b0.1;
            c.0 * b0.1 - c.1 * b0.0 == 0 && 0 <= dot && dot <= b0.0 * b0.0 + b0.1 * b0.1
        };
        if near
            .iter()
            .any(|bl| bl.edge.is_none() && on_centres(bl.centre))
        {
            return None;
        }
        mark_inner(b0, &mut near);
        // Corners outside the hull of A and B never lie on the part of a line between them.
        let mut corners: Vec<Lattice> = CORNERS
            .iter()
            .flat_map(|&o| [o, (b0.0 + o.0, b0.1 + o.1)])
            .chain(
                near.iter()
                    .flat_map(|bl| bl.corners())
                    .filter(|&w| segment_meets_hex((0, 0), b0, w, 1)),
            )
            .collect();
        corners.sort_unstable();
        corners.dedup();
        // `M` bounds every coordinate the search meets, blockers' far corners included.
        let m = near
            .iter()
            .flat_map(|bl| Blocker { edge: None, ..*bl }.corners())
            .chain(corners.iter().copied())
            .map(|(x, y)| x.abs().max(y.abs()))
            .max()
            .unwrap_or(0)
            + 1;
        // The products of the search stay below `172,032·M⁶` (see `Int`).
        if m <= narrow {
            search::<i64>(b0, &corners, m, &mut near)
        } else if m <= 300_000 {
            search::<i128>(b0, &corners, m, &mut near)
        } else {
            // Farther apart than any board of 65,000 hexes allows.
            None
        }
    }
}

/// Tries the lines around every pair of corners (see the module docs), in integers of type `T`.
fn search<T: Int>(
    b: Lattice,
    corners: &[Lattice],
    m: i64,
    near: &mut [Blocker],
) -> Option<Sightline> {
    // The smallest power of two `K >= 32·M²`: shifting the lines by at most `|n| / K` then keeps
    // every other corner on its side of a candidate line.
    let need = 32 * m * m;
    let mut k: i64 = 1;
    while k < need {
        k *= 2;
    }
    let k = T::from(k);
    let of_a = |w: Lattice| CORNERS.contains(&w);
    let of_b = |w: Lattice| CORNERS.contains(&(w.0 - b.0, w.1 - b.1));
    // Lines from a corner of A to a corner of B first: they find most sightlines early.
    for u in CORNERS {
        for o in CORNERS {
            let v = (b.0 + o.0, b.1 + o.1);
            if u != v
                && let Some(found) = around(u, v, b, k, near)
            {
                return Some(found);
            }
        }
    }
    // Per corner of blockers alone, the two neighbouring corners of each wall hex it belongs to;
    // `None` for a corner of A or B or an end of a thin wall. Which blockers a line meets only
    // changes as it passes such a corner when it touches one of those walls there without
    // entering it, so a line that enters every one of them there is no vertex of a cell.
    type Sides = ([(Lattice, Lattice); 3], usize);
    let sides: Vec<Option<Sides>> = corners
        .iter()
        .map(|&w| {
            if of_a(w) || of_b(w) {
                return None;
            }
            // A corner of the lattice belongs to three hexes at most.
            let mut pairs: Sides = ([((0, 0), (0, 0)); 3], 0);
            for bl in near.iter() {
                let Some(k) = bl.corners().position(|c| c == w) else {
                    continue;
                };
                if bl.edge.is_some() {
                    return None;
                }
                let at = |j: usize| {
                    let o = CORNERS[j % 6];
                    (bl.centre.0 + o.0, bl.centre.1 + o.1)
                };
                if pairs.1 < 3 {
                    pairs.0[pairs.1] = (at(k + 5), at(k + 1));
                    pairs.1 += 1;
                }
            }
            Some(pairs)
        })
        .collect();
    let enters_all = |i: usize, u: Lattice, v: Lattice| {
        sides[i].as_ref().is_some_and(|(pairs, n)| {
            let side =
                |w: Lattice| ((v.0 - u.0) * (w.1 - u.1) - (v.1 - u.1) * (w.0 - u.0)).signum();
            *n > 0 && pairs[..*n].iter().all(|&(p, q)| side(p) * side(q) < 0)
        })
    };
    for (i, &u) in corners.iter().enumerate() {
        for (j, &v) in corners.iter().enumerate().skip(i + 1) {
            if (of_a(u) && of_b(v))
                || (of_b(u) && of_a(v))
                || enters_all(i, u, v)
                || enters_all(j, v, u)
            {
                continue;
            }
            if let Some(found) = around(u, v, b, k, near) {
                return Some(found);
            }
        }
    }
    None
}

/// Whether the closed segment from `p` to `q` touches a blocker: a closed wall hex, or a thin wall
/// as a closed segment; `p` and `q` are in lattice coordinates times `scale`.
fn touches(bl: &Blocker, p: Lattice, q: Lattice, scale: i64) -> bool {
    let big = |w: Lattice| (scale * w.0, scale * w.1);
    match bl.edge {
        None => segment_meets_hex(p, q, big(bl.centre), scale),
        Some(_) => {
            let mut ends = bl.corners();
            match (ends.next(), ends.next()) {
                (Some(s), Some(e)) => segments_meet(p, q, big(s), big(e)),
                _ => false,
            }
        }
    }
}

/// Whether two closed segments share a point (integer orientation tests).
fn segments_meet(p: Lattice, q: Lattice, s: Lattice, e: Lattice) -> bool {
    let orient = |a: Lattice, b: Lattice, c: Lattice| {
        ((b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)).signum()
    };
    let on = |a: Lattice, b: Lattice, c: Lattice| {
        a.0.min(b.0) <= c.0 && c.0 <= a.0.max(b.0) && a.1.min(b.1) <= c.1 && c.1 <= a.1.max(b.1)
    };
    let (d1, d2) = (orient(s, e, p), orient(s, e, q));
    let (d3, d4) = (orient(p, q, s), orient(p, q, e));
    if d1 * d2 < 0 && d3 * d4 < 0 {
        return true;
    }
    (d1 == 0 && on(s, e, p))
        || (d2 == 0 && on(s, e, q))
        || (d3 == 0 && on(p, q, s))
        || (d4 == 0 && on(p, q, e))
}

/// Whether the closed segment from `p` to `q` meets the closed hexagon of centre `c` scaled by
/// `size`: no separating axis among the hexagon's three slab normals and the segment's normal.
fn segment_meets_hex(p: Lattice, q: Lattice, c: Lattice, size: i64) -> bool {
    for ((ax, ay), h) in SLABS {
        let sp = ax * (p.0 - c.0) + ay * (p.1 - c.1);
        let sq = ax * (q.0 - c.0) + ay * (q.1 - c.1);
        if sp.min(sq) > h * size || sp.max(sq) < -h * size {
            return false;
        }
    }
    let n = (p.1 - q.1, q.0 - p.0);
    let at = n.0 * (p.0 - c.0) + n.1 * (p.1 - c.1);
    let (lo, hi) = CORNERS.iter().fold((i64::MAX, i64::MIN), |(lo, hi), o| {
        let s = size * (n.0 * o.0 + n.1 * o.1);
        (lo.min(s), hi.max(s))
    });
    lo <= at && at <= hi
}

/// The integers the exact tests run in. In a search with coordinates up to `M` and scale `K`, a
/// numerator or denominator stays below `7·M·K` and a comparison's product below `42·M²·K²`, that
/// is `172,032·M⁶`: `i64` holds it up to `M = 180`, `i128` up to `M = 300,000`.
trait Int:
    Copy
    + Ord
    + From<i64>
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Neg<Output = Self>
{
    fn to_f64(self) -> f64;
}

impl Int for i64 {
    fn to_f64(self) -> f64 {
        self as f64
    }
}

impl Int for i128 {
    fn to_f64(self) -> f64 {
        self as f64
    }
}

fn big<T: Int>(p: Lattice, k: T) -> (T, T) {
    (T::from(p.0) * k, T::from(p.1) * k)
}

/// A rational number with a positive denominator.
#[derive(Debug, Clone, Copy)]
struct Frac<T> {
    n: T,
    d: T,
}

impl<T: Int> Frac<T> {
    fn le(self, o: Frac<T>) -> bool {
        self.n * o.d <= o.n * self.d
    }
    fn lt(self, o: Frac<T>) -> bool {
        self.n * o.d < o.n * self.d
    }
    fn to_f64(self) -> f64 {
        self.n.to_f64() / self.d.to_f64()
    }
}

/// A line `p + t·d`, coordinates scaled by the search's `K`.
#[derive(Debug, Clone, Copy)]
struct Line<T> {
    p: (T, T),
    d: (T, T),
}

/// A line found clear, with a parameter inside A and one inside B (lattice coordinates times `k`,
/// relative to A's centre; floating point, as it only serves drawings and tests).
#[derive(Debug, Clone, Copy)]
struct Sightline {
    p: (f64, f64),
    d: (f64, f64),
    k: f64,
    in_a: f64,
    in_b: f64,
}

/// The parameter interval where `line` meets the hexagon of centre `c` (scaled) with half-widths
/// scaled by `size`, or only its edge `edge`. `open`: the interior only, else the closed set.
fn chord<T: Int>(
    line: Line<T>,
    c: (T, T),
    size: T,
    open: bool,
    edge: Option<usize>,
) -> Option<(Frac<T>, Frac<T>)> {
    let zero = T::from(0);
    let mut lo: Option<Frac<T>> = None;
    let mut hi: Option<Frac<T>> = None;
    let pinned = edge.map(|e| EDGES[e]);
    for (j, ((ax, ay), h)) in SLABS.into_iter().enumerate() {
        let (ax, ay, h) = (T::from(ax), T::from(ay), T::from(h) * size);
        let mut a = ax * (line.p.0 - c.0) + ay * (line.p.1 - c.1);
        let mut b = ax * line.d.0 + ay * line.d.1;
        // On an edge, its own slab is pinned to one side: `a + t·b = side·h`.
        let on_edge = pinned.filter(|&(slab, _)| slab == j);
        let (mut l, mut u) = match on_edge {
            Some((_, side)) => (T::from(side) * h, T::from(side) * h),
            None => (-h, h),
        };
        if b == zero {
            let inside = if on_edge.is_some() {
                a == l
            } else if open {
                l < a && a < u
            } else {
                l <= a && a <= u
            };
            if !inside {
                return None;
            }
            continue;
        }
        if b < zero {
            (a, b, l, u) = (-a, -b, -u, -l);
        }
        let from = Frac { n: l - a, d: b };
        let to = Frac { n: u - a, d: b };
        if lo.is_none_or(|x| x.lt(from)) {
            lo = Some(from);
        }
        if hi.is_none_or(|x| to.lt(x)) {
            hi = Some(to);
        }
    }
    // The slab normals span the plane, so a line with a direction meets at least two of them.
    let (lo, hi) = (lo?, hi?);
    let ok = if open { lo.lt(hi) } else { lo.le(hi) };
    ok.then_some((lo, hi))
}

/// The closed chords of A (centre at the origin) and B (centre `b`) on a line, and the part of the
/// line between them: `None` when the line misses either hex or runs through both at once.
type Between<T> = ((Frac<T>, Frac<T>), (Frac<T>, Frac<T>), (Frac<T>, Frac<T>));

fn between<T: Int>(line: Line<T>, b: Lattice, k: T, open: bool) -> Option<Between<T>> {
    let (a0, a1) = chord(line, (T::from(0), T::from(0)), k, open, None)?;
    let (b0, b1) = chord(line, big(b, k), k, open, None)?;
    let gap = if a1.le(b0) {
        (a1, b0)
    } else if b1.le(a0) {
        (b1, a0)
    } else {
        return None;
    };
    Some(((a0, a1), (b0, b1), gap))
}

/// Whether the part of `line` between A (centre at the origin) and B (centre `b`) touches no
/// blocker, with coordinates scaled by `k`; the line must cross both interiors. A blocker found in
/// the way moves to the front of `near`: the next lines tried are close by and likely meet it too.
fn clear<T: Int>(line: Line<T>, b: Lattice, k: T, near: &mut [Blocker]) -> Option<Sightline> {
    // Through both interiors, by the signs of their corners; the chords themselves are worked out
    // only for a blocker that is not inner, and for the line found.
    if !meets_hex(line, (0, 0), k, true) || !meets_hex(line, b, k, true) {
        return None;
    }
    let mut gap = None;
    let hit = near.iter().position(|bl| {
        if bl.inner {
            return meets_hex(line, bl.centre, k, false);
        }
        match *gap.get_or_insert_with(|| between(line, b, k, true)) {
            Some((_, _, (from, to))) => chord(line, big(bl.centre, k), k, false, bl.edge)
                .is_some_and(|(w0, w1)| w0.le(to) && from.le(w1)),
            // As the search always did: a line with no part between the two sees nothing.
            None => true,
        }
    });
    if let Some(i) = hit {
        near[..=i].rotate_right(1);
        return None;
    }
    let (in_a, in_b, _) = gap.unwrap_or_else(|| between(line, b, k, true))?;
    let mid = |(x, y): (Frac<T>, Frac<T>)| f64::midpoint(x.to_f64(), y.to_f64());
    Some(Sightline {
        p: (line.p.0.to_f64(), line.p.1.to_f64()),
        d: (line.d.0.to_f64(), line.d.1.to_f64()),
        k: k.to_f64(),
        in_a: mid(in_a),
        in_b: mid(in_b),
    })
}

/// The four lines through corners `u` and `v`, each shifted by `±n / k` to either side.
fn around<T: Int>(
    u: Lattice,
    v: Lattice,
    b: Lattice,
    k: T,
    near: &mut [Blocker],
) -> Option<Sightline> {
    // A vertex of a cell of free lines touches both hexes.
    let through = Line {
        p: u,
        d: (v.0 - u.0, v.1 - u.1),
    };
    if !meets_hex(through, (0, 0), 1, false) || !meets_hex(through, b, 1, false) {
        return None;
    }
    if crossed_between(through, b, near) {
        return None;
    }
    let (dx, dy) = through.d;
    let g = gcd(dx, dy);
    let n = (T::from(-dy / g), T::from(dx / g));
    let (uk, vk) = (big(u, k), big(v, k));
    let (one, minus) = (T::from(1), T::from(-1));
    for (s1, s2) in [(one, one), (one, minus), (minus, one), (minus, minus)] {
        let p = (uk.0 + s1 * n.0, uk.1 + s1 * n.1);
        let q = (vk.0 + s2 * n.0, vk.1 + s2 * n.1);
        let line = Line {
            p,
            d: (q.0 - p.0, q.1 - p.1),
        };
        if let Some(found) = clear(line, b, k, near) {
            return Some(found);
        }
    }
    None
}

/// Whether some blocker meets the line through two corners (unscaled) strictly between A and B the
/// way every nearby line does too: through a wall hex's interior, or across a thin wall away from
/// its ends. Such a line is no vertex of a cell of free lines, so the lines around it need no test.
fn crossed_between(line: Line<i64>, b: Lattice, near: &mut [Blocker]) -> bool {
    // Lines near this one meet A and B close to where it does, so "between" carries over to them.
    // An inner wall only exists where A and B lie apart, and the caller's line touches both, so
    // there they always have a part between them: it is worked out only for the other blockers.
    let mut gap = None;
    let side = |w: Lattice| line.d.0 * (w.1 - line.p.1) - line.d.1 * (w.0 - line.p.0);
    let hit = near.iter().position(|bl| {
        if bl.inner {
            return meets_hex(line, bl.centre, 1, true);
        }
        let Some((_, _, (from, to))) = *gap.get_or_insert_with(|| between(line, b, 1, false))
        else {
            return false;
        };
        crossed_by(bl, line, from, to, side)
    });
    if let Some(i) = hit {
        near[..=i].rotate_right(1);
        return true;
    }
    false
}

/// Whether blocker `bl` (not inner) meets `line` strictly between A and B (`from` to `to`) as in
/// [`crossed_between`]; `side` tells which side of the line a point lies.
fn crossed_by(
    bl: &Blocker,
    line: Line<i64>,
    from: Frac<i64>,
    to: Frac<i64>,
    side: impl Fn(Lattice) -> i64,
) -> bool {
    match bl.edge {
        None => {
            chord(line, bl.centre, 1, true, None).is_some_and(|(w0, w1)| w0.lt(to) && from.lt(w1))
        }
        Some(_) => {
            let mut ends = bl.corners();
            let (Some(s), Some(e)) = (ends.next(), ends.next()) else {
                return false;
            };
            if side(s).signum() * side(e).signum() >= 0 {
                return false;
            }
            // Where the line crosses the thin wall: cross(s - p, e - s) / cross(d, e - s).
            let (ex, ey) = (e.0 - s.0, e.1 - s.1);
            let (sx, sy) = (s.0 - line.p.0, s.1 - line.p.1);
            let (n, d) = (sx * ey - sy * ex, line.d.0 * ey - line.d.1 * ex);
            let t = if d < 0 {
                Frac { n: -n, d: -d }
            } else {
                Frac { n, d }
            };
            from.lt(t) && t.lt(to)
        }
    }
}

/// Marks the wall hexes whose every corner projects onto the line of the centres (A's at the
/// origin, B's at `b`) between A's farthest corner towards B and B's farthest towards A. A line
/// through both hexes runs monotonically along that direction from A to B, so it meets such a wall,
/// if at all, strictly between them: whether it does is a matter of which side of the line its
/// corners lie, with no chords to work out.
fn mark_inner(b: Lattice, near: &mut [Blocker]) {
    let along = |w: Lattice| w.0 * b.0 + w.1 * b.1;
    let reach = CORNERS.iter().map(|&o| along(o)).max().unwrap_or(0);
    let (from, to) = (reach, along(b) - reach);
    for bl in near.iter_mut() {
        bl.inner =
            from < to && bl.edge.is_none() && bl.corners().all(|w| (from..=to).contains(&along(w)));
    }
}

/// Whether the line meets the hexagon of centre `c` (scaled by `k`): through its interior when
/// `open`, else anywhere on the closed hexagon. Used for A, B and the inner walls, where no chord
/// is needed.
fn meets_hex<T: Int>(line: Line<T>, c: Lattice, k: T, open: bool) -> bool {
    let zero = T::from(0);
    let (mut below, mut above) = (false, false);
    for o in CORNERS {
        let w = big((c.0 + o.0, c.1 + o.1), k);
        let side = line.d.0 * (w.1 - line.p.1) - line.d.1 * (w.0 - line.p.0);
        if open {
            below |= side < zero;
            above |= side > zero;
        } else {
            below |= side <= zero;
            above |= side >= zero;
        }
    }
    below && above
}

fn gcd(mut a: i64, mut b: i64) -> i64 {
    (a, b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::{hex, step};
    use rand::{RngExt, SeedableRng};

    fn board(walls: &[Hex]) -> HexMap {
        let mut hexes = Vec::new();
        for q in 0..8 {
            for r in -4..6 {
                if !walls.contains(&hex(q, r)) {
                    hexes.push(hex(q, r));
                }
            }
        }
        HexMap::new(&hexes, walls).unwrap()
    }

    #[test]
    fn an_open_board_gives_sight_everywhere() {
        let s = Sight::new(&board(&[]));
        assert!(s.visible(hex(0, 0), hex(7, -3)));
    }

    #[test]
    fn nothing_blocks_far_from_a_wall_and_neighbours_always_see_each_other() {
        let s = Sight::new(&board(&[hex(1, 1)]));
        assert!(s.visible(hex(0, 0), hex(6, -2)));
        assert!(s.visible(hex(1, 0), hex(2, 0)));
        assert!(s.visible(hex(0, 1), hex(1, 0)));
    }

    #[test]
    fn a_wall_between_two_hexes_in_a_row_blocks_sight() {
        let s = Sight::new(&board(&[hex(2, 0)]));
        assert!(!s.visible(hex(1, 0), hex(3, 0)));
        assert!(s.visible(hex(1, 0), hex(3, -1)));
    }

    #[test]
    fn a_wall_hex_sees_nothing_but_itself() {
        let s = Sight::new(&board(&[hex(2, 0)]));
        assert!(s.visible(hex(2, 0), hex(2, 0)));
        assert!(!s.visible(hex(2, 0), hex(3, 0)));
        assert!(!s.visible(hex(5, 0), hex(2, 0)));
    }

    #[test]
    fn a_corridor_walled_on_both_sides_still_gives_sight_along_it() {
        // Corridor (0,1)…(5,1) along direction d0, walls on both sides.
        let mut walls = Vec::new();
        for q in 0..6 {
            walls.push(hex(q, 2));
            walls.push(hex(q, 0));
        }
        let s = Sight::new(&board(&walls));
        assert!(s.visible(hex(0, 1), hex(5, 1)));
    }

    #[test]
    fn a_lone_thin_wall_is_seen_around_but_a_ring_of_them_blocks() {
        let mut m = board(&[]);
        m.add_thin_wall(hex(1, 0), hex(2, 0)).unwrap();
        // Sightlines may pass beside the ends of a short wall segment.
        assert!(Sight::new(&m).visible(hex(1, 0), hex(2, 0)));
        for d in 0..6 {
            let _ = m.add_thin_wall(hex(2, 0), step(hex(2, 0), d));
        }
        let s = Sight::new(&m);
        assert!(!s.visible(hex(1, 0), hex(2, 0)));
        assert!(!s.visible(hex(0, 0), hex(2, 0)));
        assert!(s.visible(hex(1, 0), hex(3, -1)));
    }

    #[test]
    fn touching_a_wall_corner_blocks_a_grazing_line() {
        // (0,0) and (2,-1) are joined only by lines through the shared corner of (1,0) and (1,-1).
        let s = Sight::new(&board(&[hex(1, 0), hex(1, -1)]));
        assert!(!s.visible(hex(0, 0), hex(2, -1)));
        // One of the two walls alone leaves a gap beside it.
        assert!(Sight::new(&board(&[hex(1, 0)])).visible(hex(0, 0), hex(2, -1)));
    }

    #[test]
    fn a_sightline_off_the_centres_is_found() {
        // The centre line from (0,0) to (4,0) crosses the wall (2,0), and so does every other line.
        let s = Sight::new(&board(&[hex(2, 0)]));
        assert!(!s.visible(hex(0, 0), hex(4, 0)));
        // From (0,0) to (4,-1) the centre line passes the wall's corner; a line beside it is clear.
        assert!(s.visible(hex(0, 0), hex(4, -1)));
    }

    /// The table-plane normals of a hexagon's six edges (edge `k` faces `60k + 30` degrees).
    const NORMALS: [(f64, f64); 6] = [
        (SQRT3 / 2.0, 0.5),
        (0.0, 1.0),
        (-SQRT3 / 2.0, 0.5),
        (-SQRT3 / 2.0, -0.5),
        (0.0, -1.0),
        (SQRT3 / 2.0, -0.5),
    ];

    fn sub(p: Point, q: Point) -> (f64, f64) {
        (p.x - q.x, p.y - q.y)
    }

    fn lerp(p: Point, q: Point, t: f64) -> Point {
        Point {
            x: p.x + (q.x - p.x) * t,
            y: p.y + (q.y - p.y) * t,
        }
    }

    /// Whether `p` lies in the hexagon centred at `c` grown by `slack` (shrunk if negative).
    fn in_hex(p: Point, c: Point, slack: f64) -> bool {
        let (x, y) = sub(p, c);
        NORMALS
            .iter()
            .all(|(nx, ny)| nx * x + ny * y <= SQRT3 / 2.0 + slack)
    }

    /// Squared distance from `p` to the segment `a b`.
    fn dist2_point(p: Point, a: Point, b: Point) -> f64 {
        let (dx, dy) = sub(b, a);
        let (px, py) = sub(p, a);
        let len2 = dx * dx + dy * dy;
        let t = if len2 == 0.0 {
            0.0
        } else {
            ((px * dx + py * dy) / len2).clamp(0.0, 1.0)
        };
        let (ex, ey) = (px - t * dx, py - t * dy);
        ex * ex + ey * ey
    }

    /// Squared distance between the segments `p q` and `a b` (0 when they cross).
    fn dist2_segments(p: Point, q: Point, a: Point, b: Point) -> f64 {
        let side = |o: Point, e: Point, x: Point| {
            let (ex, ey) = sub(e, o);
            let (xx, xy) = sub(x, o);
            ex * xy - ey * xx
        };
        let crosses = side(p, q, a) * side(p, q, b) < 0.0 && side(a, b, p) * side(a, b, q) < 0.0;
        if crosses {
            return 0.0;
        }
        dist2_point(p, a, b)
            .min(dist2_point(q, a, b))
            .min(dist2_point(a, p, q))
            .min(dist2_point(b, p, q))
    }

    /// Whether the segment `p q` keeps farther than `margin` from every wall hex and thin wall.
    fn clear_by(p: Point, q: Point, walls: &[Hex], thin: &[(Point, Point)], margin: f64) -> bool {
        let m2 = margin * margin;
        let off_hex = |w: Hex| {
            let c = centre(w);
            !in_hex(p, c, 0.0)
                && (0..6).all(|k| dist2_segments(p, q, corner(w, k), corner(w, k + 1)) > m2)
        };
        walls.iter().all(|&w| off_hex(w))
            && thin.iter().all(|&(a, b)| dist2_segments(p, q, a, b) > m2)
    }

    /// A board of wall hexes and thin walls drawn from `rng`; the hexes left open.
    fn random_board(
        rng: &mut rand_chacha::ChaCha8Rng,
        thin: usize,
    ) -> (HexMap, Vec<Hex>, Vec<Hex>) {
        random_board_of(rng, thin, 20)
    }

    /// A board as [`random_board`] with `percent` of the inner hexes walls.
    fn random_board_of(
        rng: &mut rand_chacha::ChaCha8Rng,
        thin: usize,
        percent: u32,
    ) -> (HexMap, Vec<Hex>, Vec<Hex>) {
        let (mut open, mut walls) = (Vec::new(), Vec::new());
        for q in 0..8 {
            for r in -3..5 {
                if (1..7).contains(&q) && rng.random_range(0..100) < percent {
                    walls.push(hex(q, r));
                } else {
                    open.push(hex(q, r));
                }
            }
        }
        let mut map = HexMap::new(&open, &walls).unwrap();
        let mut added = 0;
        while added < thin {
            let a = open[rng.random_range(0..open.len())];
            if map
                .add_thin_wall(a, step(a, rng.random_range(0..6)))
                .is_ok()
            {
                added += 1;
            }
        }
        (map, open, walls)
    }

    #[test]
    fn witnesses_are_clear_and_no_sampled_sightline_is_missed() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for round in 0..12 {
            let (map, open, walls) = random_board(&mut rng, if round % 2 == 0 { 0 } else { 8 });
            let thin: Vec<(Point, Point)> = map
                .thin_walls()
                .into_iter()
                .map(|(a, b)| {
                    let d = crate::hex::direction_to(a, b).unwrap();
                    (corner(a, d), corner(a, d + 1))
                })
                .collect();
            let s = Sight::new(&map);
            // Sample points of a hex: centre and points part-way to each corner and each edge.
            let samples = |h: Hex| -> Vec<Point> {
                let c = centre(h);
                let mut v = vec![c];
                for k in 0..6 {
                    v.push(lerp(c, corner(h, k), 0.9));
                    v.push(lerp(c, lerp(corner(h, k), corner(h, k + 1), 0.5), 0.9));
                }
                v
            };
            for (i, &a) in open.iter().enumerate().step_by(2) {
                for &b in open.iter().skip(i + 1).step_by(2) {
                    let seen = s.witness(a, b);
                    if let Some((p, q)) = seen {
                        // The witness starts in A, ends in B and touches no wall.
                        assert!(in_hex(p, centre(a), 1e-9) && in_hex(q, centre(b), 1e-9));
                        assert!(
                            clear_by(p, q, &walls, &thin, 0.0),
                            "{a:?} {b:?}: witness touches a wall"
                        );
                    } else {
                        let sampled = samples(a).iter().any(|p| {
                            samples(b)
                                .iter()
                                .any(|q| clear_by(*p, *q, &walls, &thin, 1e-6))
                        });
                        assert!(
                            !sampled,
                            "{a:?} sees {b:?} along a sampled line, but not by the rule"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn exact_sight_agrees_with_the_float_sweep_on_random_boards() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut decided = 0;
        for round in 0..40 {
            let (map, open, _) = random_board(&mut rng, round % 4 * 4);
            let exact = Sight::new(&map);
            let float = float::Sight::new(&map);
            for (i, &a) in open.iter().enumerate() {
                for &b in &open[i + 1..] {
                    assert_eq!(
                        exact.visible(a, b),
                        float.visible(a, b),
                        "{a:?} to {b:?} on round {round}"
                    );
                    decided += 1;
                }
            }
        }
        assert!(decided > 40_000);
    }

    #[test]
    fn the_slope_sweep_decides_as_the_corner_search_does() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(29);
        let mut seen = [0usize; 2];
        for round in 0..80 {
            // 5 to 40 % walls, and up to 12 thin walls.
            let (map, open, _) = random_board_of(&mut rng, round % 4 * 4, 5 + round as u32 % 8 * 5);
            let s = Sight::new(&map);
            for (i, &a) in open.iter().enumerate() {
                for &b in &open[i + 1..] {
                    if crate::hex::distance(a, b) < 2 {
                        assert_eq!(s.swept(a, b), None);
                        continue;
                    }
                    let searched = s.sightline(a, b).is_some();
                    assert_eq!(
                        s.swept(a, b),
                        Some(searched),
                        "{a:?} to {b:?} on round {round}"
                    );
                    seen[usize::from(searched)] += 1;
                }
            }
        }
        assert!(seen[0] > 10_000 && seen[1] > 10_000, "{seen:?}");
    }

    #[test]
    fn corner_sightlines_need_a_corner_free_of_walls_at_each_end() {
        // Walls on (1, 1) and (3, 0) leave a gap a line from inside (0, 0) threads to (2, 1), but
        // every corner-to-corner segment through it touches a wall or starts on a wall's corner.
        let m = board(&[hex(1, 1), hex(3, 0)]);
        let corners = Sight::drawn(&m, Sightlines::Corners);
        assert!(Sight::new(&m).visible(hex(0, 0), hex(2, 1)));
        assert!(!corners.visible(hex(0, 0), hex(2, 1)));
        // A lone thin wall between neighbours leaves corner lines through the third hex at its end.
        let mut m = board(&[]);
        m.add_thin_wall(hex(1, 0), hex(2, 0)).unwrap();
        assert!(Sight::drawn(&m, Sightlines::Corners).visible(hex(1, 0), hex(2, 0)));
        let corners = Sight::drawn(&board(&[]), Sightlines::Corners);
        // On open floor corners always see.
        let open = Sight::drawn(&board(&[]), Sightlines::Corners);
        assert!(open.visible(hex(0, 0), hex(7, -3)));
        assert!(open.visible(hex(1, 0), hex(2, 0)));
        // The witness is a pair of corners.
        let (p, q) = corners.witness(hex(0, 0), hex(5, 0)).unwrap();
        let on_corner =
            |x: Point, h: Hex| (0..6).any(|k| dist2_point(x, corner(h, k), corner(h, k)) < 1e-12);
        assert!(on_corner(p, hex(0, 0)) && on_corner(q, hex(5, 0)));
    }

    #[test]
    fn corner_sight_is_a_float_check_of_every_corner_pair_and_never_sees_more() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
        let (mut seen, mut differ) = (0, 0);
        for round in 0..12 {
            let (map, open, walls) = random_board(&mut rng, round % 4 * 3);
            let corners = Sight::drawn(&map, Sightlines::Corners);
            let any = Sight::new(&map);
            let thin: Vec<(Point, Point)> = map
                .thin_walls()
                .into_iter()
                .map(|(a, b)| {
                    let d = crate::hex::direction_to(a, b).unwrap_or(0);
                    (corner(a, d), corner(a, d + 1))
                })
                .collect();
            // A corner is usable when no wall hex corner or thin wall end lies on it.
            let blocked_corner = |x: Point| {
                walls
                    .iter()
                    .any(|&w| (0..6).any(|k| dist2_point(x, corner(w, k), corner(w, k)) < 1e-12))
                    || thin
                        .iter()
                        .any(|&(a, b)| dist2_point(x, a, a) < 1e-12 || dist2_point(x, b, b) < 1e-12)
            };
            for (i, &a) in open.iter().enumerate() {
                for &b in &open[i + 1..] {
                    let by_floats = (0..6).any(|j| {
                        (0..6).any(|k| {
                            let (p, q) = (corner(a, j), corner(b, k));
                            !blocked_corner(p)
                                && !blocked_corner(q)
                                && clear_by(p, q, &walls, &thin, 1e-7)
                        })
                    });
                    let exact = corners.visible(a, b);
                    assert_eq!(exact, by_floats, "{a:?} to {b:?} on round {round}");
                    assert!(!exact || any.visible(a, b), "{a:?} to {b:?}");
                    seen += usize::from(exact);
                    differ += usize::from(any.visible(a, b) && !exact);
                }
            }
        }
        assert!(
            seen > 1_000 && differ > 100,
            "{seen} seen, {differ} only from any point"
        );
    }

    #[test]
    fn wide_integers_decide_as_narrow_ones_do() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for round in 0..6 {
            let (map, open, _) = random_board(&mut rng, round * 2);
            let s = Sight::new(&map);
            for (i, &a) in open.iter().enumerate() {
                for &b in &open[i + 1..] {
                    assert_eq!(
                        s.sightline_within(a, b, 0).is_some(),
                        s.visible(a, b),
                        "{a:?} to {b:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn far_sightlines_agree_with_the_float_sweep() {
        // A long hall, 90 hexes by 6 with scattered pillars: sightlines across it need `i128`.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let (mut open, mut walls) = (Vec::new(), Vec::new());
        for q in 0..90 {
            for r in (-q / 2 - 3)..(-q / 2 + 3) {
                if (1..89).contains(&q) && rng.random_range(0..100) < 4 {
                    walls.push(hex(q, r));
                } else {
                    open.push(hex(q, r));
                }
            }
        }
        let map = HexMap::new(&open, &walls).unwrap();
        let (exact, float) = (Sight::new(&map), float::Sight::new(&map));
        let (near_end, far_end): (Vec<Hex>, Vec<Hex>) = (
            open.iter().copied().filter(|h| h.x < 3).collect(),
            open.iter().copied().filter(|h| h.x > 62).collect(),
        );
        let mut seen = [0, 0];
        for &a in &near_end {
            for &b in &far_end {
                let v = exact.visible(a, b);
                assert_eq!(v, float.visible(a, b), "{a:?} to {b:?}");
                seen[usize::from(v)] += 1;
            }
        }
        // Both answers occur, so the test exercises both outcomes.
        assert!(seen[0] > 0 && seen[1] > 0, "{seen:?}");
    }
}
