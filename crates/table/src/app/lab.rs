//! The position lab: the table in edit mode. Brushes paint cells and place figures, the side panel
//! sets the numbers, and the rules' answer is drawn on the board after every edit, with every tied
//! outcome and the steps that decided it.
//!
//! The lab holds a case file of `foehold solve` on a checked bench (`foehold_core::lab`): no game
//! is on the table meanwhile, so the game's windows and clicks rest.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use foehold_core::kit::{lab_modules, open_any};
use foehold_core::lab::any::AnyBench;
use foehold_core::lab::{BrushKind, code};

use super::board::{CellMarks, Mark, RebuildBoard};
use super::dock::{Dock, Slot};
use super::fields::field_grid;
use super::focus::{Typing, ctrl_held};
use super::picking::{Picked, Target};
use super::screen::arrive;
use super::screen::{self, OnTable, Screen, at_table};
use super::table::Table;
use super::tag::Tagged;
use super::ui::Windows;
use super::view::{BoardView, CellKey};

/// The position on the lab's bench; present only while the lab is open.
#[derive(Resource)]
pub struct LabBench(pub Box<dyn AnyBench>);

/// The lab's tools and what they are in the middle of.
#[derive(Resource, Debug, Default)]
pub struct LabTools {
    /// The brush in hand: a module's brush id, or [`SELECT`] or [`MOVE`].
    pub brush: String,
    /// The cell whose figure the side panel shows.
    pub selected: Option<CellKey>,
    /// The first cell of an edge, or the figure being moved, waiting for the second click.
    pub pending: Option<CellKey>,
    /// Why the last edit was refused.
    pub refused: Option<String>,
    /// The outcome drawn alone, if one was clicked; else every outcome is drawn.
    pub shown: Option<usize>,
    /// The case file's path, for Open and Save.
    pub path: String,
    /// A position code to open, pasted by the players, or the code of the position, to copy.
    pub code: String,
    /// The text typed into number fields, by field, while it is not yet a number.
    pub typing: Vec<(String, String)>,
}

/// The hand picks a cell: its figure's fields go to the side panel.
pub const SELECT: &str = "select";
/// The hand moves a figure: click it, then where it goes.
pub const MOVE: &str = "move";

/// The marks layer of the lab's answer.
const LAYER: &str = "lab";

/// The game a moment was opened from, set aside while the lab is open: "Back to the game" puts it
/// on the table again exactly as it was, "Play on from here" with the lab's edits.
#[derive(Resource)]
pub struct SetAside {
    /// The scenario's name, for the button.
    pub name: String,
    game: Box<dyn PutBack>,
}

/// A game set aside, of whichever module.
trait PutBack: Send + Sync {
    /// Whether the game takes the lab's edits: `Err` says why not.
    fn check(&self, bench: &dyn AnyBench) -> Result<(), String>;
    /// Puts the game back on the table, with the lab's edits when a bench is given (checked
    /// just before on the same state, so they are taken; were they not, the game goes back as it
    /// was rather than be lost).
    fn put_back(self: Box<Self>, world: &mut World, bench: Option<&dyn AnyBench>);
}

struct Aside<R: crate::modules::Module> {
    game: foehold_core::game::Game<R>,
    owners: Option<Vec<u32>>,
    paused: bool,
}

impl<R: crate::modules::Module> PutBack for Aside<R> {
    fn check(&self, bench: &dyn AnyBench) -> Result<(), String> {
        R::play_on(&self.game.state, bench).map(|_| ())
    }

    fn put_back(self: Box<Self>, world: &mut World, bench: Option<&dyn AnyBench>) {
        let Aside {
            mut game,
            owners,
            paused,
        } = *self;
        if let Some(Ok(Some(action))) = bench.map(|b| R::play_on(&game.state, b)) {
            let _ = game.arrange(action);
        }
        super::driver::open::install::<R>(world, game, true);
        super::driver::open::reseat(world, owners);
        world.resource_mut::<super::driver::Pace>().paused = paused;
    }
}

/// Opens the moment of the game of module `R` on the table in the lab: the position of the foe
/// whose turn it is or comes next. The game is set aside, seats and all, as the lab arrives (early
/// in the next frame); an error (no foe decision now, say) leaves the table as it was.
pub fn open_moment<R: crate::modules::Module>(world: &mut World) -> Result<(), String> {
    let Some(game) = world.get_resource::<foehold_loop::CoreGame<R>>() else {
        return Err("no game is on the table".into());
    };
    let bench = R::bench_of_moment(&game.0.state)
        .map_err(|e| format!("this moment cannot open in the lab: {e}"))?;
    let name = R::scenario_name(&game.0.scenario).to_string();
    arrive(world, move |world| {
        let Some(foehold_loop::CoreGame(game)) =
            world.remove_resource::<foehold_loop::CoreGame<R>>()
        else {
            return;
        };
        let seats = world.resource::<super::driver::Seats>();
        let owners = seats.ready.then(|| seats.owner.clone());
        let paused = world.resource::<super::driver::Pace>().paused;
        put_bench(world, bench, None);
        world.insert_resource(SetAside {
            name,
            game: Box::new(Aside::<R> {
                game,
                owners,
                paused,
            }),
        });
    });
    Ok(())
}

/// The players asked, in the Game window, to open the moment of the game on the table in the lab.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenMoment;

/// Opens the moment asked for when the game on the table is of rules `R`, or says why it cannot.
fn moment_asked<R: crate::modules::Module>(
    mut asked: MessageReader<OpenMoment>,
    mut commands: Commands,
) {
    if asked.read().count() > 0 {
        commands.queue(|world: &mut World| {
            if let Err(e) = open_moment::<R>(world) {
                world.resource_mut::<super::driver::Pace>().say(e);
            }
        });
    }
}

/// Puts the game set aside back on the table as it was; the lab closes.
pub fn back_to_the_game(world: &mut World) {
    arrive(world, |world| {
        if let Some(aside) = world.remove_resource::<SetAside>() {
            aside.game.put_back(world, None);
        }
    });
}

/// "Play on from here": puts the game set aside back on the table with the lab's edits (figures
/// moved or taken off, ground changed) as one decision of the players, which an undo in the game
/// takes back. Edits the game cannot take are refused with the reason and the lab stays open.
pub fn play_on(world: &mut World) {
    let checked = match (
        world.get_resource::<SetAside>(),
        world.get_resource::<LabBench>(),
    ) {
        (Some(aside), Some(bench)) => aside.game.check(bench.0.as_ref()),
        _ => Err("no game was set aside for this position".into()),
    };
    if let Err(e) = checked {
        world.resource_mut::<LabTools>().refused = Some(e);
        return;
    }
    // The bench stays until the game arrives, as with "Back to the game": the lab's windows later
    // in this frame still read it.
    arrive(world, |world| {
        let (Some(aside), Some(bench)) = (
            world.remove_resource::<SetAside>(),
            world.remove_resource::<LabBench>(),
        ) else {
            return;
        };
        aside.game.put_back(world, Some(bench.0.as_ref()));
    });
}

/// The lab's systems run while it is open.
fn in_lab() -> impl FnMut(Option<Res<State<OnTable>>>) -> bool + Clone {
    in_state(OnTable::Lab)
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LabTools>()
        .init_resource::<crate::app::clipboard::Clipboard>()
        .init_resource::<crate::app::notice::Notice>()
        .add_message::<OpenMoment>()
        // A game put on the table (New game, a loaded save) ends the lab.
        .add_systems(OnExit(OnTable::Lab), leave)
        .add_systems(
            Update,
            (clicks, keys, follow)
                .chain()
                .run_if(in_lab())
                .run_if(at_table),
        )
        .add_systems(
            EguiPrimaryContextPass,
            draw_answer
                .run_if(in_lab())
                .run_if(at_table)
                .in_set(crate::app::ui::Drawn),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (bench_window, brushes_window, fields_window, answer_window)
                .chain()
                .run_if(in_lab())
                .run_if(at_table)
                .after(Windows),
        );
    struct AddModules<'a>(&'a mut App);
    impl crate::modules::EachModule for AddModules<'_> {
        fn visit<R: crate::modules::Module>(&mut self) {
            self.0.add_systems(
                Update,
                moment_asked::<R>.run_if(crate::app::driver::playing::<R>()),
            );
        }
    }
    crate::modules::each_module(&mut AddModules(app));
}

/// Puts a bench on the table, early in the next frame: whatever game was there goes, the board is
/// built anew.
pub fn enter(world: &mut World, bench: Box<dyn AnyBench>, path: Option<PathBuf>) {
    arrive(world, move |world| put_bench(world, bench, path));
}

/// Puts a bench on the table now (where things arrive on the table).
fn put_bench(world: &mut World, bench: Box<dyn AnyBench>, path: Option<PathBuf>) {
    crate::app::plans::forget(world);
    let view = bench.view();
    let label = lab_modules()
        .iter()
        .find(|m| m.module == bench.module())
        .map_or("position", |m| m.label);
    let mut table = Table::of_view(
        "Position lab".into(),
        format!("A {label}: edit it, and the rules answer."),
        BoardView::of(&view),
    );
    table.show(view);
    world.insert_resource(table);
    let brush = bench
        .brushes()
        .first()
        .map_or(SELECT.to_string(), |b| b.id.to_string());
    world.insert_resource(LabTools {
        brush,
        path: path.map_or_else(
            || format!("{}-position.ron", bench.module()),
            |p| p.display().to_string(),
        ),
        ..LabTools::default()
    });
    world.insert_resource(LabBench(bench));
    world.insert_resource(crate::app::driver::GameFile(None));
    if let Some(mut marks) = world.get_resource_mut::<CellMarks>() {
        marks.clear_all();
    }
    screen::change(world, OnTable::Lab);
    screen::go(world, Screen::Table);
    let mut windows = world.query_filtered::<&mut Window, With<PrimaryWindow>>();
    for mut w in windows.iter_mut(world) {
        w.title = "Foehold — Position lab".into();
    }
}

/// The lab closes when a game is put on the table; a game set aside goes when another comes.
fn leave(world: &mut World) {
    world.remove_resource::<LabBench>();
    world.remove_resource::<SetAside>();
    if let Some(mut marks) = world.get_resource_mut::<CellMarks>() {
        marks.clear(LAYER);
    }
}

/// Opens a case file's text in the lab; an error leaves the table as it was.
pub fn open_case(world: &mut World, file: &str, text: &str) -> Result<(), String> {
    let bench = open_any(file, text).map_err(|e| e.to_string())?;
    enter(world, bench, Some(PathBuf::from(file)));
    Ok(())
}

/// Opens a blank position of a module (by name) in the lab.
pub fn open_blank(world: &mut World, module: &str) -> Result<(), String> {
    let all = lab_modules();
    let m = all.iter().find(|m| m.module == module).ok_or_else(|| {
        format!(
            "the lab has no module `{module}`: expected one of {}",
            all.iter().map(|m| m.module).collect::<Vec<_>>().join(", ")
        )
    })?;
    enter(world, (m.blank)(), None);
    Ok(())
}

/// A click on the board: the brush in hand goes on the cell clicked (a figure clicked stands for
/// its cell).
fn clicks(
    mut picked: MessageReader<Picked>,
    table: Res<Table>,
    mut bench: ResMut<LabBench>,
    mut tools: ResMut<LabTools>,
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
        let kind = bench
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
            (MOVE, _) => match tools.pending.take() {
                None if table.figure_at(cell).is_some() => {
                    tools.pending = Some(cell);
                    Ok(())
                }
                None => Err("click a figure, then where it goes".to_string()),
                Some(from) => bench.0.drag(from, cell).inspect(|()| {
                    tools.selected = Some(cell);
                }),
            },
            (_, Some(BrushKind::Edge)) => match tools.pending.take() {
                None => {
                    tools.pending = Some(cell);
                    Ok(())
                }
                Some(first) => bench.0.paint(&brush, first, Some(cell)),
            },
            (_, Some(BrushKind::Figure)) => bench.0.paint(&brush, cell, None).inspect(|()| {
                tools.selected = Some(cell);
            }),
            (_, Some(_)) => bench.0.paint(&brush, cell, None),
            (_, None) => Err(format!("no brush `{brush}`")),
        };
        tools.refused = done.err();
        tools.shown = None;
    }
}

/// Ctrl+Z and Ctrl+Y undo and redo the lab's edits (not while typing in a field).
fn keys(
    input: Res<ButtonInput<KeyCode>>,
    typing: Res<Typing>,
    mut bench: ResMut<LabBench>,
    mut tools: ResMut<LabTools>,
) {
    if typing.0 || !ctrl_held(&input) {
        return;
    }
    if input.just_pressed(KeyCode::KeyZ) {
        bench.0.undo();
        tools.shown = None;
    } else if input.just_pressed(KeyCode::KeyY) {
        bench.0.redo();
        tools.shown = None;
    }
}

/// The table follows the bench: the board when its cells changed, the figures, and the answer's
/// marks (the outcome clicked, else all of them).
fn follow(
    bench: Res<LabBench>,
    tools: Res<LabTools>,
    mut table: ResMut<Table>,
    mut marks: ResMut<CellMarks>,
    mut rebuild: MessageWriter<RebuildBoard>,
) {
    if !bench.is_changed() && !tools.is_changed() {
        return;
    }
    if bench.is_changed() {
        let view = bench.0.view();
        let board = BoardView::of(&view);
        if !board.same_as(&table.board) {
            table.board = board;
            rebuild.write(RebuildBoard);
        }
        table.show(view);
    }
    let answer = bench.0.answer();
    let tied = answer.choices.len() > 1;
    let mut cells: Vec<(CellKey, Mark)> = Vec::new();
    for (i, c) in answer.choices.iter().enumerate() {
        if tools.shown.is_some_and(|s| s != i) {
            continue;
        }
        cells.extend(c.focus.iter().map(|&k| (k, Mark::Focus)));
        cells.extend(c.area.iter().map(|&k| (k, Mark::AoE)));
        cells.extend(c.path.iter().map(|&k| (k, Mark::Path)));
        cells.extend(c.targets.iter().map(|&k| (k, Mark::Target)));
        // Ends of tied outcomes light up as a tie: the players' choice.
        if let Some(e) = c.end {
            cells.push((
                e,
                if tied && tools.shown.is_none() {
                    Mark::Tie
                } else {
                    Mark::Path
                },
            ));
        }
    }
    if let Some(p) = tools.pending.or(tools.selected) {
        cells.push((p, Mark::Hover));
    }
    marks.set(LAYER, cells);
}

/// The answer's paths and attack lines over the board, as a foe's plan in a game is drawn: the
/// outcome clicked alone, else every one, numbered when the rules leave a tie.
fn draw_answer(
    mut contexts: EguiContexts,
    bench: Res<LabBench>,
    tools: Res<LabTools>,
    table: Res<Table>,
    camera: Query<(&Camera, &GlobalTransform), With<crate::app::camera::TableCamera>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Ok((camera, cam_t)) = camera.single() else {
        return Ok(());
    };
    let painter = crate::app::ui::board_painter(ctx, camera);
    let project = |p: Vec3| crate::app::ui::on_screen(camera, cam_t, p);
    let answer = bench.0.answer();
    let foe = answer
        .choices
        .first()
        .and_then(|c| c.from)
        .and_then(|c| table.figure_at(c))
        .map_or("the foe", |f| f.name.as_str());
    let choices = answer
        .choices
        .iter()
        .enumerate()
        .filter(|(i, _)| tools.shown.is_none_or(|s| s == *i));
    crate::app::plans::draw_plan(
        &painter,
        &table,
        choices,
        answer.choices.len() > 1,
        foe,
        &project,
    );
    Ok(())
}

/// The lab's own window: which position, undo and redo, files and codes, back to a game.
#[expect(
    clippy::too_many_arguments,
    reason = "a Bevy system takes one parameter per resource, query and message it uses"
)]
fn bench_window(
    mut commands: Commands,
    mut contexts: EguiContexts,
    mut bench: ResMut<LabBench>,
    mut tools: ResMut<LabTools>,
    mut dock: ResMut<Dock>,
    mut next: ResMut<NextState<Screen>>,
    aside: Option<Res<SetAside>>,
    (mut clipboard, mut notice, mut store): (
        ResMut<crate::app::clipboard::Clipboard>,
        ResMut<crate::app::notice::Notice>,
        ResMut<crate::app::store::Store>,
    ),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let (undo, redo) = bench.0.history();
    dock.show(ctx, Slot::Menu, egui::Window::new("Position lab"), |ui| {
        if let Some(aside) = &aside {
            ui.horizontal_wrapped(|ui| {
                if ui
                    .button("Play on from here")
                    .tagged("lab:play-on")
                    .on_hover_text(
                        "The game this moment came from, with the figures moved or taken off \
                         and the ground changed here; an undo in the game takes them back",
                    )
                    .clicked()
                {
                    commands.queue(play_on);
                }
                if ui
                    .button(format!("Back to the game: {}", aside.name))
                    .tagged("lab:back")
                    .on_hover_text("The game this moment came from, as it was when you left it")
                    .clicked()
                {
                    commands.queue(back_to_the_game);
                }
            });
        }
        ui.horizontal(|ui| {
            if ui
                .add_enabled(undo > 0, egui::Button::new("⟲ Undo"))
                .tagged("lab:undo")
                .on_hover_text("Take back the last edit (Ctrl+Z)")
                .clicked()
            {
                bench.0.undo();
                tools.shown = None;
            }
            if ui
                .add_enabled(redo > 0, egui::Button::new("⟳ Redo"))
                .tagged("lab:redo")
                .on_hover_text("Make the edit taken back again (Ctrl+Y)")
                .clicked()
            {
                bench.0.redo();
                tools.shown = None;
            }
            if ui
                .button("Clear the board")
                .tagged("lab:clear")
                .on_hover_text(
                    "Keep the board and the acting foe; take off every other figure, wall and \
                     terrain, to set a position up from scratch (Ctrl+Z brings them back)",
                )
                .clicked()
            {
                tools.refused = bench.0.clear().err();
                tools.shown = None;
            }
            if ui.button("Play a game…").tagged("lab:games").clicked() {
                next.set(Screen::Choosing);
            }
            // A position of a module the workshop builds on becomes a new scenario there.
            let buildable = foehold_core::workshop::any::builds_on(bench.0.module());
            if ui
                .add_enabled(buildable, egui::Button::new("Make a scenario of it"))
                .tagged("lab:to-workshop")
                .on_hover_text("A new scenario of this board and its figures, in the workshop")
                .on_disabled_hover_text(
                    "The workshop builds no scenarios around this module's positions",
                )
                .clicked()
            {
                let (module, text) = (bench.0.module(), bench.0.file());
                commands.queue(move |world: &mut World| {
                    let library = crate::app::store::library(world);
                    let made = foehold_core::workshop::any::draft_of_position(
                        module,
                        "my-scenario.ron",
                        &text,
                        library,
                    );
                    match made {
                        Ok(draft) => crate::app::workshop::enter(world, draft, None),
                        Err(e) => world.resource_mut::<LabTools>().refused = Some(e),
                    }
                });
            }
        });
        ui.horizontal_wrapped(|ui| {
            ui.label("New:");
            for m in lab_modules() {
                if ui
                    .button(m.label)
                    .tagged(format!("lab:new:{}", m.module))
                    .clicked()
                {
                    let module = m.module;
                    commands.queue(move |world: &mut World| {
                        if let Err(e) = open_blank(world, module) {
                            world.resource_mut::<LabTools>().refused = Some(e);
                        }
                    });
                }
            }
        });
        ui.horizontal(|ui| {
            let width = (ui.available_width() - 100.0).max(60.0);
            ui.add(egui::TextEdit::singleline(&mut tools.path).desired_width(width))
                .tagged("lab:path");
            if ui.button("Open").tagged("lab:open").clicked() {
                let path = PathBuf::from(&tools.path);
                commands.queue(move |world: &mut World| {
                    let opened = world
                        .resource::<crate::app::store::Store>()
                        .read(&path)
                        .and_then(|text| open_case(world, &path.display().to_string(), &text));
                    if let Err(e) = opened {
                        world.resource_mut::<LabTools>().refused = Some(e);
                    }
                });
            }
            if ui
                .button("Save")
                .tagged("lab:save")
                .on_hover_text("The case file, as foehold solve reads it")
                .clicked()
            {
                let path = PathBuf::from(&tools.path);
                match store.0.write(&path, bench.0.file().as_bytes()) {
                    Ok(()) => {
                        tools.refused = None;
                        notice.done(format!("the position is saved to {}", path.display()));
                    }
                    Err(e) => {
                        tools.refused = Some(format!("could not save {e}"));
                    }
                }
            }
        });
        ui.horizontal(|ui| {
            let width = (ui.available_width() - 130.0).max(60.0);
            ui.add(
                egui::TextEdit::singleline(&mut tools.code)
                    .desired_width(width)
                    .hint_text("FH1.…"),
            )
            .tagged("lab:code");
            if ui
                .button("Code")
                .tagged("lab:make-code")
                .on_hover_text("The position as a short code, copied to paste anywhere")
                .clicked()
            {
                tools.code = code::encode(&bench.0.file());
                clipboard.copy("the position's code", tools.code.clone());
            }
            if ui.button("Open code").tagged("lab:open-code").clicked() {
                match code::decode(&tools.code) {
                    // A code names no file: Save then offers the module's default name.
                    Ok(text) => {
                        commands.queue(move |world: &mut World| {
                            match open_any("the code", &text) {
                                Ok(bench) => enter(world, bench, None),
                                Err(e) => {
                                    world.resource_mut::<LabTools>().refused = Some(e.to_string());
                                }
                            }
                        });
                    }
                    Err(e) => tools.refused = Some(e),
                }
            }
        });
    });
    Ok(())
}

/// The brushes, and why the last edit was refused.
fn brushes_window(
    mut contexts: EguiContexts,
    bench: Res<LabBench>,
    mut tools: ResMut<LabTools>,
    mut dock: ResMut<Dock>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    dock.show(ctx, Slot::Turn, egui::Window::new("Brushes"), |ui| {
        // One line, always there, so that a refusal moves nothing under the pointer: a long
        // one is cut short, and the whole of it shows on hover.
        let why = tools.refused.as_deref().unwrap_or("");
        let line = ui.add(
            egui::Label::new(egui::RichText::new(why).color(egui::Color32::from_rgb(255, 150, 90)))
                .truncate(),
        );
        if !why.is_empty() {
            line.on_hover_text(why).tagged("lab:refused");
        }
        let mut brush = tools.brush.clone();
        ui.horizontal_wrapped(|ui| {
            ui.selectable_value(&mut brush, SELECT.to_string(), "Select")
                .tagged("lab:brush:select");
            ui.selectable_value(&mut brush, MOVE.to_string(), "Move a figure")
                .tagged("lab:brush:move");
            for b in bench.0.brushes() {
                ui.selectable_value(&mut brush, b.id.to_string(), b.label)
                    .tagged(format!("lab:brush:{}", b.id));
            }
        });
        if brush != tools.brush {
            tools.brush = brush;
            tools.pending = None;
        }
        if tools.pending.is_some() {
            ui.label("…and now the second cell.");
        }
    });
    Ok(())
}

/// The side panel: the position's numbers and switches, then the selected figure's.
fn fields_window(
    mut contexts: EguiContexts,
    mut bench: ResMut<LabBench>,
    mut tools: ResMut<LabTools>,
    hovered: Res<crate::app::picking::Hovered>,
    table: Res<Table>,
    mut dock: ResMut<Dock>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let fields = bench.0.fields(tools.selected);
    // The cell under the pointer, so a coordinate in the answer can be found on the board; the
    // line is always there, so nothing below it moves.
    let pointing = match hovered.0 {
        Some(Target::Cell(c)) => Some(c),
        Some(Target::Figure(id)) => table.figure(id).map(|f| f.cell),
        None => None,
    }
    .and_then(|c| table.board.cell(c))
    .map_or_else(
        || "Point at a cell to see where it is".to_string(),
        |cell| {
            let mut w = format!("{} · {}", cell.words(), cell.ground.name());
            if let Some(f) = table.figure_at(cell.key) {
                w += &format!(" · {}", f.name);
            }
            w
        },
    );
    dock.show(ctx, Slot::Scenario, egui::Window::new("Position"), |ui| {
        ui.weak(pointing).tagged("lab:pointing");
        let tools = &mut *tools;
        if let Some((f, v)) = field_grid(ui, "lab", &fields, &mut tools.typing, &mut tools.refused)
        {
            let selected = tools.selected;
            tools.refused = bench
                .0
                .set(selected, &f.id, v)
                .err()
                .map(|e| format!("{}: {e}", f.label));
            tools.shown = None;
        }
    });
    Ok(())
}

/// The answer: one line, every outcome the rules leave equal (click one to see it alone), and the
/// rule steps that decided it.
fn answer_window(
    mut contexts: EguiContexts,
    bench: Res<LabBench>,
    mut tools: ResMut<LabTools>,
    mut dock: ResMut<Dock>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let answer = bench.0.answer();
    dock.show(
        ctx,
        Slot::Walk,
        egui::Window::new("What the foe does"),
        |ui| {
            ui.label(egui::RichText::new(&answer.summary).strong())
                .tagged("lab:summary");
            if answer.choices.len() > 1 {
                let mut all = tools.shown.is_none();
                if ui
                    .toggle_value(&mut all, "Show all")
                    .tagged("lab:show-all")
                    .clicked()
                    && all
                {
                    tools.shown = None;
                }
            }
            for (i, c) in answer.choices.iter().enumerate() {
                let on = tools.shown == Some(i);
                if ui
                    .selectable_label(on, format!("{}. {}", i + 1, c.label))
                    .tagged(format!("lab:choice:{}", i + 1))
                    .clicked()
                {
                    tools.shown = if on { None } else { Some(i) };
                }
            }
            ui.separator();
            ui.label(egui::RichText::new("Why").strong());
            for line in &answer.why {
                ui.label(format!("· {line}"));
            }
        },
    );
    Ok(())
}

#[cfg(test)]
mod tests;
