//! Area-of-effect patterns on hexes: the 12 orientations (6 turns, mirrored or not) of a pattern.

use super::{Hex, qr};

/// Turns an axial offset by 60° counter-clockwise (`d0 → d1`).
pub const fn rotate(h: Hex) -> Hex {
    // Cube (q, r, s) → (-r, -s, -q).
    Hex::new(-h.y, h.x + h.y)
}

/// Mirrors an axial offset across the `d0` axis (`d1 ↔ d4`… keeps `d0`).
pub const fn mirror(h: Hex) -> Hex {
    Hex::new(h.x, -h.x - h.y)
}

/// Every distinct orientation of `pattern` (6 rotations × optional mirror), each sorted by `(q, r)`.
pub(crate) fn orientations(pattern: &[Hex]) -> Vec<Vec<Hex>> {
    let mut out: Vec<Vec<Hex>> = Vec::with_capacity(12);
    for mirrored in [false, true] {
        let mut cur: Vec<Hex> = pattern
            .iter()
            .map(|&h| if mirrored { mirror(h) } else { h })
            .collect();
        for _ in 0..6 {
            let mut sorted = cur.clone();
            sorted.sort_by_key(|h| qr(*h));
            if !out.contains(&sorted) {
                out.push(sorted);
            }
            cur = cur.into_iter().map(rotate).collect();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::{DIRECTIONS, hex};

    #[test]
    fn rotating_walks_the_directions_counter_clockwise() {
        for d in 0..6 {
            let (q, r) = DIRECTIONS[d];
            let (q2, r2) = DIRECTIONS[(d + 1) % 6];
            assert_eq!(rotate(hex(q, r)), hex(q2, r2));
        }
    }

    #[test]
    fn a_single_hex_line_has_six_orientations_and_a_bent_three_has_twelve() {
        assert_eq!(orientations(&[hex(1, 0)]).len(), 6);
        assert_eq!(orientations(&[hex(1, 0), hex(2, 0), hex(2, 1)]).len(), 12);
    }
}
