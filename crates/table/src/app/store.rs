//! Where the table reads and writes files: one storage resource, the desktop's files unless a test
//! or another platform puts its own, so no part of the table opens a file by itself.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
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
