//! Saves on the other modules' table: save and load by name, and an autosave every round.
//!
//! A save is the scenario, the seed and the action log (`foehold_core::game::save`), written to a
//! temporary file and renamed; loading replays it, so the table shows exactly the game saved.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy_egui::egui;
use foehold_core::game::Game;
use foehold_core::game::save::Save;
use foehold_core::rules::{Present, Rules};
use foehold_loop::CoreGame;

use super::{Seen, Watching, seats_of};
use crate::app::hotseat::Seats;
use crate::app::probe::Tagged;
use crate::app::table::Table;
use crate::app::view::BoardView;
use crate::app::windows::AtRisk;

/// Save and load on this table: the file name being edited, where the game was last saved, and a
/// save or load asked for by a button.
#[derive(Resource, Debug)]
pub(super) struct Keeping {
    /// The save file name in the text field.
    pub path: String,
    /// The log position the last save or load holds.
    pub saved_at: Option<usize>,
    /// Where the autosave goes.
    autosave: PathBuf,
    /// The round the autosave last wrote.
    autosaved_round: u32,
    asked: Option<Ask>,
}

/// A button's request, done by [`keep`].
#[derive(Debug, Clone, PartialEq, Eq)]
enum Ask {
    Save(PathBuf),
    Load(PathBuf),
}

impl Keeping {
    /// A table of rules `R` that has just started a game (nothing to lose yet).
    pub(super) fn new<R: Present>() -> Keeping {
        Keeping {
            path: format!("saves/{}.ron", R::NAME.to_lowercase()),
            saved_at: Some(0),
            autosave: autosave_path::<R>(),
            autosaved_round: 0,
            asked: None,
        }
    }
}

/// Where the autosave of rules `R` goes: one per module, so tables of other rules never load it.
fn autosave_path<R: Present>() -> PathBuf {
    PathBuf::from(format!("saves/autosave-{}.ron", R::NAME.to_lowercase()))
}

/// The row of the moves window with the save file's name, Save, Load and Load autosave.
pub(super) fn buttons(ui: &mut egui::Ui, keeping: &mut Keeping) {
    ui.horizontal(|ui| {
        ui.add(egui::TextEdit::singleline(&mut keeping.path).desired_width(130.0));
        if ui.button("Save").tagged("menu:save").clicked() {
            keeping.asked = Some(Ask::Save(PathBuf::from(&keeping.path)));
        }
        if ui.button("Load").tagged("menu:load").clicked() {
            keeping.asked = Some(Ask::Load(PathBuf::from(&keeping.path)));
        }
        if ui
            .button("Load autosave")
            .tagged("menu:load-autosave")
            .clicked()
        {
            keeping.asked = Some(Ask::Load(keeping.autosave.clone()));
        }
    });
}

/// Writes `game` to `path` (its folder made first), atomically.
fn write(game: &Game<impl Rules>, path: &Path, autosave: bool) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let save = Save::of(game);
    if autosave {
        save.write_autosave(path)
    } else {
        save.write(path)
    }
}

/// Does what the buttons asked, autosaves when a new round begins and tells the New game window
/// how many moves no save holds.
pub(super) fn keep<R: Present>(
    mut game: ResMut<CoreGame<R>>,
    mut keeping: ResMut<Keeping>,
    mut watching: ResMut<Watching>,
    mut table: ResMut<Table>,
    mut seen: ResMut<Seen<R>>,
    mut seats: ResMut<Seats>,
    mut at_risk: ResMut<AtRisk>,
) {
    match keeping.asked.take() {
        Some(Ask::Save(path)) => match write(&game.0, &path, false) {
            Ok(()) => {
                keeping.saved_at = Some(game.0.cursor);
                watching.say(format!("saved to {}", path.display()));
            }
            Err(e) => watching.say(format!("could not save {}: {e}", path.display())),
        },
        Some(Ask::Load(path)) => match Save::<R>::load(&path)
            .map_err(|e| e.to_string())
            .and_then(|s| s.replay(&path))
        {
            Ok(loaded) => {
                let view = R::view(&loaded.state);
                let generation = table.generation + 1;
                let title = R::scenario_name(&loaded.scenario).to_string();
                *table = Table::of_view(title, BoardView::of(&view));
                table.generation = generation;
                table.show(view);
                // Who plays which hero is asked again: the save may be of other heroes.
                *seats = seats_of::<R>(&loaded.state);
                seen.0 = loaded.state.clone();
                keeping.saved_at = Some(loaded.cursor);
                keeping.autosaved_round = R::round(&loaded.state);
                game.0 = loaded;
                watching.log = game.0.log_lines();
                watching.rewound = true;
                watching.paused = true;
                watching.say(format!("loaded {}", path.display()));
            }
            Err(e) => watching.say(format!("could not load: {e}")),
        },
        None => {}
    }
    // The autosave follows the game forward, a round at a time (not while stepping back in it).
    let round = R::round(&game.0.state);
    if round > keeping.autosaved_round && game.0.cursor == game.0.log.len() {
        keeping.autosaved_round = round;
        if let Err(e) = write(&game.0, &keeping.autosave, true) {
            watching.say(format!("autosave failed: {e}"));
        }
    }
    at_risk.set_if_neq(AtRisk::of(&game.0, keeping.saved_at));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::windows::AtRisk;
    use foehold_core::rules::TieBreaker;
    use foehold_core::rules::toy::{self, Toy};
    use foehold_loop::LoopSettings;

    #[test]
    fn a_save_loads_back_into_the_game_it_held_and_the_table_shows_it() {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let scenario_path = dir.path().join("toy.ron");
        std::fs::write(&scenario_path, toy::SCENARIO).expect("written");
        let file = scenario_path.display().to_string();
        let game = Game::<Toy>::new(
            toy::scenario().expect("parses"),
            &file,
            3,
            TieBreaker::Seeded,
        )
        .expect("sets up")
        .with_scenario_text(toy::SCENARIO);
        let mut app = super::super::tests::app_of(game);
        let save = dir.path().join("saves").join("toy-game.ron");
        let mut keeping = Keeping::new::<Toy>();
        keeping.path = save.display().to_string();
        keeping.autosave = dir.path().join("saves").join("autosave-toy.ron");
        app.insert_resource(keeping)
            .insert_resource(Seats::of_owners(vec![1]))
            .init_resource::<AtRisk>()
            .add_systems(Update, keep::<Toy>.after(foehold_loop::LoopSystems::Sync));
        for _ in 0..8 {
            app.update();
        }
        let g = &app.world().resource::<CoreGame<Toy>>().0;
        let (cursor, state, lines) = (g.cursor, g.state.clone(), g.log_lines());
        assert!(cursor >= 4, "the loop played: {cursor}");
        assert!(
            app.world().resource::<AtRisk>().0 > 0,
            "moves no save holds"
        );
        app.insert_resource(LoopSettings {
            seeded_ties: false,
            autopilot_heroes: false,
            auto_advance: false,
        });
        app.world_mut().resource_mut::<Keeping>().asked = Some(Ask::Save(save.clone()));
        app.update();
        assert_eq!(app.world().resource::<AtRisk>().0, 0, "all saved");
        assert!(save.exists(), "the save is written");
        assert!(
            dir.path().join("saves").join("autosave-toy.ron").exists(),
            "a new round was autosaved"
        );
        // Play on, then load: the game is the saved one again, and the table follows it.
        app.insert_resource(LoopSettings::HEADLESS);
        for _ in 0..6 {
            app.update();
        }
        assert!(app.world().resource::<CoreGame<Toy>>().0.cursor > cursor);
        app.insert_resource(LoopSettings {
            seeded_ties: false,
            autopilot_heroes: false,
            auto_advance: false,
        });
        let generation = app.world().resource::<Table>().generation;
        app.world_mut().resource_mut::<Keeping>().asked = Some(Ask::Load(save.clone()));
        app.update();
        let loaded = &app.world().resource::<CoreGame<Toy>>().0;
        assert_eq!(loaded.cursor, cursor);
        assert_eq!(loaded.state, state);
        assert_eq!(loaded.log_lines(), lines);
        let watching = app.world().resource::<Watching>();
        assert_eq!(watching.log, lines, "the log is the saved game's");
        assert!(watching.paused, "a loaded game waits for the players");
        let table = app.world().resource::<Table>();
        assert_eq!(table.generation, generation + 1, "the table is set anew");
        assert_eq!(app.world().resource::<AtRisk>().0, 0);
        // A file that is no save is refused with where and why, and the game stays.
        let bad = dir.path().join("bad.ron");
        std::fs::write(&bad, "(rules: \"Toy\", seed: x)").expect("written");
        app.world_mut().resource_mut::<Keeping>().asked = Some(Ask::Load(bad.clone()));
        app.update();
        let said = app.world().resource::<Watching>().message.clone();
        let said = said.expect("the table says why").0;
        assert!(said.contains("bad.ron:1:"), "{said}");
        assert_eq!(app.world().resource::<CoreGame<Toy>>().0.cursor, cursor);
    }
}
