//! What the table shows, independent of the grid and of the rule module: cells with their outline and
//! terrain, walls between cells, and figures standing on cells. Hex boards are converted here; a square
//! grid only needs another converter.

use bevy::prelude::*;
use foehold_core::hex::sight;
use foehold_core::hex::{self, Hex, HexMap, Terrain};

/// A board cell's key: axial `(q, r)` on hex boards, `(x, y)` on square ones.
pub type CellKey = (i32, i32);

/// The kinds of ground the table can draw, one colour and shape each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
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
    pub fn from_terrain(t: Terrain) -> Self {
        match t {
            Terrain::Floor => Ground::Floor,
            Terrain::Obstacle => Ground::Obstacle,
            Terrain::Trap => Ground::Trap,
            Terrain::Hazard => Ground::Hazard,
            Terrain::Difficult => Ground::Difficult,
            Terrain::Icy => Ground::Icy,
            Terrain::Wall => Ground::Wall,
        }
    }

    pub fn name(self) -> &'static str {
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

/// One board cell as drawn: centre and outline on the table plane (x right, y away from the viewer).
#[derive(Debug, Clone)]
pub struct CellView {
    pub key: CellKey,
    pub centre: Vec2,
    pub corners: Vec<Vec2>,
    pub ground: Ground,
    pub door: bool,
}

/// The board as drawn.
#[derive(Debug, Clone, Default, Resource)]
pub struct BoardView {
    pub cells: Vec<CellView>,
    /// Thin walls as segments on the table plane.
    pub thin_walls: Vec<(Vec2, Vec2)>,
}

impl BoardView {
    /// The drawing of a hex board (flat-topped hexes of side 1, as the rules core measures them).
    pub fn from_hex_map(map: &HexMap, doors: &[Hex]) -> Self {
        let cells = map
            .hexes()
            .iter()
            .enumerate()
            .map(|(i, &h)| CellView {
                key: hex::qr(h),
                centre: hex_centre(h),
                corners: (0..6).map(|k| point(sight::corner(h, k))).collect(),
                ground: Ground::from_terrain(map.terrain_at(i)),
                door: doors.contains(&h),
            })
            .collect();
        let thin_walls = map
            .thin_walls()
            .into_iter()
            .filter_map(|(a, b)| {
                let d = hex::direction_to(a, b)?;
                Some((point(sight::corner(a, d)), point(sight::corner(a, d + 1))))
            })
            .collect();
        BoardView { cells, thin_walls }
    }

    pub fn cell(&self, key: CellKey) -> Option<&CellView> {
        self.cells.iter().find(|c| c.key == key)
    }

    /// Where a cell's centre sits on the table (y up in world space).
    pub fn world(&self, key: CellKey) -> Vec3 {
        self.cell(key)
            .map(|c| plane_to_world(c.centre))
            .unwrap_or(Vec3::ZERO)
    }

    /// Centre and radius of the board, for framing it with the camera.
    pub fn bounds(&self) -> (Vec3, f32) {
        if self.cells.is_empty() {
            return (Vec3::ZERO, 5.0);
        }
        let (mut lo, mut hi) = (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN));
        for c in &self.cells {
            lo = lo.min(c.centre);
            hi = hi.max(c.centre);
        }
        let mid = (lo + hi) / 2.0;
        (plane_to_world(mid), ((hi - lo).length() / 2.0).max(3.0))
    }
}

fn point(p: sight::Point) -> Vec2 {
    Vec2::new(p.x as f32, p.y as f32)
}

pub fn hex_centre(h: Hex) -> Vec2 {
    point(sight::centre(h))
}

/// The table plane's y axis points away from the viewer, which is world -z.
pub fn plane_to_world(p: Vec2) -> Vec3 {
    Vec3::new(p.x, 0.0, -p.y)
}

/// Which side a figure fights on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Side {
    Hero,
    Foe,
    Ally,
}

/// One figure as drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct FigureView {
    pub id: u32,
    pub name: String,
    pub side: Side,
    pub elite: bool,
    pub hp: i32,
    pub max_hp: i32,
    pub conditions: Vec<String>,
    pub cell: CellKey,
    /// Hot-seat player owning this figure (heroes only).
    pub owner: Option<u8>,
    /// A colour index so figures of one side stay distinguishable.
    pub tint: usize,
}
