//! The scenario workshop: the table in making mode. Brushes paint the board and place figures,
//! panels set the scenario's fields, and after every edit the file is read back through the
//! loader, whose error and warnings stand in a window beside the board. A playtest plays seeded
//! autopilot games a few a frame; *Play it now* puts the draft on the table as a game, and *Back
//! to the workshop* brings the draft back as it was.
//!
//! The draft is on the table in [`OnTable::Workshop`]; no game is on the table meanwhile.

use bevy::platform::cell::SyncCell;
use bevy::platform::time::Instant;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use foehold_core::lab::BrushKind;
use foehold_core::library::Library;
use foehold_core::rules::{PartyChoice, PartyOffer};
use foehold_core::workshop::any::{AnyDraft, open_draft, shop_modules};
use foehold_core::workshop::bundle::Bundle;
use foehold_core::workshop::playtest::Playtest;

use super::board::{CellMarks, Mark, RebuildBoard};
use super::dock::{Dock, Slot};
use super::fields::field_grid;
use super::focus::{Typing, ctrl_held};
use super::picking::{Picked, Target};
use super::screen::{self, OnTable, Screen, arrive, at_table};
use super::table::Table;
use super::tag::Tagged;
use super::ui::Windows;
use super::view::{BoardView, CellKey};

/// The draft on the table; present only in the workshop.
#[derive(Resource)]
pub struct ShopDraft(pub Box<dyn AnyDraft>);

/// The workshop's tools and what they are in the middle of.
#[derive(Resource, Debug)]
pub struct ShopTools {
    /// The brush in hand: a module's brush id, or [`SELECT`].
    pub brush: String,
    /// The cell whose figure or ground the panel shows.
    pub selected: Option<CellKey>,
    /// The first cell of an edge, waiting for the second click.
    pub pending: Option<CellKey>,
    /// Why the last edit was refused.
    pub refused: Option<String>,
    /// Where Save writes the file and Open reads it.
    pub path: String,
    /// A share code to open, pasted by the player, or the draft's, to copy.
    pub code: String,
    /// The scenario name `path` was made from, while it follows the name (a new draft not yet
    /// saved, whose path was never typed): a new draft is saved under its own name, not over
    /// another new draft's.
    pub named: Option<String>,
    /// The text typed into number fields, by field, while it is not yet a number.
    pub typing: Vec<(String, String)>,
    /// How many games a playtest plays, and for how many characters.
    pub games: u32,
    /// How many characters the playtest and *Play it now* set up.
    pub players: usize,
    /// The scenario level they set up; `None` for the one the scenario recommends.
    pub level: Option<u32>,
    /// The last playtest's result, in lines: the games, the rounds, each rule that fired.
    pub tested: Vec<String>,
    /// The last playtest's coverage table: every rule of the module with the games it fired in.
    pub covered: Vec<Covered>,
}

/// One row of a playtest's coverage table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Covered {
    /// The rule, as `foehold coverage` names it.
    pub rule: &'static str,
    /// Games it fired in, and times in all.
    pub games: u32,
    pub times: u64,
    /// The scenario claims it (`exercises`) and no game fired it.
    pub missing: bool,
}

/// Every rule of a playtest's report, as the coverage table shows it.
fn covered(test: &Playtest) -> Vec<Covered> {
    let r = &test.report;
    r.rules
        .iter()
        .map(|(rule, c)| Covered {
            rule,
            games: c.games,
            times: c.times,
            missing: r.missing.iter().any(|m| m == rule),
        })
        .collect()
}

impl ShopTools {
    /// The party and level a playtest and *Play it now* set up.
    /// The scenario's offer limits it: nothing for a scenario that lets players choose nothing
    /// (a Brimstone fight, a goal-priority map), the number of characters within the offer's.
    pub fn choice(&self, offer: Option<&PartyOffer>) -> PartyChoice {
        let Some(o) = offer else {
            return PartyChoice::default();
        };
        PartyChoice {
            players: (!o.players.is_empty())
                .then(|| self.players.clamp(*o.players.start(), *o.players.end())),
            level: self.level.filter(|_| !o.levels.is_empty()),
            ..PartyChoice::default()
        }
    }
}

impl Default for ShopTools {
    fn default() -> Self {
        ShopTools {
            brush: SELECT.into(),
            selected: None,
            pending: None,
            refused: None,
            path: NEW_FILE.into(),
            code: String::new(),
            named: Some(String::new()),
            typing: Vec::new(),
            games: 100,
            players: 3,
            level: None,
            tested: Vec::new(),
            covered: Vec::new(),
        }
    }
}

/// The file a new scenario is saved as, in the player's library when there is one, until it is
/// named.
const NEW_FILE: &str = "my-scenario.ron";

/// Keeps a new draft's path on its name: `name.ron` in the library, or `name-2.ron`, … when a
/// file of that name is there already.
fn follow_name(
    draft: Res<ShopDraft>,
    mut tools: ResMut<ShopTools>,
    store: Option<Res<crate::app::store::Store>>,
    mine: Option<Res<crate::app::store::Mine>>,
) {
    let name = draft.0.name();
    if tools.named.as_ref().is_none_or(|n| *n == name) {
        return;
    }
    let file = foehold_core::workshop::file_for(&name);
    let at = |file: &str| {
        mine.as_ref()
            .map_or_else(|| file.into(), |m| m.scenario_path(file))
    };
    let taken = |p: &std::path::Path| store.as_ref().is_some_and(|s| s.0.exists(p));
    let path = foehold_core::workshop::file_names(&file)
        .map(|f| at(&f))
        .find(|p| !taken(p))
        .unwrap_or_else(|| at(&file));
    tools.path = path.display().to_string();
    tools.named = Some(name);
}

/// The hand picks a cell: what stands there goes to the panel.
pub const SELECT: &str = "select";

/// The marks layer of the workshop: the room in hand and the cell selected.
const LAYER: &str = "workshop";

/// A playtest under way: a few games a frame, until done or cancelled.
#[derive(Resource)]
pub struct Testing(SyncCell<Playtest>);

/// The draft set aside while it is played: *Back to the workshop* puts it on the table again.
#[derive(Resource)]
pub struct DraftAside {
    /// The scenario's name, for the button.
    pub name: String,
    draft: SyncCell<Option<(Box<dyn AnyDraft>, ShopTools)>>,
}

/// Where the draft is kept after every edit, in the user's data folder: a draft is never lost
/// to a closed window.
fn autosave_path() -> Option<std::path::PathBuf> {
    foehold_desktop::library::data_dir()
        .ok()
        .map(|d| d.join("workshop-autosave.ron"))
}

/// Writes the draft to its autosave after an edit (atomically, as every file the table writes).
fn autosave(draft: Res<ShopDraft>, store: Option<ResMut<crate::app::store::Store>>) {
    let Some(mut store) = store else {
        return;
    };
    if !draft.is_changed() || draft.is_added() || draft.0.history() == (0, 0) {
        return;
    }
    if let Some(path) = autosave_path()
        && let Err(e) = store.0.write(&path, draft.0.text().as_bytes())
    {
        warn!("the workshop's autosave: {e}");
    }
}

/// Opens the draft last autosaved; an error (none, or no scenario) says why.
pub fn open_autosave(world: &mut World) -> Result<(), String> {
    let path = autosave_path().ok_or("this system names no data folder to keep an autosave in")?;
    let text = world.resource::<crate::app::store::Store>().read(&path)?;
    let draft = open_draft(&path.display().to_string(), &text, library(world))
        .map_err(|e| e.to_string())?;
    // Saved, it goes where a new scenario goes, not over the autosave.
    let file = world
        .get_resource::<crate::app::store::Mine>()
        .map_or_else(|| NEW_FILE.into(), |mine| mine.scenario_path(NEW_FILE));
    let tools = ShopTools {
        path: file.display().to_string(),
        ..ShopTools::default()
    };
    enter(world, draft, Some(tools));
    Ok(())
}

/// The workshop's systems run while it is open.
fn in_workshop() -> impl FnMut(Option<Res<State<OnTable>>>) -> bool + Clone {
    in_state(OnTable::Workshop)
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ShopTools>()
        .add_systems(OnExit(OnTable::Workshop), leave)
        .add_systems(
            Update,
            (clicks, keys, follow, follow_name, autosave, play_tests)
                .chain()
                .run_if(in_workshop())
                .run_if(at_table),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (shop_window, brushes_window, fields_window, check_window)
                .chain()
                .run_if(in_workshop())
                .run_if(at_table)
                .after(Windows),
        );
}

/// The library drafts are checked against: the player's, found before the built-in one, as
/// the table plays scenarios.
fn library(world: &World) -> Library {
    crate::app::store::library(world)
}

/// Puts a draft on the table, early in the next frame: whatever was there goes.
pub fn enter(world: &mut World, draft: Box<dyn AnyDraft>, tools: Option<ShopTools>) {
    arrive(world, move |world| put_draft(world, draft, tools));
}

/// Opens a new scenario of a module (by name) in the workshop.
pub fn open_blank(world: &mut World, module: &str) -> Result<(), String> {
    let all = shop_modules();
    let m = all.iter().find(|m| m.module == module).ok_or_else(|| {
        format!(
            "the workshop makes scenarios of {}, not `{module}`",
            all.iter().map(|m| m.module).collect::<Vec<_>>().join(", ")
        )
    })?;
    let path = world
        .get_resource::<crate::app::store::Mine>()
        .map_or_else(|| NEW_FILE.into(), |mine| mine.scenario_path(NEW_FILE))
        .display()
        .to_string();
    let tools = ShopTools {
        path: path.clone(),
        ..ShopTools::default()
    };
    let library = library(world);
    enter(world, (m.blank)(&path, library), Some(tools));
    Ok(())
}

/// Opens a scenario file's text in the workshop; an error leaves the table as it was.
pub fn open_file(world: &mut World, file: &str, text: &str) -> Result<(), String> {
    let draft = open_draft(file, text, library(world)).map_err(|e| e.to_string())?;
    let tools = ShopTools {
        path: file.to_string(),
        named: None,
        ..ShopTools::default()
    };
    enter(world, draft, Some(tools));
    Ok(())
}

/// Opens a share code: the scenario and the entries it carries go into the player's library
/// (when there is one), and the scenario opens here, checked with those entries. A bad code, or
/// an entry of the library with other text, leaves everything as it was.
pub fn open_code(world: &mut World, code: &str) -> Result<(), String> {
    let bundle = Bundle::of_code(code)?;
    let folders = world
        .get_resource::<crate::app::store::Mine>()
        .and_then(|m| m.0.clone());
    let file = foehold_core::workshop::file_for(&bundle.name().unwrap_or_default());
    let (path, named, library) = match folders {
        Some(f) => {
            let mut store = world.resource_mut::<crate::app::store::Store>();
            let wrote =
                bundle.install(&mut *store.0, &f.scenarios(), &f.monsters(), &f.classes())?;
            // The scenario's file, written now or there already with the same text.
            let at = wrote
                .into_iter()
                .find(|p| p.starts_with(f.scenarios()))
                .unwrap_or_else(|| f.scenarios().join(&file));
            // The entries are the player's now: the draft is checked as the table plays it.
            (at.display().to_string(), None, library(world))
        }
        None => (file, Some(String::new()), bundle.library()),
    };
    let draft = open_draft(&path, &bundle.scenario, library).map_err(|e| e.to_string())?;
    let tools = ShopTools {
        path,
        named,
        code: code.trim().to_string(),
        ..ShopTools::default()
    };
    enter(world, draft, Some(tools));
    Ok(())
}

/// Puts a draft on the table now (where things arrive on the table).
fn put_draft(world: &mut World, draft: Box<dyn AnyDraft>, tools: Option<ShopTools>) {
    crate::app::plans::forget(world);
    let view = draft.view();
    let mut table = Table::of_view(
        "Scenario workshop".into(),
        "Paint the board, place the figures, set the goal; the file is checked as you go.".into(),
        BoardView::of(&view),
    );
    table.show(view);
    world.insert_resource(table);
    world.insert_resource(tools.unwrap_or_default());
    world.insert_resource(ShopDraft(draft));
    world.remove_resource::<Testing>();
    world.insert_resource(crate::app::driver::GameFile(None));
    if let Some(mut marks) = world.get_resource_mut::<CellMarks>() {
        marks.clear_all();
    }
    screen::change(world, OnTable::Workshop);
    screen::go(world, Screen::Table);
    let mut windows = world.query_filtered::<&mut Window, With<PrimaryWindow>>();
    for mut w in windows.iter_mut(world) {
        w.title = "Foehold — Scenario workshop".into();
    }
}

/// The workshop closes when something else is put on the table; a draft being played goes aside.
fn leave(world: &mut World) {
    let draft = world.remove_resource::<ShopDraft>();
    let tools = std::mem::take(&mut *world.resource_mut::<ShopTools>());
    if let (Some(draft), Some(mut aside)) = (draft, world.get_resource_mut::<DraftAside>())
        && aside.draft.get().is_none()
    {
        *aside.draft.get() = Some((draft.0, tools));
    }
    world.remove_resource::<Testing>();
    if let Some(mut marks) = world.get_resource_mut::<CellMarks>() {
        marks.clear(LAYER);
    }
}

/// *Play it now*: the draft's scenario comes to the table as a game for the characters chosen,
/// and the draft goes aside as the workshop closes; an error (the draft does not load) leaves
/// the workshop as it was.
pub fn play_now(world: &mut World) {
    let Some(draft) = world.get_resource::<ShopDraft>() else {
        return;
    };
    let (file, text, name) = (draft.0.file().to_string(), draft.0.text(), draft.0.name());
    let (offer, library) = (draft.0.offer(), draft.0.library().clone());
    let choice = world.resource::<ShopTools>().choice(offer.as_ref());
    let seed = world.resource::<crate::app::Options>().seed;
    match crate::app::driver::open::open_text(world, &file, &text, &library, seed, choice) {
        // The draft stays until the game arrives (the workshop's windows this frame read it);
        // leaving the workshop puts it in the place kept for it here.
        Ok(()) => world.insert_resource(DraftAside {
            name,
            draft: SyncCell::new(None),
        }),
        Err(e) => world.resource_mut::<ShopTools>().refused = Some(format!("cannot play it: {e}")),
    }
}

/// *Back to the workshop*: the draft set aside comes back to the table as it was.
pub fn back_to_the_workshop(world: &mut World) {
    let Some(mut aside) = world.remove_resource::<DraftAside>() else {
        return;
    };
    if let Some((draft, tools)) = aside.draft.get().take() {
        enter(world, draft, Some(tools));
    }
}

/// A click on the board: the brush in hand goes on the cell clicked (a figure stands for its
/// cell).
fn clicks(
    mut picked: MessageReader<Picked>,
    table: Res<Table>,
    mut draft: ResMut<ShopDraft>,
    mut tools: ResMut<ShopTools>,
) {
    for Picked(target) in picked.read() {
        let cell = match *target {
            Target::Cell(c) => c,
            Target::Figure(id) => match table.figure(id) {
                Some(f) => f.cell,
                None => continue,
            },
        };
        let brush = tools.brush.clone();
        let kind = draft
            .0
            .brushes()
            .iter()
            .find(|b| b.id == brush)
            .map(|b| b.kind);
        let done = match (brush.as_str(), kind) {
            (SELECT, _) => {
                tools.selected = Some(cell);
                Ok(())
            }
            (_, Some(BrushKind::Edge)) => match tools.pending.take() {
                None => {
                    tools.pending = Some(cell);
                    Ok(())
                }
                Some(first) => draft.0.paint(&brush, first, Some(cell)),
            },
            (_, Some(BrushKind::Figure)) => draft.0.paint(&brush, cell, None).inspect(|()| {
                tools.selected = Some(cell);
            }),
            (_, Some(_)) => draft.0.paint(&brush, cell, None),
            (_, None) => Err(format!("no brush `{brush}`")),
        };
        tools.refused = done.err();
    }
}

/// Ctrl+Z and Ctrl+Y undo and redo the workshop's edits (not while typing in a field).
fn keys(input: Res<ButtonInput<KeyCode>>, typing: Res<Typing>, mut draft: ResMut<ShopDraft>) {
    if typing.0 || !ctrl_held(&input) {
        return;
    }
    if input.just_pressed(KeyCode::KeyZ) {
        draft.0.undo();
    } else if input.just_pressed(KeyCode::KeyY) {
        draft.0.redo();
    }
}

/// The room the room brush paints, from the palette's field.
fn room_in_hand(draft: &dyn AnyDraft) -> Option<String> {
    draft
        .fields(None)
        .into_iter()
        .find(|f| f.id == "brush:room")
        .and_then(|f| match f.value {
            foehold_core::lab::Value::Choice(c) => Some(c),
            _ => None,
        })
}

/// The table follows the draft: the board when its cells changed, the figures, the room in hand
/// lit, and the cell selected.
fn follow(
    draft: Res<ShopDraft>,
    tools: Res<ShopTools>,
    mut table: ResMut<Table>,
    mut marks: ResMut<CellMarks>,
    mut rebuild: MessageWriter<RebuildBoard>,
) {
    if !draft.is_changed() && !tools.is_changed() {
        return;
    }
    let view = draft.0.view();
    if draft.is_changed() {
        let board = BoardView::of(&view);
        if !board.same_as(&table.board) {
            table.board = board;
            rebuild.write(RebuildBoard);
        }
        table.show(view.clone());
    }
    let mut cells: Vec<(CellKey, Mark)> = Vec::new();
    if tools.brush == "room"
        && let Some(room) = room_in_hand(draft.0.as_ref())
    {
        let name = format!("room {room}");
        cells.extend(
            view.cells
                .iter()
                .filter(|c| {
                    c.place
                        .as_deref()
                        .is_some_and(|p| p == name || p.starts_with(&format!("{name}:")))
                })
                .map(|c| (c.key, Mark::AoE)),
        );
    }
    if let Some(p) = tools.pending.or(tools.selected) {
        cells.push((p, Mark::Hover));
    }
    marks.set(LAYER, cells);
}

/// Plays the playtest's games, as many as fit in a third of the last frame (at least one), so
/// the table keeps drawing; the result goes to the tools when the last is played.
fn play_tests(
    mut commands: Commands,
    testing: Option<ResMut<Testing>>,
    time: Res<Time>,
    mut tools: ResMut<ShopTools>,
) {
    let Some(mut testing) = testing else {
        return;
    };
    let test = testing.0.get();
    let budget = time
        .delta()
        .mul_f32(0.33)
        .max(std::time::Duration::from_millis(8));
    let start = Instant::now();
    while test.step() && start.elapsed() < budget {}
    if test.done() {
        tools.tested = summary(test);
        tools.covered = covered(test);
        commands.remove_resource::<Testing>();
    }
}

/// A playtest's result in lines: games, win rate, rounds, and each rule it fired.
fn summary(test: &Playtest) -> Vec<String> {
    let r = &test.report;
    let mut out = Vec::new();
    if let Some(why) = &test.trouble {
        out.push(format!("stopped: {why}"));
    }
    out.push(format!(
        "{} games: won {}, lost {}, unfinished {} — {}% won",
        r.games(),
        r.won,
        r.lost,
        r.unfinished,
        test.win_rate().unwrap_or(0)
    ));
    if let Some(m) = r.median_round() {
        let (lo, hi) = (
            r.rounds.iter().min().copied().unwrap_or(0),
            r.rounds.iter().max().copied().unwrap_or(0),
        );
        out.push(format!("rounds: median {m}, from {lo} to {hi}"));
    }
    for (rule, c) in &r.rules {
        if c.times > 0 {
            out.push(format!("{rule}: {} games, {} times", c.games, c.times));
        }
    }
    out
}

/// The workshop's own window: new, open and save, undo and redo, playtest and play.
#[expect(
    clippy::too_many_arguments,
    reason = "a Bevy system takes one parameter per resource, query and message it uses"
)]
fn shop_window(
    mut commands: Commands,
    mut contexts: EguiContexts,
    mut draft: ResMut<ShopDraft>,
    mut tools: ResMut<ShopTools>,
    mut dock: ResMut<Dock>,
    mut next: ResMut<NextState<Screen>>,
    testing: Option<Res<Testing>>,
    (mut notice, mut store, mut clipboard): (
        ResMut<crate::app::notice::Notice>,
        ResMut<crate::app::store::Store>,
        ResMut<crate::app::clipboard::Clipboard>,
    ),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let (undo, redo) = draft.0.history();
    dock.show(ctx, Slot::Menu, egui::Window::new("Workshop"), |ui| {
        ui.label(egui::RichText::new(draft.0.name()).strong())
            .tagged("shop:name");
        ui.horizontal(|ui| {
            if ui
                .add_enabled(undo > 0, egui::Button::new("⟲ Undo"))
                .tagged("shop:undo")
                .on_hover_text("Take back the last edit (Ctrl+Z)")
                .clicked()
            {
                draft.0.undo();
            }
            if ui
                .add_enabled(redo > 0, egui::Button::new("⟳ Redo"))
                .tagged("shop:redo")
                .on_hover_text("Make the edit taken back again (Ctrl+Y)")
                .clicked()
            {
                draft.0.redo();
            }
            if ui.button("Play a game…").tagged("shop:games").clicked() {
                next.set(Screen::Choosing);
            }
            if ui
                .button("Autosave")
                .tagged("shop:autosave")
                .on_hover_text("Open the draft as it was after its last edit, kept in case the window closed")
                .clicked()
            {
                commands.queue(|world: &mut World| {
                    if let Err(e) = open_autosave(world) {
                        world.resource_mut::<ShopTools>().refused = Some(e);
                    }
                });
            }
        });
        ui.horizontal_wrapped(|ui| {
            ui.label("New:");
            for m in shop_modules() {
                if ui
                    .button(m.label)
                    .tagged(format!("shop:new:{}", m.module))
                    .clicked()
                {
                    let module = m.module;
                    commands.queue(move |world: &mut World| {
                        if let Err(e) = open_blank(world, module) {
                            world.resource_mut::<ShopTools>().refused = Some(e);
                        }
                    });
                }
            }
        });
        ui.horizontal(|ui| {
            let width = (ui.available_width() - 100.0).max(60.0);
            if ui
                .add(egui::TextEdit::singleline(&mut tools.path).desired_width(width))
                .tagged("shop:path")
                .changed()
            {
                tools.named = None;
            }
            if ui.button("Open").tagged("shop:open").clicked() {
                let path = std::path::PathBuf::from(&tools.path);
                commands.queue(move |world: &mut World| {
                    let opened = world
                        .resource::<crate::app::store::Store>()
                        .read(&path)
                        .and_then(|text| open_file(world, &path.display().to_string(), &text));
                    if let Err(e) = opened {
                        world.resource_mut::<ShopTools>().refused = Some(e);
                    }
                });
            }
            if ui
                .button("Save")
                .tagged("shop:save")
                .on_hover_text("The scenario file, as foehold play and foehold check read it")
                .clicked()
            {
                let path = std::path::PathBuf::from(&tools.path);
                match store.0.write(&path, draft.0.text().as_bytes()) {
                    Ok(()) => {
                        // Errors name the file it is saved as from now on.
                        let file = path.display().to_string();
                        if draft.0.file() != file {
                            draft.0.rename(&file);
                        }
                        tools.refused = None;
                        // Saved, it is this file from now on, whatever it is renamed.
                        tools.named = None;
                        notice.done(format!("the scenario is saved to {}", path.display()));
                    }
                    Err(e) => tools.refused = Some(format!("could not save {e}")),
                }
            }
        });
        ui.horizontal(|ui| {
            let width = (ui.available_width() - 170.0).max(60.0);
            ui.add(
                egui::TextEdit::singleline(&mut tools.code)
                    .desired_width(width)
                    .hint_text("FS1.…"),
            )
            .tagged("shop:code");
            if ui
                .add_enabled(draft.0.playable(), egui::Button::new("Share code"))
                .tagged("shop:make-code")
                .on_hover_text(
                    "The scenario, with the library entries it names, as a short code copied to \
                     paste anywhere",
                )
                .clicked()
            {
                match Bundle::of(draft.0.file(), &draft.0.text(), draft.0.library()) {
                    Ok(b) => {
                        tools.code = b.code();
                        clipboard.copy("the scenario's share code", tools.code.clone());
                    }
                    Err(e) => tools.refused = Some(e.to_string()),
                }
            }
            if ui
                .button("Open code")
                .tagged("shop:open-code")
                .on_hover_text("Put a shared scenario into your library and open it here")
                .clicked()
            {
                let code = tools.code.clone();
                commands.queue(move |world: &mut World| {
                    if let Err(e) = open_code(world, &code) {
                        world.resource_mut::<ShopTools>().refused = Some(e);
                    }
                });
            }
        });
        ui.separator();
        // Only what the scenario lets players choose: a fight or a map is played as written.
        let offer = draft.0.offer();
        if let Some(o) = &offer {
            ui.horizontal(|ui| {
                ui.label("Characters");
                for n in o.players.clone() {
                    ui.selectable_value(&mut tools.players, n, n.to_string())
                        .tagged(format!("shop:players:{n}"));
                }
            });
        }
        if let Some(o) = offer.as_ref().filter(|o| !o.levels.is_empty()) {
            ui.horizontal_wrapped(|ui| {
                ui.label("Level");
                ui.selectable_value(&mut tools.level, None, "recommended")
                    .tagged("shop:level:recommended");
                for &n in &o.levels {
                    ui.selectable_value(&mut tools.level, Some(n), n.to_string())
                        .tagged(format!("shop:level:{n}"));
                }
            });
        }
        let playable = draft.0.playable();
        ui.horizontal(|ui| {
            ui.label("Games");
            for n in [20, 100, 500] {
                ui.selectable_value(&mut tools.games, n, n.to_string())
                    .tagged(format!("shop:games:{n}"));
            }
        });
        ui.horizontal(|ui| {
            if testing.is_some() {
                if ui.button("Cancel").tagged("shop:cancel").clicked() {
                    commands.remove_resource::<Testing>();
                    tools.tested = vec!["playtest cancelled".into()];
                    tools.covered = Vec::new();
                }
            } else if ui
                .add_enabled(playable, egui::Button::new("Playtest"))
                .tagged("shop:playtest")
                .on_hover_text("Seeded autopilot games of the scenario: how often it is won, and the rules it fires")
                .clicked()
            {
                match draft.0.playtest(tools.games, tools.choice(offer.as_ref())) {
                    Ok(test) => {
                        tools.tested = Vec::new();
                        tools.covered = Vec::new();
                        commands.insert_resource(Testing(SyncCell::new(test)));
                    }
                    Err(e) => tools.refused = Some(e),
                }
            }
            if ui
                .add_enabled(playable, egui::Button::new("Play it now"))
                .tagged("shop:play")
                .on_hover_text("Start the scenario on the table; Back to the workshop returns to the draft as it is")
                .clicked()
            {
                commands.queue(play_now);
            }
        });
    });
    Ok(())
}

/// The brushes, and why the last edit was refused.
fn brushes_window(
    mut contexts: EguiContexts,
    draft: Res<ShopDraft>,
    mut tools: ResMut<ShopTools>,
    mut dock: ResMut<Dock>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    dock.show(ctx, Slot::Turn, egui::Window::new("Brushes"), |ui| {
        let why = tools.refused.as_deref().unwrap_or("");
        let line = ui.add(
            egui::Label::new(egui::RichText::new(why).color(egui::Color32::from_rgb(255, 150, 90)))
                .truncate(),
        );
        if !why.is_empty() {
            line.on_hover_text(why).tagged("shop:refused");
        }
        let mut brush = tools.brush.clone();
        ui.horizontal_wrapped(|ui| {
            ui.selectable_value(&mut brush, SELECT.to_string(), "Select")
                .tagged("shop:brush:select");
            for b in draft.0.brushes() {
                ui.selectable_value(&mut brush, b.id.to_string(), b.label)
                    .tagged(format!("shop:brush:{}", b.id));
            }
        });
        if brush != tools.brush {
            tools.brush = brush;
            tools.pending = None;
        }
        if tools.pending.is_some() {
            ui.label("…and now the neighbouring hex.");
        }
    });
    Ok(())
}

/// The panels: what the brushes carry, the scenario's fields and the selected cell's in the
/// Scenario window; the special rules' rows in a window of their own, and the monster types' and
/// the classes' (or a fight's threat cards) in another.
fn fields_window(
    mut commands: Commands,
    mut contexts: EguiContexts,
    mut draft: ResMut<ShopDraft>,
    mut tools: ResMut<ShopTools>,
    mut dock: ResMut<Dock>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let selected = tools.selected;
    let (mut rules, mut types, mut classes, mut threats, mut fields) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for f in draft.0.fields(selected) {
        let kind = f.id.split(':').next().unwrap_or_default();
        match kind {
            "rule" => rules.push(f),
            "type" | "types" => types.push(f),
            "class" | "classes" => classes.push(f),
            "threat" => threats.push(f),
            _ => fields.push(f),
        }
    }
    // The right-hand window holds what the scenario's foes and heroes are made of.
    let makings = if threats.is_empty() {
        "Monster types and classes"
    } else {
        "Threat cards"
    };
    let own = draft.0.own_entries();
    let tools = &mut *tools;
    let mut changed = None;
    // A window's sections: the kind of library entry each one's rows make (none: the
    // scenario's own rows), and the rows.
    for (slot, title, sections) in [
        (Slot::Scenario, "Scenario", vec![("", &fields)]),
        (Slot::Walk, "Special rules", vec![("", &rules)]),
        (
            Slot::Figure,
            makings,
            vec![
                ("monsters", &types),
                ("classes", &classes),
                ("threats", &threats),
            ],
        ),
    ] {
        // A module whose scenarios have no special rules, types or classes of their own (a
        // fight, a map) shows no window for them.
        if sections.iter().all(|(_, f)| f.is_empty()) {
            continue;
        }
        dock.show(ctx, slot, egui::Window::new(title), |ui| {
            // Long panels scroll within what is left of the window's height.
            let room = (ui.ctx().content_rect().bottom() - ui.max_rect().top() - 24.0).max(80.0);
            egui::ScrollArea::vertical()
                .id_salt(title)
                .max_height(room)
                .show(ui, |ui| {
                    for (i, (kind, fields)) in sections.iter().enumerate() {
                        if fields.is_empty() {
                            continue;
                        }
                        if i > 0 {
                            ui.separator();
                        }
                        if let Some(entry) = own.iter().find(|e| e.kind == *kind) {
                            keep_button(ui, &mut commands, entry);
                        }
                        // Each section's grid has an id of its own within the window.
                        let grid = ui.push_id(kind, |ui| {
                            field_grid(ui, "shop", fields, &mut tools.typing, &mut tools.refused)
                        });
                        if let Some((f, v)) = grid.inner {
                            changed = Some((f.clone(), v));
                        }
                    }
                });
        });
    }
    if let Some((f, v)) = changed {
        tools.refused = draft
            .0
            .set(selected, &f.id, v)
            .err()
            .map(|e| format!("{}: {e}", f.label));
    }
    Ok(())
}

/// The button that keeps a library entry the draft writes itself in the player's library.
fn keep_button(
    ui: &mut egui::Ui,
    commands: &mut Commands,
    entry: &foehold_core::rules::workshop::OwnEntry,
) {
    // The monster type's button keeps the tag it always had.
    let tag = match entry.kind {
        "classes" => "shop:keep-class",
        _ => "shop:keep-entry",
    };
    if !ui
        .button(format!("Keep {} in the library", entry.name))
        .tagged(tag)
        .on_hover_text(
            "Write it to your library, where every scenario can name it; this scenario then \
             takes it from there",
        )
        .clicked()
    {
        return;
    }
    let kind = entry.kind;
    commands.queue(move |world: &mut World| {
        let said = keep_in_library(world, kind);
        let mut tools = world.resource_mut::<ShopTools>();
        match said {
            Ok(path) => {
                tools.refused = None;
                world
                    .resource_mut::<crate::app::notice::Notice>()
                    .done(format!("kept in your library as {}", path.display()));
            }
            Err(e) => tools.refused = Some(e),
        }
    });
}

/// Writes the library entry of `kind` (`monsters`, `classes`) the panel shows, which the draft
/// writes itself (a monster type or class made here), into the player's library; the draft then
/// takes it from there. Gives the file written; an error leaves the library and the draft as
/// they were.
pub fn keep_in_library(world: &mut World, kind: &str) -> Result<std::path::PathBuf, String> {
    let entry = world
        .get_resource::<ShopDraft>()
        .and_then(|d| d.0.own_entries().into_iter().find(|e| e.kind == kind))
        .ok_or("the scenario writes no entry of its own of that kind to keep")?;
    let folders = world
        .get_resource::<crate::app::store::Mine>()
        .and_then(|m| m.0.clone())
        .ok_or("this system names no data folder to keep a library in")?;
    let folder = match entry.kind {
        "classes" => folders.classes(),
        _ => folders.monsters(),
    };
    let path = {
        let mut store = world.resource_mut::<crate::app::store::Store>();
        let path =
            foehold_core::library::entry_path(store.0.as_ref(), &folder, &entry.file, &entry.name)
                .ok_or_else(|| {
                    format!(
                        "{}: every file of that name holds another entry",
                        entry.file
                    )
                })?;
        store.0.write(&path, entry.text.as_bytes())?;
        path
    };
    let library = library(world);
    world
        .resource_mut::<ShopDraft>()
        .0
        .keep_own_entry(kind, library)?;
    Ok(path)
}

/// What the loader says of the draft: the error that keeps it from being played, the warnings,
/// and the last playtest.
fn check_window(
    mut contexts: EguiContexts,
    draft: Res<ShopDraft>,
    tools: Res<ShopTools>,
    mut testing: Option<ResMut<Testing>>,
    mut dock: ResMut<Dock>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let report = draft.0.report();
    dock.show(ctx, Slot::Steps, egui::Window::new("Check"), |ui| {
        match &report.error {
            Some(e) => {
                ui.colored_label(
                    egui::Color32::from_rgb(255, 150, 90),
                    format!("Not playable yet: {e}"),
                )
                .tagged("shop:error");
            }
            None => {
                ui.colored_label(egui::Color32::from_rgb(140, 220, 140), "Playable")
                    .tagged("shop:playable");
            }
        }
        for (i, w) in report.warnings.iter().enumerate() {
            ui.label(format!("⚠ {w}"))
                .tagged(format!("shop:warning:{i}"));
        }
        if let Some(testing) = testing.as_mut() {
            let test = testing.0.get();
            let done = test.played() as f32 / test.games.max(1) as f32;
            ui.add(egui::ProgressBar::new(done).text(format!(
                "{} of {} games",
                test.played(),
                test.games
            )))
            .tagged("shop:progress");
        }
        if !tools.tested.is_empty() {
            ui.separator();
            ui.label(egui::RichText::new("Playtest").strong());
            // The games and rounds; then every rule in a table, those that never fired greyed
            // and a claimed one that never fired in orange, so that what a scenario never shows
            // its players stands out.
            let rows = tools.tested.len() - tools.covered.iter().filter(|c| c.times > 0).count();
            for (i, line) in tools.tested.iter().take(rows).enumerate() {
                ui.label(line).tagged(format!("shop:tested:{i}"));
            }
            egui::ScrollArea::vertical()
                .max_height(260.0)
                .show(ui, |ui| {
                    egui::Grid::new("shop-coverage")
                        .num_columns(3)
                        .striped(true)
                        .show(ui, |ui| {
                            ui.strong("Rule");
                            ui.strong("Games");
                            ui.strong("Times");
                            ui.end_row();
                            for c in &tools.covered {
                                let rule = egui::RichText::new(c.rule);
                                let rule = match (c.missing, c.times) {
                                    (true, _) => rule.color(egui::Color32::from_rgb(255, 150, 90)),
                                    (false, 0) => rule.weak(),
                                    _ => rule,
                                };
                                let r = ui.label(rule).tagged(format!("shop:covered:{}", c.rule));
                                if c.missing {
                                    r.on_hover_text(
                                        "The scenario claims this rule (exercises), and no game \
                                         fired it",
                                    );
                                }
                                ui.label(c.games.to_string());
                                ui.label(c.times.to_string());
                                ui.end_row();
                            }
                        });
                });
        }
    });
    Ok(())
}

#[cfg(test)]
mod tests;
