//! The board inside the game state: a [`HexMap`] that serializes as its hexes, terrain and thin walls,
//! so that sprung traps and other terrain changes are part of the saved state.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::hex::{Hex, HexMap, Terrain, hex};

/// A hex map that can be saved with the state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board(pub HexMap);

#[derive(Serialize, Deserialize)]
struct BoardData {
    /// `(q, r, terrain)` for every hex, in ascending `(q, r)`.
    hexes: Vec<(i32, i32, Terrain)>,
    thin_walls: Vec<((i32, i32), (i32, i32))>,
}

impl Serialize for Board {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let m = &self.0;
        let hexes = m
            .hexes()
            .iter()
            .enumerate()
            .map(|(i, h)| (h.x, h.y, m.terrain_at(i)))
            .collect();
        let thin_walls = m
            .thin_walls()
            .into_iter()
            .map(|(a, b)| ((a.x, a.y), (b.x, b.y)))
            .collect();
        BoardData { hexes, thin_walls }.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Board {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let data = BoardData::deserialize(d)?;
        let floor: Vec<Hex> = data
            .hexes
            .iter()
            .filter(|(_, _, t)| *t != Terrain::Wall)
            .map(|&(q, r, _)| hex(q, r))
            .collect();
        let walls: Vec<Hex> = data
            .hexes
            .iter()
            .filter(|(_, _, t)| *t == Terrain::Wall)
            .map(|&(q, r, _)| hex(q, r))
            .collect();
        let mut map = HexMap::new(&floor, &walls).map_err(D::Error::custom)?;
        for &(q, r, t) in &data.hexes {
            if t != Terrain::Wall && t != Terrain::Floor {
                map.set_terrain(hex(q, r), t).map_err(D::Error::custom)?;
            }
        }
        for ((aq, ar), (bq, br)) in data.thin_walls {
            map.add_thin_wall(hex(aq, ar), hex(bq, br))
                .map_err(D::Error::custom)?;
        }
        Ok(Board(map))
    }
}
