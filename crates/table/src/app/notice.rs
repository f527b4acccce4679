//! A line at the foot of the window for a few seconds: what a button did where it cannot be seen
//! (a file written, a text copied), or that it could not. It lies in an area of its own, so
//! nothing else moves for it.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::tag::Tagged;

/// How long a notice stays, in seconds of real time (a slow frame rate does not shorten it).
const SHOWN_FOR: f64 = 4.0;

/// The notice on screen, if any.
#[derive(Resource, Default)]
pub struct Notice(Option<Shown>);

struct Shown {
    text: String,
    ok: bool,
    /// When it was first drawn (real seconds).
    since: Option<f64>,
}

impl Notice {
    /// Tells that something was done.
    pub fn done(&mut self, text: impl Into<String>) {
        self.show(text.into(), true);
    }

    /// Tells that something could not be done, and why.
    pub fn failed(&mut self, text: impl Into<String>) {
        self.show(text.into(), false);
    }

    /// The notice's text while it is on screen (or about to be), and whether it tells of a success
    /// (for the probe).
    #[cfg(feature = "dev")]
    pub fn shown(&self) -> Option<(&str, bool)> {
        self.0.as_ref().map(|s| (s.text.as_str(), s.ok))
    }

    fn show(&mut self, text: String, ok: bool) {
        self.0 = Some(Shown {
            text,
            ok,
            since: None,
        });
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Notice>().add_systems(
        EguiPrimaryContextPass,
        show_notice.after(super::ui::Windows),
    );
}

pub(super) fn show_notice(
    mut contexts: EguiContexts,
    mut notice: ResMut<Notice>,
    time: Res<Time<Real>>,
) -> Result {
    let now = time.elapsed_secs_f64();
    let Some(shown) = &mut notice.0 else {
        return Ok(());
    };
    let since = *shown.since.get_or_insert(now);
    if now - since > SHOWN_FOR {
        notice.0 = None;
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let (colour, tag) = if shown.ok {
        (egui::Color32::from_rgb(150, 225, 150), "notice")
    } else {
        (egui::Color32::from_rgb(255, 150, 90), "notice:failed")
    };
    egui::Area::new(egui::Id::new("foehold-notice"))
        .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -36.0])
        .order(egui::Order::Tooltip)
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.colored_label(colour, &shown.text).tagged(tag);
            });
        });
    Ok(())
}
