//! Whom a monster can attack from a hex: range and sight for single targets, area placements, and the
//! target groups (focus included, as many targets as possible) an attack can take.
//!
//! Enemies are bits of a `u64` (at most 64, which the loaders check). The groups a hex offers are
//! kept as families (a fixed part plus any `k` of a pool) rather than one by one, so the
//! monster's choice among hexes and groups is worked out on whole families and only the groups that
//! survive every rule are ever listed.

use super::ability::MonsterAction;
use super::movement::{range_field_into, range_field_within};
use crate::hex::aoe::orientations;
use crate::hex::sight::Sight;
use crate::hex::{Hex, HexMap, Terrain, distance, hex, qr};
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::BTreeSet;

#[cfg(test)]
mod reference;

/// A set of enemies attacked together (bit `k` = enemy `k`) and one area placement producing it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// Bit `k` set: enemy `k` is in the group.
    pub mask: u64,
    /// The area's hexes, placed so as to hit the group.
    pub area: Vec<Hex>,
}

/// No area: the group is single targets only.
const NO_AREA: u32 = u32::MAX;

/// What one hex offers: single targets in range and sight, and area hit sets.
#[derive(Debug, Default, Clone)]
struct HexOffer {
    singles: u64,
    /// Distinct hit sets in the order first met, each with the area (an index into
    /// [`Attack::shapes`]) that first produced it.
    areas: Vec<(u64, u32)>,
    /// Every enemy some area hits.
    area_hits: u64,
}

/// One placement of a ranged area that covers at least one enemy.
#[derive(Debug, Clone)]
struct Placement {
    /// Its place in the order the rules' walk meets placements (and in [`Attack::shapes`]).
    order: u32,
    /// Its hexes that count for range (neither wall nor obstacle): a span of [`Attack::reach`].
    reach: (u32, u32),
    /// One of its hexes and how far the rest lie from it: a cheap bound before the range field.
    centre: Hex,
    radius: u32,
}

/// The ranged area placements that hold the same enemies, in the walk's order.
#[derive(Debug, Clone)]
struct Holding {
    /// Enemies standing in each of them, seen or not.
    holds: u64,
    placements: Vec<Placement>,
}

/// The groups `base ∪ s` for every `k`-subset `s` of `pool` (`pool` and `base` disjoint).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Family {
    base: u64,
    pool: u64,
    k: u32,
}

impl Family {
    fn size(self) -> u32 {
        self.base.count_ones() + self.k
    }

    fn contains(self, m: u64) -> bool {
        m & self.base == self.base
            && m & !(self.base | self.pool) == 0
            && m.count_ones() == self.size()
    }

    /// Its groups, ascending.
    fn members(self) -> Vec<u64> {
        subsets(self.base | self.pool, self.size(), self.base)
    }

    /// Exactly one group.
    fn single(self) -> bool {
        self.k == 0 || self.k == self.pool.count_ones()
    }

    /// Every group of `self` is in `other` (both of one size).
    fn within(self, other: Family) -> bool {
        if self.single() {
            let only = if self.k == 0 {
                self.base
            } else {
                self.base | self.pool
            };
            return other.contains(only);
        }
        // Its groups share exactly `base` and together cover `base ∪ pool`.
        self.base & other.base == other.base
            && (self.base | self.pool) & !(other.base | other.pool) == 0
    }

    /// The groups in both (of one size), itself a family or nothing.
    fn meet(self, other: Family) -> Option<Family> {
        let base = self.base | other.base;
        let allowed = (self.base | self.pool) & (other.base | other.pool);
        let (size, fixed) = (self.size(), base.count_ones());
        if base & !allowed != 0 || fixed > size {
            return None;
        }
        let pool = allowed & !base;
        (size - fixed <= pool.count_ones()).then_some(Family {
            base,
            pool,
            k: size - fixed,
        })
    }

    /// Fewest of its members' enemies in `near`.
    fn fewest(self, near: u64) -> u32 {
        (self.base & near).count_ones() + self.k.saturating_sub((self.pool & !near).count_ones())
    }

    /// Most of its members' enemies in `near`.
    fn most(self, near: u64) -> u32 {
        (self.base & near).count_ones() + self.k.min((self.pool & near).count_ones())
    }

    /// Its members whose enemies rank best (`rank[k]`, 0 best; `levels` ranks in all), and how many
    /// of each rank they hold: the best ranks are filled first, so the groups left share every
    /// member but those of the one rank only partly taken.
    fn best_ranked(self, rank: &[u32], levels: usize) -> (Vec<u32>, Family) {
        let mut counts = vec![0u32; levels];
        let mut bits = self.base;
        while bits != 0 {
            counts[rank[bits.trailing_zeros() as usize] as usize] += 1;
            bits &= bits - 1;
        }
        let (mut base, mut left) = (self.base, self.k);
        for (r, count) in counts.iter_mut().enumerate() {
            if left == 0 {
                break;
            }
            let mut of_rank = 0u64;
            let mut bits = self.pool;
            while bits != 0 {
                let k = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if rank[k] as usize == r {
                    of_rank |= 1 << k;
                }
            }
            let n = of_rank.count_ones();
            if n <= left {
                base |= of_rank;
                left -= n;
                *count += n;
            } else {
                *count += left;
                return (
                    counts,
                    Family {
                        base,
                        pool: of_rank,
                        k: left,
                    },
                );
            }
        }
        (
            counts,
            Family {
                base,
                pool: 0,
                k: 0,
            },
        )
    }

    /// Its members with [`Family::fewest`] enemies in `near`: as many as possible from outside it.
    fn with_fewest(self, near: u64) -> Family {
        let far = self.pool & !near;
        if self.k <= far.count_ones() {
            Family { pool: far, ..self }
        } else {
            Family {
                base: self.base | far,
                pool: self.pool & near,
                k: self.k - far.count_ones(),
            }
        }
    }
}

/// Which hexes and groups the monster attacks with when it can attack its focus this turn.
///
/// The rules decide in order: the most targets, the group reachable with the fewest movement
/// points (unless the edition ranks the other targets by the focus rules alone), the best-ranked
/// other targets (when ranked), the fewest targets at disadvantage, then the fewest movement
/// points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pick {
    /// Targets in the largest group.
    pub most: u32,
    /// Ranking the secondary targets dropped some group.
    pub ranked: bool,
    /// The fewest movement points reaching a group, when some groups needed more and were dropped.
    pub cheapest: Option<u16>,
    /// The fewest targets at disadvantage, when some hex and group had more and was dropped.
    pub disadvantage: Option<u32>,
    /// Movement points to the hexes it attacks from.
    pub cost: u16,
    /// Every hex and group left, by hex then group (an area's placement: the first one found).
    pub choices: Vec<(usize, Group)>,
}

/// The attack of this turn, with caches over the board.
pub struct Attack<'a> {
    map: &'a HexMap,
    range: u16,
    targets: u32,
    melee_area: bool,
    patterns: Vec<Vec<Hex>>,
    enemies: Vec<usize>,
    /// Per enemy, the range from it to every hex (only `d <= range` is ever asked).
    enemy_range: Vec<Cow<'a, [u16]>>,
    sight: Cow<'a, Sight>,
    /// Per enemy and hex: 0 unknown, 1 the hex sees the enemy, 2 not.
    los: RefCell<Vec<Vec<u8>>>,
    /// Ranged area placements holding an enemy, met in the rules' walk (orientation, then enemy,
    /// then the pattern hex on that enemy), grouped by the enemies they hold: from a hex, only the
    /// first one in range of each group can add a hit set.
    holdings: Vec<Holding>,
    /// Area placements as (orientation, anchor): every ranged one met, and for a melee area each
    /// one that gave a hex a new hit set. Their hexes are only listed for the groups chosen.
    shapes: Vec<(usize, Hex)>,
    /// Dense indices of the ranged placements' hexes that count for range, one span each.
    reach: Vec<u32>,
    /// What each hex offers, worked out when first asked ([`Attack::offer_at`]): per hex an index
    /// into `offers`, or [`NOT_YET`].
    offered: Vec<u32>,
    offers: Vec<HexOffer>,
    /// The range field and queue each hex's offer reuses (see [`range_field_into`]).
    field: Vec<u16>,
    queue: Vec<usize>,
}

/// A hex whose offer is not worked out (it offers nothing until it is).
const NOT_YET: u32 = u32::MAX;

/// The offer of a hex not worked out.
static NOTHING: HexOffer = HexOffer {
    singles: 0,
    areas: Vec::new(),
    area_hits: 0,
};

impl<'a> Attack<'a> {
    /// The monster's attack on this board against `enemies` (dense hex indices).
    pub fn new(map: &'a HexMap, action: &MonsterAction, enemies: Vec<usize>) -> Self {
        let range = Self::range_of(action);
        // Only `d <= range` is ever asked of these fields.
        let fields = enemies
            .iter()
            .map(|&e| Cow::Owned(range_field_within(map, e, range)))
            .collect();
        let los = vec![Vec::new(); enemies.len()];
        Self::with(
            map,
            action,
            enemies,
            fields,
            Cow::Owned(Sight::new(map)),
            los,
        )
    }

    /// The attack's range as the fields are asked about it: 1 for melee and for no attack.
    pub fn range_of(action: &MonsterAction) -> u16 {
        if action.targets > 0 && action.range > 0 {
            action.range.min(u16::MAX as u32 - 1) as u16
        } else {
            1
        }
    }

    /// [`Attack::new`] with work done before on this board: per enemy its range field (exact up to
    /// [`Attack::range_of`] at least), the board's sight oracle, and per enemy which hexes are known
    /// to see it (0 unknown, 1 sees, 2 not; empty for nothing known), handed back by
    /// [`Attack::into_sight_rows`].
    pub fn with(
        map: &'a HexMap,
        action: &MonsterAction,
        enemies: Vec<usize>,
        enemy_range: Vec<Cow<'a, [u16]>>,
        sight: Cow<'a, Sight>,
        mut seen: Vec<Vec<u8>>,
    ) -> Self {
        let attacks = action.targets > 0;
        let patterns = if attacks && !action.aoe.is_empty() {
            orientations(&action.aoe)
        } else {
            Vec::new()
        };
        for row in &mut seen {
            row.resize(map.len(), 0);
        }
        let mut attack = Attack {
            map,
            range: Self::range_of(action),
            targets: action.targets.max(1),
            melee_area: action.aoe_melee || action.range == 0,
            patterns,
            enemy_range,
            enemies,
            sight,
            los: RefCell::new(seen),
            holdings: Vec::new(),
            shapes: Vec::new(),
            reach: Vec::new(),
            offered: vec![NOT_YET; map.len()],
            offers: Vec::new(),
            field: Vec::new(),
            queue: Vec::new(),
        };
        if !attack.melee_area {
            attack.place_areas();
        }
        attack
    }

    /// Per enemy, which hexes are now known to see it (see [`Attack::with`]).
    pub fn into_sight_rows(self) -> Vec<Vec<u8>> {
        self.los.into_inner()
    }

    /// Every placement of a ranged area on an enemy, once, with its hexes: they do not depend on
    /// where the attacker stands, only whether they are in range and what it sees.
    fn place_areas(&mut self) {
        let map = self.map;
        let mut standing = vec![0u64; map.len()];
        for (k, &e) in self.enemies.iter().enumerate() {
            standing[e] |= 1 << k;
        }
        // At most one placement per enemy, cell and orientation: reserved at once, as a heavy
        // activation has thousands and growing the lists step by step copied them over and over.
        let most: usize = self.patterns.iter().map(Vec::len).sum::<usize>() * self.enemies.len();
        let covered: usize = self
            .patterns
            .iter()
            .map(|p| p.len() * p.len())
            .sum::<usize>();
        let mut placed: Vec<(u64, Placement)> = Vec::with_capacity(most);
        self.shapes.reserve(most);
        self.reach.reserve(covered * self.enemies.len());
        for (pi, p) in self.patterns.iter().enumerate() {
            // Each anchor once, where the walk first meets it (an area on two enemies is met twice).
            let mut all: Vec<((i32, i32), usize)> =
                Vec::with_capacity(self.enemies.len() * p.len());
            all.extend(
                self.enemies
                    .iter()
                    .flat_map(|&e| p.iter().map(move |c| map.hex_at(e) - *c))
                    .enumerate()
                    .map(|(i, a)| (qr(a), i)),
            );
            // Anchors lie in a small box around the enemies: one flag per cell of it finds the
            // repeats in one pass, where sorting a thousand anchors twice cost more.
            let (lo, hi) = all.iter().fold(
                ((i32::MAX, i32::MAX), (i32::MIN, i32::MIN)),
                |(lo, hi), &((q, r), _)| ((lo.0.min(q), lo.1.min(r)), (hi.0.max(q), hi.1.max(r))),
            );
            let width = usize::try_from(hi.0 - lo.0 + 1).unwrap_or(0);
            let cells = usize::try_from(hi.1 - lo.1 + 1).unwrap_or(0) * width;
            let mut met = vec![false; cells];
            let anchors = all.into_iter().filter(|&((q, r), _)| {
                let at = usize::try_from(r - lo.1).unwrap_or(0) * width
                    + usize::try_from(q - lo.0).unwrap_or(0);
                !std::mem::replace(&mut met[at], true)
            });
            for ((q, r), i) in anchors {
                let anchor = hex(q, r);
                let centre = map.hex_at(self.enemies[i / p.len()]);
                let start = self.reach.len();
                let mut holds = 0u64;
                for o in p {
                    let Some(x) = map.index_of(anchor + *o) else {
                        continue;
                    };
                    holds |= standing[x as usize];
                    let t = map.terrain_at(x as usize);
                    if t != Terrain::Wall && t != Terrain::Obstacle {
                        self.reach.push(u32::from(x));
                    }
                }
                let radius = self.reach[start..]
                    .iter()
                    .map(|&x| distance(centre, map.hex_at(x as usize)))
                    .max()
                    .unwrap_or(0);
                let span = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
                placed.push((
                    holds,
                    Placement {
                        order: span(self.shapes.len()),
                        reach: (span(start), span(self.reach.len())),
                        centre,
                        radius,
                    },
                ));
                self.shapes.push((pi, anchor));
            }
        }
        // `order` is unique, so an unstable sort gives the one order.
        placed.sort_unstable_by_key(|(holds, p)| (*holds, p.order));
        for (holds, p) in placed {
            match self.holdings.last_mut() {
                Some(g) if g.holds == holds => g.placements.push(p),
                _ => self.holdings.push(Holding {
                    holds,
                    placements: vec![p],
                }),
            }
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
        let mut los = self.los.borrow_mut();
        let slot = &mut los[k][h];
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
        for (h, &want) in wanted.iter().enumerate() {
            if want {
                self.offer_at(h);
            }
        }
    }

    /// Works out what hex `h` offers, unless done before: only the hexes a monster's choice looks
    /// at are ever worked out, so the work follows its search rather than the board.
    pub(crate) fn offer_at(&mut self, h: usize) {
        if self.offered[h] == NOT_YET {
            let offer = self.compute_offer(h);
            self.offered[h] = u32::try_from(self.offers.len()).unwrap_or(NOT_YET);
            self.offers.push(offer);
        }
    }

    fn offer(&self, h: usize) -> &HexOffer {
        self.offers
            .get(self.offered[h] as usize)
            .unwrap_or(&NOTHING)
    }

    fn compute_offer(&mut self, h: usize) -> HexOffer {
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
        // Hit sets met so far, sorted, to keep only the first area producing each.
        let mut met: Vec<u64> = Vec::new();
        let mut add = |mask: u64, shape: u32, offer: &mut HexOffer| -> bool {
            if mask == 0 {
                return false;
            }
            match met.binary_search(&mask) {
                Ok(_) => false,
                Err(at) => {
                    met.insert(at, mask);
                    offer.areas.push((mask, shape));
                    offer.area_hits |= mask;
                    true
                }
            }
        };
        let here = self.map.hex_at(h);
        if self.melee_area {
            for pi in 0..self.patterns.len() {
                let cells: Vec<Hex> = self.patterns[pi]
                    .iter()
                    .map(|o| here + *o)
                    .filter(|c| self.map.contains(*c))
                    .collect();
                let mask = self.hits(h, &cells);
                let shape = u32::try_from(self.shapes.len()).unwrap_or(NO_AREA);
                if add(mask, shape, &mut offer) {
                    self.shapes.push((pi, here));
                }
            }
        } else {
            let mut from_here = std::mem::take(&mut self.field);
            range_field_into(self.map, h, self.range, &mut from_here, &mut self.queue);
            let range = u32::from(self.range);
            let in_range = |p: &Placement| {
                distance(here, p.centre) <= range + p.radius
                    && self.reach[p.reach.0 as usize..p.reach.1 as usize]
                        .iter()
                        .any(|&x| {
                            let d = from_here[x as usize];
                            d >= 1 && d <= self.range
                        })
            };
            // The first placement in range of each group, in the walk's order: a hit set's first
            // producer is the earliest of these whose enemies, as seen from here, are that set.
            let mut firsts: Vec<(u32, u64)> = self
                .holdings
                .iter()
                .filter_map(|g| {
                    let p = g.placements.iter().find(|p| in_range(p))?;
                    Some((p.order, g.holds))
                })
                .collect();
            firsts.sort_unstable();
            // What this hex sees, asked of the sight oracle only for enemies some area in range holds.
            let (mut known, mut seen) = (0u64, 0u64);
            for (order, holds) in firsts {
                let mut ask = holds & !known;
                while ask != 0 {
                    let k = ask.trailing_zeros() as usize;
                    ask &= ask - 1;
                    if self.visible(k, h) {
                        seen |= 1 << k;
                    }
                }
                known |= holds;
                add(holds & seen, order, &mut offer);
            }
            self.field = from_here;
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
    pub(crate) fn can_hit(&self, k: usize, h: usize) -> bool {
        let o = self.offer(h);
        let bit = 1u64 << k;
        ((self.patterns.is_empty() || self.targets > 1) && o.singles & bit != 0)
            || o.area_hits & bit != 0
    }

    /// The groups from `h` that include enemy `f`, as families, each with the area it uses, in the
    /// order the groups are first produced: no area, then each area in turn.
    fn families(&self, f: usize, h: usize) -> Vec<(Family, u32)> {
        let o = self.offer(h);
        let fbit = 1u64 << f;
        let mut out = Vec::new();
        if self.patterns.is_empty() {
            // Up to `targets` single targets, the focus among them.
            if o.singles & fbit != 0 {
                let pool = o.singles & !fbit;
                let k = (self.targets - 1).min(pool.count_ones());
                out.push((
                    Family {
                        base: fbit,
                        pool,
                        k,
                    },
                    NO_AREA,
                ));
            }
            return out;
        }
        // The area is one target; up to `targets - 1` single targets besides those it hits.
        for (mask, shape) in std::iter::once((0, NO_AREA)).chain(o.areas.iter().copied()) {
            let rest = o.singles & !mask;
            let take = (self.targets - 1).min(rest.count_ones());
            let family = if mask & fbit != 0 {
                Family {
                    base: mask,
                    pool: rest,
                    k: take,
                }
            } else if rest & fbit != 0 && take >= 1 {
                Family {
                    base: mask | fbit,
                    pool: rest & !fbit,
                    k: take - 1,
                }
            } else {
                continue;
            };
            out.push((family, shape));
        }
        out
    }

    fn group(&self, mask: u64, shape: u32) -> Group {
        let mut area: Vec<Hex> = match self.shapes.get(shape as usize) {
            Some(&(pi, anchor)) => self.patterns[pi]
                .iter()
                .map(|o| anchor + *o)
                .filter(|x| self.map.contains(*x))
                .collect(),
            None => Vec::new(),
        };
        crate::hex::sort_hexes(&mut area);
        Group { mask, area }
    }

    /// Every target group from `h` that includes enemy `f` and is as large as possible from `h`, in
    /// the order they are first produced (no area, then each area in turn; ascending within each).
    pub fn groups(&self, f: usize, h: usize) -> Vec<Group> {
        let fams = self.families(f, h);
        let most = fams.iter().map(|(x, _)| x.size()).max().unwrap_or(0);
        let mut met: BTreeSet<u64> = BTreeSet::new();
        let mut out = Vec::new();
        for (fam, shape) in fams.into_iter().filter(|(x, _)| x.size() == most) {
            for m in fam.members() {
                if met.insert(m) {
                    out.push(self.group(m, shape));
                }
            }
        }
        out
    }

    /// What the monster attacks when it can attack its focus `f` this turn from any of `hexes`
    /// (each reached with `cost(h)` movement points; `near(h)`: the enemies that would be at
    /// disadvantage from `h`; `rank`: each enemy's rank as a secondary target; `cheap_first`: keep
    /// the groups reachable with the fewest movement points before ranking). See [`Pick`].
    pub fn pick(
        &self,
        f: usize,
        hexes: &[usize],
        cost: impl Fn(usize) -> u16,
        near: impl Fn(usize) -> u64,
        rank: Option<&[u32]>,
        cheap_first: bool,
    ) -> Pick {
        // The largest groups of each hex, as families; hexes with smaller ones drop out.
        let mut fams: Vec<(usize, Vec<(Family, u32)>)> =
            hexes.iter().map(|&h| (h, self.families(f, h))).collect();
        let most = fams
            .iter()
            .flat_map(|(_, fs)| fs.iter().map(|(x, _)| x.size()))
            .max()
            .unwrap_or(0);
        for (_, fs) in &mut fams {
            fs.retain(|(x, _)| x.size() == most);
        }
        fams.retain(|(_, fs)| !fs.is_empty());
        let Some(c0) = fams.iter().map(|(h, _)| cost(*h)).min() else {
            return Pick {
                most,
                ranked: false,
                cheapest: None,
                disadvantage: None,
                cost: 0,
                choices: Vec::new(),
            };
        };
        // The groups reachable with the fewest points: those of the cheapest hexes. Elsewhere only
        // these groups stay, which is each family met with each of theirs.
        let mut cheap: Vec<Family> = fams
            .iter()
            .filter(|(h, _)| cost(*h) == c0)
            .flat_map(|(_, fs)| fs.iter().map(|(x, _)| *x))
            .collect();
        cheap.sort_unstable();
        cheap.dedup();
        let mut dropped = false;
        // Per hex: its cost, the enemies at disadvantage from it, and its groups left.
        let mut kept: Vec<(usize, u16, u64, Vec<Family>)> = Vec::with_capacity(fams.len());
        for (h, fs) in &fams {
            let c = cost(*h);
            let mut left: Vec<Family> = Vec::new();
            for (x, _) in fs {
                if !cheap_first || c == c0 || cheap.iter().any(|y| x.within(*y)) {
                    left.push(*x);
                    continue;
                }
                for y in &cheap {
                    left.extend(x.meet(*y));
                }
                if !dropped {
                    dropped = x
                        .members()
                        .into_iter()
                        .any(|m| !cheap.iter().any(|y| y.contains(m)));
                }
            }
            left.sort_unstable();
            left.dedup();
            kept.push((*h, c, near(*h), left));
        }
        // Ranked secondary targets: of each family only its best-ranked groups, and of those only
        // the best of all hexes.
        let ranked = rank.is_some_and(|r| best_ranked(&mut kept, r));
        // Fewest targets at disadvantage over every hex and group left.
        let d0 = kept
            .iter()
            .flat_map(|(_, _, n, fs)| fs.iter().map(|x| x.fewest(*n)))
            .min()
            .unwrap_or(0);
        let worse = kept
            .iter()
            .any(|(_, _, n, fs)| fs.iter().any(|x| x.most(*n) > d0));
        for (_, _, n, fs) in &mut kept {
            *fs = fs
                .iter()
                .filter(|x| x.fewest(*n) == d0)
                .map(|x| x.with_fewest(*n))
                .collect();
        }
        kept.retain(|(_, _, _, fs)| !fs.is_empty());
        let c1 = kept.iter().map(|(_, c, _, _)| *c).min().unwrap_or(0);
        let mut choices = Vec::new();
        for (h, _, _, fs) in kept.iter().filter(|(_, c, _, _)| *c == c1) {
            let mut masks: Vec<u64> = fs.iter().flat_map(|x| x.members()).collect();
            masks.sort_unstable();
            masks.dedup();
            // The hex's own groups in the order produced: the first that holds a group gives its area.
            let own = fams
                .iter()
                .find(|(g, _)| g == h)
                .map_or(&[][..], |(_, fs)| fs.as_slice());
            for m in masks {
                let shape = own
                    .iter()
                    .find(|(x, _)| x.contains(m))
                    .map_or(NO_AREA, |(_, s)| *s);
                choices.push((*h, self.group(m, shape)));
            }
        }
        Pick {
            most,
            ranked,
            cheapest: dropped.then_some(c0),
            disadvantage: worse.then_some(d0),
            cost: c1,
            choices,
        }
    }
}

/// Keeps, of each hex's families, the groups whose secondary targets rank best over every hex
/// (see [`Family::best_ranked`]); whether any group was dropped.
fn best_ranked(kept: &mut Vec<(usize, u16, u64, Vec<Family>)>, rank: &[u32]) -> bool {
    let levels = rank.iter().max().map_or(0, |m| *m as usize + 1);
    let mut dropped = false;
    let mut scored: Vec<Vec<(Vec<u32>, Family)>> = kept
        .iter()
        .map(|(_, _, _, fs)| {
            fs.iter()
                .map(|x| {
                    let (counts, best) = x.best_ranked(rank, levels);
                    dropped |= best != *x;
                    (counts, best)
                })
                .collect()
        })
        .collect();
    let top = scored
        .iter()
        .flat_map(|fs| fs.iter().map(|(c, _)| c.clone()))
        .max()
        .unwrap_or_default();
    for ((_, _, _, fs), mut best) in kept.iter_mut().zip(scored.drain(..)) {
        let before = best.len();
        best.retain(|(c, _)| *c == top);
        dropped |= best.len() < before;
        *fs = best.into_iter().map(|(_, x)| x).collect();
        fs.sort_unstable();
        fs.dedup();
    }
    kept.retain(|(_, _, _, fs)| !fs.is_empty());
    dropped
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
pub(crate) fn groups_bound(enemies: usize, targets: u32) -> u64 {
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
pub(crate) fn target_sets_bound(foes: usize, targets: u32) -> u64 {
    (0..=targets.min(64))
        .map(|k| groups_bound(foes.saturating_add(1), k.saturating_add(1)))
        .fold(0u64, u64::saturating_add)
}

/// At most this many target groups per attack (see [`groups_bound`]).
pub(crate) const MAX_GROUPS: u64 = 100_000;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::{hex, step};
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

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

    /// A random board (holes, wall hexes, obstacles, thin walls), random enemies on it and a random
    /// attack (none, melee or ranged; single targets, a melee area or a ranged area).
    fn random_case(rng: &mut ChaCha8Rng) -> (HexMap, Vec<usize>, MonsterAction) {
        let (w, h) = (rng.random_range(3..11), rng.random_range(3..9));
        let mut floor = Vec::new();
        let mut walls = Vec::new();
        for q in 0..w {
            for row in 0..h {
                let x = hex(q, row - q / 2);
                match rng.random_range(0..100) {
                    0..6 => {}
                    6..14 => walls.push(x),
                    _ => floor.push(x),
                }
            }
        }
        if floor.is_empty() {
            floor.push(hex(0, 0));
            walls.retain(|x| *x != hex(0, 0));
        }
        let mut map = HexMap::new(&floor, &walls).expect("a board");
        for x in &floor {
            if rng.random_range(0..100) < 8 {
                map.set_terrain(*x, Terrain::Obstacle)
                    .expect("on the board");
            }
            if rng.random_range(0..100) < 6 {
                let _ = map.add_thin_wall(*x, step(*x, rng.random_range(0..6)));
            }
        }
        let mut open: Vec<usize> = (0..map.len())
            .filter(|&i| map.terrain_at(i) != Terrain::Wall)
            .collect();
        let count = rng.random_range(1..=open.len().min(13));
        let mut enemies = Vec::new();
        for _ in 0..count {
            enemies.push(open.swap_remove(rng.random_range(0..open.len())));
        }
        let range = if rng.random_range(0..3) == 0 {
            0
        } else {
            rng.random_range(1..7)
        };
        let aoe: Vec<Hex> = if rng.random_range(0..3) == 0 {
            Vec::new()
        } else {
            // A connected random shape; a melee area leaves out the attacker's own hex.
            let mut at = if range == 0 {
                step(hex(0, 0), rng.random_range(0..6))
            } else {
                hex(0, 0)
            };
            let mut shape = vec![at];
            for _ in 0..rng.random_range(0..9) {
                at = step(at, rng.random_range(0..6));
                if !shape.contains(&at) && (range > 0 || at != hex(0, 0)) {
                    shape.push(at);
                }
            }
            shape
        };
        let action = MonsterAction {
            range,
            targets: rng.random_range(0..6),
            aoe_melee: range == 0 && !aoe.is_empty(),
            aoe,
            muddled: false,
            ..MonsterAction::melee(3)
        };
        (map, enemies, action)
    }

    #[test]
    fn the_set_based_choice_is_the_one_by_one_walk() {
        // Compared on random cases: what every hex offers (hit sets and their first areas, in
        // order), whom it can hit, its largest groups in order, and the monster's pick among random
        // hexes with random costs and random enemies at disadvantage.
        // `FOEHOLD_ATTACK_BOARDS` asks for a longer run, `FOEHOLD_ATTACK_SEED` for other boards.
        let number = |name: &str, default: u64| {
            std::env::var(name)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(default)
        };
        let total = number("FOEHOLD_ATTACK_BOARDS", 800);
        let mut rng = ChaCha8Rng::seed_from_u64(number("FOEHOLD_ATTACK_SEED", 2026));
        let (mut boards, mut picks) = (0, 0);
        // How often each rule had something to drop, and how often an area or a tie was left.
        let (mut cheaper, mut fewer, mut areas, mut ties) = (0, 0, 0, 0);
        while boards < total {
            let (map, enemies, action) = random_case(&mut rng);
            if groups_bound(enemies.len(), action.targets) > 2_000 {
                continue;
            }
            boards += 1;
            let mut attack = Attack::new(&map, &action, enemies.clone());
            let wanted: Vec<bool> = (0..map.len())
                .map(|i| map.terrain_at(i) != Terrain::Wall && rng.random_range(0..10) < 8)
                .collect();
            attack.prepare(&wanted);
            let old: Vec<reference::Offer> = (0..map.len())
                .map(|h| {
                    if wanted[h] {
                        reference::offer(&attack, h)
                    } else {
                        reference::Offer::default()
                    }
                })
                .collect();
            for h in 0..map.len() {
                let new = attack.offer(h);
                let areas: Vec<Group> =
                    new.areas.iter().map(|&(m, s)| attack.group(m, s)).collect();
                assert_eq!(
                    (new.singles, &areas),
                    (old[h].singles, &old[h].areas),
                    "board {boards}, hex {h}"
                );
                for k in 0..enemies.len() {
                    assert_eq!(
                        attack.can_hit(k, h),
                        reference::can_hit(&attack, &old[h], k)
                    );
                    if wanted[h] {
                        assert_eq!(
                            attack.groups(k, h),
                            reference::groups(&attack, &old[h], k),
                            "board {boards}, hex {h}, focus {k}"
                        );
                    }
                }
            }
            for f in 0..enemies.len() {
                let from: Vec<usize> = (0..map.len())
                    .filter(|&h| wanted[h] && attack.can_hit(f, h))
                    .collect();
                for _ in 0..3 {
                    let hexes: Vec<usize> = from
                        .iter()
                        .copied()
                        .filter(|_| rng.random_range(0..4) > 0)
                        .collect();
                    let costs: Vec<u16> = (0..map.len()).map(|_| rng.random_range(0..4)).collect();
                    let nears: Vec<u64> = (0..map.len())
                        .map(|_| rng.random::<u64>() & rng.random::<u64>())
                        .collect();
                    let mut new = attack.pick(f, &hexes, |h| costs[h], |h| nears[h], None, true);
                    let mut old =
                        reference::pick(&attack, &old, f, &hexes, |h| costs[h], |h| nears[h]);
                    new.choices.sort_by_key(|(h, g)| (*h, g.mask));
                    old.choices.sort_by_key(|(h, g)| (*h, g.mask));
                    assert_eq!(new, old, "board {boards}, focus {f}, hexes {hexes:?}");
                    picks += 1;
                    cheaper += usize::from(new.cheapest.is_some());
                    fewer += usize::from(new.disadvantage.is_some());
                    areas += usize::from(new.choices.iter().any(|(_, g)| !g.area.is_empty()));
                    ties += usize::from(new.choices.len() > 1);
                }
            }
        }
        eprintln!(
            "{boards} boards, {picks} picks compared ({cheaper} dropped costlier groups, {fewer} \
             more disadvantage, {areas} with an area, {ties} with several choices)"
        );
        assert!(picks >= 10 * total, "{picks} picks compared");
        for (what, n) in [
            ("costlier groups", cheaper),
            ("disadvantage", fewer),
            ("areas", areas),
            ("ties", ties),
        ] {
            assert!(n as u64 >= total / 10, "only {n} picks with {what}");
        }
    }

    #[test]
    fn the_groups_bound_is_the_binomial_and_saturates() {
        assert_eq!(groups_bound(5, 3), 6);
        assert_eq!(groups_bound(5, 9), 1);
        assert_eq!(groups_bound(0, 2), 1);
        assert_eq!(groups_bound(64, 33), 916_312_070_471_295_267);
        assert_eq!(groups_bound(64, 1), 1);
        assert_eq!(groups_bound(usize::MAX, 40), u64::MAX);
    }
}
