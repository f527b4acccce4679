//! The position lab's engine: a case position of any rule module, edited one checked step at a time.
//!
//! A position is exactly a case file of `foehold solve` (a position is a test, and a test is a
//! position). Every edit is made on a copy, written out as the case file and read back through the
//! module's own loader, so the lab refuses what a file would refuse, with the same words, and the
//! position in hand never changes on a refused edit. The answer is recomputed after each edit.

pub mod any;
pub mod code;

use std::collections::BTreeMap;

use crate::LoadError;
pub use crate::rules::lab::{
    Answer, Arrangement, Brush, BrushKind, Choice, Field, Lab, MAX_ARRANGED, Tags, Value,
    arranged_line, tried, write_case,
};
pub use crate::rules::names;
use crate::rules::view::{CellKey, Ground, TableView};

/// Largest number of edits kept to undo; the oldest go first.
pub(crate) const MAX_UNDO: usize = 1_000;

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
