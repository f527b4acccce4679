//! The rule modules the binary plays, one line each, and the dispatch on a file's `rules:` field.

use foehold_core::error::LoadError;
use foehold_core::rules::brimstone::Brimstone;
use foehold_core::rules::gloomhaven::Gloomhaven;
use foehold_core::rules::goals::Goals;
use foehold_core::rules::{DEFAULT_RULES, Present, Rules, rules_field};

/// Work done for whichever rule module a file names: `run` is called with that module's type.
pub trait ForRules {
    /// What the work gives back.
    type Out;
    /// Does the work with the rules `R`.
    fn run<R: Present>(self) -> Self::Out;
}

/// The `rules:` names of the modules the binary plays, in the order error messages list them.
pub const PLAYED: &[&str] = &[Gloomhaven::NAME, Brimstone::NAME, Goals::NAME];

/// Runs `work` with the rule module that the scenario or save `text` names in its top-level
/// `rules:` field ([`DEFAULT_RULES`] when it has none).
pub fn with_rules<W: ForRules>(file: &str, text: &str, work: W) -> Result<W::Out, LoadError> {
    let (name, line, column) = rules_field(text).unwrap_or((DEFAULT_RULES, 1, 1));
    // One line per module the binary plays.
    if name == Gloomhaven::NAME {
        return Ok(work.run::<Gloomhaven>());
    }
    if name == Brimstone::NAME {
        return Ok(work.run::<Brimstone>());
    }
    if name == Goals::NAME {
        return Ok(work.run::<Goals>());
    }
    Err(LoadError::new(
        file,
        line,
        column,
        format!(
            "expected the rules of a module Foehold plays ({}), found `{name}`",
            PLAYED.join(", ")
        ),
    ))
}
