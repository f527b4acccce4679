//! The toy's case format: one foe turn on a grid (`ToyTurn(…)`), answered with every end cell the
//! rules allow, as `foehold solve` answers the other modules' cases in its tests.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{Cell, adjacent, on_grid, steps_towards};
use crate::error::{LoadError, parse_ron};
use crate::rules::case::{Answer, CaseFormat};

/// Largest side of a toy grid a case may have.
pub(crate) const MAX_SIDE: i32 = 16;

/// One foe turn: the grid, where the hero and the foe stand, and the answer the file expects.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToyTurn {
    /// Columns of the grid.
    pub width: i32,
    /// Rows of the grid.
    pub height: i32,
    /// The hero's cell.
    pub hero: Cell,
    /// The foe's cell: it is the foe's turn.
    pub foe: Cell,
    /// Every outcome the rules allow, when the file says what it expects.
    #[serde(default)]
    pub expect: Option<Vec<Outcome>>,
}

/// One way the foe's turn can go: where it ends and whether it then strikes the hero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// The cell the foe ends on.
    pub end: Cell,
    /// Whether it strikes the hero from there.
    pub strike: bool,
}

/// Every outcome of the foe's turn, in the order the rules list its steps; more than one is a tie
/// the players break. The game's own turn is the same: the step, then a strike when next to the
/// hero.
pub fn decide(t: &ToyTurn) -> Vec<Outcome> {
    let steps = steps_towards(t.width, t.height, t.hero, t.foe);
    let ends = if steps.is_empty() { vec![t.foe] } else { steps };
    ends.into_iter()
        .map(|end| Outcome {
            end,
            strike: adjacent(end, t.hero),
        })
        .collect()
}

/// Reads and checks a case: a grid of 1 to [`MAX_SIDE`] cells a side with the hero and the foe on
/// two different cells of it.
pub fn load(file: &str, text: &str) -> Result<ToyTurn, LoadError> {
    let t: ToyTurn = parse_ron(file, text)?;
    for (field, side) in [("width", t.width), ("height", t.height)] {
        if !(1..=MAX_SIDE).contains(&side) {
            return Err(LoadError::at_text(
                file,
                text,
                field,
                format!("{field} {side}: expected 1 to {MAX_SIDE} cells"),
            ));
        }
    }
    for (field, cell) in [("hero", t.hero), ("foe", t.foe)] {
        if !on_grid(t.width, t.height, cell) {
            return Err(LoadError::at_text(
                file,
                text,
                field,
                format!("the {field}'s cell {cell:?} is off the grid"),
            ));
        }
    }
    if t.hero == t.foe {
        return Err(LoadError::at_text(
            file,
            text,
            "foe",
            "the hero and the foe need two different cells",
        ));
    }
    Ok(t)
}

/// An outcome in words.
pub(crate) fn outcome_words(o: &Outcome) -> String {
    match o.strike {
        true => format!("ends on {:?} and strikes the hero", o.end),
        false => format!("ends on {:?}", o.end),
    }
}

/// The answer in words: the case, then every outcome.
pub(crate) fn decision_text(t: &ToyTurn, outcomes: &[Outcome]) -> String {
    let mut text = format!(
        "the foe on {:?}, the hero on {:?}, a {} × {} grid — toy rules\n",
        t.foe, t.hero, t.width, t.height
    );
    if outcomes.len() > 1 {
        text += "  its steps are equally good: the players choose\n";
    }
    text += "Outcomes:\n";
    for o in outcomes {
        text += &format!("  - {}\n", outcome_words(o));
    }
    text
}

fn verdict(got: &[Outcome], want: &[Outcome]) -> Result<(), String> {
    let (got, want): (BTreeSet<_>, BTreeSet<_>) = (got.iter().collect(), want.iter().collect());
    let list = |set: Vec<&&Outcome>| {
        set.iter()
            .map(|o| outcome_words(o))
            .collect::<Vec<_>>()
            .join("; ")
    };
    let missing = list(want.difference(&got).collect());
    let extra = list(got.difference(&want).collect());
    match (missing.is_empty(), extra.is_empty()) {
        (true, true) => Ok(()),
        (false, true) => Err(format!("missing: {missing}")),
        (true, false) => Err(format!("not expected: {extra}")),
        (false, false) => Err(format!("missing: {missing} | not expected: {extra}")),
    }
}

/// Parses, checks and answers one `ToyTurn` file.
pub fn solve(file: &str, text: &str) -> Result<Answer, LoadError> {
    let t = load(file, text)?;
    let outcomes = decide(&t);
    let json = json!({
        "outcomes": outcomes
            .iter()
            .map(|o| json!({ "end": [o.end.0, o.end.1], "strike": o.strike }))
            .collect::<Vec<_>>()
    });
    Ok(Answer {
        json,
        text: decision_text(&t, &outcomes),
        verdict: t.expect.as_deref().map(|e| verdict(&outcomes, e)),
    })
}

/// The format's entry in the module kit ([`crate::kit::Module::CASES`]).
pub(crate) const FORMAT: CaseFormat = CaseFormat {
    module: "toy",
    kinds: &["ToyTurn"],
    solve,
    json: |file, text| solve(file, text).map(|a| a.json),
};
