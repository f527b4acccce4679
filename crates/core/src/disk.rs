//! This machine's files for tests and the path loaders they use (feature `testing`): the rules
//! themselves read and write only through [`crate::storage::Storage`].

use std::path::{Path, PathBuf};

/// The text of a file the tests read, or an error naming it.
pub fn read_file(path: &Path) -> Result<String, crate::LoadError> {
    std::fs::read_to_string(path).map_err(|e| {
        crate::LoadError::whole(path.display().to_string(), format!("cannot read file: {e}"))
    })
}

/// This machine's files as a storage, for tests (the programs' own storage writes atomically).
#[derive(Debug, Clone, Copy, Default)]
pub struct Disk;

impl crate::storage::Storage for Disk {
    fn read(&self, name: &Path) -> Result<String, crate::LoadError> {
        read_file(name)
    }

    fn exists(&self, name: &Path) -> bool {
        name.exists()
    }

    fn write(&mut self, name: &Path, bytes: &[u8]) -> Result<(), String> {
        if let Some(dir) = name.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        }
        std::fs::write(name, bytes).map_err(|e| format!("{}: {e}", name.display()))
    }

    fn list(&self, folder: &Path) -> Result<Vec<PathBuf>, String> {
        let mut names = Vec::new();
        for entry in std::fs::read_dir(folder).map_err(|e| e.to_string())? {
            names.push(entry.map_err(|e| e.to_string())?.path());
        }
        names.sort();
        Ok(names)
    }
}
