//! The attack value for one target: own modifiers (in the order the attacker's side picks), the
//! modifier card, the shield, then damage and death.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::card::{Card, Effect, Value};
use super::draw::Draw;

/// One of the attacker's own modifiers, applied before the modifier card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum OwnModifier {
    /// Adds N (an ability card bonus, an item, +1 against a poisoned target…).
    Plus(i32),
    /// Doubles the attack value.
    Double,
}

impl fmt::Display for OwnModifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OwnModifier::Plus(n) if *n >= 0 => write!(f, "+{n}"),
            OwnModifier::Plus(n) => write!(f, "{n}"),
            OwnModifier::Double => write!(f, "double"),
        }
    }
}

/// One order of the attacker's own modifiers and the value it gives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OwnOrder {
    /// Indexes into the modifiers, in the order applied.
    pub order: Vec<usize>,
    /// The attack value this order gives.
    pub value: i32,
}

/// The attack values the attacker's own modifiers can give, one per distinct value, highest first.
///
/// Each comes with the first order (in index order) that gives it. When several modifiers apply the
/// attacker's side picks their order: attack 3 with `+2` and `double` gives 10 (`+2` first) or 8.
pub fn own_value_options(base: i32, own: &[OwnModifier]) -> Vec<OwnOrder> {
    // Walk the distinct orders of the modifiers as a multiset: identical modifiers give identical
    // values, so this stays small however many +1s there are.
    let mut idx: Vec<usize> = (0..own.len()).collect();
    idx.sort_by_key(|&i| (own[i], i));
    let mut kinds: Vec<OwnModifier> = idx.iter().map(|&i| own[i]).collect();
    let mut found: Vec<OwnOrder> = Vec::new();
    loop {
        let value = kinds.iter().fold(base, |v, m| match m {
            OwnModifier::Plus(n) => v + n,
            OwnModifier::Double => v * 2,
        });
        if !found.iter().any(|o| o.value == value) {
            // Map the kinds back to indexes, using each original index once, lowest first.
            let mut used = vec![false; own.len()];
            let order = kinds
                .iter()
                .map(|k| {
                    let i = (0..own.len())
                        .find(|&i| !used[i] && own[i] == *k)
                        .unwrap_or(0);
                    used[i] = true;
                    i
                })
                .collect();
            found.push(OwnOrder { order, value });
        }
        if !next_permutation(&mut kinds) {
            break;
        }
    }
    found.sort_by(|a, b| b.value.cmp(&a.value).then_with(|| a.order.cmp(&b.order)));
    found
}

/// Rearranges into the next permutation in lexicographic order; false after the last one.
fn next_permutation<T: Ord>(v: &mut [T]) -> bool {
    let Some(i) = (1..v.len()).rev().find(|&i| v[i - 1] < v[i]) else {
        return false;
    };
    let j = (i..v.len()).rev().find(|&j| v[i - 1] < v[j]).unwrap_or(i);
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}

/// When a ×2 card is used with rolling bonuses, the attacker's side picks which applies first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CardOrder {
    /// Only one way to apply the cards.
    Single,
    /// Rolling bonuses first, then ×2.
    BonusesThenDouble,
    /// ×2 first, then the rolling bonuses.
    DoubleThenBonuses,
}

/// The attack values the card step can give from `attack`, as `(order, value)`, `None` for a null
/// result: the sum of the rolling bonuses plus at most one card that is not rolling.
pub(crate) fn card_step_values(
    attack: i32,
    rolling_bonus: i32,
    last: Option<&Value>,
) -> Vec<(CardOrder, Option<i32>)> {
    match last {
        None => vec![(CardOrder::Single, Some(attack + rolling_bonus))],
        Some(Value::Plus(n)) => vec![(CardOrder::Single, Some(attack + rolling_bonus + n))],
        Some(Value::Null) => vec![(CardOrder::Single, None)],
        Some(Value::Double) if rolling_bonus == 0 => vec![(CardOrder::Single, Some(attack * 2))],
        Some(Value::Double) => {
            vec![
                (
                    CardOrder::BonusesThenDouble,
                    Some((attack + rolling_bonus) * 2),
                ),
                (
                    CardOrder::DoubleThenBonuses,
                    Some(attack * 2 + rolling_bonus),
                ),
            ]
        }
    }
}

/// Damage from an attack value against a shield, with pierce: never below 0.
pub fn damage(value: i32, shield: u32, pierce: u32) -> u32 {
    let shield = shield.saturating_sub(pierce) as i64;
    (value as i64 - shield).clamp(0, u32::MAX as i64) as u32
}

/// One way the card step can end for a target.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardOutcome {
    /// Indexes into the draw's cards that count.
    pub used: Vec<usize>,
    /// How rolling bonuses and a ×2 were ordered.
    pub order: CardOrder,
    /// The attack value after the card step (0 when nullified).
    pub value: i32,
    /// A null or curse card counts: the attack does nothing, its effects included.
    pub nullified: bool,
    /// The effects of the cards that count (none when nullified).
    pub effects: Vec<Effect>,
    /// The target's shield after pierce.
    pub shield: u32,
    /// The damage dealt: value less shield, never below 0.
    pub damage: u32,
}

/// The card and shield steps for one target.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackResult {
    /// Every outcome the attacker's side may choose from, most damage first. One, unless the draw
    /// left a choice of cards or a ×2 came with rolling bonuses.
    pub options: Vec<CardOutcome>,
    /// The rule steps, one readable line each.
    pub trace: Vec<String>,
}

impl AttackResult {
    /// The outcome dealing the most damage to this target (the first option). A result made by
    /// [`resolve_attack`] always has at least one option.
    pub fn best(&self) -> &CardOutcome {
        &self.options[0]
    }

    /// Whether the attacker's side has a choice to make.
    pub fn is_choice(&self) -> bool {
        self.options.len() > 1
    }
}

/// Applies the drawn card(s) and then the target's shield (less the attack's own `pierce` and the
/// cards' pierce) to the attack value the draw was made for (`draw.attack`, after own modifiers).
pub fn resolve_attack(draw: &Draw, shield: u32, pierce: u32) -> AttackResult {
    let mut options = Vec::new();
    let mut trace = draw.trace.clone();
    for used in &draw.options {
        let cards: Vec<&Card> = used.iter().map(|&i| &draw.drawn[i]).collect();
        let bonus: i32 = cards
            .iter()
            .filter(|c| c.rolling)
            .map(|c| if let Value::Plus(n) = c.value { n } else { 0 })
            .sum();
        let last = cards.iter().find(|c| !c.rolling).map(|c| &c.value);
        let card_pierce: u32 = cards.iter().map(|c| c.pierce()).sum();
        let effects: Vec<Effect> = cards
            .iter()
            .flat_map(|c| c.effects.iter().copied())
            .collect();
        let names: Vec<String> = cards.iter().map(|c| c.name()).collect();
        let names = if names.is_empty() {
            "no card".to_string()
        } else {
            names.join(" + ")
        };
        for (order, value) in card_step_values(draw.attack, bonus, last) {
            let outcome = match value {
                None => {
                    trace.push(format!("{names}: null, the attack does nothing"));
                    CardOutcome {
                        used: used.clone(),
                        order,
                        value: 0,
                        nullified: true,
                        effects: Vec::new(),
                        shield,
                        damage: 0,
                    }
                }
                Some(v) => {
                    let left = shield.saturating_sub(pierce + card_pierce);
                    let dmg = damage(v, shield, pierce + card_pierce);
                    let how = match order {
                        CardOrder::Single => String::new(),
                        CardOrder::BonusesThenDouble => " (rolling bonuses, then ×2)".into(),
                        CardOrder::DoubleThenBonuses => " (×2, then rolling bonuses)".into(),
                    };
                    let sh = if left == shield {
                        format!("shield {shield}")
                    } else {
                        format!("shield {shield} pierced to {left}")
                    };
                    trace.push(format!(
                        "attack {} with {names}{how} → {v}; {sh} → {dmg} damage",
                        draw.attack
                    ));
                    CardOutcome {
                        used: used.clone(),
                        order,
                        value: v,
                        nullified: false,
                        effects: effects.clone(),
                        shield: left,
                        damage: dmg,
                    }
                }
            };
            options.push(outcome);
        }
    }
    // Most damage first; the sort is stable, so equal damage keeps the order of the draw's options.
    options.sort_by_key(|o| std::cmp::Reverse(o.damage));
    if options.len() > 1 {
        trace.push(format!(
            "the attacker's side chooses among {} outcomes; the most damage is {}",
            options.len(),
            options[0].damage
        ));
    }
    AttackResult { options, trace }
}

/// How a figure came onto the board: only those that were neither summoned nor spawned leave money.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Origin {
    /// Set out by the scenario.
    #[default]
    Placed,
    /// Summoned by a hero or a monster.
    Summoned,
    /// Spawned by a monster ability.
    Spawned,
    /// A hero: heroes leave no money token.
    Hero,
}

/// What one outcome does to one target with `hp` hit points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hit {
    /// The damage dealt.
    pub damage: u32,
    /// Hit points left (0 or fewer: dead).
    pub hp_left: i32,
    /// Brought to 0 or fewer hit points: the target dies at once and is removed.
    pub dies: bool,
    /// The dead monster leaves a money token on its hex.
    pub money_token: bool,
    /// Effects that land on the target (none if it died: they no longer apply to it).
    pub on_target: Vec<Effect>,
    /// Effects for the attacker or the board (heal, shield, elements, an extra target, bless);
    /// these happen whether or not the target died.
    pub on_attacker: Vec<Effect>,
    /// The rule steps, one readable line each.
    pub trace: Vec<String>,
}

/// Applies an outcome to a monster: damage, death at 0 or fewer hit points with its money token,
/// and the card effects that still apply.
pub fn hit(hp: i32, origin: Origin, outcome: &CardOutcome) -> Hit {
    let hp_left = hp.saturating_sub(i32::try_from(outcome.damage).unwrap_or(i32::MAX));
    let dies = hp_left <= 0;
    let money_token = dies && origin == Origin::Placed;
    let mut trace = vec![format!(
        "{} damage: {hp} → {hp_left} hit points",
        outcome.damage
    )];
    let (target_fx, attacker_fx): (Vec<Effect>, Vec<Effect>) = outcome
        .effects
        .iter()
        .copied()
        .filter(|e| !matches!(e, Effect::Pierce(_)))
        .partition(|e| e.is_on_target());
    let on_target = if dies {
        trace.push("the target dies at once and is removed".into());
        if !target_fx.is_empty() {
            let lost: Vec<String> = target_fx.iter().map(Effect::to_string).collect();
            trace.push(format!("{} no longer apply to it", lost.join(", ")));
        }
        trace.push(if money_token {
            "it leaves a money token on its hex".into()
        } else if origin == Origin::Hero {
            "heroes leave no money token".into()
        } else {
            format!("{origin:?} figures leave no money token").to_lowercase()
        });
        Vec::new()
    } else {
        target_fx
    };
    Hit {
        damage: outcome.damage,
        hp_left,
        dies,
        money_token,
        on_target,
        on_attacker: attacker_fx,
        trace,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::modifiers::draw::Mode;

    /// (mode, attack value, cards drawn, shield, pierce, the most damage)
    type DamageCase = (Mode, i32, &'static [&'static str], u32, u32, u32);

    fn draw(mode: Mode, attack: i32, names: &[&str]) -> Draw {
        Draw::from_cards(
            mode,
            attack,
            names.iter().map(|n| Card::parse(n).unwrap()).collect(),
        )
    }

    #[test]
    fn attack_three_with_plus_two_then_double_gives_ten() {
        let options = own_value_options(3, &[OwnModifier::Double, OwnModifier::Plus(2)]);
        assert_eq!(
            options,
            vec![
                OwnOrder {
                    order: vec![1, 0],
                    value: 10
                },
                OwnOrder {
                    order: vec![0, 1],
                    value: 8
                }
            ]
        );
    }

    #[test]
    fn own_modifiers_without_a_choice_give_one_value() {
        let cases: [(i32, &[OwnModifier], Vec<i32>); 4] = [
            (3, &[], vec![3]),
            (3, &[OwnModifier::Plus(1), OwnModifier::Plus(1)], vec![5]),
            (2, &[OwnModifier::Double, OwnModifier::Double], vec![8]),
            (
                1,
                &[
                    OwnModifier::Plus(1),
                    OwnModifier::Double,
                    OwnModifier::Plus(-1),
                ],
                vec![3, 2, 1],
            ),
        ];
        for (base, own, want) in cases {
            let got: Vec<i32> = own_value_options(base, own)
                .iter()
                .map(|o| o.value)
                .collect();
            assert_eq!(got, want, "{base} {own:?}");
        }
    }

    #[test]
    fn the_card_step_comes_after_own_modifiers_and_before_the_shield() {
        let cases: [DamageCase; 8] = [
            (Mode::Normal, 3, &["+1"], 1, 0, 3),
            (Mode::Normal, 3, &["x2"], 2, 0, 4),
            (Mode::Normal, 3, &["null"], 0, 0, 0),
            (Mode::Normal, 1, &["-2"], 0, 0, 0),
            (Mode::Normal, 3, &["+0"], 3, 2, 2),
            (Mode::Normal, 3, &["+0 pierce 1"], 3, 1, 2),
            (Mode::Normal, 3, &["r+1", "r+1 pierce 2", "+0"], 3, 0, 4),
            (Mode::Advantage, 3, &["+0 poison", "+1"], 0, 0, 4),
        ];
        for (mode, attack, cards, shield, pierce, want) in cases {
            let result = resolve_attack(&draw(mode, attack, cards), shield, pierce);
            assert_eq!(result.best().damage, want, "{cards:?}: {:?}", result.trace);
        }
    }

    #[test]
    fn x2_with_rolling_bonuses_lets_the_attacker_pick_the_order() {
        let result = resolve_attack(&draw(Mode::Normal, 3, &["r+1", "x2"]), 0, 0);
        let got: Vec<(CardOrder, u32)> =
            result.options.iter().map(|o| (o.order, o.damage)).collect();
        assert_eq!(
            got,
            vec![
                (CardOrder::BonusesThenDouble, 8),
                (CardOrder::DoubleThenBonuses, 7)
            ]
        );
    }

    #[test]
    fn a_null_drops_the_rolling_effects_too() {
        let result = resolve_attack(&draw(Mode::Normal, 3, &["r+1 poison", "null"]), 0, 0);
        assert_eq!(result.options.len(), 1);
        let o = result.best();
        assert!(o.nullified && o.effects.is_empty() && o.damage == 0);
    }

    #[test]
    fn a_dying_monster_takes_no_further_effects_but_the_attacker_keeps_its_own() {
        let result = resolve_attack(
            &draw(Mode::Normal, 3, &["r+0 heal 2", "+1 poison push 1"]),
            0,
            0,
        );
        assert_eq!(result.best().damage, 4);
        for (hp, origin) in [
            (5, Origin::Placed),
            (9, Origin::Placed),
            (5, Origin::Summoned),
        ] {
            let h = hit(hp, origin, result.best());
            assert_eq!(
                (h.dies, h.money_token, h.hp_left),
                (false, false, hp - 4),
                "{hp}"
            );
            assert_eq!(
                h.on_target,
                vec![Effect::Poison, Effect::Push(1)],
                "a survivor takes the effects"
            );
            assert_eq!(h.on_attacker, vec![Effect::Heal(2)]);
        }
        let cases = [
            (4, Origin::Placed, true),
            (3, Origin::Placed, true),
            (4, Origin::Summoned, false),
            (2, Origin::Spawned, false),
        ];
        for (hp, origin, money) in cases {
            let h = hit(hp, origin, result.best());
            assert!(h.dies, "{hp}: {:?}", h.trace);
            assert_eq!(h.money_token, money, "{origin:?}");
            assert!(
                h.on_target.is_empty(),
                "poison and push do not apply to a dead monster"
            );
            assert_eq!(
                h.on_attacker,
                vec![Effect::Heal(2)],
                "the heal is the attacker's"
            );
        }
    }
}
