//! Exact non-negative fractions for the damage odds, so results can be pinned as `7/26`, not as floats.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, AddAssign, Mul};

/// A non-negative fraction kept in lowest terms.
///
/// Arithmetic is exact. The odds engine checks before it starts that every denominator it can meet
/// fits (see [`super::odds()`]), so the operations below treat an overflow as a broken invariant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Fraction {
    num: u128,
    den: u128,
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

const OVERFLOW: &str = "fraction overflow: the odds engine bounds denominators before it starts";

impl Fraction {
    /// Nothing: `0 / 1`.
    pub const ZERO: Fraction = Fraction { num: 0, den: 1 };
    /// Certainty: `1 / 1`.
    pub const ONE: Fraction = Fraction { num: 1, den: 1 };

    /// `num / den` in lowest terms. A zero denominator is a caller bug, so it yields zero rather
    /// than a panic.
    pub fn new(num: u128, den: u128) -> Self {
        if den == 0 || num == 0 {
            return Self::ZERO;
        }
        let g = gcd(num, den);
        Self {
            num: num / g,
            den: den / g,
        }
    }

    /// The numerator, in lowest terms.
    pub(crate) fn numerator(self) -> u128 {
        self.num
    }

    /// The denominator, in lowest terms (never 0).
    pub(crate) fn denominator(self) -> u128 {
        self.den
    }

    /// Whether the fraction is 0.
    pub fn is_zero(self) -> bool {
        self.num == 0
    }

    /// The nearest `f64`, for printing and JSON.
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// Product with a whole number.
    pub fn times(self, n: u128) -> Fraction {
        self * Fraction::new(n, 1)
    }
}

impl Add for Fraction {
    type Output = Fraction;

    /// Sum, computed over the least common denominator so intermediate values stay small.
    fn add(self, other: Fraction) -> Fraction {
        if self.num == 0 {
            return other;
        }
        if other.num == 0 {
            return self;
        }
        let g = gcd(self.den, other.den);
        let left = self.num.checked_mul(other.den / g).expect(OVERFLOW);
        let right = other.num.checked_mul(self.den / g).expect(OVERFLOW);
        let den = (self.den / g).checked_mul(other.den).expect(OVERFLOW);
        Fraction::new(left.checked_add(right).expect(OVERFLOW), den)
    }
}

impl AddAssign for Fraction {
    fn add_assign(&mut self, other: Fraction) {
        *self = *self + other;
    }
}

impl Mul for Fraction {
    type Output = Fraction;

    /// Product, cross-reduced first so the result is in lowest terms without big intermediates.
    fn mul(self, other: Fraction) -> Fraction {
        if self.num == 0 || other.num == 0 {
            return Self::ZERO;
        }
        let g1 = gcd(self.num, other.den);
        let g2 = gcd(other.num, self.den);
        let num = (self.num / g1).checked_mul(other.num / g2).expect(OVERFLOW);
        let den = (self.den / g2).checked_mul(other.den / g1).expect(OVERFLOW);
        Fraction { num, den }
    }
}

impl Default for Fraction {
    fn default() -> Self {
        Self::ZERO
    }
}

impl PartialOrd for Fraction {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Fraction {
    fn cmp(&self, other: &Self) -> Ordering {
        // a/b vs c/d without multiplying: compare integer parts, then the remainders' reciprocals.
        let (mut a, mut b, mut c, mut d) = (self.num, self.den, other.num, other.den);
        let mut flipped = false;
        loop {
            let (qa, qc) = (a / b, c / d);
            if qa != qc {
                let ord = qa.cmp(&qc);
                return if flipped { ord.reverse() } else { ord };
            }
            let (ra, rc) = (a % b, c % d);
            match (ra == 0, rc == 0) {
                (true, true) => return Ordering::Equal,
                (true, false) => {
                    return if flipped {
                        Ordering::Greater
                    } else {
                        Ordering::Less
                    };
                }
                (false, true) => {
                    return if flipped {
                        Ordering::Less
                    } else {
                        Ordering::Greater
                    };
                }
                (false, false) => {
                    (a, b, c, d) = (b, ra, d, rc);
                    flipped = !flipped;
                }
            }
        }
    }
}

impl fmt::Display for Fraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_are_kept_in_lowest_terms() {
        assert_eq!(Fraction::new(6, 8), Fraction::new(3, 4));
        assert_eq!(Fraction::new(6, 8).to_string(), "3/4");
        assert_eq!(Fraction::new(4, 2).to_string(), "2");
    }

    #[test]
    fn sums_and_products_are_exact() {
        let third = Fraction::new(1, 3);
        let sixth = Fraction::new(1, 6);
        assert_eq!(third + sixth, Fraction::new(1, 2));
        assert_eq!(third * Fraction::new(3, 5), Fraction::new(1, 5));
        assert_eq!(sixth.times(4), Fraction::new(2, 3));
        assert_eq!(Fraction::ZERO + third, third);
    }

    #[test]
    fn fractions_order_by_value() {
        let cases = [
            ((1, 3), (1, 2), Ordering::Less),
            ((2, 4), (1, 2), Ordering::Equal),
            ((5, 3), (3, 2), Ordering::Greater),
            ((1, 1), (0, 1), Ordering::Greater),
            ((7, 10), (2, 3), Ordering::Greater),
        ];
        for ((a, b), (c, d), want) in cases {
            assert_eq!(
                Fraction::new(a, b).cmp(&Fraction::new(c, d)),
                want,
                "{a}/{b} vs {c}/{d}"
            );
        }
    }
}
