//! The position lab's engine: a case position of any rule module, edited one checked step at a time.
//!
//! A position is exactly a case file of `foehold solve` (a position is a test, and a test is a
//! position). Every edit is made on a copy, written out as the case file and read back through the
//! module's own loader, so the lab refuses what a file would refuse, with the same words, and the
//! position in hand never changes on a refused edit. The answer is recomputed after each edit.

pub mod any;
pub mod code;
pub mod names;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::LoadError;
use crate::rules::view::{CellKey, Ground, TableView};

/// Largest number of edits kept to undo; the oldest go first.
pub const MAX_UNDO: usize = 1_000;

/// The figures of the game a moment came from, by the position's cell each stands on now.
///
/// Each is the figure's table id in the game ([`crate::rules::view::FigureInfo::id`]). The lab
/// carries them through every edit, so "play on from here" knows which figure went where.
pub type Tags = BTreeMap<CellKey, u32>;

/// Most figures and cells one [`Arrangement`] may name.
pub const MAX_ARRANGED: usize = 4_096;

/// What "play on from here" carries from the lab into the game a moment came from.
///
/// That is the figures moved or taken off, and the ground changed. The game applies it as one
/// logged decision of the players, so saves replay it and undo takes it back.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arrangement {
    /// Figures moved (table ids in the game), each with the cell it now stands on.
    #[serde(default)]
    pub moves: Vec<(u32, CellKey)>,
    /// Figures taken off the board.
    #[serde(default)]
    pub off: Vec<u32>,
    /// Board cells whose ground changed, with their new ground.
    #[serde(default)]
    pub ground: Vec<(CellKey, Ground)>,
}

impl Arrangement {
    /// Whether it changes nothing.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty() && self.off.is_empty() && self.ground.is_empty()
    }

    /// Checks its sizes and coordinates against their bounds (`bound`: the board's largest
    /// coordinate), as a save's actions are checked before they are applied.
    pub fn check(&self, bound: i32) -> Result<(), String> {
        let n = self.moves.len() + self.off.len() + self.ground.len();
        if n > MAX_ARRANGED {
            return Err(format!(
                "an arrangement of {n} figures and cells: expected at most {MAX_ARRANGED}"
            ));
        }
        let far =
            |c: &CellKey| c.0.unsigned_abs() > bound as u32 || c.1.unsigned_abs() > bound as u32;
        match self
            .moves
            .iter()
            .map(|(_, c)| c)
            .chain(self.ground.iter().map(|(c, _)| c))
            .find(|c| far(c))
        {
            Some(c) => Err(format!(
                "an arrangement names cell ({}, {}): expected coordinates within ±{bound}",
                c.0, c.1
            )),
            None => Ok(()),
        }
    }

    /// The action in a few words, as the history lists it.
    pub fn label(&self) -> String {
        let list = changes(
            self.moves.len(),
            (!self.off.is_empty())
                .then(|| plural(self.off.len(), "figure taken off", "figures taken off")),
            (!self.ground.is_empty())
                .then(|| plural(self.ground.len(), "cell changed", "cells changed")),
        );
        let list = if list.is_empty() {
            "nothing changed".to_string()
        } else {
            list
        };
        format!("arrange the board in the lab ({list})")
    }
}

/// `action` if the game whose `state` this is takes it, tried on a copy, else why not: how each
/// module's [`Lab::arrange`] makes sure its arrangement applies before the table consumes a game.
pub fn tried<R: crate::rules::Rules>(
    state: &R::State,
    action: R::Action,
) -> Result<R::Action, String> {
    let mut copy = state.clone();
    R::apply(&mut copy, action.clone()).map_err(|e| e.to_string())?;
    Ok(action)
}

/// The log line of an arrangement applied to a game: what moved, what went, what changed
/// (`cells`, with `cell` naming one of the module's cells: "hex", "square").
pub fn arranged_line(moved: usize, taken_off: &[String], cells: usize, cell: &str) -> String {
    let list = changes(
        moved,
        (!taken_off.is_empty()).then(|| format!("{} taken off", taken_off.join(", "))),
        (cells > 0).then(|| {
            plural(
                cells,
                &format!("{cell} changed"),
                &format!("{cell}es changed"),
            )
        }),
    );
    format!("The players arrange the board in the lab: {list}")
}

/// The parts of a change to the board in words, those that are there, joined by commas.
fn changes(moved: usize, off: Option<String>, changed: Option<String>) -> String {
    let mut parts = Vec::new();
    if moved > 0 {
        parts.push(plural(moved, "figure moved", "figures moved"));
    }
    parts.extend(off);
    parts.extend(changed);
    parts.join(", ")
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// What a brush does to the cell it is put on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BrushKind {
    /// Sets the cell's ground (floor, wall, terrain), adding the cell to the board if need be.
    Ground,
    /// Puts a figure on the cell (or its stats on the figure there).
    Figure,
    /// Puts or takes a mark lying on the cell (loot, an adventure space).
    Mark,
    /// Toggles an edge between this cell and the next one clicked.
    Edge,
    /// Stamps a whole map piece with this cell as its anchor.
    Stamp,
    /// Takes the cell off the board, with whatever is on it.
    Erase,
}

/// One brush of a module's palette.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Brush {
    /// Stable name, used by [`Lab::paint`] and in tests.
    pub id: &'static str,
    /// What the palette says.
    pub label: &'static str,
    /// What it does.
    pub kind: BrushKind,
}

/// The value of one field of the side panel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A whole number within the field's bounds.
    Number(i64),
    /// A switch.
    Flag(bool),
    /// One of a few words.
    Choice(String),
    /// A name or other free text.
    Text(String),
}

/// One field of the side panel: a number or switch of the position, or of the figure selected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// Stable name, used by [`Lab::set`].
    pub id: String,
    /// What the panel says.
    pub label: String,
    /// Its value now.
    pub value: Value,
    /// The bounds of a [`Value::Number`], as the case format checks them.
    pub bounds: (i64, i64),
    /// The words a [`Value::Choice`] may take.
    pub choices: Vec<String>,
}

impl Field {
    /// A number between `lo` and `hi`.
    pub fn number(id: &str, label: &str, v: i64, (lo, hi): (i64, i64)) -> Field {
        Field {
            id: id.into(),
            label: label.into(),
            value: Value::Number(v),
            bounds: (lo, hi),
            choices: Vec::new(),
        }
    }

    /// A switch.
    pub fn flag(id: &str, label: &str, v: bool) -> Field {
        Field {
            id: id.into(),
            label: label.into(),
            value: Value::Flag(v),
            bounds: (0, 1),
            choices: Vec::new(),
        }
    }

    /// One word among `choices`.
    pub fn choice(id: &str, label: &str, v: &str, choices: &[&str]) -> Field {
        Field {
            id: id.into(),
            label: label.into(),
            value: Value::Choice(v.into()),
            bounds: (0, 0),
            choices: choices.iter().map(|c| (*c).to_string()).collect(),
        }
    }

    /// Free text.
    pub fn text(id: &str, label: &str, v: &str) -> Field {
        Field {
            id: id.into(),
            label: label.into(),
            value: Value::Text(v.into()),
            bounds: (0, 0),
            choices: Vec::new(),
        }
    }
}

/// One outcome the rules allow, as the board draws it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Choice {
    /// The outcome in words.
    pub label: String,
    /// The cell the acting figure starts on.
    pub from: Option<CellKey>,
    /// Where it ends.
    pub end: Option<CellKey>,
    /// The cells it walks through, in order, the end last.
    pub path: Vec<CellKey>,
    /// The cells of the figures it attacks (or places, or targets).
    pub targets: Vec<CellKey>,
    /// The cells an area attack covers.
    pub area: Vec<CellKey>,
    /// The cells of its focus, or the enemies the outcome arises under.
    pub focus: Vec<CellKey>,
}

/// The rules' answer for a position: every outcome they leave equal, and why.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Answer {
    /// One line: what the foe does, or that the players choose among several outcomes.
    pub summary: String,
    /// Every allowed outcome; more than one is a tie the players break.
    pub choices: Vec<Choice>,
    /// The rule steps that decided it, in words.
    pub why: Vec<String>,
    /// The whole answer as `foehold solve` prints it.
    pub text: String,
}

/// A rule module's positions in the lab: the module's [`crate::rules::Rules`], whose game states a
/// position can be opened from ([`Lab::moment`]).
pub trait Lab: crate::rules::Rules {
    /// A position: the module's case file, as data.
    type Position: Clone + PartialEq + std::fmt::Debug + Send + Sync + 'static;
    /// The module's name, as its case format has it ([`crate::kit::Module::CASES`]).
    const MODULE: &'static str;

    /// A small position to start from: a board, the acting foe and one hero.
    fn blank() -> Self::Position;
    /// The position with its board emptied: the same cells and the acting foe (the subject every
    /// case needs), its card or behaviour and the switches, but no other figure, no wall,
    /// terrain or feature, and no expected answer; to set a position up from scratch.
    fn cleared(p: &Self::Position) -> Self::Position;
    /// Reads a case file, checked as `foehold solve` checks it.
    fn read(file: &str, text: &str) -> Result<Self::Position, LoadError>;
    /// The case file of a position, as `foehold solve` reads it.
    fn write(p: &Self::Position) -> String;
    /// The board and figures, to draw; cells around the board that a brush may add come as
    /// [`crate::rules::view::Ground::Outside`].
    fn position_view(p: &Self::Position) -> TableView;
    /// The module's brushes.
    fn brushes() -> Vec<Brush>;
    /// Puts brush `brush` on `cell` (a second cell for an edge). The result is checked afterwards.
    fn paint(
        p: &mut Self::Position,
        brush: &str,
        cell: CellKey,
        other: Option<CellKey>,
    ) -> Result<(), String>;
    /// Moves the figure on `from` to `to`.
    fn drag(p: &mut Self::Position, from: CellKey, to: CellKey) -> Result<(), String>;
    /// The side panel: the position's fields, then those of the figure on `selected`.
    fn fields(p: &Self::Position, selected: Option<CellKey>) -> Vec<Field>;
    /// Sets one field of [`Lab::fields`].
    fn set(
        p: &mut Self::Position,
        selected: Option<CellKey>,
        field: &str,
        value: Value,
    ) -> Result<(), String>;
    /// What the rules do in the position.
    fn answer(p: &Self::Position) -> Answer;
    /// The position of the foe whose turn it is (or comes next) in a game's state, as a case of this
    /// module: "open this moment of the game in the lab". `Err`, with the reason, when the moment has
    /// no foe decision the case format can hold.
    fn moment(state: &<Self as crate::rules::Rules>::State) -> Result<Self::Position, String>;
    /// The position of foe `figure` (its table id in the game's view) deciding as if it acted
    /// now: the plan a player sees by pointing at it. `Err`, with the reason, when it has none
    /// now (it is not a foe the rules play, its card is not revealed, it loses its turn).
    fn foe_moment(
        state: &<Self as crate::rules::Rules>::State,
        figure: u32,
    ) -> Result<Self::Position, String>;
    /// The card or behaviour foe `figure` plays this round, in lines, its name first; empty when
    /// none is in play yet.
    fn foe_card(state: &<Self as crate::rules::Rules>::State, figure: u32) -> Vec<String>;
    /// The action that puts the lab's changes to a moment ([`Bench::arrangement`]) into the game
    /// it came from: "play on from here". `Err`, with the reason, when this game cannot take them
    /// now; the state is never changed here.
    fn arrange(
        state: &<Self as crate::rules::Rules>::State,
        change: &Arrangement,
    ) -> Result<<Self as crate::rules::Rules>::Action, String>;
}

/// The case file of a position: its top-level struct name `kind`, then its fields, one per line,
/// lists on one line each.
pub fn write_case<T: Serialize>(kind: &str, value: &T) -> String {
    let config = ron::ser::PrettyConfig::new()
        .compact_arrays(true)
        .indentor("    ");
    // Plain data always serializes; an empty answer would be refused when read back.
    let body = ron::ser::to_string_pretty(value, config).unwrap_or_default();
    format!("{kind}{body}\n")
}

/// A position on the lab's bench, with its undo and redo and its answer.
#[derive(Debug, Clone)]
pub struct Bench<L: Lab> {
    position: L::Position,
    /// The game's figures in the position, when it was opened from a game's moment.
    tags: Tags,
    undo: Vec<(L::Position, Tags)>,
    redo: Vec<(L::Position, Tags)>,
    answer: Answer,
    /// The moment's position as the game gave it, with its figures, when it came from a game.
    origin: Option<(L::Position, Tags)>,
    /// The names of the game's figures, by table id, when it came from a game: the lab calls
    /// them so rather than by the case format's roles ("Active monster").
    names: BTreeMap<u32, String>,
}

impl<L: Lab> Bench<L> {
    /// A bench on a position already checked.
    pub fn new(position: L::Position) -> Self {
        let answer = L::answer(&position);
        Bench {
            position,
            tags: Tags::new(),
            undo: Vec::new(),
            redo: Vec::new(),
            answer,
            origin: None,
            names: BTreeMap::new(),
        }
    }

    /// A bench on a position not checked yet (one built from a game's state): written out and read
    /// back through the module's loader first, so a position a file could not hold is refused with
    /// the loader's words.
    pub fn checked(position: L::Position) -> Result<Self, String> {
        L::read("the game", &L::write(&position))
            .map(Self::new)
            .map_err(|e| e.message)
    }

    /// A bench on a game's moment: `game` is the game's own picture, whose figures standing on
    /// the position's figures' cells are the ones the lab follows through its edits.
    pub fn of_moment(position: L::Position, game: &TableView) -> Result<Self, String> {
        let mut bench = Self::checked(position)?;
        bench.tags = L::position_view(&bench.position)
            .figures
            .iter()
            .filter_map(|f| {
                let g = game.figures.iter().find(|g| g.cell == f.cell)?;
                Some((f.cell, g.id))
            })
            .collect();
        bench.origin = Some((bench.position.clone(), bench.tags.clone()));
        bench.names = game
            .figures
            .iter()
            .map(|f| (f.id, f.name.clone()))
            .collect();
        bench.answer = bench.answered();
        Ok(bench)
    }

    /// A bench on the position in a case file's text.
    pub fn open(file: &str, text: &str) -> Result<Self, LoadError> {
        L::read(file, text).map(Self::new)
    }

    /// The position.
    pub fn position(&self) -> &L::Position {
        &self.position
    }

    /// The game's figures in the position, by cell (empty unless it came from a game).
    pub fn tags(&self) -> &Tags {
        &self.tags
    }

    /// The rules' answer for it.
    pub fn answer(&self) -> &Answer {
        &self.answer
    }

    /// The board and figures to draw: a figure of the game a moment came from under its name in
    /// the game.
    pub fn view(&self) -> TableView {
        let mut view = L::position_view(&self.position);
        for f in &mut view.figures {
            if let Some(name) = self.tags.get(&f.cell).and_then(|id| self.names.get(id)) {
                f.name = name.clone();
            }
        }
        view
    }

    /// The rules' answer for the position, told in the game's names when it came from a game.
    fn answered(&self) -> Answer {
        let mut answer = L::answer(&self.position);
        if !self.names.is_empty() {
            names::name_answer(&mut answer, &self.view());
        }
        answer
    }

    /// The case file of the position.
    pub fn file(&self) -> String {
        L::write(&self.position)
    }

    /// Makes one edit: on a copy, checked by writing it out and reading it back. A refused edit
    /// leaves the position, its undo and its answer as they were, and says why.
    pub fn edit(
        &mut self,
        change: impl FnOnce(&mut L::Position) -> Result<(), String>,
    ) -> Result<(), String> {
        self.edit_moving(None, change)
    }

    /// [`Bench::edit`] of an edit that moves the figure on `moved.0` to `moved.1`, so the game's
    /// figure there is followed to its new cell.
    pub fn edit_moving(
        &mut self,
        moved: Option<(CellKey, CellKey)>,
        change: impl FnOnce(&mut L::Position) -> Result<(), String>,
    ) -> Result<(), String> {
        let mut next = self.position.clone();
        change(&mut next)?;
        if next == self.position {
            return Ok(());
        }
        let checked = L::read("the lab", &L::write(&next)).map_err(|e| e.message)?;
        self.commit(checked, moved);
        Ok(())
    }

    /// Empties the board ([`Lab::cleared`]), as one edit that undo takes back.
    pub fn clear(&mut self) -> Result<(), String> {
        self.edit(|p| {
            *p = L::cleared(p);
            Ok(())
        })
    }

    /// Replaces the position (one undo step brings the old one back).
    pub fn replace(&mut self, position: L::Position) {
        if position != self.position {
            self.commit(position, None);
        }
    }

    fn commit(&mut self, next: L::Position, moved: Option<(CellKey, CellKey)>) {
        let tags = if self.tags.is_empty() {
            Tags::new()
        } else {
            follow(
                &self.tags,
                &L::position_view(&self.position),
                &L::position_view(&next),
                moved,
            )
        };
        let old = std::mem::replace(&mut self.position, next);
        let old_tags = std::mem::replace(&mut self.tags, tags);
        self.undo.push((old, old_tags));
        if self.undo.len() > MAX_UNDO {
            self.undo.remove(0);
        }
        self.redo.clear();
        self.answer = self.answered();
    }

    /// Takes back the last edit; false when there is none.
    pub fn undo(&mut self) -> bool {
        let Some((back, tags)) = self.undo.pop() else {
            return false;
        };
        let now = (
            std::mem::replace(&mut self.position, back),
            std::mem::replace(&mut self.tags, tags),
        );
        self.redo.push(now);
        self.answer = self.answered();
        true
    }

    /// Makes the last edit taken back again; false when there is none.
    pub fn redo(&mut self) -> bool {
        let Some((again, tags)) = self.redo.pop() else {
            return false;
        };
        let now = (
            std::mem::replace(&mut self.position, again),
            std::mem::replace(&mut self.tags, tags),
        );
        self.undo.push(now);
        self.answer = self.answered();
        true
    }

    /// How many edits can be undone and redone.
    pub fn history(&self) -> (usize, usize) {
        (self.undo.len(), self.redo.len())
    }

    /// What the lab's edits change in the game the moment came from, for "play on from here":
    /// figures moved or taken off and ground changed. `Err` names what the game cannot take (a
    /// figure placed in the lab, a cell added, the foe's card, a number in the side panel), or
    /// says that the position did not come from a game.
    pub fn arrangement(&self) -> Result<Arrangement, String> {
        let Some((first, first_tags)) = &self.origin else {
            return Err(
                "this position was not opened from a game: there is no game to play on".into(),
            );
        };
        let (before, after) = (L::position_view(first), L::position_view(&self.position));
        let board = |v: &TableView| -> BTreeMap<CellKey, Ground> {
            v.cells
                .iter()
                .filter(|c| c.ground != Ground::Outside)
                .map(|c| (c.key, c.ground))
                .collect()
        };
        let (was, is) = (board(&before), board(&after));
        if let Some(c) = is.keys().find(|c| !was.contains_key(c)) {
            return Err(cell_refusal(*c, "was added to the board"));
        }
        if let Some(c) = was.keys().find(|c| !is.contains_key(c)) {
            return Err(cell_refusal(*c, "was taken off the board"));
        }
        if before.thin_walls != after.thin_walls {
            return Err("walls between cells were changed in the lab: the game keeps its own; undo those edits to play on".into());
        }
        if let Some(f) = after
            .figures
            .iter()
            .find(|f| !self.tags.contains_key(&f.cell))
        {
            return Err(format!(
                "{} on ({}, {}) was placed in the lab: the game has no such figure; take it off to play on",
                f.name, f.cell.0, f.cell.1
            ));
        }
        let changed = |a: Vec<Field>, b: Vec<Field>| -> Vec<String> {
            b.iter()
                .filter(|f| !a.iter().any(|g| g.id == f.id && g.value == f.value))
                .map(|f| f.label.clone())
                .collect()
        };
        let mut fields = changed(L::fields(first, None), L::fields(&self.position, None));
        let mut arrangement = Arrangement::default();
        for (&cell, &id) in &self.tags {
            let Some((&was_on, _)) = first_tags.iter().find(|(_, i)| **i == id) else {
                continue;
            };
            fields.extend(changed(
                L::fields(first, Some(was_on)),
                L::fields(&self.position, Some(cell)),
            ));
            if cell != was_on {
                arrangement.moves.push((id, cell));
            }
        }
        fields.dedup();
        if !fields.is_empty() {
            return Err(format!(
                "{} changed in the lab: the game keeps its own; undo those edits to play on",
                fields.join(", ")
            ));
        }
        arrangement.off = first_tags
            .values()
            .filter(|id| !self.tags.values().any(|i| i == *id))
            .copied()
            .collect();
        arrangement.ground = is
            .iter()
            .filter(|(c, g)| was.get(c) != Some(g))
            .map(|(c, g)| (*c, *g))
            .collect();
        Ok(arrangement)
    }
}

impl<L: Lab + crate::rules::Present> Bench<L> {
    /// "Play on from here": the action that puts the lab's edits into the game whose `state` the
    /// moment came from, or `None` when nothing was edited (the game goes on as it was). The
    /// arranged game must pose exactly the position on the bench, so an edit the game cannot hold
    /// (the foe's card, its area) is refused with the reason, never dropped.
    pub fn play_on(
        &self,
        state: &<L as crate::rules::Rules>::State,
    ) -> Result<Option<<L as crate::rules::Rules>::Action>, String> {
        let change = self.arrangement()?;
        let Some((first, _)) = &self.origin else {
            return Ok(None);
        };
        if change.is_empty() && *first == self.position {
            return Ok(None);
        }
        let action = L::arrange(state, &change)?;
        let mut after = state.clone();
        L::apply(&mut after, action.clone())
            .map_err(|e| format!("the game refuses the lab's board: {e}"))?;
        match L::moment(&after) {
            Ok(p) if p == self.position => Ok(Some(action)),
            _ => Err("an edit the game cannot hold (the foe's card or its area, say) was made in the lab: undo it to play on".into()),
        }
    }
}

fn cell_refusal(c: CellKey, what: &str) -> String {
    format!(
        "cell ({}, {}) {what} in the lab: the game keeps its board's cells; undo that edit to play on",
        c.0, c.1
    )
}

/// The game's figures after an edit from `before` to `after`: the figure moved by the edit goes
/// with it, one it lands on is gone, and a figure stays followed while a figure of its side still
/// stands on its cell (a brush that put another side there took it off).
fn follow(
    tags: &Tags,
    before: &TableView,
    after: &TableView,
    moved: Option<(CellKey, CellKey)>,
) -> Tags {
    let side_at =
        |v: &TableView, c: CellKey| v.figures.iter().find(|f| f.cell == c).map(|f| f.side);
    tags.iter()
        .filter_map(|(&c, &id)| {
            let to = match moved {
                Some((from, to)) if from == c => to,
                Some((_, to)) if to == c => return None,
                _ => c,
            };
            let side = side_at(after, to)?;
            (Some(side) == side_at(before, c)).then_some((to, id))
        })
        .collect()
}

/// The `.ron` files of a folder of the repository, in name order, each with its text: the shipped
/// cases the modules' lab tests write out and read back.
#[cfg(test)]
pub(crate) fn case_files(folder: &str) -> Vec<(String, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(folder);
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p.display().to_string(), text)
        })
        .collect()
}

/// Reads a case, writes it out and reads that back: the same position, and `solve` gives the
/// same JSON and verdict for both (the verdict travels with the expectations). Returns the
/// position, the written text and `solve`'s answer for the original.
#[cfg(test)]
pub(crate) fn round_trip<L: Lab>(
    file: &str,
    text: &str,
) -> (L::Position, String, crate::rules::case::Answer) {
    use crate::kit::solve;
    let p = L::read(file, text).unwrap_or_else(|e| panic!("{e}"));
    let written = L::write(&p);
    let again = L::read("written", &written).unwrap_or_else(|e| panic!("{e}\n{written}"));
    assert_eq!(again, p, "{file}");
    let theirs = solve(file, text).unwrap();
    let ours = solve("written", &written).unwrap();
    assert_eq!(ours.json, theirs.json, "{file}");
    assert_eq!(ours.verdict, theirs.verdict, "{file}");
    (p, written, theirs)
}

/// A JSON `[a, b]` cell, as the case formats print them.
#[cfg(test)]
pub(crate) fn json_cell(v: &serde_json::Value) -> Option<CellKey> {
    let a = v.as_array()?;
    Some((
        i32::try_from(a.first()?.as_i64()?).ok()?,
        i32::try_from(a.get(1)?.as_i64()?).ok()?,
    ))
}

/// Plays a game on from its bench's edits ([`Bench::play_on`]) and checks what every module must
/// give: the arranged game poses exactly the bench's position (and passes the module's `check`),
/// its log's last line holds `line`, a save replays it to the same state, one undo takes it back
/// whole, and the game then plays on to its end.
#[cfg(test)]
pub(crate) fn plays_on<L: Lab + crate::rules::Present>(
    g: &mut crate::game::Game<L>,
    bench: &Bench<L>,
    line: &str,
    check: impl FnOnce(&<L as crate::rules::Rules>::State),
) {
    use crate::game::save::Save;
    use crate::rules::{ToMove, state_hash};
    let before = state_hash(&g.state);
    let action = bench.play_on(&g.state).unwrap().expect("an arrangement");
    g.arrange(action).unwrap();
    check(&g.state);
    assert_eq!(&L::moment(&g.state).unwrap(), bench.position());
    assert!(g.is_decision(g.cursor - 1), "the players' decision");
    let lines = g.log_lines();
    assert!(lines.last().unwrap().contains(line), "{lines:?}");
    let after = state_hash(&g.state);
    let text = Save::of(g).to_ron();
    let replayed = Save::<L>::parse("save.ron", &text)
        .unwrap()
        .replay(&crate::game::check::Disk, std::path::Path::new("save.ron"))
        .unwrap();
    assert_eq!(state_hash(&replayed.state), after);
    assert!(g.undo());
    assert_eq!(state_hash(&g.state), before);
    assert!(g.redo());
    for _ in 0..6_000 {
        let Some(a) = g.auto_action() else { break };
        g.apply(a).unwrap();
    }
    assert!(
        matches!(g.to_move(), ToMove::Over { .. }),
        "{:?}",
        g.to_move()
    );
}

/// A seeded game of the shipped scenario `name`, played by the autopilot until `wanted` holds of
/// its state and the position of its moment, and the lab's bench on that moment.
#[cfg(test)]
pub(crate) fn seeded_moment<L: Lab + crate::rules::Present>(
    name: &str,
    seed: u64,
    wanted: impl Fn(&<L as crate::rules::Rules>::State, &L::Position) -> bool,
) -> (crate::game::Game<L>, Bench<L>) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios")
        .join(name);
    let mut g = crate::game::check::seeded_game::<L>(&path, seed).unwrap();
    for _ in 0..4_000 {
        if let Ok(p) = L::moment(&g.state)
            && wanted(&g.state, &p)
        {
            let bench = Bench::of_moment(p, &<L as crate::rules::Present>::view(&g.state)).unwrap();
            return (g, bench);
        }
        let a = g.auto_action().expect("the game goes on");
        g.apply(a).unwrap();
    }
    panic!("{name}: no such moment");
}
