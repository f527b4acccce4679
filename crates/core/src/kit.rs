//! The module kit: what a rule module implements to be played, and the one list of the modules.
//!
//! A module is a folder under `rules/` whose type implements [`Module`]: its rules and how they read
//! at a table ([`Present`]), what its coverage counts ([`Coverage`]), its positions in the lab
//! ([`Lab`]) and its case format ([`Module::CASES`]). [`modules!`](crate::modules!) lists the
//! modules once; every dispatch over them (a file's `rules:` field, a case file's kind, the lab's
//! New position list, the table's own part of each module) is written by expanding it, so a module
//! on the list that lacks any part does not compile.

use crate::LoadError;
use crate::error::offset_to_position;
use crate::lab::Lab;
use crate::lab::any::{LabModule, Opened};
use crate::rules::Present;
use crate::rules::case::{Answer, CaseFormat, top_level_name};
use crate::rules::coverage::Coverage;

/// Everything a rule module implements to be played headless, in the lab and at the table.
pub trait Module: Present + Coverage + Lab {
    /// What a new position of it is called in the lab ("Gloomhaven-family puzzle").
    const POSITION: &'static str;
    /// Its case format: the files `foehold solve` answers and the lab opens.
    const CASES: CaseFormat;
}

/// Writes, where it is called, the dispatch over every module Foehold plays, with `R: $bound`
/// (a trait that has [`Module`] among its supertraits, or one of those).
///
/// It writes `trait EachModule` and `fn each_module` (work done once per module), `trait ForRules`
/// and `fn with_rules` (work done with the module a file's `rules:` names), and `fn played` (their
/// names). The list of modules is here and nowhere else: a module on it that lacks `$bound` does
/// not compile, so "this module cannot go on the table" is a compile error.
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
            work.visit::<$crate::rules::gloomhaven::Gloomhaven>();
            work.visit::<$crate::rules::brimstone::Brimstone>();
            work.visit::<$crate::rules::goals::Goals>();
            // The test-only toy module, a fourth entry in the tests of whichever crate expands
            // the list: proof that a module with every part goes wherever the list goes.
            #[cfg(test)]
            work.visit::<$crate::rules::toy::Toy>();
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
                    self.0.push(<R as $crate::rules::Rules>::NAME);
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
        ) -> Result<W::Out, $crate::error::LoadError> {
            struct Find<'a, W: ForRules> {
                name: &'a str,
                work: Option<W>,
                out: Option<W::Out>,
            }
            impl<W: ForRules> EachModule for Find<'_, W> {
                fn visit<R: $bound>(&mut self) {
                    if <R as $crate::rules::Rules>::NAME == self.name
                        && let Some(work) = self.work.take()
                    {
                        self.out = Some(work.run::<R>());
                    }
                }
            }
            let (name, line, column) =
                $crate::rules::rules_field(text).unwrap_or(($crate::rules::DEFAULT_RULES, 1, 1));
            let mut find = Find {
                name,
                work: Some(work),
                out: None,
            };
            each_module(&mut find);
            find.out.ok_or_else(|| {
                $crate::error::LoadError::new(
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

crate::modules!(Module);

impl Module for crate::rules::gloomhaven::Gloomhaven {
    const POSITION: &'static str = "Gloomhaven-family puzzle";
    const CASES: CaseFormat = crate::rules::gloomhaven::case::FORMAT;
}

impl Module for crate::rules::brimstone::Brimstone {
    const POSITION: &'static str = "Brimstone fight";
    const CASES: CaseFormat = crate::rules::brimstone::case::FORMAT;
}

impl Module for crate::rules::goals::Goals {
    const POSITION: &'static str = "goal-priority turn";
    const CASES: CaseFormat = crate::rules::goals::case::FORMAT;
}

#[cfg(any(test, feature = "testing"))]
impl Module for crate::rules::toy::Toy {
    const POSITION: &'static str = "toy duel";
    const CASES: CaseFormat = crate::rules::toy::case::FORMAT;
}

/// Every case format, one per module, in the list's order.
pub fn formats() -> Vec<CaseFormat> {
    struct Formats(Vec<CaseFormat>);
    impl EachModule for Formats {
        fn visit<R: Module>(&mut self) {
            self.0.push(R::CASES);
        }
    }
    let mut all = Formats(Vec::new());
    each_module(&mut all);
    all.0
}

/// Every module the lab edits positions of, in the list's order.
pub fn lab_modules() -> Vec<LabModule> {
    struct Labs(Vec<LabModule>);
    impl EachModule for Labs {
        fn visit<R: Module>(&mut self) {
            self.0.push(LabModule::of::<R>(R::POSITION));
        }
    }
    let mut all = Labs(Vec::new());
    each_module(&mut all);
    all.0
}

/// Answers a case file of any module's format.
pub fn solve(file: &str, text: &str) -> Result<Answer, LoadError> {
    (format_of(file, text)?.solve)(file, text)
}

/// Answers a case under the rules `ask` names; with nothing asked, [`solve`].
///
/// Only Gloomhaven-family puzzles have editions
/// ([`crate::rules::gloomhaven::case::solve_under`]); asking another format for one is an error.
pub fn solve_asking(
    file: &str,
    text: &str,
    ask: &crate::rules::gloomhaven::case::Ask,
) -> Result<Answer, LoadError> {
    if ask.is_empty() {
        return solve(file, text);
    }
    let format = format_of(file, text)?;
    let gloomhaven = <crate::rules::gloomhaven::Gloomhaven as Module>::CASES;
    if format.module != gloomhaven.module {
        return Err(LoadError::whole(
            file,
            format!(
                "--rules and --set choose among the Gloomhaven-family presets; a {} case has none",
                format.module
            ),
        ));
    }
    crate::rules::gloomhaven::case::solve_under(file, text, ask)
}

/// [`solve`]'s JSON object alone (see [`CaseFormat::json`]).
pub fn solve_json(file: &str, text: &str) -> Result<serde_json::Value, LoadError> {
    (format_of(file, text)?.json)(file, text)
}

/// The format of a case file, by its top-level struct name.
fn format_of(file: &str, text: &str) -> Result<CaseFormat, LoadError> {
    let formats = formats();
    let Some((offset, name)) = top_level_name(text) else {
        return Err(LoadError::whole(
            file,
            format!(
                "expected a case: a top-level struct, one of {}",
                kinds_list(&formats)
            ),
        ));
    };
    match formats.iter().find(|f| f.kinds.contains(&name)) {
        Some(format) => Ok(*format),
        None => {
            let (line, column) = offset_to_position(text, offset);
            Err(LoadError::new(
                file,
                line,
                column,
                format!(
                    "unknown case kind `{name}`: expected one of {}",
                    kinds_list(&formats)
                ),
            ))
        }
    }
}

fn kinds_list(formats: &[CaseFormat]) -> String {
    let kinds: Vec<String> = formats
        .iter()
        .flat_map(|f| f.kinds.iter().map(|k| format!("`{k}`")))
        .collect();
    kinds.join(", ")
}

/// A bench on a case file of any module, chosen by the file's top-level struct.
pub fn open_any(file: &str, text: &str) -> Opened {
    let kind = top_level_name(text).map(|(_, k)| k);
    let formats = formats();
    let module = formats
        .iter()
        .find(|f| kind.is_some_and(|k| f.kinds.contains(&k)))
        .map(|f| f.module);
    let labs = lab_modules();
    match module.and_then(|m| labs.iter().find(|l| l.module == m)) {
        Some(l) => (l.open)(file, text),
        None => Err(LoadError::whole(
            file,
            format!(
                "expected a case the lab opens: a top-level struct, one of {}",
                formats
                    .iter()
                    .filter(|f| labs.iter().any(|l| l.module == f.module))
                    .flat_map(|f| f.kinds.iter().copied())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
    }
}

/// Whether a file's text is a case file (of any module), not a scenario or a save.
pub fn is_case(text: &str) -> bool {
    top_level_name(text).is_some_and(|(_, k)| formats().iter().any(|f| f.kinds.contains(&k)))
}

/// The answer text of every case file in `dir`, by file name, each under a `== name` line: what
/// `foehold solve` tells a player of each case.
#[cfg(any(test, feature = "testing"))]
pub fn case_answers(dir: &std::path::Path) -> Result<String, String> {
    let files =
        crate::game::check::ron_files(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut answers = Vec::with_capacity(files.len());
    for p in &files {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = crate::game::check::read_file(p).map_err(|e| e.to_string())?;
        let answer = solve(&name, &text).map_err(|e| e.to_string())?;
        answers.push(format!("== {name}\n{}", answer.text.trim_end()));
    }
    Ok(answers.join("\n\n"))
}

/// What a data file of any kind says when read: its warnings when it loads, else its first error.
///
/// A warning is what loads and plays but is most likely a slip. The kind is its top-level struct:
/// a case of any module, a library `Monster` or `Class`, else a scenario of the module its
/// `rules:` field names, whose library entries are looked up in `library` (then the built-in one).
pub fn check(
    file: &str,
    text: &str,
    library: &crate::library::Library,
) -> Result<Vec<LoadError>, LoadError> {
    use crate::rules::gloomhaven::scenario::{parse_class, parse_monster};
    match top_level_name(text).map(|(_, k)| k) {
        Some("Monster") => parse_monster(file, text).map(|_| Vec::new()),
        Some("Class") => parse_class(file, text).map(|_| Vec::new()),
        _ if is_case(text) => solve(file, text).map(|_| Vec::new()),
        _ => {
            struct Check<'a> {
                file: &'a str,
                text: &'a str,
                library: &'a crate::library::Library,
            }
            impl ForRules for Check<'_> {
                type Out = Result<Vec<LoadError>, LoadError>;
                fn run<R: Module>(self) -> Self::Out {
                    R::check_scenario(self.file, self.text, self.library).map(|(_, w)| w)
                }
            }
            with_rules(
                file,
                text,
                Check {
                    file,
                    text,
                    library,
                },
            )?
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::view::{CellKey, TableView};

    struct Name;
    impl ForRules for Name {
        type Out = &'static str;
        fn run<R: Module>(self) -> &'static str {
            <R as crate::rules::Rules>::NAME
        }
    }

    #[test]
    fn a_file_names_its_module_and_an_unknown_one_is_refused_with_the_list() {
        // In this crate's tests the list carries the test-only toy fourth.
        assert_eq!(played(), ["Gloomhaven", "Brimstone", "Goals", "Toy"]);
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
        assert!(
            e.message.contains("Gloomhaven, Brimstone, Goals, Toy"),
            "{e}"
        );
    }

    #[test]
    fn every_shipped_scenario_and_library_file_checks_clean_and_a_slip_is_refused() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let library = crate::library::Library::default();
        let mut checked = 0;
        for folder in ["scenarios", "assets/monsters", "assets/classes"] {
            for path in crate::game::check::ron_files(&root.join(folder)).unwrap() {
                let text = crate::disk::read_file(&path).unwrap();
                let file = path.display().to_string();
                let warnings = check(&file, &text, &library).unwrap_or_else(|e| panic!("{e}"));
                assert!(warnings.is_empty(), "{file}: {warnings:?}");
                checked += 1;
            }
        }
        assert!(checked >= 27, "{checked} files");
        // A case file is checked by answering it; a library file by its own parser.
        let e = check("m.ron", "Monster(name: \"x\", hp: 2)", &library).unwrap_err();
        assert_eq!(e.file, "m.ron");
        assert!(e.line >= 1, "{e}");
    }

    #[test]
    fn every_module_has_one_case_format_and_one_lab_entry_in_the_lists_order() {
        let formats: Vec<&str> = formats().iter().map(|f| f.module).collect();
        let labs: Vec<&str> = lab_modules().iter().map(|l| l.module).collect();
        assert_eq!(formats, ["gloomhaven", "brimstone", "goals", "toy"]);
        assert_eq!(labs, formats);
    }

    #[test]
    fn the_json_alone_is_the_whole_answers_json_for_every_case_file() {
        // Every case folder of the repository, good files and bad: the JSON-only path answers, or
        // refuses, exactly as the whole answer does.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests");
        let mut dirs = vec![root.join("puzzles")];
        let mut files = Vec::new();
        for entry in std::fs::read_dir(root.join("conformance")).expect("the conformance folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                dirs.push(path);
            }
        }
        for dir in dirs {
            for entry in std::fs::read_dir(&dir).expect("a case folder") {
                let path = entry.expect("an entry").path();
                if path.extension().is_some_and(|x| x == "ron") {
                    files.push(path);
                }
            }
        }
        files.sort();
        let mut answered = 0;
        for path in &files {
            let name = path.display().to_string();
            let text = std::fs::read_to_string(path).expect("readable");
            match (solve(&name, &text), solve_json(&name, &text)) {
                (Ok(whole), Ok(json)) => {
                    assert_eq!(whole.json, json, "{name}");
                    answered += 1;
                }
                (Err(a), Err(b)) => assert_eq!(a, b, "{name}"),
                (a, b) => panic!("{name}: {:?} against {:?}", a.map(|a| a.json), b),
            }
        }
        assert!(
            answered >= 90,
            "{answered} of {} files answered",
            files.len()
        );
    }

    #[test]
    fn an_unknown_kind_is_a_positioned_error() {
        let err = solve("x.ron", "\n  Mystery(a: 1)").unwrap_err();
        assert_eq!((err.line, err.column), (2, 3));
        assert!(err.message.contains("unknown case kind `Mystery`"), "{err}");
    }

    fn read(path: &str) -> String {
        std::fs::read_to_string(format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    #[test]
    fn clearing_leaves_the_board_and_the_acting_foe_alone_and_undo_brings_all_back() {
        for case in [
            "tests/puzzles/e2-001.ron",
            "tests/conformance/brimstone/bs-012.ron",
            "tests/conformance/goals/gh-001.ron",
        ] {
            let text = read(case);
            let mut bench = open_any(case, &text).unwrap();
            let before = bench.view();
            assert!(before.figures.len() > 1, "{case}");
            bench.clear().unwrap();
            let after = bench.view();
            assert_eq!(after.figures.len(), 1, "{case}: the acting foe alone");
            let board = |v: &TableView| -> std::collections::BTreeSet<CellKey> {
                v.cells
                    .iter()
                    .filter(|c| c.ground != crate::rules::view::Ground::Outside)
                    .map(|c| c.key)
                    .collect()
            };
            assert_eq!(board(&after), board(&before), "{case}: the same board");
            assert!(
                after
                    .cells
                    .iter()
                    .all(|c| c.ground == crate::rules::view::Ground::Floor
                        || c.ground == crate::rules::view::Ground::Outside),
                "{case}: no wall, terrain or feature left"
            );
            assert!(after.thin_walls.is_empty(), "{case}");
            assert!(!bench.answer().summary.is_empty(), "{case}: answered");
            // The cleared position is a case file like any other.
            assert!(open_any(case, &bench.file()).is_ok(), "{case}");
            assert!(bench.undo());
            assert_eq!(bench.view(), before, "{case}");
        }
    }

    #[test]
    fn a_case_opens_on_its_modules_bench_and_a_scenario_does_not() {
        let text = read("tests/puzzles/e2-001.ron");
        assert!(is_case(&text));
        let mut bench = open_any("e2-001.ron", &text).unwrap();
        assert_eq!(bench.module(), "gloomhaven");
        assert_eq!(bench.answer().choices.len(), 3);
        bench.paint("wall", (9, 0), None).unwrap();
        assert_eq!(bench.history(), (1, 0));
        assert!(bench.undo());
        let scenario = read("scenarios/tutorial.ron");
        assert!(!is_case(&scenario));
        let e = open_any("tutorial.ron", &scenario).err().unwrap();
        assert!(e.message.contains("Puzzle"), "{e}");
        for (case, module) in [
            ("tests/conformance/brimstone/bs-012.ron", "brimstone"),
            ("tests/conformance/goals/gh-001.ron", "goals"),
        ] {
            let b = open_any(case, &read(case)).unwrap();
            assert_eq!(b.module(), module);
            assert!(!b.answer().choices.is_empty(), "{case}");
        }
        for m in lab_modules() {
            let b = (m.blank)();
            assert_eq!(b.module(), m.module);
            assert!(!b.answer().choices.is_empty(), "{}", m.label);
        }
    }
    /// The toy, added by the checklist alone (its folder, its line on the list, its `impl
    /// Module`), goes through every entry point of the kit: a scenario naming it, its case files
    /// for `solve` and the lab, the lab's New position list, a moment of its game, the plan of its
    /// foe, "play on from here", and coverage.
    #[test]
    fn the_toy_goes_through_every_part_of_the_kit() {
        use crate::game::Game;
        use crate::lab::any::{moment_bench, plan_of, play_on_bench};
        use crate::rules::toy::{self, Toy};
        use crate::rules::{Rules, TieBreaker};

        assert_eq!(with_rules("yard.ron", toy::SCENARIO, Name).unwrap(), "Toy");
        let case = "ToyTurn(width: 4, height: 3, hero: (0, 0), foe: (3, 2),\n  \
                    expect: Some([(end: (3, 1), strike: false), (end: (2, 2), strike: false)]))";
        assert!(is_case(case));
        let answer = solve("tie.ron", case).unwrap();
        assert_eq!(answer.verdict, Some(Ok(())), "{}", answer.text);
        assert_eq!(solve_json("tie.ron", case).unwrap(), answer.json);
        let e = solve(
            "far.ron",
            "ToyTurn(width: 4, height: 3,\n hero: (9, 0), foe: (3, 2))",
        )
        .unwrap_err();
        assert_eq!((e.line, e.column), (2, 2), "{e}");
        assert!(e.message.contains("off the grid"), "{e}");
        let mut bench = open_any("tie.ron", case).unwrap();
        assert_eq!(bench.module(), "toy");
        assert_eq!(bench.answer().choices.len(), 2);
        bench.drag((0, 0), (3, 0)).unwrap();
        assert_eq!(bench.answer().choices.len(), 1, "{:?}", bench.answer());
        assert!(
            bench.paint("hero", (3, 2), None).is_err(),
            "the foe stands there"
        );
        assert_eq!(bench.history(), (1, 0));
        assert!(
            lab_modules()
                .iter()
                .any(|m| m.module == "toy" && m.label == "toy duel")
        );

        let scenario = toy::scenario().unwrap();
        let mut game =
            Game::<Toy>::new(scenario.clone(), "yard.ron", 3, TieBreaker::Seeded).unwrap();
        let mut bench = moment_bench::<Toy>(&game.state).unwrap();
        assert_eq!(bench.answer().choices.len(), 2, "the first step is a tie");
        assert_eq!(
            plan_of::<Toy>(&game.state, 1).answer.unwrap().choices.len(),
            2
        );
        assert!(
            plan_of::<Toy>(&game.state, 0).answer.is_err(),
            "the hero has no plan"
        );
        bench.drag((3, 2), (1, 0)).unwrap();
        let play_on = play_on_bench::<Toy>(&game.state, bench.as_ref())
            .unwrap()
            .unwrap();
        game.apply(play_on).unwrap();
        assert_eq!(
            game.state.foe,
            (1, 0),
            "the foe stands where the lab put it"
        );

        let report = crate::game::coverage::cover::<Toy>(&scenario, "yard.ron", 0..20).unwrap();
        assert_eq!(report.games(), 20);
        assert!(report.missing.is_empty(), "{:?}", report.missing);
        assert_eq!(
            report.rules.len(),
            <Toy as Coverage>::coverage_rules().len()
        );
        assert!(<Toy as Rules>::NAME == "Toy");
    }
}
