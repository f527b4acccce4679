//! Whom a monster can attack from a hex: range and sight for single targets, area placements, and the
//! target groups (focus included, as many targets as possible) an attack can take.

use super::movement::range_field_within;
use super::targeting::MonsterAction;
use crate::hex::aoe::orientations;
use crate::hex::sight::Sight;
use crate::hex::{Hex, HexMap, Terrain};
use std::cell::RefCell;

/// A set of enemies attacked together (bit `k` = enemy `k`) and one area placement producing it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// Bit `k` set: enemy `k` is in the group.
    pub mask: u64,
    /// The area's hexes, placed so as to hit the group.
    pub area: Vec<Hex>,
}

/// What one hex offers: single targets in range and sight, and area hit sets.
#[derive(Debug, Default, Clone)]
struct HexOffer {
    singles: u64,
    areas: Vec<Group>,
}

/// The attack of this turn, with caches over the board.
pub struct Attack<'a> {
    map: &'a HexMap,
    range: u16,
    targets: u32,
    melee_area: bool,
    patterns: Vec<Vec<Hex>>,
    enemies: Vec<usize>,
    enemy_range: Vec<Vec<u16>>,
    sight: Sight,
    /// Per enemy and hex: 0 unknown, 1 visible, 2 not.
    los: RefCell<Vec<u8>>,
    /// Filled by [`Attack::prepare`] for the hexes the monster could attack from.
    offers: Vec<HexOffer>,
}

impl<'a> Attack<'a> {
    /// The monster's attack on this board against `enemies` (dense hex indices).
    pub fn new(map: &'a HexMap, action: &MonsterAction, enemies: Vec<usize>) -> Self {
        let attacks = action.targets > 0;
        let enemy_count = enemies.len();
        let patterns = if attacks && !action.aoe.is_empty() {
            orientations(&action.aoe)
        } else {
            Vec::new()
        };
        let range = if attacks && action.range > 0 {
            action.range.min(u16::MAX as u32 - 1) as u16
        } else {
            1
        };
        Attack {
            map,
            range,
            targets: action.targets.max(1),
            melee_area: action.aoe_melee || action.range == 0,
            patterns,
            // Only `d <= range` is ever asked of these fields.
            enemy_range: enemies
                .iter()
                .map(|&e| range_field_within(map, e, range))
                .collect(),
            enemies,
            sight: Sight::new(map),
            los: RefCell::new(vec![0; enemy_count * map.len()]),
            offers: Vec::new(),
        }
    }

    /// The attack in words, for the trace.
    pub fn describe(&self) -> String {
        let mut s = if self.range <= 1 && self.melee_area {
            "attacks in melee".to_string()
        } else {
            format!("attacks at range {}", self.range)
        };
        if !self.patterns.is_empty() {
            s.push_str(if self.melee_area {
                " with a melee area"
            } else {
                " with a ranged area"
            });
        }
        if self.targets > 1 {
            s.push_str(&format!(", {} targets", self.targets));
        }
        s
    }

    fn visible(&self, k: usize, h: usize) -> bool {
        let n = self.map.len();
        let mut los = self.los.borrow_mut();
        let slot = &mut los[k * n + h];
        if *slot == 0 {
            *slot = if self
                .sight
                .visible(self.map.hex_at(h), self.map.hex_at(self.enemies[k]))
            {
                1
            } else {
                2
            };
        }
        *slot == 1
    }

    /// Works out what each hex offers; hexes where `wanted` is false offer nothing.
    pub fn prepare(&mut self, wanted: &[bool]) {
        self.offers = (0..self.map.len())
            .map(|h| {
                if wanted[h] {
                    self.compute_offer(h)
                } else {
                    HexOffer::default()
                }
            })
            .collect();
    }

    fn offer(&self, h: usize) -> &HexOffer {
        &self.offers[h]
    }

    fn compute_offer(&self, h: usize) -> HexOffer {
        let mut offer = HexOffer::default();
        for k in 0..self.enemies.len() {
            let d = self.enemy_range[k][h];
            if d >= 1 && d <= self.range && self.visible(k, h) {
                offer.singles |= 1 << k;
            }
        }
        if self.patterns.is_empty() {
            return offer;
        }
        let here = self.map.hex_at(h);
        let add = |mask: u64, cells: Vec<Hex>, offer: &mut HexOffer| {
            if mask != 0 && !offer.areas.iter().any(|g| g.mask == mask) {
                let mut area = cells;
                crate::hex::sort_hexes(&mut area);
                offer.areas.push(Group { mask, area });
            }
        };
        if self.melee_area {
            for p in &self.patterns {
                let cells: Vec<Hex> = p
                    .iter()
                    .map(|o| here + *o)
                    .filter(|c| self.map.contains(*c))
                    .collect();
                let mask = self.hits(h, &cells);
                add(mask, cells, &mut offer);
            }
        } else {
            let from_here = range_field_within(self.map, h, self.range);
            for p in &self.patterns {
                for k in 0..self.enemies.len() {
                    let target = self.map.hex_at(self.enemies[k]);
                    for c in p {
                        let anchor = target - *c;
                        let cells: Vec<Hex> = p
                            .iter()
                            .map(|o| anchor + *o)
                            .filter(|x| self.map.contains(*x))
                            .collect();
                        let in_range = cells.iter().any(|x| {
                            let i = self.map.index_of(*x).map_or(0, |i| i as usize);
                            let t = self.map.terrain_at(i);
                            t != Terrain::Wall
                                && t != Terrain::Obstacle
                                && from_here[i] >= 1
                                && from_here[i] <= self.range
                        });
                        if in_range {
                            let mask = self.hits(h, &cells);
                            add(mask, cells, &mut offer);
                        }
                    }
                }
            }
        }
        offer
    }

    /// Enemies standing in `cells` that the attacker at `h` sees.
    fn hits(&self, h: usize, cells: &[Hex]) -> u64 {
        let mut mask = 0;
        for (k, &e) in self.enemies.iter().enumerate() {
            if cells.contains(&self.map.hex_at(e)) && self.visible(k, h) {
                mask |= 1 << k;
            }
        }
        mask
    }

    /// Whether enemy `k` can be attacked from hex `h`.
    pub fn can_hit(&self, k: usize, h: usize) -> bool {
        let o = self.offer(h);
        let bit = 1u64 << k;
        ((self.patterns.is_empty() || self.targets > 1) && o.singles & bit != 0)
            || o.areas.iter().any(|g| g.mask & bit != 0)
    }

    /// Every target group from `h` that includes enemy `f` and is as large as possible from `h`.
    pub fn groups(&self, f: usize, h: usize) -> Vec<Group> {
        let o = self.offer(h);
        let fbit = 1u64 << f;
        let mut out: Vec<Group> = Vec::new();
        let mut push = |mask: u64, area: &[Hex]| {
            if mask & fbit != 0 && !out.iter().any(|g| g.mask == mask) {
                out.push(Group {
                    mask,
                    area: area.to_vec(),
                });
            }
        };
        if self.patterns.is_empty() {
            for s in subsets(o.singles, self.targets, fbit) {
                push(s, &[]);
            }
        } else {
            let areas = std::iter::once(Group {
                mask: 0,
                area: Vec::new(),
            })
            .chain(o.areas.iter().cloned());
            for g in areas {
                let rest = o.singles & !g.mask;
                let need = if g.mask & fbit != 0 { 0 } else { fbit };
                for s in subsets(rest, self.targets - 1, need) {
                    push(g.mask | s, &g.area);
                }
            }
        }
        let most = out.iter().map(|g| g.mask.count_ones()).max().unwrap_or(0);
        out.retain(|g| g.mask.count_ones() == most);
        out
    }
}

/// Subsets of `pool` of size `min(n, |pool|)` that contain `must` (which must lie in `pool`).
///
/// Only the subsets asked for are built, one combination after the other, so the work grows with
/// their number (which loaders bound, see [`groups_bound`]) and not with every sub-mask of the pool.
fn subsets(pool: u64, n: u32, must: u64) -> Vec<u64> {
    if pool & must != must {
        return Vec::new();
    }
    let size = n.min(pool.count_ones());
    if size == pool.count_ones() {
        return vec![pool];
    }
    if must.count_ones() > size {
        return Vec::new();
    }
    // Choose the free members among the rest of the pool: combinations of k out of its bits,
    // walked as the k-bit numbers below 2^|rest| in increasing order (Gosper's hack).
    let rest: Vec<u64> = (0..64)
        .map(|b| 1u64 << b)
        .filter(|bit| pool & !must & bit != 0)
        .collect();
    let k = (size - must.count_ones()) as usize;
    let mut out = Vec::new();
    if k == 0 {
        out.push(must);
        return out;
    }
    let limit = 1u128 << rest.len();
    let mut c: u128 = (1u128 << k) - 1;
    while c < limit {
        let mut mask = must;
        let mut bits = c;
        while bits != 0 {
            mask |= rest[bits.trailing_zeros() as usize];
            bits &= bits - 1;
        }
        out.push(mask);
        let low = c & c.wrapping_neg();
        let ripple = c + low;
        c = (((ripple ^ c) >> 2) / low) | ripple;
    }
    out.sort_unstable();
    out
}

/// How many target groups an attack on `targets` of `enemies` may have to weigh (the groups of the
/// focus and `targets - 1` others), saturating: loaders refuse files that would ask for too many.
pub fn groups_bound(enemies: usize, targets: u32) -> u64 {
    let others = enemies.saturating_sub(1) as u64;
    let k = u64::from(targets.saturating_sub(1)).min(others);
    // C(others, k), in steps that stay exact: each partial product is itself a binomial.
    let k = k.min(others - k);
    let mut c: u128 = 1;
    for i in 0..k {
        // c < 2^64 and the factor < 2^64 here, so the product fits in 128 bits; the binomials only
        // grow up to the middle, so once one passes u64::MAX the answer does too.
        c = c * u128::from(others - i) / u128::from(i + 1);
        if c > u128::from(u64::MAX) {
            return u64::MAX;
        }
    }
    c as u64
}

/// How many sets of at most `targets` foes a hero's attack may pick among `foes` (the empty set
/// included), saturating.
pub fn target_sets_bound(foes: usize, targets: u32) -> u64 {
    (0..=targets.min(64))
        .map(|k| groups_bound(foes.saturating_add(1), k.saturating_add(1)))
        .fold(0u64, u64::saturating_add)
}

/// At most this many target groups per attack (see [`groups_bound`]).
pub const MAX_GROUPS: u64 = 100_000;

#[cfg(test)]
mod tests {
    use super::subsets;

    #[test]
    fn subsets_keep_the_required_member_and_the_size() {
        assert_eq!(subsets(0b111, 2, 0b001), vec![0b011, 0b101]);
        assert_eq!(subsets(0b110, 2, 0b001), Vec::<u64>::new());
        assert_eq!(subsets(0b011, 5, 0), vec![0b011]);
        assert_eq!(subsets(0b1011, 2, 0), vec![0b0011, 0b1001, 0b1010]);
        assert_eq!(subsets(0b1011, 1, 0b1000), vec![0b1000]);
        assert_eq!(subsets(0b1011, 1, 0b1001), Vec::<u64>::new());
    }

    #[test]
    fn subsets_are_exactly_the_sub_masks_of_their_size_with_the_required_member() {
        // Against the plain walk over every sub-mask, on small pools.
        for pool in [0u64, 0b1, 0b1011_0110, 0b1111_1111, 0b1010_1010_1010] {
            for n in 0..=pool.count_ones() + 1 {
                for must in [0u64, pool & pool.wrapping_neg(), pool & 0b110] {
                    let size = n.min(pool.count_ones());
                    let mut want = Vec::new();
                    let mut sub = pool;
                    loop {
                        if sub.count_ones() == size && sub & must == must {
                            want.push(sub);
                        }
                        if sub == 0 {
                            break;
                        }
                        sub = (sub - 1) & pool;
                    }
                    want.sort_unstable();
                    assert_eq!(subsets(pool, n, must), want, "{pool:b} {n} {must:b}");
                }
            }
        }
    }

    #[test]
    fn many_enemies_and_two_targets_stay_cheap() {
        // 60 enemies: the old walk over 2^60 sub-masks never ended; the pairs with the focus are 59.
        let pool = (1u64 << 60) - 1;
        assert_eq!(subsets(pool, 2, 1).len(), 59);
    }

    #[test]
    fn the_groups_bound_is_the_binomial_and_saturates() {
        use super::groups_bound;
        assert_eq!(groups_bound(5, 3), 6);
        assert_eq!(groups_bound(5, 9), 1);
        assert_eq!(groups_bound(0, 2), 1);
        assert_eq!(groups_bound(64, 33), 916_312_070_471_295_267);
        assert_eq!(groups_bound(64, 1), 1);
        assert_eq!(groups_bound(usize::MAX, 40), u64::MAX);
    }
}
