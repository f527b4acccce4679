//! A hero's attack: whether it is allowed, the number needed to hit, the dice rolled, the exact
//! chance of every number of hits, and the damage, kills and XP of one resolved roll (splash too).

use crate::decision::{ChosenBy, Decision};
use crate::modifiers::fraction::Fraction;
use serde::Deserialize;

/// Melee uses the hero's Combat; Ranged the weapon's Shots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum AttackKind {
    /// A melee attack, rolling Combat.
    Melee,
    /// A ranged attack, rolling the weapon's Shots.
    Ranged,
}

/// The die rolled to hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum Die {
    /// A six-sided die.
    D6,
    /// An eight-sided die.
    D8,
}

impl Die {
    /// The die's number of sides.
    pub const fn sides(self) -> u32 {
        match self {
            Die::D6 => 6,
            Die::D8 => 8,
        }
    }
}

/// An attack roll as the hero declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Roll {
    /// Melee or ranged.
    pub kind: AttackKind,
    /// The die rolled to hit.
    pub die: Die,
    /// Printed to-hit number: 4 means 4+.
    pub to_hit: u32,
    /// Lowers the number needed (+1 turns 4+ into 3+).
    pub to_hit_bonus: i32,
    /// The hero's Combat (melee dice).
    pub combat: u32,
    /// The weapon's Shots (ranged dice).
    pub shots: u32,
    /// The weapon's Combat, rolled by a free attack.
    pub weapon_combat: u32,
    /// Dice added (or taken away) by other effects.
    pub extra_dice: i32,
    /// A free attack: one per turn, in the hero's own activation.
    pub free: bool,
    /// Free attacks the hero already made this turn.
    pub free_attacks_used_this_turn: u32,
    /// The attack happens during the hero's own activation.
    pub in_own_activation: bool,
}

/// No attack rolls more dice than this, D8 included.
pub const MAX_DICE: u32 = 6;

/// The number a die must show to hit: raised to 2 at least, lowered to the die's sides at most.
pub fn target_number(r: &Roll) -> u32 {
    let raw = i64::from(r.to_hit) - i64::from(r.to_hit_bonus);
    raw.clamp(2, i64::from(r.die.sides())) as u32
}

/// A free attack: one per turn, during the hero's own activation only. Other attacks are allowed.
pub fn allowed(r: &Roll) -> bool {
    !r.free || (r.free_attacks_used_this_turn == 0 && r.in_own_activation)
}

/// Dice rolled: Shots (ranged) or Combat (melee; the weapon's Combat for a free attack), plus the
/// extra dice, at most [`MAX_DICE`].
pub fn dice(r: &Roll) -> u32 {
    let base = match (r.kind, r.free) {
        (AttackKind::Ranged, _) => r.shots,
        (AttackKind::Melee, false) => r.combat,
        (AttackKind::Melee, true) => r.weapon_combat,
    };
    (i64::from(base) + i64::from(r.extra_dice)).clamp(0, i64::from(MAX_DICE)) as u32
}

/// One possible number of hits and its exact chance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HitOdds {
    /// The number of hits.
    pub hits: u32,
    /// Its exact chance.
    pub chance: Fraction,
    /// A die result, or fixed when only one number can occur.
    pub chosen_by: ChosenBy,
}

/// The chance of `0..=dice` hits with `dice` dice of `die` needing `target` or more (a 1 always
/// misses; the target is at least 2 anyway). Binomial, exact.
pub(crate) fn hit_chances(dice: u32, die: Die, target: u32) -> Vec<Fraction> {
    let sides = u128::from(die.sides());
    let target = u128::from(target.max(2));
    let hit = sides.saturating_sub(target) + 1;
    let miss = sides - hit;
    let n = dice.min(MAX_DICE);
    let total = sides.pow(n);
    (0..=n)
        .map(|k| Fraction::new(choose(n, k) * hit.pow(k) * miss.pow(n - k), total))
        .collect()
}

/// The chance of each number of wounds, `0..=cap`, that a whole attack deals.
///
/// `hits` is the chance of each number of hits; each hit deals `per_hit` (the chance of each
/// number of wounds one hit deals, independently); the total is capped at `cap` (what takes the
/// target out).
pub(crate) fn wounds_of_hits(hits: &[Fraction], per_hit: &[Fraction], cap: u32) -> Vec<Fraction> {
    let cap = cap as usize;
    let mut out = vec![Fraction::ZERO; cap + 1];
    // After h hits: the chance of each capped total.
    let mut after = vec![Fraction::ZERO; cap + 1];
    after[0] = Fraction::ONE;
    for (h, &p_hits) in hits.iter().enumerate() {
        if h > 0 {
            let mut next = vec![Fraction::ZERO; cap + 1];
            for (total, &p) in after.iter().enumerate().filter(|(_, p)| !p.is_zero()) {
                for (w, &q) in per_hit.iter().enumerate().filter(|(_, q)| !q.is_zero()) {
                    next[(total + w).min(cap)] += p * q;
                }
            }
            after = next;
        }
        for (total, &p) in after.iter().enumerate() {
            out[total] += p_hits * p;
        }
    }
    out
}

fn choose(n: u32, k: u32) -> u128 {
    (0..k).fold(1u128, |acc, i| acc * u128::from(n - i) / u128::from(i + 1))
}

/// The hit odds as a decision: each number of hits is a die result (`Fixed` when only one can occur).
pub(crate) fn hit_decision(dice: u32, die: Die, target: u32) -> Decision<HitOdds> {
    let chances = hit_chances(dice, die, target);
    let possible = chances.iter().filter(|c| !c.is_zero()).count();
    let options = chances
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.is_zero())
        .map(|(k, &chance)| HitOdds {
            hits: k as u32,
            chance,
            chosen_by: if possible == 1 {
                ChosenBy::Fixed
            } else {
                ChosenBy::Random
            },
        })
        .collect();
    Decision {
        options,
        trace: vec![format!(
            "{dice} {die:?} dice, each hitting on {target}+ ({} in {})",
            die.sides() + 1 - target.clamp(2, die.sides()),
            die.sides()
        )],
    }
}

/// A model the attack can damage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The model's name.
    pub name: String,
    /// Wounds that kill it: damage of at least this many.
    pub wounds: u32,
    /// XP for killing it.
    pub xp: u32,
}

/// A bonus (or malus) to each damage die.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DamageModifier {
    /// Added to each damage die (negative for a malus).
    pub amount: i32,
    /// Only modifiers that say so reach splash damage.
    pub applies_to_splash: bool,
}

/// How a damage die reaches its model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum HitKind {
    /// Damage to the attack's target.
    Direct,
    /// Splash damage to a nearby model.
    Splash,
    /// Damage from an area attack (dynamite and the like): not splash.
    Area,
}

/// One damage die of a resolved attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DamageHit {
    /// Index into the targets.
    pub target: usize,
    /// The die's roll.
    pub roll: u32,
    /// How it reaches its model.
    pub kind: HitKind,
}

/// The attack worked out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    /// The attack may be made.
    pub allowed: bool,
    /// The number a die must show to hit.
    pub target_number: u32,
    /// Dice rolled to hit.
    pub dice: u32,
    /// Chance of `0, 1, ..., dice` hits (`[1]` when not allowed).
    pub hits: Vec<Fraction>,
    /// Total damage per model that took a damage die, sorted by name.
    pub damage: Vec<(String, u32)>,
    /// Models killed, sorted by name.
    pub killed: Vec<String>,
    /// XP for the kills.
    pub xp: u32,
    /// The rule steps, one readable line each.
    pub trace: Vec<String>,
}

/// Damage one hit deals: the roll plus the modifiers that reach it, never below 0.
pub(crate) fn hit_damage(hit: &DamageHit, modifiers: &[DamageModifier]) -> u32 {
    let bonus: i64 = modifiers
        .iter()
        .filter(|m| hit.kind != HitKind::Splash || m.applies_to_splash)
        .map(|m| i64::from(m.amount))
        .sum();
    (i64::from(hit.roll) + bonus).max(0) as u32
}

/// Works out a hero's attack: to-hit, dice, odds, then the damage of the given damage dice.
pub fn resolve(
    roll: &Roll,
    targets: &[Target],
    modifiers: &[DamageModifier],
    damage_hits: &[DamageHit],
) -> Resolution {
    let tn = target_number(roll);
    let mut trace = vec![format!(
        "to hit: {}+ with a bonus of {} → {tn}+ (between 2 and {})",
        roll.to_hit,
        roll.to_hit_bonus,
        roll.die.sides()
    )];
    if !allowed(roll) {
        trace.push(if roll.in_own_activation {
            "a free attack was already made this turn → not allowed".to_string()
        } else {
            "a free attack outside the hero's own activation → not allowed".to_string()
        });
        return Resolution {
            allowed: false,
            target_number: tn,
            dice: 0,
            hits: vec![Fraction::ONE],
            damage: Vec::new(),
            killed: Vec::new(),
            xp: 0,
            trace,
        };
    }
    let n = dice(roll);
    trace.push(format!(
        "dice: {} {} + {} extra, at most {MAX_DICE} → {n}",
        match (roll.kind, roll.free) {
            (AttackKind::Ranged, _) => roll.shots,
            (AttackKind::Melee, false) => roll.combat,
            (AttackKind::Melee, true) => roll.weapon_combat,
        },
        match (roll.kind, roll.free) {
            (AttackKind::Ranged, _) => "Shots",
            (AttackKind::Melee, false) => "Combat",
            (AttackKind::Melee, true) => "weapon Combat (free attack)",
        },
        roll.extra_dice
    ));
    let odds = hit_decision(n, roll.die, tn);
    trace.extend(odds.trace);
    let mut totals = vec![None::<u32>; targets.len()];
    for hit in damage_hits {
        let d = hit_damage(hit, modifiers);
        let slot = &mut totals[hit.target];
        *slot = Some(slot.unwrap_or(0) + d);
        trace.push(format!(
            "{:?} damage die {} on {} → {d}",
            hit.kind, hit.roll, targets[hit.target].name
        ));
    }
    let mut damage = Vec::new();
    let mut killed = Vec::new();
    let mut xp = 0;
    for (t, total) in targets.iter().zip(&totals) {
        let Some(total) = *total else { continue };
        damage.push((t.name.clone(), total));
        if total >= t.wounds {
            killed.push(t.name.clone());
            xp += t.xp;
            trace.push(format!(
                "{} takes {total} of {} wounds → killed, {} XP",
                t.name, t.wounds, t.xp
            ));
        }
    }
    damage.sort();
    killed.sort();
    Resolution {
        allowed: true,
        target_number: tn,
        dice: n,
        hits: hit_chances(n, roll.die, tn),
        damage,
        killed,
        xp,
        trace,
    }
}
