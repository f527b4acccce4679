//! Saves: the scenario path, the seed, the tie-breaker and the action log, plus the final state hash so
//! a replay can prove it reached the same game. Written atomically (temporary file + rename).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::Game;
use crate::error::{LoadError, parse_ron, read_file};
use crate::rules::{Rules, TieBreaker, state_hash};

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
}

impl<R: Rules> Save<R> {
    /// The save of a game's actions in effect.
    pub fn of(game: &Game<R>) -> Save<R> {
        Save {
            rules: R::NAME.to_string(),
            scenario: game.scenario_path.clone(),
            scenario_name: R::scenario_name(&game.scenario).to_string(),
            seed: game.seed,
            tie_breaker: game.tie_breaker,
            round: R::round(&game.state),
            state_hash: state_hash(&game.state),
            actions: game.actions().to_vec(),
        }
    }

    /// The save as RON text.
    pub fn to_ron(&self) -> String {
        let cfg = ron::ser::PrettyConfig::new()
            .depth_limit(2)
            .indentor("  ".to_string());
        ron::ser::to_string_pretty(self, cfg).unwrap_or_default()
    }

    /// Writes the save atomically: a temporary file in the same directory, then a rename.
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        write_atomic(path, self.to_ron().as_bytes())
    }

    /// Reads and checks a save file.
    pub fn load(path: &Path) -> Result<Save<R>, LoadError> {
        let text = read_file(path)?;
        Self::parse(&path.display().to_string(), &text)
    }

    /// Parses a save's text; a save of other rules is refused.
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
        let file = self.scenario_file(save_path);
        let text = read_file(&file).map_err(|e| e.to_string())?;
        let scenario =
            R::parse_scenario(&file.display().to_string(), &text).map_err(|e| e.to_string())?;
        let name = R::scenario_name(&scenario);
        if name != self.scenario_name {
            return Err(format!(
                "the save is for scenario {:?}, {} is {:?}",
                self.scenario_name,
                file.display(),
                name
            ));
        }
        let mut game = Game::new(
            Arc::new(scenario),
            self.scenario.clone(),
            self.seed,
            self.tie_breaker,
        )
        .map_err(|e| e.to_string())?;
        for (i, a) in self.actions.iter().enumerate() {
            game.apply(a.clone())
                .map_err(|e| format!("action {} ({a:?}) is refused: {e}", i + 1))?;
        }
        Ok(game)
    }
}

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename, so that a
/// crash never leaves a half-written file behind.
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
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}
