//! The New game screen: the scenarios of every rule module under `scenarios/` by name and
//! description, and a confirmation before a game with unsaved moves is discarded. The game on the
//! table waits behind it, and going back to it builds its board again.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use crate::app::driver::{AtRisk, StartScenario};
use crate::app::screen::Screen;
use crate::app::store::Store;
use crate::app::tag::Tagged;
use crate::modules::{ForRules, Module, with_rules};
use foehold_core::rules::view::Side;
use foehold_core::rules::{PartyChoice, PartyOffer, TieBreaker};

/// A scenario file's name, rules and heroes, and description, read by the rules it names.
struct About<'a> {
    file: &'a str,
    text: &'a str,
}

/// What the list says of a scenario.
struct Listed {
    name: String,
    /// Its rules (the module's [`Module::RULES`]) and how many heroes it seats ("… · 2 heroes").
    what: String,
    about: String,
    /// The level and party it lets the players choose, if any.
    offer: Option<PartyOffer>,
}

impl ForRules for About<'_> {
    type Out = Result<Listed, String>;

    fn run<R: Module>(self) -> Self::Out {
        let s = R::parse_scenario(self.file, self.text).map_err(|e| e.to_string())?;
        let name = R::scenario_name(&s).to_string();
        let about = R::scenario_about(&s).to_string();
        let offer = R::party_offer(&s);
        // The heroes as the game sets them up (the players then share them out).
        let heroes = R::setup(std::sync::Arc::new(s), 0, TieBreaker::Table)
            .ok()
            .map(|state| {
                R::view(&state)
                    .figures
                    .iter()
                    .filter(|f| f.side == Side::Hero)
                    .count()
            });
        let what = match heroes {
            Some(1) => format!("{} · 1 hero", R::RULES),
            Some(n) => format!("{} · {n} heroes", R::RULES),
            None => R::RULES.to_string(),
        };
        Ok(Listed {
            name,
            what,
            about,
            offer,
        })
    }
}

/// What the list says of the scenario in `path`, or why it cannot be played.
fn about(store: &Store, path: &std::path::Path) -> Result<Listed, String> {
    let text = store.read(path)?;
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
    /// Its rules and heroes, and its description; or why the file cannot be played.
    about: Result<(String, String), String>,
    /// What the players may choose for it, and what they chose.
    offer: Option<PartyOffer>,
    choice: PartyChoice,
}

fn entries(store: &Store) -> Vec<Entry> {
    store
        .scenario_files()
        .into_iter()
        .map(|path| match about(store, &path) {
            Ok(Listed {
                name,
                what,
                about,
                offer,
            }) => Entry {
                name,
                about: Ok((what, about)),
                path,
                offer,
                choice: PartyChoice::default(),
            },
            Err(e) => Entry {
                name: path.display().to_string(),
                about: Err(e.to_string()),
                path,
                offer: None,
                choice: PartyChoice::default(),
            },
        })
        .collect()
}

/// The screen's own state: the list read when it opened, and a choice waiting for confirmation.
#[derive(Default)]
pub struct Listing {
    entries: Option<Vec<Entry>>,
    confirm: Option<usize>,
}

/// The widest the list grows, in logical pixels: lines of a readable length.
const COLUMN: f32 = 620.0;

pub fn new_game(
    mut contexts: EguiContexts,
    mut screen: ResMut<NextState<Screen>>,
    at_risk: Res<AtRisk>,
    mut starts: MessageWriter<StartScenario>,
    mut listing: Local<Listing>,
    store: Res<Store>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let listing = &mut *listing;
    let entries = listing.entries.get_or_insert_with(|| entries(&store));
    let mut back = false;
    let mut start = None;
    // The whole window: the board is put away while the players choose.
    let whole = ctx.content_rect();
    let frame = egui::Frame::central_panel(&ctx.global_style());
    let window = egui::Window::new("New game")
        .title_bar(false)
        .fixed_rect(whole)
        .frame(frame);
    window.show(ctx, |ui| {
        let margin = ((ui.available_width() - COLUMN) / 2.0).max(0.0);
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.add_space(margin);
                ui.vertical(|ui| {
                    ui.set_max_width(COLUMN);
                    ui.add_space(16.0);
                    ui.label(egui::RichText::new("New game").size(26.0).strong());
                    if ui
                        .button("◀ Back to the game")
                        .tagged("newgame:back")
                        .clicked()
                    {
                        back = true;
                    }
                    ui.add_space(8.0);
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
                                back = true;
                            }
                        });
                        return;
                    }
                    ui.label("Choose a scenario; the Players window follows.");
                    ui.separator();
                    for (i, e) in entries.iter_mut().enumerate() {
                        match &e.about {
                            Ok((what, about)) => {
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
                                ui.label(egui::RichText::new(what).small())
                                    .tagged(format!("newgame:{}:rules", e.name));
                                if !about.is_empty() {
                                    ui.weak(about);
                                }
                                if let Some(offer) = &e.offer {
                                    party_choice(ui, &e.name, offer, &mut e.choice);
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
            });
        });
    });
    if let Some(i) = start {
        // Putting the game on the table enters the table screen.
        starts.write(StartScenario(
            entries[i].path.clone(),
            entries[i].choice.clone(),
        ));
    } else if back {
        screen.set(Screen::Table);
    }
    if start.is_some() || back {
        // Read again next time: files may come and go meanwhile.
        *listing = Listing::default();
    }
    Ok(())
}

/// The number of characters and the scenario level, chosen under a scenario's name: nothing
/// chosen plays every hero at the recommended level.
fn party_choice(ui: &mut egui::Ui, name: &str, offer: &PartyOffer, choice: &mut PartyChoice) {
    let players = choice.players.unwrap_or(offer.all);
    let level = choice.level.unwrap_or(offer.recommended);
    if offer.players.clone().count() > 1 {
        ui.horizontal(|ui| {
            ui.label("Characters:");
            for n in offer.players.clone() {
                if ui
                    .selectable_label(players == n, n.to_string())
                    .tagged(format!("newgame:{name}:players:{n}"))
                    .clicked()
                {
                    choice.players = Some(n);
                }
            }
        });
    }
    if !offer.levels.is_empty() {
        ui.horizontal(|ui| {
            ui.label("Scenario level:");
            for &l in &offer.levels {
                let text = if l == offer.recommended {
                    format!("{l} (recommended)")
                } else {
                    l.to_string()
                };
                if ui
                    .selectable_label(level == l, text)
                    .tagged(format!("newgame:{name}:level:{l}"))
                    .clicked()
                {
                    choice.level = Some(l);
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rules' name, as the module a scenario file names declares it.
    struct RulesOf;

    impl ForRules for RulesOf {
        type Out = &'static str;

        fn run<R: Module>(self) -> &'static str {
            R::RULES
        }
    }

    #[test]
    fn the_list_names_each_scenarios_rules_and_heroes() {
        let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut named = Vec::new();
        for (file, heroes) in [
            ("tutorial.ron", 2),
            ("cinder-adit-ambush.ron", 3),
            ("dome-crossing.ron", 3),
        ] {
            let path = repo.join("scenarios").join(file);
            let text = std::fs::read_to_string(&path).unwrap();
            let rules = with_rules(file, &text, RulesOf).unwrap();
            let what = about(&Store::default(), &path).map(|l| l.what);
            assert_eq!(what, Ok(format!("{rules} · {heroes} heroes")), "{file}");
            named.push(rules);
        }
        named.dedup();
        assert_eq!(named.len(), 3, "three rule modules, three names: {named:?}");
    }
}
