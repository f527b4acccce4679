//! What happens to figures in the Gloomhaven family: damage, deaths, healing, conditions,
//! elements, a hit landed with its modifier card, summons and spawns placed.

use super::actions::{Cause, Event, MAX_MONSTERS, card_condition, card_element, invalid};
use super::movement::range_field;
use super::scenario::{Condition, Element, SummonSpec};
use super::state::{Cond, FigureId, Level, MonsterState, State, SummonState};
use crate::hex::{Hex, Terrain, distance, qr, step};
use crate::modifiers::attack::{AttackResult, CardOutcome, Origin, hit, resolve_attack};
use crate::modifiers::card::Card;
use crate::modifiers::card::Effect as CardEffect;
use crate::modifiers::draw::Mode;
use crate::rules::ActionError;

impl State {
    /// Deals damage outside the modifier pipeline. Returns whether the figure is still alive.
    pub(super) fn damage(&mut self, f: FigureId, amount: u32, ev: &mut Vec<Event>) -> bool {
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
    pub(super) fn kill_summon(&mut self, i: usize, ev: &mut Vec<Event>) {
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

    pub(super) fn kill(&mut self, m: usize, ev: &mut Vec<Event>) {
        let x = &mut self.monsters[m];
        x.hp = 0;
        x.alive = false;
        x.conditions.clear();
        let (hex, origin, kind) = (x.hex, x.origin, x.kind);
        ev.push(Event::FigureDied {
            figure: FigureId::Monster(m),
            hex,
        });
        // Only a monster the scenario placed leaves a money token; a spawned one leaves none, and
        // an objective is no monster to loot.
        if origin == Origin::Placed && !self.scenario.monsters[kind].objective {
            self.money.push(hex);
            ev.push(Event::MoneyDropped {
                figure: FigureId::Monster(m),
                hex,
            });
        }
        self.queue.retain(|&q| q != m);
    }

    /// A monster still standing after an attack retaliates on its attacker (a hero or a summon)
    /// within its retaliation's reach: damage suffered, which no shield reduces.
    fn retaliate(&mut self, attacker: FigureId, target: FigureId, ev: &mut Vec<Event>) {
        let FigureId::Monster(m) = target else {
            return;
        };
        let x = &self.monsters[m];
        if !x.alive || matches!(attacker, FigureId::Monster(_)) {
            return;
        }
        let t = &self.scenario.monsters[x.kind];
        let stats = if x.elite { &t.elite } else { &t.normal };
        let reach = stats.retaliate_range.max(1);
        if stats.retaliate == 0 || distance(self.hex_of(attacker), x.hex) > reach {
            return;
        }
        let amount = stats.retaliate;
        ev.push(Event::Suffered {
            figure: attacker,
            amount,
            cause: Cause::Retaliate(target),
        });
        self.damage(attacker, amount, ev);
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

    pub(super) fn add_condition(&mut self, f: FigureId, c: Condition, ev: &mut Vec<Event>) {
        if !self.alive(f) {
            return;
        }
        // An objective takes damage only: no condition sticks to it; nor does one its type is
        // immune to.
        if let FigureId::Monster(m) = f {
            let t = &self.scenario.monsters[self.monsters[m].kind];
            if t.objective || t.immunities.contains(&c) {
                return;
            }
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
    pub(crate) fn wild_element(&self) -> Option<Element> {
        Element::ALL
            .into_iter()
            .find(|e| self.elements[e.index()] == Level::Inert && !self.infusing.contains(e))
    }

    pub(super) fn infuse(&mut self, e: Element, by: FigureId, ev: &mut Vec<Event>) {
        if !self.infusing.contains(&e) {
            self.infusing.push(e);
        }
        ev.push(Event::ElementInfused { element: e, by });
    }

    /// Applies one modifier outcome of an attack to its target, and its effects to the attacker.
    pub(super) fn land_hit(
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
                        FigureId::Hero(h) => self.heroes[h].deck.add_curse(&mut self.dealer),
                        _ => self.monster_deck.add_curse(&mut self.dealer),
                    }
                    ev.push(Event::CardShuffledIn { deck, curse: true });
                }
            }
        }
        if !self.alive(attacker) {
            return;
        }
        self.retaliate(attacker, target, ev);
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
                        FigureId::Hero(h) => self.heroes[h].deck.add_bless(&mut self.dealer),
                        _ => self.monster_deck.add_bless(&mut self.dealer),
                    }
                    ev.push(Event::CardShuffledIn { deck, curse: false });
                }
                _ => {}
            }
        }
    }

    /// Draws `attacker`'s modifier cards for an attack of `attack` on `target` from the deck it
    /// draws from (see [`State::deck_owner`]) and resolves them against the target's shield.
    pub(super) fn draw_attack(
        &mut self,
        attacker: FigureId,
        target: FigureId,
        attack: i32,
        mode: Mode,
        pierce: u32,
        ev: &mut Vec<Event>,
    ) -> AttackResult {
        let draw = match self.deck_owner(attacker) {
            FigureId::Hero(h) => {
                let whose = format!("{}'s", self.scenario.heroes[h].name);
                self.heroes[h]
                    .deck
                    .draw(mode, attack, &whose, &mut self.dealer)
            }
            _ => self
                .monster_deck
                .draw(mode, attack, "the monsters'", &mut self.dealer),
        };
        ev.push(Event::CardsDrawn {
            attacker,
            target,
            mode,
            cards: draw.drawn.iter().map(Card::name).collect(),
        });
        resolve_attack(&draw, self.target_shield(target), pierce)
    }

    /// Whose modifier deck a figure draws from: a hero's own, a summon's summoner's, and for a
    /// monster or a scenario's ally the monsters' shared one (named by the figure).
    pub(crate) fn deck_owner(&self, f: FigureId) -> FigureId {
        match f {
            FigureId::Summon(i) => self.summons[i]
                .leader()
                .map_or(FigureId::Summon(i), FigureId::Hero),
            other => other,
        }
    }

    /// Empty hexes next to `at` where a new figure may be placed, in board order: no figure, no
    /// wall, obstacle, trap or hazard, and no thin wall between.
    pub(crate) fn free_hexes_next_to(&self, at: Hex) -> Vec<Hex> {
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
    pub(super) fn summon(
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
            ally: None,
        });
        ev.push(Event::Summoned { summon, hero, hex });
        Ok(())
    }

    /// Monster `m` spawns a normal monster of type `name` on the empty hex next to it that is
    /// closest (in proximity) to an enemy, board order breaking what is left; nothing when the type
    /// has no standee left or there is no room.
    pub(super) fn spawn(&mut self, m: usize, name: &str, ev: &mut Vec<Event>) {
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
        let monster = self.add_monster(kind, false, hex, Origin::Spawned);
        if !self.scenario.special_rules.is_empty() {
            // Its room, should a rule ask whether that room is cleared.
            self.monsters[monster].room = self
                .scenario
                .layout("scenario", "")
                .ok()
                .and_then(|l| l.room_of(hex));
        }
        ev.push(Event::Spawned {
            monster,
            by: FigureId::Monster(m),
            hex,
        });
    }

    /// Puts a new monster of type `kind` on `hex`, numbered after the type's highest standee, and
    /// returns its id. A spawned one arrives this round (and does not act in it).
    pub(super) fn add_monster(
        &mut self,
        kind: usize,
        elite: bool,
        hex: Hex,
        origin: Origin,
    ) -> usize {
        let number = self
            .monsters
            .iter()
            .filter(|x| x.kind == kind)
            .map(|x| x.number)
            .max()
            .unwrap_or(0)
            + 1;
        let hp = self.scenario.monsters[kind].hit_points(elite, self.heroes.len()) as i32;
        let arrived = if origin == Origin::Spawned {
            self.round
        } else {
            0
        };
        self.monsters.push(MonsterState {
            kind,
            number,
            elite,
            hp,
            max_hp: hp,
            hex,
            alive: true,
            conditions: Vec::new(),
            shield: 0,
            origin,
            arrived,
            room: None,
        });
        self.monsters.len() - 1
    }
}
