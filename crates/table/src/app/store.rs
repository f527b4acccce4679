//! Where the table reads and writes files: one storage resource, the desktop's files unless a test
//! or another platform puts its own, so no part of the table opens a file by itself.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use foehold_core::library::Library;
use foehold_core::storage::Storage;
use foehold_desktop::files::Files;

/// The table's storage: scenarios, saves, autosaves and case files go through it.
#[derive(Resource)]
pub struct Store(pub Box<dyn Storage + Send + Sync>);

impl Default for Store {
    fn default() -> Self {
        Store(Box::new(Files))
    }
}

impl Store {
    /// The text of the file at `path`, or why it cannot be read (naming the file).
    pub fn read(&self, path: &Path) -> Result<String, String> {
        self.0.read(path).map_err(|e| e.to_string())
    }

    /// Scenario files under `scenarios/`, of every rule module, sorted; none when the folder
    /// cannot be read.
    pub fn scenario_files(&self) -> Vec<PathBuf> {
        scenario_files(self.0.as_ref())
    }
}

/// The player's library (`library/` in the user's data folder), when the system names one: the
/// workshop saves there, New game lists its scenarios.
#[derive(Resource, Debug, Clone)]
pub struct Mine(pub Option<foehold_desktop::library::Folders>);

impl Default for Mine {
    fn default() -> Self {
        Mine(foehold_desktop::library::Folders::player().ok())
    }
}

impl Mine {
    /// The player's scenario files, sorted; none when there is no library or it cannot be read.
    pub fn scenario_files(&self, store: &Store) -> Vec<PathBuf> {
        let Some(folders) = &self.0 else {
            return Vec::new();
        };
        let mut files: Vec<PathBuf> = store
            .0
            .list(&folders.scenarios())
            .unwrap_or_default()
            .into_iter()
            .filter(|p| p.extension().is_some_and(|x| x == "ron"))
            .collect();
        files.sort();
        files
    }

    /// The player's monster types and classes, read through the table's storage: scenarios
    /// the table reads find them before the built-in ones. Empty without a library.
    pub fn library(&self, store: &Store) -> Library {
        self.0.as_ref().map_or_else(Library::default, |folders| {
            Library::read_folders(store.0.as_ref(), &folders.monsters(), &folders.classes())
        })
    }

    /// Where the workshop saves a scenario named by `file`: the library's scenarios, else the
    /// working folder.
    pub fn scenario_path(&self, file: &str) -> PathBuf {
        match &self.0 {
            Some(folders) => folders.scenarios().join(file),
            None => PathBuf::from(file),
        }
    }
}

/// The player's library ([`Mine::library`]) of the table in `world`; empty when the table keeps
/// none.
pub fn library(world: &World) -> Library {
    match (world.get_resource::<Mine>(), world.get_resource::<Store>()) {
        (Some(mine), Some(store)) => mine.library(store),
        _ => Library::default(),
    }
}

/// Scenario files under `scenarios/` of `storage`, sorted.
pub fn scenario_files(storage: &dyn Storage) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = storage
        .list(Path::new("scenarios"))
        .unwrap_or_default()
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    files
}

/// The scenario the table opens without an argument: the tutorial, else the first there is.
pub fn default_scenario(storage: &dyn Storage) -> Option<PathBuf> {
    let preferred = PathBuf::from("scenarios/tutorial.ron");
    if storage.exists(&preferred) {
        return Some(preferred);
    }
    scenario_files(storage).into_iter().next()
}
