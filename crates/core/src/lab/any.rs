//! A bench of any rule module behind one interface, so a table can hold whichever position is open.

use super::{Answer, Bench, Brush, Field, Lab, Value};
use crate::LoadError;
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
pub(crate) type Opened = Result<Box<dyn AnyBench>, LoadError>;

/// A module the lab knows: its name, what the lab calls its positions, and how to start one.
#[derive(Clone, Copy)]
pub struct LabModule {
    /// The module's name ([`Lab::MODULE`]).
    pub module: &'static str,
    /// What a new position of it is called ("Gloomhaven-family puzzle").
    pub label: &'static str,
    /// A bench on the module's blank position.
    pub blank: fn() -> Box<dyn AnyBench>,
    /// A bench on a case file of the module.
    pub open: fn(&str, &str) -> Opened,
}

impl LabModule {
    /// Module `L`'s entry, its new positions called `label`.
    pub fn of<L: Lab + 'static>(label: &'static str) -> LabModule {
        LabModule {
            module: L::MODULE,
            label,
            blank: blank::<L>,
            open: open::<L>,
        }
    }
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
