//! A tiny rule module for tests only: one hero and one foe on a small square grid.
//!
//! It exists to prove that [`crate::game::Game`], saves and the game loop depend on the [`Rules`]
//! interface alone, that a module is added by the kit's checklist ([`crate::kit`]): it has every
//! part a module has (rules and presentation here, its case format in [`case`], its lab positions
//! and coverage beside them), and the list of modules carries it in the tests of whichever crate
//! expands it. It also gives other crates' tests a module that is quick to play and easy to reason
//! about. It is built with the `testing` feature (and in this crate's own tests), and it is not one
//! of the modules Foehold plays: no shipped command or table knows it.
//!
//! A round: the hero takes one action (step to a free neighbouring cell, strike the foe next to it,
//! or wait); then the foe steps one cell towards the hero when it is not next to it (two equally good
//! steps are a tie the table breaks) and strikes when it is. A strike deals 1 to 3 damage: a chance
//! outcome ([`ToMove::Chance`]) the log records. The hero wins when the foe falls and loses when it falls itself
//! or when the round limit passes.
#![expect(
    missing_docs,
    reason = "a test-only module whose items are described in the text above"
)]

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::view::{CellInfo, CellKey, FigureInfo, Gear, GridKind, Ground, Show, Side, TableView};
use super::{ActionError, Present, Rules, Seat, SetupError, TieBreaker, ToMove};
use crate::error::{LoadError, parse_ron};
use crate::rules::lab::Arrangement;

pub mod case;
mod coverage;
mod lab;

/// A cell `(x, y)` of the grid.
pub type Cell = (i32, i32);

/// The `rules:` field of a toy scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RulesName {
    Toy,
}

/// A toy scenario: the grid's size, where the two figures start, their hit points and the last round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub rules: RulesName,
    /// The scenario file's format ([`crate::rules::SCENARIO_FORMAT`]); absent in files written
    /// before it was named, which are of format 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<u32>,
    pub name: String,
    pub width: i32,
    pub height: i32,
    pub hero: Cell,
    pub foe: Cell,
    pub hero_hp: u32,
    pub foe_hp: u32,
    pub round_limit: u32,
    /// The rules its games are meant to exercise ([`crate::game::coverage::Coverage::claims`]).
    #[serde(default)]
    pub exercises: Vec<String>,
}

/// The four steps on the grid, in the fixed order legal actions list them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Dir {
    North,
    East,
    South,
    West,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];

    pub const fn from(self, (x, y): Cell) -> Cell {
        match self {
            Dir::North => (x, y - 1),
            Dir::East => (x + 1, y),
            Dir::South => (x, y + 1),
            Dir::West => (x - 1, y),
        }
    }
}

/// What a player (or the driver) does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// The hero steps one cell.
    Step(Dir),
    /// The hero strikes the foe next to it.
    Strike,
    /// The hero does nothing this round.
    Wait,
    /// Runs the foe's next stage.
    Advance,
    /// Picks option `i` of the pending tie.
    Choose(usize),
    /// The damage a strike rolled (a chance outcome, 1 to 3).
    Roll(u32),
    /// The players' change to the board from the position lab: figures moved.
    Arrange(Arrangement),
}

/// Where the round stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    Hero,
    FoeMove,
    FoeStrike,
    /// A strike of `who` waits for its damage roll.
    Roll {
        who: Who,
    },
    Over {
        won: bool,
    },
}

/// Who did something.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Who {
    Hero,
    Foe,
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    Stepped {
        who: Who,
        to: Cell,
    },
    Struck {
        who: Who,
        damage: u32,
    },
    Waited,
    /// The foe has two equally good steps: the table picks one.
    TieOffered {
        options: Vec<Cell>,
    },
    Over {
        won: bool,
    },
    /// The players moved figures in the lab: how many.
    Arranged {
        moved: usize,
    },
}

/// The whole toy game at one moment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub width: i32,
    pub height: i32,
    pub round_limit: u32,
    pub seed: u64,
    pub ties: TieBreaker,
    pub steps: u64,
    pub round: u32,
    pub stage: Stage,
    pub hero: Cell,
    pub foe: Cell,
    pub hero_hp: u32,
    pub foe_hp: u32,
    pub hero_max_hp: u32,
    pub foe_max_hp: u32,
    /// The foe's equally good steps, while the table chooses.
    pub pending: Option<Vec<Cell>>,
}

/// The toy rules.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Toy;

const fn adjacent(a: Cell, b: Cell) -> bool {
    (a.0 - b.0).abs() + (a.1 - b.1).abs() == 1
}

const fn gap(a: Cell, b: Cell) -> i32 {
    (a.0 - b.0).abs() + (a.1 - b.1).abs()
}

/// Whether `cell` lies on a grid of `width` × `height` cells.
const fn on_grid(width: i32, height: i32, (x, y): Cell) -> bool {
    0 <= x && x < width && 0 <= y && y < height
}

/// The foe's steps that bring it closest to the hero, in [`Dir::ALL`] order: none when no step
/// gets closer, two or more when the table breaks a tie. The game and the case format both ask it.
fn steps_towards(width: i32, height: i32, hero: Cell, foe: Cell) -> Vec<Cell> {
    let closer = |c: &Cell| on_grid(width, height, *c) && *c != hero;
    let best = Dir::ALL
        .iter()
        .map(|d| d.from(foe))
        .filter(closer)
        .map(|c| gap(c, hero))
        .min();
    match best {
        Some(b) if b < gap(foe, hero) => Dir::ALL
            .iter()
            .map(|d| d.from(foe))
            .filter(|c| closer(c) && gap(*c, hero) == b)
            .collect(),
        _ => Vec::new(),
    }
}

impl State {
    fn inside(&self, cell: Cell) -> bool {
        on_grid(self.width, self.height, cell)
    }

    fn foe_steps(&self) -> Vec<Cell> {
        steps_towards(self.width, self.height, self.hero, self.foe)
    }

    /// Moves the figures an arrangement names (0 the hero, 1 the foe), whole or not at all: the
    /// toy's grid and hit points do not change in play.
    fn arrange(&mut self, a: &Arrangement, ev: &mut Vec<Event>) -> Result<(), ActionError> {
        let invalid = |s: String| Err(ActionError::Invalid(s));
        if !a.ground.is_empty() {
            return invalid("the toy's grid does not change in play".into());
        }
        if let Some(id) = a.off.first() {
            return invalid(format!("figure {id} cannot be taken off: the toy has two"));
        }
        let (mut hero, mut foe) = (self.hero, self.foe);
        for (i, &(id, to)) in a.moves.iter().enumerate() {
            if a.moves[..i].iter().any(|(other, _)| *other == id) {
                return invalid(format!("figure {id} is named twice"));
            }
            if !self.inside(to) {
                return invalid(format!("cell {to:?} is off the grid"));
            }
            match id {
                0 => hero = to,
                1 => foe = to,
                _ => return invalid(format!("figure {id} is not in the game")),
            }
        }
        if hero == foe {
            return invalid("the hero and the foe would share a cell".into());
        }
        (self.hero, self.foe) = (hero, foe);
        ev.push(Event::Arranged {
            moved: a.moves.len(),
        });
        Ok(())
    }

    fn finish_round(&mut self, ev: &mut Vec<Event>) {
        if self.round >= self.round_limit {
            self.end(false, ev);
        } else {
            self.round += 1;
            self.stage = Stage::Hero;
        }
    }

    fn end(&mut self, won: bool, ev: &mut Vec<Event>) {
        self.stage = Stage::Over { won };
        ev.push(Event::Over { won });
    }

    fn step_foe(&mut self, to: Cell, ev: &mut Vec<Event>) {
        self.foe = to;
        ev.push(Event::Stepped { who: Who::Foe, to });
        self.stage = Stage::FoeStrike;
    }

    fn run(&mut self, action: Action, ev: &mut Vec<Event>) -> Result<(), ActionError> {
        let invalid = |s: &str| Err(ActionError::Invalid(s.into()));
        if let Stage::Over { .. } = self.stage {
            return Err(ActionError::GameOver);
        }
        if let Some(options) = self.pending.clone() {
            let Action::Choose(i) = action else {
                return Err(ActionError::PendingChoice);
            };
            let Some(&to) = options.get(i) else {
                return invalid("no such option");
            };
            self.pending = None;
            self.step_foe(to, ev);
            return Ok(());
        }
        match (self.stage, action) {
            (_, Action::Choose(_)) => Err(ActionError::NoChoicePending),
            (Stage::Hero | Stage::FoeMove, Action::Arrange(a)) => self.arrange(&a, ev),
            (Stage::Hero, Action::Step(d)) => {
                let to = d.from(self.hero);
                if !self.inside(to) || to == self.foe {
                    return invalid("the hero cannot step there");
                }
                self.hero = to;
                ev.push(Event::Stepped { who: Who::Hero, to });
                self.stage = Stage::FoeMove;
                Ok(())
            }
            (Stage::Hero, Action::Strike) => {
                if !adjacent(self.hero, self.foe) {
                    return invalid("the foe is out of reach");
                }
                self.stage = Stage::Roll { who: Who::Hero };
                Ok(())
            }
            (Stage::Roll { who }, Action::Roll(damage)) => {
                if !(1..=3).contains(&damage) {
                    return invalid("a strike rolls 1 to 3");
                }
                ev.push(Event::Struck { who, damage });
                match who {
                    Who::Hero => {
                        self.foe_hp = self.foe_hp.saturating_sub(damage);
                        if self.foe_hp == 0 {
                            self.end(true, ev);
                        } else {
                            self.stage = Stage::FoeMove;
                        }
                    }
                    Who::Foe => {
                        self.hero_hp = self.hero_hp.saturating_sub(damage);
                        if self.hero_hp == 0 {
                            self.end(false, ev);
                        } else {
                            self.finish_round(ev);
                        }
                    }
                }
                Ok(())
            }
            (Stage::Hero, Action::Wait) => {
                ev.push(Event::Waited);
                self.stage = Stage::FoeMove;
                Ok(())
            }
            (Stage::Hero, Action::Advance) => {
                Err(ActionError::NotReady("the hero has to act first".into()))
            }
            (Stage::FoeMove, Action::Advance) => {
                let options = self.foe_steps();
                match options.as_slice() {
                    [] => self.stage = Stage::FoeStrike,
                    [to] => self.step_foe(*to, ev),
                    _ => {
                        ev.push(Event::TieOffered {
                            options: options.clone(),
                        });
                        self.pending = Some(options);
                    }
                }
                Ok(())
            }
            (Stage::FoeStrike, Action::Advance) => {
                if adjacent(self.hero, self.foe) {
                    self.stage = Stage::Roll { who: Who::Foe };
                } else {
                    self.finish_round(ev);
                }
                Ok(())
            }
            (_, _) => Err(ActionError::WrongPhase("the foe is acting")),
        }
    }
}

/// The stages of the toy's own steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    /// The foe steps.
    FoeMove,
    /// The foe strikes.
    FoeStrike,
    /// A die is rolled.
    Roll,
}

impl Rules for Toy {
    const NAME: &'static str = "Toy";
    const STAGES: &'static [Step] = &[Step::FoeMove, Step::FoeStrike, Step::Roll];

    type Stage = Step;

    type Scenario = Scenario;
    type State = State;
    type Action = Action;
    type Event = Event;

    fn parse_scenario(file: &str, text: &str) -> Result<Scenario, LoadError> {
        super::check_scenario_format(file, text)?;
        let s: Scenario = parse_ron(file, text)?;
        let inside = |(x, y): Cell| (0..s.width).contains(&x) && (0..s.height).contains(&y);
        if !inside(s.hero) || !inside(s.foe) || s.hero == s.foe {
            return Err(LoadError::at_text(
                file,
                text,
                "hero",
                "the hero and the foe need two different cells on the grid",
            ));
        }
        if s.hero_hp == 0 || s.foe_hp == 0 {
            return Err(LoadError::at_text(
                file,
                text,
                "_hp",
                "hit points start above 0",
            ));
        }
        Ok(s)
    }

    fn scenario_name(scenario: &Scenario) -> &str {
        &scenario.name
    }

    fn setup(scenario: Arc<Scenario>, seed: u64, ties: TieBreaker) -> Result<State, SetupError> {
        Ok(State {
            width: scenario.width,
            height: scenario.height,
            round_limit: scenario.round_limit,
            seed,
            ties,
            steps: 0,
            round: 1,
            stage: Stage::Hero,
            hero: scenario.hero,
            foe: scenario.foe,
            hero_hp: scenario.hero_hp,
            foe_hp: scenario.foe_hp,
            hero_max_hp: scenario.hero_hp,
            foe_max_hp: scenario.foe_hp,
            pending: None,
        })
    }

    fn to_move(s: &State) -> ToMove<Step> {
        if let Some(options) = &s.pending {
            return ToMove::Tie {
                options: options.len(),
            };
        }
        match s.stage {
            Stage::Over { won } => ToMove::Over { won },
            Stage::Hero => ToMove::Heroes(vec![0]),
            Stage::FoeMove => ToMove::Rules {
                stage: Step::FoeMove,
            },
            Stage::FoeStrike => ToMove::Rules {
                stage: Step::FoeStrike,
            },
            Stage::Roll { .. } => ToMove::Chance {
                stage: Step::Roll,
                outcomes: 3,
            },
        }
    }

    fn legal_actions(s: &State, seat: Seat) -> Vec<Action> {
        match (Self::to_move(s), seat) {
            (ToMove::Tie { options }, Seat::Table) => (0..options).map(Action::Choose).collect(),
            (ToMove::Rules { .. }, Seat::Rules) => vec![Action::Advance],
            (ToMove::Chance { .. }, Seat::Chance) => (1..=3).map(Action::Roll).collect(),
            (ToMove::Heroes(_), Seat::Hero(0)) => {
                let mut out: Vec<Action> = Dir::ALL
                    .iter()
                    .filter(|d| {
                        let to = d.from(s.hero);
                        s.inside(to) && to != s.foe
                    })
                    .map(|&d| Action::Step(d))
                    .collect();
                if adjacent(s.hero, s.foe) {
                    out.push(Action::Strike);
                }
                out.push(Action::Wait);
                out
            }
            _ => Vec::new(),
        }
    }

    fn apply(s: &mut State, action: Action) -> Result<Vec<Event>, ActionError> {
        // Work on a copy so that a refused action leaves the state as it was.
        let mut next = s.clone();
        let mut ev = Vec::new();
        next.run(action, &mut ev)?;
        next.steps += 1;
        *s = next;
        Ok(ev)
    }

    fn autopilot(s: &State, hero: usize) -> Option<Action> {
        // Strike when it can, else the first step that gets closer, else wait: always a legal action.
        let legal = Self::legal_actions(s, Seat::Hero(hero));
        let closer = |a: &&Action| match a {
            Action::Step(d) => gap(d.from(s.hero), s.foe) < gap(s.hero, s.foe),
            _ => false,
        };
        legal
            .iter()
            .find(|a| **a == Action::Strike)
            .or_else(|| legal.iter().find(closer))
            .or_else(|| legal.last())
            .cloned()
    }

    fn round(s: &State) -> u32 {
        s.round
    }

    fn steps(s: &State) -> u64 {
        s.steps
    }

    fn seed(s: &State) -> u64 {
        s.seed
    }
}

impl Present for Toy {
    fn action_label(_s: &State, a: &Action) -> String {
        match a {
            Action::Step(d) => format!("step {d:?}"),
            Action::Strike => "strike the foe".into(),
            Action::Wait => "wait".into(),
            Action::Advance => "the foe acts".into(),
            Action::Choose(i) => format!("option {}", i + 1),
            Action::Roll(n) => format!("rolls {n}"),
            Action::Arrange(a) => a.label(),
        }
    }

    fn action_cell(s: &State, a: &Action) -> Option<CellKey> {
        match a {
            Action::Step(d) => Some(d.from(s.hero)),
            Action::Strike => Some(s.foe),
            _ => None,
        }
    }

    fn telling(_state: &State, _event: &Event) -> crate::rules::view::Telling {
        // Nothing is chosen in secret.
        crate::rules::view::Telling::Public
    }

    fn chance_words(_state: &State) -> String {
        "a roll of 1 to 3".into()
    }

    fn shows(before: &State, _after: &State, events: &[Event]) -> Vec<Show> {
        let id = |w: &Who| match w {
            Who::Hero => 0,
            Who::Foe => 1,
        };
        let cell = |w: &Who| match w {
            Who::Hero => before.hero,
            Who::Foe => before.foe,
        };
        events
            .iter()
            .filter_map(|e| match e {
                Event::Stepped { who, to } => Some(Show::Step {
                    figure: id(who),
                    from: cell(who),
                    to: *to,
                }),
                Event::Struck { who, damage } => Some(Show::Over {
                    figure: 1 - id(who),
                    text: format!("−{damage}"),
                    harm: true,
                }),
                _ => None,
            })
            .collect()
    }

    fn describe(_s: &State, e: &Event) -> Option<String> {
        let name = |w: &Who| match w {
            Who::Hero => "the hero",
            Who::Foe => "the foe",
        };
        Some(match e {
            Event::Stepped { who, to } => format!("{} steps to {to:?}", name(who)),
            Event::Struck { who, damage } => format!("{} strikes for {damage}", name(who)),
            Event::Waited => "the hero waits".into(),
            Event::TieOffered { options } => format!("the foe may step to {options:?}"),
            Event::Over { won: true } => "the foe falls".into(),
            Event::Over { won: false } => "the hero is beaten".into(),
            Event::Arranged { moved } => format!("the players move {moved} figures in the lab"),
        })
    }

    fn view(s: &State) -> TableView {
        let cells = (0..s.width)
            .flat_map(|x| (0..s.height).map(move |y| (x, y)))
            .map(|key| CellInfo {
                key,
                ground: Ground::Floor,
                door: false,
                place: None,
            })
            .collect();
        let figure = |id: u32, name: &str, side, hp: u32, max_hp: u32, cell| FigureInfo {
            id,
            name: name.into(),
            side,
            elite: false,
            hp: hp as i32,
            max_hp: max_hp as i32,
            conditions: Vec::new(),
            cell,
            owner: (side == Side::Hero).then_some(1),
            tint: 0,
            gear: Gear::Bare,
            rooted: false,
            card: vec![format!("{max_hp} hit points")],
        };
        TableView {
            grid: GridKind::Square,
            cells,
            thin_walls: Vec::new(),
            figures: vec![
                figure(0, "Hero", Side::Hero, s.hero_hp, s.hero_max_hp, s.hero),
                figure(1, "Foe", Side::Foe, s.foe_hp, s.foe_max_hp, s.foe),
            ],
            tokens: Vec::new(),
            tie: s
                .pending
                .as_ref()
                .map(|o| format!("the foe's {} steps are equally good", o.len())),
            active: match s.stage {
                Stage::Hero | Stage::Roll { who: Who::Hero } => Some(0),
                Stage::FoeMove | Stage::FoeStrike | Stage::Roll { who: Who::Foe } => Some(1),
                Stage::Over { .. } => None,
            },
            banner: match s.stage {
                Stage::Hero => "the hero's turn".into(),
                Stage::FoeMove | Stage::FoeStrike => "the foe acts".into(),
                Stage::Roll { .. } => "a strike's damage is rolled".into(),
                Stage::Over { won: true } => "victory!".into(),
                Stage::Over { won: false } => "defeat".into(),
            },
            round: s.round,
            panels: Vec::new(),
            odds: None,
        }
    }
}

/// A small toy scenario as text: a 4 × 3 grid, the hero in one corner and the foe in the other, so
/// the foe's first step is a tie.
pub const SCENARIO: &str = r#"(
    rules: Toy,
    name: "Two in a yard",
    width: 4,
    height: 3,
    hero: (0, 0),
    foe: (3, 2),
    hero_hp: 6,
    foe_hp: 5,
    round_limit: 8,
    exercises: ["the foe's step is a tie", "the foe strikes"],
)"#;

/// [`SCENARIO`], parsed.
pub fn scenario() -> Result<Arc<Scenario>, LoadError> {
    Toy::parse_scenario("toy.ron", SCENARIO).map(Arc::new)
}
