//! The menu window: undo and redo, the history toggle, save and load, the autosave, a new game.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::HistoryOpen;
use crate::app::dock::{Dock, Slot};
use crate::app::driver::{Control, Keeping};
use crate::app::screen::Screen;
use crate::app::tag::Tagged;

pub fn menu(
    mut contexts: EguiContexts,
    mut history: ResMut<HistoryOpen>,
    mut screen: ResMut<NextState<Screen>>,
    mut controls: MessageWriter<Control>,
    mut keeping: ResMut<Keeping>,
    (mut dock, aside): (ResMut<Dock>, Option<Res<crate::app::workshop::DraftAside>>),
    mut lab: Commands,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    dock.show(ctx, Slot::Menu, egui::Window::new("Game"), |ui| {
        ui.horizontal(|ui| {
            if ui
                .button("⟲ Undo")
                .tagged("menu:undo")
                .on_hover_text("Back to before the last decision (Ctrl+Z)")
                .clicked()
            {
                controls.write(Control::Undo);
            }
            if ui
                .button("⟳ Redo")
                .tagged("menu:redo")
                .on_hover_text("On through the next decision (Ctrl+Y)")
                .clicked()
            {
                controls.write(Control::Redo);
            }
            let mut open = history.0;
            ui.toggle_value(&mut open, "History").tagged("menu:history");
            history.set_if_neq(HistoryOpen(open));
        });
        ui.horizontal(|ui| {
            // Edit a copy: writing the resource every frame would mark it changed.
            let mut path = keeping.path.clone();
            // What the two buttons beside it leave.
            let width = (ui.available_width() - 100.0).max(60.0);
            ui.add(egui::TextEdit::singleline(&mut path).desired_width(width));
            if path != keeping.path {
                keeping.path = path;
            }
            if ui.button("Save").tagged("menu:save").clicked() {
                controls.write(Control::Save(keeping.path.clone().into()));
            }
            if ui.button("Load").tagged("menu:load").clicked() {
                controls.write(Control::Load(keeping.path.clone().into()));
            }
        });
        ui.horizontal(|ui| {
            if ui
                .button("Load autosave")
                .tagged("menu:load-autosave")
                .clicked()
            {
                controls.write(Control::Load(keeping.autosave.clone()));
            }
            if ui.button("New game…").tagged("menu:new-game").clicked() {
                screen.set(Screen::Choosing);
            }
            if ui
                .button("Position lab")
                .tagged("menu:lab")
                .on_hover_text("Set up any position and see what the foe does, and why")
                .clicked()
            {
                lab.queue(|world: &mut World| {
                    let first = foehold_core::kit::lab_modules()[0].module;
                    if let Err(e) = crate::app::lab::open_blank(world, first) {
                        world.resource_mut::<crate::app::driver::Problem>().0 = Some(e);
                    }
                });
            }
        });
        // One row for both: a taller Game window would push the turn's windows below it down.
        ui.horizontal(|ui| {
            if ui
                .button("Play online…")
                .tagged("menu:online")
                .on_hover_text("Host this game for friends on other machines, or join theirs")
                .clicked()
            {
                lab.queue(|world: &mut World| {
                    world.resource_mut::<crate::app::online::Online>().open = true;
                });
            }
            if ui
                .button("Scenario workshop")
                .tagged("menu:workshop")
                .on_hover_text(
                    "Make a scenario of your own: paint the board, place the foes, set the goal",
                )
                .clicked()
            {
                lab.queue(|world: &mut World| {
                    let first = foehold_core::workshop::any::shop_modules()[0].module;
                    if let Err(e) = crate::app::workshop::open_blank(world, first) {
                        world.resource_mut::<crate::app::driver::Problem>().0 = Some(e);
                    }
                });
            }
        });
        if let Some(aside) = &aside
            && ui
                .button(format!("Back to the workshop: {}", aside.name))
                .tagged("menu:back-to-workshop")
                .on_hover_text("The draft you played, as you left it")
                .clicked()
        {
            lab.queue(crate::app::workshop::back_to_the_workshop);
        }
        if ui
            .button("Open this moment in the lab")
            .tagged("menu:moment")
            .on_hover_text(
                "The foe whose turn it is (or comes next), in the lab; the game waits to come back",
            )
            .clicked()
        {
            lab.write_message(crate::app::lab::OpenMoment);
        }
    });
    Ok(())
}
