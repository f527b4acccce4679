//! Cheapest-path costs over a board's dense hex indices, with the step rule supplied by the caller.

use super::{HexMap, NONE};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Cost of a hex no path reaches.
pub(crate) const UNREACHED: u32 = u32::MAX;

/// The cheapest cost from any of `sources` (cost 0) to every board hex, up to `limit` inclusive.
///
/// `enter(from, to)` gives the cost of stepping from hex index `from` into its neighbour `to`, or
/// `None` when that step is not allowed. Hexes costlier than `limit` stay [`UNREACHED`]. The result
/// does not depend on the order sources or neighbours are visited in: it is the unique minimum.
pub(crate) fn path_costs(
    map: &HexMap,
    sources: &[usize],
    limit: u32,
    mut enter: impl FnMut(usize, usize) -> Option<u32>,
) -> Vec<u32> {
    let mut cost = vec![UNREACHED; map.len()];
    let mut heap = BinaryHeap::new();
    for &s in sources {
        if s < cost.len() && cost[s] != 0 {
            cost[s] = 0;
            heap.push(Reverse((0u32, s)));
        }
    }
    while let Some(Reverse((c, i))) = heap.pop() {
        if c > cost[i] {
            continue;
        }
        for d in 0..6 {
            let n = map.neighbour(i, d);
            if n == NONE {
                continue;
            }
            let n = n as usize;
            let Some(step) = enter(i, n) else { continue };
            let next = c.saturating_add(step);
            if next <= limit && next < cost[n] {
                cost[n] = next;
                heap.push(Reverse((next, n)));
            }
        }
    }
    cost
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::hex;

    #[test]
    fn costs_follow_the_cheapest_steps_and_stop_at_the_limit() {
        let hexes: Vec<_> = (0..5).map(|q| hex(q, 0)).collect();
        let map = HexMap::new(&hexes, &[]).unwrap();
        // Hex (2, 0) costs 2 to enter, the others 1.
        let two = map.index_of(hex(2, 0)).unwrap() as usize;
        let costs = path_costs(&map, &[0], 4, |_, to| Some(if to == two { 2 } else { 1 }));
        assert_eq!(costs, vec![0, 1, 3, 4, UNREACHED]);
    }

    #[test]
    fn a_forbidden_step_cuts_the_path() {
        let hexes: Vec<_> = (0..3).map(|q| hex(q, 0)).collect();
        let map = HexMap::new(&hexes, &[]).unwrap();
        let costs = path_costs(&map, &[0], 10, |_, to| (to != 1).then_some(1));
        assert_eq!(costs, vec![0, UNREACHED, UNREACHED]);
    }
}
