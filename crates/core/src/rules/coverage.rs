//! What a rule module counts in rule coverage ([`Coverage`]); the games are played and counted by
//! [`crate::game::coverage`], above the modules, which implement this without importing it.

use super::Rules;

/// What a module counts: its rules by name, which of them one applied action fired, and which of
/// them a scenario says its games exercise.
pub trait Coverage: Rules {
    /// Every rule the module counts, in the order a coverage table lists them.
    fn coverage_rules() -> &'static [&'static str];
    /// Adds to `out` each rule of [`Coverage::coverage_rules`] that decided something in one
    /// applied action (`after` is the state it left, `events` what it gave), once per time it did.
    fn fired(
        after: &Self::State,
        action: &Self::Action,
        events: &[Self::Event],
        out: &mut Vec<&'static str>,
    );
    /// The rules the scenario claims its games exercise (its `exercises:` list).
    fn claims(scenario: &Self::Scenario) -> Vec<String>;
}
