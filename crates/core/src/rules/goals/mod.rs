//! Goal-priority foes: a foe without a card of its own takes the first goal option it can carry out.
//!
//! Its goal list is Attack or Special, then Adventure. The board is of hexes with woods, rough
//! ground, Domes and their keys, adventures and loot; the override card and Choose Target pick whom.
//!
//! [`decide`] is the whole rule: a [`Situation`] in, every outcome the players may choose between
//! out, with a trace that walks the option list in a player's words. `case.rs` reads the `GoalTurn`
//! case files into situations; `docs/rules-goals.md` says how the printed rules are read.

pub mod adventure;
pub mod attack_goal;
pub mod board;
pub mod case;
mod context;
pub mod movement;
pub mod reaction;
pub mod situation;
pub mod special_goal;
pub mod stacking;
pub mod target;

#[cfg(test)]
mod tests;

pub use board::{Adventure, Board, BoardSpec, DomeKey, Loot};
pub use situation::{
    Affects, Aura, AuraEffect, Foe, GoalOption, Hero, Item, ItemEffect, ItemKind, MinionCard,
    MinionMove, Mode, Outcome, OverrideCard, Pick, Rating, Situation, Weapon,
};

use crate::decision::Decision;

/// What the active foe does: every allowed outcome (sorted, no repeats) and the trace.
pub fn decide(s: &Situation) -> Decision<Outcome> {
    let me = &s.foes[s.active];
    let mut trace = vec![format!(
        "{} acts from ({}, {}), {}.",
        me.name,
        me.hex.x,
        me.hex.y,
        match s.mode {
            Mode::Attack => "Attack goal",
            Mode::Special => "Special goal",
            Mode::MeleeStep => "Melee step",
            Mode::ReactionShot => "reaction shot",
        }
    )];
    let mut options = match s.mode {
        Mode::Attack | Mode::Special => stacking::turn(s, &mut trace),
        Mode::MeleeStep => context::Ctx::for_foe(s, None, true).melee_step(&mut trace),
        Mode::ReactionShot => context::Ctx::for_foe(s, None, true).reaction_shot(&mut trace),
    };
    for o in &mut options {
        o.used.sort();
    }
    options.sort();
    options.dedup();
    if options.len() > 1 {
        trace.push(format!("{} outcomes: the players choose.", options.len()));
    }
    Decision { options, trace }
}
