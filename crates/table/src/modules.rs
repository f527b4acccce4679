//! The rule modules on the table: what each adds to the table every module shares.
//!
//! This is the bottom of the table's modules: it names no other part of the table, so each part
//! (the driver, the lab, online play, a module's own table folder) may expand the list here. A
//! module with a table folder of its own implements [`Module`] there (the Gloomhaven family in
//! `app/gloomhaven`); the others here.

use bevy::prelude::App;
use foehold_core::kit;
use foehold_core::lab::any::{AnyBench, Plan, moment_bench, plan_of, play_on_bench};
use foehold_core::rules::brimstone::Brimstone;
use foehold_core::rules::goals::Goals;

/// What a module adds to the shared table.
#[derive(Debug, Clone, Copy)]
pub struct Extra {
    /// Adds the module's own systems and windows; each runs only while the module's game is on
    /// the table (the driver's `playing`).
    pub plugin: fn(&mut App),
    /// Whether the shared table offers the heroes' moves (lit cells and a moves window): a module
    /// with its own way of building a move (from card halves, say) says no.
    pub moves: bool,
}

impl Extra {
    /// Nothing of its own: the shared table plays the module whole.
    pub const NONE: Extra = Extra {
        plugin: nothing,
        moves: true,
    };
}

fn nothing(_: &mut App) {}

/// A rule module as the table plays it: a module of the kit ([`kit::Module`]: its rules, how
/// they read, its lab and coverage) with what it adds to the 3D table.
pub trait Module: kit::Module {
    /// What the module adds to the 3D table: its own windows and clicks.
    const TABLE: Extra;
    /// The rules as the New game list names them.
    const RULES: &'static str;

    /// A bench on the moment of a game in the position lab ([`foehold_core::lab::Lab::moment`]).
    fn bench_of_moment(state: &Self::State) -> Result<Box<dyn AnyBench>, String> {
        moment_bench::<Self>(state)
    }
    /// "Play on from here": the action that puts the lab's edits to a moment into the game
    /// ([`foehold_core::lab::Bench::play_on`]), `None` when nothing was edited.
    fn play_on(state: &Self::State, bench: &dyn AnyBench) -> Result<Option<Self::Action>, String> {
        play_on_bench::<Self>(state, bench)
    }
    /// What foe `figure` would do if it acted now ([`foehold_core::lab::any::plan_of`]).
    fn plan(state: &Self::State, figure: u32) -> Plan {
        plan_of::<Self>(state, figure)
    }
}

impl Module for Brimstone {
    // The shared table plays it whole: moves on lit cells and as buttons.
    const TABLE: Extra = Extra::NONE;
    const RULES: &'static str = "a Brimstone-style fight";
}

impl Module for Goals {
    const TABLE: Extra = Extra::NONE;
    const RULES: &'static str = "goal-priority foes";
}

/// The test-only toy's table part: nothing beyond the shared table. The list carries the toy in
/// this crate's tests, where a toy without it would not compile.
#[cfg(test)]
impl Module for foehold_core::rules::toy::Toy {
    const TABLE: Extra = Extra::NONE;
    const RULES: &'static str = "a toy game";
}

foehold_core::modules!(Module);
