//! What a monster's ability card tells it to do this turn ([`MonsterAction`]): the data the focus,
//! move and attack steps ([`super::targeting`], [`super::attack`]) all read.

use crate::hex::Hex;
use serde::{Deserialize, Serialize};

/// The monster's move and attack for this turn, after its conditions are applied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MonsterAction {
    /// Movement points; 0 means it does not move.
    pub move_points: u32,
    /// 0 for a melee attack, else the attack's range.
    pub range: u32,
    /// Number of targets; 0 means no attack (it still focuses and moves as if melee).
    pub targets: u32,
    /// Area-of-effect offsets (see the puzzle format), empty for none.
    pub aoe: Vec<Hex>,
    /// The area is anchored on the attacker (melee area).
    pub aoe_melee: bool,
    /// It flies.
    pub flying: bool,
    /// It jumps.
    pub jumping: bool,
    /// It teleports.
    pub teleport: bool,
    /// It is muddled (its attack draws with disadvantage).
    pub muddled: bool,
}

impl MonsterAction {
    /// Whether the attack can hit more than one enemy: several targets, or an area.
    pub fn several(&self) -> bool {
        self.targets > 1 || (self.targets > 0 && !self.aoe.is_empty())
    }

    /// A plain melee attack with `move_points` of walking movement.
    pub fn melee(move_points: u32) -> Self {
        MonsterAction {
            move_points,
            range: 0,
            targets: 1,
            aoe: Vec::new(),
            aoe_melee: false,
            flying: false,
            jumping: false,
            teleport: false,
            muddled: false,
        }
    }
}
