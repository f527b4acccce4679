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

    fn locate(&self, name: &Path) -> Option<PathBuf> {
        std::fs::canonicalize(name).ok()
    }
}

/// Reads a whole file, mapping I/O failures to a [`LoadError`] about that file.
///
/// Only a regular file is read, and only up to [`MAX_ENTRY_BYTES`]: a folder, a device or a pipe is
/// refused before it is opened (a pipe would wait for a writer forever), and a file too large
/// before a byte is read. A UTF-8 byte-order mark at the start is dropped, as editors write one.
pub fn read_file(path: &Path) -> Result<String, LoadError> {
    use std::io::Read;
    let name = path.display().to_string();
    let fail = |e: std::io::Error| LoadError::whole(&name, format!("cannot read file: {e}"));
    let refuse = |meta: &std::fs::Metadata| -> Result<(), LoadError> {
        if !meta.is_file() {
            return Err(LoadError::whole(
                &name,
                "not a regular file (a folder, a device or a pipe): expected a data file",
            ));
        }
        if meta.len() > MAX_ENTRY_BYTES {
            return Err(too_large(&name));
        }
        Ok(())
    };
    refuse(&std::fs::metadata(path).map_err(fail)?)?;
    let file = std::fs::File::open(path).map_err(fail)?;
    // What was opened is checked again: the path may have been changed in between.
    refuse(&file.metadata().map_err(fail)?)?;
    // Room for a whole case file, so it is read in one call rather than in growing pieces.
    let mut text = String::with_capacity(32 << 10);
    file.take(MAX_ENTRY_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(fail)?;
    if text.len() as u64 > MAX_ENTRY_BYTES {
        return Err(too_large(&name));
    }
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}

fn too_large(name: &str) -> LoadError {
    LoadError::whole(
        name,
        format!(
            "the file is larger than {} MiB: expected a data file",
            MAX_ENTRY_BYTES >> 20
        ),
    )
}

/// Writes `bytes` to `path` so that the file is always the old content or the new one, whole.
///
/// A temporary file in the same directory, created exclusively under a name nobody can guess (so
/// no file or link planted ahead is written through), is flushed to disk and renamed over `path`,
/// and the directory is flushed so that the rename itself survives a crash. A failed write removes
/// its temporary file, and one left by a process killed mid-write is removed by the next write.
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
    let prefix = format!(".{name}.");
    remove_stale(dir, &prefix);
    let mut tmp = tempfile::Builder::new()
        .prefix(&prefix)
        .suffix(TEMPORARY)
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    // On an error the temporary file is removed as it is dropped.
    tmp.persist(path).map_err(|e| e.error)?;
    sync_dir(dir)
}

/// How the temporary files of [`write_atomic`] end.
const TEMPORARY: &str = ".tmp";

/// A temporary file this old was left by a write that never finished (a write takes milliseconds).
const STALE: std::time::Duration = std::time::Duration::from_secs(60);

/// Removes the temporary files for one target that writes killed midway left in `dir`.
fn remove_stale(dir: &Path, prefix: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let file = file.to_string_lossy();
        let old = entry
            .metadata()
            .ok()
            .filter(std::fs::Metadata::is_file)
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > STALE);
        if old && file.starts_with(prefix) && file.ends_with(TEMPORARY) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
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
    fn only_a_regular_file_within_the_bound_is_read_and_a_byte_order_mark_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        // A pipe with no writer would block a read forever: it is refused before it is opened.
        let fifo = dir.path().join("pipe.ron");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        let mut refused: Vec<&Path> = vec![Path::new("/dev/zero"), dir.path()];
        if made.is_ok_and(|s| s.success()) {
            refused.push(&fifo);
        }
        for path in refused {
            let err = read_file(path).unwrap_err();
            assert_eq!(err.line, 0);
            assert!(err.message.contains("not a regular file"), "{err}");
        }
        let big = dir.path().join("big.ron");
        let f = std::fs::File::create(&big).unwrap();
        f.set_len(MAX_ENTRY_BYTES + 1).unwrap();
        let err = read_file(&big).unwrap_err();
        assert!(err.message.contains("larger than 64 MiB"), "{err}");
        let err = read_file(Path::new("/no/such/file.ron")).unwrap_err();
        assert!(err.message.contains("cannot read file"), "{err}");
        let marked = dir.path().join("marked.ron");
        std::fs::write(&marked, "\u{feff}(rules: Goals)").unwrap();
        assert_eq!(read_file(&marked).unwrap(), "(rules: Goals)");
    }

    #[test]
    #[cfg(unix)]
    fn a_save_never_writes_through_a_planted_link_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("precious.txt");
        std::fs::write(&target, "keep me").unwrap();
        let save = dir.path().join("game.ron");
        // The name a writer that named its temporary file after the process would use, planted as
        // a link to another file.
        let guess = format!(".game.ron.tmp{}", std::process::id());
        std::os::unix::fs::symlink(&target, dir.path().join(guess)).unwrap();
        // A temporary file a killed write left a while ago.
        let left = dir.path().join(".game.ron.abc123.tmp");
        let f = std::fs::File::create(&left).unwrap();
        f.set_modified(std::time::SystemTime::now() - 2 * STALE)
            .unwrap();
        write_atomic(&save, b"the save").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
        assert_eq!(std::fs::read_to_string(&save).unwrap(), "the save");
        assert!(!left.exists(), "a stale temporary file is removed");
        let temporary = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(TEMPORARY))
            .count();
        assert_eq!(temporary, 0);
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
