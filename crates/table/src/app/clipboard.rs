//! The system clipboard: a code or a join code copied by a button goes there, and a notice says
//! that it did, or that it could not and what to do instead; text copied or cut in a field goes
//! there too, and Ctrl+V pastes from it (`keys.rs`).

use bevy::prelude::*;
use bevy_egui::{EguiOutput, EguiPostUpdateSet, EguiPrimaryContextPass, PrimaryEguiContext, egui};

use super::notice::Notice;

/// A copy asked for this frame.
#[derive(Resource, Default)]
pub struct Clipboard {
    asked: Option<(String, String)>,
}

impl Clipboard {
    /// Puts `text` on the system clipboard once this frame's windows are drawn; `what` names it
    /// in the notice ("the join code").
    pub fn copy(&mut self, what: &str, text: String) {
        self.asked = Some((what.to_string(), text));
    }
}

/// The system's clipboard, open for the table's whole life: on X11 the program that copied a text
/// hands it out itself, for as long as it keeps the clipboard open. None where it cannot be
/// opened (no display, or a platform without one).
pub struct System(Option<Inner>);

#[cfg(not(any(target_arch = "wasm32", target_os = "android")))]
type Inner = arboard::Clipboard;
#[cfg(any(target_arch = "wasm32", target_os = "android"))]
type Inner = std::convert::Infallible;

impl System {
    fn open() -> System {
        #[cfg(not(any(target_arch = "wasm32", target_os = "android")))]
        let inner = arboard::Clipboard::new().ok();
        #[cfg(any(target_arch = "wasm32", target_os = "android"))]
        let inner = None;
        System(inner)
    }

    /// Puts `text` there and reads it back: true only if it is there now.
    pub fn set(&mut self, text: &str) -> bool {
        #[cfg(not(any(target_arch = "wasm32", target_os = "android")))]
        if let Some(c) = &mut self.0 {
            return c.set_text(text).is_ok() && c.get_text().ok().as_deref() == Some(text);
        }
        let _ = text;
        false
    }

    /// The text there, if any.
    pub fn get(&mut self) -> Option<String> {
        #[cfg(not(any(target_arch = "wasm32", target_os = "android")))]
        if let Some(c) = &mut self.0 {
            return c.get_text().ok();
        }
        None
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Clipboard>()
        .insert_non_send(System::open())
        .add_systems(
            EguiPrimaryContextPass,
            copy_asked
                .after(super::ui::Windows)
                .before(super::notice::show_notice),
        )
        .add_systems(
            PostUpdate,
            copied_in_fields.after(EguiPostUpdateSet::ProcessOutput),
        );
}

/// Writes the copy asked for and reads it back: only text that is on the clipboard is called
/// copied.
fn copy_asked(
    mut clipboard: ResMut<Clipboard>,
    mut notice: ResMut<Notice>,
    system: Option<NonSendMut<System>>,
) {
    let Some((what, text)) = clipboard.asked.take() else {
        return;
    };
    let reached = system.is_some_and(|mut system| system.set(&text));
    if reached {
        notice.done(format!("{what} is copied to the clipboard"));
    } else {
        notice.failed(format!(
            "the clipboard could not be reached: select {what} and copy it with Ctrl+C"
        ));
    }
}

/// Text a player copied or cut in a field (Ctrl+C, Ctrl+X), as egui hands it out this frame.
fn copied_in_fields(
    output: Query<&EguiOutput, With<PrimaryEguiContext>>,
    system: Option<NonSendMut<System>>,
) {
    let (Ok(output), Some(mut system)) = (output.single(), system) else {
        return;
    };
    for command in &output.platform_output.commands {
        if let egui::OutputCommand::CopyText(text) = command
            && !text.is_empty()
        {
            system.set(text);
        }
    }
}
