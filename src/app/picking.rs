//! Picking with Bevy's mesh picking: what the pointer is over (a mini or a cell) and clicks on them,
//! turned into [`Picked`] messages that the play plugin turns into game actions.

use bevy::picking::pointer::PointerInteraction;
use bevy::prelude::*;

use super::board::{CellMarks, Mark, Tile};
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
        .add_observer(on_click)
        .add_systems(Update, (hover, mark_hover).chain());
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

fn on_click(
    click: On<Pointer<Click>>,
    parts: Query<&MiniPart>,
    tiles: Query<&Tile>,
    parents: Query<&ChildOf>,
    mut picked: MessageWriter<Picked>,
) {
    // The event bubbles up to parents; only the entity actually hit counts.
    if click.entity != click.original_event_target() || click.event.button != PointerButton::Primary
    {
        return;
    }
    if let Some(t) = target_of(click.entity, &parts, &tiles, &parents) {
        picked.write(Picked(t));
    }
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
