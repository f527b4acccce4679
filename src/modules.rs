//! The rule modules Foehold plays, listed once.
//!
//! [`modules!`](crate::modules!) writes the dispatch on a file's `rules:` field for whatever a
//! caller needs of each module: the headless commands need
//! [`Present`](foehold_core::rules::Present); the 3D table, its own windows too.

/// Writes, where it is called, the dispatch over every module Foehold plays with `R: $bound`.
///
/// It writes `trait EachModule` and `fn each_module` (work done once per module), `trait ForRules` and
/// `fn with_rules` (work done with the module a file's `rules:` names), and `fn played` (their
/// names).
///
/// The list of modules is here and nowhere else; a module that lacks `$bound` does not compile, so
/// "this module cannot go on the table" is a compile error.
#[macro_export]
macro_rules! modules {
    ($bound:path) => {
        /// Work done for each module: `visit` is called with that module's type.
        pub trait EachModule {
            /// Does the work with the rules `R`.
            fn visit<R: $bound>(&mut self);
        }

        /// Calls `work` once per module, in the order error messages list them.
        pub fn each_module(work: &mut impl EachModule) {
            work.visit::<$crate::__core::rules::gloomhaven::Gloomhaven>();
            work.visit::<$crate::__core::rules::brimstone::Brimstone>();
            work.visit::<$crate::__core::rules::goals::Goals>();
        }

        /// Work done for whichever rule module a file names: `run` is called with that module's
        /// type.
        pub trait ForRules {
            /// What the work gives back.
            type Out;
            /// Does the work with the rules `R`.
            fn run<R: $bound>(self) -> Self::Out;
        }

        /// The `rules:` names of the modules, in the order of [`each_module`].
        pub fn played() -> Vec<&'static str> {
            struct Names(Vec<&'static str>);
            impl EachModule for Names {
                fn visit<R: $bound>(&mut self) {
                    self.0.push(<R as $crate::__core::rules::Rules>::NAME);
                }
            }
            let mut names = Names(Vec::new());
            each_module(&mut names);
            names.0
        }

        /// Runs `work` with the rule module that the scenario or save `text` names in its
        /// top-level `rules:` field (the default rules when it has none).
        pub fn with_rules<W: ForRules>(
            file: &str,
            text: &str,
            work: W,
        ) -> Result<W::Out, $crate::__core::error::LoadError> {
            struct Find<'a, W: ForRules> {
                name: &'a str,
                work: Option<W>,
                out: Option<W::Out>,
            }
            impl<W: ForRules> EachModule for Find<'_, W> {
                fn visit<R: $bound>(&mut self) {
                    if <R as $crate::__core::rules::Rules>::NAME == self.name
                        && let Some(work) = self.work.take()
                    {
                        self.out = Some(work.run::<R>());
                    }
                }
            }
            let (name, line, column) = $crate::__core::rules::rules_field(text).unwrap_or((
                $crate::__core::rules::DEFAULT_RULES,
                1,
                1,
            ));
            let mut find = Find {
                name,
                work: Some(work),
                out: None,
            };
            each_module(&mut find);
            find.out.ok_or_else(|| {
                $crate::__core::error::LoadError::new(
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
    };
}

/// The headless commands' view of the modules: what [`Present`](foehold_core::rules::Present) gives.
pub mod present {
    use foehold_core::rules::Present;

    crate::modules!(Present);
}

/// The coverage command's view of the modules: what
/// [`Coverage`](foehold_core::game::coverage::Coverage) gives.
pub mod covered {
    use foehold_core::game::coverage::Coverage;

    crate::modules!(Coverage);
}

#[cfg(test)]
mod tests {
    use super::present::{ForRules, played, with_rules};
    use foehold_core::rules::Present;

    struct Name;
    impl ForRules for Name {
        type Out = &'static str;
        fn run<R: Present>(self) -> &'static str {
            R::NAME
        }
    }

    #[test]
    fn a_file_names_its_module_and_an_unknown_one_is_refused_with_the_list() {
        assert_eq!(played(), ["Gloomhaven", "Brimstone", "Goals"]);
        assert_eq!(
            with_rules("a.ron", "(rules: Goals)", Name).unwrap(),
            "Goals"
        );
        assert_eq!(
            with_rules("a.ron", "(name: \"x\")", Name).unwrap(),
            "Gloomhaven"
        );
        let e = with_rules("a.ron", "(\n  rules: Chess,\n)", Name).unwrap_err();
        assert_eq!((e.line, e.column), (2, 10), "{e}");
        assert!(e.message.contains("Gloomhaven, Brimstone, Goals"), "{e}");
    }
}
