//! Headless subcommands of the `foehold` binary, one module each.

pub mod odds;
pub mod play;
pub mod replay;
pub mod solve;
