//! What the other modules' table shows as their rules play.
//!
//! Dice that tumble and land with the number they need and the hits counted, the exact odds of a
//! roll as a histogram, a random pick that spins to its option, a foe's walk down its options with
//! the one it took, the module's own panels (the round's override card), and on the board the aim
//! line, the path and the wounds.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use foehold_core::rules::view::{Odds, Show};

use super::play::{Popup, Shown};
use super::probe::Tagged;
use super::table::Table;

/// Seconds a die tumbles before it lands; a random pick spins as long.
const TUMBLE: f32 = 0.6;
/// Seconds a random pick stays in view after it landed.
const PICK_STAYS: f32 = 6.0;

/// A die in the tray.
#[derive(Debug, Clone, PartialEq)]
struct Landed {
    what: String,
    sides: u32,
    roll: u32,
    needed: u32,
    /// Seconds since it was thrown.
    age: f32,
}

impl Landed {
    /// Whether it counts as a hit (or success); `None` for a die of no target, as for damage.
    fn hit(&self) -> Option<bool> {
        (self.needed > 1).then_some(self.roll >= self.needed)
    }
}

/// What the last actions showed, kept for the windows.
#[derive(Resource, Debug, Default)]
pub struct Showing {
    /// The dice of the last attack (and any die after it), in the order they landed.
    tray: Vec<Landed>,
    /// The odds of the roll in the tray, kept once the roll is over.
    odds: Option<Odds>,
    /// The last random pick: the options, the one picked, seconds since.
    pick: Option<(Vec<String>, usize, f32)>,
    /// The last foe's walk down its options: who, the lines, the line of the option taken.
    walk: Option<(String, Vec<String>, Option<usize>)>,
    /// The figure the aim line and the path belong to.
    acting: Option<u32>,
    /// The odds of the attack the pointer is on, before anyone rolls.
    pub preview: Option<Odds>,
}

impl Showing {
    /// Takes in what a batch of actions shows; `odds` are the table's odds after them.
    pub fn take(&mut self, shown: &mut Shown, shows: Vec<Show>, odds: Option<&Odds>) {
        for s in shows {
            match s {
                Show::Aim { by, at } => {
                    self.follow(shown, by);
                    shown.focus = Some((by, at));
                }
                Show::Roll { .. } => {
                    self.tray.clear();
                    self.odds = None;
                }
                Show::Step { figure, from, to } => {
                    self.follow(shown, figure);
                    if shown.path.last() != Some(&from) {
                        shown.path = vec![from];
                    }
                    shown.path.push(to);
                }
                Show::Die {
                    what,
                    sides,
                    roll,
                    needed,
                } => self.tray.push(Landed {
                    what,
                    sides,
                    roll,
                    needed,
                    age: 0.0,
                }),
                Show::Pick { among, chosen } => self.pick = Some((among, chosen, 0.0)),
                Show::Walk { who, lines, chosen } => self.walk = Some((who, lines, chosen)),
                Show::Over { figure, text, harm } => shown.popups.push(Popup {
                    figure,
                    text,
                    harm,
                    age: 0.0,
                }),
            }
        }
        if let Some(o) = odds {
            self.odds = Some(o.clone());
        }
    }

    /// Another figure acts: the last one's aim line and path go.
    fn follow(&mut self, shown: &mut Shown, figure: u32) {
        if self.acting != Some(figure) {
            self.acting = Some(figure);
            shown.focus = None;
            shown.path.clear();
        }
    }

    /// Everything goes, as after an undo or a redo: it showed a game that is no longer there.
    pub fn clear(&mut self, shown: &mut Shown) {
        *self = Showing::default();
        shown.focus = None;
        shown.path.clear();
        shown.popups.clear();
    }

    /// The dice in the tray by what they were rolled for, in the order each kind first landed.
    fn rows(&self) -> Vec<(&str, Vec<&Landed>)> {
        let mut rows: Vec<(&str, Vec<&Landed>)> = Vec::new();
        for d in &self.tray {
            match rows.iter_mut().find(|(w, _)| *w == d.what) {
                Some((_, dice)) => dice.push(d),
                None => rows.push((&d.what, vec![d])),
            }
        }
        rows
    }

    /// The hits of the roll the odds are about, once all its dice landed: the row named as the
    /// odds are (one roll after another in the tray), else the first.
    fn hits(&self) -> Option<usize> {
        let odds = self.odds.as_ref()?;
        let dice = odds.chances.len().checked_sub(1)?;
        let rows = self.rows();
        let (_, row) = rows
            .iter()
            .find(|(what, _)| *what == odds.what)
            .or(rows.first())?;
        (row.len() == dice && row.iter().all(|d| d.age >= TUMBLE))
            .then(|| row.iter().filter(|d| d.hit() == Some(true)).count())
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Showing>()
        .add_systems(Update, (age, super::play::age_popups));
}

fn age(time: Res<Time>, mut showing: ResMut<Showing>) {
    let dt = time.delta_secs();
    for d in &mut showing.tray {
        d.age += dt;
    }
    if let Some((_, _, age)) = &mut showing.pick {
        *age += dt;
        if *age > TUMBLE + PICK_STAYS {
            showing.pick = None;
        }
    }
}

/// The dice tray with the odds, the random pick, the foe's walk and the module's panels.
pub(super) fn windows(
    mut contexts: EguiContexts,
    showing: Res<Showing>,
    table: Res<Table>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // The odds of a roll being made now, else of the attack pointed at, else of the last roll.
    let preview = table.odds.is_none() && showing.preview.is_some();
    let odds = table
        .odds
        .as_ref()
        .or(showing.preview.as_ref())
        .or(showing.odds.as_ref());
    if !showing.tray.is_empty() || odds.is_some() {
        egui::Window::new("Dice")
            .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -8.0])
            .resizable(false)
            .collapsible(false)
            .show(ctx, |ui| {
                if let Some(odds) = odds {
                    if preview {
                        ui.weak("Before the roll, if you click:");
                    }
                    histogram(ui, odds, if preview { None } else { showing.hits() });
                    ui.separator();
                }
                for (what, dice) in showing.rows() {
                    tray_row(ui, what, &dice);
                }
            });
    }
    if let Some((among, chosen, age)) = &showing.pick {
        egui::Window::new("Random pick")
            .anchor(egui::Align2::CENTER_TOP, [0.0, 64.0])
            .resizable(false)
            .collapsible(false)
            .show(ctx, |ui| {
                // The highlight runs over the options, then stops on the one chance picked.
                let landed = *age >= TUMBLE;
                let lit = if landed {
                    *chosen
                } else {
                    (*age * 14.0) as usize % among.len().max(1)
                };
                ui.horizontal_wrapped(|ui| {
                    for (i, o) in among.iter().enumerate() {
                        let text = egui::RichText::new(o);
                        let r = if i == lit {
                            let colour = if landed {
                                egui::Color32::from_rgb(255, 215, 60)
                            } else {
                                egui::Color32::from_gray(200)
                            };
                            ui.label(
                                text.strong()
                                    .color(egui::Color32::BLACK)
                                    .background_color(colour),
                            )
                        } else {
                            ui.label(text.weak())
                        };
                        if landed && i == lit {
                            r.tagged("pick:chosen");
                        }
                    }
                });
            });
    }
    if let Some((who, lines, chosen)) = &showing.walk {
        egui::Window::new(format!("{who}: its options"))
            .id(egui::Id::new("walk"))
            .anchor(egui::Align2::RIGHT_BOTTOM, [-8.0, -8.0])
            .default_width(380.0)
            .show(ctx, |ui| {
                egui::ScrollArea::vertical()
                    .max_height(240.0)
                    .show(ui, |ui| {
                        for (i, line) in lines.iter().enumerate() {
                            match chosen.map(|c| i.cmp(&c)) {
                                Some(std::cmp::Ordering::Equal) => {
                                    ui.label(
                                        egui::RichText::new(format!("▶ {line}"))
                                            .strong()
                                            .color(egui::Color32::from_rgb(255, 215, 60)),
                                    )
                                    .tagged("walk:chosen");
                                }
                                // The options passed over, as the foe went down its list.
                                Some(std::cmp::Ordering::Less) => {
                                    ui.label(egui::RichText::new(line).weak());
                                }
                                _ => {
                                    ui.label(line);
                                }
                            }
                        }
                    });
            });
    }
    for (i, panel) in table.panels.iter().enumerate() {
        egui::Window::new(&panel.title)
            .anchor(egui::Align2::LEFT_BOTTOM, [8.0, -8.0 - 96.0 * i as f32])
            .resizable(false)
            .collapsible(false)
            .show(ctx, |ui| {
                for line in &panel.lines {
                    ui.label(line);
                }
            })
            .map(|w| w.response.tagged(format!("panel:{}", panel.title)));
    }
    Ok(())
}

/// The chance of each number of hits, as bars; the bar of the hits rolled is lit once they are in.
pub(super) fn histogram(ui: &mut egui::Ui, odds: &Odds, hits: Option<usize>) {
    ui.label(egui::RichText::new(&odds.what).strong());
    let n = odds.chances.len().saturating_sub(1);
    ui.label(format!(
        "{n} {} (d{}): the chance of each number showing {}+",
        if n == 1 { "die" } else { "dice" },
        odds.sides,
        odds.needed
    ));
    let bars: Vec<(String, f64)> = odds
        .chances
        .iter()
        .enumerate()
        .map(|(k, c)| (k.to_string(), c.to_f64()))
        .collect();
    let size = egui::vec2(40.0 * bars.len() as f32, 94.0);
    let colour = egui::Color32::from_rgb(90, 140, 220);
    let response = super::ui::chance_bars(ui, &bars, size, colour, hits);
    response.tagged("odds:bars").on_hover_text(
        odds.chances
            .iter()
            .enumerate()
            .map(|(k, c)| format!("{k} hits: {c}"))
            .collect::<Vec<_>>()
            .join("\n"),
    );
}

/// One kind of die in the tray: the dice tumbling or landed, hits lit, and the count.
fn tray_row(ui: &mut egui::Ui, what: &str, dice: &[&Landed]) {
    let needed = dice.first().map_or(1, |d| d.needed);
    ui.horizontal(|ui| {
        let words = if needed > 1 {
            format!("{what} (needs {needed}+)")
        } else {
            what.to_string()
        };
        ui.label(egui::RichText::new(words).strong());
        let side = 30.0;
        for d in dice {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(side, side), egui::Sense::hover());
            let painter = ui.painter_at(rect.expand(2.0));
            let landed = d.age >= TUMBLE;
            // Tumbling, the die shows faces in turn (a picture only: the roll is already known).
            let face = if landed {
                d.roll
            } else {
                (d.roll + (d.age * 17.0) as u32) % d.sides.max(1) + 1
            };
            let (fill, edge) = match (landed, d.hit()) {
                (false, _) => (egui::Color32::from_gray(210), egui::Color32::from_gray(120)),
                (true, Some(true)) => (
                    egui::Color32::from_rgb(225, 245, 215),
                    egui::Color32::from_rgb(40, 170, 60),
                ),
                (true, Some(false)) => {
                    (egui::Color32::from_gray(150), egui::Color32::from_gray(90))
                }
                (true, None) => (
                    egui::Color32::from_rgb(235, 235, 245),
                    egui::Color32::from_rgb(90, 120, 200),
                ),
            };
            // A tumbling die hops.
            let r = if landed {
                rect
            } else {
                rect.shrink(3.0)
                    .translate(egui::vec2(0.0, -3.0 * ((d.age * 16.0) as u32 % 2) as f32))
            };
            painter.rect_filled(r, 5.0, fill);
            painter.rect_stroke(
                r,
                5.0,
                egui::Stroke::new(2.5, edge),
                egui::StrokeKind::Inside,
            );
            painter.text(
                r.center(),
                egui::Align2::CENTER_CENTER,
                face.to_string(),
                egui::FontId::proportional(17.0),
                egui::Color32::BLACK,
            );
        }
        let all_in = dice.iter().all(|d| d.age >= TUMBLE);
        if needed > 1 && all_in {
            let hits = dice.iter().filter(|d| d.hit() == Some(true)).count();
            ui.label(format!("{hits} of {}", dice.len()))
                .tagged(format!("dice:{what}"));
        } else if all_in {
            let total: u32 = dice.iter().map(|d| d.roll).sum();
            ui.label(format!("total {total}"))
                .tagged(format!("dice:{what}"));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use foehold_core::modifiers::fraction::Fraction;

    fn die(what: &str, roll: u32, needed: u32) -> Show {
        Show::Die {
            what: what.into(),
            sides: 6,
            roll,
            needed,
        }
    }

    #[test]
    fn a_roll_fills_a_fresh_tray_and_lights_the_hits_once_its_dice_landed() {
        let mut showing = Showing::default();
        let mut shown = Shown::default();
        let odds = Odds {
            what: "Sam attacks the Gnawer".into(),
            sides: 6,
            needed: 4,
            chances: vec![
                Fraction::new(1, 4),
                Fraction::new(1, 2),
                Fraction::new(1, 4),
            ],
            rolled: Vec::new(),
        };
        showing.take(&mut shown, vec![die("healing", 3, 1)], None);
        let attack = vec![
            Show::Aim { by: 0, at: vec![7] },
            Show::Roll {
                what: odds.what.clone(),
            },
        ];
        showing.take(&mut shown, attack, Some(&odds));
        assert!(showing.tray.is_empty(), "a roll starts an empty tray");
        assert_eq!(shown.focus, Some((0, vec![7])));
        showing.take(&mut shown, vec![die("to hit", 5, 4)], Some(&odds));
        assert_eq!(showing.hits(), None, "one of two dice is in");
        showing.take(
            &mut shown,
            vec![die("to hit", 2, 4), die("damage", 3, 1)],
            None,
        );
        assert_eq!(showing.hits(), None, "the dice still tumble");
        for d in &mut showing.tray {
            d.age = TUMBLE;
        }
        assert_eq!(showing.hits(), Some(1));
        let rows = showing.rows();
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[0].0, rows[0].1.len()), ("to hit", 2));
        assert_eq!(rows[1].1[0].hit(), None, "damage dice need nothing");
    }

    #[test]
    fn the_bar_lit_is_that_of_the_roll_the_odds_are_about() {
        let mut showing = Showing::default();
        let mut shown = Shown::default();
        let wound = Odds {
            what: "does the hit wound Ysolde?".into(),
            sides: 6,
            needed: 2,
            chances: vec![Fraction::new(1, 6), Fraction::new(5, 6)],
            rolled: Vec::new(),
        };
        let hit = die("the Knight attacks Ysolde", 4, 4);
        let wounds = die("does the hit wound Ysolde?", 1, 2);
        showing.take(&mut shown, vec![hit, wounds], Some(&wound));
        for d in &mut showing.tray {
            d.age = TUMBLE;
        }
        assert_eq!(
            showing.hits(),
            Some(0),
            "the wound die failed, the hit die is another roll"
        );
    }

    #[test]
    fn a_path_grows_step_by_step_and_goes_when_another_figure_acts() {
        let mut showing = Showing::default();
        let mut shown = Shown::default();
        let step = |figure, from, to| Show::Step { figure, from, to };
        showing.take(&mut shown, vec![step(4, (0, 0), (1, 0))], None);
        showing.take(&mut shown, vec![step(4, (1, 0), (2, 1))], None);
        assert_eq!(shown.path, vec![(0, 0), (1, 0), (2, 1)]);
        showing.take(&mut shown, vec![Show::Aim { by: 4, at: vec![1] }], None);
        assert_eq!(shown.path.len(), 3, "the walker's aim keeps its path");
        showing.take(&mut shown, vec![step(5, (3, 3), (3, 4))], None);
        assert_eq!(shown.path, vec![(3, 3), (3, 4)]);
        assert_eq!(shown.focus, None, "the last figure's aim went with it");
    }
}
