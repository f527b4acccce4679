//! The rule modules, one folder each, and what they share: the case formats `foehold solve` answers.
//!
//! Every module folder has the same shape: `mod.rs` (what the module is), its case format in
//! `case.rs`, one file per foe stage (placement, targeting, movement, attack — as the module has
//! them), hero actions, autopilot, log lines and `tests.rs`; `docs/rules-<name>.md` says how it reads
//! the printed rules. Adding a module is adding its folder and one line in [`case::FORMATS`].

pub mod case;
pub mod goals;
