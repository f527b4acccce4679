//! An enemy model's activation in a game, stage by stage: targeting (the decision function walked
//! one pick at a time), movement to the square it chose, and its attack dice against the heroes.

use super::actions::{Event, Figure};
use super::state::{Ask, FoeStrike, Stage, State};
use super::targeting::{self, Active, Attack, Behaviour, Situation};
use crate::rules::ActionError;
use crate::square::{Square, adjacent};

impl State {
    /// A Shootout model next to a hero rolls to retreat before it targets.
    pub(crate) fn needs_retreat_roll(&self, model: usize) -> bool {
        let m = &self.models[model];
        let Some(at) = m.at else { return false };
        self.spec(m.group).behaviour == Behaviour::Shootout
            && self.heroes.iter().any(|h| h.up() && adjacent(h.at, at))
    }

    /// The activating model as the decision function sees it (hero indices among standing heroes).
    fn active(&self, model: usize) -> Option<Active> {
        let m = &self.models[model];
        let spec = self.spec(m.group);
        let standing = self.standing();
        let index = |h: usize| standing.iter().position(|&s| s == h);
        Some(Active {
            name: m.name.clone(),
            at: m.at?,
            behaviour: spec.behaviour,
            move_points: spec.move_points,
            range: spec.range,
            current_target: m.current_target.and_then(index),
            same_type_count: self
                .models
                .iter()
                .filter(|o| o.group == m.group && o.active())
                .count() as u32,
            targeted_by_same_type: self.groups[m.group]
                .targeted
                .iter()
                .filter_map(|&h| index(h))
                .collect(),
        })
    }

    /// What the targeting decision reads for `model`: the standing heroes, the other models'
    /// squares and the model itself; `None` when it is not on the board.
    pub(super) fn targeting_input(
        &self,
        model: usize,
    ) -> Option<(Vec<super::Hero>, Vec<Square>, Active)> {
        let active = self.active(model)?;
        let others: Vec<Square> = self
            .models
            .iter()
            .enumerate()
            .filter(|(i, m)| *i != model && m.active())
            .filter_map(|(_, m)| m.at)
            .collect();
        Some((self.decision_heroes(), others, active))
    }

    /// Walks the model's targeting along the picks so far: asks the next pick or settles where it
    /// goes and whom it attacks.
    pub(crate) fn walk_targeting(
        &mut self,
        model: usize,
        retreat: Option<u32>,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let (heroes, others, active) = self
            .targeting_input(model)
            .ok_or_else(|| ActionError::Invalid("the model is not on the board".into()))?;
        let situation = Situation {
            board: &self.scenario.board,
            heroes: &heroes,
            enemies: &others,
            active: &active,
            retreat_roll: retreat.map(|r| r as u8),
        };
        let step = targeting::activate_along(&situation, &self.picks)
            .ok_or_else(|| ActionError::Invalid("the picks go past the activation".into()))?;
        match step {
            targeting::Step::Choice(p) => {
                self.ask = Some(Ask::from(p));
            }
            targeting::Step::Done {
                retarget,
                outcome,
                trace,
                even_distribution,
            } => {
                ev.extend(
                    trace
                        .into_iter()
                        .map(|line| Event::Rule(format!("{}: {line}", active.name))),
                );
                // Step 1 of Support: it starts next to a hero and ends elsewhere.
                let moved_away = active.behaviour == Behaviour::Support
                    && outcome.end != active.at
                    && heroes.iter().any(|h| adjacent(h.at, active.at));
                ev.push(Event::Targeted {
                    model,
                    behaviour: active.behaviour,
                    even_distribution,
                    moved_away,
                });
                let standing = self.standing();
                let targets: Vec<usize> = outcome
                    .targets
                    .iter()
                    .filter_map(|n| heroes.iter().position(|h| &h.name == n))
                    .map(|i| standing[i])
                    .collect();
                if retarget {
                    self.models[model].current_target = targets.first().copied();
                }
                let group = self.models[model].group;
                for &t in &targets {
                    if !self.groups[group].targeted.contains(&t) {
                        self.groups[group].targeted.push(t);
                    }
                }
                self.picks.clear();
                self.ask = None;
                self.stage = Stage::Movement {
                    model,
                    end: outcome.end,
                    targets,
                    ranged: outcome.attack == Attack::Ranged,
                };
            }
        }
        Ok(())
    }

    /// The model moves to its end square, then attacks (or the next model activates).
    pub(crate) fn move_model(
        &mut self,
        model: usize,
        end: Square,
        targets: Vec<usize>,
        ranged: bool,
        ev: &mut Vec<Event>,
    ) {
        if let Some(from) = self.models[model].at
            && from != end
        {
            self.models[model].at = Some(end);
            ev.push(Event::Moved {
                figure: Figure::Model(model),
                from,
                to: end,
            });
        }
        if targets.is_empty() {
            self.after_model(model, ev);
            return;
        }
        ev.push(Event::Attacks {
            by: Figure::Model(model),
            on: targets.iter().map(|&h| Figure::Hero(h)).collect(),
            ranged,
            free: false,
        });
        if ranged && self.spec(self.models[model].group).behaviour == Behaviour::Shootout {
            // A Shootout enemy marks the hero it shoots: its next shots go to the others first.
            for &h in &targets {
                self.heroes[h].markers += 1;
            }
        }
        self.stage = Stage::Attack(FoeStrike {
            model,
            targets,
            next: 0,
            ranged,
            to_hit: Vec::new(),
            defense: Vec::new(),
        });
    }

    /// After a model's activation: the fight may be lost, else the group's next model activates.
    fn after_model(&mut self, model: usize, ev: &mut Vec<Event>) {
        if self.lost() {
            self.over(false, "every hero is knocked out", ev);
            return;
        }
        self.activate_from(self.models[model].group, model + 1);
    }

    /// A die of an enemy's attack: to-hit dice first, then one defense die per hit; each target is
    /// settled as soon as its dice are in.
    pub(crate) fn foe_roll(&mut self, mut strike: FoeStrike, roll: u32, ev: &mut Vec<Event>) {
        let spec = self.spec(self.models[strike.model].group).clone();
        let hero = strike.targets[strike.next];
        let defense = self.scenario.file.heroes[hero].defense;
        if (strike.to_hit.len() as u32) < spec.combat {
            strike.to_hit.push(roll);
            ev.push(Event::Rolled {
                what: "to hit",
                roll,
                needed: spec.to_hit,
            });
        } else {
            strike.defense.push(roll);
            ev.push(Event::Rolled {
                what: "defense",
                roll,
                needed: defense,
            });
        }
        let hits = strike.to_hit.iter().filter(|&&r| r >= spec.to_hit).count();
        if (strike.to_hit.len() as u32) < spec.combat || strike.defense.len() < hits {
            self.stage = Stage::Attack(strike);
            return;
        }
        let through = strike.defense.iter().filter(|&&r| r < defense).count() as u32;
        let amount = (through * spec.damage).min(self.heroes[hero].hp);
        if amount > 0 {
            self.heroes[hero].hp -= amount;
            ev.push(Event::Wounded {
                figure: Figure::Hero(hero),
                amount,
                splash: false,
            });
            if self.heroes[hero].hp == 0 {
                ev.push(Event::KnockedOut(hero));
            }
        }
        strike.to_hit.clear();
        strike.defense.clear();
        strike.next += 1;
        while strike.next < strike.targets.len() && !self.heroes[strike.targets[strike.next]].up() {
            strike.next += 1;
        }
        if strike.next < strike.targets.len() {
            self.stage = Stage::Attack(strike);
        } else {
            self.after_model(strike.model, ev);
        }
    }
}
