//! Sight between two hexes that are not neighbours, decided by sweeping the slopes of lines.
//!
//! Take a frame where B lies to the right of A with their spans along the x axis apart (swapping x
//! and y when the hexes lie more above each other, mirroring when B is on the left). Every line
//! through both is then `y = m·x + c` and runs from A to B as x grows. For one slope `m`, the lines
//! crossing both interiors are an open interval of `c`, and a blocker whose part on the line lies
//! between them shuts a closed interval: a blocker after A and before B along the line, which is a
//! matter of which side of a separating line it lies (the hexes of the grid are always separated by
//! a line along one of the three edge directions). So for one slope, sight is whether closed
//! intervals cover an open one, in integers.
//!
//! Between the slopes of the hex edges (−1, 0 and 1 in lattice coordinates) and the slope of the
//! centres' line, every end of these intervals is `α + β·m` with integer `α` and `β`, and which
//! blocker lies between A and B does not change. A chain of intervals covering the open one at one
//! slope covers it on a whole range of slopes as long as each link's inequality holds, and those are
//! linear: they hold on a range when they hold at its ends. Where a link fails at an end, the range
//! is cut where it turns and each part is covered again. Lines are an open set, so the finitely many
//! slopes where anything changes need no test. A gap in a cover is a sightline; a range covered
//! everywhere proves A and B blind to each other, typically in a few thousand instructions where the
//! corner search of the parent module tries every pair of corners.

use super::{Blocker, CORNERS, Lattice, SLABS};
use smallvec::SmallVec;

/// A slope `p / q` with `q > 0`.
#[derive(Debug, Clone, Copy)]
struct Slope {
    p: i64,
    q: i64,
}

impl Slope {
    fn whole(p: i64) -> Self {
        Slope { p, q: 1 }
    }

    fn lt(self, o: Slope) -> bool {
        self.p * o.q < o.p * self.q
    }

    /// A slope strictly between two others (their mediant), with small numbers.
    fn between(self, o: Slope) -> Slope {
        Slope {
            p: self.p + o.p,
            q: self.q + o.q,
        }
    }
}

/// `α + β·m`, the intercept `c = y − m·x` of the line of slope `m` through a point `(x, y)`, or a
/// difference of two such.
#[derive(Debug, Clone, Copy)]
struct Linear {
    a: i64,
    b: i64,
}

impl Linear {
    fn through(w: Lattice) -> Self {
        Linear { a: w.1, b: -w.0 }
    }

    /// The value at `m`, times `m.q` (so its sign and order are those of the value).
    fn at(self, m: Slope) -> i64 {
        self.a * m.q + self.b * m.p
    }

    fn plus(self, o: Linear) -> Linear {
        Linear {
            a: self.a + o.a,
            b: self.b + o.b,
        }
    }

    fn minus(self, o: Linear) -> Linear {
        Linear {
            a: self.a - o.a,
            b: self.b - o.b,
        }
    }

    /// Where the value is zero, if it changes with `m`.
    fn root(self) -> Option<Slope> {
        match self.b {
            0 => None,
            b if b > 0 => Some(Slope { p: -self.a, q: b }),
            b => Some(Slope { p: self.a, q: -b }),
        }
    }
}

/// A blocker in the frame, and the directions from A and from B across a line separating it from
/// each (a line crossed that way meets it after A, or after B).
struct Shape {
    /// A wall hex's centre, or a thin wall's first end.
    at: Lattice,
    /// A thin wall's other end; `None` for a wall hex.
    to: Option<Lattice>,
    from_a: Lattice,
    from_b: Lattice,
}

impl Shape {
    /// Whether, on lines of slope `m` (not an edge slope), the blocker's part lies after A and
    /// before B.
    fn between(&self, m: Slope) -> bool {
        let ahead = |n: Lattice| n.0 * m.q + n.1 * m.p;
        ahead(self.from_a) > 0 && ahead(self.from_b) < 0
    }

    /// The closed interval of intercepts of the lines of slope `m` that meet the blocker, as the
    /// functions of the slope that give its ends on the range of slopes around `m`. `extremes`:
    /// the hexagon's corners (offsets) lowest and highest at `m`, the same for every wall hex.
    fn span(&self, m: Slope, extremes: (Lattice, Lattice)) -> (Linear, Linear) {
        let plus = |o: Lattice| Linear::through((self.at.0 + o.0, self.at.1 + o.1));
        match self.to {
            None => (plus(extremes.0), plus(extremes.1)),
            Some(to) => {
                let (f, g) = (Linear::through(self.at), Linear::through(to));
                if f.at(m) <= g.at(m) { (f, g) } else { (g, f) }
            }
        }
    }
}

/// The corners (offsets) of a hexagon at the origin whose intercepts at slope `m` are lowest and
/// highest, with the functions giving them.
fn extremes(corners: &[Lattice; 6], m: Slope) -> ((Lattice, Lattice), (Linear, Linear)) {
    let value = |w: Lattice| Linear::through(w).at(m);
    let (mut lo, mut hi) = (corners[0], corners[0]);
    let (mut lo_v, mut hi_v) = (value(lo), value(hi));
    for &w in &corners[1..] {
        let v = value(w);
        if v < lo_v {
            (lo, lo_v) = (w, v);
        }
        if v > hi_v {
            (hi, hi_v) = (w, v);
        }
    }
    ((lo, hi), (Linear::through(lo), Linear::through(hi)))
}

/// How many ranges of slopes one question may cut before giving the question back to the corner
/// search: the cuts are roots of differences of a few dozen functions, so a real board needs far
/// fewer, and the bound keeps a pathological one from taking long.
const BUDGET: usize = 512;

/// Whether A (centre at the origin) sees B (centre `b`, not a neighbour of A) past the blockers
/// `near` (relative to A's centre, every blocker whose hex may touch the hull of A and B). `None`
/// when the numbers would grow too large or the sweep ran out of cuts: the caller asks the corner
/// search then.
pub(super) fn sees(b: Lattice, near: impl IntoIterator<Item = Blocker>) -> Option<bool> {
    // Far boards would need wider integers; the corner search has them.
    if b.0.abs().max(b.1.abs()) > 2_000 {
        return None;
    }
    // The frame: spans along x apart (A's is 4 wide in lattice x, 2 in lattice y), B to the right.
    let swap = b.0.abs() <= 4;
    let turn = |w: Lattice| if swap { (w.1, w.0) } else { w };
    let flip = if turn(b).0 < 0 { -1 } else { 1 };
    let frame = |w: Lattice| {
        let t = turn(w);
        (flip * t.0, flip * t.1)
    };
    let fb = frame(b);
    if fb.0 <= 2 * if swap { 1 } else { 2 } {
        return None;
    }
    // A's corners in the frame, as offsets from a hex's centre (a mirror maps them to themselves).
    let offsets = CORNERS.map(frame);
    // The slab normals in the frame (a mirror only swaps a slab's sides).
    let slabs = SLABS.map(|(n, h)| (turn(n), h));
    // The direction, from the hex centred at `c`, across a slab side that `points` all lie beyond
    // (each `reach` farther than the slab's half-width from its middle: a wall hex's centre lies
    // a whole width away).
    let away = |c: Lattice, points: &[Lattice], reach: i64| -> Option<Lattice> {
        slabs.iter().find_map(|&(n, h)| {
            let dot = |w: Lattice| n.0 * (w.0 - c.0) + n.1 * (w.1 - c.1);
            [1, -1]
                .into_iter()
                .find(|s| points.iter().all(|&w| s * dot(w) >= reach * h))
                .map(|s| (s * n.0, s * n.1))
        })
    };
    let mut shapes: SmallVec<[Shape; 16]> = SmallVec::new();
    for bl in near {
        let (at, to) = match bl.edge {
            None => (frame(bl.centre), None),
            Some(_) => {
                let mut ends = bl.corners().map(frame);
                let (Some(s), Some(e)) = (ends.next(), ends.next()) else {
                    return None;
                };
                (s, Some(e))
            }
        };
        let (points, reach): (&[Lattice], i64) = match &to {
            None => (std::slice::from_ref(&at), 2),
            Some(e) => (&[at, *e][..], 1),
        };
        let (Some(from_a), Some(from_b)) = (away((0, 0), points, reach), away(fb, points, reach))
        else {
            // A wall on A or B: the caller has settled that before.
            return None;
        };
        shapes.push(Shape {
            at,
            to,
            from_a,
            from_b,
        });
    }
    // The lines crossing both hexes have slopes between those of the steepest and the flattest
    // segments from a point of A to a point of B (B lies to the right, so each is a slope). Their
    // directions `fb + (v − u)` span the hexagon twice A's size around `fb`, so the extremes are
    // at its corners `fb + 2·o`.
    let joins = offsets.map(|o| Slope {
        p: fb.1 + 2 * o.1,
        q: fb.0 + 2 * o.0,
    });
    let (mut least, mut most) = (joins[0], joins[0]);
    for m in joins {
        if m.lt(least) {
            least = m;
        }
        if most.lt(m) {
            most = m;
        }
    }
    // Cut where an edge slope or the centres' slope falls inside.
    let mut cuts: SmallVec<[Slope; 6]> = SmallVec::new();
    cuts.push(least);
    for m in [
        Slope::whole(-1),
        Slope::whole(0),
        Slope::whole(1),
        Slope { p: fb.1, q: fb.0 },
    ] {
        if least.lt(m) && m.lt(most) {
            cuts.push(m);
        }
    }
    cuts.push(most);
    cuts.sort_unstable_by(|x, y| (x.p * y.q).cmp(&(y.p * x.q)));
    let mut budget = BUDGET;
    let mut spans: SmallVec<[(Linear, Linear); 16]> = SmallVec::new();
    let mut links: SmallVec<[Linear; 16]> = SmallVec::new();
    let mut ranges: SmallVec<[(Slope, Slope); 8]> = SmallVec::new();
    for piece in cuts.windows(2) {
        let (m0, m1) = (piece[0], piece[1]);
        if !m0.lt(m1) {
            continue;
        }
        let mid = m0.between(m1);
        // On this range: the lines crossing both interiors lie strictly between `lo` and `hi`;
        // B's intercepts are A's moved by `fb.1 − m·fb.0`, and the larger low end is B's below the
        // centres' slope.
        let (ends, (a_lo, a_hi)) = extremes(&offsets, mid);
        let shift = Linear { a: fb.1, b: -fb.0 };
        let (b_lo, b_hi) = (a_lo.plus(shift), a_hi.plus(shift));
        let below = shift.at(mid) > 0;
        let (lo, hi) = if below { (b_lo, a_hi) } else { (a_lo, b_hi) };
        spans.clear();
        spans.extend(
            shapes
                .iter()
                .filter(|s| s.between(mid))
                .map(|s| s.span(mid, ends)),
        );
        ranges.push((m0, m1));
        while let Some((from, to)) = ranges.pop() {
            if budget == 0 {
                return None;
            }
            budget -= 1;
            match cover(lo, hi, &spans, from, to, &mut links)? {
                Cover::Gap => return Some(true),
                Cover::Whole => {}
                Cover::CutAt(r) => {
                    ranges.push((from, r));
                    ranges.push((r, to));
                }
            }
        }
    }
    Some(false)
}

/// What one range of slopes comes to.
enum Cover {
    /// Some line in the range is a sightline.
    Gap,
    /// Every slope of the range is covered.
    Whole,
    /// The cover found at the range's middle breaks before its ends: cover the two parts.
    CutAt(Slope),
}

/// Covers the open interval from `lo` to `hi` by the closed `spans` at the middle of the slopes from
/// `from` to `to`, and checks that the same chain covers it at both ends. `None` cannot happen (a
/// link that is at least zero in the middle and below at an end changes with the slope), but is
/// handed back rather than trusted.
fn cover(
    lo: Linear,
    hi: Linear,
    spans: &[(Linear, Linear)],
    from: Slope,
    to: Slope,
    links: &mut SmallVec<[Linear; 16]>,
) -> Option<Cover> {
    let mid = from.between(to);
    // Each link: a function that must stay at or above zero over the range.
    links.clear();
    if lo.at(mid) >= hi.at(mid) {
        links.push(lo.minus(hi));
    } else {
        let mut reach = lo;
        while reach.at(mid) < hi.at(mid) {
            // The span starting at or before the reach that reaches farthest.
            let best = spans
                .iter()
                .filter(|(l, _)| l.at(mid) <= reach.at(mid))
                .max_by_key(|(_, u)| u.at(mid));
            match best {
                Some(&(l, u)) if u.at(mid) > reach.at(mid) => {
                    links.push(reach.minus(l));
                    reach = u;
                }
                _ => return Some(Cover::Gap),
            }
        }
        links.push(reach.minus(hi));
    }
    for end in [from, to] {
        if let Some(g) = links.iter().find(|g| g.at(end) < 0) {
            // `g` is at least zero in the middle and below at this end, so it turns in between.
            return g.root().map(Cover::CutAt);
        }
    }
    Some(Cover::Whole)
}
