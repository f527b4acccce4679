//! The pointer as the windows see it: moves and button presses handed to egui in order, never
//! more than one click per frame, so a click at a low frame rate is not lost.
//!
//! egui decides what a frame's clicks hit from where the pointer is at the end of the frame. At a
//! few frames a second a quick hand clicks a button and moves on within one frame, and the click
//! went to wherever the pointer ended up. Here the frame's events stop after a button is released;
//! the rest wait for the next frame.

use std::collections::VecDeque;

use bevy::input::ButtonState;
use bevy::prelude::*;
use bevy::window::WindowEvent;
use bevy_egui::input::{EguiContextPointerPosition, EguiInputEvent, ModifierKeysState};
use bevy_egui::{EguiGlobalSettings, EguiInputSet, EguiZoomFactor, PrimaryEguiContext, egui};

/// A pointer event waiting to be handed to egui.
#[derive(Debug, Clone, Copy)]
enum Pending {
    Moved(Vec2),
    Button(egui::PointerButton, bool),
}

pub(super) fn plugin(app: &mut App) {
    // This plugin hands egui the window's pointer moves and buttons in place of bevy_egui.
    let mut settings = app
        .world_mut()
        .get_resource_or_insert_with(EguiGlobalSettings::default);
    settings
        .input_system_settings
        .run_write_window_pointer_moved_messages = false;
    settings
        .input_system_settings
        .run_write_pointer_button_messages = false;
    app.add_systems(PreUpdate, hand_to_egui.in_set(EguiInputSet::FocusContext));
}

fn button(b: MouseButton) -> Option<egui::PointerButton> {
    match b {
        MouseButton::Left => Some(egui::PointerButton::Primary),
        MouseButton::Right => Some(egui::PointerButton::Secondary),
        MouseButton::Middle => Some(egui::PointerButton::Middle),
        MouseButton::Back => Some(egui::PointerButton::Extra1),
        MouseButton::Forward => Some(egui::PointerButton::Extra2),
        MouseButton::Other(_) => None,
    }
}

fn hand_to_egui(
    mut events: MessageReader<WindowEvent>,
    mut queue: Local<VecDeque<Pending>>,
    modifiers: Res<ModifierKeysState>,
    mut contexts: Query<
        (Entity, &EguiZoomFactor, &mut EguiContextPointerPosition),
        With<PrimaryEguiContext>,
    >,
    mut to_egui: MessageWriter<EguiInputEvent>,
) {
    for e in events.read() {
        match e {
            WindowEvent::CursorMoved(m) => queue.push_back(Pending::Moved(m.position)),
            WindowEvent::MouseButtonInput(b) => {
                if let Some(button) = button(b.button) {
                    queue.push_back(Pending::Button(button, b.state == ButtonState::Pressed));
                }
            }
            _ => {}
        }
    }
    let Ok((context, zoom, mut pointer)) = contexts.single_mut() else {
        queue.clear();
        return;
    };
    let modifiers = modifiers.to_egui_modifiers();
    while let Some(next) = queue.pop_front() {
        let event = match next {
            Pending::Moved(at) => {
                pointer.position = egui::pos2(at.x, at.y) / zoom.zoom_factor;
                egui::Event::PointerMoved(pointer.position)
            }
            Pending::Button(button, pressed) => egui::Event::PointerButton {
                pos: pointer.position,
                button,
                pressed,
                modifiers,
            },
        };
        to_egui.write(EguiInputEvent { context, event });
        if matches!(next, Pending::Button(_, false)) {
            break;
        }
    }
}
