//! What a rule module implements to be edited in the position lab ([`Lab`]) and the words the lab
//! and a module share: brushes, fields, the answer, the arrangement "play on from here" carries.
//!
//! It lives with the rules' other interfaces, below the lab's engine ([`crate::lab`]), which edits
//! positions through it: the modules implement it without importing the engine.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::LoadError;
use crate::rules::view::{CellKey, Ground, TableView};

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

impl Value {
    /// The value as a whole number of 0 or more (a workshop's counts and ratings).
    pub fn unsigned(&self) -> Result<u32, String> {
        match self {
            Value::Number(n) => u32::try_from(*n).map_err(|_| format!("{n}: expected 0 or more")),
            _ => Err("expected a number".into()),
        }
    }

    /// The value as a whole number that may be below 0.
    pub fn signed(&self) -> Result<i32, String> {
        match self {
            Value::Number(n) => i32::try_from(*n).map_err(|_| format!("{n}: too large")),
            _ => Err("expected a number".into()),
        }
    }

    /// The value of a switch.
    pub fn flag(&self) -> Result<bool, String> {
        match self {
            Value::Flag(b) => Ok(*b),
            _ => Err("expected yes or no".into()),
        }
    }

    /// The words of a text field or a choice.
    pub fn text(&self) -> Result<String, String> {
        match self {
            Value::Text(t) | Value::Choice(t) => Ok(t.clone()),
            _ => Err("expected text".into()),
        }
    }
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
    /// The action that puts the lab's changes to a moment ([`crate::lab::Bench::arrangement`]) into the game
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
