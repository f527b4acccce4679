//! Tokens on the board (money, loot, treasure, marks): a small pile of coins, a chest for a token
//! the view labels "treasure", or a plate on the floor for one labelled "mark …" (a hex a special
//! rule names), on each cell the rule module's view lists.

use bevy::prelude::*;

use super::screen::{at_table, of_table};
use super::table::Table;
use super::view::CellKey;

/// What a token is drawn as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Pile {
    /// Coins.
    Money,
    /// A chest.
    Treasure,
    /// A plate on the floor: a hex a special rule names.
    Mark,
}

impl Pile {
    fn of(label: &str) -> Pile {
        match label {
            "treasure" => Pile::Treasure,
            l if l.starts_with("mark") => Pile::Mark,
            _ => Pile::Money,
        }
    }
}

/// A pile of tokens of one kind on one cell.
#[derive(Component, Debug)]
pub struct TokenPile(pub CellKey, pub Pile);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, setup_assets)
        .add_systems(Update, sync_tokens.run_if(at_table));
}

#[derive(Resource)]
struct TokenAssets {
    coin: Handle<Mesh>,
    gold: Handle<StandardMaterial>,
    chest: Handle<Mesh>,
    lid: Handle<Mesh>,
    wood: Handle<StandardMaterial>,
    plate: Handle<Mesh>,
    rune: Handle<StandardMaterial>,
}

fn setup_assets(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    commands.insert_resource(TokenAssets {
        coin: meshes.add(Cylinder::new(0.16, 0.04)),
        gold: materials.add(StandardMaterial {
            base_color: Color::srgb(0.95, 0.76, 0.25),
            metallic: 0.9,
            perceptual_roughness: 0.3,
            ..default()
        }),
        chest: meshes.add(Cuboid::new(0.36, 0.22, 0.26)),
        lid: meshes.add(Cuboid::new(0.38, 0.05, 0.28)),
        wood: materials.add(StandardMaterial {
            base_color: Color::srgb(0.45, 0.27, 0.12),
            perceptual_roughness: 0.8,
            ..default()
        }),
        // A thin six-sided plate inside the hex, in a colour no terrain or tint uses.
        plate: meshes.add(Cylinder::new(0.36, 0.02).mesh().resolution(6)),
        rune: materials.add(StandardMaterial {
            base_color: Color::srgb(0.62, 0.36, 0.86),
            emissive: LinearRgba::rgb(0.12, 0.04, 0.2),
            perceptual_roughness: 0.6,
            ..default()
        }),
    });
}

/// Rebuilds the piles whenever the cells holding tokens change (a drop, a pick-up, an undo).
fn sync_tokens(
    mut commands: Commands,
    table: Res<Table>,
    assets: Option<Res<TokenAssets>>,
    piles: Query<(Entity, &TokenPile)>,
) {
    let Some(assets) = assets else { return };
    let mut wanted: Vec<(CellKey, Pile)> = table
        .tokens
        .iter()
        .map(|t| (t.cell, Pile::of(&t.label)))
        .collect();
    wanted.sort_unstable();
    wanted.dedup();
    let mut shown: Vec<(CellKey, Pile)> = piles.iter().map(|(_, p)| (p.0, p.1)).collect();
    shown.sort_unstable();
    if wanted == shown {
        return;
    }
    for (e, _) in &piles {
        commands.entity(e).despawn();
    }
    for &(cell, pile) in &wanted {
        // Off-centre, so a pile stays visible beside a mini standing on the same cell; a chest on
        // the other side, so that both show when a dead monster's token lies on a treasure; a
        // mark flat under everything.
        let off = match pile {
            Pile::Treasure => Vec3::new(-0.38, 0.2, -0.2),
            Pile::Money => Vec3::new(0.42, 0.14, 0.22),
            Pile::Mark => Vec3::new(0.0, 0.135, 0.0),
        };
        let at = table.board.world(cell) + off;
        let pile_entity = commands
            .spawn((
                Transform::from_translation(at),
                Visibility::default(),
                TokenPile(cell, pile),
                of_table(),
                Pickable::IGNORE,
                Name::new("tokens"),
            ))
            .id();
        if pile == Pile::Mark {
            commands.spawn((
                Mesh3d(assets.plate.clone()),
                MeshMaterial3d(assets.rune.clone()),
                Transform::default(),
                Pickable::IGNORE,
                ChildOf(pile_entity),
            ));
            continue;
        }
        if pile == Pile::Treasure {
            commands.spawn((
                Mesh3d(assets.chest.clone()),
                MeshMaterial3d(assets.wood.clone()),
                Transform::default(),
                Pickable::IGNORE,
                ChildOf(pile_entity),
            ));
            commands.spawn((
                Mesh3d(assets.lid.clone()),
                MeshMaterial3d(assets.gold.clone()),
                Transform::from_translation(Vec3::Y * 0.13),
                Pickable::IGNORE,
                ChildOf(pile_entity),
            ));
            continue;
        }
        for k in 0..3 {
            let off = Vec3::new(0.03 * k as f32, 0.045 * k as f32, -0.02 * k as f32);
            commands.spawn((
                Mesh3d(assets.coin.clone()),
                MeshMaterial3d(assets.gold.clone()),
                Transform::from_translation(off),
                Pickable::IGNORE,
                ChildOf(pile_entity),
            ));
        }
    }
}
