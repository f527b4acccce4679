//! What the board draws of the rules' last steps, over the minis: an aim line, a path, words rising
//! over figures. The driver fills it from the module's cues; the egui layer draws it.

use bevy::prelude::*;
use foehold_core::rules::view::CellKey;

/// A few words (damage, healing, a condition) rising over a figure.
#[derive(Debug, Clone)]
pub struct Popup {
    pub figure: u32,
    pub text: String,
    pub harm: bool,
    pub age: f32,
}

/// What the board draws of the last steps: an aim line, a path, words over figures.
#[derive(Resource, Debug, Default)]
pub struct Shown {
    /// The figure acting and the figures it aims at.
    pub focus: Option<(u32, Vec<u32>)>,
    pub path: Vec<CellKey>,
    pub popups: Vec<Popup>,
}
