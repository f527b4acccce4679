//! What the table draws, from the plain-data view every rule module gives: cell outlines on the table
//! plane for hex and square grids, walls between cells, and the figures standing on cells.

use bevy::prelude::*;
use foehold_core::hex::{self, Hex, sight};

pub use foehold_core::rules::view::{CellKey, FigureInfo, Gear, GridKind, Ground, Side, TableView};

/// A square cell's side on the table: about a hex's width, so minis fit either board.
pub const SQUARE: f32 = 1.6;

/// One board cell as drawn: centre and outline on the table plane (x right, y away from the viewer).
#[derive(Debug, Clone)]
pub struct CellView {
    pub key: CellKey,
    pub centre: Vec2,
    pub corners: Vec<Vec2>,
    pub ground: Ground,
    pub door: bool,
    /// The place the scenario names it part of.
    pub place: Option<String>,
}

impl CellView {
    /// The cell's kind and coordinate: "hex (4, 0)".
    pub fn at(&self) -> String {
        let kind = if self.corners.len() == 6 {
            "hex"
        } else {
            "square"
        };
        format!("{kind} ({}, {})", self.key.0, self.key.1)
    }

    /// The cell as the side panel names it: "hex (4, 0)", with the place it is part of.
    pub fn words(&self) -> String {
        let at = self.at();
        match &self.place {
            Some(p) => format!("{at} · {p}"),
            None => at,
        }
    }
}

/// The board as drawn.
#[derive(Debug, Clone, Default, Resource)]
pub struct BoardView {
    pub cells: Vec<CellView>,
    /// Thin walls as segments on the table plane.
    pub thin_walls: Vec<(Vec2, Vec2)>,
}

impl BoardView {
    /// Whether the two draw the same board: the same cells with the same ground and doors, and
    /// the same thin walls.
    pub fn same_as(&self, other: &BoardView) -> bool {
        self.cells.len() == other.cells.len()
            && self.cells.iter().zip(&other.cells).all(|(a, b)| {
                a.key == b.key && a.ground == b.ground && a.door == b.door && a.place == b.place
            })
            && self.thin_walls == other.thin_walls
    }

    /// The drawing of any module's board: flat-topped hexes of side 1 (as the rules core measures
    /// them) or squares of side [`SQUARE`].
    pub fn of(view: &TableView) -> Self {
        let cells = view
            .cells
            .iter()
            .map(|c| {
                let (centre, corners) = outline(view.grid, c.key);
                CellView {
                    key: c.key,
                    centre,
                    corners,
                    ground: c.ground,
                    door: c.door,
                    place: c.place.clone(),
                }
            })
            .collect();
        let thin_walls = view
            .thin_walls
            .iter()
            .filter_map(|&(a, b)| shared_edge(view.grid, a, b))
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

/// A cell's centre and corners (counter-clockwise) on the table plane.
fn outline(grid: GridKind, (a, b): CellKey) -> (Vec2, Vec<Vec2>) {
    match grid {
        GridKind::Hex => {
            let h = Hex::new(a, b);
            let corners = (0..6).map(|k| point(sight::corner(h, k))).collect();
            (point(sight::centre(h)), corners)
        }
        GridKind::Square => {
            // Rows count down the page (north is y - 1), the plane's y points away from the viewer.
            let c = Vec2::new(a as f32, -(b as f32)) * SQUARE;
            let h = SQUARE / 2.0;
            let corners = [(-h, -h), (h, -h), (h, h), (-h, h)]
                .into_iter()
                .map(|(x, y)| c + Vec2::new(x, y))
                .collect();
            (c, corners)
        }
    }
}

/// The edge two neighbouring cells share, where a thin wall stands; `None` when they do not touch.
fn shared_edge(grid: GridKind, a: CellKey, b: CellKey) -> Option<(Vec2, Vec2)> {
    match grid {
        GridKind::Hex => {
            let (ha, hb) = (Hex::new(a.0, a.1), Hex::new(b.0, b.1));
            let d = hex::direction_to(ha, hb)?;
            Some((point(sight::corner(ha, d)), point(sight::corner(ha, d + 1))))
        }
        GridKind::Square => {
            if (a.0 - b.0).abs() + (a.1 - b.1).abs() != 1 {
                return None;
            }
            let (ca, cb) = (outline(grid, a).0, outline(grid, b).0);
            let mid = (ca + cb) / 2.0;
            let along = (cb - ca).perp() / 2.0;
            Some((mid - along, mid + along))
        }
    }
}

/// The table plane's y axis points away from the viewer, which is world -z.
pub fn plane_to_world(p: Vec2) -> Vec3 {
    Vec3::new(p.x, 0.0, -p.y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use foehold_core::rules::view::CellInfo;

    fn board(grid: GridKind, keys: &[CellKey], walls: Vec<(CellKey, CellKey)>) -> BoardView {
        BoardView::of(&TableView {
            grid,
            cells: keys
                .iter()
                .map(|&key| CellInfo {
                    key,
                    ground: Ground::Floor,
                    door: false,
                    place: None,
                })
                .collect(),
            thin_walls: walls,
            ..TableView::default()
        })
    }

    #[test]
    fn square_cells_tile_the_plane_and_walls_lie_on_the_shared_edge() {
        let keys = [(0, 0), (1, 0), (0, 1), (1, 1)];
        let b = board(
            GridKind::Square,
            &keys,
            vec![((0, 0), (1, 0)), ((0, 0), (1, 1))],
        );
        for c in &b.cells {
            assert_eq!(c.corners.len(), 4);
            for k in &c.corners {
                let d = (*k - c.centre).abs();
                assert!((d - Vec2::splat(SQUARE / 2.0)).length_squared() < 1e-10);
            }
        }
        let east = b.cell((1, 0)).expect("listed").centre - b.cell((0, 0)).expect("listed").centre;
        let south = b.cell((0, 1)).expect("listed").centre - b.cell((0, 0)).expect("listed").centre;
        assert_eq!(east, Vec2::new(SQUARE, 0.0));
        // Rows count down the page: the next row is nearer the viewer.
        assert_eq!(south, Vec2::new(0.0, -SQUARE));
        // Only the wall between edge neighbours is drawn, along their whole shared side.
        assert_eq!(b.thin_walls.len(), 1);
        let (p, q) = b.thin_walls[0];
        assert!((p.distance(q) - SQUARE).abs() < 1e-5);
        assert!(((p + q) / 2.0 - Vec2::new(SQUARE / 2.0, 0.0)).length() < 1e-5);
    }

    #[test]
    fn hex_cells_are_the_cores_hexes_and_neighbours_share_a_wall_edge() {
        let b = board(GridKind::Hex, &[(0, 0), (1, 0)], vec![((0, 0), (1, 0))]);
        for c in &b.cells {
            assert_eq!(c.corners.len(), 6);
            let centre = point(sight::centre(Hex::new(c.key.0, c.key.1)));
            assert_eq!(c.centre, centre);
        }
        let (p, q) = b.thin_walls[0];
        // A hex of side 1: the shared edge is 1 long, halfway between the two centres.
        assert!((p.distance(q) - 1.0).abs() < 1e-4);
        let mid = (b.cells[0].centre + b.cells[1].centre) / 2.0;
        assert!(((p + q) / 2.0 - mid).length() < 1e-4);
    }
}
