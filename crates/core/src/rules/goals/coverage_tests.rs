//! Seeded autopilot games of every shipped goal-priority scenario: each claimed rule fires, the
//! autopilot wins a fifth to four fifths of its games, and the median game lasts past round 2.

use super::Goals;
use crate::game::coverage::check_shipped;

/// Every shipped goal-priority scenario, by file name.
const SHIPPED: &[(&str, &str)] = &[
    (
        "dome-crossing.ron",
        include_str!("../../../../../scenarios/dome-crossing.ron"),
    ),
    (
        "lantern-fen.ron",
        include_str!("../../../../../scenarios/lantern-fen.ron"),
    ),
    (
        "eelwater-toll.ron",
        include_str!("../../../../../scenarios/eelwater-toll.ron"),
    ),
];

/// A hundred games per scenario play in well under a second, even in a debug build; `foehold
/// coverage SCENARIO` prints their table.
#[test]
fn every_shipped_scenario_fires_its_claimed_rules_and_is_neither_easy_nor_hopeless() {
    check_shipped::<Goals>(SHIPPED, 100);
}
