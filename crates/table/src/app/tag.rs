//! Names on-screen widgets for the probe of the table's tools (`--probe`): a no-op unless the probe
//! asks for them, so the windows tag their buttons whatever the build.

use bevy_egui::egui;

/// Buttons marked this frame: name, rectangle (logical pixels), whether it can be clicked, and
/// the part of the rectangle shown (a widget of a list that scrolls may be cut off by its window).
#[derive(Clone, Default)]
pub struct Tags(pub Vec<(String, egui::Rect, bool, egui::Rect)>);

fn tags_id() -> egui::Id {
    egui::Id::new("foehold-probe-tags")
}

fn probing_id() -> egui::Id {
    egui::Id::new("foehold-probing")
}

/// Names a widget for the probe (a no-op unless the table runs with `--probe`).
pub fn tag(response: &egui::Response, name: impl Into<String>) {
    let ctx = &response.ctx;
    if !ctx.data(|d| d.get_temp::<bool>(probing_id()).unwrap_or(false)) {
        return;
    }
    let entry = (
        name.into(),
        response.rect,
        response.enabled(),
        response.interact_rect,
    );
    ctx.data_mut(|d| {
        let tags = d.get_temp_mut_or_default::<Tags>(tags_id());
        // A widget drawn twice in a frame (egui may run a second pass) counts once, as last drawn.
        tags.0.retain(|(n, ..)| *n != entry.0);
        tags.0.push(entry);
    });
}

/// The widgets tagged since the last call, and from now on tag every frame's: the probe's writer
/// takes them once a frame.
#[cfg(feature = "dev")]
pub fn take(ctx: &egui::Context) -> Tags {
    ctx.data_mut(|d| d.insert_temp(probing_id(), true));
    ctx.data_mut(|d| d.remove_temp::<Tags>(tags_id()).unwrap_or_default())
}

/// [`tag`] in a chain: `ui.button("Start").tagged("players:start").clicked()`.
pub trait Tagged {
    /// Names the widget for the probe and gives it back.
    fn tagged(self, name: impl Into<String>) -> Self;
}

impl Tagged for egui::Response {
    fn tagged(self, name: impl Into<String>) -> Self {
        tag(&self, name);
        self
    }
}
