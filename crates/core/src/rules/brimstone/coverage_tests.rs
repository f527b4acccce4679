//! Seeded autopilot games of every shipped Brimstone scenario: each claimed rule fires and the
//! autopilot wins between a fifth and four fifths of its fights.

use super::Brimstone;
use crate::game::coverage::check_shipped;

/// Every shipped Brimstone scenario, by file name.
const SHIPPED: &[(&str, &str)] = &[
    (
        "cinder-adit.ron",
        include_str!("../../../../../scenarios/cinder-adit.ron"),
    ),
    (
        "cinder-adit-ambush.ron",
        include_str!("../../../../../scenarios/cinder-adit-ambush.ron"),
    ),
    (
        "sulphur-drift.ron",
        include_str!("../../../../../scenarios/sulphur-drift.ron"),
    ),
    (
        "brine-cistern.ron",
        include_str!("../../../../../scenarios/brine-cistern.ron"),
    ),
];

/// A hundred games per scenario play in well under a second, even in a debug build; `foehold
/// coverage SCENARIO` prints their table.
#[test]
fn every_shipped_scenario_fires_its_claimed_rules_and_is_neither_easy_nor_hopeless() {
    check_shipped::<Brimstone>(SHIPPED, 100);
}
