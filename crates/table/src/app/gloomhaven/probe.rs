//! A Gloomhaven game's own words in the probe (`--probe`): its phase and pending choice as the
//! rules name them, the player to act by the card choice's order, and the hand-off.

use bevy::prelude::*;
use foehold_core::rules::gloomhaven::Gloomhaven;
use serde_json::json;

use super::CoreGame;
use super::seats::{Gate, current};
use crate::app::Options;
use crate::app::dev::probe::{Filled, ProbeGame, Written};
use crate::app::driver::{Seats, playing};

pub(super) fn plugin(app: &mut App) {
    if app.world().resource::<Options>().tools.probe.is_some() {
        app.add_systems(
            Last,
            words
                .after(Filled)
                .before(Written)
                .run_if(playing::<Gloomhaven>()),
        );
    }
}

fn words(game: Res<CoreGame>, seats: Res<Seats>, gate: Res<Gate>, mut out: ResMut<ProbeGame>) {
    let s = &game.0.state;
    out.0["game"]["phase"] = json!(format!("{:?}", s.phase));
    out.0["game"]["pending"] = json!(s.pending.as_ref().map(|p| format!("{p:?}")));
    out.0["seats"]["current"] = json!(current(&seats, s));
    out.0["seats"]["handed_to"] = json!(gate.open_for);
    // The cards each hero plays this round, by name, once they are revealed.
    let selected: serde_json::Map<String, serde_json::Value> = s
        .heroes
        .iter()
        .zip(&s.scenario.heroes)
        .filter_map(|(h, spec)| {
            let [a, b] = h.selected?;
            let name = |i: usize| spec.cards.get(i).map(|c| c.name.clone());
            Some((spec.name.clone(), json!([name(a), name(b)])))
        })
        .collect();
    out.0["game"]["selected"] = json!(selected);
}
