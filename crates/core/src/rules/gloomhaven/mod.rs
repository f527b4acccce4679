//! The Gloomhaven-2e / Frosthaven rule module: heroes playing two cards a round, monsters that follow
//! their ability cards by the focus rules, attack modifier decks, elements, conditions and rests.
//!
//! The foe stages are pure functions in their files: `targeting.rs` decides focus, movement and
//! targets together (the rules intertwine them) and answers the board-position puzzles of `case.rs`;
//! `movement.rs` is the step graph every move walks; `attack.rs` finds the hexes and targets an attack
//! reaches; `shared.rs` keeps what one monster turn worked out for the next ones on the same board.
//! `actions.rs` applies actions to the [`State`], `heroes.rs` lists a hero's plays, `autopilot.rs`
//! plays heroes headless, `log.rs` words every event and action, and `show.rs` turns events into the
//! table's cues.

pub mod ability;
pub mod actions;
#[cfg(test)]
mod ally_tests;
mod arrange;
pub mod attack;
pub mod autopilot;
pub mod board;
pub mod candidates;
pub mod case;
mod class_shop;
#[cfg(test)]
mod class_tests;
pub mod coverage;
#[cfg(test)]
mod coverage_tests;
mod effects;
mod foe_turn;
mod format_1;
mod from_lab;
#[cfg(test)]
mod goal_tests;
mod hero_turn;
pub mod heroes;
pub mod lab;
#[cfg(test)]
mod lab_tests;
pub mod log;
#[cfg(test)]
mod moment_tests;
pub mod movement;
pub mod preset;
mod rooms;
#[cfg(test)]
mod rule_tests;
mod ruled_turn;
pub mod scenario;
#[cfg(test)]
mod scenario_tests;
pub mod shared;
pub mod show;
#[cfg(test)]
mod special_tests;
pub mod state;
mod summons;
pub mod targeting;
#[cfg(test)]
mod tests;
mod triggers;
mod turn;
mod type_shop;
pub mod workshop;

use std::sync::Arc;

pub use crate::rules::{ActionError, TieBreaker};
pub use actions::{Action, Cause, Event};
pub use preset::{Edition, Preset, Switches};
pub use scenario::{Scenario, Victory};
pub use state::{Actor, FigureId, FoeStage, Half, Phase, State};
pub use targeting::{Choice, Decision, Enemy, MonsterAction, Situation, SituationError, decide};

/// A game played by these rules.
pub type Game = crate::game::Game<Gloomhaven>;
/// A save of such a game.
pub type Save = crate::game::save::Save<Gloomhaven>;

use super::view::{
    CellInfo, FigureInfo, Gear, GridKind, Ground, Panel, Side, TableView, TokenInfo,
};
use super::{Present, Rules, Seat, SetupError, ToMove};
use crate::error::LoadError;
use crate::hex::{Terrain, qr};

/// The Gloomhaven rules, as the game, the loop and the table use them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Gloomhaven;

/// Table ids: hero `i` is `i`, monster `i` is `MONSTER_BASE + i`, summon `i` is `SUMMON_BASE + i`.
pub(crate) const MONSTER_BASE: u32 = 1000;
/// The table id of summon 0 (see [`MONSTER_BASE`]).
pub(crate) const SUMMON_BASE: u32 = 2000;

/// A figure's id on the table.
pub fn table_id(f: FigureId) -> u32 {
    match f {
        FigureId::Hero(i) => i as u32,
        FigureId::Monster(i) => MONSTER_BASE + i as u32,
        FigureId::Summon(i) => SUMMON_BASE + i as u32,
    }
}

/// The figure of a table id.
pub fn figure_id(id: u32) -> FigureId {
    if id >= SUMMON_BASE {
        FigureId::Summon((id - SUMMON_BASE) as usize)
    } else if id >= MONSTER_BASE {
        FigureId::Monster((id - MONSTER_BASE) as usize)
    } else {
        FigureId::Hero(id as usize)
    }
}

/// A few words about where the game stands.
pub(crate) fn phase_words(s: &State) -> String {
    match s.phase {
        Phase::Setup => "setting up".into(),
        Phase::CardSelection => "choose cards".into(),
        Phase::HeroTurn { hero, .. } => format!("{}'s turn", s.name(FigureId::Hero(hero))),
        Phase::FoeTurn { monster, .. } => format!("{} acts", s.name(FigureId::Monster(monster))),
        Phase::SummonTurn { summon, .. } => format!("{} acts", s.name(FigureId::Summon(summon))),
        Phase::RoundEnd => "round end".into(),
        Phase::Victory => "victory!".into(),
        Phase::Defeat => "defeat".into(),
    }
}

/// A picked character's class or card name is at most this long in a setup action.
const MAX_PICK_NAME: usize = 80;
/// A picked character's hand names at most this many cards in a setup action.
const MAX_PICK_HAND: usize = 64;

const fn ground(t: Terrain) -> Ground {
    match t {
        Terrain::Floor => Ground::Floor,
        Terrain::Obstacle => Ground::Obstacle,
        Terrain::Trap => Ground::Trap,
        Terrain::Hazard => Ground::Hazard,
        Terrain::Difficult => Ground::Difficult,
        Terrain::Icy => Ground::Icy,
        Terrain::Wall => Ground::Wall,
    }
}

/// A monster shoots when its statistics give it a range, else it fights with a blade.
fn monster_gear(t: &scenario::MonsterType, elite: bool) -> Gear {
    let stats = if elite { &t.elite } else { &t.normal };
    if stats.range > 0 {
        Gear::Bow
    } else {
        Gear::Blade
    }
}

/// A monster's statistics card, as it prints them, and the shield it gained this round.
fn monster_card(t: &scenario::MonsterType, elite: bool, gained: u32) -> Vec<String> {
    let stats = if elite { &t.elite } else { &t.normal };
    let mut card = vec![
        format!("Move {}", stats.movement),
        format!("Attack {}", stats.attack),
    ];
    if stats.range > 0 {
        card.push(format!("Range {}", stats.range));
    }
    if stats.shield > 0 {
        card.push(format!("Shield {}", stats.shield));
    }
    if gained > 0 {
        card.push(format!("Shield {gained} more this round"));
    }
    if !stats.conditions.is_empty() {
        let names: Vec<&str> = stats.conditions.iter().map(|c| c.name()).collect();
        card.push(format!("Its attacks add {}", names.join(", ")));
    }
    if stats.pierce > 0 {
        card.push(format!("Its attacks pierce {} more", stats.pierce));
    }
    if stats.targets > 1 {
        card.push(format!("Its attacks have {} targets", stats.targets));
    }
    if t.flying {
        card.push("Flying".to_string());
    }
    if t.advantage {
        card.push("Attacks with advantage".to_string());
    }
    if stats.retaliate > 0 {
        card.push(if stats.retaliate_range > 0 {
            format!(
                "Retaliate {} (range {})",
                stats.retaliate, stats.retaliate_range
            )
        } else {
            format!("Retaliate {}", stats.retaliate)
        });
    }
    if !t.immunities.is_empty() {
        let names: Vec<&str> = t.immunities.iter().map(|c| c.name()).collect();
        card.push(format!("Immune to {}", names.join(", ")));
    }
    if t.objective {
        card.push("An objective: it never acts".to_string());
    }
    card
}

/// A summon's statistics.
fn summon_card(spec: &scenario::SummonSpec) -> Vec<String> {
    let mut card = vec![
        format!("Move {}", spec.movement),
        format!("Attack {}", spec.attack),
    ];
    if spec.range > 0 {
        card.push(format!("Range {}", spec.range));
    }
    card
}

/// The stages of the Gloomhaven-family rules' own steps (the loop runs one system set per stage).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    /// The scenario's first reveal of the board.
    Setup,
    /// Every hero has chosen; the cards are revealed and initiative is set.
    CardSelection,
    /// A long-resting hero's turn, which the rules play.
    HeroTurn,
    /// A monster picks its focus.
    FoeTargeting,
    /// A monster moves.
    FoeMovement,
    /// A monster attacks.
    FoeAttack,
    /// A summon picks its focus.
    SummonTargeting,
    /// A summon moves.
    SummonMovement,
    /// A summon attacks.
    SummonAttack,
    /// The round's end: elements wane, decks reshuffle.
    RoundEnd,
    /// A card is drawn from a deck (a chance step).
    Draw,
}

impl Rules for Gloomhaven {
    const NAME: &'static str = "Gloomhaven";
    const STAGES: &'static [Step] = &[
        Step::Setup,
        Step::CardSelection,
        Step::HeroTurn,
        Step::FoeTargeting,
        Step::FoeMovement,
        Step::FoeAttack,
        Step::SummonTargeting,
        Step::SummonMovement,
        Step::SummonAttack,
        Step::RoundEnd,
        Step::Draw,
    ];

    type Stage = Step;

    type Scenario = Scenario;
    type State = State;
    type Action = Action;
    type Event = Event;

    fn parse_scenario(file: &str, text: &str) -> Result<Scenario, LoadError> {
        Self::parse_scenario_in(file, text, &crate::library::Library::default())
    }

    fn parse_scenario_in(
        file: &str,
        text: &str,
        library: &crate::library::Library,
    ) -> Result<Scenario, LoadError> {
        Self::check_scenario(file, text, library).map(|(s, _)| s)
    }

    fn check_scenario(
        file: &str,
        text: &str,
        library: &crate::library::Library,
    ) -> Result<(Scenario, Vec<LoadError>), LoadError> {
        super::check_scenario_format(file, text)?;
        let (scenario, warnings) = Scenario::check_in(file, text, &library.with_built_in())?;
        super::check_scenario_name(file, text, Self::scenario_name(&scenario))?;
        // The coverage rows are the module's, above the scenario format.
        for rule in &scenario.exercises {
            if !coverage::RULES.contains(&rule.as_str()) {
                return Err(LoadError::at_text(
                    file,
                    text,
                    &format!("\"{rule}\""),
                    format!(
                        "`exercises` names `{rule}`: expected one of the module's rules ({})",
                        coverage::RULES.join(", ")
                    ),
                ));
            }
        }
        Ok((scenario, warnings))
    }

    fn scenario_name(scenario: &Scenario) -> &str {
        &scenario.name
    }

    fn scenario_about(scenario: &Scenario) -> &str {
        &scenario.description
    }

    fn setup(scenario: Arc<Scenario>, seed: u64, ties: TieBreaker) -> Result<State, SetupError> {
        State::new(scenario, seed, ties)
    }

    fn to_move(s: &State) -> ToMove<Step> {
        if let Some(d) = &s.drawing {
            return ToMove::Chance {
                stage: Step::Draw,
                outcomes: d.want.options.len(),
            };
        }
        // A hero's own modifier choice belongs to that hero's player, not to the table.
        if let (Some(state::Pending::HeroModifier { .. }), Phase::HeroTurn { hero, .. }) =
            (&s.pending, s.phase)
        {
            return ToMove::Heroes(vec![hero]);
        }
        if s.pending.is_some() {
            return ToMove::Tie {
                options: s.pending_options(),
            };
        }
        match s.phase {
            Phase::Victory => ToMove::Over { won: true },
            Phase::Defeat => ToMove::Over { won: false },
            Phase::Setup => ToMove::Rules { stage: Step::Setup },
            Phase::CardSelection => {
                let waiting: Vec<usize> = s
                    .active_heroes()
                    .filter(|&h| s.heroes[h].selected.is_none() && s.heroes[h].long_rest.is_none())
                    .collect();
                if waiting.is_empty() {
                    ToMove::Rules {
                        stage: Step::CardSelection,
                    }
                } else {
                    ToMove::Heroes(waiting)
                }
            }
            // A long-resting hero's turn is the rules' step: the rest happens by itself.
            Phase::HeroTurn { hero, .. } if s.heroes[hero].long_rest.is_some() => ToMove::Rules {
                stage: Step::HeroTurn,
            },
            Phase::HeroTurn { hero, .. } => ToMove::Heroes(vec![hero]),
            Phase::FoeTurn { stage, .. } => ToMove::Rules {
                stage: match stage {
                    FoeStage::Targeting => Step::FoeTargeting,
                    FoeStage::Movement => Step::FoeMovement,
                    FoeStage::Attack { .. } => Step::FoeAttack,
                },
            },
            Phase::SummonTurn { stage, .. } => ToMove::Rules {
                stage: match stage {
                    FoeStage::Targeting => Step::SummonTargeting,
                    FoeStage::Movement => Step::SummonMovement,
                    FoeStage::Attack { .. } => Step::SummonAttack,
                },
            },
            Phase::RoundEnd => {
                let resting: Vec<usize> =
                    s.active_heroes().filter(|&h| s.may_short_rest(h)).collect();
                if resting.is_empty() {
                    ToMove::Rules {
                        stage: Step::RoundEnd,
                    }
                } else {
                    ToMove::Heroes(resting)
                }
            }
        }
    }

    fn legal_actions(s: &State, seat: Seat) -> Vec<Action> {
        match (Self::to_move(s), seat) {
            // The options first, in order (the seeded driver picks among them), then the dice.
            (ToMove::Tie { options }, Seat::Table) => (0..options)
                .map(Action::Choose)
                .chain([Action::ChooseByDice])
                .collect(),
            (ToMove::Rules { .. }, Seat::Rules) => vec![Action::Advance],
            (ToMove::Chance { outcomes, .. }, Seat::Chance) => {
                (0..outcomes).map(Action::Draw).collect()
            }
            (ToMove::Heroes(heroes), Seat::Hero(h))
                if heroes.contains(&h) && s.pending.is_some() =>
            {
                (0..s.pending_options()).map(Action::Choose).collect()
            }
            (ToMove::Heroes(heroes), Seat::Hero(h)) if heroes.contains(&h) => {
                // Each candidate is tried on a copy: what the rules refuse is not offered.
                hero_candidates(s, h)
                    .into_iter()
                    .filter(|a| s.accepts(a.clone()))
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    fn apply(s: &mut State, action: Action) -> Result<Vec<Event>, ActionError> {
        s.apply(action)
    }

    fn autopilot(s: &State, hero: usize) -> Option<Action> {
        // The autopilot takes the use of its modifier cards that deals the most damage (listed first).
        if matches!(s.pending, Some(state::Pending::HeroModifier { .. })) {
            return Some(Action::Choose(0));
        }
        // Heroes choose their cards at the same time, each by its own player: this one chooses its
        // own, whichever of the waiting heroes it is.
        if let ToMove::Heroes(waiting) = Self::to_move(s)
            && matches!(s.phase, Phase::CardSelection)
            && waiting.contains(&hero)
        {
            return Some(autopilot::choose_cards(s, hero));
        }
        autopilot::next_action(s)
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

    fn format_1_actions(
        scenario: Arc<Scenario>,
        seed: u64,
        ties: TieBreaker,
        actions: &[Action],
    ) -> Result<Vec<Action>, String> {
        format_1::actions(scenario, seed, ties, actions)
    }

    fn library_hash(file: &Scenario) -> Option<String> {
        // The monster types (written or pulled: those written are in the scenario's own hash
        // too) and the classes offered, as the loader built them.
        let data = ron::to_string(&(&file.monsters, &file.shelf.0)).ok()?;
        Some(crate::game::save::text_hash(&data))
    }

    fn party_offer(file: &Scenario) -> Option<crate::rules::PartyOffer> {
        let most = file.heroes.len().min(*scenario::PARTY_SIZES.end());
        let players = *scenario::PARTY_SIZES.start()..=most;
        // None when the level changes nothing in this scenario.
        let levels: Vec<u32> = if file.is_levelled() {
            (0..=scenario::MAX_LEVEL).collect()
        } else {
            Vec::new()
        };
        let classes = file.class_offers();
        (file.is_levelled() || players.clone().count() > 1 || !classes.is_empty()).then(|| {
            crate::rules::PartyOffer {
                levels,
                recommended: file.recommended_level(),
                players,
                all: file.heroes.len(),
                written_level: file.level,
                classes,
                seats: file
                    .heroes
                    .iter()
                    .map(|h| crate::rules::SeatOffer {
                        name: h.name.clone(),
                        class: h.class.clone(),
                        level: h.level,
                    })
                    .collect(),
            }
        })
    }

    fn party_action(
        s: &State,
        choice: crate::rules::PartyChoice,
    ) -> Result<Option<Action>, String> {
        if choice == crate::rules::PartyChoice::default() {
            return Ok(None);
        }
        let Some(file) = &s.setup_from else {
            return Err("the game has begun: its level and party are chosen".into());
        };
        let players = choice.players.unwrap_or(file.heroes.len());
        if players > file.heroes.len() {
            return Err(format!(
                "{} has {} heroes: it cannot seat {players} characters",
                file.name,
                file.heroes.len()
            ));
        }
        let heroes: Vec<usize> = (0..players).collect();
        let mut picks = choice.heroes.clone();
        picks.truncate(players);
        while picks.last().is_some_and(Option::is_none) {
            picks.pop();
        }
        // The level the party's own levels recommend, picked characters' included.
        let levels: Vec<u32> = heroes
            .iter()
            .map(|&h| match picks.get(h) {
                Some(Some(p)) => p.level,
                _ => file.heroes[h].level,
            })
            .collect();
        let level = choice
            .level
            .unwrap_or_else(|| file.recommended_for(&levels));
        // What the scenario offers first is the game it starts as: no set-up to log.
        if players == file.heroes.len() && level == file.recommended_level() && picks.is_empty() {
            return Ok(None);
        }
        let party = scenario::Party {
            level,
            heroes,
            picks,
        };
        // A choice the scenario refuses is said now, before anything is applied.
        file.resolve(Some(&party))?;
        Ok(Some(Action::Setup(party)))
    }

    fn check_action(action: &Action) -> Result<(), String> {
        if let Action::Arrange(a) = action {
            return a.check(crate::hex::MAX_COORD);
        }
        if let Action::Setup(p) = action {
            let most = *scenario::PARTY_SIZES.end();
            if p.heroes.len() > most || p.level > scenario::MAX_LEVEL {
                return Err(format!(
                    "a setup for {} characters at level {}: expected at most {most} characters and a level from 0 to {}",
                    p.heroes.len(),
                    p.level,
                    scenario::MAX_LEVEL
                ));
            }
            // Picked characters: a class name, a level and a hand of names, each bounded.
            let long = |n: &str| n.chars().count() > MAX_PICK_NAME;
            if p.picks.len() > most
                || p.picks.iter().flatten().any(|x| {
                    long(&x.class)
                        || x.level > scenario::MAX_HERO_LEVEL
                        || x.hand.len() > MAX_PICK_HAND
                        || x.hand.iter().any(|c| long(c))
                        || x.perks.len() > MAX_PICK_HAND
                        || x.perks.iter().any(|c| long(c))
                })
            {
                return Err(format!(
                    "a setup picks more than {most} characters, or a class or card name of more than {MAX_PICK_NAME} characters, a level above {} or a hand of more than {MAX_PICK_HAND} cards",
                    scenario::MAX_HERO_LEVEL
                ));
            }
            return Ok(());
        }
        let Action::Play {
            path,
            targets,
            ally,
            ..
        } = action
        else {
            return Ok(());
        };
        if path.len() > 1_000 || targets.len() > 64 {
            return Err(format!(
                "an action with a path of {} hexes and {} targets: expected at most 1000 and 64",
                path.len(),
                targets.len()
            ));
        }
        match path
            .iter()
            .chain(targets)
            .chain(ally)
            .find(|h| !crate::hex::within_bounds(**h))
        {
            Some(h) => Err(format!(
                "an action names hex ({}, {}): expected coordinates within ±{}",
                h.x,
                h.y,
                crate::hex::MAX_COORD
            )),
            None => Ok(()),
        }
    }
}

impl Present for Gloomhaven {
    fn describe(s: &State, e: &Event) -> Option<String> {
        log::describe(s, e)
    }

    fn action_label(s: &State, a: &Action) -> String {
        log::action_words(s, a)
    }

    fn action_cell(s: &State, a: &Action) -> Option<super::view::CellKey> {
        show::action_cell(s, a)
    }

    fn telling(s: &State, event: &Event) -> super::view::Telling {
        use super::view::Telling;
        match event {
            // Heroes choose their cards in secret; the turn order reveals them all at once.
            Event::CardsSelected { hero, .. } | Event::LongRestDeclared { hero } => {
                Telling::Secret {
                    public: format!("{} has chosen", s.scenario.heroes[*hero].name),
                }
            }
            Event::TurnOrder { .. } => Telling::Reveal,
            _ => Telling::Public,
        }
    }

    fn shows(before: &State, after: &State, events: &[Event]) -> Vec<super::view::Show> {
        show::shows(before, after, events)
    }

    fn chance_words(s: &State) -> String {
        s.drawing
            .as_ref()
            .map_or_else(|| "a random pick".into(), |d| d.want.what.clone())
    }

    fn view(s: &State) -> TableView {
        let map = &s.map.0;
        // Rooms and marked hexes, named for the players where a scenario draws them.
        let layout = (!s.scenario.rooms.is_empty() || !s.scenario.marks.is_empty())
            .then(|| s.scenario.layout("scenario", "").ok())
            .flatten();
        let place = |h: crate::hex::Hex| -> Option<String> {
            let l = layout.as_ref()?;
            let mut words: Vec<String> = Vec::new();
            if !s.scenario.rooms.is_empty()
                && let Some(r) = l.room_of(h)
            {
                words.push(l.rooms[r].name.clone());
            }
            for (c, hexes) in &l.marks {
                if !hexes.contains(&h) {
                    continue;
                }
                let rules: Vec<&str> = s
                    .scenario
                    .special_rules
                    .iter()
                    .filter(|r| r.names_mark(*c))
                    .map(|r| r.name.as_str())
                    .collect();
                words.push(if rules.is_empty() {
                    format!("marked {c}")
                } else {
                    format!("marked {c}: {}", rules.join(", "))
                });
            }
            (!words.is_empty()).then(|| words.join(" · "))
        };
        let cells = map
            .hexes()
            .iter()
            .enumerate()
            .map(|(i, &h)| {
                // A closed door is a wall to the rules but a door a character may walk into; a
                // locked one is drawn as a door on a wall.
                let door = s.doors.iter().any(|d| !d.open && d.hex == h);
                let open_to_heroes = s.closed_door_at(h).is_some();
                CellInfo {
                    key: qr(h),
                    ground: if open_to_heroes {
                        Ground::Floor
                    } else if s.exits.contains(&h) {
                        Ground::Exit
                    } else {
                        ground(map.terrain_at(i))
                    },
                    door,
                    place: place(h),
                }
            })
            .collect();
        let thin_walls = map
            .thin_walls()
            .into_iter()
            .map(|(a, b)| (qr(a), qr(b)))
            .collect();
        let conditions = |c: &[state::Cond]| -> Vec<String> {
            c.iter().map(|c| c.condition.name().to_string()).collect()
        };
        let mut figures = Vec::new();
        for (i, h) in s.heroes.iter().enumerate() {
            let f = FigureId::Hero(i);
            figures.push(FigureInfo {
                id: table_id(f),
                name: s.name(f),
                side: Side::Hero,
                elite: false,
                hp: if h.exhausted { 0 } else { h.hp },
                max_hp: h.max_hp,
                conditions: conditions(&h.conditions),
                cell: qr(h.hex),
                owner: Some(s.scenario.heroes[i].player as u8),
                tint: i,
                gear: Gear::Bare,
                rooted: false,
                card: vec![
                    format!("Hand {} cards", h.hand.len()),
                    format!("Discard {}, lost {}", h.discard.len(), h.lost.len()),
                    format!("Modifier deck {} to draw", h.deck.draw_pile.len()),
                ],
            });
        }
        for (i, m) in s.monsters.iter().enumerate() {
            let f = FigureId::Monster(i);
            figures.push(FigureInfo {
                id: table_id(f),
                name: s.name(f),
                side: Side::Foe,
                elite: m.elite,
                hp: if m.alive { m.hp } else { 0 },
                max_hp: m.max_hp,
                conditions: conditions(&m.conditions),
                cell: qr(m.hex),
                owner: None,
                tint: m.kind,
                gear: monster_gear(&s.scenario.monsters[m.kind], m.elite),
                rooted: false,
                card: monster_card(&s.scenario.monsters[m.kind], m.elite, m.shield),
            });
        }
        // Summons are figures of the heroes' side, owned and tinted as their summoner; a
        // scenario's ally is nobody's.
        for (i, x) in s.summons.iter().enumerate() {
            let f = FigureId::Summon(i);
            let leader = x.leader();
            figures.push(FigureInfo {
                id: table_id(f),
                name: s.name(f),
                side: if leader.is_some() {
                    Side::Hero
                } else {
                    Side::Ally
                },
                elite: false,
                hp: if x.alive { x.hp } else { 0 },
                max_hp: x.spec.hp as i32,
                conditions: conditions(&x.conditions),
                cell: qr(x.hex),
                owner: leader.map(|h| s.scenario.heroes[h].player as u8),
                tint: leader.unwrap_or(i),
                gear: Gear::Bare,
                rooted: false,
                card: summon_card(&x.spec),
            });
        }
        let mut tokens: Vec<TokenInfo> = s
            .money
            .iter()
            .map(|h| TokenInfo {
                cell: qr(*h),
                label: "money".into(),
            })
            .collect();
        // Treasure tiles not yet looted, in rooms on the board.
        tokens.extend(
            s.treasures
                .iter()
                .filter(|t| t.looted_by.is_none() && map.contains(t.hex))
                .map(|t| TokenInfo {
                    cell: qr(t.hex),
                    label: "treasure".into(),
                }),
        );
        // Hexes a special rule names (a plate, a rat hole), on the board: a mark on the floor,
        // labelled "mark p", so that players see where a rule lies in wait.
        if let Some(l) = &layout {
            for (c, hexes) in &l.marks {
                if !s.scenario.special_rules.iter().any(|r| r.names_mark(*c)) {
                    continue;
                }
                tokens.extend(
                    hexes
                        .iter()
                        .filter(|h| map.contains(**h))
                        .map(|h| TokenInfo {
                            cell: qr(*h),
                            label: format!("mark {c}"),
                        }),
                );
            }
        }
        TableView {
            grid: GridKind::Hex,
            cells,
            thin_walls,
            figures,
            tokens,
            active: s.acting().map(table_id),
            banner: phase_words(s),
            round: s.round,
            // The goal, and which edition decides the monsters, so the players can check a turn
            // against it.
            panels: vec![
                goal_panel(s),
                Panel {
                    title: "The monsters' rules".into(),
                    lines: s.scenario.edition().lines(),
                },
            ],
            odds: None,
            // The hex table's own tie window shows the monster's reasons.
            tie: None,
        }
    }
}

/// The scenario's goal and how it stands: what wins and what loses.
fn goal_panel(s: &State) -> Panel {
    let up = s.active_heroes().count();
    let v = s.victory();
    let guarded: Vec<usize> = s.protected_allies().collect();
    let mut lines = vec![match (v, &guarded[..]) {
        // One ally to keep: the goal names it.
        (Victory::Protect(n), [i]) => format!(
            "Keep {} alive for {n} round{}.",
            s.summons[*i].spec.name,
            if *n == 1 { "" } else { "s" }
        ),
        _ => format!("{}.", v.goal()),
    }];
    let standing =
        |of: &dyn Fn(usize) -> bool| s.monsters.iter().filter(|m| m.alive && of(m.kind)).count();
    match v {
        Victory::AllFoesDead => lines.push(format!(
            "Monsters left: {} on the board.",
            standing(&|_| true)
        )),
        Victory::Kill(name) => {
            let k = s.scenario.monster_index(name);
            let n = standing(&|t| Some(t) == k);
            // None standing yet the goal not met: it waits behind a door (or has yet to spawn).
            lines.push(if n == 0 && !s.goal_met() {
                format!("{name}: none in view yet.")
            } else {
                format!("{name} left: {n} on the board.")
            });
        }
        Victory::Loot(n) => lines.push(format!(
            "Treasures looted: {} of {n}.",
            s.treasures_looted()
        )),
        Victory::Escape => lines.push(format!(
            "Out through an exit: {} of {} characters.",
            s.heroes.iter().filter(|x| x.escaped).count(),
            s.heroes.len()
        )),
        Victory::Survive(n) | Victory::Protect(n) => lines.push(rounds_left(s.round, *n)),
        Victory::Destroy => lines.push(format!(
            "Objectives left: {} on the board.",
            standing(&|t| s.scenario.monsters[t].objective)
        )),
    }
    if !s.scenario.special_rules.is_empty() {
        lines.push("Special rules:".into());
        for (r, rule) in s.scenario.special_rules.iter().enumerate() {
            let fired = s.fired.get(r).copied().unwrap_or(0);
            let done = match fired {
                0 => String::new(),
                1 => " (fired)".into(),
                n => format!(" (fired {n} times)"),
            };
            lines.push(format!(
                "· {}: {}{done}",
                rule.name,
                rule.when.words(rule.every)
            ));
        }
    }
    let hidden = s.revealed.iter().filter(|r| !**r).count();
    if hidden > 0 {
        lines.push(format!(
            "Rooms still hidden: {hidden} (a character opens a door by entering it)."
        ));
    }
    if !s.treasures.is_empty() && !matches!(v, Victory::Loot(_)) {
        lines.push(format!(
            "Treasures looted: {} of {}.",
            s.treasures_looted(),
            s.treasures.len()
        ));
    }
    for i in (0..s.summons.len()).filter(|&i| s.summons[i].ally.is_some()) {
        let x = &s.summons[i];
        lines.push(match (x.alive, guarded.contains(&i)) {
            (true, true) => format!(
                "{}: {} of {} hit points; the heroes lose if it dies.",
                x.spec.name, x.hp, x.spec.hp
            ),
            (true, false) => format!("{}: {} of {} hit points.", x.spec.name, x.hp, x.spec.hp),
            (false, _) => format!("{}: dead.", x.spec.name),
        });
    }
    lines.push(format!(
        "The heroes lose when every one is exhausted ({up} of {} in play).",
        s.heroes.len()
    ));
    if let Some(n) = s.scenario.round_limit {
        lines.push(format!(
            "They lose too if the goal is not met when round {n} ends: {}",
            rounds_left(s.round, n).to_lowercase()
        ));
    }
    if s.phase.is_over() {
        lines.push("What each takes away:".into());
        for (h, t) in s.tally().iter().enumerate() {
            let mut line = format!(
                "{}: {} gold, {} experience",
                s.scenario.heroes[h].name, t.gold, t.experience
            );
            for i in &t.items {
                line.push_str(&format!(", {i}"));
            }
            lines.push(line);
        }
    }
    Panel {
        title: "The goal".into(),
        lines,
    }
}

/// "Rounds left: 3 (this one included)." before round `last` ends, in round `round`.
fn rounds_left(round: u32, last: u32) -> String {
    let left = (last + 1).saturating_sub(round.max(1));
    match left {
        0 => "No round left.".into(),
        1 => "This is the last round.".into(),
        n => format!("Rounds left: {n}, this one included."),
    }
}

/// What a hero's player could do now, before the rules check each.
fn hero_candidates(s: &State, h: usize) -> Vec<Action> {
    let x = &s.heroes[h];
    match s.phase {
        Phase::CardSelection => {
            let mut out = Vec::new();
            for &leading in &x.hand {
                for &other in &x.hand {
                    if leading != other {
                        out.push(Action::SelectCards {
                            hero: h,
                            leading,
                            other,
                        });
                    }
                }
            }
            out.extend(
                x.discard
                    .iter()
                    .map(|&lose| Action::LongRest { hero: h, lose }),
            );
            out
        }
        Phase::HeroTurn { .. } => {
            let mut out = candidates::play_candidates(s, h);
            // Ending the turn without playing (the rest of it) is always open to the hero.
            out.push(Action::Advance);
            out
        }
        Phase::RoundEnd => vec![Action::ShortRest { hero: h }, Action::Advance],
        _ => Vec::new(),
    }
}
