//! Hot-seat: how many players share the screen and which player owns which hero.

use bevy::prelude::*;
use foehold_core::rules::view::{Side, TableView};

/// Players and the heroes they own.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct Seats {
    pub players: u32,
    /// Owning player (1-based) per hero, in hero order.
    pub owner: Vec<u32>,
    /// The Players window has been confirmed.
    pub ready: bool,
}

impl Default for Seats {
    fn default() -> Self {
        Seats::of_owners(Vec::new())
    }
}

impl Seats {
    pub fn owner_of(&self, hero: usize) -> u32 {
        self.owner.get(hero).copied().unwrap_or(1)
    }

    /// Seats with each hero owned by the player given (player 1 for 0), not yet confirmed.
    pub fn of_owners(owner: Vec<u32>) -> Seats {
        let owner: Vec<u32> = owner.into_iter().map(|p| p.max(1)).collect();
        Seats {
            players: owner.iter().copied().max().unwrap_or(1),
            owner,
            ready: false,
        }
    }

    /// The seats a module's view suggests for its heroes (the modules list hero figures first, in
    /// hero order), not yet confirmed.
    pub fn of_view(view: &TableView) -> Seats {
        Seats::of_owners(
            view.figures
                .iter()
                .filter(|f| f.side == Side::Hero)
                .map(|f| f.owner.map_or(1, u32::from))
                .collect(),
        )
    }

    /// The refusal of an order to hero `hero` (`name`) while hero `acting` (`acting_name`) takes
    /// its turn.
    pub fn not_now(&self, name: &str, hero: usize, acting_name: &str, acting: usize) -> String {
        format!(
            "{name} belongs to Player {}; it is {acting_name}'s turn (Player {})",
            self.owner_of(hero),
            self.owner_of(acting)
        )
    }
}
