//! Foehold's rules core: boards, pathfinding, line of sight, decks and the rule modules, with no engine.
//!
//! Every foe decision is a value listing all the choices the rules leave equal plus a readable trace of
//! the rule steps that narrowed them. Nothing here depends on hash-map or engine iteration order, and every
//! random outcome is a chance action in a game's log ([`chance`]).

// Every public item is documented, and the rules need no `unsafe`.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod chance;
pub mod decision;
/// This machine's files, for tests only.
#[cfg(any(test, feature = "testing"))]
pub mod disk;
pub mod error;
pub mod game;
pub mod hex;
pub mod kit;
pub mod lab;
pub mod library;
pub mod modifiers;
mod quick_ron;
pub mod rules;
pub mod square;
pub mod storage;
pub mod workshop;

pub use error::LoadError;
