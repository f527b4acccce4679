//! The table model the plugins draw from: the board, the figures and what the game says about them.
//!
//! It mirrors the game's state; clicks never edit it directly, they become game actions.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use bevy::prelude::*;
use foehold_core::rules::gloomhaven::{Game, Gloomhaven, Scenario, State, TieBreaker};
use foehold_core::rules::view::{Odds, Panel, TokenInfo};
use foehold_core::rules::{Present, Rules, rules_name};

use super::Options;
use super::gloomhaven::story::{Told, retell};
use super::view::{BoardView, CellKey, FigureInfo, TableView};

/// Everything the table shows.
#[derive(Resource)]
pub struct Table {
    pub title: String,
    pub board: BoardView,
    pub figures: Vec<FigureInfo>,
    /// Tokens lying on cells (money, loot).
    pub tokens: Vec<TokenInfo>,
    pub round: u32,
    /// Figure whose turn it is.
    pub active: Option<u32>,
    /// The log so far, told from the game's actions.
    pub told: Told,
    /// A label per action of the game's log (undone ones too), for the history.
    pub history: Vec<String>,
    /// Where the game stands, in a few words.
    pub phase: String,
    /// Bumped when a new game replaces the board, so the board and minis are built again.
    pub generation: u32,
    /// The module's small windows (the round's override card).
    pub panels: Vec<Panel>,
    /// The odds of a roll in progress.
    pub odds: Option<Odds>,
}

impl Table {
    /// An empty table on a board, before it shows a game.
    pub fn of_view(title: String, board: BoardView) -> Table {
        Table {
            title,
            board,
            figures: Vec::new(),
            tokens: Vec::new(),
            round: 0,
            active: None,
            told: Told::default(),
            history: Vec::new(),
            phase: String::new(),
            generation: 0,
            panels: Vec::new(),
            odds: None,
        }
    }

    /// The table of a game at its current state.
    pub fn of_game(game: &Game) -> Table {
        let view = Gloomhaven::view(&game.state);
        let title = Gloomhaven::scenario_name(&game.scenario).to_string();
        let mut t = Table::of_view(title, BoardView::of(&view));
        t.show(view);
        t.retell(game);
        t
    }

    /// Tells the log and the history again from the game's action log (after an undo, a redo, a
    /// jump or a load), so they always match the game.
    pub fn retell(&mut self, game: &Game) {
        (self.told, self.history) = retell(game);
    }

    /// Follows the game's state (figures, turn, round); the board never changes during a game.
    pub fn refresh(&mut self, s: &State) {
        self.show(Gloomhaven::view(s));
    }

    /// Follows a rule module's view of the table: the table draws nothing else.
    pub fn show(&mut self, view: TableView) {
        self.figures = view.figures;
        self.tokens = view.tokens;
        self.round = view.round;
        self.active = view.active;
        self.phase = view.banner;
        self.panels = view.panels;
        self.odds = view.odds;
    }

    pub fn figure(&self, id: u32) -> Option<&FigureInfo> {
        self.figures.iter().find(|f| f.id == id)
    }

    pub fn figure_at(&self, cell: CellKey) -> Option<&FigureInfo> {
        self.figures.iter().find(|f| f.cell == cell && f.hp > 0)
    }
}

/// The scenario the table opens without an argument (a Gloomhaven one: the fallback of a file that
/// would not open is started by the hex table).
pub fn default_scenario() -> Option<PathBuf> {
    let preferred = PathBuf::from("scenarios/tutorial.ron");
    if preferred.exists() {
        return Some(preferred);
    }
    scenario_files().into_iter().find(|p| is_gloomhaven(p))
}

/// Whether the scenario file in `path` is played by the Gloomhaven rules (the hex table's own).
pub fn is_gloomhaven(path: &Path) -> bool {
    foehold_core::error::read_file(path).is_ok_and(|text| rules_name(&text) == Gloomhaven::NAME)
}

/// Scenario files under `scenarios/`, of every rule module, sorted.
pub fn scenario_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir("scenarios")
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Starts a new game of a scenario file; errors name the file, line and column.
pub fn new_game(path: &Path, seed: u64) -> Result<Game, String> {
    let text = foehold_core::error::read_file(path).map_err(|e| e.to_string())?;
    let scenario =
        Scenario::parse(&path.display().to_string(), &text).map_err(|e| e.to_string())?;
    Game::new(
        Arc::new(scenario),
        path.display().to_string(),
        seed,
        TieBreaker::Table,
    )
    .map(|g| g.with_scenario_text(&text))
    .map_err(|e| format!("{}: {e}", path.display()))
}

/// Opens the game the command line asks for.
pub fn open(options: &Options) -> Result<Game, String> {
    let path = match &options.scenario {
        Some(p) => p.clone(),
        None => default_scenario().ok_or("no scenario given and none found under scenarios/")?,
    };
    new_game(&path, options.seed)
}
