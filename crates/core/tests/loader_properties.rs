//! Property tests of the loaders: any numbers load or are refused in place, never with a panic.

use foehold_core::hex::{HexMap, MAX_COORD, hex, within_bounds};
use foehold_core::kit;
use foehold_core::modifiers::OddsQuery;
use foehold_core::rules::gloomhaven::Scenario;
use proptest::prelude::*;
use std::path::PathBuf;

fn sample(path: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path);
    std::fs::read_to_string(p).expect("a sample file")
}

/// A coordinate: mostly near the board, sometimes anywhere an `i32` reaches.
fn coordinate() -> impl Strategy<Value = i32> {
    prop_oneof![-1_200..1_200i32, any::<i32>()]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn a_board_of_any_hexes_is_built_or_refused_without_panicking(
        hexes in prop::collection::vec((coordinate(), coordinate()), 1..8),
    ) {
        let hs: Vec<_> = hexes.iter().map(|&(q, r)| hex(q, r)).collect();
        let built = HexMap::new(&hs, &[]);
        if hs.iter().any(|&h| !within_bounds(h)) {
            prop_assert!(built.is_err());
        }
        if let Ok(m) = built {
            for &h in &hs {
                prop_assert!(m.contains(h));
            }
            prop_assert!(!m.contains(hex(i32::MAX, i32::MIN)));
        }
    }

    #[test]
    fn a_puzzle_with_any_extra_hex_and_any_action_loads_or_is_refused_in_place(
        (q, r) in (coordinate(), coordinate()),
        mv in any::<u32>(), range in any::<u32>(), targets in any::<u32>(),
    ) {
        let text = sample("tests/conformance/frosthaven/fh-001.ron")
            .replacen("hexes: [", &format!("hexes: [({q}, {r}), "), 1)
            .replacen("move:", &format!("move: {mv}, // was"), 1)
            .replacen("range:", &format!("range: {range}, // was"), 1)
            .replacen("targets:", &format!("targets: {targets}, // was"), 1);
        match kit::solve("p.ron", &text) {
            Ok(_) => {
                prop_assert!(q.abs() <= MAX_COORD && r.abs() <= MAX_COORD);
            }
            Err(e) => prop_assert!(e.line > 0 && e.column > 0, "{}", e),
        }
    }

    #[test]
    fn an_odds_query_with_any_numbers_is_answered_or_refused_in_place(
        attack in any::<i64>(), shield in any::<i64>(), pierce in any::<i64>(),
        count in any::<i64>(),
    ) {
        let text = format!(
            "OddsQuery(deck: [\"+1\", ({count}, \"+0\")], attack: {attack}, shield: {shield}, \
             mode: Normal, pierce: {pierce})"
        );
        match OddsQuery::parse("q.ron", &text) {
            Ok(q) => {
                prop_assert!((0..=100).contains(&count));
                prop_assert!(q.odds().is_ok());
            }
            Err(e) => prop_assert!(e.line > 0, "{}", e),
        }
    }

    #[test]
    fn a_scenario_with_any_monster_numbers_loads_or_is_refused_in_place(
        hp in any::<u32>(), mv in any::<u32>(), attack in any::<u32>(), range in any::<u32>(),
    ) {
        let text = sample("scenarios/tutorial.ron");
        let text = text
            .replacen("hp: 12", &format!("hp: {hp}"), 1)
            .replacen("move: 2", &format!("move: {mv}"), 1)
            .replacen("attack: 2", &format!("attack: {attack}"), 1)
            .replacen("range: 0", &format!("range: {range}"), 1);
        if let Err(e) = Scenario::parse("s.ron", &text) {
            prop_assert!(e.line > 0 && e.column > 0, "{}", e);
        }
    }
}
