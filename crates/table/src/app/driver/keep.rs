//! Saves on the table: the save file's name, where the game was last saved, an autosave every
//! round, and the players' moves no save holds.
//!
//! A save is the scenario, the seed and the action log (`foehold_core::game::save`), written to a
//! temporary file and renamed; loading replays it, so the table shows exactly the game saved.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use foehold_core::game::Game;
use foehold_core::game::save::Save;
use foehold_core::rules::Rules;
use foehold_loop::CoreGame;

use super::{Pace, Seats};
use crate::modules::Module;

/// Save and load on this table.
#[derive(Resource, Debug, Default, Clone)]
pub struct Keeping {
    /// The save file name in the menu's text field.
    pub path: String,
    /// The log position the last save, load or start holds.
    pub saved_at: Option<usize>,
    /// Where the autosave goes: one per module, so a table of other rules never loads it.
    pub autosave: PathBuf,
    /// The round the autosave last wrote.
    pub autosaved_round: u32,
}

impl Keeping {
    /// A table that has just put a game of rules `R` on (nothing to lose yet) at log position
    /// `cursor` of round `round`; the save file's name is kept if it is of the same rules.
    pub fn of<R: Rules>(&self, cursor: usize, round: u32) -> Keeping {
        let name = R::NAME.to_lowercase();
        let same = self.autosave == autosave_path::<R>();
        Keeping {
            path: if same && !self.path.is_empty() {
                self.path.clone()
            } else {
                format!("saves/{name}.ron")
            },
            saved_at: Some(cursor),
            autosave: autosave_path::<R>(),
            autosaved_round: round,
        }
    }
}

/// The players' moves on the table that no save holds: starting another game asks before it drops
/// them.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct AtRisk(pub usize);

impl AtRisk {
    /// The players' moves at risk in `game` when its last save or load holds it at log position
    /// `saved_at` (none: the start): their decisions between there and where the game stands. The
    /// rules' own steps, dice and draws are not counted, as a new game makes them again; so a table
    /// that has only made its own first move asks nothing.
    pub fn of<R: Rules>(game: &Game<R>, saved_at: Option<usize>) -> AtRisk {
        AtRisk(game.decisions_between(saved_at.unwrap_or(0), game.cursor))
    }
}

/// Where the autosave of rules `R` goes.
pub fn autosave_path<R: Rules>() -> PathBuf {
    PathBuf::from(format!("saves/autosave-{}.ron", R::NAME.to_lowercase()))
}

/// Writes `game` with the players' `seats` to `path` (its folder made first), atomically; an
/// autosave keeps a few earlier ones beside it.
pub fn write(
    storage: &mut dyn foehold_core::storage::Storage,
    game: &Game<impl Rules>,
    seats: &Seats,
    path: &Path,
    autosave: bool,
) -> Result<(), String> {
    let mut save = Save::of(game);
    // Seats the players confirmed come back with the game; unconfirmed ones are asked again.
    save.seats = seats.ready.then(|| seats.owner.clone());
    if autosave {
        save.write_autosave(storage, path)
    } else {
        save.write(storage, path)
    }
}

/// Autosaves when a new round begins and tells the New game window how many moves no save holds.
pub fn keep<R: Module>(
    game: Res<CoreGame<R>>,
    seats: Res<Seats>,
    mut keeping: ResMut<Keeping>,
    mut pace: ResMut<Pace>,
    mut at_risk: ResMut<AtRisk>,
    mut store: ResMut<crate::app::store::Store>,
) {
    // The autosave follows the game forward, a round at a time (not while stepping back in it).
    let g = &game.0;
    let round = R::round(&g.state);
    if round > keeping.autosaved_round && g.cursor == g.log.len() {
        keeping.autosaved_round = round;
        if round > 1
            && let Err(e) = write(store.0.as_mut(), g, &seats, &keeping.autosave, true)
        {
            pace.say(format!("autosave failed: {e}"));
        }
    }
    at_risk.set_if_neq(AtRisk::of(g, keeping.saved_at));
}
