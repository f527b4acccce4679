//! Line of sight between squares: the segment between the two centres may not pass through the
//! interior of a wall square; touching a corner or running along a side does not block.
//!
//! Everything is decided in doubled integer coordinates (centres become odd numbers, square sides
//! even ones), so the test is exact: three separating-axis checks per wall square.

use super::Square;

/// Whether the segment from the centre of `a` to the centre of `b` passes through the interior of
/// no square for which `is_wall` holds. Only squares inside the segment's bounding box can block.
pub fn clear(a: Square, b: Square, is_wall: impl Fn(Square) -> bool) -> bool {
    clear_within(a, b, (i32::MIN, i32::MIN), (i32::MAX, i32::MAX), is_wall)
}

/// As [`clear`], when every wall lies between the corners `low` and `high` (inclusive): only the
/// squares of both boxes are looked at, however far apart `a` and `b` are.
pub(crate) fn clear_within(
    a: Square,
    b: Square,
    low: Square,
    high: Square,
    is_wall: impl Fn(Square) -> bool,
) -> bool {
    if a == b {
        return true;
    }
    let (x0, x1) = (a.0.min(b.0).max(low.0), a.0.max(b.0).min(high.0));
    let (y0, y1) = (a.1.min(b.1).max(low.1), a.1.max(b.1).min(high.1));
    for x in x0..=x1 {
        for y in y0..=y1 {
            if is_wall((x, y)) && crosses_interior(a, b, (x, y)) {
                return false;
            }
        }
    }
    true
}

/// Whether the centre-to-centre segment from `a` to `b` meets the open interior of square `w`.
///
/// The closed segment misses the open square exactly when a line weakly separates them, and for a
/// segment and an axis-aligned square the candidate lines are the two axes and the segment's normal.
pub(crate) fn crosses_interior(a: Square, b: Square, w: Square) -> bool {
    // Doubled coordinates: centre (x + 0.5) becomes 2x + 1, side x becomes 2x.
    let (ax, ay) = (2 * i64::from(a.0) + 1, 2 * i64::from(a.1) + 1);
    let (bx, by) = (2 * i64::from(b.0) + 1, 2 * i64::from(b.1) + 1);
    let (lx, ly) = (2 * i64::from(w.0), 2 * i64::from(w.1));
    let (hx, hy) = (lx + 2, ly + 2);
    if ax.max(bx) <= lx || ax.min(bx) >= hx || ay.max(by) <= ly || ay.min(by) >= hy {
        return false;
    }
    // Side of each corner relative to the segment's line: cross((b - a), (corner - a)).
    // i128: with coordinates anywhere in i32 the products need up to 68 bits.
    let (dx, dy) = (i128::from(bx - ax), i128::from(by - ay));
    let side = |cx: i64, cy: i64| dx * i128::from(cy - ay) - dy * i128::from(cx - ax);
    let sides = [side(lx, ly), side(hx, ly), side(lx, hy), side(hx, hy)];
    let all_above = sides.iter().all(|&s| s >= 0);
    let all_below = sides.iter().all(|&s| s <= 0);
    !(all_above || all_below)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An independent check: clip the segment's parameter `t` against the open square with exact
    /// fractions (`num / den` compared by cross-multiplication), then ask whether any `t` in `[0, 1]`
    /// is left strictly inside.
    fn crosses_by_clipping(a: Square, b: Square, w: Square) -> bool {
        let p0 = [2 * i64::from(a.0) + 1, 2 * i64::from(a.1) + 1];
        let p1 = [2 * i64::from(b.0) + 1, 2 * i64::from(b.1) + 1];
        let lo = [2 * i64::from(w.0), 2 * i64::from(w.1)];
        // Open interval of t as (num, den) pairs with den > 0; start with all reals (None).
        let mut low: Option<(i64, i64)> = None;
        let mut high: Option<(i64, i64)> = None;
        let less = |p: (i64, i64), q: (i64, i64)| p.0 * q.1 < q.0 * p.1;
        for k in 0..2 {
            let d = p1[k] - p0[k];
            let (l, h) = (lo[k] - p0[k], lo[k] + 2 - p0[k]);
            if d == 0 {
                if !(l < 0 && 0 < h) {
                    return false;
                }
                continue;
            }
            let (t1, t2) = if d > 0 {
                ((l, d), (h, d))
            } else {
                ((-h, -d), (-l, -d))
            };
            if low.is_none_or(|cur| less(cur, t1)) {
                low = Some(t1);
            }
            if high.is_none_or(|cur| less(t2, cur)) {
                high = Some(t2);
            }
        }
        let (low, high) = (low.unwrap_or((-1, 1)), high.unwrap_or((2, 1)));
        less(low, high) && less(low, (1, 1)) && less((0, 1), high)
    }

    #[test]
    fn the_formats_corner_example_is_clear_but_a_wall_on_the_diagonal_blocks() {
        let corner_walls = |s: Square| s == (1, 0) || s == (0, 1);
        assert!(clear((0, 0), (2, 2), corner_walls));
        assert!(!clear((0, 0), (2, 2), |s| s == (1, 1)));
    }

    #[test]
    fn sightlines_table() {
        let cases: [(&str, Square, Square, &[Square], bool); 6] = [
            (
                "along a row past a wall beside it",
                (0, 0),
                (4, 0),
                &[(2, 1)],
                true,
            ),
            ("straight through a wall", (0, 0), (4, 0), &[(2, 0)], false),
            (
                "a knight's move through the corner square it crosses",
                (0, 0),
                (1, 2),
                &[(0, 1)],
                false,
            ),
            (
                "a knight's move through the square beside its start",
                (0, 0),
                (2, 1),
                &[(1, 0)],
                false,
            ),
            (
                "a shallow line grazing a corner",
                (0, 0),
                (2, 1),
                &[(0, 1)],
                true,
            ),
            (
                "walls outside the bounding box never matter",
                (0, 0),
                (3, 3),
                &[(4, 4), (-1, 0)],
                true,
            ),
        ];
        for (what, a, b, walls, want) in cases {
            assert_eq!(clear(a, b, |s| walls.contains(&s)), want, "{what}");
            assert_eq!(
                clear(b, a, |s| walls.contains(&s)),
                want,
                "{what}, reversed"
            );
        }
    }

    #[test]
    fn the_separating_axis_test_agrees_with_exact_clipping_everywhere_nearby() {
        let mut checked = 0;
        for ax in -3..=3 {
            for ay in -3..=3 {
                for bx in -3..=3 {
                    for by in -3..=3 {
                        for wx in -3..=3 {
                            for wy in -3..=3 {
                                let (a, b, w) = ((ax, ay), (bx, by), (wx, wy));
                                if a == b || w == a || w == b {
                                    continue;
                                }
                                assert_eq!(
                                    crosses_interior(a, b, w),
                                    crosses_by_clipping(a, b, w),
                                    "{a:?} → {b:?} past {w:?}"
                                );
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 100_000);
    }
}
