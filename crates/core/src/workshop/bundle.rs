//! A scenario to share: its file with the library entries it names that are not built in (a
//! player's own monster types and classes), as one bundle file or one share code.
//!
//! A bundle is opened only when its scenario loads with the entries it carries and the built-in
//! library, so that what is shared plays wherever it is opened. A share code is `FS1.` and the
//! bundle file deflated, as position codes are ([`crate::lab::code`]).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::LoadError;
use crate::lab::code;
use crate::library::{Entry, Library, entry_name};
use crate::storage::Storage;
use crate::workshop::Writer;

/// The prefix of version 1 share codes.
pub const CODE_V1: &str = "FS1.";
/// The bundle format this program writes and reads.
pub const FORMAT: u32 = 1;
/// The most entries of each kind a bundle carries.
pub const MAX_BUNDLED: usize = 64;
/// The longest file name an entry may give.
pub const MAX_FILE_NAME: usize = 64;

/// A scenario with the library entries it names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bundle {
    /// The bundle format ([`FORMAT`]).
    pub format: u32,
    /// The scenario file's text, as its own file holds it.
    pub scenario: String,
    /// Monster types it names that are not built in.
    #[serde(default)]
    pub monsters: Vec<Bundled>,
    /// Hero classes it names that are not built in.
    #[serde(default)]
    pub classes: Vec<Bundled>,
}

/// One library file carried in a bundle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bundled {
    /// Its file name in a library folder (`mire-toad.ron`): no folder, ending `.ron`.
    pub file: String,
    /// Its text.
    pub text: String,
}

/// The entries of `entries` the scenario `text` names (its name written in quotes), that the
/// built-in library does not hold as they are.
fn named(text: &str, entries: &[Entry], built_in: &[Entry]) -> Vec<Bundled> {
    let mut out: Vec<Bundled> = Vec::new();
    for e in entries {
        let Ok(body) = &e.text else { continue };
        let Some(name) = entry_name(body) else {
            continue;
        };
        let shipped = built_in
            .iter()
            .any(|b| b.text.as_deref() == Ok(body.as_str()));
        let file = Path::new(&e.file)
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        // The first of a name is the one a scenario reads (the player's before the built-in).
        let first = !out
            .iter()
            .any(|b| entry_name(&b.text).as_deref() == Some(&name));
        if !shipped && first && text.contains(&format!("\"{name}\"")) {
            out.push(Bundled {
                file,
                text: body.clone(),
            });
        }
    }
    out
}

impl Bundle {
    /// The bundle of the scenario file `text` (named `file` in errors) read with `library`: the
    /// entries of `library` it names, not built in. An error when the scenario does not load
    /// with them.
    pub fn of(file: &str, text: &str, library: &Library) -> Result<Bundle, LoadError> {
        let built_in = Library::built_in();
        let bundle = Bundle {
            format: FORMAT,
            scenario: text.to_string(),
            monsters: named(text, &library.monsters, &built_in.monsters),
            classes: named(text, &library.classes, &built_in.classes),
        };
        bundle.check(file)?;
        Ok(bundle)
    }

    /// The library of the entries carried: what the scenario is read with.
    pub fn library(&self) -> Library {
        let entries = |list: &[Bundled]| -> Vec<Entry> {
            list.iter()
                .map(|b| Entry {
                    file: b.file.clone(),
                    text: Ok(b.text.clone()),
                })
                .collect()
        };
        Library {
            monsters: entries(&self.monsters),
            classes: entries(&self.classes),
            trouble: Vec::new(),
        }
    }

    /// Whether the scenario loads with the entries carried; its warnings when it does.
    pub fn check(&self, file: &str) -> Result<Vec<LoadError>, LoadError> {
        crate::kit::check(file, &self.scenario, &self.library())
    }

    /// The bundle file's text.
    pub fn write(&self) -> String {
        let mut w = Writer::new(
            "Bundle",
            &[
                "A Foehold scenario with the library entries it names: open it in the workshop or with `foehold share --open`.",
            ],
        );
        w.field("format", &self.format);
        w.field("scenario", &self.scenario);
        w.items("monsters", &self.monsters);
        w.items("classes", &self.classes);
        w.finish()
    }

    /// The bundle in a bundle file's text, bounded and checked: a file name is a plain
    /// `name.ron`, no more than [`MAX_BUNDLED`] entries of a kind, and the scenario loads with
    /// them.
    pub fn read(file: &str, text: &str) -> Result<Bundle, LoadError> {
        let b: Bundle = crate::error::parse_ron(file, text)?;
        let at = |needle: &str, why: String| LoadError::at_text(file, text, needle, why);
        if b.format != FORMAT {
            return Err(at(
                "format:",
                format!(
                    "bundle format {}: this Foehold reads format {FORMAT} (a later one comes from a newer Foehold)",
                    b.format
                ),
            ));
        }
        for (kind, list) in [("monsters", &b.monsters), ("classes", &b.classes)] {
            if list.len() > MAX_BUNDLED {
                return Err(at(
                    &format!("{kind}:"),
                    format!(
                        "`{kind}` carries {} entries: expected at most {MAX_BUNDLED}",
                        list.len()
                    ),
                ));
            }
            for e in list {
                let plain = e.file.len() <= MAX_FILE_NAME
                    && e.file.ends_with(".ron")
                    && e.file.len() > 4
                    && !e.file.starts_with('.')
                    && e.file
                        .chars()
                        .all(|c| c.is_alphanumeric() || "-_.".contains(c));
                if !plain {
                    return Err(at(
                        &format!("\"{}\"", e.file),
                        format!(
                            "`{}`: expected a plain file name ending `.ron` (letters, digits, - _ .), at most {MAX_FILE_NAME} characters",
                            crate::rules::clipped(&e.file)
                        ),
                    ));
                }
            }
        }
        // The scenario's own errors name the place in the scenario's text.
        b.check(&format!("{file} (its scenario)"))?;
        Ok(b)
    }

    /// The share code of this bundle.
    pub fn code(&self) -> String {
        code::encode_as(CODE_V1, &self.write())
    }

    /// The bundle a share code carries, or why it is none (bounded as position codes are).
    pub fn of_code(c: &str) -> Result<Bundle, String> {
        let text = code::decode_as(CODE_V1, "scenario share code", c)?;
        Bundle::read("the code", &text).map_err(|e| e.to_string())
    }

    /// The scenario's name (for the file it is kept as), read by its module.
    pub fn name(&self) -> Option<String> {
        entry_name(&self.scenario)
    }

    /// Puts the bundle in a library kept in `storage`: the scenario in `scenarios` under its
    /// name ([`super::file_for`]; `-2`, `-3`, … when another scenario has that file), each entry
    /// in `monsters` or `classes` unless the same file is there already. Gives the files
    /// written. Nothing is written when an entry's file is there with other text: which one a
    /// scenario means would be unclear.
    pub fn install(
        &self,
        storage: &mut dyn Storage,
        scenarios: &Path,
        monsters: &Path,
        classes: &Path,
    ) -> Result<Vec<PathBuf>, String> {
        let mut writes: Vec<(PathBuf, &str)> = Vec::new();
        for (folder, list) in [(monsters, &self.monsters), (classes, &self.classes)] {
            for e in list {
                let path = folder.join(&e.file);
                if !storage.exists(&path) {
                    writes.push((path, &e.text));
                    continue;
                }
                let there = storage.read(&path).map_err(|e| e.to_string())?;
                if there != e.text {
                    return Err(format!(
                        "{} is in your library with other text than the shared one: rename one of them, then open the bundle again",
                        path.display()
                    ));
                }
            }
        }
        let file = super::file_for(&self.name().unwrap_or_default());
        let mut free = None;
        for name in super::file_names(&file) {
            let path = scenarios.join(name);
            if !storage.exists(&path) {
                free = Some(path);
                break;
            }
            if storage.read(&path).is_ok_and(|t| t == self.scenario) {
                // The same scenario is there already: nothing to add.
                break;
            }
        }
        if let Some(path) = free {
            writes.push((path, &self.scenario));
        }
        for (path, text) in &writes {
            storage.write(path, text.as_bytes())?;
        }
        Ok(writes.into_iter().map(|(p, _)| p).collect())
    }
}

/// Whether `text` is a bundle file's: its first word, past comments and blank space, is
/// `Bundle`.
pub fn is_bundle(text: &str) -> bool {
    let mut rest = text.trim_start();
    loop {
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.split_once('\n').map_or("", |(_, r)| r).trim_start();
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.split_once("*/").map_or("", |(_, r)| r).trim_start();
        } else {
            break;
        }
    }
    rest.strip_prefix("Bundle")
        .is_some_and(|r| r.trim_start().starts_with('('))
}

/// The text a scenario is sent to other tables as.
///
/// Its own text when it names nothing of `library` beyond what is built in, else its bundle's
/// (so that a player's own monster types and classes go with it). An error when it does not load
/// with `library`.
pub fn pack(file: &str, text: &str, library: &Library) -> Result<String, LoadError> {
    let b = Bundle::of(file, text, library)?;
    Ok(if b.monsters.is_empty() && b.classes.is_empty() {
        text.to_string()
    } else {
        b.write()
    })
}

/// The scenario's text and the library it is read with, from a text [`pack`] made.
///
/// A bundle's scenario with its entries, or a scenario's text with no entries of its own (the
/// built-in library serves it). A bundle is checked and bounded as [`Bundle::read`] does.
pub fn unpack(file: &str, text: &str) -> Result<(String, Library), LoadError> {
    if is_bundle(text) {
        let b = Bundle::read(file, text)?;
        let library = b.library();
        Ok((b.scenario, library))
    } else {
        Ok((text.to_string(), Library::default()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A player's own monster type, a cousin of the Cellar Rat.
    const MIRE_RAT: &str = include_str!("../../../../assets/monsters/cellar-rat.ron");

    fn mire_rat() -> String {
        MIRE_RAT
            .replace("Cellar Rat", "Mire Rat")
            .replace("// Cellar Rat:", "// Mire Rat:")
    }

    fn tutorial() -> String {
        std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../scenarios/rat-kings-larder.ron"
        ))
        .unwrap()
    }

    #[test]
    fn a_scenario_of_a_players_monster_carries_it_and_opens_from_its_code() {
        let text = tutorial().replacen("\"Cellar Rat\"", "\"Mire Rat\"", 1);
        assert_ne!(text, tutorial(), "the scenario names the rat");
        let mine = Library::of_monsters(&[
            ("mine/mire-rat.ron", &mire_rat()),
            // Not named: left out.
            ("mine/other.ron", &MIRE_RAT.replace("Cellar Rat", "Bog Rat")),
        ]);
        // Without the player's library it does not load; with it, it does.
        assert!(Bundle::of("larder.ron", &text, &Library::default()).is_err());
        let b = Bundle::of("larder.ron", &text, &mine).unwrap();
        assert_eq!(b.monsters.len(), 1);
        assert_eq!(b.monsters[0].file, "mire-rat.ron");
        assert!(b.classes.is_empty());
        let code = b.code();
        assert!(code.starts_with(CODE_V1), "{code}");
        assert!(code.len() < b.write().len() / 2, "{}", code.len());
        let back = Bundle::of_code(&code).unwrap();
        assert_eq!(back, b);
        assert_eq!(Bundle::read("b.ron", &b.write()).unwrap(), b);
        assert_eq!(back.name().as_deref(), Some("The Rat King's Larder"));
    }

    #[test]
    fn a_packed_scenario_is_its_text_or_its_bundle_and_unpacks_to_what_it_reads_with() {
        let plain = tutorial();
        let packed = pack("larder.ron", &plain, &Library::built_in()).unwrap();
        assert_eq!(packed, plain, "nothing of its own: the text as it is");
        assert!(!is_bundle(&packed));
        let (text, library) = unpack("host", &packed).unwrap();
        assert_eq!((text, library), (plain, Library::default()));

        let own = tutorial().replacen("\"Cellar Rat\"", "\"Mire Rat\"", 1);
        let mine = Library::of_monsters(&[("mine/mire-rat.ron", &mire_rat())]);
        assert!(pack("larder.ron", &own, &Library::default()).is_err());
        let packed = pack("larder.ron", &own, &mine).unwrap();
        assert!(is_bundle(&packed), "{packed}");
        let (text, library) = unpack("host", &packed).unwrap();
        assert_eq!(text, own);
        assert_eq!(library.monsters.len(), 1);
        assert_eq!(library.monsters[0].text.as_deref(), Ok(mire_rat().as_str()));
        assert!(crate::kit::check("x", &text, &library).is_ok());
        // A bundle is read as one: a broken one is refused with its reason.
        let broken = packed.replace("format: 1", "format: 7");
        let e = unpack("host", &broken).unwrap_err().to_string();
        assert!(e.contains("newer Foehold"), "{e}");
        assert!(is_bundle("// a note\n/* more */ Bundle ( format: 1 )"));
        assert!(!is_bundle("// Bundle(\nScenario(name: \"Bundle(\")"));
    }

    #[test]
    fn a_scenario_of_the_built_in_library_carries_nothing() {
        let b = Bundle::of("larder.ron", &tutorial(), &Library::built_in()).unwrap();
        assert!(b.monsters.is_empty() && b.classes.is_empty());
        assert_eq!(Bundle::of_code(&b.code()).unwrap().scenario, tutorial());
    }

    #[test]
    fn bad_bundles_and_codes_are_refused_with_a_reason() {
        let b = Bundle::of("larder.ron", &tutorial(), &Library::default()).unwrap();
        let why = |text: &str| Bundle::read("b.ron", text).unwrap_err().to_string();
        let later = b.write().replace("format: 1", "format: 9");
        assert!(why(&later).contains("newer Foehold"), "{}", why(&later));
        let mut sneaky = b.clone();
        sneaky.monsters.push(Bundled {
            file: "../../.bashrc".into(),
            text: mire_rat(),
        });
        assert!(
            why(&sneaky.write()).contains("plain file name"),
            "{}",
            why(&sneaky.write())
        );
        let mut many = b.clone();
        many.monsters = (0..=MAX_BUNDLED)
            .map(|i| Bundled {
                file: format!("m{i}.ron"),
                text: String::new(),
            })
            .collect();
        assert!(
            why(&many.write()).contains("at most"),
            "{}",
            why(&many.write())
        );
        // A scenario naming a monster the bundle does not carry is refused at its place.
        let broken = Bundle {
            scenario: tutorial().replacen("\"Cellar Rat\"", "\"Mire Rat\"", 1),
            ..b.clone()
        };
        let e = why(&broken.write());
        assert!(e.contains("its scenario") && e.contains("Mire Rat"), "{e}");
        let code = |c: &str| Bundle::of_code(c).unwrap_err();
        assert!(code("FH1.abc").contains("FS1."), "{}", code("FH1.abc"));
        assert!(code("FS2.abc").contains("version"), "{}", code("FS2.abc"));
        assert!(code("FS1.***").contains("damaged"), "{}", code("FS1.***"));
    }

    #[test]
    fn a_bundle_goes_into_a_library_once_and_a_different_entry_stops_it() {
        let text = tutorial().replacen("\"Cellar Rat\"", "\"Mire Rat\"", 1);
        let mine = Library::of_monsters(&[("mine/mire-rat.ron", &mire_rat())]);
        let b = Bundle::of("larder.ron", &text, &mine).unwrap();
        let mut shelf = crate::storage::Memory::default();
        let (s, m, c) = (Path::new("s"), Path::new("m"), Path::new("c"));
        let wrote = b.install(&mut shelf, s, m, c).unwrap();
        assert_eq!(
            wrote,
            [m.join("mire-rat.ron"), s.join("the-rat-king-s-larder.ron")]
        );
        // Again: the same files are there; nothing is written.
        assert!(b.install(&mut shelf, s, m, c).unwrap().is_empty());
        // Another scenario of the same name goes beside it.
        let mut renamed = b.clone();
        renamed.scenario =
            renamed
                .scenario
                .replacen("description: \"", "description: \"Again. ", 1);
        assert_eq!(
            renamed.install(&mut shelf, s, m, c).unwrap(),
            [s.join("the-rat-king-s-larder-2.ron")]
        );
        // A different Mire Rat in the library: refused, nothing written.
        let mut clash = crate::storage::Memory::default();
        clash
            .write(&m.join("mire-rat.ron"), b"Monster(name: \"Mire Rat\")")
            .unwrap();
        let e = b.install(&mut clash, s, m, c).unwrap_err();
        assert!(e.contains("other text"), "{e}");
        assert!(!clash.exists(&s.join("the-rat-king-s-larder.ron")));
    }
}
