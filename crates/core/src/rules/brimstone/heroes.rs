//! A hero's turn: where it may move, whom it may attack with what, and its attack dice settled by
//! the hero-attack decision function (to-hit number, dice, damage, kills and XP).

use super::actions::{Action, Event, Figure, Weapon};
use super::attack::{self, AttackKind, DamageHit, DamageModifier, Die, HitKind, Roll, Target};
use super::state::{HeroStrike, Stage, State};
use crate::square::{Square, UNREACHABLE, adjacent, range};

impl State {
    /// The squares hero `h` may move to: a walk of at most its Move through free squares, diagonals
    /// not cutting a wall's corner (the enemies' steps).
    pub fn hero_moves(&self, h: usize) -> Vec<Square> {
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

    /// The attacks hero `h` may make: a melee attack on an adjacent model, a shot at a model within
    /// the gun's range and sight; by model, then weapon.
    pub fn hero_attacks(&self, h: usize) -> Vec<Action> {
        let spec = &self.scenario.file.heroes[h];
        let at = self.heroes[h].at;
        let mut out = Vec::new();
        for (target, m) in self.models.iter().enumerate() {
            let Some(there) = m.at.filter(|_| m.active()) else {
                continue;
            };
            if spec.combat > 0 && adjacent(at, there) {
                out.push(Action::Attack {
                    target,
                    weapon: Weapon::Melee,
                });
            }
            if let Some(gun) = spec.gun {
                let r = range(at, there);
                if r >= 1 && r <= gun.range && self.scenario.board.sees(at, there) {
                    out.push(Action::Attack {
                        target,
                        weapon: Weapon::Gun,
                    });
                }
            }
        }
        out
    }

    /// The attack roll a hero declares with a weapon, as the decision function reads it.
    pub fn hero_roll(&self, h: usize, weapon: Weapon) -> Roll {
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
            weapon_combat: 0,
            extra_dice: 0,
            free: false,
            free_attacks_used_this_turn: 0,
            in_own_activation: true,
        }
    }

    /// Hero `h` moves.
    pub fn hero_move(&mut self, h: usize, to: Square, ev: &mut Vec<Event>) {
        let from = self.heroes[h].at;
        self.heroes[h].at = to;
        ev.push(Event::Moved {
            figure: Figure::Hero(h),
            from,
            to,
        });
    }

    /// Hero `h` declares an attack: its dice are rolled next.
    pub fn hero_attack(
        &mut self,
        hero: usize,
        moved: bool,
        target: usize,
        weapon: Weapon,
        ev: &mut Vec<Event>,
    ) {
        ev.push(Event::Attacks {
            by: Figure::Hero(hero),
            on: vec![Figure::Model(target)],
            ranged: weapon == Weapon::Gun,
        });
        self.stage = Stage::HeroAttack(HeroStrike {
            hero,
            moved,
            target,
            weapon,
            to_hit: Vec::new(),
            damage: Vec::new(),
        });
    }

    /// A die of a hero's attack: to-hit dice first, then one damage die per hit; then the attack
    /// decision settles damage, kill and XP.
    pub fn hero_roll_die(&mut self, mut strike: HeroStrike, roll: u32, ev: &mut Vec<Event>) {
        let declared = self.hero_roll(strike.hero, strike.weapon);
        let dice = attack::dice(&declared) as usize;
        let needed = attack::target_number(&declared);
        if strike.to_hit.len() < dice {
            strike.to_hit.push(roll);
            ev.push(Event::Rolled {
                what: "to hit",
                roll,
                needed,
            });
        } else {
            strike.damage.push(roll);
            ev.push(Event::Rolled {
                what: "damage",
                roll,
                needed: 1,
            });
        }
        let hits = strike.to_hit.iter().filter(|&&r| r >= needed).count();
        if strike.to_hit.len() < dice || strike.damage.len() < hits {
            self.stage = Stage::HeroAttack(strike);
            return;
        }
        let m = &self.models[strike.target];
        let spec = self.spec(m.group);
        let target = Target {
            name: m.name.clone(),
            wounds: spec.wounds - m.wounds,
            xp: spec.xp,
        };
        let modifiers = [
            DamageModifier {
                amount: self.scenario.file.heroes[strike.hero].damage_bonus as i32,
                applies_to_splash: false,
            },
            DamageModifier {
                amount: -(spec.armour as i32),
                applies_to_splash: false,
            },
        ];
        let damage_hits: Vec<DamageHit> = strike
            .damage
            .iter()
            .map(|&roll| DamageHit {
                target: 0,
                roll,
                kind: HitKind::Direct,
            })
            .collect();
        let settled = attack::resolve(&declared, &[target], &modifiers, &damage_hits);
        let dealt = settled.damage.first().map_or(0, |d| d.1);
        let left = spec.wounds - m.wounds;
        if dealt > 0 {
            self.models[strike.target].wounds += dealt.min(left);
            ev.push(Event::Wounded {
                figure: Figure::Model(strike.target),
                amount: dealt.min(left),
            });
        }
        if !settled.killed.is_empty() {
            self.models[strike.target].dead = true;
            self.heroes[strike.hero].xp += settled.xp;
            ev.push(Event::Killed {
                model: strike.target,
                by: strike.hero,
                xp: settled.xp,
            });
        }
        if self.won() {
            self.end_fight(ev);
        } else {
            self.stage = Stage::Hero {
                hero: strike.hero,
                moved: strike.moved,
                attacked: true,
            };
        }
    }
}
