//! Seeded autopilot games of the shipped Gloomhaven-family scenarios that claim their rules: each
//! claimed rule fires and the autopilot wins between a fifth and four fifths of its games.

use super::Gloomhaven;
use crate::game::coverage::check_shipped;

/// The shipped scenarios that list their `exercises`, by file name.
const SHIPPED: &[(&str, &str)] = &[
    (
        "ferrymans-landing.ron",
        include_str!("../../../../../scenarios/ferrymans-landing.ron"),
    ),
    (
        "drowned-granary.ron",
        include_str!("../../../../../scenarios/drowned-granary.ron"),
    ),
    (
        "smugglers-stair.ron",
        include_str!("../../../../../scenarios/smugglers-stair.ron"),
    ),
    (
        "cracked-bells.ron",
        include_str!("../../../../../scenarios/cracked-bells.ron"),
    ),
    (
        "rat-kings-larder.ron",
        include_str!("../../../../../scenarios/rat-kings-larder.ron"),
    ),
    (
        "tithe-barn.ron",
        include_str!("../../../../../scenarios/tithe-barn.ron"),
    ),
    (
        "sluice-warden.ron",
        include_str!("../../../../../scenarios/sluice-warden.ron"),
    ),
    (
        "lamp-vigil.ron",
        include_str!("../../../../../scenarios/lamp-vigil.ron"),
    ),
];

#[test]
fn every_claiming_scenario_fires_its_rules_and_is_neither_easy_nor_hopeless() {
    check_shipped::<Gloomhaven>(SHIPPED, 100);
}
