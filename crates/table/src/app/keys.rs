//! The keyboard to the windows, key by key in the order pressed. `bevy_egui`'s own reader applies the
//! modifier keys as they stand at the end of a frame to every key of that frame, so at a low frame
//! rate a quick Ctrl+A (Ctrl down, A, Ctrl up within one frame) typed an "a" into a field instead
//! of selecting it; here each key carries the modifiers held when it went down. It replaces that
//! reader (`run_write_keyboard_input_messages_system` is off, see the dock's settings).

use bevy::input::keyboard::{Key, KeyboardFocusLost, KeyboardInput};
use bevy::prelude::*;
use bevy_egui::helpers::{bevy_to_egui_key, bevy_to_egui_physical_key};
use bevy_egui::input::EguiInputEvent;
use bevy_egui::{EguiInputSet, PrimaryEguiContext, egui};

use super::clipboard::System;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        PreUpdate,
        keys_in_order.in_set(EguiInputSet::ReadBevyMessages),
    );
}

/// The modifier keys held down, as of the key being read.
#[derive(Default, Clone, Copy, PartialEq, Debug)]
struct Held {
    shift: bool,
    ctrl: bool,
    alt: bool,
    /// The Windows, Super or Command key.
    logo: bool,
}

impl Held {
    /// Follows a modifier key going down or up; other keys change nothing.
    fn follow(&mut self, key: &Key, down: bool) {
        match key {
            Key::Shift => self.shift = down,
            Key::Control => self.ctrl = down,
            Key::Alt => self.alt = down,
            Key::Super | Key::Meta => self.logo = down,
            _ => {}
        }
    }

    fn egui(self) -> egui::Modifiers {
        let mac = cfg!(target_os = "macos");
        egui::Modifiers {
            alt: self.alt,
            ctrl: self.ctrl,
            shift: self.shift,
            mac_cmd: mac && self.logo,
            command: if mac { self.logo } else { self.ctrl },
        }
    }

    /// Whether a character key types its character: not under Ctrl or the logo key, except
    /// Ctrl+Alt, which is `AltGr` on keyboards that type special characters with it.
    fn types(self) -> bool {
        let mac = cfg!(target_os = "macos");
        (!self.logo && !self.ctrl) || (!mac && self.ctrl && self.alt)
    }
}

/// What one key going down or up says to egui, given the modifiers held as it went: the text it
/// types, the key itself, and the clipboard's copy, cut or paste (`paste` reads the clipboard).
fn key_events(
    held: Held,
    key: &Key,
    code: &KeyCode,
    down: bool,
    paste: impl FnOnce() -> Option<String>,
) -> Vec<egui::Event> {
    let mut out = Vec::new();
    if down && held.types() {
        match key {
            Key::Character(c) if !c.chars().any(char::is_control) => {
                out.push(egui::Event::Text(c.to_string()));
            }
            Key::Space => out.push(egui::Event::Text(" ".to_string())),
            _ => {}
        }
    }
    let physical_key = bevy_to_egui_physical_key(code);
    let Some(egui_key) = bevy_to_egui_key(key).or(physical_key) else {
        return out;
    };
    let modifiers = held.egui();
    out.push(egui::Event::Key {
        key: egui_key,
        pressed: down,
        repeat: false,
        modifiers,
        physical_key,
    });
    // In a browser the page's own copy, cut and paste events carry these (bevy_egui reads them).
    if down && modifiers.command && cfg!(not(target_arch = "wasm32")) {
        match egui_key {
            egui::Key::C => out.push(egui::Event::Copy),
            egui::Key::X => out.push(egui::Event::Cut),
            egui::Key::V => {
                if let Some(text) = paste() {
                    out.push(egui::Event::Text(text));
                }
            }
            _ => {}
        }
    }
    out
}

fn keys_in_order(
    mut held: Local<Held>,
    mut keys: MessageReader<KeyboardInput>,
    mut focus_lost: MessageReader<KeyboardFocusLost>,
    context: Query<Entity, With<PrimaryEguiContext>>,
    mut clipboard: Option<NonSendMut<System>>,
    mut out: MessageWriter<EguiInputEvent>,
) {
    // A key released while another window had the focus is never seen: nothing stays held.
    if !focus_lost.is_empty() {
        focus_lost.clear();
        *held = Held::default();
    }
    let Ok(context) = context.single() else {
        keys.clear();
        return;
    };
    for key in keys.read() {
        let down = key.state.is_pressed();
        held.follow(&key.logical_key, down);
        let paste = || clipboard.as_mut().and_then(|c| c.get());
        for event in key_events(*held, &key.logical_key, &key.key_code, down, paste) {
            out.write(EguiInputEvent { context, event });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(held: &mut Held, key: Key, code: KeyCode, down: bool) -> Vec<egui::Event> {
        held.follow(&key, down);
        key_events(*held, &key, &code, down, || Some("pasted".into()))
    }

    #[test]
    fn ctrl_a_within_one_frame_selects_and_types_nothing() {
        let mut held = Held::default();
        let a = || Key::Character("a".into());
        let mut events = press(&mut held, Key::Control, KeyCode::ControlLeft, true);
        events.extend(press(&mut held, a(), KeyCode::KeyA, true));
        events.extend(press(&mut held, a(), KeyCode::KeyA, false));
        events.extend(press(&mut held, Key::Control, KeyCode::ControlLeft, false));
        assert!(
            !events.iter().any(|e| matches!(e, egui::Event::Text(_))),
            "{events:?}"
        );
        let a_down = events.iter().find_map(|e| match e {
            egui::Event::Key {
                key: egui::Key::A,
                pressed: true,
                modifiers,
                ..
            } => Some(*modifiers),
            _ => None,
        });
        assert_eq!(a_down.map(|m| m.command), Some(true), "{events:?}");
        // And the next key, after Ctrl went up in the same frame, types.
        let typed = press(&mut held, a(), KeyCode::KeyA, true);
        assert_eq!(typed.first(), Some(&egui::Event::Text("a".into())));
    }

    #[test]
    fn ctrl_v_pastes_the_clipboard_and_ctrl_c_copies() {
        let mut held = Held::default();
        press(&mut held, Key::Control, KeyCode::ControlLeft, true);
        let v = press(&mut held, Key::Character("v".into()), KeyCode::KeyV, true);
        assert!(v.contains(&egui::Event::Text("pasted".into())), "{v:?}");
        let c = press(&mut held, Key::Character("c".into()), KeyCode::KeyC, true);
        assert!(c.contains(&egui::Event::Copy), "{c:?}");
        assert!(!c.iter().any(|e| matches!(e, egui::Event::Text(_))));
    }

    #[test]
    #[cfg(not(target_os = "macos"))]
    fn altgr_types_and_space_is_text() {
        let mut held = Held::default();
        press(&mut held, Key::Control, KeyCode::ControlLeft, true);
        press(&mut held, Key::Alt, KeyCode::AltRight, true);
        let at = press(&mut held, Key::Character("@".into()), KeyCode::KeyQ, true);
        assert_eq!(at.first(), Some(&egui::Event::Text("@".into())));
        let mut held = Held::default();
        let space = press(&mut held, Key::Space, KeyCode::Space, true);
        assert_eq!(space.first(), Some(&egui::Event::Text(" ".into())));
    }
}
