//! Heroes' summons taking their turns in the Gloomhaven family: their plan, focus, movement and
//! attack, by the monster rules.

use super::actions::{Event, LONG_REST_INITIATIVE};
use super::ruled_turn::Ruled;
use super::scenario::Condition;
use super::state::{FigureId, FoePlan, FoeStage, Pending, State};
use super::targeting::{self, Enemy, MonsterAction, Situation};
use crate::hex::Hex;

impl State {
    /// The summon's move and attack as the focus rules read them (a single-target attack with its
    /// printed move, range and value), after its conditions.
    pub(crate) fn summon_action(&self, i: usize) -> (MonsterAction, FoePlan) {
        let x = &self.summons[i];
        let f = FigureId::Summon(i);
        let action = MonsterAction {
            move_points: if self.has(f, Condition::Immobilize) {
                0
            } else {
                x.spec.movement
            },
            range: x.spec.range,
            // An ally without an attack (one that stays where it stands) attacks nobody.
            targets: u32::from(!self.has(f, Condition::Disarm) && x.spec.attack > 0),
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
    pub(crate) fn summon_options(&self, i: usize) -> (Vec<FoePlan>, Vec<Hex>, Vec<String>) {
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
    pub(super) fn plans(
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

    pub(super) fn summon_targeting(&mut self, i: usize, ev: &mut Vec<Event>) {
        let r = Ruled::Summon(i);
        if !self.ruled_turn_opens(r, ev) {
            return;
        }
        let options = self.summon_options(i);
        self.take_options(r, options, ev);
    }

    pub(super) fn summon_attack(&mut self, i: usize, next: usize, ev: &mut Vec<Event>) {
        let Some(plan) = self.plan.clone() else {
            self.end_summon_turn(i, ev);
            return;
        };
        let Some(&th) = plan.targets.get(next) else {
            self.end_summon_turn(i, ev);
            return;
        };
        let r = Ruled::Summon(i);
        self.phase = r.phase(FoeStage::Attack { next: next + 1 });
        // A summon attacks monsters.
        if let Some(FigureId::Monster(m)) = self.figure_at(th) {
            let pending = |result| Pending::SummonModifier {
                summon: i,
                target: m,
                result,
            };
            self.attack_planned(r, &plan, next, FigureId::Monster(m), pending, ev);
        }
    }
}
