//! The table model the plugins draw from: the board, the figures and what the game says about them.
//!
//! It mirrors the module's view of the game's state; clicks never edit it directly, they become
//! game actions.

use bevy::prelude::*;
use foehold_core::rules::view::{Odds, Panel, TokenInfo};

use super::view::{BoardView, CellKey, FigureInfo, Side, TableView};

/// Everything the table shows.
#[derive(Resource)]
pub struct Table {
    pub title: String,
    /// The scenario's description.
    pub about: String,
    pub board: BoardView,
    pub figures: Vec<FigureInfo>,
    /// Tokens lying on cells (money, loot).
    pub tokens: Vec<TokenInfo>,
    pub round: u32,
    /// Figure whose turn it is.
    pub active: Option<u32>,
    /// Where the game stands, in a few words.
    pub phase: String,
    /// The module's small windows (the round's override card).
    pub panels: Vec<Panel>,
    /// The odds of a roll in progress.
    pub odds: Option<Odds>,
    /// Why the tie waiting for the players is theirs, in the module's words.
    pub tie: Option<String>,
    /// How many times the board changed under a game (a room revealed, a door opened, a trap
    /// sprung): the board is built again when this moves.
    pub board_changes: u64,
    /// How many times the board grew (a room revealed): the camera frames the whole board again.
    pub board_grew: u64,
}

impl Table {
    /// An empty table on a board, before it shows a game.
    pub fn of_view(title: String, about: String, board: BoardView) -> Table {
        Table {
            title,
            about,
            board,
            figures: Vec::new(),
            tokens: Vec::new(),
            round: 0,
            active: None,
            phase: String::new(),
            panels: Vec::new(),
            odds: None,
            tie: None,
            board_changes: 0,
            board_grew: 0,
        }
    }

    /// Follows a rule module's view of the table: the table draws nothing else. When the board
    /// itself changed (cells, ground, doors, thin walls), it is built again.
    pub fn show(&mut self, view: TableView) {
        let board = BoardView::of(&view);
        if !board.same_as(&self.board) {
            if board.cells.len() > self.board.cells.len() {
                self.board_grew += 1;
            }
            self.board = board;
            self.board_changes += 1;
        }
        self.figures = view.figures;
        self.tokens = view.tokens;
        self.round = view.round;
        self.active = view.active;
        self.phase = view.banner;
        self.panels = view.panels;
        self.odds = view.odds;
        self.tie = view.tie;
    }

    pub fn figure(&self, id: u32) -> Option<&FigureInfo> {
        self.figures.iter().find(|f| f.id == id)
    }

    pub fn figure_at(&self, cell: CellKey) -> Option<&FigureInfo> {
        self.figures.iter().find(|f| f.cell == cell && f.hp > 0)
    }

    /// The heroes' names in hero order: the modules list hero figures first, in order.
    pub fn hero_names(&self) -> Vec<&str> {
        self.figures
            .iter()
            .filter(|f| f.side == Side::Hero)
            .map(|f| f.name.as_str())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use foehold_core::rules::view::{CellInfo, Ground};

    fn view(cells: &[((i32, i32), Ground)]) -> TableView {
        TableView {
            cells: cells
                .iter()
                .map(|&(key, ground)| CellInfo {
                    key,
                    ground,
                    door: false,
                    place: None,
                })
                .collect(),
            ..TableView::default()
        }
    }

    #[test]
    fn a_board_that_grows_is_built_again_and_framed_and_one_that_changes_is_built_only() {
        let first = view(&[((0, 0), Ground::Floor), ((1, 0), Ground::Trap)]);
        let mut t = Table::of_view(String::new(), String::new(), BoardView::of(&first));
        t.show(first.clone());
        assert_eq!((t.board_changes, t.board_grew), (0, 0));
        // A trap sprung: the same cells, other ground.
        t.show(view(&[((0, 0), Ground::Floor), ((1, 0), Ground::Floor)]));
        assert_eq!((t.board_changes, t.board_grew), (1, 0));
        // A room revealed: more cells.
        t.show(view(&[
            ((0, 0), Ground::Floor),
            ((1, 0), Ground::Floor),
            ((2, 0), Ground::Floor),
        ]));
        assert_eq!((t.board_changes, t.board_grew), (2, 1));
    }
}
