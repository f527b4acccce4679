//! The board: one prism per cell (any polygon, so hex and square grids draw alike), terrain props,
//! thin walls, doors, and coloured overlays that other plugins put on cells (reach, path, ties, hover).
#![expect(
    clippy::disallowed_methods,
    reason = "props are set out in circles; they are drawn, not ruled on"
)]

use std::collections::BTreeMap;

use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;

use super::screen::{Screen, at_table, of_table};
use super::table::Table;
use super::view::{BoardView, CellKey, Ground, plane_to_world};

/// Marks a tile entity with its cell.
#[derive(Component, Debug, Clone, Copy)]
pub struct Tile(pub CellKey);

/// What an overlay on a cell means; the lowest variant wins when several apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    Tie,
    Path,
    Focus,
    /// A foe the chosen half can attack.
    Target,
    // Below the path: the hovered end of a move shows as the path's end.
    Hover,
    Reach,
    AoE,
}

impl Mark {
    fn colour(self) -> Color {
        match self {
            // Not white: white over the pale stone floor did not show.
            Mark::Hover => Color::srgba(0.45, 1.0, 0.55, 0.5),
            Mark::Tie => Color::srgba(1.0, 0.2, 0.9, 0.6),
            Mark::Path => Color::srgba(1.0, 0.85, 0.2, 0.55),
            Mark::Focus => Color::srgba(1.0, 0.25, 0.2, 0.55),
            Mark::Target => Color::srgba(0.55, 0.3, 1.0, 0.5),
            Mark::Reach => Color::srgba(0.25, 0.7, 1.0, 0.45),
            Mark::AoE => Color::srgba(1.0, 0.45, 0.1, 0.5),
        }
    }
}

/// Overlays wanted on cells this frame, by layer name, so plugins do not erase each other's marks.
#[derive(Resource, Default, Debug)]
pub struct CellMarks {
    pub layers: BTreeMap<&'static str, BTreeMap<CellKey, Mark>>,
}

impl CellMarks {
    pub fn set(&mut self, layer: &'static str, cells: impl IntoIterator<Item = (CellKey, Mark)>) {
        self.layers.insert(layer, cells.into_iter().collect());
    }

    pub fn clear(&mut self, layer: &'static str) {
        self.layers.remove(layer);
    }

    /// No marks at all, as when another game is put on the table.
    pub fn clear_all(&mut self) {
        self.layers.clear();
    }

    /// The winning mark per cell.
    pub fn merged(&self) -> BTreeMap<CellKey, Mark> {
        let mut out: BTreeMap<CellKey, Mark> = BTreeMap::new();
        for marks in self.layers.values() {
            for (&k, &m) in marks {
                out.entry(k).and_modify(|e| *e = (*e).min(m)).or_insert(m);
            }
        }
        out
    }
}

/// A coloured mark on a cell; all are respawned when the marks change.
#[derive(Component)]
struct Overlay;

/// The parent of everything the board is made of.
#[derive(Component)]
pub struct BoardRoot;

#[derive(Resource)]
struct OverlayAssets {
    mesh: BTreeMap<CellKey, Handle<Mesh>>,
}

const TILE_TOP: f32 = 0.12;

/// Asks for the board to be built again from the table model: the position lab changes it while
/// the table screen stays.
#[derive(Message, Debug, Clone, Copy)]
pub struct RebuildBoard;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CellMarks>()
        .add_message::<RebuildBoard>()
        // Every entry to the table (a new game too) builds its board; leaving it takes it away.
        .add_systems(OnEnter(Screen::Table), (spawn_board, spawn_lights))
        .add_systems(
            Update,
            (take_board, spawn_board)
                .chain()
                .run_if(on_message::<RebuildBoard>)
                .run_if(at_table),
        )
        .add_systems(Update, board_changed.run_if(at_table))
        .add_systems(PostUpdate, sync_overlays.run_if(at_table));
}

/// Asks for the board to be built again when the game's board changed under it (a room revealed,
/// a door opened).
fn board_changed(
    table: Res<Table>,
    mut built: Local<u64>,
    mut rebuild: MessageWriter<RebuildBoard>,
) {
    if table.board_changes != *built {
        *built = table.board_changes;
        rebuild.write(RebuildBoard);
    }
}

/// Takes the board away, to be built again.
fn take_board(mut commands: Commands, boards: Query<Entity, With<BoardRoot>>) {
    for e in &boards {
        commands.entity(e).despawn();
    }
}

fn spawn_lights(mut commands: Commands, table: Res<Table>, options: Res<super::Options>) {
    let (centre, radius) = table.board.bounds();
    commands.insert_resource(GlobalAmbientLight {
        color: Color::srgb(0.85, 0.88, 1.0),
        brightness: 350.0,
        ..default()
    });
    commands.spawn((
        DirectionalLight {
            illuminance: 9_000.0,
            shadow_maps_enabled: !options.quick_render(),
            ..default()
        },
        Transform::from_translation(centre + Vec3::new(-0.4, 1.0, 0.6) * radius * 2.0)
            .looking_at(centre, Vec3::Y),
        of_table(),
    ));
    // A warm low fill from the other side keeps the shadowed faces of minis readable.
    commands.spawn((
        PointLight {
            intensity: 2_000_000.0,
            range: radius * 6.0,
            color: Color::srgb(1.0, 0.85, 0.65),
            ..default()
        },
        Transform::from_translation(centre + Vec3::new(radius, radius * 0.6, -radius * 0.5)),
        of_table(),
    ));
}

/// A vertical prism over a convex polygon (corners in table-plane coordinates), `inset` towards its
/// centre, from y = 0 to `height`.
pub fn prism(centre: Vec2, corners: &[Vec2], inset: f32, height: f32) -> Mesh {
    let pts: Vec<Vec3> = corners
        .iter()
        .map(|&c| plane_to_world(centre + (c - centre) * inset) - plane_to_world(centre))
        .collect();
    let n = pts.len();
    let mut pos: Vec<[f32; 3]> = Vec::new();
    let mut nor: Vec<[f32; 3]> = Vec::new();
    let mut idx: Vec<u32> = Vec::new();
    // Top face: a fan around the centre.
    pos.push([0.0, height, 0.0]);
    nor.push([0.0, 1.0, 0.0]);
    for p in &pts {
        pos.push([p.x, height, p.z]);
        nor.push([0.0, 1.0, 0.0]);
    }
    for i in 0..n as u32 {
        let (a, b) = (1 + i, 1 + (i + 1) % n as u32);
        // Corners run counter-clockwise on the plane and seen from above: front faces.
        idx.extend([0, a, b]);
    }
    // Sides: one quad per edge with its own outward normal.
    for i in 0..n {
        let (a, b) = (pts[i], pts[(i + 1) % n]);
        let normal = Vec3::new(a.x + b.x, 0.0, a.z + b.z).normalize_or_zero();
        let base = pos.len() as u32;
        nor.extend([<[f32; 3]>::from(normal); 4]);
        pos.extend([
            [a.x, 0.0, a.z],
            [b.x, 0.0, b.z],
            [b.x, height, b.z],
            [a.x, height, a.z],
        ]);
        idx.extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    }
    let uv = vec![[0.0f32, 0.0]; pos.len()];
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, pos)
    .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, nor)
    .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uv)
    .with_inserted_indices(Indices::U32(idx))
}

fn ground_material(g: Ground) -> StandardMaterial {
    let (c, rough, emissive) = match g {
        Ground::Floor => (Color::srgb(0.62, 0.58, 0.50), 0.9, LinearRgba::BLACK),
        Ground::Obstacle => (Color::srgb(0.50, 0.47, 0.42), 0.9, LinearRgba::BLACK),
        Ground::Trap => (Color::srgb(0.55, 0.30, 0.26), 0.8, LinearRgba::BLACK),
        Ground::Hazard => (
            Color::srgb(0.85, 0.35, 0.08),
            0.6,
            LinearRgba::rgb(0.9, 0.25, 0.02),
        ),
        Ground::Difficult => (Color::srgb(0.38, 0.46, 0.24), 1.0, LinearRgba::BLACK),
        Ground::Icy => (
            Color::srgb(0.70, 0.88, 1.0),
            0.08,
            LinearRgba::rgb(0.02, 0.05, 0.09),
        ),
        Ground::Wall => (Color::srgb(0.24, 0.23, 0.25), 1.0, LinearRgba::BLACK),
        Ground::Woods => (Color::srgb(0.26, 0.36, 0.20), 1.0, LinearRgba::BLACK),
        Ground::Dome | Ground::DomeGap => (Color::srgb(0.56, 0.60, 0.66), 0.6, LinearRgba::BLACK),
        Ground::Adventure => (
            Color::srgb(0.80, 0.62, 0.30),
            0.5,
            LinearRgba::rgb(0.10, 0.06, 0.01),
        ),
        // A pale green way out, lit a little so it reads from across the board.
        Ground::Exit => (
            Color::srgb(0.45, 0.72, 0.42),
            0.6,
            LinearRgba::rgb(0.03, 0.10, 0.03),
        ),
        // Close to the table's own colour: a place to paint, not ground.
        Ground::Outside => (Color::srgb(0.13, 0.135, 0.15), 1.0, LinearRgba::BLACK),
    };
    StandardMaterial {
        base_color: c,
        perceptual_roughness: rough,
        emissive,
        ..default()
    }
}

fn spawn_board(
    mut commands: Commands,
    table: Res<Table>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let board: &BoardView = &table.board;
    // A material per kind of ground, made when a cell first needs it: no list of kinds to keep.
    let mut mats: BTreeMap<Ground, Handle<StandardMaterial>> = BTreeMap::new();
    let glass = materials.add(StandardMaterial {
        base_color: Color::srgba(0.70, 0.85, 1.0, 0.35),
        alpha_mode: AlphaMode::Blend,
        perceptual_roughness: 0.1,
        ..default()
    });
    let banner = materials.add(StandardMaterial {
        base_color: Color::srgb(0.85, 0.20, 0.15),
        perceptual_roughness: 0.8,
        ..default()
    });
    let dome_mesh = meshes.add(Sphere::new(0.8).mesh().uv(24, 12));
    let tree_mesh = meshes.add(Cone::new(0.22, 0.6));
    let pole_mesh = meshes.add(Cylinder::new(0.03, 0.7));
    let flag_mesh = meshes.add(Cuboid::new(0.3, 0.18, 0.02));
    let rock = materials.add(StandardMaterial {
        base_color: Color::srgb(0.42, 0.36, 0.30),
        perceptual_roughness: 1.0,
        ..default()
    });
    let spike = materials.add(StandardMaterial {
        base_color: Color::srgb(0.75, 0.75, 0.78),
        metallic: 0.8,
        perceptual_roughness: 0.35,
        ..default()
    });
    let bramble = materials.add(StandardMaterial {
        base_color: Color::srgb(0.25, 0.35, 0.12),
        perceptual_roughness: 1.0,
        ..default()
    });
    let wood = materials.add(StandardMaterial {
        base_color: Color::srgb(0.45, 0.28, 0.14),
        perceptual_roughness: 0.8,
        ..default()
    });
    let wall_mat = materials.add(StandardMaterial {
        base_color: Color::srgb(0.18, 0.17, 0.19),
        perceptual_roughness: 1.0,
        ..default()
    });
    let rock_mesh = meshes.add(Sphere::new(0.5).mesh().ico(1).expect("small icosphere"));
    let spike_mesh = meshes.add(Cone::new(0.09, 0.3));
    let tuft_mesh = meshes.add(Cone::new(0.12, 0.22));
    let base = commands
        .spawn((
            Transform::default(),
            Visibility::default(),
            BoardRoot,
            of_table(),
            Name::new("board"),
        ))
        .id();
    // A dark table top under the board so it never floats in the void.
    let (centre, radius) = board.bounds();
    commands.spawn((
        Mesh3d(meshes.add(Cylinder::new(radius * 1.6, 0.1))),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color: Color::srgb(0.20, 0.14, 0.10),
            perceptual_roughness: 0.7,
            ..default()
        })),
        Transform::from_translation(centre - Vec3::Y * 0.06),
        Pickable::IGNORE,
        ChildOf(base),
    ));
    let mut overlay_meshes = BTreeMap::new();
    for cell in &board.cells {
        let pos = plane_to_world(cell.centre);
        // Walls stand up; the lab's cells off the board lie flat, smaller, below the board's.
        let (height, inset) = match cell.ground {
            Ground::Wall => (0.9, 1.0),
            Ground::Outside => (TILE_TOP * 0.3, 0.85),
            _ => (TILE_TOP, 0.95),
        };
        let tile = commands
            .spawn((
                Mesh3d(meshes.add(prism(cell.centre, &cell.corners, inset, height))),
                MeshMaterial3d(
                    mats.entry(cell.ground)
                        .or_insert_with(|| materials.add(ground_material(cell.ground)))
                        .clone(),
                ),
                Transform::from_translation(pos),
                Tile(cell.key),
                ChildOf(base),
            ))
            .id();
        overlay_meshes.insert(
            cell.key,
            meshes.add(prism(cell.centre, &cell.corners, 0.9, 0.02)),
        );
        // Props make terrain readable even without colour.
        let top = Vec3::Y * TILE_TOP;
        match cell.ground {
            Ground::Obstacle => {
                commands.spawn((
                    Mesh3d(rock_mesh.clone()),
                    MeshMaterial3d(rock.clone()),
                    Transform::from_translation(top + Vec3::Y * 0.2)
                        .with_scale(Vec3::new(1.2, 0.8, 1.0)),
                    ChildOf(tile),
                ));
            }
            Ground::Trap => {
                for k in 0..5 {
                    let a = k as f32 * std::f32::consts::TAU / 5.0;
                    let off = if k == 4 {
                        Vec3::ZERO
                    } else {
                        Vec3::new(a.cos(), 0.0, a.sin()) * 0.3
                    };
                    commands.spawn((
                        Mesh3d(spike_mesh.clone()),
                        MeshMaterial3d(spike.clone()),
                        Transform::from_translation(top + off + Vec3::Y * 0.15),
                        ChildOf(tile),
                    ));
                }
            }
            Ground::Difficult => {
                for k in 0..3 {
                    let a = k as f32 * std::f32::consts::TAU / 3.0 + 0.5;
                    commands.spawn((
                        Mesh3d(tuft_mesh.clone()),
                        MeshMaterial3d(bramble.clone()),
                        Transform::from_translation(
                            top + Vec3::new(a.cos(), 0.0, a.sin()) * 0.4 + Vec3::Y * 0.11,
                        ),
                        ChildOf(tile),
                    ));
                }
            }
            Ground::Woods => {
                for k in 0..3 {
                    let a = k as f32 * std::f32::consts::TAU / 3.0 + 0.3;
                    commands.spawn((
                        Mesh3d(tree_mesh.clone()),
                        MeshMaterial3d(bramble.clone()),
                        Transform::from_translation(
                            top + Vec3::new(a.cos(), 0.0, a.sin()) * 0.42 + Vec3::Y * 0.3,
                        ),
                        ChildOf(tile),
                    ));
                }
            }
            // A glass dome, half sunk into its cell: readable as "a Dome" from any angle.
            Ground::Dome => {
                commands.spawn((
                    Mesh3d(dome_mesh.clone()),
                    MeshMaterial3d(glass.clone()),
                    Transform::from_translation(top).with_scale(Vec3::new(1.0, 0.7, 1.0)),
                    Pickable::IGNORE,
                    ChildOf(tile),
                ));
            }
            // An adventure: a small flag on a pole.
            Ground::Adventure => {
                commands.spawn((
                    Mesh3d(pole_mesh.clone()),
                    MeshMaterial3d(wood.clone()),
                    Transform::from_translation(top + Vec3::new(-0.45, 0.35, 0.0)),
                    ChildOf(tile),
                ));
                commands.spawn((
                    Mesh3d(flag_mesh.clone()),
                    MeshMaterial3d(banner.clone()),
                    Transform::from_translation(top + Vec3::new(-0.29, 0.6, 0.0)),
                    ChildOf(tile),
                ));
            }
            _ => {}
        }
        if cell.door {
            commands.spawn((
                Mesh3d(meshes.add(Cuboid::new(1.3, 0.08, 0.5))),
                MeshMaterial3d(wood.clone()),
                Transform::from_translation(top + Vec3::Y * 0.04),
                ChildOf(tile),
            ));
        }
    }
    for &(a, b) in &board.thin_walls {
        let (a, b) = (plane_to_world(a), plane_to_world(b));
        let len = a.distance(b);
        let mid = (a + b) / 2.0;
        commands.spawn((
            Mesh3d(meshes.add(Cuboid::new(len + 0.1, 0.7, 0.12))),
            MeshMaterial3d(wall_mat.clone()),
            Transform::from_translation(mid + Vec3::Y * 0.35)
                .with_rotation(Quat::from_rotation_arc(Vec3::X, (b - a).normalize())),
            ChildOf(base),
        ));
    }
    commands.insert_resource(OverlayAssets {
        mesh: overlay_meshes,
    });
}

/// The overlay entity standing on each marked cell, and its mark.
#[derive(Default)]
struct Shown(BTreeMap<CellKey, (Entity, Mark)>);

/// Brings the overlays in line with the marks, cell by cell: unchanged overlays stay, so an overlay
/// that is wanted frame after frame is drawn (a freshly spawned mesh is only drawn once the renderer
/// has prepared it, so respawning every frame would hide it for good).
fn sync_overlays(
    mut commands: Commands,
    marks: Res<CellMarks>,
    assets: Option<Res<OverlayAssets>>,
    table: Res<Table>,
    mut shown: Local<Shown>,
    mut made: Local<BTreeMap<Mark, Handle<StandardMaterial>>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let Some(assets) = assets else { return };
    // A material per mark, made the first time the mark is shown: no list of marks to keep.
    let mut material = |m: Mark| {
        made.entry(m)
            .or_insert_with(|| {
                materials.add(StandardMaterial {
                    base_color: m.colour(),
                    unlit: true,
                    alpha_mode: AlphaMode::Blend,
                    ..default()
                })
            })
            .clone()
    };
    if assets.is_changed() {
        // A new board: the old overlays went with the old meshes.
        for (_, (e, _)) in std::mem::take(&mut shown.0) {
            commands.entity(e).try_despawn();
        }
    } else if !marks.is_changed() {
        return;
    }
    let wanted = marks.merged();
    shown.0.retain(|key, (e, mark)| match wanted.get(key) {
        Some(m) if m == mark => true,
        Some(m) => {
            commands.entity(*e).insert(MeshMaterial3d(material(*m)));
            *mark = *m;
            true
        }
        None => {
            commands.entity(*e).try_despawn();
            false
        }
    });
    for (key, mark) in wanted {
        if shown.0.contains_key(&key) {
            continue;
        }
        let (Some(mesh), Some(cell)) = (assets.mesh.get(&key), table.board.cell(key)) else {
            continue;
        };
        let lift = if cell.ground == Ground::Wall {
            0.9
        } else {
            TILE_TOP
        };
        let e = commands
            .spawn((
                Mesh3d(mesh.clone()),
                MeshMaterial3d(material(mark)),
                Transform::from_translation(plane_to_world(cell.centre) + Vec3::Y * (lift + 0.005)),
                Pickable::IGNORE,
                Overlay,
            ))
            .id();
        shown.0.insert(key, (e, mark));
    }
}
