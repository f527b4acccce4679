//! A hero's turn: where it may move, whom it may attack with what, and its attack dice settled by
//! the hero-attack decision function (to-hit number, dice, damage, kills and XP).

use super::actions::{Action, Event, Figure, Weapon};
use super::attack::{self, AttackKind, DamageHit, DamageModifier, Die, HitKind, Roll, Target};
use super::state::{HeroStrike, Stage, State};
use crate::square::{Square, UNREACHABLE, adjacent, range};

impl State {
    /// The squares hero `h` may move to: a walk of at most its Move through free squares, diagonals
    /// not cutting a wall's corner (the enemies' steps).
    pub(crate) fn hero_moves(&self, h: usize) -> Vec<Square> {
        let board = &self.scenario.board;
        let Some(start) = board.index_of(self.heroes[h].at) else {
            return Vec::new();
        };
        let reach = self.scenario.file.heroes[h].move_points;
        let cost = board.walk_from(start, |i| !self.occupied(board.square(i)));
        (0..board.len())
            .filter(|&i| cost[i] != UNREACHABLE && cost[i] >= 1 && cost[i] <= reach)
            .map(|i| board.square(i))
            .collect()
    }

    /// The attacks hero `h` may make: before its attack, a melee attack on an adjacent model and a
    /// shot at a model within the gun's range and sight; while `attack::allowed` lets it, a free
    /// attack of its hand weapon on an adjacent model. By model, then weapon.
    pub(crate) fn hero_attacks(&self, h: usize, attacked: bool, free_attacks: u32) -> Vec<Action> {
        let spec = &self.scenario.file.heroes[h];
        let at = self.heroes[h].at;
        let free = spec.weapon.as_ref().is_some_and(|w| w.free_attack)
            && attack::allowed(&self.hero_roll(h, Weapon::Hand, free_attacks));
        let mut out = Vec::new();
        for (target, m) in self.models.iter().enumerate() {
            let Some(there) = m.at.filter(|_| m.active()) else {
                continue;
            };
            if !attacked && spec.combat > 0 && adjacent(at, there) {
                out.push(Action::Attack {
                    target,
                    weapon: Weapon::Melee,
                });
            }
            if !attacked && let Some(gun) = spec.gun {
                let r = range(at, there);
                if r >= 1 && r <= gun.range && self.scenario.board.sees(at, there) {
                    out.push(Action::Attack {
                        target,
                        weapon: Weapon::Gun,
                    });
                }
            }
            if free && adjacent(at, there) {
                out.push(Action::Attack {
                    target,
                    weapon: Weapon::Hand,
                });
            }
        }
        out
    }

    /// The attack roll a hero declares with a weapon, `free_before` free attacks into its turn, as
    /// the decision function reads it.
    pub(crate) fn hero_roll(&self, h: usize, weapon: Weapon, free_before: u32) -> Roll {
        let spec = &self.scenario.file.heroes[h];
        let (kind, to_hit, shots) = match (weapon, spec.gun) {
            (Weapon::Gun, Some(g)) => (AttackKind::Ranged, g.to_hit, g.shots),
            _ => (AttackKind::Melee, spec.melee_to_hit, 0),
        };
        Roll {
            kind,
            die: Die::D6,
            to_hit,
            to_hit_bonus: 0,
            combat: spec.combat,
            shots,
            weapon_combat: spec.weapon.as_ref().map_or(0, |w| w.combat),
            extra_dice: 0,
            free: weapon == Weapon::Hand,
            free_attacks_used_this_turn: free_before,
            in_own_activation: true,
        }
    }

    /// The roll of an attack being made.
    pub(crate) fn strike_roll(&self, strike: &HeroStrike) -> Roll {
        self.hero_roll(strike.hero, strike.weapon, strike.free_before)
    }

    /// Whether hero `h`'s hits with `weapon` splash: the gun's own, or the hand weapon's for melee.
    pub(crate) fn splashes(&self, h: usize, weapon: Weapon) -> bool {
        let spec = &self.scenario.file.heroes[h];
        match weapon {
            Weapon::Gun => spec.gun.is_some_and(|g| g.splash),
            Weapon::Melee | Weapon::Hand => spec.weapon.as_ref().is_some_and(|w| w.splash),
        }
    }

    /// The models a hit on `target` splashes: every other model on the board next to it, in
    /// model order.
    pub(crate) fn splashed(&self, target: usize) -> Vec<usize> {
        let Some(at) = self.models[target].at else {
            return Vec::new();
        };
        self.models
            .iter()
            .enumerate()
            .filter(|&(i, m)| i != target && m.active() && m.at.is_some_and(|s| adjacent(s, at)))
            .map(|(i, _)| i)
            .collect()
    }

    /// Hero `h` moves.
    pub(crate) fn hero_move(&mut self, h: usize, to: Square, ev: &mut Vec<Event>) {
        let from = self.heroes[h].at;
        self.heroes[h].at = to;
        ev.push(Event::Moved {
            figure: Figure::Hero(h),
            from,
            to,
        });
    }

    /// Hero `h` declares an attack: its dice are rolled next.
    pub(crate) fn hero_attack(
        &mut self,
        hero: usize,
        (moved, attacked, free_before): (bool, bool, u32),
        target: usize,
        weapon: Weapon,
        ev: &mut Vec<Event>,
    ) {
        ev.push(Event::Attacks {
            by: Figure::Hero(hero),
            on: vec![Figure::Model(target)],
            ranged: weapon == Weapon::Gun,
            free: weapon == Weapon::Hand,
        });
        self.stage = Stage::HeroAttack(HeroStrike {
            hero,
            moved,
            target,
            weapon,
            attacked,
            free_before,
            to_hit: Vec::new(),
            damage: Vec::new(),
            splash: Vec::new(),
        });
    }

    /// A die of a hero's attack: to-hit dice first, then one damage die per hit, then (for a weapon
    /// with splash) one splash die per hit on each model next to the target; then the attack
    /// decision settles damage, kills and XP.
    pub(crate) fn hero_roll_die(&mut self, mut strike: HeroStrike, roll: u32, ev: &mut Vec<Event>) {
        let declared = self.strike_roll(&strike);
        let dice = attack::dice(&declared) as usize;
        let needed = attack::target_number(&declared);
        let splashed = if self.splashes(strike.hero, strike.weapon) {
            self.splashed(strike.target)
        } else {
            Vec::new()
        };
        let hits = |s: &HeroStrike| s.to_hit.iter().filter(|&&r| r >= needed).count();
        if strike.to_hit.len() < dice {
            strike.to_hit.push(roll);
            ev.push(Event::Rolled {
                what: "to hit",
                roll,
                needed,
            });
        } else if strike.damage.len() < hits(&strike) {
            strike.damage.push(roll);
            ev.push(Event::Rolled {
                what: "damage",
                roll,
                needed: 1,
            });
        } else {
            strike.splash.push(roll);
            ev.push(Event::Rolled {
                what: "splash damage",
                roll,
                needed: 1,
            });
        }
        let n = hits(&strike);
        if strike.to_hit.len() < dice
            || strike.damage.len() < n
            || strike.splash.len() < n * splashed.len()
        {
            self.stage = Stage::HeroAttack(strike);
            return;
        }
        // The target's own dice, then each splashed model's: hit k splashes model j with die
        // `k * splashed.len() + j`.
        let mut struck: Vec<(usize, Vec<DamageHit>)> = vec![(
            strike.target,
            strike
                .damage
                .iter()
                .map(|&roll| DamageHit {
                    target: 0,
                    roll,
                    kind: HitKind::Direct,
                })
                .collect(),
        )];
        for (j, &m) in splashed.iter().enumerate() {
            let rolls = strike.splash.iter().skip(j).step_by(splashed.len());
            let hits = rolls
                .map(|&roll| DamageHit {
                    target: 0,
                    roll,
                    kind: HitKind::Splash,
                })
                .collect();
            struck.push((m, hits));
        }
        for (model, hits) in struck {
            if hits.is_empty() {
                continue;
            }
            self.damage_model(&strike, &declared, model, &hits, ev);
        }
        if self.won() {
            self.end_fight(ev);
        } else {
            let free = u32::from(strike.weapon == Weapon::Hand);
            self.stage = Stage::Hero {
                hero: strike.hero,
                moved: strike.moved,
                attacked: strike.attacked || strike.weapon != Weapon::Hand,
                free_attacks: strike.free_before + free,
            };
        }
    }

    /// One model's damage dice of a hero's attack, settled by `attack::resolve`: the hero's damage
    /// bonus reaches only direct hits, the model's armour every die on it (splash too).
    fn damage_model(
        &mut self,
        strike: &HeroStrike,
        declared: &Roll,
        model: usize,
        hits: &[DamageHit],
        ev: &mut Vec<Event>,
    ) {
        let m = &self.models[model];
        let spec = self.spec(m.group);
        let left = spec.wounds - m.wounds;
        let target = Target {
            name: m.name.clone(),
            wounds: left,
            xp: spec.xp,
        };
        let modifiers = [
            DamageModifier {
                amount: self.scenario.file.heroes[strike.hero].damage_bonus as i32,
                applies_to_splash: false,
            },
            DamageModifier {
                amount: -(spec.armour as i32),
                applies_to_splash: true,
            },
        ];
        let splash = hits.iter().any(|h| h.kind == HitKind::Splash);
        let settled = attack::resolve(declared, &[target], &modifiers, hits);
        let dealt = settled.damage.first().map_or(0, |d| d.1).min(left);
        if dealt > 0 {
            self.models[model].wounds += dealt;
            ev.push(Event::Wounded {
                figure: Figure::Model(model),
                amount: dealt,
                splash,
            });
        }
        if !settled.killed.is_empty() {
            self.models[model].dead = true;
            self.heroes[strike.hero].xp += settled.xp;
            ev.push(Event::Killed {
                model,
                by: strike.hero,
                xp: settled.xp,
                splash,
            });
        }
    }
}
