//! `--probe FILE`: what the table shows, written as JSON every frame, so that a program
//! driving the table with a real pointer and keyboard knows where to click and what to expect.
//!
//! It names each on-screen button that [`crate::app::tag::tag`] marked, gives the window position of every cell and
//! mini as the camera draws them, the marks on the cells and where the game stands. The file is
//! replaced atomically, so a reader never sees half of it.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::EguiContexts;
use serde_json::{Value, json};

use foehold_core::rules::ToMove;
use foehold_loop::CoreGame;

use crate::app::Options;
use crate::app::board::CellMarks;
use crate::app::camera::{Orbit, TableCamera};
use crate::app::driver::{Pace, Seats, Turn, playing};
use crate::app::minis::Mini;
use crate::app::picking::{Hovered, Target};
use crate::app::table::Table;
use crate::app::view::plane_to_world;
use crate::modules::{EachModule, Module, each_module};

/// Where the probe goes.
#[derive(Resource)]
struct ProbeFile {
    path: PathBuf,
    /// Frames drawn so far: a reader knows two probes apart were two frames apart.
    frame: u64,
}

pub fn plugin(app: &mut App) {
    let Some(path) = app.world().resource::<Options>().tools.probe.clone() else {
        return;
    };
    app.insert_resource(ProbeFile { path, frame: 0 })
        .init_resource::<ProbeGame>()
        .add_systems(Last, write_probe.in_set(Written).after(Filled));
    struct Fill<'a>(&'a mut App);
    impl EachModule for Fill<'_> {
        fn visit<R: Module>(&mut self) {
            self.0
                .add_systems(Last, game::<R>.run_if(playing::<R>()).in_set(Filled));
        }
    }
    each_module(&mut Fill(app));
}

/// The systems that fill [`ProbeGame`]; a module's own details come after them.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Filled;

/// The system that writes the probe, last.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Written;

/// Where the game stands, for the probe: each module may add its own words after [`Filled`].
#[derive(Resource, Default)]
pub struct ProbeGame(pub Value);

/// Where the game on the table stands, with the seats, online play and the table's message.
#[expect(
    clippy::too_many_arguments,
    reason = "a Bevy system takes one parameter per resource, query and message it uses"
)]
fn game<R: Module>(
    game: Res<CoreGame<R>>,
    seats: Res<Seats>,
    turn: Res<Turn>,
    pace: Res<Pace>,
    log: Res<crate::app::driver::Log>,
    settings: Res<foehold_loop::LoopSettings>,
    online: Res<crate::app::online::Online>,
    mut out: ResMut<ProbeGame>,
) {
    let g = &game.0;
    // The last actions in effect, as the history tells them.
    let from = log.cursor.saturating_sub(30);
    let history: Vec<Value> = (from..log.cursor)
        .filter_map(|i| log.history.get(i).map(|l| (i, l)))
        .map(|(i, l)| json!({"at": i, "text": l.text, "decision": l.decision}))
        .collect();
    out.0 = json!({
        "game": {
            "rules": R::NAME,
            "phase": format!("{:?}", g.to_move()),
            // A module's own phase may replace the one above; this one tells whether the
            // rules still have steps of their own to run before a player is asked.
            "waits_for": match g.to_move() {
                ToMove::Rules { .. } | ToMove::Chance { .. } => "rules",
                ToMove::Heroes(_) => "heroes",
                ToMove::Tie { .. } => "tie",
                ToMove::Over { .. } => "nobody",
            },
            "round": R::round(&g.state),
            "cursor": g.cursor, "log": g.log.len(),
            // Two tables of one online game compare it.
            "hash": foehold_core::rules::state_hash(&g.state).to_string(),
            "history": history,
            // The last lines of the game's log, as its window tells them.
            "told": log.told.log[log.told.log.len().saturating_sub(60)..],
            "table_draws": settings.table_draws,
        },
        "seats": {"ready": seats.ready, "players": seats.players, "current": turn.player},
        "online": online_json(&online),
        "message": pace.message.as_ref().map(|(m, _)| m.clone()),
        "paused": pace.paused,
    });
}

/// Online play: this screen's role, the code, the seats and whom the game waits for.
fn online_json(online: &crate::app::online::Online) -> Value {
    use crate::app::online::Role;
    let s = &online.status;
    json!({
        "role": s.role.map(|r| match r {
            Role::Host(_) => "Host",
            Role::Player(_) => "Player",
            Role::Spectator => "Spectator",
        }),
        "player": match s.role {
            Some(Role::Host(n)) => n,
            Some(Role::Player(n)) => Some(n),
            _ => None,
        },
        "code": s.code,
        "welcomed": s.welcomed,
        "seats": s.seats.iter().map(|x| json!({
            "player": x.player, "taken": x.taken, "connected": x.connected, "you": x.you,
        })).collect::<Vec<_>>(),
        "waiting": s.waiting,
        "desync": s.desync,
        "host_gone": s.host_gone,
        "removed": s.removed,
        "asking": s.asking.iter().map(|a| format!("{:x}", a.id.0)).collect::<Vec<_>>(),
        "watchers": s.watchers.len(),
        "starting": online.starting().map(|(what, _)| what.to_string()),
        "notes": online.notes.iter().collect::<Vec<_>>(),
    })
}

/// The position lab's bench: the module, the edits to undo and redo, the answer and the tools.
fn lab_json(
    bench: &dyn foehold_core::lab::any::AnyBench,
    tools: &crate::app::lab::LabTools,
) -> Value {
    let answer = bench.answer();
    let (undo, redo) = bench.history();
    let key = |k: Option<(i32, i32)>| k.map(|(q, r)| json!([q, r]));
    json!({
        "module": bench.module(),
        "undo": undo, "redo": redo,
        "summary": answer.summary,
        "choices": answer.choices.iter().map(|c| json!({
            "label": c.label,
            "end": key(c.end),
            "targets": c.targets.iter().map(|&t| key(Some(t))).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "brush": tools.brush, "selected": key(tools.selected), "refused": tools.refused,
        "shown": tools.shown, "code": tools.code,
    })
}

/// The workshop's draft: the module, the edits to undo and redo, what the loader says, the tools
/// and the last playtest.
fn workshop_json(
    draft: &dyn foehold_core::workshop::any::AnyDraft,
    tools: &crate::app::workshop::ShopTools,
    testing: bool,
) -> Value {
    let (undo, redo) = draft.history();
    let report = draft.report();
    json!({
        "module": draft.module(), "name": draft.name(), "file": draft.file(),
        "undo": undo, "redo": redo,
        "playable": draft.playable(),
        "error": report.error.as_ref().map(ToString::to_string),
        "warnings": report.warnings.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "text": draft.text(),
        "brush": tools.brush,
        "selected": tools.selected.map(|(q, r)| json!([q, r])),
        "refused": tools.refused, "path": tools.path,
        "testing": testing, "tested": tools.tested,
    })
}

/// A foe's plan: its card, and what it would do now or why that cannot be said.
fn plan_json(figure: u32, plan: &foehold_core::lab::any::Plan) -> Value {
    let key = |k: Option<(i32, i32)>| k.map(|(q, r)| json!([q, r]));
    match &plan.answer {
        Ok(a) => json!({
            "figure": figure, "card": plan.card, "summary": a.summary, "why": a.why,
            "choices": a.choices.iter().map(|c| json!({
                "label": c.label,
                "end": key(c.end),
                "path": c.path.iter().map(|&t| key(Some(t))).collect::<Vec<_>>(),
                "targets": c.targets.iter().map(|&t| key(Some(t))).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        }),
        Err(e) => json!({"figure": figure, "card": plan.card, "error": e}),
    }
}

#[expect(
    clippy::too_many_arguments,
    reason = "a Bevy system takes one parameter per resource, query and message it uses"
)]
fn write_probe(
    mut file: ResMut<ProbeFile>,
    mut contexts: EguiContexts,
    windows: Query<&Window, With<PrimaryWindow>>,
    camera: Query<(&Camera, &GlobalTransform), With<TableCamera>>,
    minis: Query<(&Mini, &GlobalTransform)>,
    table: Res<Table>,
    marks: Res<CellMarks>,
    game: Res<ProbeGame>,
    orbit: Res<Orbit>,
    hovered: Res<Hovered>,
    lab: Option<Res<crate::app::lab::LabBench>>,
    tools: Res<crate::app::lab::LabTools>,
    (shop, shop_tools, testing): (
        Option<Res<crate::app::workshop::ShopDraft>>,
        Res<crate::app::workshop::ShopTools>,
        Option<Res<crate::app::workshop::Testing>>,
    ),
    notice: Option<Res<crate::app::notice::Notice>>,
    plans: Res<crate::app::plans::Plans>,
) -> Result {
    file.frame += 1;
    let ctx = contexts.ctx_mut()?;
    let tags = crate::app::tag::take(ctx);
    #[expect(
        clippy::redundant_closure_for_method_calls,
        reason = "the method's own path names a lifetime the closure cannot be given"
    )]
    let atlas = ctx.fonts(|f| f.font_image_size());
    let (Ok(window), Ok((camera, at))) = (windows.single(), camera.single()) else {
        return Ok(());
    };
    let on_screen = |world: Vec3| {
        camera
            .world_to_viewport(at, world)
            .ok()
            .map(|p| [p.x.round(), p.y.round()])
    };
    let merged = marks.merged();
    let cells: Vec<Value> = table
        .board
        .cells
        .iter()
        .filter_map(|c| {
            let [x, y] = on_screen(plane_to_world(c.centre) + Vec3::Y * 0.12)?;
            // Under a window, or off the board's part of the window, the cell cannot be seen or
            // clicked there.
            let at = Vec2::new(x, y);
            let on_board = camera
                .logical_viewport_rect()
                .is_none_or(|r| r.contains(at));
            let covered = crate::app::focus::window_at(ctx, at) || !on_board;
            Some(json!({
                "q": c.key.0, "r": c.key.1, "x": x, "y": y, "covered": covered,
                "ground": format!("{:?}", c.ground),
                "door": c.door,
                "mark": merged.get(&c.key).map(|m| format!("{m:?}")),
            }))
        })
        .collect();
    let mut figures: Vec<Value> = Vec::new();
    for f in &table.figures {
        // Where the mini really stands now (it may still be walking), not where the game put it.
        let Some((mini, place)) = minis.iter().find(|(m, _)| m.id == f.id) else {
            continue;
        };
        let foot = on_screen(place.translation());
        let body = on_screen(place.translation() + Vec3::Y * 0.62);
        figures.push(json!({
            "id": f.id, "name": f.name, "side": format!("{:?}", f.side), "owner": f.owner,
            "q": f.cell.0, "r": f.cell.1, "hp": f.hp, "dead": mini.dead,
            "foot": foot, "body": body,
        }));
    }
    let widgets: Vec<Value> = tags
        .0
        .iter()
        .map(|(name, r, enabled, shown)| {
            json!({
                "name": name, "x": r.min.x, "y": r.min.y, "w": r.width(), "h": r.height(),
                "enabled": enabled,
                // The part a window shows: none of it (height 0) when scrolled out of view;
                // then `shown_end` is the foot of the view above it (or `shown_y` the head of
                // the view below it).
                "shown_y": shown.min.y, "shown_h": shown.height().max(0.0),
                "shown_end": shown.max.y,
            })
        })
        .collect();
    let hovered = match hovered.0 {
        Some(Target::Cell(c)) => json!({"cell": [c.0, c.1]}),
        Some(Target::Figure(id)) => json!({"figure": id}),
        None => Value::Null,
    };
    let probe = json!({
        "frame": file.frame,
        "title": table.title,
        "window": {"width": window.width(), "height": window.height(),
                   "scale": window.scale_factor()},
        "camera": {"yaw": orbit.yaw, "pitch": orbit.pitch, "distance": orbit.distance,
                   "focus": [orbit.focus.x, orbit.focus.y, orbit.focus.z]},
        "game": game.0["game"],
        "seats": game.0["seats"],
        "online": game.0["online"],
        "message": game.0["message"],
        "paused": game.0["paused"],
        "notice": notice.as_ref().and_then(|n| n.shown()).map(|(text, ok)| json!({"text": text, "ok": ok})),
        "hovered": hovered,
        "lab": lab.map(|b| lab_json(&*b.0, &tools)),
        "workshop": shop.map(|d| workshop_json(&*d.0, &shop_tools, testing.is_some())),
        // The font atlas's size: a grown atlas is a new texture, drawn a frame late.
        "font_atlas": atlas,
        "plans": plans.shown.iter().map(|(id, p)| plan_json(*id, p)).collect::<Vec<_>>(),
        "cells": cells,
        // The module's small windows (the goal and its progress), as the table shows them.
        "panels": table.panels.iter().map(|p| json!({"title": p.title, "lines": p.lines})).collect::<Vec<_>>(),
        "figures": figures,
        "widgets": widgets,
    });
    // Every frame: only a table driven by a program writes it, and the program waits on frames.
    let tmp = file.path.with_extension("tmp");
    std::fs::write(&tmp, serde_json::to_string_pretty(&probe)?)?;
    std::fs::rename(&tmp, &file.path)?;
    Ok(())
}
