//! Heroes' turns in the Gloomhaven family: the card halves played, their moves, attacks and the
//! targets they take.

use super::actions::{Event, invalid};
use super::heroes;
use super::scenario::{Condition, Effect};
use super::state::{FigureId, Half, HeroPlay, Level, Pending, Phase, State};
use crate::hex::sight::Sight;
use crate::hex::{Hex, distance};
use crate::modifiers::draw::Mode;
use crate::rules::ActionError;

impl State {
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
    pub(super) fn play(
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
        // A half used as printed gives its experience; a basic action gives none.
        if !basic {
            let c = &self.scenario.heroes[hero].cards[card];
            let xp = match half {
                Half::Top => c.top.xp,
                Half::Bottom => c.bottom.xp,
            };
            self.heroes[hero].experience += xp;
        }
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
    pub(super) fn run_play(
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
                            // A scenario's ally is healed as a character is.
                            Some(FigureId::Summon(i))
                                if self.summons[i].ally.is_some()
                                    && distance(self.heroes[hero].hex, h) <= range =>
                            {
                                FigureId::Summon(i)
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

    pub(super) fn hero_move(
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
    pub(super) fn hero_attack_begins(
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
    pub(super) fn hero_attack_targets(
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
            let result = self.draw_attack(f, target, attack, mode, pierce, ev);
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
