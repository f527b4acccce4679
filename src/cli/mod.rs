//! Headless subcommands of the `foehold` binary, one module each.

pub mod solve;
