//! A draft of any rule module behind one interface, so the table holds whichever scenario is made.

use super::playtest::Playtest;
use super::{Draft, Report};
use crate::LoadError;
use crate::library::Library;
use crate::rules::lab::{Brush, Field, Lab, Value};
use crate::rules::view::{CellKey, TableView};
use crate::rules::workshop::{OwnEntry, Shop};
use crate::rules::{PartyChoice, PartyOffer, Rules};

/// A scenario being made, of some module: the draft with the library it is checked against and
/// what the brushes carry.
pub trait AnyDraft: Send + Sync {
    /// The module's `rules:` name.
    fn module(&self) -> &'static str;
    /// The scenario's name.
    fn name(&self) -> String;
    /// The board and figures to draw.
    fn view(&self) -> TableView;
    /// The module's brushes.
    fn brushes(&self) -> Vec<Brush>;
    /// [`Shop::paint`], as one edit.
    fn paint(&mut self, brush: &str, cell: CellKey, other: Option<CellKey>) -> Result<(), String>;
    /// The palette's fields, then the scenario's, then those of what stands on `selected`.
    fn fields(&self, selected: Option<CellKey>) -> Vec<Field>;
    /// Sets a field: one of the palette's (no edit), else an edit of the scenario.
    fn set(&mut self, selected: Option<CellKey>, field: &str, value: Value) -> Result<(), String>;
    /// The file's text.
    fn text(&self) -> String;
    /// The name errors give the file.
    fn file(&self) -> &str;
    /// Gives the draft the name of the file it is saved as.
    fn rename(&mut self, file: &str);
    /// What the loader says of the draft.
    fn report(&self) -> &Report;
    /// Whether it loads, so that it can be played.
    fn playable(&self) -> bool;
    /// Takes back the last edit.
    fn undo(&mut self) -> bool;
    /// Makes the last edit taken back again.
    fn redo(&mut self) -> bool;
    /// How many edits can be undone and redone.
    fn history(&self) -> (usize, usize);
    /// `games` seeded autopilot games of the draft set up for `choice`, to play in the
    /// background; an error when the draft does not load.
    fn playtest(&self, games: u32, choice: PartyChoice) -> Result<Playtest, String>;
    /// What the draft lets players choose before a game (party sizes, levels); `None` when it
    /// does not load or lets them choose nothing (a Brimstone fight, a goal-priority map).
    fn offer(&self) -> Option<PartyOffer>;
    /// The library the draft is checked against (a player's entries, or a bundle's).
    fn library(&self) -> &Library;
    /// The library files of the entries the panels show, when the scenario writes them itself
    /// ([`Shop::own_entries`]).
    fn own_entries(&self) -> Vec<OwnEntry>;
    /// After the entry of `kind` of [`AnyDraft::own_entries`] was written to the library folder:
    /// the draft is checked with `library` (which holds it now) and its own copy goes, as one
    /// edit to undo.
    fn keep_own_entry(&mut self, kind: &str, library: Library) -> Result<(), String>;
}

/// A draft of module `D`'s scenario, with its library and palette.
#[derive(Debug, Clone)]
pub struct Workbench<D: Shop> {
    draft: Draft<D>,
    library: Library,
    palette: D::Palette,
}

impl<D: Shop> Workbench<D> {
    /// A draft of `doc`, saved as `file`, checked against `library`: a scenario made elsewhere
    /// (built around a lab position) with every edit still to come.
    pub fn of(doc: D, file: &str, library: Library) -> Self {
        Workbench {
            draft: Draft::new(doc, file, &library),
            library,
            palette: D::Palette::default(),
        }
    }

    /// A new scenario named `name`, checked against `library`.
    pub fn blank(name: &str, file: &str, library: Library) -> Self {
        Workbench {
            draft: Draft::new(D::blank(name), file, &library),
            library,
            palette: D::Palette::default(),
        }
    }

    /// The scenario in a file's text (see [`Draft::open`]).
    pub fn open(file: &str, text: &str, library: Library) -> Result<Self, LoadError> {
        Ok(Workbench {
            draft: Draft::open(file, text, &library)?,
            library,
            palette: D::Palette::default(),
        })
    }

    /// The draft.
    pub fn draft(&self) -> &Draft<D> {
        &self.draft
    }
}

impl<D: Shop> AnyDraft for Workbench<D> {
    fn module(&self) -> &'static str {
        D::MODULE
    }
    fn name(&self) -> String {
        self.draft.doc().name().to_string()
    }
    fn view(&self) -> TableView {
        self.draft.doc().view(&self.library)
    }
    fn brushes(&self) -> Vec<Brush> {
        D::brushes()
    }
    fn paint(&mut self, brush: &str, cell: CellKey, other: Option<CellKey>) -> Result<(), String> {
        let (palette, library) = (&self.palette, &self.library);
        self.draft
            .edit(library, |d| d.paint(palette, library, brush, cell, other))
    }
    fn fields(&self, selected: Option<CellKey>) -> Vec<Field> {
        let doc = self.draft.doc();
        let mut out = doc.palette_fields(&self.palette, &self.library);
        out.extend(doc.fields(&self.palette, &self.library, selected));
        out
    }
    fn set(&mut self, selected: Option<CellKey>, field: &str, value: Value) -> Result<(), String> {
        if self
            .draft
            .doc()
            .palette_fields(&self.palette, &self.library)
            .iter()
            .any(|f| f.id == field)
        {
            return D::set_palette(&mut self.palette, field, value);
        }
        let library = &self.library;
        // The palette follows an edit the draft takes, and only then.
        let mut palette = self.palette.clone();
        self.draft.edit(library, |d| {
            d.set(&mut palette, library, selected, field, value)
        })?;
        self.palette = palette;
        Ok(())
    }
    fn own_entries(&self) -> Vec<OwnEntry> {
        self.draft.doc().own_entries(&self.palette)
    }
    fn keep_own_entry(&mut self, kind: &str, library: Library) -> Result<(), String> {
        let palette = &self.palette;
        let mut draft = self.draft.clone();
        draft.edit(&library, |d| d.drop_own_entry(palette, kind))?;
        self.draft = draft;
        self.library = library;
        Ok(())
    }
    fn text(&self) -> String {
        self.draft.text()
    }
    fn file(&self) -> &str {
        self.draft.file()
    }
    fn rename(&mut self, file: &str) {
        self.draft.rename(file, &self.library);
    }
    fn report(&self) -> &Report {
        self.draft.report()
    }
    fn playable(&self) -> bool {
        self.draft.playable()
    }
    fn undo(&mut self) -> bool {
        self.draft.undo(&self.library)
    }
    fn redo(&mut self) -> bool {
        self.draft.redo(&self.library)
    }
    fn history(&self) -> (usize, usize) {
        self.draft.history()
    }
    fn offer(&self) -> Option<PartyOffer> {
        let s = D::Rules::parse_scenario_in(self.draft.file(), &self.draft.text(), &self.library)
            .ok()?;
        D::Rules::party_offer(&s)
    }
    fn library(&self) -> &Library {
        &self.library
    }
    fn playtest(&self, games: u32, choice: PartyChoice) -> Result<Playtest, String> {
        Playtest::new::<D::Rules>(
            self.draft.file(),
            &self.draft.text(),
            &self.library,
            games,
            choice,
        )
    }
}

/// A draft opened from a file, or why the file is no scenario the workshop makes.
pub type OpenedDraft = Result<Box<dyn AnyDraft>, LoadError>;

/// A draft built around a lab position, or why a scenario cannot hold it.
pub type BuiltDraft = Result<Box<dyn AnyDraft>, String>;

/// A module the workshop makes scenarios of: its name and label, a blank draft and a draft of a
/// file.
#[derive(Clone, Copy)]
pub struct ShopModule {
    /// The module's `rules:` name.
    pub module: &'static str,
    /// What a new scenario of it is called ("Gloomhaven-family scenario").
    pub label: &'static str,
    /// A new scenario, checked against a library.
    pub blank: fn(&str, Library) -> Box<dyn AnyDraft>,
    /// A draft of a file's text.
    pub open: fn(&str, &str, Library) -> OpenedDraft,
    /// The lab module whose positions it builds scenarios around
    /// ([`crate::rules::lab::Lab::MODULE`] of its rules).
    pub lab: &'static str,
    /// A new draft saved as a file (the first text) built around a lab position (the second).
    pub of_position: fn(&str, &str, Library) -> BuiltDraft,
}

impl ShopModule {
    /// The entry of module `D`.
    pub fn of<D: Shop>(label: &'static str) -> ShopModule {
        ShopModule {
            module: D::MODULE,
            label,
            blank: |file, library| Box::new(Workbench::<D>::blank("A new scenario", file, library)),
            open: |file, text, library| {
                Workbench::<D>::open(file, text, library).map(|w| Box::new(w) as Box<dyn AnyDraft>)
            },
            lab: <D::Rules as Lab>::MODULE,
            of_position: |file, text, library| {
                let p = <D::Rules as Lab>::read("the position", text).map_err(|e| e.to_string())?;
                let doc = D::of_position(&p, &library)?;
                Ok(Box::new(Workbench::of(doc, file, library)))
            },
        }
    }
}

/// The modules the workshop makes scenarios of, in the order the New scenario list shows them.
pub fn shop_modules() -> Vec<ShopModule> {
    vec![
        ShopModule::of::<crate::rules::gloomhaven::scenario::Scenario>(
            "Gloomhaven-family scenario",
        ),
        ShopModule::of::<crate::rules::brimstone::scenario::ScenarioFile>("Brimstone fight"),
        ShopModule::of::<crate::rules::goals::scenario::ScenarioFile>("Goal-priority map"),
    ]
}

/// A draft of a scenario file of whichever module its `rules:` field names; an error when the
/// workshop does not make scenarios of that module yet, or the text is no scenario of it.
pub fn open_draft(file: &str, text: &str, library: Library) -> OpenedDraft {
    let (name, line, column) =
        crate::rules::rules_field(text).unwrap_or((crate::rules::DEFAULT_RULES, 1, 1));
    let all = shop_modules();
    match all.iter().find(|m| m.module == name) {
        Some(m) => (m.open)(file, text, library),
        None => Err(LoadError::new(
            file,
            line,
            column,
            format!(
                "the workshop makes scenarios of {} for now, not `{name}`",
                all.iter().map(|m| m.module).collect::<Vec<_>>().join(", ")
            ),
        )),
    }
}

/// `games` playtest games of `d` for the party `choice`, played to the end: the playtest, for its
/// report.
#[cfg(test)]
pub(crate) fn played_out(d: &dyn AnyDraft, games: u32, choice: PartyChoice) -> Playtest {
    let mut test = d
        .playtest(games, choice)
        .unwrap_or_else(|e| panic!("{e}\n{}", d.text()));
    while test.step() {}
    assert_eq!(test.played(), games, "{}", d.text());
    test
}

/// Whether [`draft_of_position`] builds a scenario around a position of the lab module named
/// `lab_module` (its [`crate::rules::lab::Lab::MODULE`]).
pub fn builds_on(lab_module: &str) -> bool {
    shop_modules().iter().any(|m| m.lab == lab_module)
}

/// A new draft, saved as `file`, built around a position (a case file's text) of the lab module
/// named `lab_module`: the scenario module whose rules that lab is builds it ([`Shop::of_position`]).
pub fn draft_of_position(lab_module: &str, file: &str, text: &str, library: Library) -> BuiltDraft {
    match shop_modules().iter().find(|m| m.lab == lab_module) {
        Some(m) => (m.of_position)(file, text, library),
        None => Err(format!(
            "the workshop builds no scenarios around positions of `{lab_module}`"
        )),
    }
}
