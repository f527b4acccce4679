//! The square board: rectangular map tiles, wall squares, 8-neighbour steps that never cut a corner,
//! walking distances, range and exact line of sight, as dense arrays.
//!
//! A square is named by `(x, y)`; geometrically it is the unit square `[x, x+1] × [y, y+1]`. The board
//! squares are the squares of all tiles minus the walls, and each gets a dense index in ascending
//! `(x, y)` order so that rule modules keep per-square data in plain vectors and every iteration over
//! the board is deterministic. All geometry is integer arithmetic: no floating point anywhere.

pub mod sight;

use std::collections::VecDeque;

/// A square, `(x, y)`: `x` grows to the right, `y` away from the heroes' entry edge.
pub type Square = (i32, i32);

/// Index of "no square" in dense tables.
pub const NONE: u16 = u16::MAX;

/// Walking distance or movement cost of a square that cannot be reached.
pub(crate) const UNREACHABLE: u32 = u32::MAX;

/// The eight steps, orthogonal ones first, each group in ascending `(dx, dy)`.
pub(crate) const STEPS: [(i32, i32); 8] = [
    (-1, 0),
    (0, -1),
    (0, 1),
    (1, 0),
    (-1, -1),
    (-1, 1),
    (1, -1),
    (1, 1),
];

/// Coordinates and tile sizes are kept within this many squares of the origin.
pub(crate) const MAX_COORDINATE: i32 = 1_000;
/// The bounding box of all tiles holds at most this many squares.
pub(crate) const MAX_AREA: i64 = 16_384;
/// A board has at most this many tiles.
pub(crate) const MAX_TILES: usize = 64;

/// The range distance between two squares: `max(|dx|, |dy|)`, walls not counted around.
pub const fn range(a: Square, b: Square) -> u32 {
    // In i64 so that no pair of squares can overflow; the result saturates at `u32::MAX`.
    let dx = (a.0 as i64 - b.0 as i64).unsigned_abs();
    let dy = (a.1 as i64 - b.1 as i64).unsigned_abs();
    let d = if dx > dy { dx } else { dy };
    if d > u32::MAX as u64 {
        u32::MAX
    } else {
        d as u32
    }
}

/// Whether two distinct squares touch by a side or a corner. Pure geometry: walls don't matter.
pub const fn adjacent(a: Square, b: Square) -> bool {
    range(a, b) == 1
}

/// A rectangular map tile covering `x..x+w` × `y..y+h`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tile {
    /// The tile's name.
    pub name: String,
    /// Left-most column.
    pub x: i32,
    /// Front-most row.
    pub y: i32,
    /// Width in squares.
    pub w: i32,
    /// Height in squares.
    pub h: i32,
}

impl Tile {
    /// Whether the tile covers a square.
    pub const fn covers(&self, s: Square) -> bool {
        s.0 >= self.x && s.0 < self.x + self.w && s.1 >= self.y && s.1 < self.y + self.h
    }

    /// The back-left corner: left-most column, back-most row.
    pub const fn back_left(&self) -> Square {
        (self.x, self.y + self.h - 1)
    }
}

/// Why a board could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardError {
    /// No tile at all.
    NoTiles,
    /// More tiles than the board allows (the count).
    TooManyTiles(usize),
    /// A tile narrower or shorter than one square (its name).
    BadSize(String),
    /// A tile reaching too far from the origin (its name).
    OutOfBounds(String),
    /// Tiles spanning too large a box (its area).
    TooLarge(i64),
    /// A tile name used twice.
    DuplicateTileName(String),
    /// Two tiles that overlap (their names).
    Overlap(String, String),
    /// A wall on no tile.
    WallOffTiles(Square),
    /// A wall listed twice.
    DuplicateWall(Square),
}

impl std::fmt::Display for BoardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BoardError::NoTiles => write!(f, "expected at least one tile"),
            BoardError::TooManyTiles(n) => {
                write!(f, "{n} tiles: expected at most {MAX_TILES}")
            }
            BoardError::BadSize(t) => {
                write!(f, "tile `{t}`: expected a width and height of at least 1")
            }
            BoardError::OutOfBounds(t) => write!(
                f,
                "tile `{t}`: expected every square within {MAX_COORDINATE} of the origin"
            ),
            BoardError::TooLarge(a) => write!(
                f,
                "the tiles span a box of {a} squares: expected at most {MAX_AREA}"
            ),
            BoardError::DuplicateTileName(t) => write!(f, "tile name `{t}` is used twice"),
            BoardError::Overlap(a, b) => write!(f, "tiles `{a}` and `{b}` overlap"),
            BoardError::WallOffTiles(s) => {
                write!(
                    f,
                    "wall ({}, {}) is on no tile: expected a square of a tile",
                    s.0, s.1
                )
            }
            BoardError::DuplicateWall(s) => write!(f, "wall ({}, {}) is listed twice", s.0, s.1),
        }
    }
}

impl std::error::Error for BoardError {}

/// A square board: tiles, walls and the board squares with their steps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SquareBoard {
    tiles: Vec<Tile>,
    min_x: i32,
    min_y: i32,
    width: i32,
    height: i32,
    /// Per cell of the bounding box (column-major): dense index of the board square, or `NONE`.
    grid: Vec<u16>,
    /// Per cell of the bounding box: whether it is a wall square.
    wall: Vec<bool>,
    squares: Vec<Square>,
    /// Tile index of each board square.
    square_tile: Vec<u16>,
    /// Allowed steps of each board square, in [`STEPS`] order.
    steps: Vec<Vec<u16>>,
}

impl SquareBoard {
    /// Builds a board from its tiles and wall squares (each wall must lie on a tile).
    pub fn new(tiles: Vec<Tile>, walls: &[Square]) -> Result<Self, BoardError> {
        if tiles.is_empty() {
            return Err(BoardError::NoTiles);
        }
        if tiles.len() > MAX_TILES {
            return Err(BoardError::TooManyTiles(tiles.len()));
        }
        let far = |v: i64| !(-i64::from(MAX_COORDINATE)..=i64::from(MAX_COORDINATE)).contains(&v);
        for t in &tiles {
            if t.w < 1 || t.h < 1 {
                return Err(BoardError::BadSize(t.name.clone()));
            }
            let (x, y, w, h) = (
                i64::from(t.x),
                i64::from(t.y),
                i64::from(t.w),
                i64::from(t.h),
            );
            if far(x) || far(y) || far(x + w - 1) || far(y + h - 1) {
                return Err(BoardError::OutOfBounds(t.name.clone()));
            }
        }
        for (i, a) in tiles.iter().enumerate() {
            for b in &tiles[i + 1..] {
                if a.name == b.name {
                    return Err(BoardError::DuplicateTileName(a.name.clone()));
                }
                let apart =
                    a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
                if !apart {
                    return Err(BoardError::Overlap(a.name.clone(), b.name.clone()));
                }
            }
        }
        let min_x = tiles.iter().map(|t| t.x).min().unwrap_or(0);
        let min_y = tiles.iter().map(|t| t.y).min().unwrap_or(0);
        let max_x = tiles.iter().map(|t| t.x + t.w - 1).max().unwrap_or(0);
        let max_y = tiles.iter().map(|t| t.y + t.h - 1).max().unwrap_or(0);
        let (width, height) = (max_x - min_x + 1, max_y - min_y + 1);
        let area = i64::from(width) * i64::from(height);
        if area > MAX_AREA {
            return Err(BoardError::TooLarge(area));
        }
        let cells = area as usize;
        let cell = |s: Square| ((s.0 - min_x) * height + (s.1 - min_y)) as usize;
        let mut tile_of_cell = vec![NONE; cells];
        for (i, t) in tiles.iter().enumerate() {
            for x in t.x..t.x + t.w {
                for y in t.y..t.y + t.h {
                    tile_of_cell[cell((x, y))] = i as u16;
                }
            }
        }
        let mut wall = vec![false; cells];
        for &w in walls {
            let inside = w.0 >= min_x && w.0 <= max_x && w.1 >= min_y && w.1 <= max_y;
            if !inside || tile_of_cell[cell(w)] == NONE {
                return Err(BoardError::WallOffTiles(w));
            }
            if std::mem::replace(&mut wall[cell(w)], true) {
                return Err(BoardError::DuplicateWall(w));
            }
        }
        // Column-major cells run in ascending (x, y), so board squares get ascending indices.
        let mut grid = vec![NONE; cells];
        let mut squares = Vec::new();
        let mut square_tile = Vec::new();
        for x in min_x..=max_x {
            for y in min_y..=max_y {
                let c = cell((x, y));
                if tile_of_cell[c] != NONE && !wall[c] {
                    grid[c] = squares.len() as u16;
                    squares.push((x, y));
                    square_tile.push(tile_of_cell[c]);
                }
            }
        }
        let mut board = SquareBoard {
            tiles,
            min_x,
            min_y,
            width,
            height,
            grid,
            wall,
            squares,
            square_tile,
            steps: Vec::new(),
        };
        board.steps = board
            .squares
            .iter()
            .map(|&(x, y)| {
                STEPS
                    .iter()
                    .filter(|&&(dx, dy)| {
                        // A diagonal may not cut the corner of a wall or of the board's outline.
                        board.contains((x + dx, y + dy))
                            && (dx == 0
                                || dy == 0
                                || (board.contains((x + dx, y)) && board.contains((x, y + dy))))
                    })
                    .map(|&(dx, dy)| board.grid[board.cell((x + dx, y + dy)).unwrap_or(0)])
                    .collect()
            })
            .collect();
        Ok(board)
    }

    fn cell(&self, s: Square) -> Option<usize> {
        // In i64: a square named anywhere in the i32 plane is simply off the board.
        let cx = i64::from(s.0) - i64::from(self.min_x);
        let cy = i64::from(s.1) - i64::from(self.min_y);
        let (w, h) = (i64::from(self.width), i64::from(self.height));
        (cx >= 0 && cy >= 0 && cx < w && cy < h).then(|| (cx * h + cy) as usize)
    }

    /// Dense index of a board square (`None` for walls and squares off the tiles).
    #[inline]
    pub(crate) fn index_of(&self, s: Square) -> Option<usize> {
        let i = self.grid[self.cell(s)?];
        (i != NONE).then_some(i as usize)
    }

    /// Whether a square is a board square (on a tile, not a wall).
    #[inline]
    pub fn contains(&self, s: Square) -> bool {
        self.index_of(s).is_some()
    }

    /// Whether a square is a wall square.
    pub(crate) fn is_wall(&self, s: Square) -> bool {
        self.cell(s).is_some_and(|c| self.wall[c])
    }

    /// Number of board squares.
    #[inline]
    pub fn len(&self) -> usize {
        self.squares.len()
    }

    /// Whether the board has no squares (never, once built).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.squares.is_empty()
    }

    /// The board square at a dense index.
    #[inline]
    pub fn square(&self, i: usize) -> Square {
        self.squares[i]
    }

    /// All board squares in ascending `(x, y)`.
    pub fn squares(&self) -> &[Square] {
        &self.squares
    }

    /// The board's tiles, as given.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// Index of the tile with this name.
    pub(crate) fn tile_named(&self, name: &str) -> Option<usize> {
        self.tiles.iter().position(|t| t.name == name)
    }

    /// Index of the tile a board square lies on.
    #[inline]
    pub(crate) fn tile_of(&self, i: usize) -> usize {
        self.square_tile[i] as usize
    }

    /// Indices of the tiles sharing a side with tile `t` (a full edge, not a corner point), ascending.
    pub(crate) fn adjacent_tiles(&self, t: usize) -> Vec<usize> {
        let a = &self.tiles[t];
        (0..self.tiles.len())
            .filter(|&u| {
                let b = &self.tiles[u];
                let rows_meet = a.y < b.y + b.h && b.y < a.y + a.h;
                let cols_meet = a.x < b.x + b.w && b.x < a.x + a.w;
                u != t
                    && ((rows_meet && (a.x + a.w == b.x || b.x + b.w == a.x))
                        || (cols_meet && (a.y + a.h == b.y || b.y + b.h == a.y)))
            })
            .collect()
    }

    /// The board squares a step from square `i` may go to.
    #[inline]
    pub fn steps(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.steps[i].iter().map(|&n| n as usize)
    }

    /// Least number of steps from `start` to every board square, entering only squares for which
    /// `enter` holds (the start itself is always cost 0), or [`UNREACHABLE`].
    pub(crate) fn walk_from(&self, start: usize, enter: impl Fn(usize) -> bool) -> Vec<u32> {
        let mut dist = vec![UNREACHABLE; self.len()];
        let mut queue = VecDeque::with_capacity(self.len());
        dist[start] = 0;
        queue.push_back(start);
        while let Some(u) = queue.pop_front() {
            let next = dist[u] + 1;
            for &v in &self.steps[u] {
                let v = v as usize;
                if dist[v] == UNREACHABLE && enter(v) {
                    dist[v] = next;
                    queue.push_back(v);
                }
            }
        }
        dist
    }

    /// A shortest walk from `start` to `end`, both included, entering only squares for which
    /// `enter` holds (`end` too): each step back from `end` takes the first square in board order
    /// one step nearer the start. `None` when `end` cannot be reached.
    pub(crate) fn path_to(
        &self,
        start: usize,
        end: usize,
        enter: impl Fn(usize) -> bool,
    ) -> Option<Vec<usize>> {
        let dist = self.walk_from(start, enter);
        if dist.get(end).is_none_or(|&d| d == UNREACHABLE) {
            return None;
        }
        let mut path = vec![end];
        let mut at = end;
        while at != start {
            at = self
                .steps(at)
                .filter(|&n| dist[n] != UNREACHABLE && dist[n] + 1 == dist[at])
                .min()?;
            path.push(at);
        }
        path.reverse();
        Some(path)
    }

    /// Walking distance from `start` to every board square, ignoring all models.
    pub(crate) fn distances_from(&self, start: usize) -> Vec<u32> {
        self.walk_from(start, |_| true)
    }

    /// Whether the centre of `a` sees the centre of `b` past every wall square (see [`sight`]).
    pub fn sees(&self, a: Square, b: Square) -> bool {
        let low = (self.min_x, self.min_y);
        let high = (self.min_x + self.width - 1, self.min_y + self.height - 1);
        sight::clear_within(a, b, low, high, |s| self.is_wall(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tile(name: &str, x: i32, y: i32, w: i32, h: i32) -> Tile {
        Tile {
            name: name.into(),
            x,
            y,
            w,
            h,
        }
    }

    fn board(tiles: &[(i32, i32, i32, i32)], walls: &[Square]) -> SquareBoard {
        let tiles = tiles
            .iter()
            .enumerate()
            .map(|(i, &(x, y, w, h))| tile(&format!("T{i}"), x, y, w, h))
            .collect();
        SquareBoard::new(tiles, walls).unwrap()
    }

    #[test]
    fn board_squares_are_indexed_in_ascending_x_then_y_without_walls() {
        let b = board(&[(0, 0, 2, 2)], &[(0, 1)]);
        assert_eq!(b.squares(), &[(0, 0), (1, 0), (1, 1)]);
        assert_eq!(b.index_of((1, 1)), Some(2));
        assert_eq!(b.index_of((0, 1)), None);
        assert!(b.is_wall((0, 1)));
        assert!(!b.is_wall((5, 5)));
        assert_eq!(b.index_of((i32::MIN, i32::MAX)), None);
        assert!(
            b.sees((i32::MIN, 0), (i32::MAX, 0)),
            "only the walls on the board are looked at"
        );
        assert!(!b.sees((-5, 1), (1, 1)));
    }

    #[test]
    fn bad_boards_are_refused_with_their_reason() {
        let cases: [(Vec<Tile>, Vec<Square>, BoardError); 5] = [
            (vec![], vec![], BoardError::NoTiles),
            (
                vec![tile("A", 0, 0, 0, 2)],
                vec![],
                BoardError::BadSize("A".into()),
            ),
            (
                vec![tile("A", 0, 0, 3, 3), tile("B", 2, 2, 3, 3)],
                vec![],
                BoardError::Overlap("A".into(), "B".into()),
            ),
            (
                vec![tile("A", 0, 0, 2, 2)],
                vec![(2, 0)],
                BoardError::WallOffTiles((2, 0)),
            ),
            (
                vec![tile("A", 0, 0, 500, 500)],
                vec![],
                BoardError::TooLarge(250_000),
            ),
        ];
        for (tiles, walls, want) in cases {
            assert_eq!(SquareBoard::new(tiles, &walls), Err(want));
        }
    }

    #[test]
    fn a_diagonal_step_may_not_cut_a_wall_or_the_outline() {
        // Row y=1 of a 3×2 tile; (1, 0) is a wall; a second tile hangs off at (3, 2).
        let b = board(&[(0, 0, 3, 2), (3, 2, 1, 1)], &[(1, 0)]);
        let to = |from: Square| -> Vec<Square> {
            b.steps(b.index_of(from).unwrap())
                .map(|i| b.square(i))
                .collect()
        };
        let cases: [(Square, Vec<Square>); 3] = [
            ((0, 0), vec![(0, 1)]),
            ((0, 1), vec![(0, 0), (1, 1)]),
            // (2, 1) → (3, 2) would cut the outline at (3, 1) and (2, 2).
            ((2, 1), vec![(1, 1), (2, 0)]),
        ];
        for (from, want) in cases {
            assert_eq!(to(from), want, "steps from {from:?}");
        }
    }

    #[test]
    fn walking_distance_goes_around_walls_and_respects_the_passability_closure() {
        let b = board(&[(0, 0, 5, 3)], &[(2, 0), (2, 1)]);
        let at = |s| b.index_of(s).unwrap();
        let free = b.distances_from(at((0, 0)));
        // The wall column forces the way over row 2, and no diagonal may cut the wall's corners:
        // (0,0) → (1,1) → (1,2) → (2,2) → (3,2) → (4,1) → (4,0).
        assert_eq!(free[at((4, 0))], 6);
        assert_eq!(free[at((2, 2))], 3);
        // Block (2, 2): the right side can no longer be reached.
        let blocked = b.walk_from(at((0, 0)), |i| b.square(i) != (2, 2));
        assert_eq!(blocked[at((4, 0))], UNREACHABLE);
        assert_eq!(blocked[at((1, 2))], 2);
    }

    #[test]
    fn range_is_the_larger_coordinate_difference() {
        let cases = [
            (((0, 0), (3, 1)), 3),
            (((2, 2), (1, 1)), 1),
            (((0, 0), (0, 0)), 0),
            (((i32::MIN, 0), (i32::MAX, 0)), u32::MAX),
        ];
        for ((a, b), want) in cases {
            assert_eq!(range(a, b), want);
            assert_eq!(adjacent(a, b), want == 1);
        }
    }

    #[test]
    fn tiles_sharing_a_side_are_adjacent_but_corner_touching_ones_are_not() {
        let b = board(
            &[(0, 0, 2, 2), (2, 1, 2, 2), (2, 3, 1, 1), (-1, 2, 1, 1)],
            &[],
        );
        assert_eq!(b.adjacent_tiles(0), vec![1]);
        assert_eq!(b.adjacent_tiles(1), vec![0, 2]);
        assert_eq!(b.adjacent_tiles(3), Vec::<usize>::new());
        assert_eq!(b.tile_of(b.index_of((3, 2)).unwrap()), 1);
        assert_eq!(b.tiles()[1].back_left(), (2, 2));
    }
}
