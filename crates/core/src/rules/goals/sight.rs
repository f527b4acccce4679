//! Line of sight decided exactly in integers: some segment from a point of one hex to a point of the
//! other touches no wall hex (closed hexagons), with no floating point anywhere.
//!
//! The plane is taken in the affine coordinates `X = 3q`, `Y = 2r + q`, where a hex centre is an
//! integer point and its corners are the centre plus `(±2, 0)` and `(±1, ±1)`. An affine map keeps
//! lines, segments and which sets they touch, so the rule can be decided there.
//!
//! Why the search below is complete: the sightlines from A to B that touch no wall form an open set
//! of lines. Its edges are lines through one corner (of A, B or a wall that can lie between them), so
//! if it is not empty its closure has a corner: a line through two corners `u` and `v`. Lines through
//! `u` and `v` each shifted a little to one side reach every sector around such a line, and "a little"
//! only needs to be smaller than the distance of every other corner from it, which integer
//! coordinates bound from below. So trying, for every pair of corners, the four lines through the two
//! corners shifted by `±n / K` (with `K >= 32·M²` for coordinates up to `M`) finds a sightline if there is one.

use crate::hex::Hex;

/// Corner offsets of a hex around its centre, in the integer coordinates.
const CORNERS: [(i64, i64); 6] = [(2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1)];

/// The three pairs of parallel edges of a hex as slabs `|a·p| <= h` (in units of the hex size).
const SLABS: [((i64, i64), i64); 3] = [((0, 1), 1), ((1, 1), 2), ((1, -1), 2)];

/// Integer centre of a hex.
pub fn centre(h: Hex) -> (i64, i64) {
    (3 * i64::from(h.x), 2 * i64::from(h.y) + i64::from(h.x))
}

/// A rational number with a positive denominator.
#[derive(Debug, Clone, Copy)]
struct Frac {
    n: i128,
    d: i128,
}

impl Frac {
    fn le(self, o: Frac) -> bool {
        self.n * o.d <= o.n * self.d
    }
    fn lt(self, o: Frac) -> bool {
        self.n * o.d < o.n * self.d
    }
}

/// A line `p + t·d`.
#[derive(Debug, Clone, Copy)]
struct Line {
    p: (i128, i128),
    d: (i128, i128),
}

/// The parameter interval where `line` meets the hexagon of centre `c` with slab half-widths scaled
/// by `size`. `open`: the interior only (strict), else the closed hexagon. `None` when they miss.
fn chord(line: Line, c: (i128, i128), size: i128, open: bool) -> Option<(Frac, Frac)> {
    let mut lo: Option<Frac> = None;
    let mut hi: Option<Frac> = None;
    for ((ax, ay), h) in SLABS {
        let (ax, ay, h) = (i128::from(ax), i128::from(ay), i128::from(h) * size);
        let mut a = ax * (line.p.0 - c.0) + ay * (line.p.1 - c.1);
        let mut b = ax * line.d.0 + ay * line.d.1;
        if b == 0 {
            let inside = if open { a.abs() < h } else { a.abs() <= h };
            if !inside {
                return None;
            }
            continue;
        }
        if b < 0 {
            (a, b) = (-a, -b);
        }
        let l = Frac { n: -h - a, d: b };
        let u = Frac { n: h - a, d: b };
        if lo.is_none_or(|x| x.lt(l)) {
            lo = Some(l);
        }
        if hi.is_none_or(|x| u.lt(x)) {
            hi = Some(u);
        }
    }
    // The slab normals span the plane, so a line with a direction meets at least two of them.
    let (lo, hi) = (lo?, hi?);
    let ok = if open { lo.lt(hi) } else { lo.le(hi) };
    ok.then_some((lo, hi))
}

/// Whether the part of `line` between hexes `a` and `b` (centres, scaled) is clear of every wall.
/// The line must cross the interiors of both; otherwise it is no sightline.
fn clear(line: Line, a: (i128, i128), b: (i128, i128), k: i128, walls: &[(i128, i128)]) -> bool {
    let (Some((a0, a1)), Some((b0, b1))) = (chord(line, a, k, true), chord(line, b, k, true))
    else {
        return false;
    };
    let (from, to) = if a1.le(b0) {
        (a1, b0)
    } else if b1.le(a0) {
        (b1, a0)
    } else {
        return false;
    };
    walls.iter().all(|&w| match chord(line, w, k, false) {
        Some((w0, w1)) => !(w0.le(to) && from.le(w1)),
        None => true,
    })
}

/// The smallest power of two `K >= 32·M²`, where `M` bounds every coordinate involved: shifting the
/// lines by at most `|n| / K` then keeps every corner off a candidate line on its side.
fn scale(points: &[(i64, i64)]) -> i128 {
    let m = points
        .iter()
        .map(|&(x, y)| x.abs().max(y.abs()))
        .max()
        .unwrap_or(0)
        + 1;
    let need = 32 * i128::from(m) * i128::from(m);
    let mut k: i128 = 1;
    while k < need {
        k *= 2;
    }
    k
}

fn gcd(mut a: i64, mut b: i64) -> i64 {
    (a, b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

/// Whether the closed hexagon of centre `c` touches the line through `u` and `v`.
fn touches(u: (i64, i64), v: (i64, i64), c: (i64, i64)) -> bool {
    let (dx, dy) = (v.0 - u.0, v.1 - u.1);
    let (mut neg, mut pos) = (false, false);
    for (ox, oy) in CORNERS {
        let s = dx * (c.1 + oy - u.1) - dy * (c.0 + ox - u.0);
        if s <= 0 {
            neg = true;
        }
        if s >= 0 {
            pos = true;
        }
    }
    neg && pos
}

/// Exact line of sight between hexes among the given wall hexes.
#[derive(Debug, Clone, Default)]
pub struct Sight {
    walls: Vec<(i64, i64)>,
}

impl Sight {
    /// A sight oracle for a board with these wall hexes.
    pub fn new(walls: &[Hex]) -> Self {
        let mut walls: Vec<(i64, i64)> = walls.iter().map(|&h| centre(h)).collect();
        walls.sort_unstable();
        walls.dedup();
        Sight { walls }
    }

    /// Whether `a` sees `b`. A hex sees itself.
    pub fn visible(&self, a: Hex, b: Hex) -> bool {
        if a == b {
            return true;
        }
        let ca = centre(a);
        let cb = centre(b);
        // Work relative to A's centre so that the numbers stay small.
        let rel = |p: (i64, i64)| (p.0 - ca.0, p.1 - ca.1);
        let (a0, b0) = ((0, 0), rel(cb));
        // Only walls that meet the hull of A and B can touch a segment from A to B: their centres
        // lie within twice a hexagon of the centre segment.
        let probe = Line {
            p: (0, 0),
            d: (i128::from(b0.0), i128::from(b0.1)),
        };
        let near: Vec<(i64, i64)> = self
            .walls
            .iter()
            .map(|&w| rel(w))
            .filter(|&(x, y)| {
                let (lx, hx) = (b0.0.min(0) - 6, b0.0.max(0) + 6);
                let (ly, hy) = (b0.1.min(0) - 4, b0.1.max(0) + 4);
                x >= lx && x <= hx && y >= ly && y <= hy
            })
            .filter(
                |&(x, y)| match chord(probe, (i128::from(x), i128::from(y)), 2, false) {
                    Some((t0, t1)) => t0.le(Frac { n: 1, d: 1 }) && Frac { n: 0, d: 1 }.le(t1),
                    None => false,
                },
            )
            .collect();
        if near.is_empty() {
            return true;
        }
        let mut corners: Vec<(i64, i64)> = [a0, b0]
            .iter()
            .chain(near.iter())
            .flat_map(|&(x, y)| CORNERS.iter().map(move |&(ox, oy)| (x + ox, y + oy)))
            .collect();
        corners.sort_unstable();
        corners.dedup();
        let k = scale(&corners);
        let big = |p: (i64, i64)| (i128::from(p.0) * k, i128::from(p.1) * k);
        let walls: Vec<(i128, i128)> = near.iter().map(|&w| big(w)).collect();
        let (ak, bk) = (big(a0), big(b0));
        // The line through both centres first: it settles most open cases at once.
        let straight = Line {
            p: ak,
            d: (bk.0 - ak.0, bk.1 - ak.1),
        };
        if clear(straight, ak, bk, k, &walls) {
            return true;
        }
        for (i, &u) in corners.iter().enumerate() {
            for &v in &corners[i + 1..] {
                if !touches(u, v, a0) || !touches(u, v, b0) {
                    continue;
                }
                let g = gcd(v.0 - u.0, v.1 - u.1);
                let n = (i128::from(-(v.1 - u.1) / g), i128::from((v.0 - u.0) / g));
                let (uk, vk) = (big(u), big(v));
                for (s1, s2) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                    let p = (uk.0 + s1 * n.0, uk.1 + s1 * n.1);
                    let q = (vk.0 + s2 * n.0, vk.1 + s2 * n.1);
                    let line = Line {
                        p,
                        d: (q.0 - p.0, q.1 - p.1),
                    };
                    if clear(line, ak, bk, k, &walls) {
                        return true;
                    }
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::hex;

    #[test]
    fn nothing_blocks_an_open_board_and_neighbours_always_see_each_other() {
        let s = Sight::new(&[hex(1, 1)]);
        assert!(s.visible(hex(0, 0), hex(6, -2)));
        assert!(s.visible(hex(1, 0), hex(2, 0)));
        assert!(s.visible(hex(0, 1), hex(1, 0)));
    }

    #[test]
    fn a_wall_in_a_straight_row_blocks() {
        let s = Sight::new(&[hex(2, 0)]);
        assert!(!s.visible(hex(1, 0), hex(3, 0)));
        assert!(s.visible(hex(1, 0), hex(3, -1)));
    }

    #[test]
    fn grazing_the_shared_corner_of_two_walls_blocks() {
        // (0,0) and (2,-1) are joined only by lines through the common corner of (1,0) and (1,-1).
        let s = Sight::new(&[hex(1, 0), hex(1, -1)]);
        assert!(!s.visible(hex(0, 0), hex(2, -1)));
        // One of the two walls alone leaves a gap beside it.
        assert!(Sight::new(&[hex(1, 0)]).visible(hex(0, 0), hex(2, -1)));
    }

    #[test]
    fn a_walled_corridor_is_seen_along() {
        let mut walls = Vec::new();
        for q in 0..6 {
            walls.push(hex(q, 0));
            walls.push(hex(q, 2));
        }
        let s = Sight::new(&walls);
        assert!(s.visible(hex(0, 1), hex(5, 1)));
    }

    #[test]
    fn a_sightline_off_the_centres_is_found() {
        // The centre line from (0,0) to (4,0) crosses the wall (2,0); no other wall stands in the way
        // of a line along the top edges.
        let s = Sight::new(&[hex(2, 0)]);
        assert!(!s.visible(hex(0, 0), hex(4, 0)));
        // From (0,0) to (4,-1) the centre line passes the wall's corner; a line beside it is clear.
        assert!(s.visible(hex(0, 0), hex(4, -1)));
    }

    #[test]
    fn sight_agrees_with_the_float_oracle_on_random_walls() {
        use crate::hex::HexMap;
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for _round in 0..4 {
            let mut walls = Vec::new();
            let mut open = Vec::new();
            for q in 0..8 {
                for r in -3..5 {
                    if (1..7).contains(&q) && rng.random_range(0..100) < 20 {
                        walls.push(hex(q, r));
                    } else {
                        open.push(hex(q, r));
                    }
                }
            }
            let map = HexMap::new(&open, &walls).unwrap();
            let float = crate::hex::sight::Sight::new(&map);
            let exact = Sight::new(&walls);
            for (i, &a) in open.iter().enumerate().step_by(2) {
                for &b in open.iter().skip(i + 1).step_by(3) {
                    assert_eq!(
                        exact.visible(a, b),
                        float.visible(a, b),
                        "{a:?} to {b:?} with walls {walls:?}"
                    );
                }
            }
        }
    }
}
