//! A bench of any rule module behind one interface, so a table can hold whichever position is open.

use super::{Answer, Bench, Brush, Field, Lab, Value};
use crate::LoadError;
use crate::rules::case::{FORMATS, top_level_name};
use crate::rules::view::{CellKey, TableView};

/// A [`Bench`] of some module's position.
pub trait AnyBench: Send + Sync {
    /// The module's name.
    fn module(&self) -> &'static str;
    /// The board and figures to draw.
    fn view(&self) -> TableView;
    /// The module's brushes.
    fn brushes(&self) -> Vec<Brush>;
    /// [`Lab::paint`], as one checked edit.
    fn paint(&mut self, brush: &str, cell: CellKey, other: Option<CellKey>) -> Result<(), String>;
    /// [`Lab::drag`], as one checked edit.
    fn drag(&mut self, from: CellKey, to: CellKey) -> Result<(), String>;
    /// [`Lab::fields`].
    fn fields(&self, selected: Option<CellKey>) -> Vec<Field>;
    /// [`Lab::set`], as one checked edit.
    fn set(&mut self, selected: Option<CellKey>, field: &str, value: Value) -> Result<(), String>;
    /// The answer for the position.
    fn answer(&self) -> &Answer;
    /// The position's case file.
    fn file(&self) -> String;
    /// [`Bench::undo`].
    fn undo(&mut self) -> bool;
    /// [`Bench::redo`].
    fn redo(&mut self) -> bool;
    /// [`Bench::history`].
    fn history(&self) -> (usize, usize);
    /// Empties the board but for the acting foe ([`Lab::cleared`]).
    fn clear(&mut self) -> Result<(), String>;
    /// [`Bench::arrangement`]: what "play on from here" would carry into the game.
    fn arrangement(&self) -> Result<super::Arrangement, String>;
    /// The bench itself, for the game a moment came from, which knows its module.
    fn as_any(&self) -> &dyn std::any::Any;
}

impl<L: Lab + 'static> AnyBench for Bench<L> {
    fn module(&self) -> &'static str {
        L::MODULE
    }
    fn view(&self) -> TableView {
        Bench::view(self)
    }
    fn brushes(&self) -> Vec<Brush> {
        L::brushes()
    }
    fn paint(&mut self, brush: &str, cell: CellKey, other: Option<CellKey>) -> Result<(), String> {
        self.edit(|p| L::paint(p, brush, cell, other))
    }
    fn drag(&mut self, from: CellKey, to: CellKey) -> Result<(), String> {
        self.edit_moving(Some((from, to)), |p| L::drag(p, from, to))
    }
    fn fields(&self, selected: Option<CellKey>) -> Vec<Field> {
        L::fields(self.position(), selected)
    }
    fn set(&mut self, selected: Option<CellKey>, field: &str, value: Value) -> Result<(), String> {
        self.edit(|p| L::set(p, selected, field, value))
    }
    fn answer(&self) -> &Answer {
        Bench::answer(self)
    }
    fn file(&self) -> String {
        Bench::file(self)
    }
    fn undo(&mut self) -> bool {
        Bench::undo(self)
    }
    fn redo(&mut self) -> bool {
        Bench::redo(self)
    }
    fn clear(&mut self) -> Result<(), String> {
        Bench::clear(self)
    }
    fn history(&self) -> (usize, usize) {
        Bench::history(self)
    }
    fn arrangement(&self) -> Result<super::Arrangement, String> {
        Bench::arrangement(self)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// A bench on a case file's text, or why the file is refused.
pub type Opened = Result<Box<dyn AnyBench>, LoadError>;

/// A module the lab knows: its name, what the lab calls its positions, and how to start one.
#[derive(Clone, Copy)]
pub struct LabModule {
    /// The module's name, as [`FORMATS`] has it.
    pub module: &'static str,
    /// What a new position of it is called ("Gloomhaven-family puzzle").
    pub label: &'static str,
    /// A bench on the module's blank position.
    pub blank: fn() -> Box<dyn AnyBench>,
    /// A bench on a case file of the module.
    pub open: fn(&str, &str) -> Opened,
}

fn blank<L: Lab + 'static>() -> Box<dyn AnyBench> {
    Box::new(Bench::<L>::new(L::blank()))
}

fn open<L: Lab + 'static>(file: &str, text: &str) -> Opened {
    Bench::<L>::open(file, text).map(|b| Box::new(b) as Box<dyn AnyBench>)
}

/// A bench on the moment of a game's state ([`Lab::moment`]): the position of the foe whose turn it
/// is or comes next, checked as a file would be. `Err` says why the moment has no such position.
pub fn moment_bench<L: Lab + crate::rules::Present + 'static>(
    state: &<L as crate::rules::Rules>::State,
) -> Result<Box<dyn AnyBench>, String> {
    let position = L::moment(state)?;
    Bench::<L>::of_moment(position, &<L as crate::rules::Present>::view(state))
        .map(|b| Box::new(b) as Box<dyn AnyBench>)
}

/// What a foe of a game would do if it acted now: the table draws it when a player points at it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The foe's card or behaviour in play this round, in lines, its name first ([`Lab::foe_card`]).
    pub card: Vec<String>,
    /// What it would do now, told in the game's names ([`super::names::name_answer`]); `Err` says
    /// why that cannot be said now.
    pub answer: Result<Answer, String>,
}

/// The plan of foe `figure` (a table id) in a game's `state` ([`Lab::foe_moment`]), answered by the
/// same solver as the lab's, and read in the game's names.
pub fn plan_of<L: Lab + crate::rules::Present>(
    state: &<L as crate::rules::Rules>::State,
    figure: u32,
) -> Plan {
    let answer = L::foe_moment(state, figure).map(|position| {
        let mut a = L::answer(&position);
        super::names::name_answer(&mut a, &<L as crate::rules::Present>::view(state));
        a
    });
    Plan {
        card: L::foe_card(state, figure),
        answer,
    }
}

/// "Play on from here" for a bench of module `L` ([`Bench::play_on`]): the action that puts its
/// edits into the game whose `state` the moment came from, `None` when nothing was edited.
pub fn play_on_bench<L: Lab + crate::rules::Present + 'static>(
    state: &<L as crate::rules::Rules>::State,
    bench: &dyn AnyBench,
) -> Result<Option<<L as crate::rules::Rules>::Action>, String> {
    bench
        .as_any()
        .downcast_ref::<Bench<L>>()
        .ok_or_else(|| {
            format!(
                "the lab holds a {} position, not this game's",
                bench.module()
            )
        })?
        .play_on(state)
}

/// Every module the lab edits positions of.
pub const LAB_MODULES: &[LabModule] = &[
    LabModule {
        module: <crate::rules::gloomhaven::Gloomhaven as Lab>::MODULE,
        label: "Gloomhaven-family puzzle",
        blank: blank::<crate::rules::gloomhaven::Gloomhaven>,
        open: open::<crate::rules::gloomhaven::Gloomhaven>,
    },
    LabModule {
        module: <crate::rules::brimstone::Brimstone as Lab>::MODULE,
        label: "Brimstone fight",
        blank: blank::<crate::rules::brimstone::Brimstone>,
        open: open::<crate::rules::brimstone::Brimstone>,
    },
    LabModule {
        module: <crate::rules::goals::Goals as Lab>::MODULE,
        label: "goal-priority turn",
        blank: blank::<crate::rules::goals::Goals>,
        open: open::<crate::rules::goals::Goals>,
    },
];

/// A bench on a case file of any module the lab knows, chosen by the file's top-level struct.
pub fn open_any(file: &str, text: &str) -> Opened {
    let kind = top_level_name(text).map(|(_, k)| k);
    let module = FORMATS
        .iter()
        .find(|f| kind.is_some_and(|k| f.kinds.contains(&k)))
        .map(|f| f.module);
    match module.and_then(|m| LAB_MODULES.iter().find(|l| l.module == m)) {
        Some(l) => (l.open)(file, text),
        None => Err(LoadError::whole(
            file,
            format!(
                "expected a case the lab opens: a top-level struct, one of {}",
                FORMATS
                    .iter()
                    .filter(|f| LAB_MODULES.iter().any(|l| l.module == f.module))
                    .flat_map(|f| f.kinds.iter().copied())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
    }
}

/// Whether a file's text is a case file (of any module), not a scenario or a save.
pub fn is_case(text: &str) -> bool {
    top_level_name(text).is_some_and(|(_, k)| FORMATS.iter().any(|f| f.kinds.contains(&k)))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(LAB_MODULES.len(), FORMATS.len());
        for m in LAB_MODULES {
            let b = (m.blank)();
            assert_eq!(b.module(), m.module);
            assert!(!b.answer().choices.is_empty(), "{}", m.label);
        }
    }
}
