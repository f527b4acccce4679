//! Files on this machine: the storage the desktop programs keep scenarios, saves and positions in,
//! read within a bound and written atomically.

use std::path::{Path, PathBuf};

use foehold_core::LoadError;
use foehold_core::storage::{MAX_ENTRY_BYTES, Storage};

/// This machine's files as the core's [`Storage`]: names are paths, relative to the folder the
/// program runs in.
#[derive(Debug, Clone, Copy, Default)]
pub struct Files;

impl Storage for Files {
    fn read(&self, name: &Path) -> Result<String, LoadError> {
        read_file(name)
    }

    fn exists(&self, name: &Path) -> bool {
        name.exists()
    }

    fn write(&mut self, name: &Path, bytes: &[u8]) -> Result<(), String> {
        let say = |e: std::io::Error| format!("{}: {e}", name.display());
        if let Some(dir) = name.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(say)?;
        }
        write_atomic(name, bytes).map_err(say)
    }

    fn list(&self, folder: &Path) -> Result<Vec<PathBuf>, String> {
        let say = |e: std::io::Error| format!("{}: {e}", folder.display());
        let mut names = Vec::new();
        for entry in std::fs::read_dir(folder).map_err(say)? {
            names.push(entry.map_err(say)?.path());
        }
        names.sort();
        Ok(names)
    }
}

/// Reads a whole file, mapping I/O failures to a [`LoadError`] about that file.
pub fn read_file(path: &Path) -> Result<String, LoadError> {
    use std::io::Read;
    let fail = |e: std::io::Error| {
        LoadError::whole(path.display().to_string(), format!("cannot read file: {e}"))
    };
    // Room for a whole case file, so it is read in one call rather than in growing pieces.
    let mut text = String::with_capacity(32 << 10);
    std::fs::File::open(path)
        .map_err(fail)?
        .take(MAX_ENTRY_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(fail)?;
    if text.len() as u64 > MAX_ENTRY_BYTES {
        return Err(LoadError::whole(
            path.display().to_string(),
            format!(
                "the file is larger than {} MiB: expected a data file",
                MAX_ENTRY_BYTES >> 20
            ),
        ));
    }
    Ok(text)
}

/// Writes `bytes` to `path` so that the file is always the old content or the new one, whole.
///
/// A temporary file in the same directory is flushed to disk and renamed over `path`, and the
/// directory is flushed so that the rename itself survives a crash.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "save".into());
    let tmp = dir.join(format!(".{name}.tmp{}", std::process::id()));
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written?;
    sync_dir(dir)
}

/// Flushes a directory's entries (the renames in it) to disk. Where directories cannot be opened
/// as files (not on Unix), there is nothing to do.
fn sync_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::fs::File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use foehold_core::storage::{numbered, write_rotating};

    #[test]
    #[cfg(unix)]
    fn an_endless_file_is_refused_at_its_bound() {
        let err = read_file(Path::new("/dev/zero")).unwrap_err();
        assert_eq!((err.file.as_str(), err.line), ("/dev/zero", 0));
        assert!(err.message.contains("larger than 64 MiB"), "{err}");
        let err = read_file(Path::new("/no/such/file.ron")).unwrap_err();
        assert!(err.message.contains("cannot read file"), "{err}");
    }

    #[test]
    fn rotating_writes_leave_whole_files_and_no_temporary_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("saves/autosave.ron");
        for n in 0..5 {
            write_rotating(&mut Files, &path, format!("save {n}").as_bytes(), 2).unwrap();
        }
        let read = |p: &Path| std::fs::read_to_string(p).unwrap();
        assert_eq!(read(&path), "save 4");
        assert_eq!(read(&numbered(&path, 2)), "save 2");
        let names = Files.list(&dir.path().join("saves")).unwrap();
        assert_eq!(names.len(), 3, "no temporary file is left: {names:?}");
    }
}
