//! Foehold's headless side: the command line (solve, odds, play, replay), with no engine in it. The
//! 3D table (`crates/table`) builds on it.

pub mod cli;
