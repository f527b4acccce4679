//! The hex board model: axial hexes (on hexx), terrain, wall hexes and thin walls, as dense arrays.
//!
//! Hexes are flat-topped and named by axial `(q, r)`. Every board hex gets a dense index so that the
//! rule modules can keep per-hex data in plain vectors; indices follow ascending `(q, r)`, which makes
//! every iteration over the board deterministic.

pub mod aoe;
pub mod path;
pub mod sight;

use serde::{Deserialize, Serialize};
use std::sync::Arc;

pub use hexx::Hex;

/// Axial offsets of the six neighbours, counter-clockwise from "east" (`d0 = (+1, 0)`).
pub(crate) const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];

/// Index of "no hex" in dense neighbour tables.
pub const NONE: u16 = u16::MAX;

/// Board coordinates stay within this distance of the origin.
///
/// It is far beyond any printed map, and near enough that no sum or difference of coordinates overflows and the dense grid (sized from the bounding box,
/// at most 2,001 × 2,001 entries) stays a few megabytes.
pub const MAX_COORD: i32 = 1_000;

/// Whether both coordinates of a hex lie within [`MAX_COORD`] of the origin.
pub const fn within_bounds(h: Hex) -> bool {
    h.x.unsigned_abs() <= MAX_COORD as u32 && h.y.unsigned_abs() <= MAX_COORD as u32
}

/// Builds a hex from axial coordinates.
pub const fn hex(q: i32, r: i32) -> Hex {
    Hex::new(q, r)
}

/// The `(q, r)` pair of a hex: the sort key used everywhere (hexx's `Hex` has no order of its own).
pub const fn qr(h: Hex) -> (i32, i32) {
    (h.x, h.y)
}

/// Neighbour of `h` in direction `d` (0..6).
pub const fn step(h: Hex, d: usize) -> Hex {
    let (dq, dr) = DIRECTIONS[d];
    Hex::new(h.x + dq, h.y + dr)
}

/// Hex count between two hexes, ignoring everything on the map.
pub const fn distance(a: Hex, b: Hex) -> u32 {
    let dq = a.x - b.x;
    let dr = a.y - b.y;
    ((dq.abs() + dr.abs() + (dq + dr).abs()) / 2) as u32
}

/// Direction index from `a` to its neighbour `b`, if they are neighbours.
pub fn direction_to(a: Hex, b: Hex) -> Option<usize> {
    DIRECTIONS
        .iter()
        .position(|&(dq, dr)| a.x + dq == b.x && a.y + dr == b.y)
}

/// Sorts hexes by `(q, r)` and removes repeats.
pub(crate) fn sort_hexes(hexes: &mut Vec<Hex>) {
    hexes.sort_by_key(|h| qr(*h));
    hexes.dedup();
}

/// What a board hex is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Terrain {
    /// Plain ground.
    Floor,
    /// Blocks walking, not sight; only flying figures may end on it.
    Obstacle,
    /// A negative hex that springs when entered.
    Trap,
    /// A negative hex that hurts whoever enters it.
    Hazard,
    /// Costs 2 movement points to enter on foot.
    Difficult,
    /// A walking figure entering it slides on.
    Icy,
    /// A solid wall hex: nothing enters it but teleporters; it blocks sight.
    Wall,
}

impl Terrain {
    /// Traps and hazardous terrain: hexes a foe avoids.
    pub const fn is_negative(self) -> bool {
        matches!(self, Terrain::Trap | Terrain::Hazard)
    }

    /// The terrain's name in log lines and messages.
    pub const fn name(self) -> &'static str {
        match self {
            Terrain::Floor => "floor",
            Terrain::Obstacle => "obstacle",
            Terrain::Trap => "trap",
            Terrain::Hazard => "hazardous terrain",
            Terrain::Difficult => "difficult terrain",
            Terrain::Icy => "icy terrain",
            Terrain::Wall => "wall",
        }
    }
}

/// A hex board: which hexes exist, their terrain, and the thin walls between neighbours.
///
/// Which hexes exist never changes once built, so those tables are shared by every copy (a game
/// copies its state on many actions) and two boards built as copies compare them at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HexMap {
    min_q: i32,
    min_r: i32,
    width: i32,
    height: i32,
    /// Dense index of each hex of the bounding box, or `NONE`.
    grid: Arc<[u16]>,
    cells: Arc<[Hex]>,
    terrain: Vec<Terrain>,
    /// Bit `d` set: the edge towards direction `d` carries a thin wall.
    thin: Vec<u8>,
    /// Neighbour indices per direction (`NONE` off the board).
    neighbours: Arc<[[u16; 6]]>,
    /// Thin walls whose far side lies off the board; they only matter to sightlines.
    outer_thin_walls: Vec<(Hex, Hex)>,
}

/// Why a board could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MapError {
    /// No hexes at all.
    Empty,
    /// More hexes than dense `u16` indices can name.
    TooLarge,
    /// A coordinate beyond [`MAX_COORD`].
    OutOfBounds(Hex),
    /// A hex listed twice.
    Duplicate(Hex),
    /// A hex that is not on the board.
    NotOnMap(Hex),
    /// A thin wall between two hexes that are not neighbours.
    NotNeighbours(Hex, Hex),
}

impl std::fmt::Display for MapError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MapError::Empty => write!(f, "the map has no hexes"),
            MapError::TooLarge => write!(f, "the map is larger than 65,000 hexes"),
            MapError::OutOfBounds(h) => write!(
                f,
                "hex ({}, {}) is off the supported board: expected coordinates within ±{MAX_COORD}",
                h.x, h.y
            ),
            MapError::Duplicate(h) => write!(f, "hex ({}, {}) is listed twice", h.x, h.y),
            MapError::NotOnMap(h) => write!(f, "hex ({}, {}) is not on the map", h.x, h.y),
            MapError::NotNeighbours(a, b) => {
                write!(
                    f,
                    "a thin wall needs two neighbouring hexes, not ({}, {}) and ({}, {})",
                    a.x, a.y, b.x, b.y
                )
            }
        }
    }
}

impl std::error::Error for MapError {}

impl HexMap {
    /// A board of floor `hexes` plus solid `walls` (wall hexes are part of the board, as walls).
    pub fn new(hexes: &[Hex], walls: &[Hex]) -> Result<Self, MapError> {
        let mut all: Vec<(Hex, Terrain)> = hexes
            .iter()
            .map(|&h| (h, Terrain::Floor))
            .chain(walls.iter().map(|&h| (h, Terrain::Wall)))
            .collect();
        if all.is_empty() {
            return Err(MapError::Empty);
        }
        if all.len() >= NONE as usize {
            return Err(MapError::TooLarge);
        }
        // Before the grid is sized from the bounding box: far coordinates would make it huge.
        if let Some((h, _)) = all.iter().find(|(h, _)| !within_bounds(*h)) {
            return Err(MapError::OutOfBounds(*h));
        }
        all.sort_by_key(|(h, _)| qr(*h));
        if let Some(w) = all.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(MapError::Duplicate(w[0].0));
        }
        let min_q = all.iter().map(|(h, _)| h.x).min().unwrap_or(0);
        let max_q = all.iter().map(|(h, _)| h.x).max().unwrap_or(0);
        let min_r = all.iter().map(|(h, _)| h.y).min().unwrap_or(0);
        let max_r = all.iter().map(|(h, _)| h.y).max().unwrap_or(0);
        let (width, height) = (max_q - min_q + 1, max_r - min_r + 1);
        let mut grid = vec![NONE; (width * height) as usize];
        for (i, (h, _)) in all.iter().enumerate() {
            grid[((h.x - min_q) * height + (h.y - min_r)) as usize] = i as u16;
        }
        let mut map = HexMap {
            min_q,
            min_r,
            width,
            height,
            grid: grid.into(),
            cells: all.iter().map(|(h, _)| *h).collect(),
            terrain: all.iter().map(|(_, t)| *t).collect(),
            thin: vec![0; all.len()],
            neighbours: Arc::new([]),
            outer_thin_walls: Vec::new(),
        };
        map.neighbours = map
            .cells
            .iter()
            .map(|&h| std::array::from_fn(|d| map.index_of(step(h, d)).unwrap_or(NONE)))
            .collect();
        Ok(map)
    }

    /// Sets the terrain of a board hex.
    pub fn set_terrain(&mut self, h: Hex, t: Terrain) -> Result<(), MapError> {
        let i = self.index_of(h).ok_or(MapError::NotOnMap(h))?;
        self.terrain[i as usize] = t;
        Ok(())
    }

    /// Puts a thin wall on the edge between two neighbouring hexes; one of them may lie off the board.
    pub fn add_thin_wall(&mut self, a: Hex, b: Hex) -> Result<(), MapError> {
        // Neighbours are found by adding offsets, which must not overflow.
        if let Some(far) = [a, b].into_iter().find(|h| !within_bounds(*h)) {
            return Err(MapError::OutOfBounds(far));
        }
        let d = direction_to(a, b).ok_or(MapError::NotNeighbours(a, b))?;
        match (self.index_of(a), self.index_of(b)) {
            (None, None) => return Err(MapError::NotOnMap(a)),
            (Some(i), Some(j)) => {
                self.thin[i as usize] |= 1 << d;
                self.thin[j as usize] |= 1 << ((d + 3) % 6);
            }
            (Some(i), None) => {
                self.thin[i as usize] |= 1 << d;
                self.outer_thin_walls.push((a, b));
            }
            (None, Some(j)) => {
                self.thin[j as usize] |= 1 << ((d + 3) % 6);
                self.outer_thin_walls.push((a, b));
            }
        }
        Ok(())
    }

    /// Dense index of a hex, if it is on the board.
    #[inline]
    pub(crate) fn index_of(&self, h: Hex) -> Option<u16> {
        // Checked: callers may ask about any hex, however far off the board.
        let (q, r) = (h.x.checked_sub(self.min_q)?, h.y.checked_sub(self.min_r)?);
        if q < 0 || r < 0 || q >= self.width || r >= self.height {
            return None;
        }
        let i = self.grid[(q * self.height + r) as usize];
        (i != NONE).then_some(i)
    }

    /// Number of board hexes (walls included).
    #[inline]
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether the board has no hexes (never, once built).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The hex at a dense index.
    #[inline]
    pub(crate) fn hex_at(&self, i: usize) -> Hex {
        self.cells[i]
    }

    /// All board hexes, walls included, in ascending `(q, r)`.
    pub fn hexes(&self) -> &[Hex] {
        &self.cells
    }

    /// Terrain of the hex at a dense index.
    #[inline]
    pub(crate) fn terrain_at(&self, i: usize) -> Terrain {
        self.terrain[i]
    }

    /// Terrain of a hex, `None` off the board.
    pub fn terrain(&self, h: Hex) -> Option<Terrain> {
        self.index_of(h).map(|i| self.terrain[i as usize])
    }

    /// Whether a hex is on the board.
    pub fn contains(&self, h: Hex) -> bool {
        self.index_of(h).is_some()
    }

    /// Neighbour index of cell `i` in direction `d`, `NONE` off the board.
    #[inline]
    pub fn neighbour(&self, i: usize, d: usize) -> u16 {
        self.neighbours[i][d]
    }

    /// Whether a thin wall stands on the edge of cell `i` towards direction `d`.
    #[inline]
    pub(crate) fn thin_wall(&self, i: usize, d: usize) -> bool {
        self.thin[i] & (1 << d) != 0
    }

    /// Every thin wall once, as `(smaller hex, larger hex)` pairs in ascending order.
    pub fn thin_walls(&self) -> Vec<(Hex, Hex)> {
        let mut out = self.outer_thin_walls.clone();
        for (i, &h) in self.cells.iter().enumerate() {
            for d in 0..6 {
                let n = self.neighbours[i][d];
                if self.thin_wall(i, d) && n != NONE && qr(h) < qr(self.cells[n as usize]) {
                    out.push((h, self.cells[n as usize]));
                }
            }
        }
        for pair in &mut out {
            if qr(pair.1) < qr(pair.0) {
                *pair = (pair.1, pair.0);
            }
        }
        out.sort_by_key(|(a, b)| (qr(*a), qr(*b)));
        out
    }

    /// Whether `other` is the same board: the same hexes, terrain and thin walls. Quicker than `==`,
    /// which also compares the lookup tables built from the hexes.
    pub(crate) fn same_board(&self, other: &HexMap) -> bool {
        (self.min_q, self.min_r, self.width, self.height)
            == (other.min_q, other.min_r, other.width, other.height)
            && self.terrain == other.terrain
            && self.thin == other.thin
            && self.cells == other.cells
            && self.outer_thin_walls == other.outer_thin_walls
    }

    /// Whether two hexes are neighbours with no thin wall between them.
    pub fn adjacent(&self, a: Hex, b: Hex) -> bool {
        match (self.index_of(a), direction_to(a, b)) {
            (Some(i), Some(d)) => !self.thin_wall(i as usize, d),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strip() -> HexMap {
        HexMap::new(&[hex(0, 0), hex(1, 0), hex(2, 0)], &[hex(3, 0)]).unwrap()
    }

    #[test]
    fn indices_follow_ascending_q_then_r() {
        let m = HexMap::new(&[hex(1, 0), hex(0, 1), hex(0, 0)], &[]).unwrap();
        assert_eq!(m.hexes(), &[hex(0, 0), hex(0, 1), hex(1, 0)]);
        assert_eq!(m.index_of(hex(1, 0)), Some(2));
        assert_eq!(m.index_of(hex(5, 5)), None);
    }

    #[test]
    fn walls_are_board_hexes_of_terrain_wall() {
        let m = strip();
        assert_eq!(m.terrain(hex(3, 0)), Some(Terrain::Wall));
        assert_eq!(m.terrain(hex(2, 0)), Some(Terrain::Floor));
    }

    #[test]
    fn far_coordinates_are_refused_before_the_grid_is_sized() {
        for far in [
            hex(2_147_483_647, -1),
            hex(5, 2_147_483_647),
            hex(65_536, -4),
            hex(1_000_000, 5),
            hex(i32::MIN, 0),
        ] {
            assert_eq!(
                HexMap::new(&[hex(0, 0), far], &[]),
                Err(MapError::OutOfBounds(far))
            );
            let mut m = strip();
            assert_eq!(
                m.add_thin_wall(far, hex(0, 0)),
                Err(MapError::OutOfBounds(far))
            );
        }
        let corners = [hex(-MAX_COORD, -MAX_COORD), hex(MAX_COORD, MAX_COORD)];
        assert_eq!(HexMap::new(&corners, &[]).map(|m| m.len()), Ok(2));
    }

    #[test]
    fn a_hex_listed_twice_is_refused() {
        assert_eq!(
            HexMap::new(&[hex(0, 0)], &[hex(0, 0)]),
            Err(MapError::Duplicate(hex(0, 0)))
        );
    }

    #[test]
    fn a_thin_wall_blocks_adjacency_both_ways() {
        let mut m = strip();
        m.add_thin_wall(hex(1, 0), hex(0, 0)).unwrap();
        assert!(!m.adjacent(hex(0, 0), hex(1, 0)));
        assert!(!m.adjacent(hex(1, 0), hex(0, 0)));
        assert!(m.adjacent(hex(1, 0), hex(2, 0)));
        assert_eq!(m.thin_walls(), vec![(hex(0, 0), hex(1, 0))]);
    }

    #[test]
    fn distance_counts_hex_steps() {
        assert_eq!(distance(hex(5, 2), hex(7, 0)), 2);
        assert_eq!(distance(hex(0, 0), hex(3, -1)), 3);
    }
}
