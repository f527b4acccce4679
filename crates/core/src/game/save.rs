//! Saves: the scenario path, the seed, the tie-breaker, the action log and state hashes.
//!
//! The hashes let a replay prove it reached the same game, or name the action where it parted from
//! it. Saves are written so that a crash or a kill leaves the old save or the new one, whole, never a
//! torn file.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::Game;
use crate::error::{LoadError, parse_ron, read_file};
use crate::rules::{Rules, TieBreaker, fnv1a, state_hash};

/// A save holds at most this many actions (a headless game stops at 200,000).
pub const MAX_ACTIONS: usize = 1_000_000;
/// The most heroes a save seats, and the highest player number it gives one.
pub const MAX_SEATS: usize = 64;

/// How many earlier autosaves [`write_rotating`] keeps next to the newest one.
pub const AUTOSAVES_KEPT: usize = 3;

/// A saved game of the rule module `R`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound = "")]
pub struct Save<R: Rules> {
    /// The rule module the game is played by (`rules: Gloomhaven`); loading dispatches on it.
    pub rules: String,
    /// The scenario file, as given when the game started (relative paths are tried from the current
    /// directory, then from the save's directory).
    pub scenario: String,
    /// The scenario's name, to catch a save replayed against another scenario.
    pub scenario_name: String,
    /// [`text_hash`] of the scenario file when the game started; absent in older saves.
    #[serde(default)]
    pub scenario_hash: Option<String>,
    /// The seed of the game's random draws.
    pub seed: u64,
    /// Who breaks ties the rules leave open.
    pub tie_breaker: TieBreaker,
    /// The round reached, to show before loading.
    pub round: u32,
    /// `State::state_hash` after the actions.
    pub state_hash: String,
    /// The actions in effect, in order: replaying them rebuilds the game.
    pub actions: Vec<R::Action>,
    /// `State::state_hash` after each action, in order; absent in older saves.
    #[serde(default)]
    pub hashes: Vec<String>,
    /// Who played each hero at the table that saved it: a player number (from 1) per hero, in
    /// hero order; absent in saves written without a table and in older ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<Vec<u32>>,
}

/// Where a replay parted from the saved game: the first action after which the states differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parting {
    /// 1-based number of the action in the log.
    pub action: usize,
    /// The action, as written in the save.
    pub description: String,
    /// The state hash the save recorded after it.
    pub saved: String,
    /// The state hash the replay reached after it.
    pub replayed: String,
}

impl std::fmt::Display for Parting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the replay parts from the saved game at action {} ({}): state hash {} instead of {}",
            self.action, self.description, self.replayed, self.saved
        )
    }
}

/// A save replayed, with what differs from the game that was saved.
#[derive(Debug)]
pub struct Replay<R: Rules> {
    /// The game the replay reached.
    pub game: Game<R>,
    /// Set when the scenario file is not the text the game was started from: why, in words.
    pub scenario_changed: Option<String>,
    /// The first action whose result differs from the saved game's, when the save records hashes.
    pub parted: Option<Parting>,
}

/// The hash of a scenario file's text that saves record: 16 hex digits of FNV-1a.
pub fn text_hash(text: &str) -> String {
    format!("{:016x}", fnv1a(text.as_bytes()))
}

impl<R: Rules> Save<R> {
    /// The save of a game. Replays the log once from the initial state to record the state hash
    /// after every action.
    pub fn of(game: &Game<R>) -> Save<R> {
        let mut state = game.initial().clone();
        let hashes = game
            .actions()
            .iter()
            .map(|a| {
                // Every logged action was accepted once from the same state, so it is again.
                let _ = R::apply(&mut state, a.clone());
                state_hash(&state)
            })
            .collect();
        Save {
            rules: R::NAME.to_string(),
            scenario: game.scenario_path.clone(),
            scenario_name: R::scenario_name(&game.scenario).to_string(),
            scenario_hash: game.scenario_hash.clone(),
            seed: game.seed,
            tie_breaker: game.tie_breaker,
            round: R::round(&game.state),
            state_hash: state_hash(&game.state),
            actions: game.actions().to_vec(),
            hashes,
            seats: None,
        }
    }

    /// The save as RON text.
    pub fn to_ron(&self) -> String {
        let cfg = ron::ser::PrettyConfig::new()
            .depth_limit(2)
            .indentor("  ".to_string());
        ron::ser::to_string_pretty(self, cfg).unwrap_or_default()
    }

    /// Writes the save atomically (see [`write_atomic`]).
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        write_atomic(path, self.to_ron().as_bytes())
    }

    /// Writes the save as the newest autosave, keeping [`AUTOSAVES_KEPT`] earlier ones (see
    /// [`write_rotating`]).
    pub fn write_autosave(&self, path: &Path) -> std::io::Result<()> {
        write_rotating(path, self.to_ron().as_bytes(), AUTOSAVES_KEPT)
    }

    /// Reads and checks a save file.
    pub fn load(path: &Path) -> Result<Save<R>, LoadError> {
        let text = read_file(path)?;
        Self::parse(&path.display().to_string(), &text)
    }

    /// Parses a save's text; a save of other rules, or a log beyond [`MAX_ACTIONS`], is refused.
    pub fn parse(file: &str, text: &str) -> Result<Save<R>, LoadError> {
        let save: Save<R> = parse_ron(file, text)?;
        if save.rules != R::NAME {
            return Err(LoadError::at_text(
                file,
                text,
                "rules",
                format!(
                    "expected a save of the {} rules, found {}",
                    R::NAME,
                    save.rules
                ),
            ));
        }
        if save.actions.len() > MAX_ACTIONS {
            return Err(LoadError::at_text(
                file,
                text,
                "actions:",
                format!(
                    "`actions` lists {} actions: expected at most {MAX_ACTIONS}",
                    save.actions.len()
                ),
            ));
        }
        if let Some((i, why)) = save
            .actions
            .iter()
            .enumerate()
            .find_map(|(i, a)| R::check_action(a).err().map(|why| (i, why)))
        {
            return Err(LoadError::at_text(
                file,
                text,
                "actions:",
                format!("`actions`, action {}: {why}", i + 1),
            ));
        }
        if let Some(seats) = &save.seats
            && (seats.len() > MAX_SEATS || seats.iter().any(|&p| p == 0 || p > MAX_SEATS as u32))
        {
            return Err(LoadError::at_text(
                file,
                text,
                "seats:",
                format!(
                    "`seats` gives a player from 1 to {MAX_SEATS} to each of at most {MAX_SEATS} heroes"
                ),
            ));
        }
        if !save.hashes.is_empty() && save.hashes.len() != save.actions.len() {
            return Err(LoadError::at_text(
                file,
                text,
                "hashes:",
                format!(
                    "`hashes` lists {} hashes for {} actions: expected one per action",
                    save.hashes.len(),
                    save.actions.len()
                ),
            ));
        }
        Ok(save)
    }

    /// Finds the scenario file: as written, else next to the save.
    pub fn scenario_file(&self, save_path: &Path) -> PathBuf {
        let p = PathBuf::from(&self.scenario);
        if p.exists() || p.is_absolute() {
            return p;
        }
        save_path
            .parent()
            .map(|d| d.join(&p))
            .filter(|q| q.exists())
            .unwrap_or(p)
    }

    /// Rebuilds the game: loads the scenario and applies every action.
    pub fn replay(&self, save_path: &Path) -> Result<Game<R>, String> {
        self.replay_report(save_path).map(|r| r.game)
    }

    /// Rebuilds the game and reports what differs from the saved one: an edited scenario file, and
    /// the first action after which the state differs. An action the rules refuse is an error (which
    /// names the edited scenario first when that is the likely cause).
    pub fn replay_report(&self, save_path: &Path) -> Result<Replay<R>, String> {
        let file = self.scenario_file(save_path);
        let text = read_file(&file).map_err(|e| e.to_string())?;
        let hash = text_hash(&text);
        let scenario_changed = match &self.scenario_hash {
            Some(saved) if *saved != hash => Some(format!(
                "the scenario {} has changed since the game was saved (text hash {hash}, the save has {saved})",
                file.display()
            )),
            _ => None,
        };
        let with_note = |e: String| match &scenario_changed {
            Some(note) => format!("{note}; {e}"),
            None => e,
        };
        let scenario = R::parse_scenario(&file.display().to_string(), &text)
            .map_err(|e| with_note(e.to_string()))?;
        let name = R::scenario_name(&scenario);
        if name != self.scenario_name {
            return Err(with_note(format!(
                "the save is for scenario {:?}, {} is {:?}",
                self.scenario_name,
                file.display(),
                name
            )));
        }
        let mut game = Game::new(
            Arc::new(scenario),
            self.scenario.clone(),
            self.seed,
            self.tie_breaker,
        )
        .map_err(|e| with_note(e.to_string()))?
        .with_scenario_text(&text);
        let mut parted = None;
        for (i, a) in self.actions.iter().enumerate() {
            if let Err(e) = game.apply(a.clone()) {
                let mut msg = format!("action {} ({a:?}) is refused: {e}", i + 1);
                if let Some(p) = &parted {
                    msg = format!("{p}; then {msg}");
                }
                return Err(with_note(msg));
            }
            if parted.is_none()
                && let Some(saved) = self.hashes.get(i)
            {
                let replayed = state_hash(&game.state);
                if replayed != *saved {
                    parted = Some(Parting {
                        action: i + 1,
                        description: format!("{a:?}"),
                        saved: saved.clone(),
                        replayed,
                    });
                }
            }
        }
        Ok(Replay {
            game,
            scenario_changed,
            parted,
        })
    }
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

/// The `k`-th earlier version of `path`: `autosave.ron` → `autosave-k.ron`.
pub fn numbered(path: &Path, k: usize) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{k}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{k}"),
    };
    path.with_file_name(name)
}

/// Writes `bytes` as the newest of rotating saves.
///
/// `path` gets the new content and the earlier
/// ones move down to `path-1`, … `path-keep` (the oldest is dropped). Each step copies a whole file
/// and replaces its destination atomically, oldest first, so every name always holds a whole save
/// whatever moment the process is killed at.
pub fn write_rotating(path: &Path, bytes: &[u8], keep: usize) -> std::io::Result<()> {
    for k in (1..=keep).rev() {
        let from = if k == 1 {
            path.to_path_buf()
        } else {
            numbered(path, k - 1)
        };
        match std::fs::read(&from) {
            Ok(old) => write_atomic(&numbered(path, k), &old)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    write_atomic(path, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotating_writes_keep_the_earlier_saves_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("autosave.ron");
        for n in 0..5 {
            write_rotating(&path, format!("save {n}").as_bytes(), 2).unwrap();
        }
        let read = |p: &Path| std::fs::read_to_string(p).unwrap();
        assert_eq!(read(&path), "save 4");
        assert_eq!(read(&numbered(&path, 1)), "save 3");
        assert_eq!(read(&numbered(&path, 2)), "save 2");
        assert!(!numbered(&path, 3).exists());
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 3, "no temporary file is left: {names:?}");
    }

    #[test]
    fn numbered_names_keep_the_extension() {
        assert_eq!(
            numbered(Path::new("saves/autosave.ron"), 2),
            PathBuf::from("saves/autosave-2.ron")
        );
        assert_eq!(numbered(Path::new("save"), 1), PathBuf::from("save-1"));
    }
}
