//! A writer of saves killed at random moments always leaves whole saves on disk, never a torn file.
//!
//! Kills a process that writes rotating autosaves, many times over, and checks that every save file is
//! one whole save (the old one or the new one) each time.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use foehold_core::rules::gloomhaven::Save;
use foehold_core::storage::numbered;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A small seeded generator, so that a failing run can be repeated.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// The file is absent or a whole save: it parses and reads back to exactly the same text.
fn whole_or_absent(path: &Path) -> Result<bool, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let save = Save::parse(&path.display().to_string(), &text).map_err(|e| e.to_string())?;
    if save.to_ron() != text {
        return Err(format!("{}: not a whole save:\n{text}", path.display()));
    }
    Ok(true)
}

#[test]
fn a_writer_killed_at_any_moment_leaves_whole_saves() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("autosave.ron");
    let names: Vec<PathBuf> = std::iter::once(save.clone())
        .chain((1..=foehold_core::game::save::AUTOSAVES_KEPT).map(|k| numbered(&save, k)))
        .collect();
    let mut rng = XorShift(0x5eed_cafe);
    let mut existed = vec![false; names.len()];
    let kills = 40;
    for round in 0..kills {
        let mut child = Command::new(env!("CARGO_BIN_EXE_foehold"))
            .args(["write-saves-forever", "scenarios/tutorial.ron"])
            .arg(&save)
            .current_dir(root())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("run the writer");
        std::thread::sleep(Duration::from_micros(2_000 + rng.below(150_000)));
        // SIGKILL on Unix: no handler runs, the process stops wherever it is.
        child.kill().expect("kill the writer");
        child.wait().expect("reap the writer");
        for (i, name) in names.iter().enumerate() {
            match whole_or_absent(name) {
                Ok(true) => existed[i] = true,
                Ok(false) => assert!(
                    !existed[i],
                    "kill {round}: {} disappeared after it had been written",
                    name.display()
                ),
                Err(e) => panic!("kill {round}: {e}"),
            }
        }
    }
    assert!(
        existed[0],
        "the writer wrote at least one save in {kills} runs"
    );
}
