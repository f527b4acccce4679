//! The floating-point sweep that decided line of sight before the exact search, kept as a test oracle.
//!
//! It tries likely segments first, then sweeps line directions and offsets between critical angles.
#![expect(
    clippy::disallowed_methods,
    reason = "the float sweep is the oracle the exact search is tested against; no rule runs it"
)]

use crate::hex::{HexMap, Terrain};
use hexx::Hex;

const SQRT3: f64 = 1.732_050_807_568_877_2;
/// Inradius of a hex of side 1.
const INRADIUS: f64 = SQRT3 / 2.0;
/// Touching within this distance counts as touching (blocked): walls are closed sets.
const TOUCH: f64 = 1e-9;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

impl Point {
    const fn new(x: f64, y: f64) -> Self {
        Self { x, y }
    }
    fn sub(self, o: Point) -> Point {
        Point::new(self.x - o.x, self.y - o.y)
    }
    fn add(self, o: Point) -> Point {
        Point::new(self.x + o.x, self.y + o.y)
    }
    fn scale(self, k: f64) -> Point {
        Point::new(self.x * k, self.y * k)
    }
    fn dot(self, o: Point) -> f64 {
        self.x * o.x + self.y * o.y
    }
    fn cross(self, o: Point) -> f64 {
        self.x * o.y - self.y * o.x
    }
}

/// Centre of a hex (side 1, x right, y up).
pub fn centre(h: Hex) -> Point {
    Point::new(1.5 * h.x as f64, SQRT3 * (h.y as f64 + h.x as f64 / 2.0))
}

/// Corner `k` (at `60 * k` degrees) of a hex.
pub fn corner(h: Hex, k: usize) -> Point {
    const UNIT: [(f64, f64); 6] = [
        (1.0, 0.0),
        (0.5, INRADIUS),
        (-0.5, INRADIUS),
        (-1.0, 0.0),
        (-0.5, -INRADIUS),
        (0.5, -INRADIUS),
    ];
    let c = centre(h);
    Point::new(c.x + UNIT[k % 6].0, c.y + UNIT[k % 6].1)
}

/// What can block a sightline.
#[derive(Debug, Clone, Copy)]
enum Blocker {
    Wall(Point),
    Thin(Point, Point),
}

impl Blocker {
    /// The point whose distance to a sightline decides whether the blocker is near it.
    fn anchor(self) -> Point {
        match self {
            Blocker::Wall(c) => c,
            Blocker::Thin(p, q) => p.add(q).scale(0.5),
        }
    }
}

/// Side of the square buckets blockers are filed in by their anchor.
const BUCKET: f64 = 2.0;
/// No blocker farther than this from a sightline can touch it (a wall's circumradius is 1, plus the
/// other hex's reach; see `witness`).
const REACH: f64 = 2.0 + TOUCH;

/// Line-of-sight oracle for one map.
#[derive(Debug, Clone)]
pub struct Sight {
    blockers: Vec<Blocker>,
    /// Blockers filed in a grid of square buckets by their anchor, so that a sightline only looks at
    /// the blockers around it (large maps have hundreds of wall hexes, almost all far away).
    origin: Point,
    columns: usize,
    rows: usize,
    buckets: Vec<Vec<u32>>,
}

impl Sight {
    pub fn new(map: &HexMap) -> Self {
        let mut blockers: Vec<Blocker> = map
            .hexes()
            .iter()
            .filter(|h| map.terrain(**h) == Some(Terrain::Wall))
            .map(|h| Blocker::Wall(centre(*h)))
            .collect();
        for (a, b) in map.thin_walls() {
            let d = crate::hex::direction_to(a, b).unwrap_or(0);
            blockers.push(Blocker::Thin(corner(a, d), corner(a, d + 1)));
        }
        let (mut lo, mut hi) = (Point::new(0.0, 0.0), Point::new(0.0, 0.0));
        for (i, b) in blockers.iter().enumerate() {
            let p = b.anchor();
            if i == 0 {
                (lo, hi) = (p, p);
            }
            (lo.x, lo.y, hi.x, hi.y) = (lo.x.min(p.x), lo.y.min(p.y), hi.x.max(p.x), hi.y.max(p.y));
        }
        let columns = ((hi.x - lo.x) / BUCKET) as usize + 1;
        let rows = ((hi.y - lo.y) / BUCKET) as usize + 1;
        let mut buckets = vec![Vec::new(); columns * rows];
        for (i, b) in blockers.iter().enumerate() {
            let p = b.anchor();
            let (cx, cy) = (
                ((p.x - lo.x) / BUCKET) as usize,
                ((p.y - lo.y) / BUCKET) as usize,
            );
            buckets[cy * columns + cx].push(i as u32);
        }
        Sight {
            blockers,
            origin: lo,
            columns,
            rows,
            buckets,
        }
    }

    /// The blockers whose anchor lies in the box spanned by `a` and `b`, widened by `REACH`, in the
    /// order they were filed (so that results never depend on the bucket layout).
    fn around(&self, a: Point, b: Point) -> Vec<Blocker> {
        let cell = |v: f64, o: f64, n: usize| -> usize {
            (((v - o) / BUCKET).floor().max(0.0) as usize).min(n - 1)
        };
        let (x0, x1) = (a.x.min(b.x) - REACH, a.x.max(b.x) + REACH);
        let (y0, y1) = (a.y.min(b.y) - REACH, a.y.max(b.y) + REACH);
        let mut ids: Vec<u32> = Vec::new();
        for cy in cell(y0, self.origin.y, self.rows)..=cell(y1, self.origin.y, self.rows) {
            for cx in cell(x0, self.origin.x, self.columns)..=cell(x1, self.origin.x, self.columns)
            {
                ids.extend_from_slice(&self.buckets[cy * self.columns + cx]);
            }
        }
        ids.sort_unstable();
        ids.into_iter().map(|i| self.blockers[i as usize]).collect()
    }

    /// Whether `a` sees `b`. A hex always sees itself.
    pub fn visible(&self, a: Hex, b: Hex) -> bool {
        a == b || self.witness(a, b).is_some()
    }

    /// A sightline from a point of `a` to a point of `b` that touches no blocker, if there is one.
    pub fn witness(&self, a: Hex, b: Hex) -> Option<(Point, Point)> {
        let (ca, cb) = (centre(a), centre(b));
        // Only blockers within reach of the strip between the two hexes can touch a sightline.
        if self.blockers.is_empty() {
            return Some((ca, cb));
        }
        let near: Vec<Blocker> = self
            .around(ca, cb)
            .into_iter()
            .filter(|bl| match *bl {
                Blocker::Wall(c) => dist_to_segment(c, ca, cb) <= 2.0 + TOUCH,
                Blocker::Thin(p, q) => dist_to_segment(p.add(q).scale(0.5), ca, cb) <= 1.5 + TOUCH,
            })
            .collect();
        if near.is_empty() {
            return Some((ca, cb));
        }
        let free = |p: Point, q: Point| near.iter().all(|bl| !blocks(*bl, p, q));
        if free(ca, cb) {
            return Some((ca, cb));
        }
        let pulled = |h: Hex, c: Point, k: usize| {
            let p = corner(h, k);
            p.add(c.sub(p).scale(1e-6))
        };
        for i in 0..6 {
            for j in 0..6 {
                let (p, q) = (pulled(a, ca, i), pulled(b, cb, j));
                if free(p, q) {
                    return Some((p, q));
                }
            }
        }
        exact_sweep(a, b, &near)
    }
}

fn dist_to_segment(p: Point, a: Point, b: Point) -> f64 {
    let ab = b.sub(a);
    let len2 = ab.dot(ab);
    let t = if len2 == 0.0 {
        0.0
    } else {
        (p.sub(a).dot(ab) / len2).clamp(0.0, 1.0)
    };
    let proj = a.add(ab.scale(t));
    let d = p.sub(proj);
    d.dot(d).sqrt()
}

/// Closed segment–segment intersection, with touching counted.
fn segments_touch(p1: Point, p2: Point, q1: Point, q2: Point) -> bool {
    let d1 = p2.sub(p1);
    let d2 = q2.sub(q1);
    let o1 = d1.cross(q1.sub(p1));
    let o2 = d1.cross(q2.sub(p1));
    let o3 = d2.cross(p1.sub(q1));
    let o4 = d2.cross(p2.sub(q1));
    let l1 = d1.dot(d1).sqrt().max(1e-12);
    let l2 = d2.dot(d2).sqrt().max(1e-12);
    // Signed distances of each endpoint from the other segment's line.
    let (s1, s2, s3, s4) = (o1 / l1, o2 / l1, o3 / l2, o4 / l2);
    let straddles = |a: f64, b: f64| (a <= TOUCH && b >= -TOUCH) || (a >= -TOUCH && b <= TOUCH);
    if straddles(s1, s2) && straddles(s3, s4) {
        if s1.abs() <= TOUCH && s2.abs() <= TOUCH {
            // Collinear: overlap of projections.
            let t0 = q1.sub(p1).dot(d1) / (l1 * l1);
            let t1 = q2.sub(p1).dot(d1) / (l1 * l1);
            let (lo, hi) = if t0 < t1 { (t0, t1) } else { (t1, t0) };
            return hi >= -TOUCH && lo <= 1.0 + TOUCH;
        }
        return true;
    }
    false
}

fn blocks(bl: Blocker, p: Point, q: Point) -> bool {
    match bl {
        Blocker::Thin(a, b) => segments_touch(p, q, a, b),
        Blocker::Wall(c) => {
            let d = dist_to_segment(c, p, q);
            if d > 1.0 + TOUCH {
                return false;
            }
            if d <= INRADIUS {
                return true;
            }
            let h = Hex::ZERO;
            (0..6).any(|k| {
                let a = corner(h, k).add(c);
                let b = corner(h, k + 1).add(c);
                segments_touch(p, q, a, b)
            })
        }
    }
}

/// Chord of the line `{x : n·x = t}` through the hexagon centred at `c`, as parameters along `d`.
fn chord(c: Point, d: Point, n: Point, t: f64) -> Option<(f64, f64)> {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    let origin = Hex::ZERO;
    for k in 0..6 {
        let a = corner(origin, k).add(c);
        let b = corner(origin, k + 1).add(c);
        let (fa, fb) = (n.dot(a) - t, n.dot(b) - t);
        if (fa <= 0.0 && fb >= 0.0) || (fa >= 0.0 && fb <= 0.0) {
            let s = if (fa - fb).abs() < 1e-15 {
                // The edge lies on the line: both its ends count.
                lo = lo.min(d.dot(a)).min(d.dot(b));
                hi = hi.max(d.dot(a)).max(d.dot(b));
                continue;
            } else {
                fa / (fa - fb)
            };
            let p = a.add(b.sub(a).scale(s));
            lo = lo.min(d.dot(p));
            hi = hi.max(d.dot(p));
        }
    }
    (lo <= hi).then_some((lo, hi))
}

/// Exact search over line directions and offsets (see the module docs).
fn exact_sweep(a: Hex, b: Hex, near: &[Blocker]) -> Option<(Point, Point)> {
    let (ca, cb) = (centre(a), centre(b));
    let mut verts: Vec<Point> = (0..6)
        .map(|k| corner(a, k))
        .chain((0..6).map(|k| corner(b, k)))
        .collect();
    let origin = Hex::ZERO;
    // Every point of a segment from A to B lies within 1 of the centre segment, so only blocker
    // corners there can change which blockers a test line meets.
    let mut add = |p: Point| {
        let close = dist_to_segment(p, ca, cb) <= 1.0 + 1e-6;
        if close
            && !verts
                .iter()
                .any(|v| (v.x - p.x).abs() < 1e-9 && (v.y - p.y).abs() < 1e-9)
        {
            verts.push(p);
        }
    };
    for bl in near {
        match *bl {
            Blocker::Wall(c) => (0..6).for_each(|k| add(corner(origin, k).add(c))),
            Blocker::Thin(p, q) => {
                add(p);
                add(q);
            }
        }
    }
    // Directions from A to B span less than half a turn; measure angles relative to centre–centre.
    let axis = cb.sub(ca);
    let phi = axis.y.atan2(axis.x);
    let rel = |v: Point| {
        let mut t = v.y.atan2(v.x) - phi;
        while t <= -std::f64::consts::PI {
            t += 2.0 * std::f64::consts::PI;
        }
        while t > std::f64::consts::PI {
            t -= 2.0 * std::f64::consts::PI;
        }
        t
    };
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for i in 0..6 {
        for j in 0..6 {
            let t = rel(corner(b, j).sub(corner(a, i)));
            lo = lo.min(t);
            hi = hi.max(t);
        }
    }
    let mut angles = vec![lo, hi];
    for i in 0..verts.len() {
        for j in i + 1..verts.len() {
            let v = verts[j].sub(verts[i]);
            if v.dot(v) < 1e-18 {
                continue;
            }
            // A line has two directions; keep the one pointing roughly from A to B.
            let mut t = rel(v);
            if t > std::f64::consts::FRAC_PI_2 {
                t -= std::f64::consts::PI;
            } else if t < -std::f64::consts::FRAC_PI_2 {
                t += std::f64::consts::PI;
            }
            if t > lo && t < hi {
                angles.push(t);
            }
        }
    }
    angles.sort_by(f64::total_cmp);
    angles.dedup_by(|x, y| (*x - *y).abs() < 1e-12);
    let mut offsets: Vec<f64> = Vec::with_capacity(verts.len());
    for w in angles.windows(2) {
        let theta = phi + (w[0] + w[1]) / 2.0;
        let d = Point::new(theta.cos(), theta.sin());
        let n = Point::new(-d.y, d.x);
        let span = |c: Point| {
            (0..6)
                .map(|k| n.dot(corner(origin, k).add(c)))
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| {
                    (l.min(x), h.max(x))
                })
        };
        let (a0, a1) = span(ca);
        let (b0, b1) = span(cb);
        let (t0, t1) = (a0.max(b0), a1.min(b1));
        if t0 >= t1 {
            continue;
        }
        offsets.clear();
        offsets.push(t0);
        offsets.push(t1);
        offsets.extend(
            verts
                .iter()
                .map(|v| n.dot(*v))
                .filter(|x| *x > t0 && *x < t1),
        );
        offsets.sort_by(f64::total_cmp);
        for o in offsets.windows(2) {
            if o[1] - o[0] < 1e-12 {
                continue;
            }
            let t = (o[0] + o[1]) / 2.0;
            let (Some((_, sa1)), Some((sb0, _))) = (chord(ca, d, n, t), chord(cb, d, n, t)) else {
                continue;
            };
            let base = n.scale(t);
            let p = base.add(d.scale(sa1));
            let q = base.add(d.scale(sb0.max(sa1)));
            if near.iter().all(|bl| !blocks(*bl, p, q)) {
                return Some((p, q));
            }
        }
    }
    None
}
