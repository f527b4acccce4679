//! Seats: how many players there are, which player owns which hero, and who sits at this screen
//! (everyone at a hot-seat table, one player in an online game).

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
    /// The players at this screen.
    pub here: Here,
    /// Heroes whose hidden pick this screen has sealed and sent, not revealed yet: their choice is
    /// made, though the game does not show it.
    pub sealed: Vec<usize>,
}

/// Who sits at this screen.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Here {
    /// Every player: they share the screen (hot-seat).
    #[default]
    Everyone,
    /// One player; the others play on other machines.
    Player(u32),
    /// Nobody who plays: a spectator's screen.
    Nobody,
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
            here: Here::Everyone,
            sealed: Vec::new(),
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

    /// Whether player `player` sits at this screen.
    pub fn plays_here(&self, player: u32) -> bool {
        match self.here {
            Here::Everyone => true,
            Here::Player(p) => p == player,
            Here::Nobody => false,
        }
    }

    /// Whether several players share this screen, so secret choices are handed over in turn.
    pub fn shared(&self) -> bool {
        self.here == Here::Everyone && self.players > 1
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
