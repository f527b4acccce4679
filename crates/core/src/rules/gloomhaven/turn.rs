//! The round's flow in the Gloomhaven family: the round's start (card choice, long rests, the
//! reveal), the order of turns and each turn's start and end, the rules' next step, rests and the
//! round's end.

use super::actions::{Cause, Event, LONG_REST_INITIATIVE, invalid};
use super::ruled_turn::Ruled;
use super::scenario::{Condition, Victory};
use super::state::{Actor, FigureId, FoeStage, Half, Level, Pending, Phase, State};
use super::targeting::{self};
use crate::chance::{Picker, Want};
use crate::hex::Hex;
use crate::rules::ActionError;

impl State {
    pub(super) fn begin_round(&mut self, ev: &mut Vec<Event>) {
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

    pub(super) fn exhaust(&mut self, h: usize, reason: &str, ev: &mut Vec<Event>) {
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
        self.dismiss_summons(h, ev);
    }

    /// Hero `h` leaves the scenario through the exit on `hex`: out of it as an exhausted hero is,
    /// keeping what it looted.
    pub(super) fn escape(&mut self, h: usize, hex: Hex, ev: &mut Vec<Event>) {
        let x = &mut self.heroes[h];
        x.exhausted = true;
        x.escaped = true;
        x.selected = None;
        x.long_rest = None;
        x.conditions.clear();
        ev.push(Event::HeroEscaped { hero: h, hex });
        self.dismiss_summons(h, ev);
    }

    fn dismiss_summons(&mut self, h: usize, ev: &mut Vec<Event>) {
        // Summons leave the board with their summoner.
        let gone: Vec<usize> = self
            .living_summons()
            .filter(|&i| self.summons[i].leader() == Some(h))
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

    pub(super) fn select(
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
            let out = if x.escaped {
                "has escaped"
            } else {
                "is exhausted"
            };
            return invalid(format!("{} {out}", self.scenario.heroes[h].name));
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

    pub(super) fn declare_long_rest(
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
    pub(super) fn reveal(&mut self, ev: &mut Vec<Event>) -> Result<(), ActionError> {
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
            if self.draw_ability(k, ev) {
                order.push(Actor::Monsters(k));
            }
        }
        order.extend(self.active_heroes().map(Actor::Hero));
        order.extend(self.living_allies().map(Actor::Ally));
        // A stable sort: actors the rules cannot order stay together, and the players order them.
        order.sort_by_key(|&a| self.order_key(a));
        self.order = order;
        self.turn = 0;
        self.settle_order_from(0, ev);
        Ok(())
    }

    /// Monster type `k` draws its ability card for the round (the discard shuffled back when the
    /// pile is empty); false when it has no card to draw.
    pub(super) fn draw_ability(&mut self, k: usize, ev: &mut Vec<Event>) -> bool {
        let ks = &mut self.kinds[k];
        if ks.draw_pile.is_empty() {
            ks.draw_pile.append(&mut ks.discard);
            self.dealer.shuffle(&mut ks.draw_pile);
        }
        if ks.draw_pile.is_empty() {
            return false;
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
        true
    }

    /// Where an actor's initiative puts it in the turn order, lower first. Heroes playing cards go
    /// before monsters of the same initiative and settle ties by their other card; long-resting heroes
    /// go after everyone. Equal keys are ties the players break.
    pub(crate) fn order_key(&self, a: Actor) -> (u32, u8, u32) {
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
            // After the characters of its initiative (whatever their other card), before the
            // monsters.
            Actor::Ally(i) => (self.ally_initiative(i), 0, targeting::ALLY),
        }
    }

    /// Asks the players to order the first tie at or after `from` in the turn order, or, when none
    /// is left, announces the order and starts the first turn.
    pub(super) fn settle_order_from(&mut self, from: usize, ev: &mut Vec<Event>) {
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
            Actor::Ally(i) => self.summons[i].spec.name.clone(),
        }
    }

    /// Starts the turn of `order[turn]`, skipping actors that cannot act, or ends the round.
    pub(super) fn start_actor(&mut self, ev: &mut Vec<Event>) {
        loop {
            // The game is over: `check_end` says how.
            if self.goal_met() || self.active_heroes().next().is_none() {
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
                            .filter(|&i| self.summons[i].leader() == Some(h))
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
                Actor::Ally(i) => {
                    // A dead ally's place in the order passes.
                    if !self.summons[i].alive {
                        self.turn += 1;
                        continue;
                    }
                    self.phase = Phase::SummonTurn {
                        summon: i,
                        stage: FoeStage::Targeting,
                    };
                    self.plan = None;
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
                    // Elites first, then by standee number (monsters revealed later come last in
                    // the list of slots).
                    self.queue
                        .sort_by_key(|&i| (!self.monsters[i].elite, self.monsters[i].number));
                    if self.next_in_queue() {
                        return;
                    }
                    self.turn += 1;
                }
            }
        }
    }

    /// Moves to the next monster of the acting type; false when none is left.
    pub(super) fn next_in_queue(&mut self) -> bool {
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
    pub(super) fn next_summon(&mut self) -> bool {
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
    pub(super) fn start_of_turn(&mut self, f: FigureId, ev: &mut Vec<Event>) -> bool {
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
    pub(super) fn end_turn_common(&mut self, f: FigureId, ev: &mut Vec<Event>) {
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

    pub(super) fn end_hero_turn(
        &mut self,
        h: usize,
        played: &[(usize, Half, bool)],
        ev: &mut Vec<Event>,
    ) {
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
            // End-of-turn looting: the money and treasure on the hero's own hex.
            self.loot(h, 0, ev);
            self.end_turn_common(FigureId::Hero(h), ev);
            let at = self.heroes[h].hex;
            if !self.heroes[h].exhausted && self.exits.contains(&at) {
                self.escape(h, at, ev);
            }
        } else {
            // An exhausted hero's turn ends with it: its infusions are lost, as a dead monster's.
            self.infusing.clear();
        }
        self.turn += 1;
        self.start_actor(ev);
    }

    pub(super) fn end_summon_turn(&mut self, i: usize, ev: &mut Vec<Event>) {
        if self.summons[i].alive {
            self.end_turn_common(FigureId::Summon(i), ev);
        } else {
            self.infusing.clear();
        }
        self.plan = None;
        if self.summons[i].ally.is_some() {
            // An ally's turn is its own place in the order.
            self.turn += 1;
            self.start_actor(ev);
        } else if !self.next_summon() {
            // The next summon of the same summoner, or the summoner's own turn.
            self.start_actor(ev);
        }
    }

    pub(super) fn end_foe_turn(&mut self, m: usize, ev: &mut Vec<Event>) {
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

    pub(super) fn advance(&mut self, ev: &mut Vec<Event>) -> Result<(), ActionError> {
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
                    FoeStage::Movement => self.ruled_movement(Ruled::Monster(monster), ev),
                    FoeStage::Attack { next } => self.foe_attack(monster, next, ev),
                }
                Ok(())
            }
            Phase::SummonTurn { summon, stage } => {
                match stage {
                    FoeStage::Targeting => self.summon_targeting(summon, ev),
                    FoeStage::Movement => self.ruled_movement(Ruled::Summon(summon), ev),
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

    pub(super) fn long_rest_now(&mut self, h: usize, lose: usize, ev: &mut Vec<Event>) {
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

    pub(super) fn short_rest(&mut self, h: usize, ev: &mut Vec<Event>) -> Result<(), ActionError> {
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
        let i = self.dealer.pick_at_random(discard.len(), || Want {
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

    pub(super) fn end_round(&mut self, ev: &mut Vec<Event>) {
        for k in 0..self.kinds.len() {
            let shuffle = self.kinds[k]
                .current
                .is_some_and(|c| self.scenario.monsters[k].deck[c].shuffle);
            let ks = &mut self.kinds[k];
            if let Some(c) = ks.current.take() {
                ks.discard.push(c);
            }
            // Every card of the pile is equally likely to be drawn next: no order to shuffle
            // (but for the rebuilding of a format-1 game).
            if shuffle {
                ks.draw_pile.append(&mut ks.discard);
                self.dealer.shuffle(&mut ks.draw_pile);
            }
            ks.consumed.clear();
            ks.resolved_elements = false;
            ks.infuser = None;
        }
        self.monster_deck.end_of_round(&mut self.dealer);
        for x in &mut self.heroes {
            x.deck.end_of_round(&mut self.dealer);
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
        if let Victory::Survive(n) | Victory::Protect(n) = *self.victory()
            && self.round >= n
            && self.active_heroes().next().is_some()
        {
            self.win(ev);
            return;
        }
        if self.scenario.round_limit.is_some_and(|n| self.round >= n) {
            self.lose(format!("round {} ended with foes left", self.round), ev);
            return;
        }
        self.begin_round(ev);
    }
}
