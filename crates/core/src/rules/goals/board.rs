//! The goal-priority board: spaces and walls, slow and prohibited terrain, Domes and their keys,
//! adventures and dropped loot, with dense indices for the searches and exact line of sight.

use crate::hex::sight::Sight;
use crate::hex::{Hex, HexMap, NONE, distance};

/// An adventure (a map key) and its spaces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adventure {
    /// The adventure's name on the map key.
    pub name: String,
    /// Its spaces.
    pub spaces: Vec<Hex>,
    /// The foes have captured it already.
    pub captured: bool,
    /// The foes attempt it in this position.
    pub foes_use: bool,
}

/// A Dome key: ten hexes, some of them Domes, the others its gap spaces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DomeKey {
    /// The key's name.
    pub name: String,
    /// Its ten hexes.
    pub hexes: Vec<Hex>,
    /// The hexes of them that are Domes.
    pub domes: Vec<Hex>,
}

/// A pile of dropped loot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Loot {
    /// Where it lies.
    pub hex: Hex,
    /// Gold in it.
    pub gold: u32,
    /// Cards in it.
    pub cards: u32,
}

impl Loot {
    /// Gold counts 1, a card 2.
    pub fn value(&self) -> u32 {
        self.gold + 2 * self.cards
    }
}

/// Everything on the board that is not a figure.
#[derive(Debug, Clone, Default)]
pub struct BoardSpec {
    /// Every space of the board (walls apart).
    pub hexes: Vec<Hex>,
    /// Wall hexes.
    pub walls: Vec<Hex>,
    /// Woods: 2 move points to enter, +2 Stealth to whoever stands in them.
    pub woods: Vec<Hex>,
    /// Rough ground: slow terrain (2 move points).
    pub rough: Vec<Hex>,
    /// Prohibited terrain: nobody enters it.
    pub blocked: Vec<Hex>,
    /// The Dome keys.
    pub dome_keys: Vec<DomeKey>,
    /// The adventures.
    pub adventures: Vec<Adventure>,
    /// Dropped loot.
    pub loot: Vec<Loot>,
}

/// The board, ready for searches: per-hex data in vectors indexed like [`HexMap`].
#[derive(Debug, Clone)]
pub struct Board {
    map: HexMap,
    /// Move points to enter a hex; 0 where nobody enters (walls, prohibited terrain, Domes).
    enter: Vec<u8>,
    woods: Vec<bool>,
    dome: Vec<bool>,
    /// The Dome key a hex belongs to, or `NONE`.
    key: Vec<u16>,
    spec: BoardSpec,
    sight: Sight,
}

impl Board {
    /// Builds the board; every listed hex must be one of `hexes` (walls apart).
    pub fn new(spec: BoardSpec) -> Result<Board, String> {
        let map = HexMap::new(&spec.hexes, &spec.walls).map_err(|e| e.to_string())?;
        let n = map.len();
        let index = |h: Hex, what: &str| -> Result<usize, String> {
            match map.index_of(h) {
                Some(i) if !spec.walls.contains(&h) => Ok(i as usize),
                _ => Err(format!(
                    "{what} ({}, {}) is not a space of the board",
                    h.x, h.y
                )),
            }
        };
        let mut enter = vec![1u8; n];
        for &w in &spec.walls {
            if let Some(i) = map.index_of(w) {
                enter[i as usize] = 0;
            }
        }
        let mut woods = vec![false; n];
        for &h in spec.woods.iter().chain(&spec.rough) {
            let i = index(h, "slow terrain")?;
            if enter[i] != 1 {
                return Err(format!("hex ({}, {}) has two terrains", h.x, h.y));
            }
            enter[i] = 2;
        }
        for &h in &spec.woods {
            woods[index(h, "woods")?] = true;
        }
        for &h in &spec.blocked {
            let i = index(h, "prohibited terrain")?;
            if enter[i] != 1 {
                return Err(format!("hex ({}, {}) has two terrains", h.x, h.y));
            }
            enter[i] = 0;
        }
        let mut dome = vec![false; n];
        let mut key = vec![NONE; n];
        for (k, dk) in spec.dome_keys.iter().enumerate() {
            for &h in &dk.hexes {
                let i = index(h, "a Dome key hex")?;
                if key[i] != NONE {
                    return Err(format!("Dome keys overlap at ({}, {})", h.x, h.y));
                }
                key[i] = k as u16;
            }
            for &h in &dk.domes {
                let i = index(h, "a Dome")?;
                if key[i] != k as u16 {
                    return Err(format!(
                        "Dome ({}, {}) is not one of the hexes of key `{}`",
                        h.x, h.y, dk.name
                    ));
                }
                if enter[i] != 1 {
                    return Err(format!("Dome ({}, {}) carries terrain", h.x, h.y));
                }
                dome[i] = true;
                enter[i] = 0;
            }
        }
        for a in &spec.adventures {
            for &h in &a.spaces {
                index(h, "an adventure space")?;
            }
        }
        for l in &spec.loot {
            index(l.hex, "loot")?;
        }
        let sight = Sight::new(&map);
        Ok(Board {
            map,
            enter,
            woods,
            dome,
            key,
            spec,
            sight,
        })
    }

    /// The dense index map (walls included, as impassable hexes).
    pub fn map(&self) -> &HexMap {
        &self.map
    }

    /// Number of dense indices.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether the board has no hexes.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Dense index of a hex, if it is on the board.
    pub fn index(&self, h: Hex) -> Option<usize> {
        self.map.index_of(h).map(usize::from)
    }

    /// The hex at a dense index.
    pub fn hex(&self, i: usize) -> Hex {
        self.map.hex_at(i)
    }

    /// Move points to enter hex `i`, `None` where nobody may enter.
    pub(crate) fn enter_cost(&self, i: usize) -> Option<u32> {
        (self.enter[i] > 0).then_some(u32::from(self.enter[i]))
    }

    /// Whether hex `i` is woods (+2 Stealth).
    pub(crate) fn is_woods(&self, i: usize) -> bool {
        self.woods[i]
    }

    /// Whether hex `i` is a Dome.
    pub(crate) fn is_dome(&self, i: usize) -> bool {
        self.dome[i]
    }

    /// The Dome key hex `i` belongs to.
    pub(crate) fn key_of(&self, i: usize) -> Option<usize> {
        (self.key[i] != NONE).then_some(usize::from(self.key[i]))
    }

    /// The Dome keys.
    pub(crate) fn dome_keys(&self) -> &[DomeKey] {
        &self.spec.dome_keys
    }

    /// The adventures.
    pub fn adventures(&self) -> &[Adventure] {
        &self.spec.adventures
    }

    /// Dropped loot.
    pub fn loot(&self) -> &[Loot] {
        &self.spec.loot
    }

    /// The board's description as given.
    pub fn spec(&self) -> &BoardSpec {
        &self.spec
    }

    /// Indices of the six neighbours of `i` that are on the board (walls included).
    pub fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        (0..6)
            .map(move |d| self.map.neighbour(i, d))
            .filter(|&n| n != NONE)
            .map(usize::from)
    }

    /// Whether hexes `a` and `b` are neighbours.
    pub fn adjacent(&self, a: usize, b: usize) -> bool {
        distance(self.hex(a), self.hex(b)) == 1
    }

    /// Hex count between hexes `a` and `b`.
    pub fn distance(&self, a: usize, b: usize) -> u32 {
        distance(self.hex(a), self.hex(b))
    }

    /// Line of sight between two board hexes.
    pub fn sees(&self, a: usize, b: usize) -> bool {
        self.sight.visible(self.hex(a), self.hex(b))
    }
}
