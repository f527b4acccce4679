//! Where the players' attention is: typing in a text field (the table's keys are text then) or
//! pointing at a window (a click there is not for the board).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// Whether a window covers this point of the screen (logical pixels). Name plates and lines paint
/// on the background layer and cover nothing. Windows stay where they were last drawn, so this is
/// right for where the pointer is now, unlike egui's "wants the pointer", which is a frame late.
pub fn window_at(ctx: &egui::Context, p: Vec2) -> bool {
    ctx.layer_id_at(egui::pos2(p.x, p.y))
        .is_some_and(|l| l.order != egui::Order::Background)
}

/// Whether the players are typing in a text field (as of the last frame): the table's keys are
/// text then, not commands. A focused button does not count: egui focuses whatever was clicked,
/// and Ctrl+Z right after a click on Play was taken for the button's.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Typing(pub bool);

pub fn note_typing(mut contexts: EguiContexts, mut typing: ResMut<Typing>) -> Result {
    let now = Typing(contexts.ctx_mut()?.text_edit_focused());
    typing.set_if_neq(now);
    Ok(())
}

/// Whether Ctrl is held for a shortcut this frame. A quick Ctrl+Z at a low frame rate presses and
/// releases Ctrl within one frame, so a Ctrl released this frame counts as held.
pub fn ctrl_held(keys: &ButtonInput<KeyCode>) -> bool {
    let ctrls = [KeyCode::ControlLeft, KeyCode::ControlRight];
    keys.any_pressed(ctrls) || keys.any_just_released(ctrls)
}
