//! The steps a monster's turn and a summon's turn share, both played by the focus rules.

use super::actions::Event;
use super::scenario::Condition;
use super::state::{FigureId, FoePlan, FoeStage, Pending, Phase, State};
use crate::hex::Hex;
use crate::modifiers::attack::{AttackResult, CardOutcome};

/// A figure whose turn the focus rules play: a monster, or a summon from the heroes' side. What
/// differs between the two (events, pending choices, phases) is read from here.
#[derive(Debug, Clone, Copy)]
pub(super) enum Ruled {
    /// Monster `i` of the state.
    Monster(usize),
    /// Summon `i` of the state.
    Summon(usize),
}

impl Ruled {
    /// The figure on the board.
    pub(super) const fn figure(self) -> FigureId {
        match self {
            Ruled::Monster(m) => FigureId::Monster(m),
            Ruled::Summon(i) => FigureId::Summon(i),
        }
    }

    /// The phase of this figure's turn at `stage`.
    pub(super) const fn phase(self, stage: FoeStage) -> Phase {
        match self {
            Ruled::Monster(monster) => Phase::FoeTurn { monster, stage },
            Ruled::Summon(summon) => Phase::SummonTurn { summon, stage },
        }
    }
}

impl State {
    pub(super) fn end_ruled_turn(&mut self, r: Ruled, ev: &mut Vec<Event>) {
        match r {
            Ruled::Monster(m) => self.end_foe_turn(m, ev),
            Ruled::Summon(i) => self.end_summon_turn(i, ev),
        }
    }

    /// The turn's start: wounds, then a stun. Returns whether the figure goes on to act (when not,
    /// its turn has ended).
    pub(super) fn ruled_turn_opens(&mut self, r: Ruled, ev: &mut Vec<Event>) -> bool {
        let f = r.figure();
        ev.push(Event::TurnStarted { figure: f });
        if !self.start_of_turn(f, ev) {
            self.end_ruled_turn(r, ev);
            return false;
        }
        if self.has(f, Condition::Stun) {
            ev.push(Event::Stunned { figure: f });
            self.end_ruled_turn(r, ev);
            return false;
        }
        true
    }

    /// Takes the focus rules' `options` (with the focus and trace of the decision) as the plan of
    /// the move and attack: the only one, the figure's base plan when there is none, or a tie for
    /// the players. Movement comes next.
    pub(super) fn take_options(
        &mut self,
        r: Ruled,
        (options, focus, trace): (Vec<FoePlan>, Vec<Hex>, Vec<String>),
        ev: &mut Vec<Event>,
    ) {
        let focus: Vec<FigureId> = focus.iter().filter_map(|h| self.figure_at(*h)).collect();
        let n = options.len();
        ev.push(match r {
            Ruled::Monster(monster) => Event::FoeTargeted {
                monster,
                focus,
                options: n,
                trace: trace.clone(),
            },
            Ruled::Summon(summon) => Event::SummonTargeted {
                summon,
                focus,
                options: n,
                trace: trace.clone(),
            },
        });
        match n {
            0 => {
                let (_, base) = match r {
                    Ruled::Monster(m) => self.monster_action(m),
                    Ruled::Summon(i) => self.summon_action(i),
                };
                self.plan = Some(base);
            }
            1 => self.plan = options.into_iter().next(),
            n => {
                ev.push(Event::TieToBreak {
                    about: format!(
                        "{}: {n} outcomes are equally allowed",
                        self.name(r.figure())
                    ),
                    options: n,
                });
                self.pending = Some(match r {
                    Ruled::Monster(monster) => Pending::FoeOption {
                        monster,
                        options,
                        trace,
                    },
                    Ruled::Summon(summon) => Pending::SummonOption {
                        summon,
                        options,
                        trace,
                    },
                });
            }
        }
        self.phase = r.phase(FoeStage::Movement);
    }

    /// Walks the planned path, springing traps and hazards on the hexes entered (a flying monster
    /// enters none, a jumping one only the last); the attack comes next if the figure survives.
    pub(super) fn ruled_movement(&mut self, r: Ruled, ev: &mut Vec<Event>) {
        let f = r.figure();
        let path = self
            .plan
            .as_ref()
            .map(|p| p.path.clone())
            .unwrap_or_default();
        let (flying, jumping) = match r {
            Ruled::Monster(m) => (
                self.scenario.monsters[self.monsters[m].kind].flying,
                self.segment(m)
                    .and_then(|s| s.movement)
                    .is_some_and(|(_, jump)| jump),
            ),
            Ruled::Summon(_) => (false, false),
        };
        if !path.is_empty() {
            ev.push(Event::PathChosen {
                figure: f,
                path: path.clone(),
            });
        }
        for (i, &h) in path.iter().enumerate() {
            match r {
                Ruled::Monster(m) => self.monsters[m].hex = h,
                Ruled::Summon(s) => self.summons[s].hex = h,
            }
            let last = i + 1 == path.len();
            if flying || (jumping && !last) {
                continue;
            }
            if !self.enter_hex(f, h, ev) {
                self.end_ruled_turn(r, ev);
                return;
            }
        }
        self.phase = r.phase(FoeStage::Attack { next: 0 });
    }

    /// Attacks `target`, the plan's target `next`: draws, then lands the hit, or leaves the players
    /// the choice `pending` makes of an ambiguous draw and stays on this target.
    pub(super) fn attack_planned(
        &mut self,
        r: Ruled,
        plan: &FoePlan,
        next: usize,
        target: FigureId,
        pending: impl FnOnce(AttackResult) -> Pending,
        ev: &mut Vec<Event>,
    ) {
        let f = r.figure();
        let (attack, mode) = self.draw_terms(f, plan, plan.targets[next], target);
        let result = self.draw_attack(f, target, attack, mode, plan.pierce, ev);
        if result.is_choice() {
            ev.push(Event::TieToBreak {
                about: format!(
                    "{}'s modifier cards against {}",
                    self.name(f),
                    self.name(target)
                ),
                options: result.options.len(),
            });
            self.pending = Some(pending(result));
            // Stay on this target until the players choose.
            self.phase = r.phase(FoeStage::Attack { next });
            return;
        }
        let trace = result.trace.clone();
        self.land_planned(r, target, result.best(), trace, ev);
    }

    /// Lands use `i` of an ambiguous draw, as the players chose, and moves on to the next target.
    pub(super) fn land_chosen(
        &mut self,
        r: Ruled,
        target: FigureId,
        result: &AttackResult,
        i: usize,
        ev: &mut Vec<Event>,
    ) {
        match (r, self.phase) {
            (
                Ruled::Monster(_),
                Phase::FoeTurn {
                    stage: FoeStage::Attack { next },
                    ..
                },
            )
            | (
                Ruled::Summon(_),
                Phase::SummonTurn {
                    stage: FoeStage::Attack { next },
                    ..
                },
            ) => self.phase = r.phase(FoeStage::Attack { next: next + 1 }),
            _ => {}
        }
        self.land_planned(r, target, &result.options[i], result.trace.clone(), ev);
    }

    /// Lands `outcome` on `target` with the conditions the plan adds: a monster's from its stats
    /// and card, none for a summon.
    fn land_planned(
        &mut self,
        r: Ruled,
        target: FigureId,
        outcome: &CardOutcome,
        trace: Vec<String>,
        ev: &mut Vec<Event>,
    ) {
        let extra = match r {
            Ruled::Monster(_) => self
                .plan
                .as_ref()
                .map(|p| p.conditions.clone())
                .unwrap_or_default(),
            Ruled::Summon(_) => Vec::new(),
        };
        self.land_hit(r.figure(), target, outcome, &extra, trace, ev);
    }
}
