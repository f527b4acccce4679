//! Minis: procedural figures that carry what they fight with, walk, light up and fall.
//!
//! Base, body and head in their side's colours; a blade, bow, guns or staff by the figure's gear, a
//! blob for an ooze, roots for a figure that never moves, elites crowned in gold.
#![expect(
    clippy::disallowed_methods,
    reason = "a walking mini bobs along a sine; it is drawn, not ruled on"
)]

use std::collections::BTreeMap;

use bevy::prelude::*;

use super::screen::{Screen, at_table, of_table};
use super::table::Table;
use super::view::{CellKey, FigureInfo, Gear, Side};

/// The root entity of a figure's mini.
#[derive(Component, Debug)]
pub struct Mini {
    pub id: u32,
    /// Cell the mini stands on (or walks to).
    pub cell: CellKey,
    pub dead: bool,
}

/// A mesh that belongs to a figure's mini, for picking.
#[derive(Component, Debug, Clone, Copy)]
pub struct MiniPart(pub u32);

/// The glowing ring under the active figure.
#[derive(Component)]
struct ActiveRing;

/// Walking along a path of world points at a steady pace.
#[derive(Component, Debug)]
pub struct Walk {
    pub points: Vec<Vec3>,
    pub progress: f32,
}

/// Cells walked by a figure that should be animated rather than jumped (set by whoever moves it).
#[derive(Resource, Default, Debug)]
pub struct PendingPaths(pub BTreeMap<u32, Vec<CellKey>>);

/// Figures that came onto the board in one step of the game (an ambush's enemies, a spawn), in
/// the order they were placed: their minis land one after another, not all in one frame.
#[derive(Resource, Default, Debug)]
pub struct Landing(pub Vec<u32>);

/// Seconds between two minis of one step landing, at the usual pace.
const LAND_GAP: f32 = 0.3;
/// Seconds a mini takes to drop onto its cell, at the usual pace.
const DROP: f32 = 0.3;
/// How high above its cell a landing mini starts.
const DROP_HEIGHT: f32 = 2.5;

/// How long the minis of one step's `n` arrivals take to land, at the usual pace.
pub fn landing_time(n: usize) -> f32 {
    match n {
        0 => 0.0,
        n => (n - 1) as f32 * LAND_GAP + DROP,
    }
}

/// A mini on its way down: hidden while it waits its turn, then dropping onto `to`.
#[derive(Component, Debug)]
struct Arrive {
    /// Seconds (at the usual pace) before it shows.
    wait: f32,
    /// How far down it is, 0 to 1.
    drop: f32,
    to: Vec3,
}

/// Walking speed in cells per second (scaled by the foe-turn speed control).
#[derive(Resource, Debug)]
pub struct WalkSpeed(pub f32);

pub const BASE_TOP: f32 = 0.12;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PendingPaths>()
        .init_resource::<Landing>()
        .insert_resource(WalkSpeed(3.0))
        .add_systems(Startup, setup_assets)
        .add_systems(OnEnter(Screen::Table), forget_paths)
        .add_systems(
            Update,
            (sync_minis, land, walk, fall, active_ring)
                .chain()
                .run_if(at_table),
        );
}

/// A board built anew has no walks left to make.
fn forget_paths(mut pending: ResMut<PendingPaths>, mut landing: ResMut<Landing>) {
    pending.0.clear();
    landing.0.clear();
}

#[derive(Resource)]
struct MiniAssets {
    base: Handle<Mesh>,
    body: Handle<Mesh>,
    head: Handle<Mesh>,
    crown: Handle<Mesh>,
    horn: Handle<Mesh>,
    ring: Handle<Mesh>,
    blade: Handle<Mesh>,
    bow: Handle<Mesh>,
    gun: Handle<Mesh>,
    staff: Handle<Mesh>,
    gold: Handle<StandardMaterial>,
    steel: Handle<StandardMaterial>,
    wood: Handle<StandardMaterial>,
    orb: Handle<StandardMaterial>,
    skin: Handle<StandardMaterial>,
    ring_mat: Handle<StandardMaterial>,
    side: BTreeMap<(Side, usize), (Handle<StandardMaterial>, Handle<StandardMaterial>)>,
}

/// Side colours: heroes in cool colours, foes in warm ones, allies in green; `tint` varies the shade.
pub fn side_colour(side: Side, tint: usize) -> Color {
    const HEROES: [(f32, f32, f32); 4] = [
        (0.20, 0.45, 0.90),
        (0.15, 0.70, 0.70),
        (0.55, 0.35, 0.85),
        (0.25, 0.60, 0.35),
    ];
    const FOES: [(f32, f32, f32); 4] = [
        (0.80, 0.18, 0.15),
        (0.85, 0.45, 0.10),
        (0.60, 0.15, 0.40),
        (0.55, 0.40, 0.25),
    ];
    let (r, g, b) = match side {
        Side::Hero => HEROES[tint % HEROES.len()],
        Side::Foe => FOES[tint % FOES.len()],
        Side::Ally => (0.35, 0.75, 0.30),
    };
    Color::srgb(r, g, b)
}

fn setup_assets(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let mut side = BTreeMap::new();
    for s in [Side::Hero, Side::Foe, Side::Ally] {
        for tint in 0..4 {
            let c = side_colour(s, tint);
            let body = materials.add(StandardMaterial {
                base_color: c,
                perceptual_roughness: 0.55,
                ..default()
            });
            let base = materials.add(StandardMaterial {
                base_color: c.darker(0.15),
                perceptual_roughness: 0.4,
                metallic: 0.2,
                ..default()
            });
            side.insert((s, tint), (body, base));
        }
    }
    commands.insert_resource(MiniAssets {
        base: meshes.add(Cylinder::new(0.55, 0.12)),
        body: meshes.add(Capsule3d::new(0.24, 0.5)),
        head: meshes.add(Sphere::new(0.2)),
        crown: meshes.add(Torus::new(0.12, 0.2)),
        horn: meshes.add(Cone::new(0.06, 0.22)),
        ring: meshes.add(Torus::new(0.58, 0.7)),
        blade: meshes.add(Cuboid::new(0.09, 0.75, 0.15)),
        bow: meshes.add(Torus::new(0.27, 0.33)),
        gun: meshes.add(Cuboid::new(0.1, 0.12, 0.36)),
        staff: meshes.add(Cylinder::new(0.035, 1.35)),
        steel: materials.add(StandardMaterial {
            base_color: Color::srgb(0.78, 0.80, 0.84),
            metallic: 0.8,
            perceptual_roughness: 0.25,
            ..default()
        }),
        wood: materials.add(StandardMaterial {
            base_color: Color::srgb(0.45, 0.28, 0.14),
            perceptual_roughness: 0.8,
            ..default()
        }),
        orb: materials.add(StandardMaterial {
            base_color: Color::srgb(0.55, 0.9, 1.0),
            emissive: LinearRgba::rgb(0.6, 1.8, 2.4),
            ..default()
        }),
        gold: materials.add(StandardMaterial {
            base_color: Color::srgb(0.95, 0.75, 0.2),
            metallic: 0.9,
            perceptual_roughness: 0.3,
            ..default()
        }),
        skin: materials.add(StandardMaterial {
            base_color: Color::srgb(0.93, 0.80, 0.68),
            ..default()
        }),
        ring_mat: materials.add(StandardMaterial {
            base_color: Color::srgb(1.0, 0.9, 0.4),
            emissive: LinearRgba::rgb(4.0, 3.2, 1.0),
            unlit: true,
            ..default()
        }),
        side,
    });
}

/// Spawns the mini of figure `f` standing at `at`: a base and, on it, a body, a head and what it
/// carries, all picked as the figure.
/// Spawns a figure's mini standing on `at`, or, with `wait`, landing there after that many seconds.
fn spawn_mini(
    commands: &mut Commands,
    a: &MiniAssets,
    f: &FigureInfo,
    at: Vec3,
    wait: Option<f32>,
) {
    let (body_mat, base_mat) = a.side[&(f.side, f.tint % 4)].clone();
    // A hero already knocked out (a loaded game) is put down lying.
    let down = f.hp <= 0;
    let (start, shown) = match wait {
        Some(_) => (at + Vec3::Y * DROP_HEIGHT, Visibility::Hidden),
        None => (at, Visibility::default()),
    };
    let root = commands
        .spawn((
            Transform::from_translation(start),
            shown,
            Mini {
                id: f.id,
                cell: f.cell,
                dead: down,
            },
            Name::new(format!("mini {}", f.id)),
            of_table(),
        ))
        .id();
    if down {
        commands.entity(root).insert(Fall {
            age: 1.0,
            lies: true,
        });
    }
    if let Some(wait) = wait {
        commands.entity(root).insert(Arrive {
            wait,
            drop: 0.0,
            to: at,
        });
    }
    let part = MiniPart(f.id);
    let mut put = |mesh: &Handle<Mesh>, mat: &Handle<StandardMaterial>, t: Transform| {
        commands.spawn((
            Mesh3d(mesh.clone()),
            MeshMaterial3d(mat.clone()),
            t,
            part,
            ChildOf(root),
        ));
    };
    put(&a.base, &base_mat, Transform::from_xyz(0.0, 0.06, 0.0));
    let foe = f.side == Side::Foe;
    // The height of the top of the head, where horns and crowns sit.
    let top = if f.gear == Gear::Ooze {
        // A blob: one squat, lumpy mass and no head.
        put(
            &a.head,
            &body_mat,
            Transform::from_xyz(0.0, 0.42, 0.0).with_scale(Vec3::new(2.3, 1.7, 2.1)),
        );
        put(
            &a.head,
            &body_mat,
            Transform::from_xyz(0.2, 0.78, 0.1).with_scale(Vec3::splat(1.1)),
        );
        0.98
    } else {
        put(&a.body, &body_mat, Transform::from_xyz(0.0, 0.62, 0.0));
        let head_mat = if foe { &body_mat } else { &a.skin };
        put(&a.head, head_mat, Transform::from_xyz(0.0, 1.2, 0.0));
        1.38
    };
    if foe && f.gear != Gear::Ooze {
        // Horns tell foes apart from heroes at a glance, whatever the colours.
        for x in [-0.12f32, 0.12] {
            put(
                &a.horn,
                &base_mat,
                Transform::from_xyz(x, top, 0.0).with_rotation(Quat::from_rotation_z(-x * 3.0)),
            );
        }
    }
    for (mesh, mat, t) in gear(a, f.gear) {
        put(&mesh, &mat, t);
    }
    if f.rooted {
        // Roots spread from the base: it never leaves its square.
        for k in 0..5 {
            let turn = Quat::from_rotation_y(k as f32 * std::f32::consts::TAU / 5.0);
            let out = turn * Vec3::new(0.55, 0.05, 0.0);
            put(
                &a.horn,
                &a.wood,
                Transform::from_translation(out)
                    .with_rotation(turn * Quat::from_rotation_z(-std::f32::consts::FRAC_PI_2 - 0.2))
                    .with_scale(Vec3::new(1.4, 1.6, 1.4)),
            );
        }
    }
    if f.elite {
        put(&a.crown, &a.gold, Transform::from_xyz(0.0, top - 0.02, 0.0));
        put(
            &a.ring,
            &a.gold,
            Transform::from_xyz(0.0, 0.1, 0.0).with_scale(Vec3::new(0.85, 0.5, 0.85)),
        );
    }
}

/// What a mini holds, in its right hand (+x) and its left: each part's mesh, material and place.
fn gear(a: &MiniAssets, gear: Gear) -> Vec<(Handle<Mesh>, Handle<StandardMaterial>, Transform)> {
    let blade = (
        a.blade.clone(),
        a.steel.clone(),
        Transform::from_xyz(0.36, 0.78, 0.12).with_rotation(Quat::from_rotation_x(-0.5)),
    );
    // A ring squeezed to an arc held upright beside the body.
    let bow = (
        a.bow.clone(),
        a.wood.clone(),
        Transform::from_xyz(-0.36, 0.72, 0.0)
            .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2))
            .with_scale(Vec3::new(1.0, 1.0, 0.35)),
    );
    match gear {
        Gear::Bare | Gear::Ooze => Vec::new(),
        Gear::Blade => vec![blade],
        Gear::Bow => vec![bow],
        Gear::BladeAndBow => vec![blade, bow],
        Gear::Guns => [-0.33f32, 0.33]
            .map(|x| {
                (
                    a.gun.clone(),
                    a.steel.clone(),
                    Transform::from_xyz(x, 0.6, 0.14).with_rotation(Quat::from_rotation_x(0.3)),
                )
            })
            .into(),
        Gear::Staff => vec![
            (
                a.staff.clone(),
                a.wood.clone(),
                Transform::from_xyz(0.36, 0.72, 0.05),
            ),
            (
                a.head.clone(),
                a.orb.clone(),
                Transform::from_xyz(0.36, 1.42, 0.05).with_scale(Vec3::splat(0.5)),
            ),
        ],
    }
}

fn sync_minis(
    mut commands: Commands,
    table: Res<Table>,
    assets: Option<Res<MiniAssets>>,
    mut pending: ResMut<PendingPaths>,
    mut landing: ResMut<Landing>,
    mut minis: Query<(Entity, &mut Mini, &Transform, Option<&Walk>)>,
) {
    let Some(assets) = assets else { return };
    let top = Vec3::Y * BASE_TOP;
    // The step that brought them is shown with this table's figures: they land now, in order.
    let landing = std::mem::take(&mut landing.0);
    // A figure gone from the table (taken off in the position lab) takes its mini with it.
    for (e, mini, _, _) in &minis {
        if table.figures.iter().all(|f| f.id != mini.id) {
            commands.entity(e).despawn();
        }
    }
    for f in &table.figures {
        let found = minis.iter_mut().find(|(_, m, _, _)| m.id == f.id);
        match found {
            None => {
                if f.hp > 0 || f.side == Side::Hero {
                    let wait = landing
                        .iter()
                        .position(|&id| id == f.id)
                        .map(|k| k as f32 * LAND_GAP);
                    let at = table.board.world(f.cell) + top;
                    spawn_mini(&mut commands, &assets, f, at, wait);
                }
            }
            Some((e, mut mini, transform, walking)) => {
                if f.hp <= 0 && !mini.dead {
                    mini.dead = true;
                    // A knocked-out hero lies where it fell; a fallen foe leaves the board.
                    commands.entity(e).insert(Fall {
                        age: 0.0,
                        lies: f.side == Side::Hero,
                    });
                } else if f.hp > 0 && mini.dead {
                    // Back on its feet (an undo, a heal).
                    mini.dead = false;
                    commands
                        .entity(e)
                        .remove::<Fall>()
                        .insert(transform.with_rotation(Quat::IDENTITY));
                }
                if mini.cell != f.cell && walking.is_none() {
                    let cells = pending.0.remove(&f.id).unwrap_or_else(|| vec![f.cell]);
                    let mut points = vec![transform.translation];
                    points.extend(cells.iter().map(|&c| table.board.world(c) + top));
                    mini.cell = f.cell;
                    commands.entity(e).insert(Walk {
                        points,
                        progress: 0.0,
                    });
                }
            }
        }
    }
}

/// Landing minis wait their turn, show, and drop onto their cells at the foe-turn speed.
fn land(
    mut commands: Commands,
    time: Res<Time>,
    speed: Res<WalkSpeed>,
    mut q: Query<(Entity, &mut Arrive, &mut Transform, &mut Visibility)>,
) {
    // The walking speed is three cells a second at the usual pace.
    let dt = time.delta_secs() * speed.0 / 3.0;
    for (e, mut a, mut t, mut shown) in &mut q {
        if a.wait > 0.0 {
            a.wait -= dt;
            continue;
        }
        *shown = Visibility::Inherited;
        a.drop = (a.drop + dt / DROP).min(1.0);
        t.translation = a.to + Vec3::Y * DROP_HEIGHT * (1.0 - a.drop * a.drop);
        if a.drop >= 1.0 {
            commands.entity(e).remove::<Arrive>();
        }
    }
}

fn walk(
    mut commands: Commands,
    time: Res<Time>,
    speed: Res<WalkSpeed>,
    mut q: Query<(Entity, &mut Walk, &mut Transform)>,
) {
    for (e, mut w, mut t) in &mut q {
        w.progress += time.delta_secs() * speed.0;
        let segments = (w.points.len() - 1) as f32;
        if w.progress >= segments || segments == 0.0 {
            t.translation = *w.points.last().unwrap_or(&t.translation);
            commands.entity(e).remove::<Walk>();
            continue;
        }
        let i = w.progress.floor() as usize;
        let f = w.progress - i as f32;
        let (a, b) = (w.points[i], w.points[i + 1]);
        // A little hop per step, like moving a mini by hand.
        t.translation = a.lerp(b, f) + Vec3::Y * (f * std::f32::consts::PI).sin() * 0.25;
    }
}

/// The fallen topple over; a foe then sinks into the table, a knocked-out hero stays lying.
#[derive(Component)]
struct Fall {
    /// Seconds since it fell.
    age: f32,
    /// It stays on the board, lying.
    lies: bool,
}

fn fall(
    mut commands: Commands,
    time: Res<Time>,
    mut q: Query<(Entity, &mut Fall, &mut Transform)>,
) {
    for (e, mut fall, mut t) in &mut q {
        fall.age += time.delta_secs();
        let k = (fall.age / 0.6).min(1.0);
        t.rotation = Quat::from_rotation_z(k * std::f32::consts::FRAC_PI_2);
        if fall.lies {
            continue;
        }
        if fall.age > 1.0 {
            t.translation.y -= time.delta_secs() * 0.8;
        }
        if fall.age > 2.0 {
            commands.entity(e).despawn();
        }
    }
}

fn active_ring(
    mut commands: Commands,
    table: Res<Table>,
    assets: Option<Res<MiniAssets>>,
    minis: Query<(Entity, &Mini)>,
    rings: Query<(Entity, &ChildOf), With<ActiveRing>>,
) {
    let Some(assets) = assets else { return };
    let want = table
        .active
        .and_then(|id| minis.iter().find(|(_, m)| m.id == id && !m.dead))
        .map(|(e, _)| e);
    let mut have = false;
    for (ring, parent) in &rings {
        if Some(parent.parent()) == want {
            have = true;
        } else {
            commands.entity(ring).despawn();
        }
    }
    if let (Some(e), false) = (want, have) {
        commands.spawn((
            Mesh3d(assets.ring.clone()),
            MeshMaterial3d(assets.ring_mat.clone()),
            Transform::from_xyz(0.0, 0.02, 0.0).with_scale(Vec3::new(1.0, 0.3, 1.0)),
            ActiveRing,
            Pickable::IGNORE,
            ChildOf(e),
        ));
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use bevy::time::TimeUpdateStrategy;
    use foehold_core::game::Game;
    use foehold_core::rules::toy::{self, Toy};
    use foehold_core::rules::{Present, TieBreaker};

    use super::*;
    use crate::app::view::BoardView;

    /// The toy's hero and foe as minis, a tenth of a second a frame.
    fn app() -> App {
        let game = Game::<Toy>::new(
            toy::scenario().expect("parses"),
            "toy.ron",
            1,
            TieBreaker::Seeded,
        )
        .expect("sets up");
        let view = Toy::view(&game.state);
        let mut table = Table::of_view("toy".into(), String::new(), BoardView::of(&view));
        table.show(view);
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
                100,
            )))
            .init_resource::<Assets<Mesh>>()
            .init_resource::<Assets<StandardMaterial>>()
            .insert_resource(table)
            .add_plugins((bevy::state::app::StatesPlugin, plugin))
            .init_state::<Screen>();
        for _ in 0..3 {
            app.update();
        }
        app
    }

    fn minis(app: &mut App) -> Vec<(u32, bool, Quat)> {
        let mut q = app.world_mut().query::<(&Mini, &Transform)>();
        let mut out: Vec<_> = q
            .iter(app.world())
            .map(|(m, t)| (m.id, m.dead, t.rotation))
            .collect();
        out.sort_by_key(|m| m.0);
        out
    }

    #[test]
    fn a_knocked_out_hero_lies_where_it_fell_and_a_fallen_foe_leaves() {
        let mut app = app();
        let (hero, foe) = {
            let t = app.world().resource::<Table>();
            let id = |side| t.figures.iter().find(|f| f.side == side).expect("one").id;
            (id(Side::Hero), id(Side::Foe))
        };
        assert_eq!(minis(&mut app).len(), 2, "both stand");
        for f in &mut app.world_mut().resource_mut::<Table>().figures {
            f.hp = 0;
        }
        // Three seconds: time to topple, and for a foe to sink and go.
        for _ in 0..30 {
            app.update();
        }
        let left = minis(&mut app);
        assert_eq!(left.len(), 1, "the foe left the board: {left:?}");
        let (id, dead, rotation) = left[0];
        assert_eq!((id, dead), (hero, true));
        let lying = rotation.angle_between(Quat::IDENTITY);
        assert!(
            (lying - std::f32::consts::FRAC_PI_2).abs() < 1e-3,
            "the hero lies on its side: {lying}"
        );
        assert!(!left.iter().any(|m| m.0 == foe));
        // A new table (a loaded game) puts the knocked-out hero down lying, and no fallen foe.
        app.world_mut()
            .resource_mut::<NextState<Screen>>()
            .set(Screen::Table);
        for _ in 0..3 {
            app.update();
        }
        let again = minis(&mut app);
        assert_eq!(again.len(), 1, "{again:?}");
        assert_eq!((again[0].0, again[0].1), (hero, true));
        assert!(
            (again[0].2.angle_between(Quat::IDENTITY) - std::f32::consts::FRAC_PI_2).abs() < 1e-3
        );
        // Healed or undone: the hero stands again, and the foe comes back.
        for f in &mut app.world_mut().resource_mut::<Table>().figures {
            f.hp = 2;
        }
        for _ in 0..3 {
            app.update();
        }
        let back = minis(&mut app);
        assert_eq!(back.len(), 2);
        assert!(
            back.iter()
                .all(|m| !m.1 && m.2.angle_between(Quat::IDENTITY) < 1e-3)
        );
    }

    #[test]
    fn figures_a_step_brings_land_one_after_another_and_plain_ones_stand_at_once() {
        let mut app = app();
        let foe = {
            let t = app.world().resource::<Table>();
            t.figures
                .iter()
                .find(|f| f.side == Side::Foe)
                .expect("one")
                .clone()
        };
        let ids = [100, 101, 102];
        {
            let mut t = app.world_mut().resource_mut::<Table>();
            for id in ids {
                t.figures.push(FigureInfo { id, ..foe.clone() });
            }
        }
        // The first two came with a step of the game; the third was put down by hand.
        app.world_mut().resource_mut::<Landing>().0 = vec![100, 101];
        let standing = BASE_TOP + 0.01;
        let mut q = app.world_mut().query::<(&Mini, &Transform, &Visibility)>();
        let mut first_down_while_second_up = false;
        for frame in 0..20 {
            app.update();
            let mut at = |id: u32| {
                q.iter(app.world())
                    .find(|(m, _, _)| m.id == id)
                    .map(|(_, t, v)| (t.translation.y, *v != Visibility::Hidden))
                    .expect("spawned")
            };
            let (a, b, c) = (at(100), at(101), at(102));
            assert!(
                c.1 && c.0 <= standing,
                "frame {frame}: the third stands at once"
            );
            assert!(
                a.0 <= b.0,
                "frame {frame}: the first is never above the second"
            );
            assert!(a.1 || !b.1, "frame {frame}: the second never shows first");
            first_down_while_second_up |= a.0 <= standing && b.0 > standing;
        }
        assert!(first_down_while_second_up, "they land one after another");
        let landed = q
            .iter(app.world())
            .filter(|(m, t, v)| {
                ids.contains(&m.id) && t.translation.y <= standing && **v != Visibility::Hidden
            })
            .count();
        assert_eq!(landed, 3, "two seconds later all three stand");
    }
}
