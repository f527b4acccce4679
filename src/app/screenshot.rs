//! `--screenshot PATH --after-frames N`: render N frames, save the window to a PNG and exit; with
//! `--check-not-blank`, exit 1 when the picture is blank (one flat colour, nothing drawn).
#![expect(
    clippy::disallowed_methods,
    reason = "the blank-picture check measures a spread; it judges a picture, not a rule"
)]

use std::path::Path;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};

use super::Options;

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

pub(super) fn plugin(app: &mut App) {
    if app.world().resource::<Options>().screenshot.is_some() {
        app.init_resource::<Frames>()
            .init_resource::<Captured>()
            .add_systems(Last, (count_and_capture, exit_when_done));
    }
}

fn count_and_capture(mut commands: Commands, mut frames: ResMut<Frames>, options: Res<Options>) {
    frames.0 += 1;
    if frames.0 != options.after_frames.max(1) {
        return;
    }
    let Some(path) = options.screenshot.clone() else {
        return;
    };
    commands.spawn(Screenshot::primary_window()).observe(
        move |captured: On<ScreenshotCaptured>, mut done: ResMut<Captured>| {
            let stats = captured
                .image
                .clone()
                .try_into_dynamic()
                .map(|d| PictureStats::of_rgba(d.to_rgba8().as_raw()))
                .unwrap_or(PictureStats {
                    luma_sd: 0.0,
                    colours: 0,
                });
            info!(
                "screenshot: luma sd {:.1}, {} colours",
                stats.luma_sd, stats.colours
            );
            println!(
                "screenshot {}: luma sd {:.1}, {} colours{}",
                path.display(),
                stats.luma_sd,
                stats.colours,
                if stats.is_blank() { " (blank)" } else { "" }
            );
            save(&path)(captured);
            done.0 = Some(!stats.is_blank());
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
            if ok || !options.check_not_blank {
                exit.write(AppExit::Success);
            } else {
                exit.write(AppExit::from_code(1));
            }
        }
        // The capture normally lands a few frames later; give up loudly if it never does.
        None if frames.0 > options.after_frames + 600 => {
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
}
