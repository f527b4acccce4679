//! The player's library: a folder in the user's data folder that holds the player's own
//! scenarios, monster types and hero classes, read beside the ones Foehold ships.

use std::path::{Path, PathBuf};

use foehold_core::library::Library;

use crate::files::Files;

/// The user's data folder: `FOEHOLD_DATA_DIR` when set (tests, a portable copy), else where the
/// platform keeps programs' data (for example `~/.local/share/foehold` on Linux).
pub fn data_dir() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os("FOEHOLD_DATA_DIR").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "foehold")
        .map(|p| p.data_dir().to_path_buf())
        .ok_or_else(|| "this system names no home folder to keep data in".to_string())
}

/// The folders of a player's library under one root: `scenarios/`, `monsters/` and `classes/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Folders {
    /// The library's own folder.
    pub root: PathBuf,
}

impl Folders {
    /// The player's library: `library/` in the user's data folder.
    pub fn player() -> Result<Folders, String> {
        Ok(Folders::at(data_dir()?.join("library")))
    }

    /// A library kept in `root` (a folder given on the command line, a test's).
    pub fn at(root: impl Into<PathBuf>) -> Folders {
        Folders { root: root.into() }
    }

    /// Where the player's scenarios are kept.
    pub fn scenarios(&self) -> PathBuf {
        self.root.join("scenarios")
    }

    /// Where the player's monster types are kept, a file each.
    pub fn monsters(&self) -> PathBuf {
        self.root.join("monsters")
    }

    /// Where the player's hero classes are kept, a file each.
    pub fn classes(&self) -> PathBuf {
        self.root.join("classes")
    }

    /// The monster types and classes kept here (missing folders are empty ones); scenarios read
    /// with it find these first, then the ones Foehold ships.
    pub fn library(&self) -> Library {
        Library::read_folders(&Files, &self.monsters(), &self.classes())
    }

    /// Whether `path` lies in this library's folders.
    pub fn holds(&self, path: &Path) -> bool {
        path.starts_with(&self.root)
    }
}

/// The player's monster types and classes, or an empty library (and why) when the data folder
/// cannot be found.
pub fn player_library() -> (Library, Option<String>) {
    match Folders::player() {
        Ok(folders) => (folders.library(), None),
        Err(e) => (Library::default(), Some(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_library_folder_reads_its_monsters_and_classes_and_a_missing_one_is_empty() {
        let dir = tempfile::tempdir().unwrap();
        let folders = Folders::at(dir.path());
        assert_eq!(folders.library(), Library::default());
        std::fs::create_dir_all(folders.monsters()).unwrap();
        std::fs::write(folders.monsters().join("mire-toad.ron"), "Monster()").unwrap();
        std::fs::write(folders.monsters().join("notes.txt"), "not a monster").unwrap();
        let library = folders.library();
        assert_eq!(library.monsters.len(), 1);
        assert!(library.monsters[0].file.ends_with("mire-toad.ron"));
        assert_eq!(library.monsters[0].text.as_deref(), Ok("Monster()"));
        assert!(library.classes.is_empty());
        assert!(folders.holds(&folders.scenarios().join("x.ron")));
    }
}
