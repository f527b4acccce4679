//! The library scenarios name instead of copying: monster types and hero classes, one file each.
//!
//! The library that ships with Foehold (`assets/monsters/*.ron`, `assets/classes/*.ron`) is built
//! into the program, so every copy of it reads a scenario the same way (a peer, a save's replay, a
//! browser). More libraries (a player's own) are text read through a [`Storage`] and handed to a
//! module's scenario parser beside it. The parser reads the entries it needs with their own file
//! names in errors; a scenario parsed is whole: every entry it names is copied into it.

use std::path::{Path, PathBuf};

use crate::storage::Storage;

/// The folder of monster types.
pub const MONSTERS: &str = "assets/monsters";
/// The folder of hero classes.
pub const CLASSES: &str = "assets/classes";
/// The most entries a library folder may hold: what lies beyond is not read.
pub const MAX_ENTRIES: usize = 512;

/// The file a scenario (or a library entry) named `name` is kept as.
///
/// Its words in small letters joined by dashes (`The Rat Larder` → `the-rat-larder.ron`), at
/// most 48 characters before `.ron`, or `my-scenario.ron` for a name without a letter or digit.
pub fn file_for(name: &str) -> String {
    let words: Vec<String> = name
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let stem: String = words.join("-").chars().take(48).collect();
    let stem = stem.trim_end_matches('-');
    if stem.is_empty() {
        "my-scenario.ron".into()
    } else {
        format!("{stem}.ron")
    }
}

/// The names a scenario file `file` (`name.ron`) may take in a folder, in the order they are
/// tried: `name.ron`, then `name-2.ron` up to `name-999.ron`.
pub fn file_names(file: &str) -> impl Iterator<Item = String> + '_ {
    let stem = file.strip_suffix(".ron").unwrap_or(file);
    (1..=999).map(move |n| match n {
        1 => format!("{stem}.ron"),
        n => format!("{stem}-{n}.ron"),
    })
}

/// The `name` a library file gives its entry, read without knowing its kind.
pub fn entry_name(text: &str) -> Option<String> {
    match ron::from_str::<ron::Value>(text).ok()? {
        ron::Value::Map(m) => m.iter().find_map(|(k, v)| match (k, v) {
            (ron::Value::String(k), ron::Value::String(v)) if k == "name" => Some(v.clone()),
            _ => None,
        }),
        _ => None,
    }
}

/// Where an entry named `name` is kept in `folder`.
///
/// Its file (`file`) when that is free or holds the same entry (an earlier version of it,
/// replaced), else the first of `-2`, `-3`… beside it that is free or holds it; `None` when every
/// one holds another entry.
pub fn entry_path(storage: &dyn Storage, folder: &Path, file: &str, name: &str) -> Option<PathBuf> {
    file_names(file).map(|f| folder.join(f)).find(|p| {
        !storage.exists(p)
            || storage
                .read(p)
                .is_ok_and(|t| entry_name(&t).as_deref() == Some(name))
    })
}

/// One library file: its name (for errors) and its text, or why it could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The file, as errors name it.
    pub file: String,
    /// Its text, or why it could not be read.
    pub text: Result<String, String>,
}

/// The library's files: monster types and hero classes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Library {
    /// Monster type files, sorted by file name.
    pub monsters: Vec<Entry>,
    /// Hero class files, sorted by file name.
    pub classes: Vec<Entry>,
    /// Why a folder could not be read whole (too many entries), if so.
    pub trouble: Vec<String>,
}

impl Library {
    /// The library kept in `storage`'s `assets/` folders; a missing folder is an empty one.
    pub fn read(storage: &dyn Storage) -> Library {
        Library::read_at(storage, Path::new(""))
    }

    /// The library in the `assets/` folders under `root` of `storage`.
    pub fn read_at(storage: &dyn Storage, root: &Path) -> Library {
        Library::read_folders(storage, &root.join(MONSTERS), &root.join(CLASSES))
    }

    /// The library of monster type files in `monsters` and hero class files in `classes`
    /// (`.ron` files, in name order); a missing folder is an empty one.
    pub fn read_folders(storage: &dyn Storage, monsters: &Path, classes: &Path) -> Library {
        let mut trouble = Vec::new();
        let mut folder = |folder: &Path| -> Vec<Entry> {
            let name = folder.display();
            let mut files: Vec<PathBuf> = storage
                .list(folder)
                .unwrap_or_default()
                .into_iter()
                .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                .collect();
            files.sort();
            if files.len() > MAX_ENTRIES {
                trouble.push(format!(
                    "{name} holds {} files: only the first {MAX_ENTRIES} are read",
                    files.len()
                ));
                files.truncate(MAX_ENTRIES);
            }
            files
                .into_iter()
                .map(|p| Entry {
                    file: p.display().to_string(),
                    text: storage.read(&p).map_err(|e| e.to_string()),
                })
                .collect()
        };
        let monsters = folder(monsters);
        let classes = folder(classes);
        Library {
            monsters,
            classes,
            trouble,
        }
    }

    /// A library of the given monster files' texts only (tests, a peer's bundle).
    pub fn of_monsters(files: &[(&str, &str)]) -> Library {
        Library {
            monsters: entries(files),
            ..Library::default()
        }
    }

    /// The library built into the program: the files of `assets/` in this source tree.
    pub fn built_in() -> Library {
        Library {
            classes: entries(BUILT_IN_CLASSES),
            ..Library::of_monsters(BUILT_IN_MONSTERS)
        }
    }

    /// This library with the built-in one after it (its own entries are found first).
    pub fn with_built_in(&self) -> Library {
        let mut out = self.clone();
        let built = Library::built_in();
        out.monsters.extend(built.monsters);
        out.classes.extend(built.classes);
        out
    }

    /// The library in this source tree's `assets/` as files (tests only: to check that the
    /// built-in one is all of it).
    #[cfg(any(test, feature = "testing"))]
    pub fn shipped() -> Library {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        Library::read_at(&crate::disk::Disk, &root)
    }
}

/// Library entries of files' texts.
fn entries(files: &[(&str, &str)]) -> Vec<Entry> {
    files
        .iter()
        .map(|(f, t)| Entry {
            file: (*f).to_string(),
            text: Ok((*t).to_string()),
        })
        .collect()
}

/// The hero classes built in, by their file in this source tree.
const BUILT_IN_CLASSES: &[(&str, &str)] = &[
    (
        "assets/classes/bulwark.ron",
        include_str!("../../../assets/classes/bulwark.ron"),
    ),
    (
        "assets/classes/cutpurse.ron",
        include_str!("../../../assets/classes/cutpurse.ron"),
    ),
    (
        "assets/classes/fen-archer.ron",
        include_str!("../../../assets/classes/fen-archer.ron"),
    ),
    (
        "assets/classes/lamplighter.ron",
        include_str!("../../../assets/classes/lamplighter.ron"),
    ),
];

/// The monster types built in, by their file in this source tree.
const BUILT_IN_MONSTERS: &[(&str, &str)] = &[
    (
        "assets/monsters/cellar-rat.ron",
        include_str!("../../../assets/monsters/cellar-rat.ron"),
    ),
    (
        "assets/monsters/husk-beetle.ron",
        include_str!("../../../assets/monsters/husk-beetle.ron"),
    ),
    (
        "assets/monsters/rat-king.ron",
        include_str!("../../../assets/monsters/rat-king.ron"),
    ),
    (
        "assets/monsters/sluice-warden.ron",
        include_str!("../../../assets/monsters/sluice-warden.ron"),
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_is_kept_over_its_earlier_version_and_beside_another_of_its_file_name() {
        let mut store = crate::storage::Memory::default();
        let folder = Path::new("lib/monsters");
        let at = |store: &crate::storage::Memory, name: &str| {
            entry_path(store, folder, "bog-leech.ron", name).map(|p| p.display().to_string())
        };
        assert_eq!(
            at(&store, "Bog Leech").as_deref(),
            Some("lib/monsters/bog-leech.ron")
        );
        store
            .write(
                &folder.join("bog-leech.ron"),
                b"Monster(name: \"Bog Leech\")",
            )
            .unwrap();
        // An earlier version of the same entry is replaced.
        assert_eq!(
            at(&store, "Bog Leech").as_deref(),
            Some("lib/monsters/bog-leech.ron")
        );
        // Another entry whose name makes the same file goes beside it.
        assert_eq!(
            at(&store, "Bog-Leech").as_deref(),
            Some("lib/monsters/bog-leech-2.ron")
        );
    }

    #[test]
    fn the_built_in_library_is_every_file_of_the_assets_folder() {
        let shipped = Library::shipped();
        for (folder, entries, built) in [
            (MONSTERS, &shipped.monsters, BUILT_IN_MONSTERS),
            (CLASSES, &shipped.classes, BUILT_IN_CLASSES),
        ] {
            let files: Vec<String> = entries
                .iter()
                .map(|e| {
                    let f = Path::new(&e.file);
                    format!("{folder}/{}", f.file_name().unwrap_or_default().display())
                })
                .collect();
            let names: Vec<&str> = built.iter().map(|(f, _)| *f).collect();
            assert_eq!(
                files, names,
                "list each file of {folder} in the built-in list"
            );
            for (e, (_, text)) in entries.iter().zip(built) {
                assert_eq!(e.text.as_deref(), Ok(*text), "{}", e.file);
            }
        }
    }
}
