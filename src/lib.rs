//! Foehold's headless side: the command line (solve, odds, play, replay) and the one list of the
//! rule modules, with no engine in it. The 3D table (`crates/table`) builds on it.

pub mod cli;
pub mod modules;

/// The rules core, for what [`modules!`] writes in other crates.
#[doc(hidden)]
pub use foehold_core as __core;
