//! Mirrors the game's `State` into the table model: figures with their cells, hit points, conditions
//! and owners. Figure ids on the table: hero `i` is `i`, monster `i` is `MONSTER_BASE + i`.

use foehold_core::rules::gloomhaven::Gloomhaven;
use foehold_core::rules::gloomhaven::state::State;
use foehold_core::rules::{Rules, view};

use super::view::{BoardView, FigureView, Side};

pub use foehold_core::rules::gloomhaven::{figure_id, phase_words, table_id};

pub fn board(state: &State) -> BoardView {
    BoardView::from_hex_map(&state.map.0, &[])
}

/// Every figure of the game as the table draws it (dead monsters with 0 hit points, so they fall),
/// from the rule module's own view of the table.
pub fn figures(state: &State) -> Vec<FigureView> {
    Gloomhaven::view(state)
        .figures
        .into_iter()
        .map(|f| FigureView {
            id: f.id,
            name: f.name,
            side: match f.side {
                view::Side::Hero => Side::Hero,
                view::Side::Foe => Side::Foe,
                view::Side::Ally => Side::Ally,
            },
            elite: f.elite,
            hp: f.hp,
            max_hp: f.max_hp,
            conditions: f.conditions,
            cell: f.cell,
            owner: f.owner,
            tint: f.tint,
        })
        .collect()
}

/// The figure whose turn it is, as a table id.
pub fn active(state: &State) -> Option<u32> {
    state.acting().map(table_id)
}
