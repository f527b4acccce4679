//! The rule modules the binary plays, one line each: the dispatch on a file's `rules:` field, and
//! what each adds to the 3D table beyond the table every module shares.

use foehold_core::error::LoadError;
use foehold_core::rules::brimstone::Brimstone;
use foehold_core::rules::gloomhaven::Gloomhaven;
use foehold_core::rules::goals::Goals;
use foehold_core::rules::{DEFAULT_RULES, Present, rules_field};

/// A rule module the binary plays.
pub trait Module: Present {
    /// What the module adds to the 3D table: its own windows and clicks.
    #[cfg(feature = "app")]
    const TABLE: crate::app::Extra;
}

impl Module for Gloomhaven {
    #[cfg(feature = "app")]
    const TABLE: crate::app::Extra = crate::app::gloomhaven::EXTRA;
}

impl Module for Brimstone {
    // The shared table plays it whole: moves on lit cells and as buttons.
    #[cfg(feature = "app")]
    const TABLE: crate::app::Extra = crate::app::Extra::NONE;
}

impl Module for Goals {
    #[cfg(feature = "app")]
    const TABLE: crate::app::Extra = crate::app::Extra::NONE;
}

/// Work done for each module, or for whichever one a file names: `visit` is called with that
/// module's type.
pub trait EachModule {
    /// Does the work with the rules `R`.
    fn visit<R: Module>(&mut self);
}

/// Calls `work` once per module the binary plays, in the order error messages list them.
pub fn each_module(work: &mut impl EachModule) {
    // The one list of the modules.
    work.visit::<Gloomhaven>();
    work.visit::<Brimstone>();
    work.visit::<Goals>();
}

/// Work done for whichever rule module a file names: `run` is called with that module's type.
pub trait ForRules {
    /// What the work gives back.
    type Out;
    /// Does the work with the rules `R`.
    fn run<R: Module>(self) -> Self::Out;
}

/// The `rules:` names of the modules the binary plays, in the order of [`each_module`].
pub fn played() -> Vec<&'static str> {
    struct Names(Vec<&'static str>);
    impl EachModule for Names {
        fn visit<R: Module>(&mut self) {
            self.0.push(R::NAME);
        }
    }
    let mut names = Names(Vec::new());
    each_module(&mut names);
    names.0
}

/// Runs `work` with the rule module that the scenario or save `text` names in its top-level
/// `rules:` field ([`DEFAULT_RULES`] when it has none).
pub fn with_rules<W: ForRules>(file: &str, text: &str, work: W) -> Result<W::Out, LoadError> {
    struct Find<'a, W: ForRules> {
        name: &'a str,
        work: Option<W>,
        out: Option<W::Out>,
    }
    impl<W: ForRules> EachModule for Find<'_, W> {
        fn visit<R: Module>(&mut self) {
            if R::NAME == self.name
                && let Some(work) = self.work.take()
            {
                self.out = Some(work.run::<R>());
            }
        }
    }
    let (name, line, column) = rules_field(text).unwrap_or((DEFAULT_RULES, 1, 1));
    let mut find = Find {
        name,
        work: Some(work),
        out: None,
    };
    each_module(&mut find);
    find.out.ok_or_else(|| {
        LoadError::new(
            file,
            line,
            column,
            format!(
                "expected the rules of a module Foehold plays ({}), found `{name}`",
                played().join(", ")
            ),
        )
    })
}
