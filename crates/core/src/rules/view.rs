//! The plain-data picture of a game that the 3D table draws, filled by every rule module.
//!
//! It holds the grid, cells with their ground, walls between cells, figures and what the rules want
//! lit up. The table draws it without knowing the module.

use serde::Serialize;

/// A cell's key: axial `(q, r)` on hex boards, `(x, y)` on square ones.
pub type CellKey = (i32, i32);

/// The shape of the board's cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub enum GridKind {
    /// Flat-topped hexes named by axial `(q, r)`.
    #[default]
    Hex,
    /// Unit squares named by `(x, y)`.
    Square,
}

/// The kinds of ground the table can draw, one colour and shape each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Ground {
    Floor,
    Obstacle,
    Trap,
    Hazard,
    Difficult,
    Icy,
    Wall,
}

impl Ground {
    pub const fn name(self) -> &'static str {
        match self {
            Ground::Floor => "floor",
            Ground::Obstacle => "obstacle",
            Ground::Trap => "trap",
            Ground::Hazard => "hazardous terrain",
            Ground::Difficult => "difficult terrain",
            Ground::Icy => "icy terrain",
            Ground::Wall => "wall",
        }
    }
}

/// One board cell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CellInfo {
    pub key: CellKey,
    pub ground: Ground,
    pub door: bool,
}

/// Which side a figure fights on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Side {
    Hero,
    Foe,
    Ally,
}

/// One figure on (or fallen from) the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FigureInfo {
    /// The figure's id on the table, stable for the whole game.
    pub id: u32,
    pub name: String,
    pub side: Side,
    pub elite: bool,
    /// 0 once it died or is out of the game.
    pub hp: i32,
    pub max_hp: i32,
    pub conditions: Vec<String>,
    pub cell: CellKey,
    /// Hot-seat player owning this figure (heroes only).
    pub owner: Option<u8>,
    /// A colour index so figures of one side stay distinguishable.
    pub tint: usize,
}

/// Tokens lying on cells (money, loot), drawn as small piles.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TokenInfo {
    pub cell: CellKey,
    pub label: String,
}

/// The whole picture.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct TableView {
    pub grid: GridKind,
    pub cells: Vec<CellInfo>,
    /// Walls along the shared edge of two neighbouring cells.
    pub thin_walls: Vec<(CellKey, CellKey)>,
    pub figures: Vec<FigureInfo>,
    pub tokens: Vec<TokenInfo>,
    /// The figure whose turn it is.
    pub active: Option<u32>,
    /// A few words about where the game stands ("Mara's turn", "victory!").
    pub banner: String,
    pub round: u32,
}
