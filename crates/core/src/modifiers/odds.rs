//! Exact damage odds of one modifier draw against one target, enumerated over every order of the draw pile.
//!
//! Cards are grouped by kind with counts, and the draws are followed card by card without
//! replacement. A rolling chain from a given pile ends the same way however the pile was reached, so
//! its outcome distribution (rolling bonus, rolling pierce, the card that ends it) is memoised on the
//! multiset of cards left. All probabilities are exact [`Fraction`]s.
//!
//! Every probability met is a sum of terms `k / (N·(N−1)·…·(N−d+1))` for a pile of `N` cards and at
//! most `d` cards drawn, so all denominators divide that falling factorial; [`odds`] checks it fits
//! before it starts, which keeps the fraction arithmetic free of overflow.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::rc::Rc;

use serde::Deserialize;

use super::attack::{card_step_values, damage};
use super::card::{Card, Value, card_list};
use super::draw::{Comparison, Mode, compare};
use super::fraction::Fraction;
use crate::error::{LoadError, offset_to_position, parse_ron};

/// The exact distribution of damage to one target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Odds {
    /// Damage → probability; only damage values with a nonzero probability.
    pub distribution: BTreeMap<u32, Fraction>,
    /// The expected damage.
    pub expected: Fraction,
    /// The chance that the card step ends in a null or curse.
    pub null_chance: Fraction,
    /// The chance that the attacker's side had a choice (which card is better, the order of ×2 and
    /// rolling bonuses) that changed the damage; the odds take the choice dealing more.
    pub choice_chance: Fraction,
}

/// Why odds cannot be computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OddsError {
    /// No card to draw.
    EmptyDeck,
    /// The pile is so large, with so many rolling cards, that exact fractions would not fit.
    TooLarge {
        /// Cards in the pile.
        cards: usize,
        /// The most cards one draw can take.
        most_drawn: usize,
    },
}

impl std::fmt::Display for OddsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OddsError::EmptyDeck => write!(f, "the deck is empty: a draw needs at least one card"),
            OddsError::TooLarge { cards, most_drawn } => {
                write!(
                    f,
                    "too large for exact odds: {cards} cards with up to {most_drawn} drawn in one draw"
                )
            }
        }
    }
}

/// How one card sequence ends, as far as damage is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Eval {
    damage: u32,
    null: bool,
    /// The attacker's choice changed the damage.
    choice: bool,
}

/// The end of a rolling chain: the bonus and pierce of its rolling cards and the card (kind index)
/// that ended it, or `None` if the pile ran out first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct ChainEnd {
    bonus: i32,
    pierce: u32,
    last: Option<usize>,
}

type ChainDist = Rc<Vec<(ChainEnd, Fraction)>>;

struct Engine {
    kinds: Vec<Card>,
    attack: i32,
    shield: u32,
    pierce: u32,
    memo: BTreeMap<Vec<u16>, ChainDist>,
    distribution: BTreeMap<u32, Fraction>,
    null_chance: Fraction,
    choice_chance: Fraction,
}

fn bonus_of(card: &Card) -> i32 {
    if let Value::Plus(n) = card.value {
        n
    } else {
        0
    }
}

impl Engine {
    /// Distribution of a plain draw (a rolling chain) from a pile with these counts.
    fn chain(&mut self, counts: &mut Vec<u16>) -> ChainDist {
        if let Some(d) = self.memo.get(counts.as_slice()) {
            return d.clone();
        }
        let total: u32 = counts.iter().map(|&c| c as u32).sum();
        let mut acc: BTreeMap<ChainEnd, Fraction> = BTreeMap::new();
        if total == 0 {
            acc.insert(
                ChainEnd {
                    bonus: 0,
                    pierce: 0,
                    last: None,
                },
                Fraction::ONE,
            );
        }
        for k in 0..self.kinds.len() {
            if counts[k] == 0 {
                continue;
            }
            let p = Fraction::new(counts[k] as u128, total as u128);
            if self.kinds[k].rolling {
                let (b, pi) = (bonus_of(&self.kinds[k]), self.kinds[k].pierce());
                counts[k] -= 1;
                let rest = self.chain(counts);
                counts[k] += 1;
                for (end, q) in rest.iter() {
                    let e = ChainEnd {
                        bonus: end.bonus + b,
                        pierce: end.pierce + pi,
                        last: end.last,
                    };
                    let slot = acc.entry(e).or_default();
                    *slot += p * *q;
                }
            } else {
                let slot = acc
                    .entry(ChainEnd {
                        bonus: 0,
                        pierce: 0,
                        last: Some(k),
                    })
                    .or_default();
                *slot += p;
            }
        }
        let d: ChainDist = Rc::new(acc.into_iter().collect());
        self.memo.insert(counts.clone(), d.clone());
        d
    }

    /// The damage of rolling cards (bonus, pierce) plus at most one card that is not rolling.
    fn eval(&self, bonus: i32, rolling_pierce: u32, last: Option<usize>) -> Eval {
        let last_card = last.map(|k| &self.kinds[k]);
        let pierce = self.pierce + rolling_pierce + last_card.map_or(0, Card::pierce);
        let mut best: Option<Eval> = None;
        let mut worst = u32::MAX;
        for (_, value) in card_step_values(self.attack, bonus, last_card.map(|c| &c.value)) {
            let e = match value {
                None => Eval {
                    damage: 0,
                    null: true,
                    choice: false,
                },
                Some(v) => Eval {
                    damage: damage(v, self.shield, pierce),
                    null: false,
                    choice: false,
                },
            };
            worst = worst.min(e.damage);
            if best.is_none_or(|b| e.damage > b.damage) {
                best = Some(e);
            }
        }
        let best = best.unwrap_or(Eval {
            damage: 0,
            null: false,
            choice: false,
        });
        Eval {
            choice: best.damage > worst,
            ..best
        }
    }

    /// Two cards that are not rolling, under advantage or disadvantage.
    fn pick(&self, mode: Mode, a: usize, b: usize) -> Eval {
        let (ea, eb) = (self.eval(0, 0, Some(a)), self.eval(0, 0, Some(b)));
        let advantage = mode == Mode::Advantage;
        match compare(&self.kinds[a], &self.kinds[b], self.attack) {
            Comparison::Same => ea,
            Comparison::Better => {
                if advantage {
                    ea
                } else {
                    eb
                }
            }
            Comparison::Worse => {
                if advantage {
                    eb
                } else {
                    ea
                }
            }
            // The attacker's side chooses: the odds take the one dealing more damage.
            Comparison::Unclear => {
                let (hi, lo) = if eb.damage > ea.damage {
                    (eb, ea)
                } else {
                    (ea, eb)
                };
                Eval {
                    choice: hi.damage > lo.damage,
                    ..hi
                }
            }
        }
    }

    fn record(&mut self, e: Eval, p: Fraction) {
        let slot = self.distribution.entry(e.damage).or_default();
        *slot += p;
        if e.null {
            self.null_chance += p;
        }
        if e.choice {
            self.choice_chance += p;
        }
    }

    fn record_chain(&mut self, counts: &mut Vec<u16>, p: Fraction, bonus: i32, pierce: u32) {
        for (end, q) in self.chain(counts).iter() {
            let e = self.eval(bonus + end.bonus, pierce + end.pierce, end.last);
            self.record(e, p * *q);
        }
    }

    fn run(&mut self, mode: Mode, counts: &mut Vec<u16>) {
        let total: u32 = counts.iter().map(|&c| c as u32).sum();
        if mode == Mode::Normal || (total == 1 && mode == Mode::Advantage) {
            // With a single card, advantage is that card with its rolling chain (which runs out).
            self.record_chain(counts, Fraction::ONE, 0, 0);
            return;
        }
        if total == 1 {
            // Disadvantage with a single card: it applies unless it is rolling (disregarded).
            let k = counts.iter().position(|&c| c > 0).unwrap_or(0);
            let e = if self.kinds[k].rolling {
                self.eval(0, 0, None)
            } else {
                self.eval(0, 0, Some(k))
            };
            self.record(e, Fraction::ONE);
            return;
        }
        let n = self.kinds.len();
        for a in 0..n {
            if counts[a] == 0 {
                continue;
            }
            let pa = Fraction::new(counts[a] as u128, total as u128);
            counts[a] -= 1;
            for b in 0..n {
                if counts[b] == 0 {
                    continue;
                }
                let p = pa * Fraction::new(counts[b] as u128, total as u128 - 1);
                let (ra, rb) = (self.kinds[a].rolling, self.kinds[b].rolling);
                match (ra, rb, mode) {
                    (false, false, _) => {
                        let e = self.pick(mode, a, b);
                        self.record(e, p);
                    }
                    (true, true, Mode::Advantage) => {
                        counts[b] -= 1;
                        let (ka, kb) = (&self.kinds[a], &self.kinds[b]);
                        let (bonus, pierce) =
                            (bonus_of(ka) + bonus_of(kb), ka.pierce() + kb.pierce());
                        self.record_chain(counts, p, bonus, pierce);
                        counts[b] += 1;
                    }
                    (true, true, _) => {
                        // Disadvantage: only the card that ends the chain applies.
                        counts[b] -= 1;
                        let ends: Vec<(Option<usize>, Fraction)> = self
                            .chain(counts)
                            .iter()
                            .map(|(e, q)| (e.last, *q))
                            .collect();
                        counts[b] += 1;
                        for (last, q) in ends {
                            let e = self.eval(0, 0, last);
                            self.record(e, p * q);
                        }
                    }
                    (true, false, Mode::Advantage) | (false, true, Mode::Advantage) => {
                        let (r, other) = if ra { (a, b) } else { (b, a) };
                        let e = self.eval(
                            bonus_of(&self.kinds[r]),
                            self.kinds[r].pierce(),
                            Some(other),
                        );
                        self.record(e, p);
                    }
                    (true, false, _) | (false, true, _) => {
                        let e = self.eval(0, 0, Some(if ra { b } else { a }));
                        self.record(e, p);
                    }
                }
            }
            counts[a] += 1;
        }
    }
}

/// The most cards [`odds`] takes in a pile.
pub(crate) const MAX_CARDS: usize = 1000;

/// The most mixes of rolling cards [`odds`] follows (the product over kinds of rolling cards of
/// their count plus one): beyond it the enumeration would take too long.
pub(crate) const MAX_ROLLING_STATES: u128 = 1 << 20;

/// The exact damage distribution of one draw from `deck` (the draw pile, every order equally likely).
///
/// The attack has value `attack` (after the attacker's own modifiers) and its own `pierce`, against
/// `shield`. See the module documentation of [`super`] for the reading of the rules.
pub fn odds(
    deck: &[Card],
    attack: u32,
    shield: u32,
    pierce: u32,
    mode: Mode,
) -> Result<Odds, OddsError> {
    if deck.is_empty() {
        return Err(OddsError::EmptyDeck);
    }
    let rolling = deck.iter().filter(|c| c.rolling).count();
    let most_drawn = (rolling + 1).max(2).min(deck.len());
    let too_large = OddsError::TooLarge {
        cards: deck.len(),
        most_drawn,
    };
    if deck.len() > MAX_CARDS {
        return Err(too_large);
    }
    // The memo holds one entry per reachable mix of rolling cards left: bound it.
    let mut rolling_kinds: Vec<&Card> = deck.iter().filter(|c| c.rolling).collect();
    rolling_kinds.sort();
    let mut states: u128 = 1;
    for group in rolling_kinds.chunk_by(|a, b| a == b) {
        states = states.saturating_mul(group.len() as u128 + 1);
    }
    if states > MAX_ROLLING_STATES {
        return Err(too_large);
    }
    // Bound every denominator (see the module docs) and every numerator of the expected damage.
    let mut bound: u128 = 1;
    for i in 0..most_drawn {
        bound = bound
            .checked_mul((deck.len() - i) as u128)
            .ok_or(too_large.clone())?;
    }
    let card_sum: u128 = deck
        .iter()
        .map(|c| bonus_of(c).unsigned_abs() as u128)
        .sum();
    let max_damage = 2 * (attack as u128 + card_sum) + 1;
    if bound
        .checked_mul(max_damage)
        .and_then(|b| b.checked_mul(8))
        .is_none()
    {
        return Err(too_large);
    }
    let attack = i32::try_from(attack).map_err(|_| too_large.clone())?;

    let mut kinds: Vec<Card> = deck.to_vec();
    kinds.sort();
    kinds.dedup();
    let mut counts: Vec<u16> = kinds
        .iter()
        .map(|k| deck.iter().filter(|c| *c == k).count() as u16)
        .collect();
    let mut engine = Engine {
        kinds,
        attack,
        shield,
        pierce,
        memo: BTreeMap::new(),
        distribution: BTreeMap::new(),
        null_chance: Fraction::ZERO,
        choice_chance: Fraction::ZERO,
    };
    engine.run(mode, &mut counts);
    engine.distribution.retain(|_, p| !p.is_zero());
    let expected = engine
        .distribution
        .iter()
        .fold(Fraction::ZERO, |acc, (d, p)| acc + p.times(*d as u128));
    Ok(Odds {
        distribution: engine.distribution,
        expected,
        null_chance: engine.null_chance,
        choice_chance: engine.choice_chance,
    })
}

/// An odds query file.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OddsQuery {
    /// The draw pile now, every order equally likely: cards or `(count, card)` pairs.
    #[serde(deserialize_with = "card_list")]
    pub deck: Vec<Card>,
    /// The attack value after the attacker's own modifiers.
    pub attack: i64,
    /// The target's shield.
    pub shield: i64,
    /// How the attack draws its card.
    pub mode: Mode,
    /// The attack's own pierce (the cards' pierce is added to it).
    #[serde(default)]
    pub pierce: i64,
}

/// The largest attack, shield or pierce a query accepts.
pub(crate) const MAX_VALUE: i64 = 10_000;

/// 1-based position of a field `name:` in RON text, skipping comments and strings.
fn field_position(text: &str, name: &str) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                    i += 1;
                }
                i += 2;
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            _ if text[i..].starts_with(name)
                && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_')) =>
            {
                let rest = text[i + name.len()..].trim_start();
                if rest.starts_with(':') {
                    return Some(offset_to_position(text, i));
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    None
}

impl OddsQuery {
    /// Reads and checks a query; errors name the file, line and column.
    pub fn parse(file: &str, text: &str) -> Result<OddsQuery, LoadError> {
        let query: OddsQuery = parse_ron(file, text)?;
        let at = |field: &str, message: String| match field_position(text, field) {
            Some((line, column)) => LoadError::new(file, line, column, message),
            None => LoadError::whole(file, message),
        };
        for (field, value) in [
            ("attack", query.attack),
            ("shield", query.shield),
            ("pierce", query.pierce),
        ] {
            if !(0..=MAX_VALUE).contains(&value) {
                return Err(at(
                    field,
                    format!(
                        "`{field}` must be a whole number from 0 to {MAX_VALUE}, found {value}"
                    ),
                ));
            }
        }
        if query.deck.is_empty() {
            return Err(at(
                "deck",
                "`deck` is empty: a draw needs at least one card".into(),
            ));
        }
        Ok(query)
    }

    /// The odds this query asks for.
    pub fn odds(&self) -> Result<Odds, OddsError> {
        odds(
            &self.deck,
            self.attack as u32,
            self.shield as u32,
            self.pierce as u32,
            self.mode,
        )
    }
}

impl Odds {
    /// `{"distribution": {"0": p, …}, "expected": e, "null_chance": p}`, damage keys in numeric order.
    pub fn to_json(&self) -> String {
        // Rust prints the shortest decimal that reads back as the same f64, never an exponent,
        // and these are finite: valid JSON numbers.
        let num = |f: Fraction| format!("{}", f.to_f64());
        let entries: Vec<String> = self
            .distribution
            .iter()
            .map(|(d, p)| format!("\"{d}\": {}", num(*p)))
            .collect();
        format!(
            "{{\"distribution\": {{{}}}, \"expected\": {}, \"null_chance\": {}}}",
            entries.join(", "),
            num(self.expected),
            num(self.null_chance)
        )
    }

    /// A readable table with exact fractions and a small histogram.
    pub fn table(&self, query: &OddsQuery) -> String {
        let mut out = String::new();
        let rolling = query.deck.iter().filter(|c| c.rolling).count();
        let pierce = if query.pierce > 0 {
            format!(" with pierce {}", query.pierce)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "attack {}{pierce} against shield {}, {}, {} cards in the draw pile ({rolling} rolling)\n",
            query.attack,
            query.shield,
            query.mode,
            query.deck.len()
        );
        let width = self
            .distribution
            .values()
            .map(|p| p.to_string().len())
            .max()
            .unwrap_or(1)
            .max(6);
        let top = self
            .distribution
            .values()
            .map(|p| p.to_f64())
            .fold(0.0, f64::max);
        let _ = writeln!(out, "damage  {:<width$}  percent", "chance");
        for (d, p) in &self.distribution {
            let bar = "#".repeat(((p.to_f64() / top) * 40.0).round() as usize);
            let _ = writeln!(
                out,
                "{d:>6}  {:<width$}  {:>6.2}%  {bar}",
                p.to_string(),
                p.to_f64() * 100.0
            );
        }
        let _ = writeln!(
            out,
            "\nexpected damage  {} ≈ {:.3}",
            self.expected,
            self.expected.to_f64()
        );
        let _ = writeln!(
            out,
            "null or curse    {} ≈ {:.2}%",
            self.null_chance,
            self.null_chance.to_f64() * 100.0
        );
        let _ = writeln!(
            out,
            "\nWhere the rules leave the choice to the attacker's side (which of two cards is better, or whether ×2\n\
             comes before or after rolling bonuses), these odds assume the choice that deals more damage to this\n\
             target. Such a choice changed the damage with probability {} ≈ {:.2}%.",
            self.choice_chance,
            self.choice_chance.to_f64() * 100.0
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deck(names: &[&str]) -> Vec<Card> {
        names.iter().map(|n| Card::parse(n).unwrap()).collect()
    }

    fn f(n: u128, d: u128) -> Fraction {
        Fraction::new(n, d)
    }

    fn dist(pairs: &[(u32, Fraction)]) -> BTreeMap<u32, Fraction> {
        pairs.iter().copied().collect()
    }

    /// (mode, deck, attack, shield, distribution, expected, null chance, choice chance), all worked
    /// out by hand over the equally likely orders of the pile.
    #[expect(
        clippy::type_complexity,
        reason = "one tuple per hand-worked case reads best as a table"
    )]
    fn hand_cases() -> Vec<(
        Mode,
        Vec<Card>,
        u32,
        u32,
        BTreeMap<u32, Fraction>,
        Fraction,
        Fraction,
        Fraction,
    )> {
        vec![
            // One card each: 1, 2, 3 (x2: 4 − 1) and 0 (null).
            (
                Mode::Normal,
                deck(&["+0", "+1", "x2", "null"]),
                2,
                1,
                dist(&[(0, f(1, 4)), (1, f(1, 4)), (2, f(1, 4)), (3, f(1, 4))]),
                f(3, 2),
                f(1, 4),
                f(0, 1),
            ),
            // Pairs {+0,+1} → +1, {+0,null} → +0, {+1,null} → +1.
            (
                Mode::Advantage,
                deck(&["+0", "+1", "null"]),
                2,
                0,
                dist(&[(2, f(1, 3)), (3, f(2, 3))]),
                f(8, 3),
                f(0, 1),
                f(0, 1),
            ),
            // The worse card: {+0,+1} → +0, otherwise null.
            (
                Mode::Disadvantage,
                deck(&["+0", "+1", "null"]),
                2,
                0,
                dist(&[(0, f(2, 3)), (2, f(1, 3))]),
                f(2, 3),
                f(2, 3),
                f(0, 1),
            ),
            // The chain ends in +0 or null alike; it holds 0, 1 or 2 rolling cards with 1/2, 1/3, 1/6.
            (
                Mode::Normal,
                deck(&["r+1", "r+1", "+0", "null"]),
                2,
                0,
                dist(&[(0, f(1, 2)), (2, f(1, 4)), (3, f(1, 6)), (4, f(1, 12))]),
                f(4, 3),
                f(1, 2),
                f(0, 1),
            ),
            // Twelve ordered pairs: {+0,x2} → x2: 5 (2); r+1 & +0: 3 (2); r+1 & x2: (3+1)·2 − 1 = 7 (2);
            // r+2 & +0: 4 (2); r+2 & x2: 9 (2); both rolling (2): then +0 → 5 or x2 → 11.
            (
                Mode::Advantage,
                deck(&["r+1", "r+2", "+0", "x2"]),
                3,
                1,
                dist(&[
                    (3, f(1, 6)),
                    (4, f(1, 6)),
                    (5, f(1, 4)),
                    (7, f(1, 6)),
                    (9, f(1, 6)),
                    (11, f(1, 12)),
                ]),
                f(6, 1),
                f(0, 1),
                f(5, 12),
            ),
            // Rolling cards are disregarded: +0 → 2 in 7 of 12 cases, x2 → 5 in 5.
            (
                Mode::Disadvantage,
                deck(&["r+1", "r+2", "+0", "x2"]),
                3,
                1,
                dist(&[(2, f(7, 12)), (5, f(5, 12))]),
                f(13, 4),
                f(0, 1),
                f(0, 1),
            ),
            // Unclear which is better or worse: the attacker's side takes the +1.
            (
                Mode::Advantage,
                deck(&["+0 poison", "+1"]),
                2,
                0,
                dist(&[(3, f(1, 1))]),
                f(3, 1),
                f(0, 1),
                f(1, 1),
            ),
            (
                Mode::Disadvantage,
                deck(&["+0 poison", "+1"]),
                2,
                0,
                dist(&[(3, f(1, 1))]),
                f(3, 1),
                f(0, 1),
                f(1, 1),
            ),
            // A chain that exhausts the pile: the rolling cards apply alone, or are disregarded.
            (
                Mode::Normal,
                deck(&["r+1", "r+2"]),
                1,
                0,
                dist(&[(4, f(1, 1))]),
                f(4, 1),
                f(0, 1),
                f(0, 1),
            ),
            (
                Mode::Advantage,
                deck(&["r+1", "r+2"]),
                1,
                0,
                dist(&[(4, f(1, 1))]),
                f(4, 1),
                f(0, 1),
                f(0, 1),
            ),
            (
                Mode::Disadvantage,
                deck(&["r+1", "r+2"]),
                1,
                0,
                dist(&[(1, f(1, 1))]),
                f(1, 1),
                f(0, 1),
                f(0, 1),
            ),
            // Bless doubles, curse nulls.
            (
                Mode::Normal,
                deck(&["bless", "curse"]),
                3,
                0,
                dist(&[(0, f(1, 2)), (6, f(1, 2))]),
                f(3, 1),
                f(1, 2),
                f(0, 1),
            ),
            // Pierce on a card goes through the shield: 3 − (2 − 2) = 3, or 3 − 2 = 1.
            (
                Mode::Normal,
                deck(&["+0 pierce 2", "+0"]),
                3,
                2,
                dist(&[(1, f(1, 2)), (3, f(1, 2))]),
                f(2, 1),
                f(0, 1),
                f(0, 1),
            ),
            // A single card under disadvantage: a rolling one is disregarded.
            (
                Mode::Disadvantage,
                deck(&["r+2"]),
                3,
                0,
                dist(&[(3, f(1, 1))]),
                f(3, 1),
                f(0, 1),
                f(0, 1),
            ),
        ]
    }

    #[test]
    fn small_decks_give_the_hand_computed_fractions() {
        for (mode, deck, attack, shield, distribution, expected, null_chance, choice_chance) in
            hand_cases()
        {
            let names: Vec<String> = deck.iter().map(Card::name).collect();
            let got = odds(&deck, attack, shield, 0, mode).unwrap();
            let want = Odds {
                distribution,
                expected,
                null_chance,
                choice_chance,
            };
            assert_eq!(
                got, want,
                "{mode} {names:?} attack {attack} shield {shield}"
            );
        }
    }

    #[test]
    fn the_probabilities_of_a_full_deck_add_up_to_one() {
        let mut cards = super::super::ModifierDeck::standard_cards();
        cards.extend(deck(&[
            "bless",
            "curse",
            "r+1",
            "r+1",
            "r+2 pierce 1",
            "r+0 poison",
            "+1 wound",
        ]));
        for mode in [Mode::Normal, Mode::Advantage, Mode::Disadvantage] {
            let o = odds(&cards, 3, 1, 0, mode).unwrap();
            let total = o.distribution.values().fold(Fraction::ZERO, |a, p| a + *p);
            assert_eq!(total, Fraction::ONE, "{mode}");
            assert!(o.null_chance > Fraction::ZERO && o.null_chance < Fraction::ONE);
        }
    }

    #[test]
    fn advantage_never_hurts_and_disadvantage_never_helps() {
        let mut cards = super::super::ModifierDeck::standard_cards();
        cards.extend(deck(&["bless", "curse", "r+1", "r+2"]));
        let e = |mode| odds(&cards, 3, 1, 0, mode).unwrap().expected;
        assert!(e(Mode::Advantage) > e(Mode::Normal));
        assert!(e(Mode::Disadvantage) < e(Mode::Normal));
    }

    #[test]
    fn piles_too_large_to_enumerate_are_refused_not_attempted() {
        let mut cards = super::super::ModifierDeck::standard_cards();
        cards.extend((1..=24).map(|n| Card::rolling(1).with(super::super::Effect::Push(n))));
        assert!(matches!(
            odds(&cards, 3, 0, 0, Mode::Normal),
            Err(OddsError::TooLarge { .. })
        ));
        let many = vec![Card::plus(0); MAX_CARDS + 1];
        assert!(matches!(
            odds(&many, 3, 0, 0, Mode::Normal),
            Err(OddsError::TooLarge { .. })
        ));
    }

    #[test]
    fn an_empty_deck_has_no_odds() {
        assert_eq!(odds(&[], 3, 0, 0, Mode::Normal), Err(OddsError::EmptyDeck));
    }

    #[test]
    fn the_example_query_parses_and_sums_to_one() {
        let text = r#"OddsQuery(
    deck: ["+0", "+0", "+1", "-1", "+2", "-2", "x2", "null", "bless", "curse", "r+1", "r+2", "r+0"],
    attack: 3,
    shield: 1,
    mode: Advantage, // Normal | Advantage | Disadvantage
)"#;
        let q = OddsQuery::parse("q.ron", text).unwrap();
        assert_eq!(
            (q.deck.len(), q.attack, q.shield, q.mode, q.pierce),
            (13, 3, 1, Mode::Advantage, 0)
        );
        let o = q.odds().unwrap();
        assert_eq!(
            o.distribution.values().fold(Fraction::ZERO, |a, p| a + *p),
            Fraction::ONE
        );
        let json = o.to_json();
        assert!(json.starts_with("{\"distribution\": {\"0\": "), "{json}");
        assert!(o.table(&q).contains("more damage"));
    }

    #[test]
    fn bad_queries_are_reported_where_they_are() {
        let cases = [
            (
                "OddsQuery(\n  deck: [\"+0\"],\n  attack: -1,\n  shield: 0,\n  mode: Normal,\n)",
                3,
                "attack",
            ),
            (
                "OddsQuery(\n  deck: [\"+0\"],\n  attack: 1,\n  // shield: 2\n  shield: -2,\n  mode: Normal,\n)",
                5,
                "shield",
            ),
            (
                "OddsQuery(\n  deck: [],\n  attack: 1,\n  shield: 0,\n  mode: Normal,\n)",
                2,
                "empty",
            ),
            (
                "OddsQuery(\n  deck: [\"+0\",\n    \"+5x\"],\n  attack: 1,\n  shield: 0,\n  mode: Normal,\n)",
                3,
                "+5x",
            ),
            (
                "OddsQuery(\n  deck: [(-2, \"+0\")],\n  attack: 1,\n  shield: 0,\n  mode: Normal,\n)",
                2,
                "count",
            ),
            (
                "OddsQuery(\n  deck: [\"+0\"],\n  attack: 1,\n  shield: 0,\n  mode: Sideways,\n)",
                5,
                "Sideways",
            ),
            (
                "OddsQuery(\n  deck: [\"+0\"],\n  attack: 1,\n  shield: 0,\n  mode: Normal,\n  luck: 3,\n)",
                6,
                "luck",
            ),
        ];
        for (text, line, needle) in cases {
            let err = OddsQuery::parse("q.ron", text).unwrap_err();
            assert_eq!(err.line, line, "{err}");
            assert!(
                err.column > 0 && err.to_string().starts_with(&format!("q.ron:{line}:")),
                "{err}"
            );
            assert!(err.message.contains(needle), "{err}");
        }
    }
}
