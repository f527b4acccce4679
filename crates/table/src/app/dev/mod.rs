//! The table's tools for tests and measurements (feature `dev`): the screenshot that a test checks
//! is not blank, the frame-time benchmark, and the probe a program driving the table with a real
//! pointer reads. A player's build has none of them.

use bevy::prelude::*;

mod bench;
pub mod probe;
mod screenshot;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((screenshot::plugin, bench::plugin, probe::plugin));
}
