//! What a rule module gives the scenario workshop ([`crate::workshop`]): its scenario as a file.
//!
//! A module's scenario is a [`Document`] the workshop edits, written as people read a file: a
//! field a line, a text map a row a line, a list or table an entry a line, and fields at their
//! default left out.

use serde::Serialize;

use crate::LoadError;
use crate::library::Library;
use crate::rules::lab::{Brush, Field, Value};
use crate::rules::view::{CellKey, TableView};

/// A scenario of one rule module as its file holds it: what the workshop edits.
pub trait Document: Clone + PartialEq + std::fmt::Debug + Send + Sync + 'static {
    /// The file's text: the same bytes for the same document, and read back
    /// ([`Document::read`]) as this document.
    fn write(&self) -> String;
    /// The document a file's text holds, as written (nothing looked up in a library, nothing
    /// checked beyond its syntax and fields).
    fn read(file: &str, text: &str) -> Result<Self, LoadError>;
}

/// A module's scenario made on the table: drawn, painted by brushes, set in panels.
///
/// Every edit works on the document as its file holds it; the engine ([`crate::workshop`]) checks
/// the file after each one. A `Palette` is what the brushes carry (the monster type a spot brush
/// places, the room a room brush paints): chosen in the panel, not part of the scenario, and not
/// an edit to undo.
pub trait Shop: Document {
    /// The module's `rules:` name.
    const MODULE: &'static str;
    /// What the brushes carry.
    type Palette: Clone + Default + std::fmt::Debug + Send + Sync + 'static;
    /// The rules its scenarios are played by (for playtests), whose lab positions it builds on.
    type Rules: crate::rules::coverage::Coverage + crate::rules::lab::Lab;

    /// A new scenario named `name` with nothing on it.
    fn blank(name: &str) -> Self;
    /// A new scenario built around a position of its rules' lab (*Make a scenario of it*); refused
    /// with the reason when a scenario cannot hold the position.
    fn of_position(
        p: &<Self::Rules as crate::rules::lab::Lab>::Position,
        library: &Library,
    ) -> Result<Self, String>;
    /// The scenario's name.
    fn name(&self) -> &str;
    /// The board as the table draws it while the scenario is made: every room shown, each spot,
    /// start and treasure where the map puts it (drawn from the file as written, so a draft with
    /// errors still shows).
    fn view(&self, library: &Library) -> TableView;
    /// The palette's brushes.
    fn brushes() -> Vec<Brush>;
    /// Puts brush `brush` on `cell` (and the edge to `other` for an edge brush).
    fn paint(
        &mut self,
        palette: &Self::Palette,
        library: &Library,
        brush: &str,
        cell: CellKey,
        other: Option<CellKey>,
    ) -> Result<(), String>;
    /// What the brushes carry, as fields of the panel (the scenario's own entries among what
    /// they offer).
    fn palette_fields(&self, palette: &Self::Palette, library: &Library) -> Vec<Field>;
    /// Sets a field of the palette.
    fn set_palette(palette: &mut Self::Palette, field: &str, value: Value) -> Result<(), String>;
    /// The scenario's fields, then those of what stands on `selected` (and of the entry the
    /// palette holds, where the scenario writes it).
    fn fields(
        &self,
        palette: &Self::Palette,
        library: &Library,
        selected: Option<CellKey>,
    ) -> Vec<Field>;
    /// Sets one field of [`Shop::fields`]; the palette follows what the edit makes (a new
    /// monster type is the one the brush places).
    fn set(
        &mut self,
        palette: &mut Self::Palette,
        library: &Library,
        selected: Option<CellKey>,
        field: &str,
        value: Value,
    ) -> Result<(), String>;
    /// The library files of the entries the panels show, of each kind one at most, when the
    /// scenario writes them itself (a monster type or a class made or changed here): what
    /// *Keep in the library* writes.
    fn own_entries(&self, _palette: &Self::Palette) -> Vec<OwnEntry> {
        Vec::new()
    }
    /// Takes out the scenario's own copy of the entry of `kind` of [`Shop::own_entries`], once
    /// the library holds it.
    fn drop_own_entry(&mut self, _palette: &Self::Palette, _kind: &str) -> Result<(), String> {
        Err("the scenario writes no entry of the library".into())
    }
}

/// A library entry a scenario writes itself, as its library file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnEntry {
    /// Its name (`Mire Rat`).
    pub name: String,
    /// The library's folder for its kind: `monsters` or `classes`.
    pub kind: &'static str,
    /// Its file name (`mire-rat.ron`).
    pub file: String,
    /// The file's text, as the library reads it.
    pub text: String,
}

/// A top-level struct being written, field by field.
#[derive(Debug)]
pub struct Writer {
    out: String,
}

/// One value in RON's compact form (plain data always serializes).
///
/// An optional value is written bare (`players: (Normal, Normal, Elite)`, not `Some(…)`), as the
/// loader reads it.
pub fn compact<T: Serialize + ?Sized>(value: &T) -> String {
    let one_line = ron::ser::PrettyConfig::new()
        .compact_structs(true)
        .compact_arrays(true)
        .compact_maps(true);
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .to_string_pretty(value, one_line)
        .unwrap_or_default()
}

impl Writer {
    /// A file whose top-level struct is `kind` (`Scenario`), after a comment line for each of
    /// `header`'s lines.
    pub fn new(kind: &str, header: &[&str]) -> Writer {
        let mut out = String::new();
        for line in header {
            out.push_str("// ");
            out.push_str(line);
            out.push('\n');
        }
        out.push_str(kind);
        out.push_str("(\n");
        Writer { out }
    }

    /// `key: value,` on a line.
    pub fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) {
        self.out
            .push_str(&format!("    {key}: {},\n", compact(value)));
    }

    /// `key: value,` unless the value is `default`.
    pub fn field_unless<T: Serialize + PartialEq>(&mut self, key: &str, value: &T, default: &T) {
        if value != default {
            self.field(key, value);
        }
    }

    /// `key: value,` for a value that is there; nothing for none.
    pub fn some<T: Serialize>(&mut self, key: &str, value: &Option<T>) {
        if let Some(v) = value {
            self.field(key, v);
        }
    }

    /// A list, an item a line; `[]` when empty.
    pub fn list<T: Serialize>(&mut self, key: &str, items: &[T]) {
        if items.is_empty() {
            self.out.push_str(&format!("    {key}: [],\n"));
        } else {
            self.items(key, items);
        }
    }

    /// A list, an item a line; left out when empty.
    pub fn items<T: Serialize>(&mut self, key: &str, items: &[T]) {
        if items.is_empty() {
            return;
        }
        self.out.push_str(&format!("    {key}: [\n"));
        for item in items {
            self.out.push_str(&format!("        {},\n", compact(item)));
        }
        self.out.push_str("    ],\n");
    }

    /// A table, an entry a line; left out when empty.
    pub fn entries<'a, K: Serialize + 'a, V: Serialize + 'a>(
        &mut self,
        key: &str,
        entries: impl IntoIterator<Item = (&'a K, &'a V)>,
    ) {
        let lines: Vec<String> = entries
            .into_iter()
            .map(|(k, v)| format!("        {}: {},\n", compact(k), compact(v)))
            .collect();
        if lines.is_empty() {
            return;
        }
        self.out.push_str(&format!("    {key}: {{\n"));
        for line in lines {
            self.out.push_str(&line);
        }
        self.out.push_str("    },\n");
    }

    /// The file's text.
    pub fn finish(mut self) -> String {
        self.out.push_str(")\n");
        self.out
    }
}
