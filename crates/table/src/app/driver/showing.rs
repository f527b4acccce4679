//! What the last actions showed, kept for the board and the windows: the aim line, the path and
//! the words over figures; the dice in the tray, the odds of their roll, a random pick and a foe's
//! walk down its options. Filled from each module's [`Show`] cues.

use bevy::prelude::*;
use foehold_core::rules::view::{Odds, Show};

pub use crate::app::shown::{Popup, Shown};

/// Seconds a die tumbles before it lands; a random pick spins as long.
pub const TUMBLE: f32 = 0.6;
/// Seconds a random pick stays in view after it landed.
const PICK_STAYS: f32 = 6.0;

/// A die in the tray.
#[derive(Debug, Clone, PartialEq)]
pub struct Landed {
    pub what: String,
    pub sides: u32,
    pub roll: u32,
    pub needed: u32,
    /// Seconds since it was thrown.
    pub age: f32,
}

impl Landed {
    /// Whether it counts as a hit (or success); `None` for a die of no target, as for damage.
    pub fn hit(&self) -> Option<bool> {
        (self.needed > 1).then_some(self.roll >= self.needed)
    }
}

/// What the last actions showed, kept for the windows.
#[derive(Resource, Debug, Default)]
pub struct Showing {
    /// The dice of the last attack (and any die after it), in the order they landed.
    pub tray: Vec<Landed>,
    /// The odds of the roll in the tray, kept once the roll is over.
    pub odds: Option<Odds>,
    /// The last random pick: the options, the one picked, seconds since.
    pub pick: Option<(Vec<String>, usize, f32)>,
    /// The last foe's walk down its options: who, the lines, the line of the option taken.
    pub walk: Option<(String, Vec<String>, Option<usize>)>,
    /// The figure whose turn it was when the walk was shown (`None` inside: not yet told).
    walk_during: Option<Option<u32>>,
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
                Show::Walk { who, lines, chosen } => {
                    self.walk = Some((who, lines, chosen));
                    self.walk_during = None;
                }
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

    /// The turn is `active`'s now: a foe's walk down its options stays for its own turn only.
    pub fn turn_of(&mut self, active: Option<u32>) {
        match self.walk_during {
            _ if self.walk.is_none() => {}
            None => self.walk_during = Some(active),
            Some(during) if during != active => {
                self.walk = None;
                self.walk_during = None;
            }
            Some(_) => {}
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
    pub fn rows(&self) -> Vec<(&str, Vec<&Landed>)> {
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
    pub fn hits(&self) -> Option<usize> {
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

/// Seconds to let what a batch of cues shows play out before the rules' next step.
pub fn wait_for(shows: &[Show]) -> f32 {
    let steps = shows
        .iter()
        .filter(|s| matches!(s, Show::Step { .. }))
        .count();
    shows.iter().fold(0.35_f32, |wait, s| {
        wait.max(match s {
            Show::Aim { .. } | Show::Walk { .. } => 1.2,
            // A mini walks three cells a second at the usual pace.
            Show::Step { .. } => 0.3 + steps as f32 / 3.0,
            // A roll is a chance step per die: a long wait on each made a fight drag.
            Show::Die { .. } => TUMBLE + 0.1,
            Show::Pick { .. } => TUMBLE + 0.6,
            Show::Over { text, .. } if text == "falls" => 1.5,
            Show::Over { .. } => 0.8,
            Show::Roll { .. } => 0.35,
        })
    })
}

/// Dice tumble, a pick spins and stays a while, words over figures rise and fade.
pub(super) fn age(time: Res<Time>, mut showing: ResMut<Showing>, mut shown: ResMut<Shown>) {
    let dt = time.delta_secs();
    for p in &mut shown.popups {
        p.age += dt;
    }
    shown.popups.retain(|p| p.age < 2.0);
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
            whole: None,
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
            whole: None,
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
