//! Brimstone-style fights on a square grid: the decision functions that answer the case format, and
//! the whole fight built on them as a game ([`Brimstone`], a [`Rules`] module).
//!
//! Each stage is a pure function of plain situation types (a [`SquareBoard`](crate::square::SquareBoard), heroes, enemies) so a
//! playable game can call it as well as the case format: [`placement::place`],
//! [`targeting::activate`], [`attack::resolve`] and [`end_of_fight::settle_member`]. Each returns every
//! outcome the rules allow, marked with who picks it ([`ChosenBy`](crate::decision::ChosenBy)), and a
//! trace in words a player can read. Random picks and ties are never settled here: they are listed.
//! `tests/conformance/brimstone/FORMAT.md` is the rule text; `docs/rules-brimstone.md` the readings.
//!
//! The game walks the same functions one choice at a time ([`placement::place_along`],
//! [`targeting::activate_along`]): a random pick is a chance outcome, a tie the table's pick. Its
//! scenario format is [`scenario`]; the flow is in `turn.rs`, a foe's activation in `activation.rs`,
//! the heroes' turns in `heroes.rs`.

pub mod actions;
mod activation;
mod arrange;
pub mod attack;
pub mod autopilot;
pub mod case;
pub mod choices;
pub mod coverage;
pub mod end_of_fight;
mod fight_panel;
mod from_lab;
mod heroes;
pub mod lab;
pub mod log;
pub mod placement;
pub mod scenario;
pub mod state;
pub mod targeting;
mod turn;
mod view;
pub mod workshop;

#[cfg(test)]
mod coverage_tests;
#[cfg(test)]
mod game_tests;
#[cfg(test)]
mod lab_tests;
#[cfg(test)]
mod moment_tests;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use crate::error::LoadError;
use crate::rules::view::TableView;
use crate::rules::{ActionError, Present, Rules, Seat, SetupError, TieBreaker, ToMove};
use crate::square::Square;
use actions::{Action, BreathChoice, Event};
use scenario::Scenario;
use state::{AskKind, HeroState, Lurk, Stage, State};

/// A hero on the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hero {
    /// The hero's name.
    pub name: String,
    /// The square the hero stands on.
    pub at: Square,
    /// Shootout markers on the hero (only the Shootout behaviour reads them).
    pub markers: u32,
}

/// `(x, y)` as the trace writes it.
pub(crate) fn square_name(s: Square) -> String {
    format!("({}, {})", s.0, s.1)
}

/// The cell a players' option is about, if one.
///
/// A square named as [`square_name`] names it, or the square of the figure (hero or model) the
/// option names or heads "towards". Orders of groups and whole groups have no one cell.
pub(crate) fn option_cell(s: &State, option: &str) -> Option<Square> {
    let option = option.strip_prefix("towards ").unwrap_or(option);
    // A square in words ("(4, 1)", "Ash Crow 1 on (4, 1), Gate").
    let named = option
        .split_once('(')
        .and_then(|(_, o)| o.split_once(')'))
        .and_then(|(o, _)| o.split_once(", "))
        .and_then(|(x, y)| Some((x.parse().ok()?, y.parse().ok()?)));
    named
        .or_else(|| {
            let h = (0..s.heroes.len()).find(|&h| s.hero_name(h) == option)?;
            Some(s.heroes[h].at)
        })
        .or_else(|| {
            s.models
                .iter()
                .find(|m| m.name == option && !m.dead)
                .and_then(|m| m.at)
        })
}

/// Names joined for a sentence: "Vera", "Vera and Wes", "Cole, Vera and Wes".
pub(crate) fn join_names<S: AsRef<str>>(names: &[S]) -> String {
    match names {
        [] => "nobody".to_string(),
        [one] => one.as_ref().to_string(),
        [rest @ .., last] => {
            let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
            format!("{} and {}", rest.join(", "), last.as_ref())
        }
    }
}

/// Squares joined for a sentence.
pub(crate) fn join_squares(squares: &[Square]) -> String {
    let names: Vec<String> = squares.iter().map(|&s| square_name(s)).collect();
    join_names(&names)
}

/// The stages of a Brimstone-style fight (the loop runs one system set per stage); the heroes'
/// own two are listed so that every stage before the end has a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    /// Threat cards are drawn.
    Threat,
    /// The enemies are placed.
    Placement,
    /// Variable initiative is rolled.
    Initiative,
    /// The next figure to act is found.
    NextActor,
    /// A hero's turn.
    Hero,
    /// A hero's attack dice.
    HeroAttack,
    /// An enemy works out where it goes and whom it attacks.
    Targeting,
    /// An enemy moves.
    Movement,
    /// An enemy's attack dice.
    Attack,
    /// A hero catches their breath: healing or Grit.
    Breath,
    /// The healing die of a hero catching their breath.
    Healing,
    /// Loot cards are drawn.
    Loot,
    /// The D6 of a lurking threat: does the ambush spring?
    Lurk,
}

/// Brimstone-style fights as a game: threat cards, placement, rounds in initiative order, enemy
/// activations by the targeting rules, hero turns with dice, and the end of the fight.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Brimstone;

impl State {
    /// The stage the fight is in, one of [`Brimstone::STAGES`]; none once it is over.
    pub fn step(&self) -> Option<Step> {
        Some(match &self.stage {
            Stage::Threat => Step::Threat,
            Stage::Placement => Step::Placement,
            Stage::Initiative { .. } => Step::Initiative,
            Stage::NextActor => Step::NextActor,
            Stage::Hero { .. } => Step::Hero,
            Stage::HeroAttack(_) => Step::HeroAttack,
            Stage::Targeting { .. } => Step::Targeting,
            Stage::Movement { .. } => Step::Movement,
            Stage::Attack(_) => Step::Attack,
            Stage::Breath { .. } => Step::Breath,
            Stage::Healing { .. } => Step::Healing,
            Stage::Loot { .. } => Step::Loot,
            Stage::Lurk { .. } => Step::Lurk,
            Stage::Over { .. } => return None,
        })
    }

    /// Applies an action to this state (the caller keeps a copy to restore on refusal).
    fn run(&mut self, action: Action, ev: &mut Vec<Event>) -> Result<(), ActionError> {
        if let Stage::Over { .. } = self.stage {
            return Err(ActionError::GameOver);
        }
        if let Some(ask) = &self.ask {
            let n = ask.options.len();
            let i = match (ask.kind, &action) {
                (AskKind::Random, Action::Draw(i)) | (AskKind::Players, Action::Choose(i)) => *i,
                (AskKind::Players, _) => return Err(ActionError::PendingChoice),
                (AskKind::Random, _) => {
                    return Err(ActionError::WrongPhase("a random pick is waiting"));
                }
            };
            if i >= n {
                return Err(ActionError::Invalid(format!(
                    "option {i}: expected one of 0 to {}",
                    n - 1
                )));
            }
            let option = ask.options[i].clone();
            ev.push(match ask.kind {
                AskKind::Random => Event::Drew { option },
                AskKind::Players => Event::Chose { option },
            });
            return self.picked(i, ev);
        }
        if let Action::Choose(_) = action {
            return Err(ActionError::NoChoicePending);
        }
        if let Some(sides) = self.die() {
            let Action::Roll(roll) = action else {
                return Err(ActionError::WrongPhase("a die is being rolled"));
            };
            if !(1..=sides).contains(&roll) {
                return Err(ActionError::Invalid(format!(
                    "a roll of {roll}: expected 1 to {sides}"
                )));
            }
            self.rolled(roll, ev);
            return Ok(());
        }
        if let Action::Arrange(a) = &action {
            return self.arrange(a, ev);
        }
        match (self.stage.clone(), action) {
            (
                Stage::Hero {
                    hero,
                    moved,
                    attacked,
                    free_attacks,
                },
                action,
            ) => {
                if !Brimstone::legal_actions(self, Seat::Hero(hero)).contains(&action) {
                    return Err(ActionError::Invalid(format!(
                        "{action:?} is not one of {}'s actions now",
                        self.hero_name(hero)
                    )));
                }
                match action {
                    Action::Move(to) => {
                        self.hero_move(hero, to, ev);
                        self.stage = if self.lurk == Lurk::Hidden {
                            Stage::Lurk { hero: Some(hero) }
                        } else {
                            Stage::Hero {
                                hero,
                                moved: true,
                                attacked,
                                free_attacks,
                            }
                        };
                    }
                    Action::Attack { target, weapon } => {
                        self.hero_attack(hero, (moved, attacked, free_attacks), target, weapon, ev);
                    }
                    _ => {
                        ev.push(Event::TurnEnded(hero));
                        self.acting = None;
                        self.stage = Stage::NextActor;
                    }
                }
                Ok(())
            }
            (Stage::Breath { hero }, Action::Breath(choice)) => {
                self.choose_breath(hero, choice, ev);
                Ok(())
            }
            (Stage::Breath { .. }, _) => Err(ActionError::NotReady(
                "a hero chooses how to catch its breath".into(),
            )),
            (_, Action::Advance) => self.advance(ev),
            (_, _) => Err(ActionError::WrongPhase("the rules run this step")),
        }
    }

    /// The rules' own step.
    fn advance(&mut self, ev: &mut Vec<Event>) -> Result<(), ActionError> {
        match self.stage.clone() {
            Stage::Placement => self.walk_placement(ev),
            Stage::NextActor => {
                self.next_actor(ev);
                Ok(())
            }
            Stage::Targeting { model, retreat } => self.walk_targeting(model, retreat, ev),
            Stage::Movement {
                model,
                end,
                targets,
                ranged,
            } => {
                self.move_model(model, end, targets, ranged, ev);
                Ok(())
            }
            _ => Err(ActionError::WrongPhase("no rules step is due")),
        }
    }

    /// Option `i` of the pending pick was taken.
    fn picked(&mut self, i: usize, ev: &mut Vec<Event>) -> Result<(), ActionError> {
        match self.stage.clone() {
            Stage::Threat => {
                self.draw_threat(i, ev);
                Ok(())
            }
            Stage::Placement => {
                self.picks.push(i);
                self.walk_placement(ev)
            }
            Stage::NextActor => {
                let tied = self.next_tied();
                let actor = tied
                    .get(i)
                    .copied()
                    .ok_or_else(|| ActionError::Invalid("no such actor".into()))?;
                self.begin(actor, ev);
                Ok(())
            }
            Stage::Targeting { model, retreat } => {
                self.picks.push(i);
                self.walk_targeting(model, retreat, ev)
            }
            Stage::Loot { hero, left } => {
                self.draw_loot(hero, left, i, ev);
                Ok(())
            }
            _ => Err(ActionError::WrongPhase("nothing is being picked")),
        }
    }

    /// A die shows `roll`.
    fn rolled(&mut self, roll: u32, ev: &mut Vec<Event>) {
        match self.stage.clone() {
            Stage::Initiative { group } => {
                self.groups[group].rolled = Some(roll);
                ev.push(Event::Initiative { group, roll });
                self.next_initiative(group + 1);
            }
            Stage::HeroAttack(strike) => self.hero_roll_die(strike, roll, ev),
            Stage::Targeting { model, .. } => {
                ev.push(Event::Rolled {
                    what: "retreat",
                    roll,
                    needed: 4,
                });
                self.stage = Stage::Targeting {
                    model,
                    retreat: Some(roll),
                };
            }
            Stage::Attack(strike) => self.foe_roll(strike, roll, ev),
            Stage::Healing { hero, .. } => self.heal(hero, roll, ev),
            Stage::Lurk { hero } => self.lurk_roll(hero, roll, ev),
            _ => {}
        }
    }
}

impl Rules for Brimstone {
    const NAME: &'static str = "Brimstone";
    const STAGES: &'static [Step] = &[
        Step::Threat,
        Step::Placement,
        Step::Initiative,
        Step::NextActor,
        Step::Hero,
        Step::HeroAttack,
        Step::Targeting,
        Step::Movement,
        Step::Attack,
        Step::Breath,
        Step::Healing,
        Step::Loot,
        Step::Lurk,
    ];

    type Stage = Step;

    type Scenario = Scenario;
    type State = State;
    type Action = Action;
    type Event = Event;

    fn parse_scenario(file: &str, text: &str) -> Result<Scenario, LoadError> {
        super::check_scenario_format(file, text)?;
        let scenario = scenario::parse(file, text)?;
        super::check_scenario_name(file, text, Self::scenario_name(&scenario))?;
        Ok(scenario)
    }

    fn scenario_name(scenario: &Scenario) -> &str {
        &scenario.file.name
    }

    fn scenario_about(scenario: &Scenario) -> &str {
        &scenario.file.description
    }

    fn setup(scenario: Arc<Scenario>, seed: u64, ties: TieBreaker) -> Result<State, SetupError> {
        let heroes = scenario
            .heroes()
            .iter()
            .map(|h| HeroState {
                at: h.at,
                hp: h.health,
                markers: 0,
                grit: h.grit,
                got_turn: false,
                xp: 0,
                loot: Vec::new(),
            })
            .collect();
        let loot_deck = (0..scenario.file.loot.len()).collect();
        let mut state = State {
            scenario,
            seed,
            ties,
            steps: 0,
            round: 0,
            heroes,
            threats: Vec::new(),
            groups: Vec::new(),
            models: Vec::new(),
            loot_deck,
            ambush_round: false,
            lurk: Lurk::Off,
            acted: Vec::new(),
            acting: None,
            stage: Stage::Threat,
            picks: Vec::new(),
            ask: None,
        };
        if state.scenario.file.lurk.is_some() {
            // The heroes explore first: the threat is drawn when the ambush springs.
            state.lurk = Lurk::Hidden;
            state.stage = Stage::NextActor;
        } else {
            state.ask_threat();
        }
        Ok(state)
    }

    fn to_move(s: &State) -> ToMove<Step> {
        let Some(step) = s.step() else {
            return ToMove::Over {
                won: matches!(s.stage, Stage::Over { won: true }),
            };
        };
        if let Some(ask) = &s.ask {
            return match ask.kind {
                AskKind::Random => ToMove::Chance {
                    stage: step,
                    outcomes: ask.options.len(),
                },
                AskKind::Players => ToMove::Tie {
                    options: ask.options.len(),
                },
            };
        }
        if let Some(sides) = s.die() {
            return ToMove::Chance {
                stage: step,
                outcomes: sides as usize,
            };
        }
        match s.stage {
            Stage::Hero { hero, .. } | Stage::Breath { hero } => ToMove::Heroes(vec![hero]),
            _ => ToMove::Rules { stage: step },
        }
    }

    fn legal_actions(s: &State, seat: Seat) -> Vec<Action> {
        match (Self::to_move(s), seat) {
            (ToMove::Tie { options }, Seat::Table) => (0..options).map(Action::Choose).collect(),
            (ToMove::Chance { outcomes, .. }, Seat::Chance) => {
                if s.ask.is_some() {
                    (0..outcomes).map(Action::Draw).collect()
                } else {
                    (1..=outcomes as u32).map(Action::Roll).collect()
                }
            }
            (ToMove::Rules { .. }, Seat::Rules) => vec![Action::Advance],
            (ToMove::Heroes(_), Seat::Hero(h)) => match s.stage {
                Stage::Hero {
                    hero,
                    moved,
                    attacked,
                    free_attacks,
                } if hero == h => {
                    let mut out = Vec::new();
                    if !moved {
                        out.extend(s.hero_moves(h).into_iter().map(Action::Move));
                    }
                    out.extend(s.hero_attacks(h, attacked, free_attacks));
                    out.push(Action::EndTurn);
                    out
                }
                Stage::Breath { hero } if hero == h => vec![
                    Action::Breath(BreathChoice::Heal),
                    Action::Breath(BreathChoice::Grit),
                ],
                _ => Vec::new(),
            },
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
        autopilot::next_action(s, hero)
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

    fn check_action(action: &Action) -> Result<(), String> {
        let far = crate::square::MAX_COORDINATE;
        match action {
            Action::Arrange(a) => a.check(far),
            Action::Move((x, y)) if x.abs() > far || y.abs() > far => Err(format!(
                "a move to ({x}, {y}): expected coordinates within {far} of the origin"
            )),
            Action::Roll(n) if *n > 100 => Err(format!("a roll of {n}: expected at most 100")),
            Action::Choose(i) | Action::Draw(i) if *i > 100_000 => {
                Err(format!("option {i}: expected at most 100000"))
            }
            Action::Attack { target, .. } if *target > 1_000 => {
                Err(format!("model {target}: expected at most 1000"))
            }
            _ => Ok(()),
        }
    }
}

impl Present for Brimstone {
    fn describe(s: &State, e: &Event) -> Option<String> {
        log::describe(s, e)
    }

    fn action_label(s: &State, action: &Action) -> String {
        let option = |i: usize| {
            s.ask
                .as_ref()
                .and_then(|a| a.options.get(i).cloned())
                .unwrap_or_else(|| format!("option {}", i + 1))
        };
        match action {
            Action::Arrange(change) => change.label(),
            Action::Advance => "go on".into(),
            Action::Choose(i) | Action::Draw(i) => option(*i),
            Action::Roll(n) => format!("roll {n}"),
            Action::Move((x, y)) => format!("move to ({x}, {y})"),
            Action::Attack { target, weapon } => {
                let name = s.models.get(*target).map_or("?", |m| m.name.as_str());
                match weapon {
                    actions::Weapon::Melee => format!("fight {name}"),
                    actions::Weapon::Gun => format!("shoot {name}"),
                    actions::Weapon::Hand => {
                        let weapon = s.scenario.file.heroes[s.acting_hero().unwrap_or(0)]
                            .weapon
                            .as_ref()
                            .map_or("hand weapon", |w| w.name.as_str());
                        format!("free attack on {name} with the {weapon}")
                    }
                }
            }
            Action::EndTurn => "end the turn".into(),
            Action::Breath(BreathChoice::Heal) => "catch your breath: heal D6".into(),
            Action::Breath(BreathChoice::Grit) => "catch your breath: 1 Grit".into(),
        }
    }

    fn action_cell(s: &State, action: &Action) -> Option<crate::rules::view::CellKey> {
        match *action {
            Action::Move(to) => Some(to),
            Action::Attack { target, .. } => s.models.get(target).and_then(|m| m.at),
            Action::Choose(i) => {
                let ask = s.ask.as_ref().filter(|a| a.kind == AskKind::Players)?;
                option_cell(s, ask.options.get(i)?)
            }
            _ => None,
        }
    }

    fn view(s: &State) -> TableView {
        view::table(s)
    }

    fn telling(_state: &State, _event: &Event) -> crate::rules::view::Telling {
        // Nothing is chosen in secret.
        crate::rules::view::Telling::Public
    }

    fn shows(before: &State, after: &State, events: &[Event]) -> Vec<crate::rules::view::Show> {
        view::shows(before, after, events)
    }

    fn chance_words(s: &State) -> String {
        // The dice tray tells which roll of an attack this is; the words name the attack.
        match (&s.ask, s.die()) {
            (Some(ask), _) if ask.why.is_empty() => "a random pick".into(),
            (Some(ask), _) => format!("a random pick: {}", ask.why),
            (None, Some(sides)) => match (&s.stage, view::odds(s)) {
                (Stage::Initiative { .. }, _) => format!("a D{sides}: an enemy group's initiative"),
                (Stage::Lurk { .. }, _) => format!("a D{sides}: does the lurker strike?"),
                (Stage::Healing { .. }, _) => format!("a D{sides}: catching breath heals"),
                (_, Some(odds)) => format!("a D{sides}: {}", odds.what),
                (_, None) => format!("a D{sides}"),
            },
            (None, None) => "nothing".into(),
        }
    }
}
