//! Mirrors the game's `State` into the table model: figures with their cells, hit points, conditions
//! and owners. Figure ids on the table: hero `i` is `i`, monster `i` is `MONSTER_BASE + i`.

use foehold_core::hex::qr;
use foehold_core::rules::gloomhaven::state::{FigureId, Phase, State};

use super::view::{BoardView, FigureView, Side};

pub const MONSTER_BASE: u32 = 1000;

pub fn table_id(f: FigureId) -> u32 {
    match f {
        FigureId::Hero(i) => i as u32,
        FigureId::Monster(i) => MONSTER_BASE + i as u32,
    }
}

pub fn figure_id(id: u32) -> FigureId {
    if id >= MONSTER_BASE {
        FigureId::Monster((id - MONSTER_BASE) as usize)
    } else {
        FigureId::Hero(id as usize)
    }
}

pub fn board(state: &State) -> BoardView {
    BoardView::from_hex_map(&state.map.0, &[])
}

/// Every figure of the game as the table draws it (dead monsters with 0 hit points, so they fall).
pub fn figures(state: &State) -> Vec<FigureView> {
    let mut out = Vec::new();
    for (i, h) in state.heroes.iter().enumerate() {
        let f = FigureId::Hero(i);
        out.push(FigureView {
            id: table_id(f),
            name: state.name(f),
            side: Side::Hero,
            elite: false,
            hp: if h.exhausted { 0 } else { h.hp },
            max_hp: h.max_hp,
            conditions: h
                .conditions
                .iter()
                .map(|c| c.condition.name().to_string())
                .collect(),
            cell: qr(h.hex),
            owner: Some(state.scenario.heroes[i].player as u8),
            tint: i,
        });
    }
    for (i, m) in state.monsters.iter().enumerate() {
        let f = FigureId::Monster(i);
        out.push(FigureView {
            id: table_id(f),
            name: state.name(f),
            side: Side::Foe,
            elite: m.elite,
            hp: if m.alive { m.hp } else { 0 },
            max_hp: m.max_hp,
            conditions: m
                .conditions
                .iter()
                .map(|c| c.condition.name().to_string())
                .collect(),
            cell: qr(m.hex),
            owner: None,
            tint: m.kind,
        });
    }
    out
}

/// The figure whose turn it is, as a table id.
pub fn active(state: &State) -> Option<u32> {
    state.acting().map(table_id)
}

/// A few words for the banner about where the game stands.
pub fn phase_words(state: &State) -> String {
    match state.phase {
        Phase::Setup => "setting up".into(),
        Phase::CardSelection => "choose cards".into(),
        Phase::HeroTurn { hero, .. } => format!("{}'s turn", state.name(FigureId::Hero(hero))),
        Phase::FoeTurn { monster, .. } => {
            format!("{} acts", state.name(FigureId::Monster(monster)))
        }
        Phase::RoundEnd => "round end".into(),
        Phase::Victory => "victory!".into(),
        Phase::Defeat => "defeat".into(),
    }
}
