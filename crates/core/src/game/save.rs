//! Saves: the scenario path, the seed, the tie-breaker, the action log and state hashes.
//!
//! The hashes let a replay prove it reached the same game, or name the action where it parted from
//! it. Saves are written so that a crash or a kill leaves the old save or the new one, whole, never a
//! torn file.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::Game;
use crate::error::{LoadError, parse_ron};
use crate::library::Library;
use crate::rules::{Rules, TieBreaker, fnv1a, state_hash};
use crate::storage::{Storage, write_rotating};

/// A save holds at most this many actions (a headless game stops at 200,000).
pub const MAX_ACTIONS: usize = 1_000_000;
/// The most heroes a save seats, and the highest player number it gives one.
pub(crate) const MAX_SEATS: usize = 64;

/// The save format this Foehold writes.
///
/// - 1 (until 2026-11-24, no `format:` field): Gloomhaven's card draws (modifier cards, ability
///   cards, a short rest's lost card) were made by a generator inside the state and were not in
///   the log.
/// - 2 (`format: 2`; before 2026-11-29 written without the field): every draw and roll is a chance
///   action in the log.
///
/// A save without the field is read as either: where its log reaches a draw with no outcome
/// logged, it is a format-1 save, and its draws are rebuilt from the seed by the module
/// ([`Rules::format_1_actions`]: the old generator, run as it ran then); its state hashes, of
/// that format's state, are not compared. A save of a later format is refused, naming both.
pub const SAVE_FORMAT: u32 = 2;

/// How many earlier autosaves [`write_rotating`] keeps next to the newest one.
pub const AUTOSAVES_KEPT: usize = 3;

/// A saved game of the rule module `R`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound = "")]
pub struct Save<R: Rules> {
    /// The save's format ([`SAVE_FORMAT`]); absent in saves of format 1 and older ones of 2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<u32>,
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
    /// [`Rules::library_hash`] of what the scenario took from the library (monster types,
    /// classes) when the game was saved; absent in older saves and for scenarios that take
    /// nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub library_hash: Option<String>,
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
    /// Set when the save is of an earlier format and its log was rebuilt: how, in words. Its
    /// state hashes are of that format's state, so they are not compared.
    pub converted: Option<String>,
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
            format: Some(SAVE_FORMAT),
            rules: R::NAME.to_string(),
            scenario: game.scenario_path.clone(),
            scenario_name: R::scenario_name(&game.scenario).to_string(),
            scenario_hash: game.scenario_hash.clone(),
            library_hash: R::library_hash(&game.scenario),
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

    /// Writes the save to `store`, whole ([`Storage::write`]).
    pub fn write(&self, store: &mut dyn Storage, path: &Path) -> Result<(), String> {
        store.write(path, self.to_ron().as_bytes())
    }

    /// Writes the save as the newest autosave, keeping [`AUTOSAVES_KEPT`] earlier ones (see
    /// [`write_rotating`]).
    pub fn write_autosave(&self, store: &mut dyn Storage, path: &Path) -> Result<(), String> {
        write_rotating(store, path, self.to_ron().as_bytes(), AUTOSAVES_KEPT)
    }

    /// Reads and checks a save.
    pub fn load(store: &dyn Storage, path: &Path) -> Result<Save<R>, LoadError> {
        let text = store.read(path)?;
        Self::parse(&path.display().to_string(), &text)
    }

    /// Parses a save's text; a save of other rules, or a log beyond [`MAX_ACTIONS`], is refused.
    pub fn parse(file: &str, text: &str) -> Result<Save<R>, LoadError> {
        let save: Save<R> = parse_ron(file, text)?;
        if let Some(format) = save.format.filter(|&f| f > SAVE_FORMAT || f == 0) {
            return Err(LoadError::at_text(
                file,
                text,
                "format",
                format!(
                    "the save is of format {format}, which this Foehold does not know: it reads \
                     formats 1 to {SAVE_FORMAT} (a save of a later format comes from a newer \
                     Foehold)"
                ),
            ));
        }
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

    /// Finds the scenario in `store`: as written, else next to the save.
    pub(crate) fn scenario_file(&self, store: &dyn Storage, save_path: &Path) -> PathBuf {
        let p = PathBuf::from(&self.scenario);
        if store.exists(&p) || p.is_absolute() {
            return p;
        }
        save_path
            .parent()
            .map(|d| d.join(&p))
            .filter(|q| store.exists(q))
            .unwrap_or(p)
    }

    /// Rebuilds the game: loads the scenario from `store` and applies every action.
    pub fn replay(&self, store: &dyn Storage, save_path: &Path) -> Result<Game<R>, String> {
        self.replay_report(store, save_path).map(|r| r.game)
    }

    /// [`Save::replay`], the scenario read with `library` (a player's monster types and
    /// classes, found before the built-in ones).
    pub fn replay_in(
        &self,
        store: &dyn Storage,
        save_path: &Path,
        library: &Library,
    ) -> Result<Game<R>, String> {
        self.replay_report_in(store, save_path, library)
            .map(|r| r.game)
    }

    /// Rebuilds the game and reports what differs from the saved one: an edited scenario file, and
    /// the first action after which the state differs. An action the rules refuse is an error (which
    /// names the edited scenario first when that is the likely cause).
    pub fn replay_report(
        &self,
        store: &dyn Storage,
        save_path: &Path,
    ) -> Result<Replay<R>, String> {
        self.replay_report_in(store, save_path, &Library::default())
    }

    /// [`Save::replay_report`], the scenario read with `library` (a player's monster types and
    /// classes, found before the built-in ones): a game of a scenario naming the player's own
    /// entries replays only with them.
    pub fn replay_report_in(
        &self,
        store: &dyn Storage,
        save_path: &Path,
        library: &Library,
    ) -> Result<Replay<R>, String> {
        let file = self.scenario_file(store, save_path);
        // A save names a scenario file; any other file it names is not read (its first words
        // would show in the error).
        if file.extension().is_none_or(|x| x != "ron") {
            return Err(format!(
                "the save names {} as its scenario: expected a .ron scenario file",
                crate::error::printable(&file.display().to_string())
            ));
        }
        let text = store.read(&file).map_err(|e| e.to_string())?;
        let hash = text_hash(&text);
        // Away from the save and not known by its hash: nothing of its text is shown, since the
        // save may name a file that is no scenario.
        let unknown =
            self.scenario_hash.as_ref() != Some(&hash) && !near_the_save(store, &file, save_path);
        let away = || {
            format!(
                "the save names {} as its scenario, away from the save (not in its folder, the \
                 one above it or the working folder), and that file is not the scenario the game \
                 was saved with: a scenario away from its save is read only as it was",
                crate::error::printable(&file.display().to_string())
            )
        };
        if unknown && self.scenario_hash.is_some() {
            return Err(away());
        }
        let mut scenario_changed = match &self.scenario_hash {
            Some(saved) if *saved != hash => Some(format!(
                "the scenario {} has changed since the game was saved (text hash {hash}, the save has {saved})",
                file.display()
            )),
            _ => None,
        };
        // A save written before saves kept the scenario's hash: a scenario away from it is read
        // when it is one of its rules with its name, and says nothing of itself otherwise.
        let scenario = Arc::new(
            R::parse_scenario_in(&file.display().to_string(), &text, library).map_err(|e| {
                if unknown {
                    away()
                } else {
                    noted(&scenario_changed, e.to_string())
                }
            })?,
        );
        let name = R::scenario_name(&scenario);
        if unknown && name != self.scenario_name {
            return Err(away());
        }
        // The same scenario text, built from another library: its monsters or classes differ.
        let library = R::library_hash(&scenario);
        if scenario_changed.is_none()
            && let Some(saved) = &self.library_hash
            && library.as_ref() != Some(saved)
        {
            scenario_changed = Some(format!(
                "the library (the monster types and classes {} takes from it) has changed since \
                 the game was saved (hash {}, the save has {saved})",
                file.display(),
                library.as_deref().unwrap_or("none")
            ));
        }
        if name != self.scenario_name {
            return Err(noted(
                &scenario_changed,
                format!(
                    "the save is for scenario {:?}, {} is {:?}",
                    self.scenario_name,
                    file.display(),
                    name
                ),
            ));
        }
        let start = || {
            Game::new(
                scenario.clone(),
                self.scenario.clone(),
                self.seed,
                self.tie_breaker,
            )
            .map(|g| g.with_scenario_text(&text))
            .map_err(|e| noted(&scenario_changed, e.to_string()))
        };
        let mut game = start()?;
        let mut parted = None;
        // A save that does not say its format may be of format 1, whose draws are not in its log.
        let unmarked = self.format.is_none();
        for (i, a) in self.actions.iter().enumerate() {
            if unmarked && waits_for_a_draw_it_lacks(&game, a) {
                let rebuilt = R::format_1_actions(
                    scenario.clone(),
                    self.seed,
                    self.tie_breaker,
                    &self.actions,
                )
                .map_err(|e| {
                    noted(
                        &scenario_changed,
                        format!(
                            "the save is of format 1 (written before 2026-11-24, when a Gloomhaven \
                         game's card draws were made inside the state and not logged): at \
                         action {} the game draws a card the save does not hold, and its draws \
                         cannot be rebuilt for format {SAVE_FORMAT}: {e}",
                            i + 1
                        ),
                    )
                })?;
                return self.rebuilt(start()?, rebuilt, scenario_changed);
            }
            if let Err(e) = game.apply(a.clone()) {
                let mut msg = format!("action {} ({a:?}) is refused: {e}", i + 1);
                if let Some(p) = &parted {
                    msg = format!("{p}; then {msg}");
                }
                return Err(noted(&scenario_changed, msg));
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
            converted: None,
        })
    }
}

impl<R: Rules> Save<R> {
    /// The game of a format-1 save, played from its rebuilt log (`actions`, draws included).
    fn rebuilt(
        &self,
        mut game: Game<R>,
        actions: Vec<R::Action>,
        scenario_changed: Option<String>,
    ) -> Result<Replay<R>, String> {
        let draws = actions.len() - self.actions.len();
        for (i, a) in actions.into_iter().enumerate() {
            game.apply(a.clone()).map_err(|e| {
                format!(
                    "the format-1 save's rebuilt action {} ({a:?}) is refused: {e}",
                    i + 1
                )
            })?;
        }
        Ok(Replay {
            game,
            scenario_changed,
            parted: None,
            converted: Some(format!(
                "the save is of format 1 (written before 2026-11-24): its {draws} draws were \
                 rebuilt from seed {} as that format's rules drew them, for format {SAVE_FORMAT}; \
                 its state hashes are of format 1's state and are not compared",
                self.seed
            )),
        })
    }
}

/// Whether a save's scenario lies near the save: in the save's folder, the folder above it, or
/// the working folder, with their subfolders, links followed (a save shared with its scenario
/// beside it, or a `saves/` folder beside `scenarios/`). A scenario away from its save is read only
/// unchanged (its text hash the save's), so that a save cannot make a program read another file
/// and print its first words in an error, while the table's own saves of a scenario opened from
/// anywhere still load. A store that cannot locate its entries counts every file as near.
fn near_the_save(store: &dyn Storage, file: &Path, save: &Path) -> bool {
    let Some(real) = store.locate(file) else {
        return true;
    };
    let folder = save
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    [folder.to_path_buf(), folder.join(".."), PathBuf::from(".")]
        .iter()
        .filter_map(|root| store.locate(root))
        .any(|root| real.starts_with(root))
}

/// Whether the game waits for a chance outcome (a card drawn) and the save's next action is not
/// one: the mark of a format-1 save, whose draws were never logged.
fn waits_for_a_draw_it_lacks<R: Rules>(game: &Game<R>, next: &R::Action) -> bool {
    matches!(game.to_move(), crate::rules::ToMove::Chance { .. })
        && !game
            .legal_actions(crate::rules::Seat::Chance)
            .contains(next)
}

/// `e`, after the note that the scenario or its library changed, when one did.
fn noted(changed: &Option<String>, e: String) -> String {
    match changed {
        Some(note) => format!("{note}; {e}"),
        None => e,
    }
}
