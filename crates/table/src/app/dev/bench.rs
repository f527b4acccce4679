//! `--bench-frames N`: frame time of the table with 100 minis against a bare 3D scene (a plane, a cube,
//! a light) in the same window. Renders N frames of each after a warm-up and prints both means and
//! their ratio, then exits.

use bevy::prelude::*;

use crate::app::Options;
use crate::app::minis::Mini;
use crate::app::table::Table;
use crate::app::view::{FigureInfo, Gear, Side};

#[derive(Resource, Default)]
struct Bench {
    frame: u32,
    bare: Vec<f32>,
    table: Vec<f32>,
}

/// Marks the bare scene's entities.
#[derive(Component)]
struct Bare;

const WARM_UP: u32 = 30;

pub fn plugin(app: &mut App) {
    if app.world().resource::<Options>().tools.bench_frames == 0 {
        return;
    }
    app.init_resource::<Bench>()
        .add_systems(Startup, bare_scene)
        .add_systems(Last, measure);
}

fn bare_scene(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut table: ResMut<Table>,
) {
    // The table starts empty: the bare scene is measured first.
    table.figures.clear();
    commands.spawn((
        Mesh3d(meshes.add(Plane3d::default().mesh().size(20.0, 20.0))),
        MeshMaterial3d(materials.add(Color::srgb(0.3, 0.5, 0.3))),
        Bare,
    ));
    commands.spawn((
        Mesh3d(meshes.add(Cuboid::default())),
        MeshMaterial3d(materials.add(Color::srgb(0.8, 0.7, 0.6))),
        Transform::from_xyz(0.0, 0.5, 0.0),
        Bare,
    ));
}

/// Every look a mini can carry, so the frame measure draws each of them.
const GEARS: [Gear; 7] = [
    Gear::Bare,
    Gear::Blade,
    Gear::Bow,
    Gear::BladeAndBow,
    Gear::Ooze,
    Gear::Guns,
    Gear::Staff,
];

/// A hundred figures on the free cells of the board (cells are reused when the board is small).
fn hundred_minis(table: &Table) -> Vec<FigureInfo> {
    let cells: Vec<_> = table
        .board
        .cells
        .iter()
        .filter(|c| c.ground != crate::app::view::Ground::Wall)
        .map(|c| c.key)
        .collect();
    (0..100u32)
        .map(|i| FigureInfo {
            id: 10_000 + i,
            name: format!("Standee {}", i + 1),
            side: if i % 2 == 0 { Side::Hero } else { Side::Foe },
            elite: i % 5 == 0,
            hp: 5,
            max_hp: 8,
            conditions: if i % 7 == 0 {
                vec!["poison".into()]
            } else {
                Vec::new()
            },
            cell: cells[i as usize % cells.len().max(1)],
            owner: None,
            tint: i as usize,
            gear: GEARS[i as usize % GEARS.len()],
            rooted: i % 9 == 0,
            card: vec!["Move 2".into(), "Attack 3".into()],
        })
        .collect()
}

#[expect(
    clippy::too_many_arguments,
    reason = "a Bevy system takes one parameter per resource, query and message it uses"
)]
fn measure(
    mut commands: Commands,
    mut bench: ResMut<Bench>,
    // Real time: the virtual clock clamps a frame's delta at 250 ms, which a software-rendered
    // frame exceeds.
    time: Res<Time<Real>>,
    options: Res<Options>,
    mut table: ResMut<Table>,
    bare: Query<Entity, With<Bare>>,
    board: Query<Entity, With<crate::app::board::BoardRoot>>,
    minis: Query<(), With<Mini>>,
    mut exit: MessageWriter<AppExit>,
) {
    bench.frame += 1;
    let n = options.tools.bench_frames;
    let f = bench.frame;
    let dt = time.delta_secs() * 1000.0;
    // Phase 1: bare scene (the board is hidden); phase 2: board + 100 minis.
    if f == 1 {
        for e in &board {
            commands.entity(e).insert(Visibility::Hidden);
        }
    }
    if f > WARM_UP && f <= WARM_UP + n {
        bench.bare.push(dt);
    }
    if f == WARM_UP + n {
        for e in &bare {
            commands.entity(e).despawn();
        }
        for e in &board {
            commands.entity(e).insert(Visibility::Inherited);
        }
        table.figures = hundred_minis(&table);
    }
    let start = 2 * WARM_UP + n;
    if f > start && f <= start + n {
        bench.table.push(dt);
    }
    if f == start + n {
        let mean = |v: &[f32]| v.iter().sum::<f32>() / v.len().max(1) as f32;
        let (a, b) = (mean(&bench.bare), mean(&bench.table));
        println!(
            "bench: bare 3D scene {a:.2} ms/frame, board + {} minis {b:.2} ms/frame, ratio {:.2}",
            minis.iter().count(),
            b / a.max(1e-6)
        );
        exit.write(AppExit::Success);
    }
}
