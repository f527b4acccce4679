//! Where scenarios, saves and positions are kept: an interface the programs implement (files on the
//! desktop, a browser's storage in a tab), so that the rules core itself opens no file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::LoadError;

/// The largest entry read: a wrong path (a disk image, a device) stops here instead of filling
/// memory. Our largest files, saves of long games, are a few hundred KiB.
pub const MAX_ENTRY_BYTES: u64 = 64 << 20;

/// A place that keeps named entries of text: what the core reads and writes through.
///
/// Names are paths (`saves/autosave-gloomhaven.ron`); an implementation decides what they are.
pub trait Storage {
    /// The whole text of entry `name`, at most [`MAX_ENTRY_BYTES`] long; an error names it.
    fn read(&self, name: &Path) -> Result<String, LoadError>;
    /// Whether entry `name` exists.
    fn exists(&self, name: &Path) -> bool;
    /// Writes `bytes` as entry `name`, whole: a reader finds the old content or the new one, never
    /// a part, whatever moment the program stops at. The folders on the way are made.
    fn write(&mut self, name: &Path, bytes: &[u8]) -> Result<(), String>;
    /// The names of the entries directly in `folder`, sorted.
    fn list(&self, folder: &Path) -> Result<Vec<PathBuf>, String>;
    /// Where entry `name` really is, links followed, from the root: to tell whether a file a save
    /// names lies near the save. `None` when the entry does not exist, or when the store cannot
    /// tell (a store without links or a working folder, as in memory): then nothing is refused for
    /// where it lies.
    fn locate(&self, _name: &Path) -> Option<PathBuf> {
        None
    }
}

/// The `k`-th earlier version of `name`: `autosave.ron` → `autosave-k.ron`.
pub fn numbered(name: &Path, k: usize) -> PathBuf {
    let stem = name
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let file = match name.extension() {
        Some(ext) => format!("{stem}-{k}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{k}"),
    };
    name.with_file_name(file)
}

/// Writes `bytes` as the newest of rotating entries.
///
/// `name` gets the new content and the earlier ones move down to `name-1`, … `name-keep` (the
/// oldest is dropped). Each step copies a whole entry and replaces its destination whole, oldest
/// first, so every name always holds a whole save whatever moment the program stops at.
pub fn write_rotating(
    store: &mut dyn Storage,
    name: &Path,
    bytes: &[u8],
    keep: usize,
) -> Result<(), String> {
    for k in (1..=keep).rev() {
        let from = if k == 1 {
            name.to_path_buf()
        } else {
            numbered(name, k - 1)
        };
        if store.exists(&from) {
            let old = store.read(&from).map_err(|e| e.to_string())?;
            store.write(&numbered(name, k), old.as_bytes())?;
        }
    }
    store.write(name, bytes)
}

/// Entries kept in memory: for tests, and for a program with nowhere else to keep them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Memory {
    entries: BTreeMap<PathBuf, String>,
}

impl Storage for Memory {
    fn read(&self, name: &Path) -> Result<String, LoadError> {
        self.entries.get(name).cloned().ok_or_else(|| {
            LoadError::whole(name.display().to_string(), "cannot read: no such entry")
        })
    }

    fn exists(&self, name: &Path) -> bool {
        self.entries.contains_key(name)
    }

    fn write(&mut self, name: &Path, bytes: &[u8]) -> Result<(), String> {
        let text =
            std::str::from_utf8(bytes).map_err(|_| format!("{}: expected text", name.display()))?;
        self.entries.insert(name.to_path_buf(), text.to_string());
        Ok(())
    }

    fn list(&self, folder: &Path) -> Result<Vec<PathBuf>, String> {
        Ok(self
            .entries
            .keys()
            .filter(|n| n.parent() == Some(folder))
            .cloned()
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotating_writes_keep_the_earlier_saves_in_order() {
        let mut store = Memory::default();
        let name = Path::new("saves/autosave.ron");
        for n in 0..5 {
            write_rotating(&mut store, name, format!("save {n}").as_bytes(), 2).unwrap();
        }
        let read = |p: &Path| store.read(p).unwrap();
        assert_eq!(read(name), "save 4");
        assert_eq!(read(&numbered(name, 1)), "save 3");
        assert_eq!(read(&numbered(name, 2)), "save 2");
        assert!(!store.exists(&numbered(name, 3)));
        assert_eq!(store.list(Path::new("saves")).unwrap().len(), 3);
    }

    #[test]
    fn numbered_names_keep_the_extension() {
        assert_eq!(
            numbered(Path::new("saves/autosave.ron"), 2),
            PathBuf::from("saves/autosave-2.ron")
        );
        assert_eq!(numbered(Path::new("save"), 1), PathBuf::from("save-1"));
    }

    #[test]
    fn a_missing_entry_is_an_error_naming_it() {
        let e = Memory::default().read(Path::new("a.ron")).unwrap_err();
        assert_eq!(e.file, "a.ron");
    }
}
