//! The New game window: the scenarios of every rule module under `scenarios/` by name and
//! description, and a confirmation before a game with unsaved moves is discarded.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use crate::app::driver::open::scenario_files;
use crate::app::driver::{AtRisk, StartScenario};
use crate::app::tag::Tagged;
use crate::modules::{ForRules, Module, with_rules};

/// Whether the New game window is open.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct NewGameOpen(pub bool);

/// A scenario file's name and description, read by the rules it names.
struct About<'a> {
    file: &'a str,
    text: &'a str,
}

impl ForRules for About<'_> {
    type Out = Result<(String, String), String>;

    fn run<R: Module>(self) -> Self::Out {
        let s = R::parse_scenario(self.file, self.text).map_err(|e| e.to_string())?;
        Ok((
            R::scenario_name(&s).to_string(),
            R::scenario_about(&s).to_string(),
        ))
    }
}

/// The name and description of the scenario in `path`, or why it cannot be played.
fn about(path: &std::path::Path) -> Result<(String, String), String> {
    let text = foehold_core::error::read_file(path).map_err(|e| e.to_string())?;
    let file = path.display().to_string();
    with_rules(
        &file,
        &text,
        About {
            file: &file,
            text: &text,
        },
    )
    .map_err(|e| e.to_string())?
}

/// One scenario file as the list shows it.
struct Entry {
    path: PathBuf,
    name: String,
    /// The description, or why the file cannot be played.
    about: Result<String, String>,
}

fn entries() -> Vec<Entry> {
    scenario_files()
        .into_iter()
        .map(|path| match about(&path) {
            Ok((name, about)) => Entry {
                name,
                about: Ok(about),
                path,
            },
            Err(e) => Entry {
                name: path.display().to_string(),
                about: Err(e.to_string()),
                path,
            },
        })
        .collect()
}

/// The window's own state: the list read when it opened, and a choice waiting for confirmation.
#[derive(Default)]
pub struct Listing {
    entries: Option<Vec<Entry>>,
    confirm: Option<usize>,
}

pub fn new_game(
    mut contexts: EguiContexts,
    mut open: ResMut<NewGameOpen>,
    at_risk: Res<AtRisk>,
    mut starts: MessageWriter<StartScenario>,
    mut listing: Local<Listing>,
) -> Result {
    if !open.0 {
        listing.entries = None;
        listing.confirm = None;
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let listing = &mut *listing;
    let entries = listing.entries.get_or_insert_with(entries);
    let mut keep_open = true;
    let mut start = None;
    egui::Window::new("New game")
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .resizable(false)
        .collapsible(false)
        .open(&mut keep_open)
        .show(ctx, |ui| {
            if let Some(i) = listing.confirm {
                let moves = at_risk.0;
                ui.label(
                    egui::RichText::new(format!("Start \"{}\"?", entries[i].name))
                        .strong()
                        .size(16.0),
                );
                ui.label(format!(
                    "The game on the table has {moves} move(s) no save holds; they will be lost."
                ));
                ui.horizontal(|ui| {
                    if ui
                        .button("Discard it and start")
                        .tagged("newgame:discard")
                        .clicked()
                    {
                        start = Some(i);
                    }
                    if ui.button("Keep playing").tagged("newgame:keep").clicked() {
                        listing.confirm = None;
                    }
                });
                return;
            }
            ui.label("Choose a scenario; the Players window follows.");
            ui.separator();
            for (i, e) in entries.iter().enumerate() {
                match &e.about {
                    Ok(about) => {
                        if ui
                            .button(egui::RichText::new(&e.name).strong().size(15.0))
                            .tagged(format!("newgame:{}", e.name))
                            .clicked()
                        {
                            if at_risk.0 > 0 {
                                listing.confirm = Some(i);
                            } else {
                                start = Some(i);
                            }
                        }
                        if !about.is_empty() {
                            ui.weak(about);
                        }
                    }
                    Err(why) => {
                        ui.add_enabled(false, egui::Button::new(&e.name));
                        ui.colored_label(egui::Color32::from_rgb(255, 150, 90), why);
                    }
                }
                ui.add_space(4.0);
            }
        });
    if let Some(i) = start {
        starts.write(StartScenario(entries[i].path.clone()));
        keep_open = false;
    }
    if !keep_open {
        open.0 = false;
    }
    Ok(())
}
