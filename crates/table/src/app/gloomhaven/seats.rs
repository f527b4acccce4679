//! Hot-seat at a Gloomhaven table: who picks cards next, whose hero may be given orders, and the
//! "pass to Player N" hand-off before each player's secret card choice.

use bevy::prelude::*;
use foehold_core::rules::gloomhaven::{Phase, State};

use crate::app::driver::Seats;

/// The hand-off screen between players' secret choices.
#[derive(Resource, Debug, Default)]
pub struct Gate {
    /// The player whose secret panel is open (they confirmed they hold the screen).
    pub open_for: Option<u32>,
}

/// The lowest-numbered player at this screen with a hero still to pick cards (a pick sealed and
/// sent is made).
pub fn next_chooser(seats: &Seats, s: &State) -> Option<u32> {
    s.active_heroes()
        .filter(|&h| s.heroes[h].selected.is_none() && s.heroes[h].long_rest.is_none())
        .filter(|h| !seats.sealed.contains(h))
        .map(|h| seats.owner_of(h))
        .filter(|&p| seats.plays_here(p))
        .min()
}

/// The player who must act now, if the players are to act.
#[cfg(feature = "dev")]
pub fn current(seats: &Seats, s: &State) -> Option<u32> {
    match s.phase {
        Phase::HeroTurn { hero, .. } => Some(seats.owner_of(hero)),
        Phase::CardSelection => next_chooser(seats, s),
        _ => None,
    }
}

/// Whether orders may be given to `hero` now; the refusal says why not.
pub fn may_command(seats: &Seats, s: &State, hero: usize) -> Result<(), String> {
    let name = &s.scenario.heroes[hero].name;
    match s.phase {
        Phase::HeroTurn { hero: h, .. } if h == hero => Ok(()),
        Phase::HeroTurn { hero: h, .. } => {
            Err(seats.not_now(name, hero, &s.scenario.heroes[h].name, h))
        }
        _ => Err(format!("it is not {name}'s turn")),
    }
}
