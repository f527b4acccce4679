//! Names where a player reads: an answer's cells told by the figures standing on or around them.
//!
//! The rules answer in coordinates, which the case files and `foehold solve` keep. On the table a
//! player reads "ends on the hex next to Mara, attacks Mara" instead; the coordinate stays only
//! where two outcomes would otherwise read alike.

use std::collections::BTreeMap;

use super::lab::Answer;
use crate::rules::view::{CellKey, GridKind, TableView};

/// The cells next to `c` on a grid of this kind (diagonals count on squares).
pub fn neighbours(grid: GridKind, c: CellKey) -> Vec<CellKey> {
    let steps: &[(i32, i32)] = match grid {
        GridKind::Hex => &[(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)],
        GridKind::Square => &[
            (1, 0),
            (1, 1),
            (0, 1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
            (0, -1),
            (1, -1),
        ],
    };
    steps.iter().map(|(dq, dr)| (c.0 + dq, c.1 + dr)).collect()
}

/// A cell as a player reads it: the living figure standing there, else the place the scenario
/// names, else "the hex next to Mara and Pell" (the figures around it, in the view's order), else
/// "hex (4, 0)".
pub fn place_words(view: &TableView, cell: CellKey) -> String {
    if let Some(f) = view.figures.iter().find(|f| f.cell == cell && f.hp > 0) {
        return f.name.clone();
    }
    let kind = kind(view.grid);
    let place = view
        .cells
        .iter()
        .find(|c| c.key == cell)
        .and_then(|c| c.place.clone());
    let around = neighbours(view.grid, cell);
    let next: Vec<&str> = view
        .figures
        .iter()
        .filter(|f| f.hp > 0 && around.contains(&f.cell))
        .map(|f| f.name.as_str())
        .collect();
    match (place, next.as_slice()) {
        (Some(p), []) => p,
        (Some(p), names) => format!("{p}, next to {}", list(names)),
        (None, []) => format!("{kind} ({}, {})", cell.0, cell.1),
        (None, names) => format!("the {kind} next to {}", list(names)),
    }
}

/// What one cell of the grid is called.
fn kind(grid: GridKind) -> &'static str {
    match grid {
        GridKind::Hex => "hex",
        GridKind::Square => "square",
    }
}

/// The words of several cells a player tells apart (a tie's ends): [`place_words`] each, with
/// the coordinate after the words of cells that would read alike.
pub fn places(view: &TableView, cells: &[CellKey]) -> Vec<String> {
    let words: Vec<String> = cells.iter().map(|&c| place_words(view, c)).collect();
    told_apart(view.grid, words, cells.iter().copied())
}

/// `words` as they are, but each that reads like another followed by its cell's coordinate.
fn told_apart(
    grid: GridKind,
    words: Vec<String>,
    cells: impl Iterator<Item = CellKey>,
) -> Vec<String> {
    words
        .iter()
        .zip(cells)
        .map(|(w, c)| {
            if words.iter().filter(|x| *x == w).count() > 1 {
                format!("{w} · {} ({}, {})", kind(grid), c.0, c.1)
            } else {
                w.clone()
            }
        })
        .collect()
}

/// `text` with every coordinate in it read as [`place_words`].
pub fn in_words(text: &str, view: &TableView) -> String {
    let words: BTreeMap<CellKey, String> = coordinates(text)
        .into_iter()
        .map(|(_, c)| (c, place_words(view, c)))
        .collect();
    replaced(text, &words)
}

/// The words of a tie's outcomes, each a text and the cell it ends on.
///
/// Every coordinate reads as [`place_words`], but an end a figure stands on (the foe staying put)
/// as "where Rat stands"; outcomes that would read alike keep their end's coordinate after the
/// words.
pub(crate) fn outcomes_in_words(view: &TableView, outcomes: &[(String, CellKey)]) -> Vec<String> {
    let words: Vec<String> = outcomes
        .iter()
        .map(|(text, end)| {
            let named: BTreeMap<CellKey, String> = coordinates(text)
                .into_iter()
                .map(|(_, c)| {
                    let standing = view.figures.iter().find(|f| f.cell == c && f.hp > 0);
                    let w = match standing {
                        Some(f) if c == *end => format!("where {} stands", f.name),
                        _ => place_words(view, c),
                    };
                    (c, w)
                })
                .collect();
            replaced(text, &named)
        })
        .collect();
    told_apart(view.grid, words, outcomes.iter().map(|(_, end)| *end))
}

/// "A", "A and B", "A, B and C".
fn list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Every "(q, r)" in `text`, with its byte range and the cell it names.
fn coordinates(text: &str) -> Vec<(std::ops::Range<usize>, CellKey)> {
    let mut found = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'('
            && let Some(close) = text[i..].find(')')
            && let Some((q, r)) = text[i + 1..i + close].split_once(", ")
            && let (Ok(q), Ok(r)) = (q.parse::<i32>(), r.parse::<i32>())
        {
            found.push((i..i + close + 1, (q, r)));
            i += close + 1;
        } else {
            i += 1;
        }
    }
    found
}

/// `text` with each coordinate that `words` names replaced by its words.
fn replaced(text: &str, words: &BTreeMap<CellKey, String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for (range, cell) in coordinates(text) {
        if let Some(w) = words.get(&cell) {
            out.push_str(&text[from..range.start]);
            out.push_str(w);
            from = range.end;
        }
    }
    out.push_str(&text[from..]);
    out
}

/// The answer with its coordinates told in `view`'s names.
///
/// Every cell of its outcomes' lines and of its summary reads by [`place_words`]; in the steps of
/// its reasons, the cells figures stand on. Where two outcomes would read alike, each keeps its
/// end's coordinate after the words.
pub fn name_answer(answer: &mut Answer, view: &TableView) {
    let mut words: BTreeMap<CellKey, String> = BTreeMap::new();
    for c in &answer.choices {
        for &cell in c
            .end
            .iter()
            .chain(c.from.iter())
            .chain(&c.targets)
            .chain(&c.focus)
        {
            words.entry(cell).or_insert_with(|| place_words(view, cell));
        }
    }
    let read: Vec<String> = answer
        .choices
        .iter()
        .map(|c| replaced(&c.label, &words))
        .collect();
    let mut labels = read.clone();
    for (i, label) in labels.iter_mut().enumerate() {
        let alike = (0..read.len()).any(|j| j != i && read[j] == read[i]);
        if alike && let Some(e) = answer.choices[i].end {
            *label = format!("{label} · {} ({}, {})", kind(view.grid), e.0, e.1);
        }
    }
    // A label changed for telling outcomes apart is already in `labels`; the summary of one
    // outcome repeats it, so it takes the same words.
    for (c, l) in answer.choices.iter_mut().zip(labels) {
        c.label = l;
    }
    answer.summary = replaced(&answer.summary, &words);
    // "The monster at (5, 2)" of a case reads as the acting figure's name in a game.
    let acting = answer
        .choices
        .first()
        .and_then(|c| c.from)
        .and_then(|c| view.figures.iter().find(|f| f.cell == c && f.hp > 0));
    let on_figures: BTreeMap<CellKey, String> = view
        .figures
        .iter()
        .filter(|f| f.hp > 0)
        .map(|f| (f.cell, f.name.clone()))
        .collect();
    // A case says "The monster" of the figure that acts; a game knows its name.
    if let Some(f) = acting
        && let Some(rest) = answer.summary.strip_prefix("The monster ")
    {
        answer.summary = format!("{} {rest}", f.name);
    }
    for line in &mut answer.why {
        if let Some(f) = acting {
            let at = format!("The monster at ({}, {})", f.cell.0, f.cell.1);
            *line = line.replace(&at, &f.name);
        }
        *line = replaced(line, &on_figures);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::lab::Choice;
    use crate::rules::view::{CellInfo, FigureInfo, Ground, Side};

    fn figure(id: u32, name: &str, cell: CellKey) -> FigureInfo {
        FigureInfo {
            id,
            name: name.into(),
            side: Side::Hero,
            elite: false,
            hp: 5,
            max_hp: 5,
            conditions: Vec::new(),
            cell,
            owner: None,
            tint: 0,
            gear: Default::default(),
            rooted: false,
            card: Vec::new(),
        }
    }

    fn board() -> TableView {
        let cells = (0..6)
            .flat_map(|q| (0..3).map(move |r| (q, r)))
            .map(|key| CellInfo {
                key,
                ground: Ground::Floor,
                door: false,
                place: (key == (5, 2)).then(|| "the Moth Archive".to_string()),
            })
            .collect();
        TableView {
            cells,
            figures: vec![
                figure(0, "Mara", (2, 1)),
                figure(1, "Rat", (0, 0)),
                figure(2, "Pell", (1, 2)),
            ],
            ..TableView::default()
        }
    }

    #[test]
    fn a_cell_reads_as_its_figure_its_place_or_its_neighbours() {
        let v = board();
        assert_eq!(place_words(&v, (2, 1)), "Mara");
        assert_eq!(place_words(&v, (3, 1)), "the hex next to Mara");
        assert_eq!(place_words(&v, (1, 0)), "the hex next to Rat");
        assert_eq!(place_words(&v, (1, 1)), "the hex next to Mara and Pell");
        assert_eq!(place_words(&v, (5, 2)), "the Moth Archive");
        assert_eq!(place_words(&v, (4, 2)), "hex (4, 2)");
    }

    #[test]
    fn an_answer_reads_in_names_and_alike_outcomes_keep_their_coordinates() {
        let v = board();
        let choice = |end: CellKey| Choice {
            label: format!("ends on ({}, {}), attacks (2, 1)", end.0, end.1),
            from: Some((0, 0)),
            end: Some(end),
            targets: vec![(2, 1)],
            ..Choice::default()
        };
        let mut one = Answer {
            summary: "The monster ends on (3, 1), attacks (2, 1).".into(),
            choices: vec![choice((3, 1))],
            why: vec![
                "The monster at (0, 0) walks up to 3.".into(),
                "focus: (2, 1), the nearest; reachable (4, 2)".into(),
            ],
            text: String::new(),
        };
        name_answer(&mut one, &v);
        assert_eq!(
            one.summary,
            "Rat ends on the hex next to Mara, attacks Mara."
        );
        assert_eq!(
            one.why,
            [
                "Rat walks up to 3.",
                "focus: Mara, the nearest; reachable (4, 2)"
            ]
        );
        let mut two = Answer {
            choices: vec![choice((3, 1)), choice((3, 0))],
            ..Answer::default()
        };
        name_answer(&mut two, &v);
        assert_eq!(
            two.choices[0].label,
            "ends on the hex next to Mara, attacks Mara · hex (3, 1)"
        );
        assert_eq!(
            two.choices[1].label,
            "ends on the hex next to Mara, attacks Mara · hex (3, 0)"
        );
    }

    #[test]
    fn a_ties_outcomes_read_apart_and_an_end_under_a_figure_reads_as_where_it_stands() {
        let v = board();
        let outcomes = [
            ("the Adventure goal, ends (3, 1)".to_string(), (3, 1)),
            ("the Adventure goal, ends (3, 0)".to_string(), (3, 0)),
            ("Special option 4, ends (0, 0)".to_string(), (0, 0)),
            ("Special option 4, ends (5, 2)".to_string(), (5, 2)),
        ];
        assert_eq!(
            outcomes_in_words(&v, &outcomes),
            [
                "the Adventure goal, ends the hex next to Mara · hex (3, 1)",
                "the Adventure goal, ends the hex next to Mara · hex (3, 0)",
                "Special option 4, ends where Rat stands",
                "Special option 4, ends the Moth Archive",
            ]
        );
    }
}
