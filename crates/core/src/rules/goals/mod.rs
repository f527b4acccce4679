//! Goal-priority foes: a foe without a card of its own takes the first goal option it can carry out.
//!
//! Its goal list is Attack or Special, then Adventure. The board is of hexes with woods, rough
//! ground, Domes and their keys, adventures and loot; the override card and Choose Target pick whom.
//!
//! [`decide`] is the whole rule: a [`Situation`] in, every outcome the players may choose between
//! out, with a trace that walks the option list in a player's words. `case.rs` reads the `GoalTurn`
//! case files into situations; `docs/rules-goals.md` says how the printed rules are read.
//!
//! [`Goals`] plays whole scenarios with it: `scenario.rs` reads them, `state.rs` holds a game,
//! `turn.rs` runs the round (override card, heroes, foes, captures), `heroes.rs` lists and carries
//! out the heroes' actions, `foe_turn.rs` asks [`decide`] for each foe and carries out what it
//! takes, `autopilot.rs` plays heroes headless, `log.rs` words every event and `show.rs` says
//! what the table shows of them.

pub mod actions;
pub mod adventure;
mod arrange;
pub mod attack_goal;
pub mod autopilot;
pub mod board;
pub mod case;
mod context;
pub mod coverage;
pub mod foe_turn;
pub mod heroes;
pub mod lab;
#[cfg(test)]
mod lab_tests;
pub mod log;
pub mod movement;
pub mod reaction;
pub mod scenario;
pub mod show;
pub mod situation;
pub mod special_goal;
pub mod stacking;
pub mod state;
pub mod target;
pub mod turn;
pub mod workshop;

#[cfg(test)]
mod coverage_tests;
#[cfg(test)]
mod game_tests;
#[cfg(test)]
mod rule_tests;
#[cfg(test)]
mod tests;

pub use board::{Adventure, Board, BoardSpec, DomeKey, Loot};
pub use situation::{
    Affects, Aura, AuraEffect, Foe, GoalOption, Hero, Item, ItemEffect, ItemKind, MinionCard,
    MinionMove, Mode, Outcome, OverrideCard, Pick, Rating, Situation, Weapon,
};

use std::sync::Arc;

pub use actions::{Action, Event, Fig};
pub use scenario::Scenario;
pub use state::State;

use super::view::{CellInfo, FigureInfo, Gear, GridKind, Ground, Side, TableView, TokenInfo};
use super::{ActionError, Present, Rules, Seat, SetupError, TieBreaker, ToMove};
use crate::decision::Decision;
use crate::error::LoadError;
use scenario::Tile;
use state::{AdventureState, Phase};

/// A whole goal-priority game.
pub type Game = crate::game::Game<Goals>;
/// A save of such a game.
pub type Save = crate::game::save::Save<Goals>;

/// Table ids: hero `i` is `i`, foe `i` is `FOE_BASE + i`.
pub(crate) const FOE_BASE: u32 = 1000;

/// The stages of the goal-priority rules' own steps (the loop runs one system set per stage).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    /// The override card is drawn.
    Draw,
    /// The foes act, one step at a time.
    Foes,
    /// A die is rolled.
    Roll,
    /// The foes capture the adventures they hold; the round ends.
    Capture,
}

/// The goal-priority rules, as the game, the loop and the table use them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Goals;

impl Rules for Goals {
    const NAME: &'static str = "Goals";
    const STAGES: &'static [Step] = &[Step::Draw, Step::Foes, Step::Roll, Step::Capture];

    type Stage = Step;

    type Scenario = Scenario;
    type State = State;
    type Action = Action;
    type Event = Event;

    fn parse_scenario(file: &str, text: &str) -> Result<Scenario, LoadError> {
        super::check_scenario_format(file, text)?;
        let scenario = Scenario::parse(file, text)?;
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
        Ok(State::new(scenario, seed, ties))
    }

    fn to_move(s: &State) -> ToMove<Step> {
        s.to_move()
    }

    fn legal_actions(s: &State, seat: Seat) -> Vec<Action> {
        match (s.to_move(), seat) {
            (ToMove::Tie { options }, Seat::Table) => (0..options).map(Action::Choose).collect(),
            (ToMove::Rules { .. }, Seat::Rules) => vec![Action::Advance],
            (
                ToMove::Chance {
                    stage: Step::Roll, ..
                },
                Seat::Chance,
            ) => (1..=turn::DIE).map(Action::Roll).collect(),
            (ToMove::Chance { .. }, Seat::Chance) => {
                s.deck.iter().copied().map(Action::Draw).collect()
            }
            (ToMove::Heroes(_), Seat::Hero(h)) => match s.phase {
                Phase::Hero { hero, moved } if hero == h => s.hero_actions(h, moved),
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
        let far = |p: &scenario::Qr| {
            p.0.unsigned_abs() > scenario::MAX_MAP_SIDE as u32 * 2
                || p.1.unsigned_abs() > scenario::MAX_MAP_SIDE as u32 * 2
        };
        match action {
            Action::Arrange(a) => a.check(scenario::MAX_MAP_SIDE as i32 * 2),
            Action::Move(p) | Action::Hide(p) if far(p) => {
                Err(format!("hex ({}, {}) is far off any map", p.0, p.1))
            }
            _ => Ok(()),
        }
    }
}

impl Present for Goals {
    fn describe(s: &State, e: &Event) -> Option<String> {
        log::describe(s, e)
    }

    fn action_label(s: &State, action: &Action) -> String {
        let hero = |i: usize| s.file().heroes.get(i).map_or("?", |h| h.name.as_str());
        let foe = |i: usize| if i < s.foes.len() { s.foe_name(i) } else { "?" };
        match *action {
            Action::Arrange(ref change) => change.label(),
            Action::Draw(i) => format!("override card {}", i + 1),
            Action::Roll(n) => format!("roll {n}"),
            Action::Move((x, y)) => format!("move to ({x}, {y})"),
            Action::Melee(i) => format!("strike {}", foe(i)),
            Action::Shoot(i) => format!("shoot {}", foe(i)),
            Action::PickUp => "pick up the loot".into(),
            Action::Trade(i) => format!("hand the loot to {}", hero(i)),
            Action::SlipAway(i) => format!("slip away past {}", foe(i)),
            Action::Explore => "explore the adventure".into(),
            Action::Hide((x, y)) => format!("hide in the Dome at ({x}, {y})"),
            Action::End => "end the turn".into(),
            Action::Advance => "go on".into(),
            Action::Choose(i) => {
                match tie_outcomes(s).and_then(|o| tie_words(s, &o).get(i).cloned()) {
                    Some(words) => format!("outcome {}: {words}", i + 1),
                    None => format!("outcome {}", i + 1),
                }
            }
        }
    }

    fn action_cell(s: &State, action: &Action) -> Option<crate::rules::view::CellKey> {
        let acting = match s.phase {
            Phase::Hero { hero, .. } => s.heroes.get(hero).map(|h| h.hex),
            _ => None,
        };
        match *action {
            Action::Move(to) | Action::Hide(to) => Some(to),
            Action::Melee(i) | Action::Shoot(i) | Action::SlipAway(i) => {
                s.foes.get(i).map(|f| f.hex)
            }
            Action::Trade(i) => s.heroes.get(i).map(|h| h.hex),
            Action::PickUp | Action::Explore => acting,
            Action::Choose(i) => tie_outcome(s, i).map(|o| (o.end.x, o.end.y)),
            _ => None,
        }
    }

    fn view(s: &State) -> TableView {
        view(s)
    }

    fn telling(_state: &State, _event: &Event) -> crate::rules::view::Telling {
        // Nothing is chosen in secret.
        crate::rules::view::Telling::Public
    }

    fn shows(before: &State, after: &State, events: &[Event]) -> Vec<crate::rules::view::Show> {
        show::shows(before, after, events)
    }

    fn chance_words(s: &State) -> String {
        match show::odds(s) {
            Some(odds) => format!("a D{}: {} (needs {}+)", odds.sides, odds.what, odds.needed),
            None => "the top card of the override deck".into(),
        }
    }
}

/// Outcome `i` of the tie the table breaks now, decided again as the rules do when it is chosen.
fn tie_outcome(s: &State, i: usize) -> Option<Outcome> {
    tie_outcomes(s)?.into_iter().nth(i)
}

/// The outcomes of the tie waiting for the players.
fn tie_outcomes(s: &State) -> Option<Vec<Outcome>> {
    let (f, _) = s.tie?;
    Some(s.decision(f).ok()?.options)
}

/// A tie's outcomes in the game's names, told apart where two would read alike.
fn tie_words(s: &State, outcomes: &[Outcome]) -> Vec<String> {
    let texts: Vec<(String, crate::rules::view::CellKey)> = outcomes
        .iter()
        .map(|o| (case::outcome_words(o), (o.end.x, o.end.y)))
        .collect();
    crate::rules::names::outcomes_in_words(&view(s), &texts)
}

/// A hero's ratings as the sheet prints them: what override cards and foes compare.
pub(crate) fn hero_card(h: &scenario::HeroSpec) -> Vec<String> {
    let mut card = vec![
        format!("Speed {}", h.speed),
        format!("Melee {:+}, Aim {:+}", h.melee, h.aim),
        format!("Agility {:+}, Stealth {:+}", h.agility, h.stealth),
        format!("Wits {:+}, Armor {}", h.wits, h.armor),
    ];
    if let Some((near, far)) = h.range {
        card.push(format!("Shoots at range {near}–{far}"));
    }
    if h.can_trade {
        card.push("Can trade".to_string());
    }
    card
}

/// A foe's card: its goal, ratings, weapons and specials.
pub(crate) fn foe_card(f: &scenario::FoeSpec) -> Vec<String> {
    let goal = match f.goal {
        scenario::Goal::Attack => "Attack goal",
        scenario::Goal::Special => "Special goal",
    };
    let mut card = vec![
        format!("{goal}, speed {}", f.speed),
        format!("Melee {:+}, Aim {:+}", f.melee, f.aim),
        format!(
            "Agility {:+}, Stealth {:+}, Armor {}",
            f.agility, f.stealth, f.armor
        ),
    ];
    for w in &f.weapons {
        card.push(format!(
            "{}: range {}–{}, hit {:+}",
            w.name, w.range.0, w.range.1, w.hit
        ));
    }
    for sp in &f.specials {
        card.push(format!("Special: {}", sp.name));
    }
    if let Some(m) = &f.minion_card {
        card.push(format!("Unleashes {}", m.name));
    }
    if f.slip_away {
        card.push("Can slip away".to_string());
    }
    card
}

/// The table's ground of a map tile.
pub(crate) fn ground(t: Tile) -> Ground {
    match t {
        Tile::Clear => Ground::Floor,
        Tile::Wall => Ground::Wall,
        Tile::Woods => Ground::Woods,
        Tile::Rough => Ground::Difficult,
        Tile::Prohibited => Ground::Obstacle,
        Tile::Dome => Ground::Dome,
        Tile::Gap => Ground::DomeGap,
        Tile::Adventure => Ground::Adventure,
    }
}

/// What a foe's figure carries: a bow for a weapon, a blade for melee (a minion has a blade).
pub(crate) fn foe_gear(spec: &scenario::FoeSpec, minion: bool) -> Gear {
    match spec {
        _ if minion => Gear::Blade,
        spec if !spec.weapons.is_empty() && spec.melee > 0 => Gear::BladeAndBow,
        spec if !spec.weapons.is_empty() => Gear::Bow,
        _ => Gear::Blade,
    }
}

/// The picture of the table: cells by tile, figures by side, loot and closed adventures as tokens,
/// the active figure, and a banner with the round's override card.
pub fn view(s: &State) -> TableView {
    let file = s.file();
    let cells = s
        .scenario
        .layout
        .tiles
        .iter()
        .map(|&(h, t)| CellInfo {
            key: (h.x, h.y),
            ground: ground(t),
            door: false,
            place: s
                .adventure_at((h.x, h.y))
                .map(|a| file.adventures[a].name.clone()),
        })
        .collect();
    let mut figures = Vec::new();
    for (i, h) in s.heroes.iter().enumerate() {
        let mut conditions = Vec::new();
        if h.trapped {
            conditions.push("trapped".to_string());
        }
        if s.is_dome(h.hex) {
            conditions.push("in a Dome".to_string());
        }
        if h.gold + h.cards > 0 {
            conditions.push(format!("carries {}g {}c", h.gold, h.cards));
        }
        figures.push(FigureInfo {
            id: i as u32,
            name: file.heroes[i].name.clone(),
            side: Side::Hero,
            elite: false,
            hp: h.health as i32,
            max_hp: file.heroes[i].health as i32,
            conditions,
            cell: h.hex,
            owner: Some((i + 1).min(usize::from(u8::MAX)) as u8),
            tint: i,
            gear: Gear::Bare,
            rooted: false,
            card: hero_card(&file.heroes[i]),
        });
    }
    for (i, f) in s.foes.iter().enumerate() {
        let mut conditions = Vec::new();
        if f.guarded {
            conditions.push("guarded".to_string());
        }
        if f.acted {
            conditions.push("acted".to_string());
        }
        if f.gold + f.cards > 0 {
            conditions.push(format!("carries {}g {}c", f.gold, f.cards));
        }
        figures.push(FigureInfo {
            id: FOE_BASE + i as u32,
            name: s.foe_name(i).to_string(),
            side: Side::Foe,
            elite: false,
            hp: f.health as i32,
            max_hp: if f.minion {
                1
            } else {
                file.foes[f.spec].health as i32
            },
            conditions,
            cell: f.hex,
            owner: None,
            tint: f.spec,
            gear: foe_gear(&file.foes[f.spec], f.minion),
            rooted: false,
            card: if f.minion {
                vec!["A minion: one wound takes it out".to_string()]
            } else {
                foe_card(&file.foes[f.spec])
            },
        });
    }
    let mut tokens: Vec<TokenInfo> = s
        .loot
        .iter()
        .map(|p| TokenInfo {
            cell: p.hex,
            label: format!("{}g {}c", p.gold, p.cards),
        })
        .collect();
    for (a, spaces) in s.scenario.layout.adventures.iter().enumerate() {
        let label = match s.adventures[a] {
            AdventureState::Open => continue,
            AdventureState::Explored => "explored",
            AdventureState::Captured => "captured",
        };
        tokens.extend(spaces.iter().map(|h| TokenInfo {
            cell: (h.x, h.y),
            label: label.into(),
        }));
    }
    let fig = |f: Fig| match f {
        Fig::Hero(h) => h as u32,
        Fig::Foe(f) => FOE_BASE + f as u32,
    };
    // A die waiting is the roller's: an attack's by the attacker, a wound's about the one hit, an
    // exploration's by its hero (whose turn may have ended with the move that explores).
    let rolling = s.rolls.first().map(|r| match *r {
        actions::Roll::Hit { attacker, .. } => fig(attacker),
        actions::Roll::Wound { defender } => fig(defender),
        actions::Roll::Explore { hero, .. } => hero as u32,
    });
    let active = match (s.tie, s.phase) {
        _ if rolling.is_some() => rolling,
        (Some((f, _)), _) => Some(FOE_BASE + f as u32),
        (None, Phase::Hero { hero, .. }) => Some(hero as u32),
        (None, Phase::Foes) => s.next_foe().map(|f| FOE_BASE + f as u32),
        _ => None,
    };
    let card = s
        .card
        .map(|c| format!("override card: {}", file.override_deck[c].words()))
        .unwrap_or_else(|| "override card to draw".into());
    let now = match s.phase {
        Phase::Over { won: true } => "victory!".to_string(),
        Phase::Over { won: false } => "defeat".to_string(),
        _ if s.tie.is_some() => "the players choose the foe's outcome".to_string(),
        _ if !s.rolls.is_empty() => "a die is rolled".to_string(),
        Phase::Draw => "the override card is drawn".to_string(),
        Phase::Hero { hero, .. } => format!("{}'s turn", file.heroes[hero].name),
        Phase::Foes => "the foes act".to_string(),
        Phase::Capture => "the foes capture what they hold".to_string(),
    };
    TableView {
        grid: GridKind::Hex,
        cells,
        thin_walls: Vec::new(),
        figures,
        tokens,
        active,
        banner: format!("{now} · {card}"),
        round: s.round,
        panels: show::panels(s),
        odds: show::odds(s),
        tie: tie_reason(s),
    }
}

/// Why the foe's outcome is the players' to choose: the option that left several end spaces
/// equal, as the decision's walk says it.
fn tie_reason(s: &State) -> Option<String> {
    let (f, _) = s.tie?;
    let trace = s.decision(f).ok()?.trace;
    let [.., why, count] = trace.as_slice() else {
        return None;
    };
    // A minion's walk is indented inside its master's: one space between words reads better.
    let why: Vec<&str> = why.split_whitespace().collect();
    Some(format!("{}: {} {count}", s.foe_name(f), why.join(" ")))
}

/// What the active foe does: every allowed outcome (sorted, no repeats) and the trace.
pub fn decide(s: &Situation) -> Decision<Outcome> {
    let me = &s.foes[s.active];
    let mut trace = vec![format!(
        "{} acts from ({}, {}), {}.",
        me.name,
        me.hex.x,
        me.hex.y,
        match s.mode {
            Mode::Attack => "Attack goal",
            Mode::Special => "Special goal",
            Mode::MeleeStep => "Melee step",
            Mode::ReactionShot => "reaction shot",
        }
    )];
    let mut options = match s.mode {
        Mode::Attack | Mode::Special => stacking::turn(s, &mut trace),
        Mode::MeleeStep => context::Ctx::for_foe(s, None, true).melee_step(&mut trace),
        Mode::ReactionShot => context::Ctx::for_foe(s, None, true).reaction_shot(&mut trace),
    };
    for o in &mut options {
        o.used.sort();
    }
    options.sort();
    options.dedup();
    if options.len() > 1 {
        trace.push(format!("{} outcomes: the players choose.", options.len()));
    }
    Decision { options, trace }
}
