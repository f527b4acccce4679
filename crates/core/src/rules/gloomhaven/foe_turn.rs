//! Monsters' turns in the Gloomhaven family: the ability card's segments, focus, movement, the
//! attack with its modifier draws, elements, and the ties the players break.

use super::actions::{Cause, Event, invalid};
use super::ruled_turn::Ruled;
use super::scenario::{AbilityCard, Condition, Element, MonsterEffect, Segment};
use super::shared::Shared;
use super::state::{FigureId, FoePlan, FoeStage, Level, Pending, Phase, State};
use super::targeting::{self, Enemy, MonsterAction, Situation};
use crate::hex::{Hex, Terrain, hex, qr};
use crate::modifiers::draw::Mode;
use crate::rules::ActionError;

impl State {
    pub(super) fn card_of(&self, kind: usize) -> &AbilityCard {
        let c = self.kinds[kind].current.unwrap_or(0);
        &self.scenario.monsters[kind].deck[c]
    }

    /// The move and attack the monster resolves next: the segment of its card at `card_step`.
    pub(crate) fn segment(&self, m: usize) -> Option<Segment<'_>> {
        self.card_of(self.monsters[m].kind).segment(self.card_step)
    }

    /// The rule module's view of this monster's next move and attack (the segment of its card at
    /// `card_step`), after conditions and consumed elements.
    pub(crate) fn monster_action(&self, m: usize) -> (MonsterAction, FoePlan) {
        self.monster_action_at(m, self.card_step)
    }

    /// [`State::monster_action`] for the segment of its card that starts at action `step`.
    pub(crate) fn monster_action_at(&self, m: usize, step: usize) -> (MonsterAction, FoePlan) {
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
            Some(a) if !self.has(f, Condition::Disarm) => a.targets.max(stats.targets),
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
            pierce: card_attack.map_or(0, |a| a.pierce + stats.pierce),
            conditions,
        };
        (action, base)
    }

    /// Every outcome the rules allow this monster now, with the decision's trace.
    pub fn foe_options(&self, m: usize) -> (Vec<FoePlan>, Vec<Hex>, Vec<String>) {
        self.foe_options_with(m, &mut Shared::default())
    }

    /// [`State::foe_options`], reusing and adding to what earlier monster turns worked out.
    pub(super) fn foe_options_with(
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
        // A scenario's ally has its own initiative, after the characters of the same.
        let mut places = vec![0u32; self.heroes.len()];
        for i in self.living_summons() {
            let x = &self.summons[i];
            let (initiative, second, order) = match x.leader() {
                Some(h) => {
                    let place = places[h];
                    places[h] += 1;
                    (
                        self.heroes[h].initiative,
                        self.heroes[h].second_initiative,
                        place,
                    )
                }
                None => (self.ally_initiative(i), targeting::ALLY, targeting::LAST),
            };
            if self.has(FigureId::Summon(i), Condition::Invisible) {
                continue;
            }
            enemies.push(Enemy {
                hex: x.hex,
                initiative,
                second,
                order,
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

    pub(super) fn foe_targeting(&mut self, m: usize, ev: &mut Vec<Event>) {
        if !self.ruled_turn_opens(Ruled::Monster(m), ev) {
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
    pub(super) fn settle_elements(&mut self, m: usize, ev: &mut Vec<Event>) {
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
    pub(super) fn foe_next(&mut self, m: usize, ev: &mut Vec<Event>) {
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
                // Its actions follow it on the card as the game plays it.
                MonsterEffect::Special(n) => ev.push(Event::BossSpecial {
                    monster: m,
                    special: *n,
                }),
            }
            self.card_step += 1;
        }
        self.end_foe_turn(m, ev);
    }

    /// Plans the move and attack at `card_step`: focus, path and targets by the rules.
    pub(super) fn plan_segment(&mut self, m: usize, ev: &mut Vec<Event>) {
        let mut shared = std::mem::take(&mut self.shared);
        let options = self.foe_options_with(m, &mut shared);
        self.shared = shared;
        self.take_options(Ruled::Monster(m), options, ev);
    }

    /// Springs traps and hazards on the entered hex. Returns whether the figure survived.
    pub(super) fn enter_hex(&mut self, f: FigureId, h: Hex, ev: &mut Vec<Event>) -> bool {
        if let FigureId::Hero(hero) = f
            && let Some(d) = self.closed_door_at(h)
        {
            self.open_door(d, Some(hero), ev);
        }
        if !self.scenario.special_rules.is_empty() {
            self.stepped.push((f, h));
        }
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
    pub(super) fn foe_attack_begins(&mut self) {
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
        self.draw_terms(FigureId::Monster(m), plan, th, target)
    }

    /// [`State::monster_draw_terms`] for a monster or a summon: only a monster has a printed
    /// advantage.
    pub(super) fn draw_terms(
        &self,
        f: FigureId,
        plan: &FoePlan,
        th: Hex,
        target: FigureId,
    ) -> (i32, Mode) {
        let mut attack = plan.attack;
        if self.has(target, Condition::Poison) {
            attack += 1;
        }
        let adjacent = self.map.0.adjacent(self.hex_of(f), th);
        let printed = match f {
            FigureId::Monster(m) => self.scenario.monsters[self.monsters[m].kind].advantage,
            FigureId::Hero(_) | FigureId::Summon(_) => false,
        };
        let mode = Mode::combine(
            printed || self.has(f, Condition::Strengthen),
            self.has(f, Condition::Muddle) || (plan.range > 0 && adjacent),
        );
        (attack, mode)
    }

    pub(super) fn foe_attack(&mut self, m: usize, next: usize, ev: &mut Vec<Event>) {
        let f = FigureId::Monster(m);
        if next == 0 {
            self.foe_attack_begins();
        }
        let Some(plan) = self.plan.clone() else {
            self.end_foe_turn(m, ev);
            return;
        };
        if let Some(&th) = plan.targets.get(next) {
            let r = Ruled::Monster(m);
            self.phase = r.phase(FoeStage::Attack { next: next + 1 });
            // A monster attacks heroes and their summons.
            if let Some(target @ (FigureId::Hero(_) | FigureId::Summon(_))) = self.figure_at(th) {
                let pending = |result| Pending::Modifier {
                    monster: m,
                    target,
                    result,
                };
                self.attack_planned(r, &plan, next, target, pending, ev);
            }
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
    pub(super) fn choose(
        &mut self,
        i: usize,
        dice: bool,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
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
                let target = FigureId::Monster(target);
                self.land_chosen(Ruled::Summon(summon), target, &result, i, ev);
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
            } => self.land_chosen(Ruled::Monster(monster), target, &result, i, ev),
        }
        Ok(())
    }
}
