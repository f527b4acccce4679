//! Each foe's plan on the table: pointing at a foe shows its card for the round and, while the
//! players move, what it would do if it acted now, worked out by the lab's solver and told in the
//! game's names; a switch shows every foe's plan at once.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use foehold_core::lab::Choice;
use foehold_core::lab::any::Plan;
use foehold_core::rules::ToMove;
use foehold_loop::CoreGame;

use crate::app::camera::TableCamera;
use crate::app::picking::{Hovered, Target};
use crate::app::table::Table;
use crate::app::view::Side;
use crate::modules::{EachModule, Module, each_module};

/// The plans drawn now.
#[derive(Resource, Debug, Default)]
pub struct Plans {
    /// Every foe's plan is drawn, not only the one pointed at.
    pub all: bool,
    /// The plans worked out, by foe (table id), in the table's order of figures.
    pub shown: Vec<(u32, Plan)>,
    /// The foes they were worked out for.
    of: Vec<u32>,
}

/// Forgets the plans of a game taken off the table (the lab opening on its moment, say): they
/// are worked out again when a game is back.
pub fn forget(world: &mut World) {
    if let Some(mut plans) = world.get_resource_mut::<Plans>() {
        plans.shown.clear();
        plans.of.clear();
    }
}

impl Plans {
    /// The plan of foe `id`, if it is worked out.
    pub fn of(&self, id: u32) -> Option<&Plan> {
        self.shown.iter().find(|(f, _)| *f == id).map(|(_, p)| p)
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Plans>().add_systems(
        EguiPrimaryContextPass,
        draw.run_if(crate::app::screen::at_table)
            .in_set(crate::app::ui::Drawn),
    );
    struct Add<'a>(&'a mut App);
    impl EachModule for Add<'_> {
        fn visit<R: Module>(&mut self) {
            self.0.add_systems(
                Update,
                work_out::<R>
                    .after(crate::app::driver::Following)
                    .run_if(crate::app::driver::playing::<R>()),
            );
        }
    }
    each_module(&mut Add(app));
}

/// Works the plans out again when the game moved, the pointer went to another foe or the switch
/// changed: the solver runs once per change, not every frame.
fn work_out<R: Module>(
    game: Res<CoreGame<R>>,
    hovered: Res<Hovered>,
    table: Res<Table>,
    mut plans: ResMut<Plans>,
) {
    let living_foe = |id: u32| {
        table
            .figure(id)
            .is_some_and(|f| f.side == Side::Foe && f.hp > 0)
    };
    let of: Vec<u32> = if plans.all {
        table
            .figures
            .iter()
            .filter(|f| living_foe(f.id))
            .map(|f| f.id)
            .collect()
    } else {
        match hovered.0 {
            Some(Target::Figure(id)) if living_foe(id) => vec![id],
            Some(Target::Cell(c)) => table
                .figure_at(c)
                .filter(|f| living_foe(f.id))
                .map(|f| vec![f.id])
                .unwrap_or_default(),
            _ => Vec::new(),
        }
    };
    if !game.is_changed() && of == plans.of {
        return;
    }
    let g = &game.0;
    // In the rules' own steps the foe's real turn is drawn; a plan is for the players' moves.
    let players_move = matches!(g.to_move(), ToMove::Heroes(_));
    let shown = of
        .iter()
        .map(|&id| {
            let mut plan = R::plan(&g.state, id);
            if !players_move && plan.answer.is_ok() {
                plan.answer =
                    Err("the rules are playing: its plan shows on the players' moves".into());
            }
            (id, plan)
        })
        .collect();
    plans.shown = shown;
    plans.of = of;
}

/// The plans over the board, under every window as the name plates are.
fn draw(
    mut contexts: EguiContexts,
    table: Res<Table>,
    plans: Res<Plans>,
    camera: Query<(&Camera, &GlobalTransform), With<TableCamera>>,
) -> Result {
    if plans.shown.is_empty() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let Ok((camera, cam_t)) = camera.single() else {
        return Ok(());
    };
    let painter = crate::app::ui::board_painter(ctx, camera);
    let project = |p: Vec3| crate::app::ui::on_screen(camera, cam_t, p);
    for (foe, plan) in &plans.shown {
        let Ok(answer) = &plan.answer else {
            continue;
        };
        let name = table.figure(*foe).map_or("", |f| f.name.as_str());
        let tied = answer.choices.len() > 1;
        draw_plan(
            &painter,
            &table,
            answer.choices.iter().enumerate(),
            tied,
            name,
            &project,
        );
    }
    Ok(())
}

/// The colour of a foe's planned path (the real turn's is gold).
const PLAN_PATH: egui::Color32 = egui::Color32::from_rgb(110, 200, 255);
/// The colour of a foe's planned attacks (the real turn's aim is red).
const PLAN_AIM: egui::Color32 = egui::Color32::from_rgb(255, 150, 60);

/// One foe's plan (or the lab's answer) over the board: each outcome's path from where the foe stands, its attack lines
/// from where it ends, a ring on its focus with the foe's name, and, when the rules leave a tie,
/// each outcome's number at its end (the order of the side panel's list).
pub fn draw_plan<'a>(
    painter: &egui::Painter,
    table: &Table,
    choices: impl Iterator<Item = (usize, &'a Choice)>,
    tied: bool,
    foe: &str,
    project: &impl Fn(Vec3) -> Option<egui::Pos2>,
) {
    let at = |c: (i32, i32), y: f32| project(table.board.world(c) + Vec3::Y * y);
    let mut focus_named: Vec<(i32, i32)> = Vec::new();
    for (i, choice) in choices {
        let walk: Vec<egui::Pos2> = choice
            .from
            .iter()
            .chain(&choice.path)
            .filter_map(|c| at(*c, 0.25))
            .collect();
        if walk.len() > 1 {
            painter.add(egui::Shape::dashed_line(
                &walk,
                egui::Stroke::new(2.5, PLAN_PATH),
                8.0,
                5.0,
            ));
        }
        let end = choice.end.or(choice.from);
        if let Some(e) = end.and_then(|c| at(c, 0.25)) {
            painter.circle_stroke(e, 7.0, egui::Stroke::new(2.0, PLAN_PATH));
            if tied {
                painter.circle_filled(e + egui::vec2(0.0, -16.0), 9.0, PLAN_PATH);
                painter.text(
                    e + egui::vec2(0.0, -16.0),
                    egui::Align2::CENTER_CENTER,
                    format!("{}", i + 1),
                    egui::FontId::proportional(12.0),
                    egui::Color32::BLACK,
                );
            }
        }
        let from = end.and_then(|c| at(c, 0.9));
        for t in &choice.targets {
            if let (Some(a), Some(b)) = (from, at(*t, 0.9)) {
                painter.add(egui::Shape::dashed_line(
                    &[a, b],
                    egui::Stroke::new(2.0, PLAN_AIM),
                    6.0,
                    4.0,
                ));
                painter.circle_stroke(b, 11.0, egui::Stroke::new(2.0, PLAN_AIM));
            }
        }
        for f in &choice.focus {
            if focus_named.contains(f) {
                continue;
            }
            focus_named.push(*f);
            if let Some(p) = at(*f, 0.05) {
                painter.circle_stroke(p, 16.0, egui::Stroke::new(1.5, PLAN_AIM));
                painter.text(
                    p + egui::vec2(0.0, 22.0),
                    egui::Align2::CENTER_TOP,
                    format!("{foe}'s focus"),
                    egui::FontId::proportional(12.0),
                    PLAN_AIM,
                );
            }
        }
    }
}
