//! Actions and events of the Gloomhaven family, and applying one to the state.
//!
//! Here are the entry point, the game's end and looting. The rules it runs are split by concern:
//! the round's flow (`turn.rs`), heroes' turns (`hero_turn.rs`), monsters' turns (`foe_turn.rs`),
//! summons' turns (`summons.rs`) and what happens to figures (`effects.rs`), each an `impl State`
//! of its own.

use serde::{Deserialize, Serialize};

use super::scenario::{Condition, Element, Victory};
use super::state::{Actor, Drawing, FigureId, Half, Pending, Phase, State};
use crate::hex::{Hex, distance, qr};
use crate::modifiers::card::{Effect as CardEffect, Element as CardElement};
use crate::modifiers::draw::Mode;
use crate::rules::ActionError;

/// Something a player (or the automatic driver) does. The log of actions is the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// The players' own change to the board, from the position lab ("play on from here"): figures
    /// moved or taken off and ground changed, applied whole.
    Arrange(crate::rules::lab::Arrangement),
    /// Runs the next step the rules run by themselves (a monster step, the round's reveal, the end of
    /// a hero turn, round end…).
    Advance,
    /// A hero's two cards for the round; `leading` sets its initiative.
    SelectCards {
        /// The hero choosing.
        hero: usize,
        /// The card whose initiative counts (index into the hero's cards).
        leading: usize,
        /// The other card.
        other: usize,
    },
    /// A hero declares a long rest, to lose `lose` from its discard on its turn.
    LongRest {
        /// The hero resting.
        hero: usize,
        /// The discarded card it will lose.
        lose: usize,
    },
    /// The acting hero performs one half of one of its two cards. `basic` plays the half as the
    /// basic action instead (top: attack 2, bottom: move 2). `path` is where the move's steps end (an
    /// icy slide is one step, to where it stops) and must be the path `heroes::reach` gives to its
    /// last hex; `targets` are the attacked hexes, `ally` the healed ally (itself when absent).
    Play {
        /// The card played (index into the hero's cards).
        card: usize,
        /// Which half.
        half: Half,
        /// Played as the basic action.
        #[serde(default)]
        basic: bool,
        /// The hexes entered, in order.
        #[serde(default)]
        path: Vec<Hex>,
        /// The hexes attacked.
        #[serde(default)]
        targets: Vec<Hex>,
        /// The ally healed.
        #[serde(default)]
        ally: Option<Hex>,
    },
    /// At round end, a hero recovers its discard and loses one card of it at random.
    ShortRest {
        /// The hero resting.
        hero: usize,
    },
    /// Picks option `i` of the pending decision.
    Choose(usize),
    /// Leaves a tie the table breaks to the dice: the seeded pick chooses, and the log says so.
    ChooseByDice,
    /// Chance: the card a waiting draw drew, as outcome `i` of its pick (0 is the top of the pile).
    Draw(usize),
    /// Before anything else happens: the scenario level and the heroes who play. The board is
    /// set up again from the scenario for them.
    Setup(super::scenario::Party),
}

pub(super) fn invalid<T>(s: impl Into<String>) -> Result<T, ActionError> {
    Err(ActionError::Invalid(s.into()))
}

/// Why a figure suffered damage outside an attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cause {
    /// A wound, at the start of the figure's turn.
    Wound,
    /// A trap it sprang.
    Trap,
    /// Hazardous terrain it entered.
    Hazard,
    /// A trapped treasure it looted.
    Treasure,
    /// The retaliation of the monster it attacked.
    Retaliate(FigureId),
    /// The scenario's special rule of this index.
    Special(usize),
}

/// What happened, for logs and renderers. Events carry ids; `log::describe` names them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// The players arranged the board in the position lab.
    Arranged {
        /// How many figures moved.
        moved: usize,
        /// The figures taken off, by name.
        taken_off: Vec<String>,
        /// How many cells' ground changed.
        cells: usize,
    },
    /// The game was set up for a party.
    SetUp {
        /// The scenario level, when the scenario has levels.
        level: Option<u32>,
        /// How many characters play.
        characters: usize,
    },
    /// A door opened: a character entered it, or a special rule opened it.
    DoorOpened {
        /// The door, in the scenario's order.
        door: usize,
        /// The hero who opened it (none: a special rule).
        hero: Option<usize>,
    },
    /// A special rule closed a door (and locked it).
    DoorClosed {
        /// The door.
        door: usize,
        /// Locked too: only a rule opens it again.
        locked: bool,
    },
    /// A special rule would close a door a figure stands in: it stays open.
    DoorHeld {
        /// The door.
        door: usize,
    },
    /// A boss performs one of its special actions.
    BossSpecial {
        /// The boss.
        monster: usize,
        /// Which special (from 1).
        special: u32,
    },
    /// A special rule fired.
    SpecialRule {
        /// The rule, in the scenario's order.
        rule: usize,
        /// The figure that set it off (entered the marked hex, died, opened the door), if any.
        by: Option<FigureId>,
    },
    /// A special rule put a monster on the board.
    RuleSpawned {
        /// The new monster.
        monster: usize,
        /// The rule.
        rule: usize,
        /// Where it stands.
        hex: Hex,
    },
    /// A special rule changed the terrain of these hexes.
    TerrainChanged {
        /// The hexes.
        hexes: Vec<Hex>,
        /// Their terrain now.
        terrain: crate::hex::Terrain,
    },
    /// A special rule's message to the players.
    Told {
        /// The message.
        text: String,
    },
    /// A special rule changed the goal.
    GoalChanged {
        /// The goal now.
        goal: Victory,
    },
    /// A room was revealed: its hexes are on the board and its monsters placed.
    RoomRevealed {
        /// The room, in the scenario's order.
        room: usize,
        /// Its name.
        name: String,
        /// The monsters placed in it.
        monsters: Vec<usize>,
    },
    /// A round began.
    RoundStarted {
        /// Its number.
        round: u32,
    },
    /// A hero chose its two cards.
    CardsSelected {
        /// The hero.
        hero: usize,
        /// The card whose initiative counts.
        leading: usize,
        /// The other card.
        other: usize,
        /// The hero's initiative this round.
        initiative: u32,
    },
    /// A hero declared a long rest.
    LongRestDeclared {
        /// The hero.
        hero: usize,
    },
    /// A monster type revealed its ability card for the round.
    AbilityRevealed {
        /// The monster type.
        kind: usize,
        /// The card (index into the type's deck).
        card: usize,
        /// The card's initiative.
        initiative: u32,
    },
    /// The round's turn order.
    TurnOrder {
        /// Who acts, first to last.
        order: Vec<Actor>,
    },
    /// A figure's turn began.
    TurnStarted {
        /// The figure.
        figure: FigureId,
    },
    /// A figure took damage outside an attack.
    Suffered {
        /// The figure.
        figure: FigureId,
        /// Damage taken.
        amount: u32,
        /// Why.
        cause: Cause,
    },
    /// A stunned figure lost its turn.
    Stunned {
        /// The figure.
        figure: FigureId,
    },
    /// An element was consumed.
    ElementConsumed {
        /// The element.
        element: Element,
        /// Who consumed it.
        by: FigureId,
    },
    /// An element was infused.
    ElementInfused {
        /// The element.
        element: Element,
        /// Who infused it.
        by: FigureId,
    },
    /// A monster chose its focus and its plan, with the rule steps that led there.
    FoeTargeted {
        /// The monster.
        monster: usize,
        /// Its focus (or tied foci); empty for none.
        focus: Vec<FigureId>,
        /// How many equally allowed plans it had.
        options: usize,
        /// The rule steps, one readable line each.
        trace: Vec<String>,
    },
    /// The rules leave `options` equal outcomes to the players.
    TieToBreak {
        /// What the tie is about, in words.
        about: String,
        /// How many outcomes tie.
        options: usize,
    },
    /// A tie was broken.
    TieBroken {
        /// The option taken.
        index: usize,
        /// By the seeded tie-breaker rather than the players.
        seeded: bool,
    },
    /// A bless (into the attacker's deck) or a curse (into the target's deck) was shuffled in;
    /// `deck` is the figure whose deck it is (every monster shares one).
    CardShuffledIn {
        /// The figure whose deck took the card.
        deck: FigureId,
        /// A curse rather than a bless.
        curse: bool,
    },
    /// A choice the rules give to one hero's player (not to the whole table).
    ChoiceOffered {
        /// The hero whose player chooses.
        hero: usize,
        /// What the choice is about, in words.
        about: String,
        /// How many options there are.
        options: usize,
    },
    /// A hero's player made the choice offered.
    ChoiceMade {
        /// The hero.
        hero: usize,
        /// The option taken.
        index: usize,
    },
    /// A figure moved along a path.
    PathChosen {
        /// The figure.
        figure: FigureId,
        /// The hexes entered, in order.
        path: Vec<Hex>,
    },
    /// Attack modifier cards were drawn.
    CardsDrawn {
        /// Who attacks.
        attacker: FigureId,
        /// Whom.
        target: FigureId,
        /// How the cards were drawn.
        mode: Mode,
        /// The cards, in the order drawn.
        cards: Vec<String>,
    },
    /// An attack on one target was worked out.
    AttackResolved {
        /// Who attacked.
        attacker: FigureId,
        /// Whom.
        target: FigureId,
        /// The attack value after the cards.
        value: i32,
        /// Damage dealt.
        damage: u32,
        /// The rule steps, one readable line each.
        trace: Vec<String>,
    },
    /// A figure gained a condition.
    ConditionGained {
        /// The figure.
        figure: FigureId,
        /// The condition.
        condition: Condition,
    },
    /// A figure was healed.
    Healed {
        /// The figure.
        figure: FigureId,
        /// Hit points healed.
        amount: u32,
    },
    /// A figure gained shield for the round.
    ShieldGained {
        /// The figure.
        figure: FigureId,
        /// Shield points gained.
        amount: u32,
    },
    /// A figure died.
    FigureDied {
        /// The figure.
        figure: FigureId,
        /// Where it died.
        hex: Hex,
    },
    /// A hero was exhausted.
    HeroExhausted {
        /// The hero.
        hero: usize,
        /// Why, in words.
        reason: String,
    },
    /// A dead monster left a money token on its hex.
    MoneyDropped {
        /// The monster that died.
        figure: FigureId,
        /// Where the token lies.
        hex: Hex,
    },
    /// A hero picked up the money tokens on `hexes`.
    MoneyLooted {
        /// The hero.
        hero: usize,
        /// The hexes whose tokens it took.
        hexes: Vec<Hex>,
    },
    /// A hero looted a treasure tile and took what it gives.
    TreasureLooted {
        /// The hero.
        hero: usize,
        /// The tile, by index into the state's treasures.
        treasure: usize,
    },
    /// A hero left the scenario through an exit hex.
    HeroEscaped {
        /// The hero.
        hero: usize,
        /// The exit.
        hex: Hex,
    },
    /// The scenario is over: what each hero takes from it, by hero.
    Reckoned {
        /// One tally per hero, in hero order.
        tally: Vec<Tally>,
    },
    /// A hero played a card half.
    CardPlayed {
        /// The hero.
        hero: usize,
        /// The card.
        card: usize,
        /// Which half.
        half: Half,
        /// Played as the basic action.
        basic: bool,
    },
    /// A hero rested.
    Rested {
        /// The hero.
        hero: usize,
        /// A long rest (else a short one).
        long: bool,
        /// The card lost.
        lost: usize,
        /// Hit points healed.
        healed: u32,
    },
    /// A figure's turn ended.
    TurnEnded {
        /// The figure.
        figure: FigureId,
    },
    /// A round ended.
    RoundEnded {
        /// Its number.
        round: u32,
    },
    /// A hero summoned a figure of its side.
    Summoned {
        /// The new summon.
        summon: usize,
        /// Its summoner.
        hero: usize,
        /// Where it stands.
        hex: Hex,
    },
    /// A summon chose its focus and its plan, with the rule steps that led there.
    SummonTargeted {
        /// The summon.
        summon: usize,
        /// Its focus (or tied foci); empty for none.
        focus: Vec<FigureId>,
        /// How many equally allowed plans it had.
        options: usize,
        /// The rule steps, one readable line each.
        trace: Vec<String>,
    },
    /// An exhausted hero's summons left the board with it.
    SummonsDismissed {
        /// The hero.
        hero: usize,
        /// Its summons that were still on the board.
        summons: Vec<usize>,
    },
    /// A monster ability spawned a new monster.
    Spawned {
        /// The new monster.
        monster: usize,
        /// The monster whose card spawned it.
        by: FigureId,
        /// Where it stands.
        hex: Hex,
    },
    /// The heroes won.
    Victory,
    /// The heroes lost.
    Defeat {
        /// Why, in words.
        reason: String,
    },
}

/// What a hero takes from a finished scenario.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Money tokens picked up.
    pub tokens: u32,
    /// Gold: each token at the scenario level's coin value, and gold from treasure.
    pub gold: u32,
    /// Experience: from card halves, and the level's bonus on a victory.
    pub experience: u32,
    /// The bonus experience included in `experience`.
    pub bonus: u32,
    /// Items from treasure.
    pub items: Vec<String>,
}

/// Initiative of a long-resting hero.
pub(crate) const LONG_REST_INITIATIVE: u32 = 99;

/// A spawn finds no standee once the game has held this many monsters, living and dead: it keeps
/// the state bounded and the table's ids apart (see `MONSTER_BASE`).
pub(crate) const MAX_MONSTERS: usize = 500;

pub(super) fn card_condition(e: CardEffect) -> Option<Condition> {
    Some(match e {
        CardEffect::Poison => Condition::Poison,
        CardEffect::Wound => Condition::Wound,
        CardEffect::Stun => Condition::Stun,
        CardEffect::Muddle => Condition::Muddle,
        CardEffect::Immobilize => Condition::Immobilize,
        CardEffect::Disarm => Condition::Disarm,
        _ => return None,
    })
}

pub(super) fn card_element(e: CardElement) -> Option<Element> {
    Some(match e {
        CardElement::Fire => Element::Fire,
        CardElement::Ice => Element::Ice,
        CardElement::Air => Element::Air,
        CardElement::Earth => Element::Earth,
        CardElement::Light => Element::Light,
        CardElement::Dark => Element::Dark,
        // A wild infusion is the attacker's pick: see `State::wild_element`.
        CardElement::Wild => return None,
    })
}

impl State {
    /// Applies one action. On error nothing changed.
    ///
    /// An action that draws cards is applied on a copy with the outcomes entered so far: when it
    /// draws a card it has no outcome for, the copy is thrown away and the action waits in
    /// [`State::drawing`] for that card ([`Action::Draw`], a chance action); each card entered runs
    /// it again from the state it was first applied to, until it has all it draws.
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, ActionError> {
        if self.phase.is_over() {
            return Err(ActionError::GameOver);
        }
        match (&self.drawing, action) {
            (Some(d), Action::Draw(i)) => {
                let n = d.want.options.len();
                if i >= n {
                    return invalid(format!("card {i} of {n}: no such card to draw"));
                }
                let (action, steps) = (d.action.clone(), d.steps);
                let mut given = d.given.clone();
                given.push(i);
                self.run_drawing(action, steps, given)
            }
            (Some(_), _) => Err(ActionError::WrongPhase(
                "a card is being drawn: enter it first",
            )),
            (None, Action::Draw(_)) => invalid("no card is being drawn"),
            (None, action) => self.run_drawing(action, self.steps, Vec::new()),
        }
    }

    /// Applies `action` on a copy of the state with the draw outcomes `given` and the step count
    /// `steps` it was first applied at; keeps the copy when it drew nothing it lacks, else waits.
    pub(super) fn run_drawing(
        &mut self,
        action: Action,
        steps: u64,
        given: Vec<usize>,
    ) -> Result<Vec<Event>, ActionError> {
        let mut next = self.clone();
        next.shared = std::mem::take(&mut self.shared);
        next.drawing = None;
        next.steps = steps;
        next.dealer.restart(given.clone());
        let result = next.apply_drawn(action.clone());
        let wanted = next.dealer.wanted();
        // The work kept for monster turns is checked against what it depends on when used, so
        // what a thrown-away run worked out is kept too.
        self.shared = std::mem::take(&mut next.shared);
        let events = result?;
        match wanted {
            Some(want) => {
                self.drawing = Some(Drawing {
                    action,
                    steps,
                    given,
                    want,
                });
                self.steps += 1;
                Ok(Vec::new())
            }
            None => {
                next.shared = std::mem::take(&mut self.shared);
                next.dealer.restart(Vec::new());
                next.steps = self.steps + 1;
                *self = next;
                Ok(events)
            }
        }
    }

    /// Whether the rules accept `action` now (the state is left as it is). It runs the action once
    /// on a copy, as `apply` does, with the cards it draws answered by the top of each pile: whether
    /// an action is accepted never depends on the cards it draws.
    pub fn accepts(&self, action: Action) -> bool {
        !self.phase.is_over() && self.drawing.is_none() && self.clone().apply_drawn(action).is_ok()
    }

    /// Applies one action that has every card it draws.
    pub(super) fn apply_drawn(&mut self, action: Action) -> Result<Vec<Event>, ActionError> {
        let mut ev = Vec::new();
        // Choosing the level and the party is possible only before anything else happens.
        let setting_up = matches!(action, Action::Setup(_));
        match action {
            Action::Setup(p) => self.set_up(&p, &mut ev)?,
            Action::Choose(i) => self.choose(i, false, &mut ev)?,
            Action::ChooseByDice => {
                if matches!(self.pending, Some(Pending::HeroModifier { .. })) {
                    return invalid("a hero's player chooses how the draw counts");
                }
                let i = self.seeded_pick(self.pending_options());
                self.choose(i, true, &mut ev)?;
            }
            Action::Draw(_) => return invalid("no card is being drawn"),
            _ if self.pending.is_some() => return Err(ActionError::PendingChoice),
            Action::Arrange(a) => self.arrange(&a, &mut ev)?,
            Action::Advance => self.advance(&mut ev)?,
            Action::SelectCards {
                hero,
                leading,
                other,
            } => self.select(hero, leading, other, &mut ev)?,
            Action::LongRest { hero, lose } => self.declare_long_rest(hero, lose, &mut ev)?,
            Action::ShortRest { hero } => self.short_rest(hero, &mut ev)?,
            Action::Play {
                card,
                half,
                basic,
                path,
                targets,
                ally,
            } => self.play(card, half, basic, &path, &targets, ally, &mut ev)?,
        }
        if !setting_up {
            self.setup_from = None;
        }
        self.run_special_rules(&mut ev);
        self.stepped.clear();
        self.steps += 1;
        self.check_end(&mut ev);
        Ok(ev)
    }

    /// Sets the board up again from the scenario's file for `party`.
    fn set_up(
        &mut self,
        party: &super::scenario::Party,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let Some(file) = self.setup_from.clone() else {
            return invalid("the level and the party are chosen before anything else happens");
        };
        let mut fresh = State::with_party(file, Some(party), self.seed, self.tie_breaker)
            .map_err(|e| ActionError::Invalid(e.0))?;
        fresh.steps = self.steps;
        fresh.shared = std::mem::take(&mut self.shared);
        *self = fresh;
        ev.push(Event::SetUp {
            level: self.scenario.level,
            characters: self.heroes.len(),
        });
        Ok(())
    }

    pub(super) fn check_end(&mut self, ev: &mut Vec<Event>) {
        if self.phase.is_over() || self.phase == Phase::Setup {
            return;
        }
        // A protected ally's death loses at once, even in the step that meets the goal.
        let fallen = self.protected_allies().find(|&i| !self.summons[i].alive);
        if let Some(i) = fallen {
            let name = self.summons[i].spec.name.clone();
            self.lose(format!("{name}, whom the heroes protect, is dead"), ev);
        } else if self.goal_met() {
            self.win(ev);
        } else if self.active_heroes().next().is_none() {
            self.lose("every hero is exhausted".into(), ev);
        }
    }

    /// The heroes lose, for `reason`.
    pub(super) fn lose(&mut self, reason: String, ev: &mut Vec<Event>) {
        self.phase = Phase::Defeat;
        self.pending = None;
        ev.push(Event::Defeat { reason });
        self.reckon(ev);
    }

    pub(super) fn win(&mut self, ev: &mut Vec<Event>) {
        self.phase = Phase::Victory;
        self.pending = None;
        ev.push(Event::Victory);
        self.reckon(ev);
    }

    /// Whether the scenario's goal is met now (a goal of rounds is met when its round ends).
    pub(super) fn goal_met(&self) -> bool {
        match self.victory() {
            Victory::AllFoesDead => self.living_monsters().next().is_none() && self.all_revealed(),
            Victory::Kill(name) => self
                .scenario
                .monster_index(name)
                .is_some_and(|k| self.cleared(|t| t == k)),
            Victory::Loot(n) => self.treasures_looted() >= *n as usize,
            Victory::Escape => {
                self.active_heroes().next().is_none() && self.heroes.iter().any(|x| x.escaped)
            }
            Victory::Survive(_) | Victory::Protect(_) => false,
            Victory::Destroy => self.cleared(|k| self.scenario.monsters[k].objective),
        }
    }

    /// How many treasure tiles have been looted.
    pub fn treasures_looted(&self) -> usize {
        self.treasures
            .iter()
            .filter(|t| t.looted_by.is_some())
            .count()
    }

    /// Whether the monsters of the types `of` picks are done with: one has stood on the board,
    /// none is alive, and no hidden room holds one for the party.
    fn cleared(&self, of: impl Fn(usize) -> bool) -> bool {
        if !self.monsters.iter().any(|m| of(m.kind))
            || self.monsters.iter().any(|m| m.alive && of(m.kind))
        {
            return false;
        }
        if self.all_revealed() {
            return true;
        }
        let Ok(layout) = self.scenario.layout("scenario", "") else {
            return false;
        };
        let characters = self.heroes.len();
        !layout
            .monsters
            .iter()
            .zip(&layout.monster_rooms)
            .any(|((_, letter), &room)| {
                !self.revealed.get(room).copied().unwrap_or(true)
                    && self.scenario.legend.get(letter).is_some_and(|p| {
                        p.rank(characters) != super::scenario::Rank::Absent
                            && self.scenario.monster_index(&p.monster).is_some_and(&of)
                    })
            })
    }

    /// The end of the scenario: each hero's tally.
    pub(super) fn reckon(&self, ev: &mut Vec<Event>) {
        ev.push(Event::Reckoned {
            tally: self.tally(),
        });
    }

    /// What each hero takes away, by hero: the money tokens it picked up at the level's coin
    /// value, with its treasure gold, items and experience (the level's bonus once the scenario
    /// is won, to every character, exhausted or not). Tokens still on the board are nobody's.
    pub fn tally(&self) -> Vec<Tally> {
        let level = self
            .scenario
            .level
            .unwrap_or_else(|| self.scenario.recommended_level());
        let table = super::scenario::LevelTable::of(level);
        let bonus = if self.phase == Phase::Victory {
            table.bonus_experience
        } else {
            0
        };
        self.heroes
            .iter()
            .map(|x| Tally {
                tokens: x.money,
                gold: x.money * table.coin + x.gold,
                experience: x.experience + bonus,
                bonus,
                items: x.items.clone(),
            })
            .collect()
    }

    /// Hero `h` picks up the money tokens and loots the treasure tiles within `range` of its hex
    /// (0: the hex itself). Treasures are looted in board order, after the money.
    pub(super) fn loot(&mut self, h: usize, range: u32, ev: &mut Vec<Event>) {
        let at = self.heroes[h].hex;
        self.loot_money(h, at, range, ev);
        for t in 0..self.treasures.len() {
            let tile = self.treasures[t];
            if tile.looted_by.is_some()
                || distance(at, tile.hex) > range
                || !self.map.0.contains(tile.hex)
                || self.heroes[h].exhausted
            {
                continue;
            }
            self.treasures[t].looted_by = Some(h);
            ev.push(Event::TreasureLooted {
                hero: h,
                treasure: t,
            });
            let Some(give) = self.scenario.treasures.get(&tile.letter).cloned() else {
                continue;
            };
            let x = &mut self.heroes[h];
            x.gold += give.gold;
            x.items.extend(give.item);
            for c in give.conditions {
                self.add_condition(FigureId::Hero(h), c, ev);
            }
            if give.damage > 0 {
                ev.push(Event::Suffered {
                    figure: FigureId::Hero(h),
                    amount: give.damage,
                    cause: Cause::Treasure,
                });
                self.damage(FigureId::Hero(h), give.damage, ev);
            }
        }
    }

    fn loot_money(&mut self, h: usize, at: Hex, range: u32, ev: &mut Vec<Event>) {
        let (taken, left): (Vec<Hex>, Vec<Hex>) = std::mem::take(&mut self.money)
            .into_iter()
            .partition(|&t| distance(at, t) <= range);
        self.money = left;
        if !taken.is_empty() {
            self.heroes[h].money += taken.len() as u32;
            ev.push(Event::MoneyLooted {
                hero: h,
                hexes: taken,
            });
        }
    }
}

/// Sorts hexes by `(q, r)`.
pub fn sorted(mut v: Vec<Hex>) -> Vec<Hex> {
    v.sort_by_key(|h| qr(*h));
    v
}
