//! The attack's former one-by-one walk (every placement from every hex, every combination of extra
//! targets), kept to check the set-based one against on random boards.

use super::{Attack, Group, Pick, subsets};
use crate::hex::{Hex, Terrain};
use crate::rules::gloomhaven::movement::range_field_within;

/// What one hex offers, as the walk found it.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(super) struct Offer {
    pub singles: u64,
    pub areas: Vec<Group>,
}

/// Single targets and area hit sets from `h`, every placement tried in turn.
pub(super) fn offer(a: &Attack, h: usize) -> Offer {
    let mut offer = Offer::default();
    for k in 0..a.enemies.len() {
        let d = a.enemy_range[k][h];
        if d >= 1 && d <= a.range && a.visible(k, h) {
            offer.singles |= 1 << k;
        }
    }
    if a.patterns.is_empty() {
        return offer;
    }
    let here = a.map.hex_at(h);
    let add = |mask: u64, cells: Vec<Hex>, offer: &mut Offer| {
        if mask != 0 && !offer.areas.iter().any(|g| g.mask == mask) {
            let mut area = cells;
            crate::hex::sort_hexes(&mut area);
            offer.areas.push(Group { mask, area });
        }
    };
    if a.melee_area {
        for p in &a.patterns {
            let cells: Vec<Hex> = p
                .iter()
                .map(|o| here + *o)
                .filter(|c| a.map.contains(*c))
                .collect();
            let mask = a.hits(h, &cells);
            add(mask, cells, &mut offer);
        }
    } else {
        let from_here = range_field_within(a.map, h, a.range);
        for p in &a.patterns {
            for k in 0..a.enemies.len() {
                let target = a.map.hex_at(a.enemies[k]);
                for c in p {
                    let anchor = target - *c;
                    let cells: Vec<Hex> = p
                        .iter()
                        .map(|o| anchor + *o)
                        .filter(|x| a.map.contains(*x))
                        .collect();
                    let in_range = cells.iter().any(|x| {
                        let i = a.map.index_of(*x).map_or(0, |i| i as usize);
                        let t = a.map.terrain_at(i);
                        t != Terrain::Wall
                            && t != Terrain::Obstacle
                            && from_here[i] >= 1
                            && from_here[i] <= a.range
                    });
                    if in_range {
                        let mask = a.hits(h, &cells);
                        add(mask, cells, &mut offer);
                    }
                }
            }
        }
    }
    offer
}

/// Whether enemy `k` can be attacked from a hex offering `o`.
pub(super) fn can_hit(a: &Attack, o: &Offer, k: usize) -> bool {
    let bit = 1u64 << k;
    ((a.patterns.is_empty() || a.targets > 1) && o.singles & bit != 0)
        || o.areas.iter().any(|g| g.mask & bit != 0)
}

/// Every largest group with focus `f` from a hex offering `o`, one combination after another.
pub(super) fn groups(a: &Attack, o: &Offer, f: usize) -> Vec<Group> {
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
    if a.patterns.is_empty() {
        for s in subsets(o.singles, a.targets, fbit) {
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
            for s in subsets(rest, a.targets - 1, need) {
                push(g.mask | s, &g.area);
            }
        }
    }
    let most = out.iter().map(|g| g.mask.count_ones()).max().unwrap_or(0);
    out.retain(|g| g.mask.count_ones() == most);
    out
}

/// The monster's choice among `hexes` and their groups, pair by pair. `offers[h]` is what hex `h`
/// offers.
pub(super) fn pick(
    a: &Attack,
    offers: &[Offer],
    f: usize,
    hexes: &[usize],
    cost: impl Fn(usize) -> u16,
    near: impl Fn(usize) -> u64,
) -> Pick {
    let mut cands: Vec<(usize, Group)> = Vec::new();
    for &h in hexes {
        for g in groups(a, &offers[h], f) {
            cands.push((h, g));
        }
    }
    let most = cands
        .iter()
        .map(|(_, g)| g.mask.count_ones())
        .max()
        .unwrap_or(0);
    cands.retain(|(_, g)| g.mask.count_ones() == most);
    let mut cheapest = None;
    let mut masks: Vec<u64> = cands.iter().map(|(_, g)| g.mask).collect();
    masks.sort_unstable();
    masks.dedup();
    if masks.len() > 1 {
        let gcost = |m: u64| {
            cands
                .iter()
                .filter(|(_, g)| g.mask == m)
                .map(|(h, _)| cost(*h))
                .min()
                .unwrap_or(u16::MAX)
        };
        let min = masks.iter().map(|&m| gcost(m)).min().unwrap_or(0);
        let keep: Vec<u64> = masks.iter().copied().filter(|&m| gcost(m) == min).collect();
        if keep.len() < masks.len() {
            cheapest = Some(min);
        }
        cands.retain(|(_, g)| keep.contains(&g.mask));
    }
    let disadv = |h: usize, g: &Group| (g.mask & near(h)).count_ones();
    let min_dis = cands.iter().map(|(h, g)| disadv(*h, g)).min().unwrap_or(0);
    let disadvantage = cands
        .iter()
        .any(|(h, g)| disadv(*h, g) > min_dis)
        .then_some(min_dis);
    cands.retain(|(h, g)| disadv(*h, g) == min_dis);
    let min_cost = cands.iter().map(|(h, _)| cost(*h)).min().unwrap_or(0);
    cands.retain(|(h, _)| cost(*h) == min_cost);
    Pick {
        ranked: false,
        most,
        cheapest,
        disadvantage,
        cost: min_cost,
        choices: cands,
    }
}
