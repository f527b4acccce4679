//! The game state: figures, card piles, elements, the phase, the pending player decision and an
//! action waiting for the cards it draws.
//!
//! Everything a game is lives here, so `clone`, serialize and compare see it all; the work kept for
//! later monster turns is not part of the game, and none of them sees it.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::board::Board;
use super::scenario::{
    Condition, Element, Party, Rank, Scenario, SummonSpec, Victory, standard_modifiers,
};
use super::shared::Shared;
use crate::chance::{Dealer, Want};
use crate::hex::{Hex, qr};
use crate::modifiers::attack::{AttackResult, Origin};
use crate::modifiers::card::Card;
use crate::modifiers::deck::ModifierDeck;
use crate::rules::{SetupError, TieBreaker};

/// A figure on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum FigureId {
    /// Hero `i` of the scenario.
    Hero(usize),
    /// Monster `i` of the state (dead ones keep their slot).
    Monster(usize),
    /// Summon `i` of the state, on the heroes' side (gone ones keep their slot).
    Summon(usize),
}

/// An entry of the round's turn order: a hero, or a monster type (all its monsters act in a row).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Actor {
    /// Hero `i`.
    Hero(usize),
    /// The monsters of type `i`.
    Monsters(usize),
    /// The ally that is summon slot `i` (see [`SummonState::ally`]).
    Ally(usize),
}

/// The step of a monster's turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum FoeStage {
    /// Start of turn: conditions, elements, focus and the whole plan.
    Targeting,
    /// Walk the chosen path.
    Movement,
    /// Resolve the attack on target `next` (one target per step), then the card's other effects.
    Attack {
        /// Index of the target in the plan's targets.
        next: usize,
    },
}

/// The phase of the game, as the table sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// The board is set; nothing has happened yet.
    Setup,
    /// Round start: every hero picks two cards or declares a long rest.
    CardSelection,
    /// A hero's turn: `played` is the card, half and basic flag already performed, if any.
    HeroTurn {
        /// The hero acting.
        hero: usize,
        /// The card, its half and whether it was played as a basic action, once it was.
        played: Option<(usize, Half, bool)>,
    },
    /// A monster's turn, one step at a time.
    FoeTurn {
        /// The monster acting.
        monster: usize,
        /// The step of its turn.
        stage: FoeStage,
    },
    /// A summon's turn, just before its summoner's, by the focus rules from the heroes' side.
    SummonTurn {
        /// The summon acting.
        summon: usize,
        /// The step of its turn.
        stage: FoeStage,
    },
    /// Round end: heroes may short rest, then everything wanes and reshuffles.
    RoundEnd,
    /// The heroes won.
    Victory,
    /// The heroes lost.
    Defeat,
}

impl Phase {
    /// Whether the game is over.
    pub const fn is_over(self) -> bool {
        matches!(self, Phase::Victory | Phase::Defeat)
    }
}

/// Top or bottom half of a hero card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Half {
    /// The top half.
    Top,
    /// The bottom half.
    Bottom,
}

/// Where an element stands on the element board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Level {
    /// Not infused.
    #[default]
    Inert,
    /// Infused last round: still usable, gone next round.
    Waning,
    /// Infused: usable.
    Strong,
}

/// A condition on a figure. `fresh`: given during the figure's own turn, so it outlives that turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cond {
    /// The condition.
    pub condition: Condition,
    /// Given during the figure's own turn, so it outlives that turn.
    pub fresh: bool,
}

/// A hero in play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeroState {
    /// Hit points now.
    pub hp: i32,
    /// Hit points when unhurt.
    pub max_hp: i32,
    /// Where the hero stands.
    pub hex: Hex,
    /// Out of the scenario: no card left to play or rest with, or no hit point left; or gone
    /// through an exit when `escaped`.
    pub exhausted: bool,
    /// Left the scenario through an exit hex (and so out of it, as `exhausted` says, but not
    /// beaten).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub escaped: bool,
    /// Card indexes into the hero's card list.
    pub hand: Vec<usize>,
    /// Discarded cards, back in hand after a rest.
    pub discard: Vec<usize>,
    /// Lost cards, gone for the scenario.
    pub lost: Vec<usize>,
    /// The two cards chosen this round, leading card first.
    pub selected: Option<[usize; 2]>,
    /// A long rest declared this round, losing this card from the discard.
    pub long_rest: Option<usize>,
    /// Initiative this round (of the leading card, or 99 on a long rest).
    pub initiative: u32,
    /// What settles an equal initiative this round: the other card's initiative, or
    /// [`super::targeting::RESTING`] during a long rest.
    #[serde(default)]
    pub second_initiative: u32,
    /// Conditions on the hero.
    pub conditions: Vec<Cond>,
    /// Shield from cards until the end of the round.
    pub shield: u32,
    /// Has short rested this round end.
    pub short_rested: bool,
    /// The hero's attack modifier deck.
    pub deck: ModifierDeck,
    /// Money tokens picked up in this scenario.
    #[serde(default)]
    pub money: u32,
    /// Gold from treasure tiles looted in this scenario.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub gold: u32,
    /// Items from treasure tiles looted in this scenario.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<String>,
    /// Experience gained from card halves used in this scenario.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub experience: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A treasure tile of the scenario: it lies on the board once its room is revealed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TreasureState {
    /// Its hex.
    pub hex: Hex,
    /// Its letter in the scenario's `treasures`.
    pub letter: char,
    /// The hero who looted it.
    pub looted_by: Option<usize>,
}

/// A monster on (or removed from) the board. Dead monsters keep their slot so ids stay stable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MonsterState {
    /// Index of the monster's type in the scenario.
    pub kind: usize,
    /// Standee number, 1-based within its type.
    pub number: u32,
    /// An elite monster.
    pub elite: bool,
    /// Hit points now.
    pub hp: i32,
    /// Hit points when unhurt.
    pub max_hp: i32,
    /// Where the monster stands (or last stood).
    pub hex: Hex,
    /// Still on the board.
    pub alive: bool,
    /// Conditions on the monster.
    pub conditions: Vec<Cond>,
    /// Shield gained this round, from its ability card or an effect.
    pub shield: u32,
    /// How it came onto the board: only placed monsters leave a money token.
    #[serde(default)]
    pub origin: Origin,
    /// The round it was spawned in (0: placed at setup); it does not act in that round.
    #[serde(default)]
    pub arrived: u32,
    /// The room it came into the game in, kept in a scenario with special rules (which may ask
    /// when a room is cleared).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room: Option<usize>,
}

/// A door of the scenario: closed doors stand on the board as walls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Door {
    /// Its hex.
    pub hex: Hex,
    /// Opened by a character.
    pub open: bool,
    /// Closed and locked by a special rule: a character cannot open it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub locked: bool,
}

/// A summon of a hero. Gone summons keep their slot so ids stay stable; their order is the order
/// they were summoned in, which is the order they act in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SummonState {
    /// The hero who summoned it.
    pub summoner: usize,
    /// Its printed statistics.
    pub spec: SummonSpec,
    /// Hit points now.
    pub hp: i32,
    /// Where it stands (or last stood).
    pub hex: Hex,
    /// Still on the board.
    pub alive: bool,
    /// Conditions on it.
    pub conditions: Vec<Cond>,
    /// Shield gained this round.
    pub shield: u32,
    /// For an ally of the scenario (not a hero's summon), its letter in `allies`: it has no
    /// summoner and takes its own turn at its initiative.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ally: Option<char>,
}

impl SummonState {
    /// The hero it acts before and leaves with; none for an ally.
    pub fn leader(&self) -> Option<usize> {
        self.ally.is_none().then_some(self.summoner)
    }
}

/// A monster type's ability deck and its state this round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KindState {
    /// Card indexes into the type's deck; the last is the top (a draw's outcome 0).
    pub draw_pile: Vec<usize>,
    /// Cards played, shuffled back when a card says so.
    pub discard: Vec<usize>,
    /// The card revealed this round.
    pub current: Option<usize>,
    /// Whether the first monster of the type to attack has resolved the consumption printed on the
    /// attack this round.
    pub resolved_elements: bool,
    /// Elements the type consumed this round (their bonus applies to every monster of the type).
    pub consumed: Vec<Element>,
    /// The monster that makes the card's infusions this round, for the whole type: the first to
    /// reach them.
    #[serde(default)]
    pub infuser: Option<usize>,
}

/// The plan of a monster turn, chosen from the rule module's options.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoePlan {
    /// Where the monster ends its move.
    pub end: Hex,
    /// The hexes it enters, in order.
    pub path: Vec<Hex>,
    /// The enemies it attacks.
    pub targets: Vec<Hex>,
    /// Its focus (or tied foci).
    pub focus: Vec<Hex>,
    /// The area of effect placed, if any.
    pub aoe: Vec<Hex>,
    /// What the monster does: attack value, range, pierce, conditions…
    pub attack: i32,
    /// The attack's range (0 for melee).
    pub range: u32,
    /// The attack's pierce.
    pub pierce: u32,
    /// Conditions the attack gives.
    pub conditions: Vec<Condition>,
}

/// A hero's half in progress, kept while its player chooses how a modifier draw counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeroPlay {
    /// The card played (an index into the hero's cards).
    pub card: usize,
    /// Which half of it.
    pub half: Half,
    /// Played as the basic move or attack rather than as printed.
    pub basic: bool,
    /// The move's path.
    pub path: Vec<Hex>,
    /// The attack's targets.
    pub targets: Vec<Hex>,
    /// The ally a ranged heal picks.
    pub ally: Option<Hex>,
    /// The half played before this one this turn.
    pub played: Option<(usize, Half, bool)>,
    /// The effect in progress and, in an attack, the target in progress.
    pub effect: usize,
    /// The target in progress (an index into `targets`).
    pub target: usize,
    /// The attack's bonus and added conditions from a consumed element.
    pub bonus: i32,
    /// The conditions a consumed element adds.
    pub extra: Vec<Condition>,
}

/// A decision the rules give to the players; only `Action::Choose` resolves it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Pending {
    /// Several monster outcomes are equally allowed (focus tie, equal hexes, equal targets).
    FoeOption {
        /// The monster acting.
        monster: usize,
        /// Its equally allowed plans.
        options: Vec<FoePlan>,
        /// The rule steps that left them equal.
        trace: Vec<String>,
    },
    /// A hero's modifier draw against monster `monster` allows uses that are neither clearly better
    /// nor worse: the hero's player picks, then the half goes on.
    HeroModifier {
        /// The half in progress.
        play: HeroPlay,
        /// The monster attacked.
        monster: usize,
        /// The draw and its possible uses.
        result: AttackResult,
    },
    /// Actors `order[start..start + len]` share one place in the turn order: the players pick which
    /// of them acts first (the rest are asked again).
    TurnOrder {
        /// The first tied place in the order.
        start: usize,
        /// How many actors share it.
        len: usize,
    },
    /// A monster's modifier draw is ambiguous for one target: the players pick the card use.
    Modifier {
        /// The monster attacking.
        monster: usize,
        /// The hero or summon attacked.
        target: FigureId,
        /// The attack's result, with the card uses to choose from.
        result: AttackResult,
    },
    /// Several outcomes of a summon's turn are equally allowed: the players pick.
    SummonOption {
        /// The summon acting.
        summon: usize,
        /// Its equally allowed plans.
        options: Vec<FoePlan>,
        /// The rule steps that left them equal.
        trace: Vec<String>,
    },
    /// A summon's modifier draw is ambiguous against monster `target`: the players pick the use.
    SummonModifier {
        /// The summon attacking.
        summon: usize,
        /// The monster attacked.
        target: usize,
        /// The attack's result, with the card uses to choose from.
        result: AttackResult,
    },
}

/// An action that draws cards, waiting for what it draws: applied once every card has been entered
/// (as [`super::Action::Draw`]), from the state it was first applied to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Drawing {
    /// The action.
    pub action: super::Action,
    /// The state's step count when it was applied (the headless tie-breaker reads it).
    pub steps: u64,
    /// The outcomes entered so far, in the order the action draws them.
    pub given: Vec<usize>,
    /// The draw waiting for its outcome.
    pub want: Want,
}

/// The whole game at one moment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The scenario being played, at the level and with the party chosen.
    #[serde(with = "arc_scenario")]
    pub scenario: Arc<Scenario>,
    /// The scenario as its file wrote it, while the players may still choose the level and the
    /// party ([`super::Action::Setup`]): until anything else happens.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "arc_scenario_or_none"
    )]
    pub setup_from: Option<Arc<Scenario>>,
    /// The seed the game started from.
    pub seed: u64,
    /// Who breaks ties the rules leave open.
    pub tie_breaker: TieBreaker,
    /// The board.
    pub map: Board,
    /// The round: 0 at setup, then from 1.
    pub round: u32,
    /// The phase.
    pub phase: Phase,
    /// Every hero.
    pub heroes: Vec<HeroState>,
    /// Every monster, dead ones included.
    pub monsters: Vec<MonsterState>,
    /// Every summon, gone ones included, in the order summoned.
    #[serde(default)]
    pub summons: Vec<SummonState>,
    /// Every monster type's ability deck.
    pub kinds: Vec<KindState>,
    /// The monsters' shared attack modifier deck.
    pub monster_deck: ModifierDeck,
    /// The element board, one level per element in `Element::ALL` order.
    pub elements: [Level; 6],
    /// Elements infused this turn: they become strong when the turn ends.
    pub infusing: Vec<Element>,
    /// This round's turn order and the index of the actor now acting.
    pub order: Vec<Actor>,
    /// Index into `order` of the actor now acting.
    pub turn: usize,
    /// Monsters of the acting type still to act this turn, in order.
    pub queue: Vec<usize>,
    /// Summons of the hero whose place in the order it is, still to act before it.
    #[serde(default)]
    pub summon_queue: Vec<usize>,
    /// Whether the summons of the hero whose place it is have had their turns.
    #[serde(default)]
    pub summons_acted: bool,
    /// The plan of the monster now acting.
    pub plan: Option<FoePlan>,
    /// The acting monster's next action on its ability card (an index into its actions).
    #[serde(default)]
    pub card_step: usize,
    /// A decision waiting for the players.
    pub pending: Option<Pending>,
    /// Money tokens left by dead monsters.
    pub money: Vec<Hex>,
    /// Which rooms of the scenario are revealed, by the layout's room index (empty when the
    /// scenario draws no rooms: its whole map is on the board).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub revealed: Vec<bool>,
    /// The doors, in the layout's order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub doors: Vec<Door>,
    /// The treasure tiles, in the layout's order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub treasures: Vec<TreasureState>,
    /// The exit hexes (of a scenario won by escaping), in `(q, r)` order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exits: Vec<Hex>,
    /// How many times each special rule of the scenario has fired (empty without rules).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fired: Vec<u32>,
    /// The goal a special rule set in place of the scenario's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<Victory>,
    /// Hexes figures entered during the action being applied, for the special rules: empty
    /// between actions.
    #[serde(skip)]
    pub(crate) stepped: Vec<(FigureId, Hex)>,
    /// Actions applied so far (also seeds the headless tie-breaker).
    pub steps: u64,
    /// An action that draws cards, waiting for the cards it draws (chance actions).
    #[serde(default)]
    pub drawing: Option<Drawing>,
    /// The outcomes of the draws of the action being applied: empty between actions.
    #[serde(skip)]
    pub(crate) dealer: Dealer,
    /// What monster turns worked out on this board for the next ones: not part of the game (never
    /// saved, equal to any other, empty in a clone).
    #[serde(skip)]
    pub shared: Shared,
}

pub(crate) fn parse_deck(cards: Option<&Vec<String>>) -> Result<Vec<Card>, SetupError> {
    let names = cards.cloned().unwrap_or_else(standard_modifiers);
    names
        .iter()
        .map(|n| Card::parse(n).map_err(|e| SetupError(format!("modifier card {n:?}: {e}"))))
        .collect()
}

impl State {
    /// Sets up a scenario with a seed: places figures, and every deck in its printed order (each card
    /// drawn is a chance action: a pick among the draw pile).
    pub fn new(
        scenario: Arc<Scenario>,
        seed: u64,
        tie_breaker: TieBreaker,
    ) -> Result<State, SetupError> {
        Self::with_party(scenario, None, seed, tie_breaker)
    }

    /// Sets up a scenario for `party` (the level and heroes chosen; the file's heroes at the
    /// recommended level when `None`): monsters stand where the party's size places them.
    pub fn with_party(
        file: Arc<Scenario>,
        party: Option<&Party>,
        seed: u64,
        tie_breaker: TieBreaker,
    ) -> Result<State, SetupError> {
        let scenario = Arc::new(file.resolve(party).map_err(SetupError)?);
        let characters = scenario.heroes.len();
        let layout = scenario
            .layout("scenario", "")
            .map_err(|e| SetupError(e.message))?;
        let mut heroes = Vec::new();
        for (i, spec) in scenario.heroes.iter().enumerate() {
            // Decks start in their printed order: each draw is a pick among the draw pile.
            let deck = ModifierDeck::stacked(parse_deck(spec.modifiers.as_ref())?);
            heroes.push(HeroState {
                hp: spec.hp as i32,
                max_hp: spec.hp as i32,
                hex: layout.hero_starts[i]
                    .ok_or_else(|| SetupError(format!("hero {} has no start", i + 1)))?,
                exhausted: false,
                escaped: false,
                hand: (0..spec.cards.len()).collect(),
                discard: Vec::new(),
                lost: Vec::new(),
                selected: None,
                long_rest: None,
                initiative: 0,
                second_initiative: 0,
                conditions: Vec::new(),
                shield: 0,
                short_rested: false,
                deck,
                money: 0,
                gold: 0,
                items: Vec::new(),
                experience: 0,
            });
        }
        let mut monsters = Vec::new();
        let mut numbers = vec![0u32; scenario.monsters.len()];
        for ((h, letter), room) in layout.monsters.iter().zip(&layout.monster_rooms) {
            // Monsters of other rooms are placed when their room is revealed.
            if *room != layout.start_room {
                continue;
            }
            let p = &scenario.legend[letter];
            let elite = match p.rank(characters) {
                Rank::Absent => continue,
                Rank::Normal => false,
                Rank::Elite => true,
            };
            let kind = scenario
                .monster_index(&p.monster)
                .ok_or_else(|| SetupError(format!("unknown monster {}", p.monster)))?;
            numbers[kind] += 1;
            let hp = scenario.monsters[kind].hit_points(elite, characters) as i32;
            monsters.push(MonsterState {
                kind,
                number: numbers[kind],
                elite,
                hp,
                max_hp: hp,
                hex: *h,
                alive: true,
                conditions: Vec::new(),
                shield: 0,
                origin: Origin::Placed,
                arrived: 0,
                room: (!scenario.special_rules.is_empty()).then_some(*room),
            });
        }
        // Elites act first within a type, then by standee number: sort the slots once so that the
        // order of ids is the order of action.
        monsters.sort_by_key(|m| (m.kind, !m.elite, qr(m.hex)));
        let mut counters = vec![0u32; scenario.monsters.len()];
        for m in &mut monsters {
            counters[m.kind] += 1;
            m.number = counters[m.kind];
        }
        let mut kinds = Vec::new();
        for t in &scenario.monsters {
            kinds.push(KindState {
                draw_pile: (0..t.deck.len()).rev().collect(),
                discard: Vec::new(),
                current: None,
                resolved_elements: false,
                consumed: Vec::new(),
                infuser: None,
            });
        }
        let monster_deck = ModifierDeck::stacked(parse_deck(scenario.monster_modifiers.as_ref())?);
        let drawn = !scenario.rooms.is_empty();
        let revealed = if drawn {
            (0..layout.rooms.len())
                .map(|r| r == layout.start_room)
                .collect()
        } else {
            Vec::new()
        };
        let doors = layout
            .doors
            .iter()
            .map(|d| Door {
                hex: d.hex,
                open: false,
                locked: false,
            })
            .collect();
        let treasures = layout
            .treasures
            .iter()
            .map(|&(hex, letter)| TreasureState {
                hex,
                letter,
                looted_by: None,
            })
            .collect();
        // Allies stand in the first room: on the board from the start, each in a summon slot.
        let summons = layout
            .allies
            .iter()
            .map(|&(hex, letter)| {
                let spec = scenario.allies[&letter].figure();
                SummonState {
                    summoner: 0,
                    hp: spec.hp as i32,
                    spec,
                    hex,
                    alive: true,
                    conditions: Vec::new(),
                    shield: 0,
                    ally: Some(letter),
                }
            })
            .collect();
        let fired = vec![0; scenario.special_rules.len()];
        Ok(State {
            revealed,
            doors,
            treasures,
            exits: layout.exits.clone(),
            map: Board(layout.map),
            scenario,
            setup_from: Some(file),
            seed,
            tie_breaker,
            round: 0,
            phase: Phase::Setup,
            heroes,
            monsters,
            summons,
            kinds,
            monster_deck,
            elements: [Level::Inert; 6],
            infusing: Vec::new(),
            order: Vec::new(),
            turn: 0,
            queue: Vec::new(),
            summon_queue: Vec::new(),
            summons_acted: false,
            plan: None,
            card_step: 0,
            pending: None,
            money: Vec::new(),
            fired,
            goal: None,
            stepped: Vec::new(),
            steps: 0,
            drawing: None,
            dealer: Dealer::default(),
            shared: Shared::default(),
        })
    }

    /// The names of the figures standing on `hexes` (an option's targets), in that order.
    pub fn names_at(&self, hexes: &[Hex]) -> Vec<String> {
        hexes
            .iter()
            .filter_map(|h| self.figure_at(*h))
            .map(|f| self.name(f))
            .collect()
    }

    /// Display name of a figure: "Mara", "Bog Crawler 2", "elite Bog Crawler 1".
    pub fn name(&self, f: FigureId) -> String {
        match f {
            FigureId::Hero(i) => self.scenario.heroes[i].name.clone(),
            FigureId::Monster(i) => {
                let m = &self.monsters[i];
                let t = &self.scenario.monsters[m.kind].name;
                if m.elite {
                    format!("elite {t} {}", m.number)
                } else {
                    format!("{t} {}", m.number)
                }
            }
            FigureId::Summon(i) => {
                let x = &self.summons[i];
                match x.leader() {
                    Some(h) => format!("{} ({})", x.spec.name, self.scenario.heroes[h].name),
                    None => x.spec.name.clone(),
                }
            }
        }
    }

    /// The living figure on a hex.
    pub fn figure_at(&self, h: Hex) -> Option<FigureId> {
        if let Some(i) = self.heroes.iter().position(|x| !x.exhausted && x.hex == h) {
            return Some(FigureId::Hero(i));
        }
        if let Some(i) = self.summons.iter().position(|x| x.alive && x.hex == h) {
            return Some(FigureId::Summon(i));
        }
        self.monsters
            .iter()
            .position(|m| m.alive && m.hex == h)
            .map(FigureId::Monster)
    }

    /// Whether every room is revealed (always, in a scenario without rooms).
    pub fn all_revealed(&self) -> bool {
        self.revealed.iter().all(|&r| r)
    }

    /// The index of the closed door on `h` a character may open, if there is one.
    pub fn closed_door_at(&self, h: Hex) -> Option<usize> {
        self.doors
            .iter()
            .position(|d| !d.open && !d.locked && d.hex == h)
    }

    /// A door in words, by the rooms it joins: "the door between the gatehouse and the pump hall".
    pub fn door_name(&self, d: usize) -> String {
        let layout = self.scenario.layout("scenario", "").ok();
        match layout.as_ref().and_then(|l| l.doors.get(d).map(|x| (l, x))) {
            Some((l, door)) => format!(
                "the door between {} and {}",
                l.rooms[door.rooms[0]].name, l.rooms[door.rooms[1]].name
            ),
            None => format!("door {}", d + 1),
        }
    }

    /// The hexes of the closed doors on the board a character may open (not the locked ones).
    pub fn closed_doors(&self) -> Vec<Hex> {
        self.doors
            .iter()
            .filter(|d| !d.open && !d.locked && self.map.0.contains(d.hex))
            .map(|d| d.hex)
            .collect()
    }

    /// The goal now: the scenario's, or the one a special rule set.
    pub fn victory(&self) -> &Victory {
        self.goal.as_ref().unwrap_or(&self.scenario.victory)
    }

    /// Whether a figure has a condition.
    pub fn has(&self, f: FigureId, c: Condition) -> bool {
        self.conditions(f).iter().any(|x| x.condition == c)
    }

    /// The conditions on a figure.
    pub fn conditions(&self, f: FigureId) -> &[Cond] {
        match f {
            FigureId::Hero(i) => &self.heroes[i].conditions,
            FigureId::Monster(i) => &self.monsters[i].conditions,
            FigureId::Summon(i) => &self.summons[i].conditions,
        }
    }

    pub(crate) fn conditions_mut(&mut self, f: FigureId) -> &mut Vec<Cond> {
        match f {
            FigureId::Hero(i) => &mut self.heroes[i].conditions,
            FigureId::Monster(i) => &mut self.monsters[i].conditions,
            FigureId::Summon(i) => &mut self.summons[i].conditions,
        }
    }

    /// Where a figure stands (or last stood).
    pub fn hex_of(&self, f: FigureId) -> Hex {
        match f {
            FigureId::Hero(i) => self.heroes[i].hex,
            FigureId::Monster(i) => self.monsters[i].hex,
            FigureId::Summon(i) => self.summons[i].hex,
        }
    }

    /// Whether a figure is still in play (a hero not exhausted, a monster alive).
    pub fn alive(&self, f: FigureId) -> bool {
        match f {
            FigureId::Hero(i) => !self.heroes[i].exhausted,
            FigureId::Monster(i) => self.monsters[i].alive,
            FigureId::Summon(i) => self.summons[i].alive,
        }
    }

    /// The figure whose turn it is, if any.
    pub fn acting(&self) -> Option<FigureId> {
        match self.phase {
            Phase::HeroTurn { hero, .. } => Some(FigureId::Hero(hero)),
            Phase::FoeTurn { monster, .. } => Some(FigureId::Monster(monster)),
            Phase::SummonTurn { summon, .. } => Some(FigureId::Summon(summon)),
            _ => None,
        }
    }

    /// Living monsters, by id.
    pub(crate) fn living_monsters(&self) -> impl Iterator<Item = usize> + '_ {
        self.monsters
            .iter()
            .enumerate()
            .filter(|(_, m)| m.alive)
            .map(|(i, _)| i)
    }

    /// Summons on the board, by id (the order they were summoned in).
    pub(crate) fn living_allies(&self) -> impl Iterator<Item = usize> + '_ {
        self.living_summons()
            .filter(|&i| self.summons[i].ally.is_some())
    }

    /// The initiative of the ally in summon slot `i`, as its scenario prints it (last of all
    /// for a slot that is no ally).
    pub(crate) fn ally_initiative(&self, i: usize) -> u32 {
        self.summons[i]
            .ally
            .and_then(|c| self.scenario.allies.get(&c))
            .map_or(u32::MAX, |a| a.initiative)
    }

    /// The protected allies (their summon slots), living or dead.
    pub(crate) fn protected_allies(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.summons.len()).filter(|&i| {
            self.summons[i]
                .ally
                .and_then(|c| self.scenario.allies.get(&c))
                .is_some_and(|a| a.protect)
        })
    }

    pub(crate) fn living_summons(&self) -> impl Iterator<Item = usize> + '_ {
        self.summons
            .iter()
            .enumerate()
            .filter(|(_, x)| x.alive)
            .map(|(i, _)| i)
    }

    /// Heroes still in the game.
    pub fn active_heroes(&self) -> impl Iterator<Item = usize> + '_ {
        self.heroes
            .iter()
            .enumerate()
            .filter(|(_, h)| !h.exhausted)
            .map(|(i, _)| i)
    }

    /// Whether `hero` may short rest at this round's end: still in the game, not rested yet this
    /// round, two or more cards in the discard. (The phase is checked where the rest is taken.)
    pub fn may_short_rest(&self, hero: usize) -> bool {
        self.heroes
            .get(hero)
            .is_some_and(|x| !x.exhausted && !x.short_rested && x.discard.len() >= 2)
    }

    /// Number of options of the pending decision (0 when nothing is pending).
    pub fn pending_options(&self) -> usize {
        match &self.pending {
            None => 0,
            Some(Pending::FoeOption { options, .. } | Pending::SummonOption { options, .. }) => {
                options.len()
            }
            Some(
                Pending::Modifier { result, .. }
                | Pending::HeroModifier { result, .. }
                | Pending::SummonModifier { result, .. },
            ) => result.options.len(),
            Some(Pending::TurnOrder { len, .. }) => *len,
        }
    }

    /// The shield a figure has against attacks now.
    pub fn target_shield(&self, f: FigureId) -> u32 {
        match f {
            FigureId::Hero(i) => self.heroes[i].shield,
            FigureId::Monster(i) => {
                let m = &self.monsters[i];
                let t = &self.scenario.monsters[m.kind];
                (if m.elite {
                    t.elite.shield
                } else {
                    t.normal.shield
                }) + m.shield
            }
            FigureId::Summon(i) => self.summons[i].shield,
        }
    }

    /// A stable 64-bit FNV-1a hash of the serialized state (RON), as 16 hex digits.
    pub fn state_hash(&self) -> String {
        crate::rules::state_hash(self)
    }

    /// The headless tie-breaker's pick among `n` options (see [`crate::rules::seeded_pick`]).
    pub fn seeded_pick(&self, n: usize) -> usize {
        crate::rules::seeded_pick(self.seed, self.steps, n)
    }
}

/// Serializes the scenario a game may still be set up from by value, when there is one.
mod arc_scenario_or_none {
    use super::{Arc, Scenario};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(s: &Option<Arc<Scenario>>, ser: S) -> Result<S::Ok, S::Error> {
        s.as_deref().serialize(ser)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Arc<Scenario>>, D::Error> {
        Option::<Scenario>::deserialize(d).map(|s| s.map(Arc::new))
    }
}

/// Serializes the shared scenario by value (serde's `rc` feature is not needed for this one field).
mod arc_scenario {
    use super::{Arc, Scenario};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(s: &Arc<Scenario>, ser: S) -> Result<S::Ok, S::Error> {
        s.as_ref().serialize(ser)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Arc<Scenario>, D::Error> {
        Scenario::deserialize(d).map(Arc::new)
    }
}
