//! Actions, events and the rules that apply one to the state: round start, hero turns, monster
//! turns (through the Gloomhaven foe rules and the modifier decks), round end, victory and defeat.

use serde::{Deserialize, Serialize};

use super::heroes;
use super::movement::range_field;
use super::scenario::{
    AbilityCard, Condition, Effect, Element, MonsterEffect, Segment, SummonSpec,
};
use super::shared::Shared;
use super::state::{
    Actor, Cond, Drawing, FigureId, FoePlan, FoeStage, Half, HeroPlay, Level, MonsterState,
    Pending, Phase, State, SummonState,
};
use super::targeting::{self, Enemy, MonsterAction, Situation};
use crate::chance::{Dealer, Picker, Want};
use crate::hex::sight::Sight;
use crate::hex::{Hex, Terrain, distance, hex, qr, step};
use crate::modifiers::attack::{CardOutcome, Origin, hit, resolve_attack};
use crate::modifiers::card::{Card, Effect as CardEffect, Element as CardElement};
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
}

fn invalid<T>(s: impl Into<String>) -> Result<T, ActionError> {
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
    /// The scenario is over: the money tokens each hero picked up, by hero.
    MoneyCounted {
        /// Tokens per hero, in hero order.
        tokens: Vec<u32>,
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

/// Initiative of a long-resting hero.
pub const LONG_REST_INITIATIVE: u32 = 99;

/// A spawn finds no standee once the game has held this many monsters, living and dead: it keeps
/// the state bounded and the table's ids apart (see `MONSTER_BASE`).
pub const MAX_MONSTERS: usize = 500;

fn card_condition(e: CardEffect) -> Option<Condition> {
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

fn card_element(e: CardElement) -> Option<Element> {
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
    fn run_drawing(
        &mut self,
        action: Action,
        steps: u64,
        given: Vec<usize>,
    ) -> Result<Vec<Event>, ActionError> {
        let mut next = self.clone();
        next.shared = std::mem::take(&mut self.shared);
        next.drawing = None;
        next.steps = steps;
        next.dealer = Dealer::new(given.clone());
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
                next.dealer = Dealer::default();
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
    fn apply_drawn(&mut self, action: Action) -> Result<Vec<Event>, ActionError> {
        let mut ev = Vec::new();
        match action {
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
        self.steps += 1;
        self.check_end(&mut ev);
        Ok(ev)
    }

    fn check_end(&mut self, ev: &mut Vec<Event>) {
        if self.phase.is_over() || self.phase == Phase::Setup {
            return;
        }
        if self.living_monsters().next().is_none() {
            self.phase = Phase::Victory;
            self.pending = None;
            ev.push(Event::Victory);
            self.count_money(ev);
        } else if self.active_heroes().next().is_none() {
            self.phase = Phase::Defeat;
            self.pending = None;
            ev.push(Event::Defeat {
                reason: "every hero is exhausted".into(),
            });
            self.count_money(ev);
        }
    }

    /// The end of the scenario: each hero counts the money tokens it picked up. Tokens still on the
    /// board are nobody's.
    fn count_money(&self, ev: &mut Vec<Event>) {
        ev.push(Event::MoneyCounted {
            tokens: self.heroes.iter().map(|x| x.money).collect(),
        });
    }

    /// Hero `h` picks up the money tokens within `range` of its hex (0: the hex itself).
    fn loot(&mut self, h: usize, range: u32, ev: &mut Vec<Event>) {
        let at = self.heroes[h].hex;
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

    // ----- round start -----

    fn begin_round(&mut self, ev: &mut Vec<Event>) {
        self.round += 1;
        self.phase = Phase::CardSelection;
        ev.push(Event::RoundStarted { round: self.round });
        for h in 0..self.heroes.len() {
            let x = &self.heroes[h];
            if !x.exhausted && x.hand.len() < 2 && x.discard.len() < 2 {
                self.exhaust(h, "cannot play two cards nor rest", ev);
            }
        }
    }

    fn exhaust(&mut self, h: usize, reason: &str, ev: &mut Vec<Event>) {
        let x = &mut self.heroes[h];
        x.exhausted = true;
        x.hp = x.hp.max(0);
        x.selected = None;
        x.long_rest = None;
        x.conditions.clear();
        ev.push(Event::HeroExhausted {
            hero: h,
            reason: reason.into(),
        });
        // Summons leave the board with their summoner.
        let gone: Vec<usize> = self
            .living_summons()
            .filter(|&i| self.summons[i].summoner == h)
            .collect();
        for &i in &gone {
            let x = &mut self.summons[i];
            x.alive = false;
            x.conditions.clear();
        }
        self.summon_queue.retain(|i| !gone.contains(i));
        if !gone.is_empty() {
            ev.push(Event::SummonsDismissed {
                hero: h,
                summons: gone,
            });
        }
    }

    fn select(
        &mut self,
        h: usize,
        leading: usize,
        other: usize,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if self.phase != Phase::CardSelection {
            return Err(ActionError::WrongPhase("cards are picked at round start"));
        }
        let x = self
            .heroes
            .get(h)
            .ok_or_else(|| ActionError::Invalid(format!("no hero {h}")))?;
        if x.exhausted {
            return invalid(format!("{} is exhausted", self.scenario.heroes[h].name));
        }
        if leading == other || !x.hand.contains(&leading) || !x.hand.contains(&other) {
            return invalid("pick two different cards from the hand");
        }
        let initiative = self.scenario.heroes[h].cards[leading].initiative;
        let x = &mut self.heroes[h];
        x.selected = Some([leading, other]);
        x.long_rest = None;
        x.initiative = initiative;
        x.second_initiative = self.scenario.heroes[h].cards[other].initiative;
        ev.push(Event::CardsSelected {
            hero: h,
            leading,
            other,
            initiative,
        });
        Ok(())
    }

    fn declare_long_rest(
        &mut self,
        h: usize,
        lose: usize,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if self.phase != Phase::CardSelection {
            return Err(ActionError::WrongPhase(
                "a long rest is declared at round start",
            ));
        }
        let x = self
            .heroes
            .get(h)
            .ok_or_else(|| ActionError::Invalid(format!("no hero {h}")))?;
        if x.exhausted {
            return invalid("that hero is exhausted");
        }
        if x.discard.len() < 2 || !x.discard.contains(&lose) {
            return invalid("a long rest needs two cards in the discard and loses one of them");
        }
        let x = &mut self.heroes[h];
        x.selected = None;
        x.long_rest = Some(lose);
        x.initiative = LONG_REST_INITIATIVE;
        x.second_initiative = targeting::RESTING;
        ev.push(Event::LongRestDeclared { hero: h });
        Ok(())
    }

    /// Reveals the monster ability cards and sets the turn order.
    fn reveal(&mut self, ev: &mut Vec<Event>) -> Result<(), ActionError> {
        let waiting: Vec<&str> = self
            .active_heroes()
            .filter(|&h| self.heroes[h].selected.is_none() && self.heroes[h].long_rest.is_none())
            .map(|h| self.scenario.heroes[h].name.as_str())
            .collect();
        if !waiting.is_empty() {
            return Err(ActionError::NotReady(format!(
                "waiting for cards from {}",
                waiting.join(", ")
            )));
        }
        let mut order: Vec<Actor> = Vec::new();
        for k in 0..self.kinds.len() {
            if !self.monsters.iter().any(|m| m.alive && m.kind == k) {
                continue;
            }
            let ks = &mut self.kinds[k];
            if ks.draw_pile.is_empty() {
                ks.draw_pile.append(&mut ks.discard);
            }
            if ks.draw_pile.is_empty() {
                continue;
            }
            // The top of the pile is its last card: outcome 0 draws it.
            let (pile, t) = (&ks.draw_pile, &self.scenario.monsters[k]);
            let i = self.dealer.pick(pile.len(), || Want {
                what: format!("the {} ability card", t.name),
                options: pile.iter().rev().map(|&c| t.deck[c].name.clone()).collect(),
            });
            let card = ks.draw_pile.remove(ks.draw_pile.len() - 1 - i);
            ks.current = Some(card);
            let initiative = self.scenario.monsters[k].deck[card].initiative;
            ev.push(Event::AbilityRevealed {
                kind: k,
                card,
                initiative,
            });
            order.push(Actor::Monsters(k));
        }
        order.extend(self.active_heroes().map(Actor::Hero));
        // A stable sort: actors the rules cannot order stay together, and the players order them.
        order.sort_by_key(|&a| self.order_key(a));
        self.order = order;
        self.turn = 0;
        self.settle_order_from(0, ev);
        Ok(())
    }

    /// Where an actor's initiative puts it in the turn order, lower first. Heroes playing cards go
    /// before monsters of the same initiative and settle ties by their other card; long-resting heroes
    /// go after everyone. Equal keys are ties the players break.
    pub fn order_key(&self, a: Actor) -> (u32, u8, u32) {
        match a {
            Actor::Hero(h) if self.heroes[h].long_rest.is_some() => (LONG_REST_INITIATIVE, 2, 0),
            Actor::Hero(h) => (
                self.heroes[h].initiative,
                0,
                self.heroes[h].second_initiative,
            ),
            Actor::Monsters(k) => {
                let init = self.kinds[k].current.map_or(LONG_REST_INITIATIVE, |c| {
                    self.scenario.monsters[k].deck[c].initiative
                });
                (init, 1, 0)
            }
        }
    }

    /// Asks the players to order the first tie at or after `from` in the turn order, or, when none
    /// is left, announces the order and starts the first turn.
    fn settle_order_from(&mut self, from: usize, ev: &mut Vec<Event>) {
        let mut i = from;
        while i + 1 < self.order.len() {
            let key = self.order_key(self.order[i]);
            let len = self.order[i..]
                .iter()
                .take_while(|&&a| self.order_key(a) == key)
                .count();
            if len > 1 {
                let names: Vec<String> = self.order[i..i + len]
                    .iter()
                    .map(|&a| self.actor_name(a))
                    .collect();
                ev.push(Event::TieToBreak {
                    about: format!("{}: same initiative, who acts first?", names.join(", ")),
                    options: len,
                });
                self.pending = Some(Pending::TurnOrder { start: i, len });
                return;
            }
            i += 1;
        }
        ev.push(Event::TurnOrder {
            order: self.order.clone(),
        });
        self.start_actor(ev);
    }

    /// A turn order entry's name: the hero, or the monster type.
    pub fn actor_name(&self, a: Actor) -> String {
        match a {
            Actor::Hero(h) => self.scenario.heroes[h].name.clone(),
            Actor::Monsters(k) => self.scenario.monsters[k].name.clone(),
        }
    }

    // ----- turn sequencing -----

    /// Starts the turn of `order[turn]`, skipping actors that cannot act, or ends the round.
    fn start_actor(&mut self, ev: &mut Vec<Event>) {
        loop {
            if self.living_monsters().next().is_none() || self.active_heroes().next().is_none() {
                return;
            }
            let Some(&actor) = self.order.get(self.turn) else {
                self.phase = Phase::RoundEnd;
                return;
            };
            match actor {
                Actor::Hero(h) => {
                    if self.heroes[h].exhausted {
                        self.turn += 1;
                        self.summons_acted = false;
                        continue;
                    }
                    // The hero's summons act just before it, each on its own, in the order summoned.
                    if !self.summons_acted {
                        self.summons_acted = true;
                        self.summon_queue = self
                            .living_summons()
                            .filter(|&i| self.summons[i].summoner == h)
                            .collect();
                        if self.next_summon() {
                            return;
                        }
                    }
                    let f = FigureId::Hero(h);
                    self.phase = Phase::HeroTurn {
                        hero: h,
                        played: None,
                    };
                    ev.push(Event::TurnStarted { figure: f });
                    if !self.start_of_turn(f, ev) {
                        self.turn += 1;
                        self.summons_acted = false;
                        continue;
                    }
                    if self.has(f, Condition::Stun) && self.heroes[h].long_rest.is_none() {
                        ev.push(Event::Stunned { figure: f });
                        self.end_hero_turn(h, &[], ev);
                        continue;
                    }
                    return;
                }
                Actor::Monsters(k) => {
                    self.queue = self
                        .monsters
                        .iter()
                        .enumerate()
                        // A monster spawned this round does not act in it.
                        .filter(|(_, m)| m.alive && m.kind == k && m.arrived < self.round)
                        .map(|(i, _)| i)
                        .collect();
                    if self.next_in_queue() {
                        return;
                    }
                    self.turn += 1;
                }
            }
        }
    }

    /// Moves to the next monster of the acting type; false when none is left.
    fn next_in_queue(&mut self) -> bool {
        while !self.queue.is_empty() {
            let m = self.queue.remove(0);
            if self.monsters[m].alive {
                self.phase = Phase::FoeTurn {
                    monster: m,
                    stage: FoeStage::Targeting,
                };
                self.plan = None;
                return true;
            }
        }
        false
    }

    /// Moves to the next summon still to act before its summoner; false when none is left.
    fn next_summon(&mut self) -> bool {
        while !self.summon_queue.is_empty() {
            let i = self.summon_queue.remove(0);
            if self.summons[i].alive {
                self.phase = Phase::SummonTurn {
                    summon: i,
                    stage: FoeStage::Targeting,
                };
                self.plan = None;
                return true;
            }
        }
        false
    }

    /// Start-of-turn effects (wound). Returns false if the figure died of them.
    fn start_of_turn(&mut self, f: FigureId, ev: &mut Vec<Event>) -> bool {
        if self.has(f, Condition::Wound) {
            ev.push(Event::Suffered {
                figure: f,
                amount: 1,
                cause: Cause::Wound,
            });
            return self.damage(f, 1, ev);
        }
        true
    }

    /// End-of-turn bookkeeping shared by heroes and monsters: infusions, condition expiry.
    fn end_turn_common(&mut self, f: FigureId, ev: &mut Vec<Event>) {
        for e in std::mem::take(&mut self.infusing) {
            self.elements[e.index()] = Level::Strong;
        }
        let conds = self.conditions_mut(f);
        conds.retain(|c| c.condition.until_healed() || c.fresh);
        for c in conds.iter_mut() {
            c.fresh = false;
        }
        ev.push(Event::TurnEnded { figure: f });
    }

    fn end_hero_turn(&mut self, h: usize, played: &[(usize, Half, bool)], ev: &mut Vec<Event>) {
        let spec = &self.scenario.heroes[h];
        let x = &mut self.heroes[h];
        if let Some(sel) = x.selected.take() {
            for c in sel {
                let lost = played.iter().any(|&(pc, half, basic)| {
                    pc == c
                        && !basic
                        && if half == Half::Top {
                            spec.cards[c].top.lost
                        } else {
                            spec.cards[c].bottom.lost
                        }
                });
                x.hand.retain(|&y| y != c);
                if lost {
                    x.lost.push(c);
                } else {
                    x.discard.push(c);
                }
            }
        }
        x.long_rest = None;
        self.summons_acted = false;
        if !x.exhausted {
            // End-of-turn looting: the money on the hero's own hex.
            self.loot(h, 0, ev);
            self.end_turn_common(FigureId::Hero(h), ev);
        } else {
            // An exhausted hero's turn ends with it: its infusions are lost, as a dead monster's.
            self.infusing.clear();
        }
        self.turn += 1;
        self.start_actor(ev);
    }

    fn end_summon_turn(&mut self, i: usize, ev: &mut Vec<Event>) {
        if self.summons[i].alive {
            self.end_turn_common(FigureId::Summon(i), ev);
        } else {
            self.infusing.clear();
        }
        self.plan = None;
        // The next summon of the same summoner, or the summoner's own turn.
        if !self.next_summon() {
            self.start_actor(ev);
        }
    }

    fn end_foe_turn(&mut self, m: usize, ev: &mut Vec<Event>) {
        if self.monsters[m].alive {
            self.end_turn_common(FigureId::Monster(m), ev);
        } else {
            self.infusing.clear();
        }
        self.plan = None;
        if !self.next_in_queue() {
            self.turn += 1;
            self.start_actor(ev);
        }
    }

    // ----- advance -----

    fn advance(&mut self, ev: &mut Vec<Event>) -> Result<(), ActionError> {
        match self.phase {
            Phase::Setup => {
                self.begin_round(ev);
                Ok(())
            }
            Phase::CardSelection => self.reveal(ev),
            Phase::HeroTurn { hero, played } => {
                if let Some(lose) = self.heroes[hero].long_rest {
                    self.long_rest_now(hero, lose, ev);
                    self.end_hero_turn(hero, &[], ev);
                } else {
                    let done: Vec<(usize, Half, bool)> = played.into_iter().collect();
                    self.end_hero_turn(hero, &done, ev);
                }
                Ok(())
            }
            Phase::FoeTurn { monster, stage } => {
                match stage {
                    FoeStage::Targeting => self.foe_targeting(monster, ev),
                    FoeStage::Movement => self.foe_movement(monster, ev),
                    FoeStage::Attack { next } => self.foe_attack(monster, next, ev),
                }
                Ok(())
            }
            Phase::SummonTurn { summon, stage } => {
                match stage {
                    FoeStage::Targeting => self.summon_targeting(summon, ev),
                    FoeStage::Movement => self.summon_movement(summon, ev),
                    FoeStage::Attack { next } => self.summon_attack(summon, next, ev),
                }
                Ok(())
            }
            Phase::RoundEnd => {
                self.end_round(ev);
                Ok(())
            }
            Phase::Victory | Phase::Defeat => Err(ActionError::GameOver),
        }
    }

    fn long_rest_now(&mut self, h: usize, lose: usize, ev: &mut Vec<Event>) {
        let x = &mut self.heroes[h];
        x.discard.retain(|&c| c != lose);
        x.lost.push(lose);
        let mut back = std::mem::take(&mut x.discard);
        x.hand.append(&mut back);
        x.hand.sort_unstable();
        let healed = self.heal(FigureId::Hero(h), 2, ev);
        ev.push(Event::Rested {
            hero: h,
            long: true,
            lost: lose,
            healed,
        });
    }

    fn short_rest(&mut self, h: usize, ev: &mut Vec<Event>) -> Result<(), ActionError> {
        if self.phase != Phase::RoundEnd {
            return Err(ActionError::WrongPhase("a short rest happens at round end"));
        }
        if h >= self.heroes.len() {
            return Err(ActionError::Invalid(format!("no hero {h}")));
        }
        if !self.may_short_rest(h) {
            return invalid(
                "a short rest needs an active hero with two cards in the discard, once a round",
            );
        }
        let (discard, spec) = (&self.heroes[h].discard, &self.scenario.heroes[h]);
        let i = self.dealer.pick(discard.len(), || Want {
            what: format!("the card {}'s short rest loses", spec.name),
            options: discard
                .iter()
                .map(|&c| spec.cards[c].name.clone())
                .collect(),
        });
        let x = &mut self.heroes[h];
        let lose = x.discard.remove(i);
        x.lost.push(lose);
        let mut back = std::mem::take(&mut x.discard);
        x.hand.append(&mut back);
        x.hand.sort_unstable();
        x.short_rested = true;
        ev.push(Event::Rested {
            hero: h,
            long: false,
            lost: lose,
            healed: 0,
        });
        Ok(())
    }

    fn end_round(&mut self, ev: &mut Vec<Event>) {
        for k in 0..self.kinds.len() {
            let shuffle = self.kinds[k]
                .current
                .is_some_and(|c| self.scenario.monsters[k].deck[c].shuffle);
            let ks = &mut self.kinds[k];
            if let Some(c) = ks.current.take() {
                ks.discard.push(c);
            }
            // Every card of the pile is equally likely to be drawn next: no order to shuffle.
            if shuffle {
                ks.draw_pile.append(&mut ks.discard);
            }
            ks.consumed.clear();
            ks.resolved_elements = false;
            ks.infuser = None;
        }
        self.monster_deck.end_of_round();
        for x in &mut self.heroes {
            x.deck.end_of_round();
            x.shield = 0;
            x.short_rested = false;
            x.initiative = 0;
            x.second_initiative = 0;
        }
        for m in &mut self.monsters {
            m.shield = 0;
        }
        for x in &mut self.summons {
            x.shield = 0;
        }
        self.summons_acted = false;
        for l in &mut self.elements {
            *l = match l {
                Level::Strong => Level::Waning,
                _ => Level::Inert,
            };
        }
        self.order.clear();
        self.turn = 0;
        ev.push(Event::RoundEnded { round: self.round });
        if self.scenario.round_limit.is_some_and(|n| self.round >= n) {
            self.phase = Phase::Defeat;
            ev.push(Event::Defeat {
                reason: format!("round {} ended with foes left", self.round),
            });
            self.count_money(ev);
            return;
        }
        self.begin_round(ev);
    }

    // ----- damage, healing, conditions -----

    /// Deals damage outside the modifier pipeline. Returns whether the figure is still alive.
    fn damage(&mut self, f: FigureId, amount: u32, ev: &mut Vec<Event>) -> bool {
        match f {
            FigureId::Hero(h) => {
                self.heroes[h].hp -= amount as i32;
                if self.heroes[h].hp <= 0 {
                    self.heroes[h].hp = 0;
                    ev.push(Event::FigureDied {
                        figure: f,
                        hex: self.heroes[h].hex,
                    });
                    self.exhaust(h, "hit points ran out", ev);
                    return false;
                }
            }
            FigureId::Monster(m) => {
                self.monsters[m].hp -= amount as i32;
                if self.monsters[m].hp <= 0 {
                    self.kill(m, ev);
                    return false;
                }
            }
            FigureId::Summon(i) => {
                self.summons[i].hp -= amount as i32;
                if self.summons[i].hp <= 0 {
                    self.kill_summon(i, ev);
                    return false;
                }
            }
        }
        true
    }

    /// A summon dies: it is removed and, being summoned, leaves no money token.
    fn kill_summon(&mut self, i: usize, ev: &mut Vec<Event>) {
        let x = &mut self.summons[i];
        x.hp = 0;
        x.alive = false;
        x.conditions.clear();
        ev.push(Event::FigureDied {
            figure: FigureId::Summon(i),
            hex: x.hex,
        });
        self.summon_queue.retain(|&q| q != i);
    }

    fn kill(&mut self, m: usize, ev: &mut Vec<Event>) {
        let x = &mut self.monsters[m];
        x.hp = 0;
        x.alive = false;
        x.conditions.clear();
        let hex = x.hex;
        ev.push(Event::FigureDied {
            figure: FigureId::Monster(m),
            hex,
        });
        // Only a monster the scenario placed leaves a money token; a spawned one leaves none.
        if x.origin == Origin::Placed {
            self.money.push(hex);
            ev.push(Event::MoneyDropped {
                figure: FigureId::Monster(m),
                hex,
            });
        }
        self.queue.retain(|&q| q != m);
    }

    /// Heals; poison is removed instead of healing, wound is removed too. Returns hit points gained.
    pub(crate) fn heal(&mut self, f: FigureId, amount: u32, ev: &mut Vec<Event>) -> u32 {
        let poisoned = self.has(f, Condition::Poison);
        self.conditions_mut(f)
            .retain(|c| !matches!(c.condition, Condition::Poison | Condition::Wound));
        if poisoned {
            ev.push(Event::Healed {
                figure: f,
                amount: 0,
            });
            return 0;
        }
        let (hp, max) = match f {
            FigureId::Hero(h) => {
                let x = &mut self.heroes[h];
                (&mut x.hp, x.max_hp)
            }
            FigureId::Monster(m) => {
                let x = &mut self.monsters[m];
                (&mut x.hp, x.max_hp)
            }
            FigureId::Summon(i) => {
                let x = &mut self.summons[i];
                (&mut x.hp, x.spec.hp as i32)
            }
        };
        let gained = (amount as i32).min(max - *hp).max(0);
        *hp += gained;
        ev.push(Event::Healed {
            figure: f,
            amount: gained as u32,
        });
        gained as u32
    }

    fn add_condition(&mut self, f: FigureId, c: Condition, ev: &mut Vec<Event>) {
        if !self.alive(f) {
            return;
        }
        let fresh = self.acting() == Some(f);
        let conds = self.conditions_mut(f);
        match conds.iter_mut().find(|x| x.condition == c) {
            Some(x) => x.fresh |= fresh,
            None => conds.push(Cond {
                condition: c,
                fresh,
            }),
        }
        ev.push(Event::ConditionGained {
            figure: f,
            condition: c,
        });
    }

    /// The element a wild infusion makes: the attacker's pick, which the game makes as the first
    /// element (in board order: fire, ice, air, earth, light, dark) that is inert and not already
    /// being infused; none when every element is taken.
    pub fn wild_element(&self) -> Option<Element> {
        Element::ALL
            .into_iter()
            .find(|e| self.elements[e.index()] == Level::Inert && !self.infusing.contains(e))
    }

    fn infuse(&mut self, e: Element, by: FigureId, ev: &mut Vec<Event>) {
        if !self.infusing.contains(&e) {
            self.infusing.push(e);
        }
        ev.push(Event::ElementInfused { element: e, by });
    }

    /// Applies one modifier outcome of an attack to its target, and its effects to the attacker.
    fn land_hit(
        &mut self,
        attacker: FigureId,
        target: FigureId,
        outcome: &CardOutcome,
        extra: &[Condition],
        trace: Vec<String>,
        ev: &mut Vec<Event>,
    ) {
        let hp = match target {
            FigureId::Hero(h) => self.heroes[h].hp,
            FigureId::Monster(m) => self.monsters[m].hp,
            FigureId::Summon(i) => self.summons[i].hp,
        };
        let origin = match target {
            FigureId::Hero(_) => Origin::Hero,
            FigureId::Monster(m) => self.monsters[m].origin,
            FigureId::Summon(_) => Origin::Summoned,
        };
        let result = hit(hp, origin, outcome);
        let mut trace = trace;
        trace.extend(result.trace.iter().cloned());
        ev.push(Event::AttackResolved {
            attacker,
            target,
            // An attack value below 0 counts as 0.
            value: outcome.value.max(0),
            damage: result.damage,
            trace,
        });
        if result.dies {
            match target {
                FigureId::Hero(h) => {
                    self.heroes[h].hp = 0;
                    ev.push(Event::FigureDied {
                        figure: target,
                        hex: self.heroes[h].hex,
                    });
                    self.exhaust(h, "hit points ran out", ev);
                }
                FigureId::Monster(m) => self.kill(m, ev),
                FigureId::Summon(i) => self.kill_summon(i, ev),
            }
        } else {
            match target {
                FigureId::Hero(h) => self.heroes[h].hp = result.hp_left,
                FigureId::Monster(m) => self.monsters[m].hp = result.hp_left,
                FigureId::Summon(i) => self.summons[i].hp = result.hp_left,
            }
            if !outcome.nullified {
                for &c in extra {
                    self.add_condition(target, c, ev);
                }
            }
            for e in &result.on_target {
                if let Some(c) = card_condition(*e) {
                    self.add_condition(target, c, ev);
                } else if *e == CardEffect::Curse {
                    // A summon draws from its summoner's deck: the curse goes there.
                    let deck = self.deck_owner(target);
                    match deck {
                        FigureId::Hero(h) => self.heroes[h].deck.add_curse(),
                        _ => self.monster_deck.add_curse(),
                    }
                    ev.push(Event::CardShuffledIn { deck, curse: true });
                }
            }
        }
        if !self.alive(attacker) {
            return;
        }
        for e in &result.on_attacker {
            match *e {
                CardEffect::Heal(n) => {
                    self.heal(attacker, n, ev);
                }
                CardEffect::Shield(n) => {
                    match attacker {
                        FigureId::Hero(h) => self.heroes[h].shield += n,
                        FigureId::Monster(m) => self.monsters[m].shield += n,
                        FigureId::Summon(i) => self.summons[i].shield += n,
                    }
                    ev.push(Event::ShieldGained {
                        figure: attacker,
                        amount: n,
                    });
                }
                CardEffect::Infuse(el) => {
                    if let Some(el) = card_element(el).or_else(|| self.wild_element()) {
                        self.infuse(el, attacker, ev);
                    }
                }
                CardEffect::Bless => {
                    let deck = self.deck_owner(attacker);
                    match deck {
                        FigureId::Hero(h) => self.heroes[h].deck.add_bless(),
                        _ => self.monster_deck.add_bless(),
                    }
                    ev.push(Event::CardShuffledIn { deck, curse: false });
                }
                _ => {}
            }
        }
    }

    /// Whose modifier deck a figure draws from: a hero's own, a summon's summoner's, and for a
    /// monster the shared one (named by the monster).
    pub fn deck_owner(&self, f: FigureId) -> FigureId {
        match f {
            FigureId::Summon(i) => FigureId::Hero(self.summons[i].summoner),
            other => other,
        }
    }

    /// Empty hexes next to `at` where a new figure may be placed, in board order: no figure, no
    /// wall, obstacle, trap or hazard, and no thin wall between.
    pub fn free_hexes_next_to(&self, at: Hex) -> Vec<Hex> {
        let mut out: Vec<Hex> = (0..6)
            .map(|d| step(at, d))
            .filter(|&h| {
                self.map.0.adjacent(at, h)
                    && matches!(
                        self.map.0.terrain(h),
                        Some(Terrain::Floor | Terrain::Difficult | Terrain::Icy)
                    )
                    && self.figure_at(h).is_none()
            })
            .collect();
        out.sort_by_key(|h| qr(*h));
        out
    }

    /// Hero `hero` summons `spec` on `at` (an empty hex next to it) or, when no hex is named, on
    /// the first such hex in board order; with no room the summon does not happen.
    fn summon(
        &mut self,
        hero: usize,
        spec: &SummonSpec,
        at: Option<Hex>,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let free = self.free_hexes_next_to(self.heroes[hero].hex);
        let hex = match at {
            Some(h) if free.contains(&h) => h,
            Some(h) => {
                return invalid(format!(
                    "summon: ({}, {}) is not an empty hex next to the hero",
                    h.x, h.y
                ));
            }
            None => match free.first() {
                Some(&h) => h,
                None => return Ok(()),
            },
        };
        let summon = self.summons.len();
        self.summons.push(SummonState {
            summoner: hero,
            spec: spec.clone(),
            hp: spec.hp as i32,
            hex,
            alive: true,
            conditions: Vec::new(),
            shield: 0,
        });
        ev.push(Event::Summoned { summon, hero, hex });
        Ok(())
    }

    /// Monster `m` spawns a normal monster of type `name` on the empty hex next to it that is
    /// closest (in proximity) to an enemy, board order breaking what is left; nothing when the type
    /// has no standee left or there is no room.
    fn spawn(&mut self, m: usize, name: &str, ev: &mut Vec<Event>) {
        let Some(kind) = self.scenario.monster_index(name) else {
            return;
        };
        let t = &self.scenario.monsters[kind];
        let standing = self
            .monsters
            .iter()
            .filter(|x| x.alive && x.kind == kind)
            .count();
        if standing >= t.standees as usize || self.monsters.len() >= MAX_MONSTERS {
            return;
        }
        let map = &self.map.0;
        let enemies: Vec<usize> = self
            .active_heroes()
            .map(|h| self.heroes[h].hex)
            .chain(self.living_summons().map(|i| self.summons[i].hex))
            .filter_map(|h| map.index_of(h).map(usize::from))
            .collect();
        let Some(hex) = self
            .free_hexes_next_to(self.monsters[m].hex)
            .into_iter()
            .min_by_key(|&h| {
                let near = map.index_of(h).map_or(u16::MAX, |i| {
                    let field = range_field(map, usize::from(i));
                    enemies.iter().map(|&e| field[e]).min().unwrap_or(u16::MAX)
                });
                (near, qr(h))
            })
        else {
            return;
        };
        let number = self
            .monsters
            .iter()
            .filter(|x| x.kind == kind)
            .map(|x| x.number)
            .max()
            .unwrap_or(0)
            + 1;
        let hp = t.normal.hp as i32;
        let monster = self.monsters.len();
        self.monsters.push(MonsterState {
            kind,
            number,
            elite: false,
            hp,
            max_hp: hp,
            hex,
            alive: true,
            conditions: Vec::new(),
            shield: 0,
            origin: Origin::Spawned,
            arrived: self.round,
        });
        ev.push(Event::Spawned {
            monster,
            by: FigureId::Monster(m),
            hex,
        });
    }

    // ----- summon turns -----

    /// The summon's move and attack as the focus rules read them (a single-target attack with its
    /// printed move, range and value), after its conditions.
    pub fn summon_action(&self, i: usize) -> (MonsterAction, FoePlan) {
        let x = &self.summons[i];
        let f = FigureId::Summon(i);
        let action = MonsterAction {
            move_points: if self.has(f, Condition::Immobilize) {
                0
            } else {
                x.spec.movement
            },
            range: x.spec.range,
            targets: u32::from(!self.has(f, Condition::Disarm)),
            aoe: Vec::new(),
            aoe_melee: false,
            flying: false,
            jumping: false,
            teleport: false,
            muddled: self.has(f, Condition::Muddle),
        };
        let base = FoePlan {
            end: x.hex,
            path: Vec::new(),
            targets: Vec::new(),
            focus: Vec::new(),
            aoe: Vec::new(),
            attack: x.spec.attack as i32,
            range: x.spec.range,
            pierce: 0,
            conditions: Vec::new(),
        };
        (action, base)
    }

    /// Every outcome the focus rules allow this summon now, read from the heroes' side: heroes and
    /// other summons are its allies, monsters its enemies, ranked by their type's initiative and
    /// then their place in the type's turn.
    pub fn summon_options(&self, i: usize) -> (Vec<FoePlan>, Vec<Hex>, Vec<String>) {
        let (action, base) = self.summon_action(i);
        let allies: Vec<Hex> = self
            .active_heroes()
            .map(|h| self.heroes[h].hex)
            .chain(
                self.living_summons()
                    .filter(|&j| j != i)
                    .map(|j| self.summons[j].hex),
            )
            .collect();
        let mut places = vec![0u32; self.kinds.len()];
        let mut enemies = Vec::new();
        for m in self.living_monsters() {
            let x = &self.monsters[m];
            let place = places[x.kind];
            places[x.kind] += 1;
            if self.has(FigureId::Monster(m), Condition::Invisible) {
                continue;
            }
            enemies.push(Enemy {
                hex: x.hex,
                initiative: self.kinds[x.kind]
                    .current
                    .map_or(LONG_REST_INITIATIVE, |c| {
                        self.scenario.monsters[x.kind].deck[c].initiative
                    }),
                second: 0,
                order: place,
                name: self.name(FigureId::Monster(m)),
            });
        }
        let s = Situation {
            map: &self.map.0,
            active: self.summons[i].hex,
            allies: &allies,
            enemies: &enemies,
            action: &action,
            edition: self.scenario.edition(),
        };
        Self::plans(targeting::decide(&s), &base)
    }

    /// The plans of a decision of the focus rules, on top of `base`.
    fn plans(
        decision: Result<targeting::Decision, targeting::SituationError>,
        base: &FoePlan,
    ) -> (Vec<FoePlan>, Vec<Hex>, Vec<String>) {
        match decision {
            Ok(d) => {
                let options = d
                    .options
                    .into_iter()
                    .map(|c| FoePlan {
                        end: c.end,
                        path: c.path,
                        targets: c.targets,
                        focus: c.focus,
                        aoe: c.aoe,
                        ..base.clone()
                    })
                    .collect();
                (options, d.focus, d.trace)
            }
            Err(e) => (
                Vec::new(),
                Vec::new(),
                vec![format!("the position cannot be solved: {e}")],
            ),
        }
    }

    fn summon_targeting(&mut self, i: usize, ev: &mut Vec<Event>) {
        let f = FigureId::Summon(i);
        ev.push(Event::TurnStarted { figure: f });
        if !self.start_of_turn(f, ev) {
            self.end_summon_turn(i, ev);
            return;
        }
        if self.has(f, Condition::Stun) {
            ev.push(Event::Stunned { figure: f });
            self.end_summon_turn(i, ev);
            return;
        }
        let (options, focus, trace) = self.summon_options(i);
        let focus_ids: Vec<FigureId> = focus.iter().filter_map(|h| self.figure_at(*h)).collect();
        ev.push(Event::SummonTargeted {
            summon: i,
            focus: focus_ids,
            options: options.len(),
            trace: trace.clone(),
        });
        match options.len() {
            0 => self.plan = Some(self.summon_action(i).1),
            1 => self.plan = options.into_iter().next(),
            n => {
                ev.push(Event::TieToBreak {
                    about: format!("{}: {n} outcomes are equally allowed", self.name(f)),
                    options: n,
                });
                self.pending = Some(Pending::SummonOption {
                    summon: i,
                    options,
                    trace,
                });
            }
        }
        self.phase = Phase::SummonTurn {
            summon: i,
            stage: FoeStage::Movement,
        };
    }

    fn summon_movement(&mut self, i: usize, ev: &mut Vec<Event>) {
        let f = FigureId::Summon(i);
        let path = self
            .plan
            .as_ref()
            .map(|p| p.path.clone())
            .unwrap_or_default();
        if !path.is_empty() {
            ev.push(Event::PathChosen {
                figure: f,
                path: path.clone(),
            });
        }
        for &h in &path {
            self.summons[i].hex = h;
            if !self.enter_hex(f, h, ev) {
                self.end_summon_turn(i, ev);
                return;
            }
        }
        self.phase = Phase::SummonTurn {
            summon: i,
            stage: FoeStage::Attack { next: 0 },
        };
    }

    fn summon_attack(&mut self, i: usize, next: usize, ev: &mut Vec<Event>) {
        let f = FigureId::Summon(i);
        let Some(plan) = self.plan.clone() else {
            self.end_summon_turn(i, ev);
            return;
        };
        let Some(&th) = plan.targets.get(next) else {
            self.end_summon_turn(i, ev);
            return;
        };
        self.phase = Phase::SummonTurn {
            summon: i,
            stage: FoeStage::Attack { next: next + 1 },
        };
        let Some(FigureId::Monster(m)) = self.figure_at(th) else {
            return;
        };
        let target = FigureId::Monster(m);
        let mut attack = plan.attack;
        if self.has(target, Condition::Poison) {
            attack += 1;
        }
        let adjacent = self.map.0.adjacent(self.summons[i].hex, th);
        let mode = Mode::combine(
            self.has(f, Condition::Strengthen),
            self.has(f, Condition::Muddle) || (plan.range > 0 && adjacent),
        );
        // A summon draws from its summoner's modifier deck.
        let hero = self.summons[i].summoner;
        let whose = format!("{}'s", self.scenario.heroes[hero].name);
        let draw = self.heroes[hero]
            .deck
            .draw(mode, attack, &whose, &mut self.dealer);
        ev.push(Event::CardsDrawn {
            attacker: f,
            target,
            mode,
            cards: draw.drawn.iter().map(Card::name).collect(),
        });
        let result = resolve_attack(&draw, self.target_shield(target), plan.pierce);
        if result.is_choice() {
            ev.push(Event::TieToBreak {
                about: format!(
                    "{}'s modifier cards against {}",
                    self.name(f),
                    self.name(target)
                ),
                options: result.options.len(),
            });
            self.pending = Some(Pending::SummonModifier {
                summon: i,
                target: m,
                result,
            });
            self.phase = Phase::SummonTurn {
                summon: i,
                stage: FoeStage::Attack { next },
            };
            return;
        }
        let trace = result.trace.clone();
        self.land_hit(f, target, result.best(), &[], trace, ev);
    }

    // ----- monster turns -----

    fn card_of(&self, kind: usize) -> &AbilityCard {
        let c = self.kinds[kind].current.unwrap_or(0);
        &self.scenario.monsters[kind].deck[c]
    }

    /// The move and attack the monster resolves next: the segment of its card at `card_step`.
    pub fn segment(&self, m: usize) -> Option<Segment<'_>> {
        self.card_of(self.monsters[m].kind).segment(self.card_step)
    }

    /// The rule module's view of this monster's next move and attack (the segment of its card at
    /// `card_step`), after conditions and consumed elements.
    pub fn monster_action(&self, m: usize) -> (MonsterAction, FoePlan) {
        self.monster_action_at(m, self.card_step)
    }

    /// [`State::monster_action`] for the segment of its card that starts at action `step`.
    pub fn monster_action_at(&self, m: usize, step: usize) -> (MonsterAction, FoePlan) {
        let x = &self.monsters[m];
        let t = &self.scenario.monsters[x.kind];
        let stats = if x.elite { &t.elite } else { &t.normal };
        let seg = self.card_of(x.kind).segment(step);
        let f = FigureId::Monster(m);
        let movement = seg.and_then(|s| s.movement);
        let card_attack = seg.and_then(|s| s.attack);
        let consume = card_attack
            .and_then(|a| a.consume)
            .filter(|c| self.kinds[x.kind].consumed.contains(&c.element));
        let move_points = match movement {
            Some((d, _)) if !self.has(f, Condition::Immobilize) => {
                (stats.movement as i32 + d).max(0) as u32
            }
            _ => 0,
        };
        let range = card_attack.and_then(|a| a.range).unwrap_or(stats.range);
        let targets = match card_attack {
            Some(a) if !self.has(f, Condition::Disarm) => a.targets,
            _ => 0,
        };
        let attack = card_attack
            .map_or(0, |a| {
                stats.attack as i32 + a.value + consume.map_or(0, |c| c.attack)
            })
            .max(0);
        let mut conditions = stats.conditions.clone();
        if let Some(a) = card_attack {
            conditions.extend(a.conditions.iter().copied());
        }
        if let Some(c) = consume {
            conditions.extend(c.conditions.iter().copied());
        }
        let aoe: Vec<Hex> = card_attack
            .map(|a| a.aoe.iter().map(|&(q, r)| hex(q, r)).collect())
            .unwrap_or_default();
        let action = MonsterAction {
            move_points,
            range,
            targets,
            aoe_melee: !aoe.is_empty() && range == 0,
            aoe: if targets == 0 { Vec::new() } else { aoe },
            flying: t.flying,
            jumping: movement.is_some_and(|(_, jump)| jump),
            teleport: false,
            muddled: self.has(f, Condition::Muddle),
        };
        let base = FoePlan {
            end: x.hex,
            path: Vec::new(),
            targets: Vec::new(),
            focus: Vec::new(),
            aoe: Vec::new(),
            attack,
            range,
            pierce: card_attack.map_or(0, |a| a.pierce),
            conditions,
        };
        (action, base)
    }

    /// Every outcome the rules allow this monster now, with the decision's trace.
    pub fn foe_options(&self, m: usize) -> (Vec<FoePlan>, Vec<Hex>, Vec<String>) {
        self.foe_options_with(m, &mut Shared::default())
    }

    /// [`State::foe_options`], reusing and adding to what earlier monster turns worked out.
    fn foe_options_with(
        &self,
        m: usize,
        shared: &mut Shared,
    ) -> (Vec<FoePlan>, Vec<Hex>, Vec<String>) {
        let (action, base) = self.monster_action(m);
        let me = self.monsters[m].hex;
        let allies: Vec<Hex> = self
            .monsters
            .iter()
            .enumerate()
            .filter(|(i, x)| x.alive && *i != m)
            .map(|(_, x)| x.hex)
            .collect();
        let mut enemies: Vec<Enemy> = self
            .active_heroes()
            .filter(|&h| !self.has(FigureId::Hero(h), Condition::Invisible))
            .map(|h| Enemy {
                hex: self.heroes[h].hex,
                initiative: self.heroes[h].initiative,
                second: self.heroes[h].second_initiative,
                order: targeting::LAST,
                name: self.scenario.heroes[h].name.clone(),
            })
            .collect();
        // Summons are enemies too: with their summoner's initiative, just before it, in the order
        // summoned.
        let mut places = vec![0u32; self.heroes.len()];
        for i in self.living_summons() {
            let x = &self.summons[i];
            let place = places[x.summoner];
            places[x.summoner] += 1;
            if self.has(FigureId::Summon(i), Condition::Invisible) {
                continue;
            }
            enemies.push(Enemy {
                hex: x.hex,
                initiative: self.heroes[x.summoner].initiative,
                second: self.heroes[x.summoner].second_initiative,
                order: place,
                name: self.name(FigureId::Summon(i)),
            });
        }
        let s = Situation {
            map: &self.map.0,
            active: me,
            allies: &allies,
            enemies: &enemies,
            action: &action,
            edition: self.scenario.edition(),
        };
        Self::plans(targeting::decide_with(&s, shared), &base)
    }

    fn foe_targeting(&mut self, m: usize, ev: &mut Vec<Event>) {
        let f = FigureId::Monster(m);
        ev.push(Event::TurnStarted { figure: f });
        if !self.start_of_turn(f, ev) {
            self.end_foe_turn(m, ev);
            return;
        }
        if self.has(f, Condition::Stun) {
            ev.push(Event::Stunned { figure: f });
            self.end_foe_turn(m, ev);
            return;
        }
        self.settle_elements(m, ev);
        self.card_step = 0;
        self.foe_next(m, ev);
    }

    /// The elements the type's card consumes, settled by the first monster of the type that
    /// activates and performs the card, whether or not it attacks: what it consumes strengthens
    /// every monster of the type this round (see `docs/rules-gloomhaven.md`, "Elements on monster
    /// cards").
    fn settle_elements(&mut self, m: usize, ev: &mut Vec<Event>) {
        let kind = self.monsters[m].kind;
        if self.kinds[kind].resolved_elements {
            return;
        }
        self.kinds[kind].resolved_elements = true;
        let wanted: Vec<Element> = self
            .card_of(kind)
            .actions
            .iter()
            .filter_map(|a| match a {
                MonsterEffect::Attack {
                    consume: Some(c), ..
                } => Some(c.element),
                _ => None,
            })
            .collect();
        for element in wanted {
            if self.elements[element.index()] != Level::Inert
                && !self.kinds[kind].consumed.contains(&element)
            {
                self.elements[element.index()] = Level::Inert;
                self.kinds[kind].consumed.push(element);
                ev.push(Event::ElementConsumed {
                    element,
                    by: FigureId::Monster(m),
                });
            }
        }
    }

    /// Resolves the monster's card from `card_step` on, top to bottom: heals, shields and infusions
    /// at once, up to the next move or attack, which is planned and left to the foe stages; the turn
    /// ends after the last action.
    fn foe_next(&mut self, m: usize, ev: &mut Vec<Event>) {
        let f = FigureId::Monster(m);
        let kind = self.monsters[m].kind;
        let card = self.card_of(kind).clone();
        while let Some(a) = card.actions.get(self.card_step) {
            if !self.monsters[m].alive {
                break;
            }
            match a {
                MonsterEffect::Move(_) | MonsterEffect::Jump(_) | MonsterEffect::Attack { .. } => {
                    self.plan_segment(m, ev);
                    return;
                }
                MonsterEffect::Heal(n) => {
                    self.heal(f, *n, ev);
                }
                MonsterEffect::Shield(n) => {
                    self.monsters[m].shield += n;
                    ev.push(Event::ShieldGained {
                        figure: f,
                        amount: *n,
                    });
                }
                MonsterEffect::Infuse(e) => {
                    // The first monster of the type to reach its infusions makes them for all.
                    let by = *self.kinds[kind].infuser.get_or_insert(m);
                    if by == m {
                        self.infuse(*e, f, ev);
                    }
                }
                MonsterEffect::Spawn(name) => self.spawn(m, name, ev),
            }
            self.card_step += 1;
        }
        self.end_foe_turn(m, ev);
    }

    /// Plans the move and attack at `card_step`: focus, path and targets by the rules.
    fn plan_segment(&mut self, m: usize, ev: &mut Vec<Event>) {
        let f = FigureId::Monster(m);
        let mut shared = std::mem::take(&mut self.shared);
        let (options, focus, trace) = self.foe_options_with(m, &mut shared);
        self.shared = shared;
        let focus_ids: Vec<FigureId> = focus.iter().filter_map(|h| self.figure_at(*h)).collect();
        ev.push(Event::FoeTargeted {
            monster: m,
            focus: focus_ids,
            options: options.len(),
            trace: trace.clone(),
        });
        match options.len() {
            0 => {
                let (_, base) = self.monster_action(m);
                self.plan = Some(base);
            }
            1 => self.plan = options.into_iter().next(),
            n => {
                ev.push(Event::TieToBreak {
                    about: format!("{}: {n} outcomes are equally allowed", self.name(f)),
                    options: n,
                });
                self.pending = Some(Pending::FoeOption {
                    monster: m,
                    options,
                    trace,
                });
            }
        }
        self.phase = Phase::FoeTurn {
            monster: m,
            stage: FoeStage::Movement,
        };
    }

    fn foe_movement(&mut self, m: usize, ev: &mut Vec<Event>) {
        let f = FigureId::Monster(m);
        let path = self
            .plan
            .as_ref()
            .map(|p| p.path.clone())
            .unwrap_or_default();
        let kind = self.monsters[m].kind;
        let flying = self.scenario.monsters[kind].flying;
        let jumping = self
            .segment(m)
            .and_then(|s| s.movement)
            .is_some_and(|(_, jump)| jump);
        if !path.is_empty() {
            ev.push(Event::PathChosen {
                figure: f,
                path: path.clone(),
            });
        }
        for (i, &h) in path.iter().enumerate() {
            self.monsters[m].hex = h;
            let last = i + 1 == path.len();
            if flying || (jumping && !last) {
                continue;
            }
            if !self.enter_hex(f, h, ev) {
                self.end_foe_turn(m, ev);
                return;
            }
        }
        self.phase = Phase::FoeTurn {
            monster: m,
            stage: FoeStage::Attack { next: 0 },
        };
    }

    /// Springs traps and hazards on the entered hex. Returns whether the figure survived.
    fn enter_hex(&mut self, f: FigureId, h: Hex, ev: &mut Vec<Event>) -> bool {
        match self.map.0.terrain(h) {
            Some(Terrain::Trap) => {
                let n = self.scenario.trap_damage;
                let _ = self.map.0.set_terrain(h, Terrain::Floor);
                ev.push(Event::Suffered {
                    figure: f,
                    amount: n,
                    cause: Cause::Trap,
                });
                self.damage(f, n, ev)
            }
            Some(Terrain::Hazard) => {
                let n = self.scenario.hazard_damage;
                ev.push(Event::Suffered {
                    figure: f,
                    amount: n,
                    cause: Cause::Hazard,
                });
                self.damage(f, n, ev)
            }
            _ => true,
        }
    }

    /// Before the first target: the focus put first among the targets.
    fn foe_attack_begins(&mut self) {
        let Some(plan) = self.plan.as_mut() else {
            return;
        };
        if plan.targets.is_empty() {
            return;
        }
        // The focus is attacked first, the other targets after it in board order.
        let focus = plan.focus.clone();
        plan.targets.sort_by_key(|h| (!focus.contains(h), qr(*h)));
    }

    /// What monster `m`'s planned attack on the figure at `th` draws with: the attack value (a
    /// poisoned target takes one more) and the draw's mode (printed advantage or strengthen
    /// against muddle or a ranged attack on an adjacent target).
    pub fn monster_draw_terms(
        &self,
        m: usize,
        plan: &FoePlan,
        th: Hex,
        target: FigureId,
    ) -> (i32, Mode) {
        let f = FigureId::Monster(m);
        let mut attack = plan.attack;
        if self.has(target, Condition::Poison) {
            attack += 1;
        }
        let adjacent = self.map.0.adjacent(self.monsters[m].hex, th);
        let printed = self.scenario.monsters[self.monsters[m].kind].advantage;
        let mode = Mode::combine(
            printed || self.has(f, Condition::Strengthen),
            self.has(f, Condition::Muddle) || (plan.range > 0 && adjacent),
        );
        (attack, mode)
    }

    fn foe_attack(&mut self, m: usize, next: usize, ev: &mut Vec<Event>) {
        let f = FigureId::Monster(m);
        if next == 0 {
            self.foe_attack_begins();
        }
        let Some(plan) = self.plan.clone() else {
            self.end_foe_turn(m, ev);
            return;
        };
        if let Some(&th) = plan.targets.get(next) {
            self.phase = Phase::FoeTurn {
                monster: m,
                stage: FoeStage::Attack { next: next + 1 },
            };
            let Some(target @ (FigureId::Hero(_) | FigureId::Summon(_))) = self.figure_at(th)
            else {
                return;
            };
            let (attack, mode) = self.monster_draw_terms(m, &plan, th, target);
            let draw = self
                .monster_deck
                .draw(mode, attack, "the monsters'", &mut self.dealer);
            ev.push(Event::CardsDrawn {
                attacker: f,
                target,
                mode,
                cards: draw.drawn.iter().map(Card::name).collect(),
            });
            let result = resolve_attack(&draw, self.target_shield(target), plan.pierce);
            if result.is_choice() {
                ev.push(Event::TieToBreak {
                    about: format!(
                        "{}'s modifier cards against {}",
                        self.name(f),
                        self.name(target)
                    ),
                    options: result.options.len(),
                });
                self.pending = Some(Pending::Modifier {
                    monster: m,
                    target,
                    result,
                });
                // Stay on this target until the players choose.
                self.phase = Phase::FoeTurn {
                    monster: m,
                    stage: FoeStage::Attack { next },
                };
                return;
            }
            let trace = result.trace.clone();
            self.land_hit(f, target, result.best(), &plan.conditions, trace, ev);
            return;
        }
        // The segment is over: a consumed heal bonus, then the card's next actions.
        let kind = self.monsters[m].kind;
        let seg = self.segment(m);
        let next = seg.map_or(self.card_step + 1, |s| s.next);
        let heal = seg
            .and_then(|s| s.attack)
            .and_then(|a| a.consume)
            .filter(|c| self.kinds[kind].consumed.contains(&c.element))
            .map_or(0, |c| c.heal);
        if heal > 0 && !plan.targets.is_empty() && self.monsters[m].alive {
            self.heal(f, heal, ev);
        }
        self.plan = None;
        self.card_step = next;
        self.foe_next(m, ev);
    }

    /// Takes option `i` of the pending decision; `dice` when the seeded pick chose it for the table.
    fn choose(&mut self, i: usize, dice: bool, ev: &mut Vec<Event>) -> Result<(), ActionError> {
        let Some(p) = self.pending.clone() else {
            return Err(ActionError::NoChoicePending);
        };
        let n = self.pending_options();
        if i >= n {
            return invalid(format!("option {i} does not exist (there are {n})"));
        }
        self.pending = None;
        match (&p, self.phase) {
            (Pending::HeroModifier { .. }, Phase::HeroTurn { hero, .. }) => {
                ev.push(Event::ChoiceMade { hero, index: i });
            }
            _ => ev.push(Event::TieBroken {
                index: i,
                seeded: dice || self.tie_breaker == crate::rules::TieBreaker::Seeded,
            }),
        }
        match p {
            Pending::FoeOption { options, .. } | Pending::SummonOption { options, .. } => {
                self.plan = Some(options[i].clone());
            }
            Pending::SummonModifier {
                summon,
                target,
                result,
            } => {
                if let Phase::SummonTurn {
                    stage: FoeStage::Attack { next },
                    ..
                } = self.phase
                {
                    self.phase = Phase::SummonTurn {
                        summon,
                        stage: FoeStage::Attack { next: next + 1 },
                    };
                }
                self.land_hit(
                    FigureId::Summon(summon),
                    FigureId::Monster(target),
                    &result.options[i],
                    &[],
                    result.trace.clone(),
                    ev,
                );
            }
            Pending::HeroModifier {
                play,
                monster,
                result,
            } => {
                let Phase::HeroTurn { hero, .. } = self.phase else {
                    return Err(ActionError::WrongPhase("a hero's attack is waiting"));
                };
                let f = FigureId::Hero(hero);
                self.land_hit(
                    f,
                    FigureId::Monster(monster),
                    &result.options[i],
                    &play.extra,
                    result.trace.clone(),
                    ev,
                );
                let mut play = play;
                play.target += 1;
                self.run_play(hero, play, false, ev)?;
            }
            Pending::TurnOrder { start, .. } => {
                let first = self.order.remove(start + i);
                self.order.insert(start, first);
                self.settle_order_from(start + 1, ev);
            }
            Pending::Modifier {
                monster,
                target,
                result,
            } => {
                let f = FigureId::Monster(monster);
                let conditions = self
                    .plan
                    .as_ref()
                    .map(|p| p.conditions.clone())
                    .unwrap_or_default();
                if let Phase::FoeTurn {
                    stage: FoeStage::Attack { next },
                    ..
                } = self.phase
                {
                    self.phase = Phase::FoeTurn {
                        monster,
                        stage: FoeStage::Attack { next: next + 1 },
                    };
                }
                self.land_hit(
                    f,
                    target,
                    &result.options[i],
                    &conditions,
                    result.trace.clone(),
                    ev,
                );
            }
        }
        Ok(())
    }

    // ----- hero turns -----

    /// The effects a half gives: its printed effects, or the basic action.
    pub fn half_effects(&self, hero: usize, card: usize, half: Half, basic: bool) -> Vec<Effect> {
        if basic {
            return match half {
                Half::Top => vec![Effect::Attack {
                    value: 2,
                    range: 0,
                    targets: 1,
                    pierce: 0,
                    conditions: Vec::new(),
                    consume: None,
                }],
                Half::Bottom => vec![Effect::Move(2)],
            };
        }
        let c = &self.scenario.heroes[hero].cards[card];
        match half {
            Half::Top => c.top.effects.clone(),
            Half::Bottom => c.bottom.effects.clone(),
        }
    }

    #[expect(
        clippy::too_many_arguments,
        reason = "the card, its half and the choices that one Play action carries"
    )]
    fn play(
        &mut self,
        card: usize,
        half: Half,
        basic: bool,
        path: &[Hex],
        targets: &[Hex],
        ally: Option<Hex>,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let Phase::HeroTurn { hero, played } = self.phase else {
            return Err(ActionError::WrongPhase(
                "cards are played on the hero's turn",
            ));
        };
        let x = &self.heroes[hero];
        if x.long_rest.is_some() {
            return invalid("a resting hero plays no cards (advance to rest)");
        }
        let Some(sel) = x.selected else {
            return invalid("no cards selected");
        };
        if !sel.contains(&card) {
            return invalid("that card is not one of the two selected");
        }
        if let Some((pc, ph, _)) = played
            && (pc == card || ph == half)
        {
            return invalid("the second action must be the other half of the other card");
        }
        let effects = self.half_effects(hero, card, half, basic);
        let moves = effects
            .iter()
            .any(|e| matches!(e, Effect::Move(_) | Effect::Jump(_)));
        let attacks = effects.iter().any(|e| matches!(e, Effect::Attack { .. }));
        if !path.is_empty() && !moves {
            return invalid("this half has no move");
        }
        if !targets.is_empty() && !attacks {
            return invalid("this half has no attack");
        }
        ev.push(Event::CardPlayed {
            hero,
            card,
            half,
            basic,
        });
        let p = HeroPlay {
            card,
            half,
            basic,
            path: path.to_vec(),
            targets: targets.to_vec(),
            ally,
            played,
            effect: 0,
            target: 0,
            bonus: 0,
            extra: Vec::new(),
        };
        let before = self.clone();
        self.run_play(hero, p.clone(), false, ev)?;
        if self.pending.is_some() {
            // The half waits for its player's choice: make sure the rest of it will be accepted
            // whatever they choose, by playing it through on a copy with the most damage.
            let mut probe = before;
            probe.run_play(hero, p, true, &mut Vec::new())?;
        }
        Ok(())
    }

    /// Runs a half from the effect (and attack target) `p` is at. When a modifier draw leaves the
    /// hero's player a choice, the half stops there with the choice pending, unless `auto`, which
    /// takes the outcome that deals the most damage.
    fn run_play(
        &mut self,
        hero: usize,
        mut p: HeroPlay,
        auto: bool,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let f = FigureId::Hero(hero);
        let effects = self.half_effects(hero, p.card, p.half, p.basic);
        while let Some(e) = effects.get(p.effect).cloned() {
            if !self.alive(f) {
                break;
            }
            match e {
                Effect::Move(n) => self.hero_move(hero, &p.path, n, false, ev)?,
                Effect::Jump(n) => self.hero_move(hero, &p.path, n, true, ev)?,
                Effect::Attack {
                    value,
                    range,
                    targets: max,
                    pierce,
                    conditions,
                    consume,
                } => {
                    if p.target == 0 {
                        let (bonus, extra) = self.hero_attack_begins(
                            hero,
                            &p.targets,
                            range,
                            max,
                            &conditions,
                            consume.as_ref(),
                            ev,
                        )?;
                        p.bonus = bonus;
                        p.extra = extra;
                    }
                    if !self.hero_attack_targets(hero, &mut p, value, range, pierce, auto, ev) {
                        return Ok(());
                    }
                }
                Effect::Heal { value, range } => {
                    let who = match p.ally {
                        None => f,
                        Some(h) => match self.figure_at(h) {
                            Some(FigureId::Hero(a))
                                if distance(self.heroes[hero].hex, h) <= range =>
                            {
                                FigureId::Hero(a)
                            }
                            _ => return invalid("heal: no ally hero within range there"),
                        },
                    };
                    self.heal(who, value, ev);
                }
                Effect::Shield(n) => {
                    self.heroes[hero].shield += n;
                    ev.push(Event::ShieldGained {
                        figure: f,
                        amount: n,
                    });
                }
                Effect::Infuse(el) => self.infuse(el, f, ev),
                Effect::SelfCondition(c) => self.add_condition(f, c, ev),
                Effect::Loot(range) => self.loot(hero, range, ev),
                Effect::Summon(spec) => self.summon(hero, &spec, p.ally, ev)?,
            }
            p.effect += 1;
            p.target = 0;
        }
        let this = (p.card, p.half, p.basic);
        if !self.alive(f) {
            let done: Vec<(usize, Half, bool)> = p.played.into_iter().chain([this]).collect();
            self.end_hero_turn(hero, &done, ev);
            return Ok(());
        }
        match p.played {
            None => {
                self.phase = Phase::HeroTurn {
                    hero,
                    played: Some(this),
                }
            }
            Some(first) => self.end_hero_turn(hero, &[first, this], ev),
        }
        Ok(())
    }

    fn hero_move(
        &mut self,
        hero: usize,
        path: &[Hex],
        points: u32,
        jump: bool,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if path.is_empty() {
            return Ok(());
        }
        let f = FigureId::Hero(hero);
        if self.has(f, Condition::Immobilize) {
            return invalid("an immobilized hero cannot move");
        }
        // The one source of heroes' moves: the path must be the one the table and the legal actions
        // offer for its end hex (icy slides included).
        heroes::check_move(self, hero, path, points, jump).map_err(ActionError::Invalid)?;
        ev.push(Event::PathChosen {
            figure: f,
            path: path.to_vec(),
        });
        for (i, &h) in path.iter().enumerate() {
            self.heroes[hero].hex = h;
            if jump && i + 1 < path.len() {
                continue;
            }
            if !self.enter_hex(f, h, ev) {
                break;
            }
        }
        Ok(())
    }

    /// Checks an attack's targets and makes its element consumption; returns the attack bonus and
    /// the conditions it adds.
    #[expect(
        clippy::too_many_arguments,
        reason = "the attack's values as the card half gives them"
    )]
    fn hero_attack_begins(
        &mut self,
        hero: usize,
        targets: &[Hex],
        range: u32,
        max: u32,
        conditions: &[Condition],
        consume: Option<&super::scenario::Consume>,
        ev: &mut Vec<Event>,
    ) -> Result<(i32, Vec<Condition>), ActionError> {
        let mut extra = conditions.to_vec();
        if targets.is_empty() {
            return Ok((0, extra));
        }
        let f = FigureId::Hero(hero);
        if self.has(f, Condition::Disarm) {
            return invalid("a disarmed hero cannot attack");
        }
        if targets.len() > max as usize {
            return invalid(format!("attack: at most {max} targets"));
        }
        let me = self.heroes[hero].hex;
        let sight =
            (range > 0).then(|| Sight::drawn(&self.map.0, self.scenario.edition().switches.sight));
        let mut seen = Vec::new();
        for &t in targets {
            if seen.contains(&t) {
                return invalid("attack: a target is listed twice");
            }
            seen.push(t);
            let Some(FigureId::Monster(m)) = self.figure_at(t) else {
                return invalid(format!("attack: no foe on ({}, {})", t.x, t.y));
            };
            let ok = match &sight {
                None => self.map.0.adjacent(me, t),
                Some(s) => distance(me, t) <= range && s.visible(me, t),
            };
            if !ok {
                return invalid(format!(
                    "attack: {} is out of reach",
                    self.name(FigureId::Monster(m))
                ));
            }
        }
        let mut bonus = 0;
        if let Some(c) = consume
            && self.elements[c.element.index()] != Level::Inert
        {
            self.elements[c.element.index()] = Level::Inert;
            ev.push(Event::ElementConsumed {
                element: c.element,
                by: f,
            });
            bonus = c.attack;
            extra.extend(c.conditions.iter().copied());
            if c.heal > 0 {
                self.heal(f, c.heal, ev);
            }
        }
        Ok((bonus, extra))
    }

    /// Attacks the targets of `p` from `p.target` on. Returns false when it stopped on a draw whose
    /// use is the hero's player's choice (now pending, `p.target` on that target).
    #[expect(
        clippy::too_many_arguments,
        reason = "the attack's values as the card half gives them"
    )]
    fn hero_attack_targets(
        &mut self,
        hero: usize,
        p: &mut HeroPlay,
        value: u32,
        range: u32,
        pierce: u32,
        auto: bool,
        ev: &mut Vec<Event>,
    ) -> bool {
        let f = FigureId::Hero(hero);
        let me = self.heroes[hero].hex;
        while let Some(&t) = p.targets.get(p.target) {
            let Some(FigureId::Monster(m)) = self.figure_at(t) else {
                p.target += 1;
                continue;
            };
            if !self.alive(f) {
                return true;
            }
            let target = FigureId::Monster(m);
            let mut attack = (value as i32 + p.bonus).max(0);
            if self.has(target, Condition::Poison) {
                attack += 1;
            }
            let adjacent = self.map.0.adjacent(me, self.monsters[m].hex);
            let mode = Mode::combine(
                self.has(f, Condition::Strengthen),
                self.has(f, Condition::Muddle) || (range > 0 && adjacent),
            );
            let whose = format!("{}'s", self.scenario.heroes[hero].name);
            let draw = self.heroes[hero]
                .deck
                .draw(mode, attack, &whose, &mut self.dealer);
            ev.push(Event::CardsDrawn {
                attacker: f,
                target,
                mode,
                cards: draw.drawn.iter().map(Card::name).collect(),
            });
            let result = resolve_attack(&draw, self.target_shield(target), pierce);
            if result.is_choice() && !auto {
                // Neither use is clearly better: the hero's player picks.
                ev.push(Event::ChoiceOffered {
                    hero,
                    about: format!("how the modifier cards count against {}", self.name(target)),
                    options: result.options.len(),
                });
                self.pending = Some(Pending::HeroModifier {
                    play: p.clone(),
                    monster: m,
                    result,
                });
                return false;
            }
            let trace = result.trace.clone();
            self.land_hit(f, target, result.best(), &p.extra, trace, ev);
            p.target += 1;
        }
        true
    }
}

/// Sorts hexes by `(q, r)`.
pub fn sorted(mut v: Vec<Hex>) -> Vec<Hex> {
    v.sort_by_key(|h| qr(*h));
    v
}
