//! Unit tests of the goal-priority rules, beyond the public cases.
