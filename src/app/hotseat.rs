//! Hot-seat: which player owns which hero, whose turn it is, refusals for clicks on figures a player
//! does not own, and the "pass to Player N" hand-off before each player's secret card choice.

use bevy::prelude::*;
use foehold_core::rules::gloomhaven::{Phase, State};

use super::CoreGame;
use super::Options;

/// Players and the heroes they own.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct Seats {
    pub players: u32,
    /// Owning player (1-based) per hero.
    pub owner: Vec<u32>,
    /// The setup screen has been confirmed.
    pub ready: bool,
}

impl Seats {
    pub fn owner_of(&self, hero: usize) -> u32 {
        self.owner.get(hero).copied().unwrap_or(1)
    }

    /// The player who must act now, if the players are to act.
    pub fn current(&self, s: &State) -> Option<u32> {
        match s.phase {
            Phase::HeroTurn { hero, .. } => Some(self.owner_of(hero)),
            Phase::CardSelection => self.next_chooser(s),
            _ => None,
        }
    }

    /// The lowest-numbered player with a hero still to pick cards.
    pub fn next_chooser(&self, s: &State) -> Option<u32> {
        s.active_heroes()
            .filter(|&h| s.heroes[h].selected.is_none() && s.heroes[h].long_rest.is_none())
            .map(|h| self.owner_of(h))
            .min()
    }

    /// Whether `player` may give orders to `hero` now; the refusal says why not.
    pub fn may_command(&self, s: &State, hero: usize) -> Result<(), String> {
        let name = &s.scenario.heroes[hero].name;
        match s.phase {
            Phase::HeroTurn { hero: h, .. } if h == hero => Ok(()),
            Phase::HeroTurn { hero: h, .. } => {
                Err(self.not_now(name, hero, &s.scenario.heroes[h].name, h))
            }
            _ => Err(format!("it is not {name}'s turn")),
        }
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

/// The hand-off screen between players' secret choices.
#[derive(Resource, Debug, Default)]
pub struct Gate {
    /// The player whose secret panel is open (they confirmed they hold the screen).
    pub open_for: Option<u32>,
}

impl Seats {
    /// The seats a scenario suggests (each hero's `player`), not yet confirmed.
    pub fn of_state(s: &State) -> Seats {
        Seats::of_owners(s.scenario.heroes.iter().map(|h| h.player).collect())
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

    /// Seats for a new game's heroes, to be confirmed again in the Players window.
    pub fn reseat(&mut self, s: &State) {
        *self = Seats::of_state(s);
    }
}

pub(super) fn plugin(app: &mut App) {
    let options = app.world().resource::<Options>().clone();
    let mut seats = Seats::of_state(&app.world().resource::<CoreGame>().0.state);
    // Unattended runs (screenshots, autoplay) skip the setup screen.
    seats.ready = options.autoplay || options.screenshot.is_some() || options.bench_frames > 0;
    app.insert_resource(seats).init_resource::<Gate>();
}
