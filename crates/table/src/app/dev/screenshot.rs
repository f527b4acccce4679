//! `--screenshot PATH --after-frames N`: render N frames, save the window to a PNG and exit.
//!
//! With `--check-not-blank`, exit 1 when the picture is blank (one flat colour, nothing drawn) or
//! when the board is not drawn: the floor cells that no window, mini or name plate covers must show
//! floor where the camera puts them, not the empty background.
#![expect(
    clippy::disallowed_methods,
    reason = "the blank-picture check measures a spread; it judges a picture, not a rule"
)]

use std::path::Path;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, egui};

use crate::app::Options;
use crate::app::board::{CellMarks, Mark};
use crate::app::camera::TableCamera;
use crate::app::table::Table;
use crate::app::view::{CellKey, Ground, plane_to_world};

/// Frames rendered so far.
#[derive(Resource, Default)]
struct Frames(u32);

/// The outcome of the capture once it arrived: `true` when the picture passed the blank check.
#[derive(Resource, Default)]
struct Captured(Option<bool>);

/// How varied a picture is: the standard deviation of its luma (0–255) and how many distinct colours
/// it has (quantised to 4 bits per channel).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PictureStats {
    pub luma_sd: f64,
    pub colours: usize,
}

impl PictureStats {
    /// Stats of an RGBA8 buffer.
    pub fn of_rgba(rgba: &[u8]) -> PictureStats {
        let n = (rgba.len() / 4).max(1) as f64;
        let (mut sum, mut sq) = (0.0f64, 0.0f64);
        let mut seen = vec![false; 4096];
        for px in rgba.chunks_exact(4) {
            let l = 0.299 * px[0] as f64 + 0.587 * px[1] as f64 + 0.114 * px[2] as f64;
            sum += l;
            sq += l * l;
            seen[((px[0] as usize >> 4) << 8)
                | ((px[1] as usize >> 4) << 4)
                | (px[2] as usize >> 4)] = true;
        }
        let mean = sum / n;
        PictureStats {
            luma_sd: (sq / n - mean * mean).max(0.0).sqrt(),
            colours: seen.iter().filter(|s| **s).count(),
        }
    }

    /// A drawn scene has contrast and more than a handful of colours; a blank window has neither.
    pub fn is_blank(&self) -> bool {
        self.luma_sd < 4.0 || self.colours < 12
    }
}

pub fn plugin(app: &mut App) {
    if app.world().resource::<Options>().tools.screenshot.is_some() {
        app.init_resource::<Frames>()
            .init_resource::<Captured>()
            .add_systems(Last, (count_and_capture, exit_when_done));
    }
}

/// The background colour of an empty table.
const CLEAR: [u8; 3] = [18, 19, 23];

/// Where the picture should show floor: the physical pixel under the centre of every floor cell that
/// no window covers and no mini or name plate may hide.
fn floor_probes(
    table: &Table,
    marked: &std::collections::BTreeMap<CellKey, Mark>,
    ctx: &egui::Context,
    camera: (&Camera, &GlobalTransform),
    scale: f32,
) -> Vec<(u32, u32)> {
    let (camera, at) = camera;
    let on_screen = |world: Vec3| camera.world_to_viewport(at, world).ok();
    // Minis and their plates stand up from their cell, towards the top of the picture.
    let figures: Vec<Vec2> = table
        .figures
        .iter()
        .filter(|f| f.hp > 0)
        .filter_map(|f| on_screen(table.board.world(f.cell)))
        .collect();
    let tokens: Vec<Vec2> = table
        .tokens
        .iter()
        .filter_map(|t| on_screen(table.board.world(t.cell)))
        .collect();
    table
        .board
        .cells
        .iter()
        // A lit cell (a hero's reach, a tie) is coloured on purpose.
        .filter(|c| c.ground == Ground::Floor && !c.door && !marked.contains_key(&c.key))
        .filter_map(|c| on_screen(plane_to_world(c.centre) + Vec3::Y * 0.12))
        .filter(|p| {
            let near =
                |q: &Vec2| (p.x - q.x).abs() < 70.0 && (q.y - p.y) > -30.0 && q.y - p.y < 140.0;
            !figures.iter().any(near) && !tokens.iter().any(|q| p.distance_squared(*q) < 900.0)
        })
        // Name plates paint on the background layer, which spans the whole window: only windows
        // (any other order) hide the board.
        .filter(|p| !crate::app::focus::window_at(ctx, *p))
        .filter(|p| p.x >= 0.0 && p.y >= 0.0)
        .map(|p| ((p.x * scale) as u32, (p.y * scale) as u32))
        .collect()
}

/// How many of the probes show floor (warm, and unlike the empty background), out of how many.
pub fn floor_shown(rgba: &[u8], width: u32, probes: &[(u32, u32)]) -> (usize, usize) {
    let mut looked = 0;
    let mut floor = 0;
    for &(x, y) in probes {
        let i = ((y as usize) * (width as usize) + x as usize) * 4;
        let (Some(px), true) = (rgba.get(i..i + 3), x < width) else {
            continue;
        };
        looked += 1;
        let off_background: u32 = px
            .iter()
            .zip(CLEAR)
            .map(|(a, b)| u32::from(a.abs_diff(b)))
            .sum();
        // The floor is a warm stone: more red than blue, and far from the background.
        if off_background > 60 && px[0] >= px[2] {
            floor += 1;
        }
    }
    (floor, looked)
}

/// The board is drawn when there are enough places to look at and nearly all of them show floor.
pub const fn board_drawn((floor, looked): (usize, usize)) -> bool {
    looked >= 8 && floor * 10 >= looked * 8
}

#[expect(
    clippy::too_many_arguments,
    reason = "a Bevy system takes one parameter per resource, query and message it uses"
)]
fn count_and_capture(
    mut commands: Commands,
    mut frames: ResMut<Frames>,
    options: Res<Options>,
    table: Res<Table>,
    marks: Res<CellMarks>,
    mut contexts: EguiContexts,
    camera: Query<(&Camera, &GlobalTransform), With<TableCamera>>,
    window: Query<&Window, With<PrimaryWindow>>,
) {
    frames.0 += 1;
    if frames.0 != options.tools.after_frames.max(1) {
        return;
    }
    let Some(path) = options.tools.screenshot.clone() else {
        return;
    };
    let scale = window.single().map_or(1.0, Window::scale_factor);
    let probes = match (contexts.ctx_mut(), camera.single()) {
        (Ok(ctx), Ok(cam)) => floor_probes(&table, &marks.merged(), ctx, cam, scale),
        _ => Vec::new(),
    };
    commands.spawn(Screenshot::primary_window()).observe(
        move |captured: On<ScreenshotCaptured>, mut done: ResMut<Captured>| {
            let rgba = captured
                .image
                .clone()
                .try_into_dynamic()
                .map(|d| (d.width(), d.to_rgba8().into_raw()))
                .ok();
            let stats = rgba.as_ref().map_or(
                PictureStats {
                    luma_sd: 0.0,
                    colours: 0,
                },
                |(_, px)| PictureStats::of_rgba(px),
            );
            let board = rgba
                .as_ref()
                .map_or((0, 0), |(w, px)| floor_shown(px, *w, &probes));
            info!(
                "screenshot: luma sd {:.1}, {} colours",
                stats.luma_sd, stats.colours
            );
            println!(
                "screenshot {}: luma sd {:.1}, {} colours{}; board: {} of {} open floor cells show floor{}",
                path.display(),
                stats.luma_sd,
                stats.colours,
                if stats.is_blank() { " (blank)" } else { "" },
                board.0,
                board.1,
                if board_drawn(board) { "" } else { " (not drawn)" }
            );
            save(&path)(captured);
            done.0 = Some(!stats.is_blank() && board_drawn(board));
        },
    );
}

fn save(path: &Path) -> impl FnMut(On<ScreenshotCaptured>) {
    save_to_disk(path.to_path_buf())
}

fn exit_when_done(
    frames: Res<Frames>,
    options: Res<Options>,
    done: Res<Captured>,
    mut exit: MessageWriter<AppExit>,
) {
    match done.0 {
        Some(ok) => {
            if ok || !options.tools.check_not_blank {
                exit.write(AppExit::Success);
            } else {
                exit.write(AppExit::from_code(1));
            }
        }
        // The capture normally lands a few frames later; give up loudly if it never does.
        None if frames.0 > options.tools.after_frames + 600 => {
            eprintln!("screenshot: no picture arrived from the renderer");
            exit.write(AppExit::from_code(3));
        }
        None => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flat_picture_is_blank() {
        let flat: Vec<u8> = [18u8, 19, 23, 255].repeat(1000);
        assert!(PictureStats::of_rgba(&flat).is_blank());
    }

    #[test]
    fn a_picture_with_shapes_and_colours_is_not_blank() {
        let mut px = Vec::new();
        for i in 0..4096u32 {
            px.extend([
                (i % 256) as u8,
                (i / 16 % 256) as u8,
                (i * 7 % 256) as u8,
                255,
            ]);
        }
        let s = PictureStats::of_rgba(&px);
        assert!(!s.is_blank(), "{s:?}");
    }

    #[test]
    fn the_board_check_looks_for_floor_where_the_cells_are() {
        // A 10 × 10 picture of empty background with a warm stone square in its left half.
        let mut px = Vec::new();
        for _y in 0..10 {
            for x in 0..10 {
                px.extend(if x < 5 {
                    [150, 140, 120, 255]
                } else {
                    [CLEAR[0], CLEAR[1], CLEAR[2], 255]
                });
            }
        }
        let left: Vec<(u32, u32)> = (0..10).map(|y| (y % 5, y)).collect();
        let right: Vec<(u32, u32)> = (0..10).map(|y| (5 + y % 5, y)).collect();
        assert_eq!(floor_shown(&px, 10, &left), (10, 10));
        assert!(board_drawn(floor_shown(&px, 10, &left)));
        assert_eq!(floor_shown(&px, 10, &right), (0, 10));
        assert!(!board_drawn(floor_shown(&px, 10, &right)));
        // Too few places to look at proves nothing.
        assert!(!board_drawn(floor_shown(&px, 10, &left[..3])));
        // Probes outside the picture are not counted.
        assert_eq!(floor_shown(&px, 10, &[(12, 1), (1, 40)]), (0, 0));
    }
}
