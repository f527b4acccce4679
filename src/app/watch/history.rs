//! The History window of the other modules' table: every action with its round, undone ones kept to
//! redo; a click goes to the game just after it.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use foehold_core::rules::Present;
use foehold_loop::CoreGame;

use super::Watching;

/// The History window: whether it is open, and the lines of the actions it last listed.
#[derive(Resource)]
pub(super) struct History<R: Present> {
    pub open: bool,
    /// The actions the lines were told from, to tell them again only when the log changed.
    actions: Vec<R::Action>,
    lines: Vec<String>,
}

impl<R: Present> Default for History<R> {
    fn default() -> Self {
        History {
            open: false,
            actions: Vec::new(),
            lines: Vec::new(),
        }
    }
}

/// "round N · what was done", for every action of the log, told from the state before it.
pub(super) fn lines<R: Present>(initial: &R::State, actions: &[R::Action]) -> Vec<String> {
    let mut state = initial.clone();
    actions
        .iter()
        .map(|a| {
            let line = format!(
                "round {} · {}",
                R::round(&state),
                R::action_label(&state, a)
            );
            // Every logged action was accepted once from this very state.
            let _ = R::apply(&mut state, a.clone());
            line
        })
        .collect()
}

pub(super) fn history<R: Present>(
    mut contexts: EguiContexts,
    game: Res<CoreGame<R>>,
    mut history: ResMut<History<R>>,
    mut watching: ResMut<Watching>,
) -> Result {
    if !history.open {
        return Ok(());
    }
    let g = &game.0;
    if history.actions.as_slice() != g.actions() || history.lines.len() != g.actions().len() {
        history.lines = lines::<R>(g.initial(), g.actions());
        history.actions = g.actions().to_vec();
    }
    let mut open = true;
    let mut jump = None;
    egui::Window::new("History")
        .default_pos([8.0, 280.0])
        .default_width(320.0)
        .open(&mut open)
        .show(contexts.ctx_mut()?, |ui| {
            jump = crate::app::windows::history_list(ui, &history.lines, g.cursor);
        });
    history.open = open;
    watching.jump = jump;
    Ok(())
}
