//! The scenario workshop's engine: a scenario of any rule module, made and edited a step at a time.
//!
//! A draft is a scenario as its file holds it (the monster types and classes it names stay names,
//! as in the file). After every edit it is written out and read back through the loader, as
//! `foehold check` and `foehold play` read it, so the workshop says what a file would say, in the
//! same words; unlike the lab's positions, a draft may hold errors while it is made (a goal named
//! before its boss is placed), and a draft with one cannot be played. The file written is the
//! draft's only form: writing it, reading it back and writing again gives the same bytes.

use crate::LoadError;
use crate::library::Library;
pub use crate::library::{file_for, file_names};
pub use crate::rules::workshop::{Document, Shop, Writer, compact};

pub mod any;
pub mod bundle;
pub mod playtest;

/// Largest number of edits kept to undo; the oldest go first.
pub const MAX_UNDO: usize = 1_000;

/// What the loader says of a draft's file: the error that stops it, or none, and its warnings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Why the file is refused, when it is: the first error, as `foehold check` prints it.
    pub error: Option<LoadError>,
    /// What loads but is most likely a slip.
    pub warnings: Vec<LoadError>,
}

impl Report {
    /// What the loader says of `text`, read as the file `file` with `library`.
    pub fn of(file: &str, text: &str, library: &Library) -> Report {
        match crate::kit::check(file, text, library) {
            Ok(warnings) => Report {
                error: None,
                warnings,
            },
            Err(e) => Report {
                error: Some(e),
                warnings: Vec::new(),
            },
        }
    }
}

/// A scenario being made: the document, its undo and redo, and what the loader says of it.
#[derive(Debug, Clone)]
pub struct Draft<D: Document> {
    doc: D,
    /// The name errors give the file (where it will be saved, or "the draft").
    file: String,
    undo: Vec<D>,
    redo: Vec<D>,
    report: Report,
}

impl<D: Document> Draft<D> {
    /// A draft of `doc`, checked with `library`.
    pub fn new(doc: D, file: impl Into<String>, library: &Library) -> Self {
        let file = file.into();
        let report = Report::of(&file, &doc.write(), library);
        Draft {
            doc,
            file,
            undo: Vec::new(),
            redo: Vec::new(),
            report,
        }
    }

    /// A draft of the scenario in a file's text: refused only when the text is no document of
    /// the module (its syntax, its fields); any other error of the file stays in the report to be
    /// mended.
    pub fn open(file: &str, text: &str, library: &Library) -> Result<Self, LoadError> {
        D::read(file, text).map(|doc| Draft::new(doc, file, library))
    }

    /// The document.
    pub fn doc(&self) -> &D {
        &self.doc
    }

    /// The file's text.
    pub fn text(&self) -> String {
        self.doc.write()
    }

    /// The name errors give the file.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// What the loader says of the draft as it stands.
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// Whether the draft loads, so that it can be played.
    pub fn playable(&self) -> bool {
        self.report.error.is_none()
    }

    /// Makes one edit: `change` may refuse it (a bound, a name taken) and then nothing changes;
    /// otherwise the draft takes it, one step for undo, and the loader's report is made anew.
    /// An edit that changes nothing is no step.
    pub fn edit(
        &mut self,
        library: &Library,
        change: impl FnOnce(&mut D) -> Result<(), String>,
    ) -> Result<(), String> {
        let mut next = self.doc.clone();
        change(&mut next)?;
        if next == self.doc {
            return Ok(());
        }
        let old = std::mem::replace(&mut self.doc, next);
        self.undo.push(old);
        if self.undo.len() > MAX_UNDO {
            self.undo.remove(0);
        }
        self.redo.clear();
        self.recheck(library);
        Ok(())
    }

    /// Checks the draft again (after the library changed beside it).
    pub fn recheck(&mut self, library: &Library) {
        self.report = Report::of(&self.file, &self.doc.write(), library);
    }

    /// Gives the draft another file name (saved under it): errors name it from then on.
    pub fn rename(&mut self, file: impl Into<String>, library: &Library) {
        self.file = file.into();
        self.recheck(library);
    }

    /// Takes back the last edit; false when there is none.
    pub fn undo(&mut self, library: &Library) -> bool {
        let Some(back) = self.undo.pop() else {
            return false;
        };
        self.redo.push(std::mem::replace(&mut self.doc, back));
        self.recheck(library);
        true
    }

    /// Makes the last edit taken back again; false when there is none.
    pub fn redo(&mut self, library: &Library) -> bool {
        let Some(again) = self.redo.pop() else {
            return false;
        };
        self.undo.push(std::mem::replace(&mut self.doc, again));
        self.recheck(library);
        true
    }

    /// How many edits can be undone and redone.
    pub fn history(&self) -> (usize, usize) {
        (self.undo.len(), self.redo.len())
    }
}

#[cfg(test)]
mod tests;
