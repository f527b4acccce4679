//! Picking with mesh ray casts: what the pointer is over (a mini or a cell) and presses on them,
//! turned into [`Picked`] messages that the play plugin turns into game actions.

use bevy::input::ButtonState;
use bevy::picking::mesh_picking::ray_cast::{MeshRayCast, MeshRayCastSettings, RayCastVisibility};
use bevy::picking::pointer::PointerInteraction;
use bevy::prelude::*;
use bevy::window::WindowEvent;
use bevy_egui::EguiContexts;

use super::board::{CellMarks, Mark, Tile};
use super::camera::TableCamera;
use super::minis::MiniPart;
use super::table::Table;
use super::view::CellKey;

/// Something on the table a pointer can point at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Figure(u32),
    Cell(CellKey),
}

/// What the pointer is over now.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Hovered(pub Option<Target>);

/// A click on the table (left button), already resolved to a figure or a cell.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Picked(pub Target);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Hovered>()
        .add_message::<Picked>()
        .add_systems(Update, ((hover, mark_hover).chain(), presses));
}

/// Resolves a picked entity to the figure or cell it shows.
fn target_of(
    e: Entity,
    parts: &Query<&MiniPart>,
    tiles: &Query<&Tile>,
    parents: &Query<&ChildOf>,
) -> Option<Target> {
    let mut e = e;
    // Props sit under their tile, so climb a few parents.
    for _ in 0..3 {
        if let Ok(p) = parts.get(e) {
            return Some(Target::Figure(p.0));
        }
        if let Ok(t) = tiles.get(e) {
            return Some(Target::Cell(t.0));
        }
        e = parents.get(e).ok()?.parent();
    }
    None
}

/// Left presses on the board, each at the place the pointer was when it was pressed.
///
/// Bevy's picking finds what a press hit from the pointer's last hover, and egui claims a pointer it
/// saw over a window in the previous frame: at a low frame rate, a press right after moving off a
/// window or across the board was lost or landed on the cell left behind. Here the window events
/// are replayed in order and each press casts its own ray.
#[expect(
    clippy::too_many_arguments,
    reason = "a Bevy system takes one parameter per resource, query and message it uses"
)]
fn presses(
    mut events: MessageReader<WindowEvent>,
    mut pointer: Local<Option<Vec2>>,
    camera: Query<(&Camera, &GlobalTransform), With<TableCamera>>,
    mut ray_cast: MeshRayCast,
    parts: Query<&MiniPart>,
    tiles: Query<&Tile>,
    parents: Query<&ChildOf>,
    mut contexts: EguiContexts,
    mut picked: MessageWriter<Picked>,
) -> Result {
    let mut pressed_at = Vec::new();
    for e in events.read() {
        match e {
            WindowEvent::CursorMoved(m) => *pointer = Some(m.position),
            WindowEvent::CursorLeft(_) => *pointer = None,
            WindowEvent::MouseButtonInput(b)
                if b.button == MouseButton::Left && b.state == ButtonState::Pressed =>
            {
                pressed_at.extend(*pointer);
            }
            _ => {}
        }
    }
    if pressed_at.is_empty() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let (camera, at) = camera.single()?;
    let pickable = |e: Entity| target_of(e, &parts, &tiles, &parents).is_some();
    for p in pressed_at {
        // Windows stay where they were drawn, so this answers for the pointer's place now; name
        // plates paint on the background and let presses through.
        let on_board = camera
            .logical_viewport_rect()
            .is_some_and(|r| r.contains(p));
        if super::focus::window_at(ctx, p) || !on_board {
            continue;
        }
        let Ok(ray) = camera.viewport_to_world(at, p) else {
            continue;
        };
        let settings = MeshRayCastSettings::default()
            .with_filter(&pickable)
            .with_visibility(RayCastVisibility::VisibleInView);
        let hit = ray_cast.cast_ray(ray, &settings).first().map(|(e, _)| *e);
        if let Some(t) = hit.and_then(|e| target_of(e, &parts, &tiles, &parents)) {
            picked.write(Picked(t));
        }
    }
    Ok(())
}

fn hover(
    pointers: Query<&PointerInteraction>,
    parts: Query<&MiniPart>,
    tiles: Query<&Tile>,
    parents: Query<&ChildOf>,
    mut hovered: ResMut<Hovered>,
) {
    let now = pointers
        .iter()
        .filter_map(PointerInteraction::get_nearest_hit)
        .find_map(|(e, _)| target_of(*e, &parts, &tiles, &parents));
    hovered.set_if_neq(Hovered(now));
}

fn mark_hover(hovered: Res<Hovered>, table: Res<Table>, mut marks: ResMut<CellMarks>) {
    if !hovered.is_changed() {
        return;
    }
    let cell = match hovered.0 {
        Some(Target::Cell(c)) => Some(c),
        Some(Target::Figure(id)) => table.figure(id).map(|f| f.cell),
        None => None,
    };
    match cell {
        Some(c) => marks.set("hover", [(c, Mark::Hover)]),
        None => marks.clear("hover"),
    }
}
