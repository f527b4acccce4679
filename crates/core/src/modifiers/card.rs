//! Attack modifier cards as data: value, rolling flag, effects, and the short names used in files.
//!
//! A card can be written in two forms, both accepted wherever cards are read:
//!
//! * a short name: `"+0"`, `"-1"`, `"+2"`, `"x2"`, `"null"`, `"bless"`, `"curse"`, `"r+1"` (rolling),
//!   optionally followed by effects: `"+1 poison"`, `"r+0 pierce 2"`, `"+0 push 1 fire"`;
//! * a structure: `(value: Plus(1), rolling: true, effects: [Poison, Pierce(2)])`, with `kind: Bless`
//!   or `kind: Curse` for blessings and curses.
//!
//! In card lists a `(count, card)` pair stands for `count` copies: `(6, "+0")`.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};

/// What a card does to the attack value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Value {
    /// Adds N (negative for the minus cards).
    Plus(i32),
    /// Doubles the attack value.
    #[serde(alias = "Times2", alias = "X2")]
    Double,
    /// The attack does nothing.
    Null,
}

/// An element a card can infuse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Element {
    /// Fire.
    Fire,
    /// Ice.
    Ice,
    /// Air.
    Air,
    /// Earth.
    Earth,
    /// Light.
    Light,
    /// Dark.
    Dark,
    /// Any one element of the attacker's choice.
    Wild,
}

impl Element {
    const ALL: [(Element, &'static str); 7] = [
        (Element::Fire, "fire"),
        (Element::Ice, "ice"),
        (Element::Air, "air"),
        (Element::Earth, "earth"),
        (Element::Light, "light"),
        (Element::Dark, "dark"),
        (Element::Wild, "wild"),
    ];

    /// The element's name in card text.
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(e, _)| *e == self)
            .map_or("wild", |(_, n)| n)
    }
}

/// An effect printed on a card, applied along with its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Effect {
    /// Ignores N points of the target's shield.
    Pierce(u32),
    /// The target is poisoned.
    Poison,
    /// The target is wounded.
    Wound,
    /// Pushes the target N hexes away.
    Push(u32),
    /// Pulls the target N hexes closer.
    Pull(u32),
    /// The target is stunned.
    Stun,
    /// The target is muddled.
    Muddle,
    /// The target is immobilized.
    Immobilize,
    /// The target is disarmed.
    Disarm,
    /// The attacker heals N.
    Heal(u32),
    /// The attacker gains shield N for the round.
    Shield(u32),
    /// The attacker infuses an element.
    Infuse(Element),
    /// The attack gains one more target.
    AddTarget,
    /// The target is cursed (a curse card goes into its deck).
    Curse,
    /// The attacker is blessed (a bless card goes into its deck).
    Bless,
}

impl Effect {
    /// Whether the effect lands on the target (and so is lost if the target dies from the damage),
    /// as opposed to the attacker or the board. Pierce is used up by the shield step.
    pub(crate) fn is_on_target(self) -> bool {
        matches!(
            self,
            Effect::Poison
                | Effect::Wound
                | Effect::Push(_)
                | Effect::Pull(_)
                | Effect::Stun
                | Effect::Muddle
                | Effect::Immobilize
                | Effect::Disarm
                | Effect::Curse
        )
    }

    /// The kind of effect, without its amount; used to compare two cards' effects.
    fn kind(self) -> Effect {
        match self {
            Effect::Pierce(_) => Effect::Pierce(0),
            Effect::Push(_) => Effect::Push(0),
            Effect::Pull(_) => Effect::Pull(0),
            Effect::Heal(_) => Effect::Heal(0),
            Effect::Shield(_) => Effect::Shield(0),
            other => other,
        }
    }

    fn amount(self) -> u32 {
        match self {
            Effect::Pierce(n)
            | Effect::Push(n)
            | Effect::Pull(n)
            | Effect::Heal(n)
            | Effect::Shield(n) => n,
            _ => 1,
        }
    }
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Effect::Pierce(n) => write!(f, "pierce {n}"),
            Effect::Poison => write!(f, "poison"),
            Effect::Wound => write!(f, "wound"),
            Effect::Push(n) => write!(f, "push {n}"),
            Effect::Pull(n) => write!(f, "pull {n}"),
            Effect::Stun => write!(f, "stun"),
            Effect::Muddle => write!(f, "muddle"),
            Effect::Immobilize => write!(f, "immobilize"),
            Effect::Disarm => write!(f, "disarm"),
            Effect::Heal(n) => write!(f, "heal {n}"),
            Effect::Shield(n) => write!(f, "shield {n}"),
            Effect::Infuse(e) => write!(f, "{}", e.name()),
            Effect::AddTarget => write!(f, "target"),
            Effect::Curse => write!(f, "curse"),
            Effect::Bless => write!(f, "bless"),
        }
    }
}

/// Sums a list of effects per kind (`pierce 1` + `pierce 2` = `pierce 3`), so two cards' effects can be
/// compared: one card's effects *cover* another's when it has every kind at least as strongly.
pub(crate) fn effect_totals(effects: &[Effect]) -> BTreeMap<Effect, u32> {
    let mut totals = BTreeMap::new();
    for e in effects {
        *totals.entry(e.kind()).or_insert(0) += e.amount();
    }
    totals
}

/// Whether effects `a` include everything in `b`, each at least as strong.
pub(crate) fn effects_cover(a: &BTreeMap<Effect, u32>, b: &BTreeMap<Effect, u32>) -> bool {
    b.iter()
        .all(|(kind, n)| a.get(kind).is_some_and(|m| m >= n))
}

/// Where a card comes from; blessings and curses leave the game once drawn.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub enum CardKind {
    /// A card of the deck itself (standard cards, perk and item cards).
    #[default]
    Deck,
    /// A ×2 card shuffled in by a blessing; removed from the game when drawn.
    Bless,
    /// A null card shuffled in by a curse; removed from the game when drawn.
    Curse,
}

/// One attack modifier card.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card {
    /// What the card does to the attack value.
    pub value: Value,
    /// A rolling card adds its value and effects, and another card is drawn.
    pub rolling: bool,
    /// Effects applied with the value.
    pub effects: Vec<Effect>,
    /// A deck card, a blessing or a curse.
    pub kind: CardKind,
}

impl Card {
    /// A `+n` card (`n` may be negative).
    pub fn plus(n: i32) -> Self {
        Self {
            value: Value::Plus(n),
            rolling: false,
            effects: Vec::new(),
            kind: CardKind::Deck,
        }
    }

    /// A rolling `+n` card.
    pub fn rolling(n: i32) -> Self {
        Self {
            rolling: true,
            ..Self::plus(n)
        }
    }

    /// The ×2 card.
    pub fn double() -> Self {
        Self {
            value: Value::Double,
            ..Self::plus(0)
        }
    }

    /// The null card.
    pub fn null() -> Self {
        Self {
            value: Value::Null,
            ..Self::plus(0)
        }
    }

    /// A blessing: ×2, leaves the game once drawn.
    pub fn bless() -> Self {
        Self {
            value: Value::Double,
            kind: CardKind::Bless,
            ..Self::plus(0)
        }
    }

    /// A curse: null, leaves the game once drawn.
    pub fn curse() -> Self {
        Self {
            value: Value::Null,
            kind: CardKind::Curse,
            ..Self::plus(0)
        }
    }

    /// The same card with one more effect.
    pub fn with(mut self, effect: Effect) -> Self {
        self.effects.push(effect);
        self
    }

    /// Whether drawing this card makes the deck reshuffle at the end of the round: the deck's own
    /// ×2 and null cards carry the reshuffle mark; blessings and curses do not (they leave the game).
    pub(crate) fn triggers_reshuffle(&self) -> bool {
        self.kind == CardKind::Deck && matches!(self.value, Value::Double | Value::Null)
    }

    /// Whether the card leaves the game once drawn instead of going to the discard pile.
    pub(crate) fn leaves_game(&self) -> bool {
        self.kind != CardKind::Deck
    }

    /// Whether the card nullifies the attack.
    pub fn is_null(&self) -> bool {
        self.value == Value::Null
    }

    /// Total pierce printed on the card.
    pub fn pierce(&self) -> u32 {
        self.effects
            .iter()
            .map(|e| if let Effect::Pierce(n) = e { *n } else { 0 })
            .sum()
    }

    /// Checks the combinations the rules never print: a rolling card always adds a number, a
    /// blessing is a ×2 and a curse a null, neither rolling.
    pub(crate) fn validate(&self) -> Result<(), String> {
        if let Value::Plus(n) = self.value
            // `unsigned_abs`: `abs` of the most negative number overflows.
            && n.unsigned_abs() > MAX_AMOUNT
        {
            return Err(format!("a card adds at most ±{MAX_AMOUNT}, found {n}"));
        }
        if let Some(e) = self.effects.iter().find(|e| e.amount() > MAX_AMOUNT) {
            return Err(format!(
                "effect amounts are at most {MAX_AMOUNT}, found `{e}`"
            ));
        }
        if self.rolling && !matches!(self.value, Value::Plus(_)) {
            return Err(format!(
                "a rolling card must add a number (r+N), not {:?}",
                self.value
            ));
        }
        match (self.kind, self.value, self.rolling) {
            (CardKind::Bless, Value::Double, false)
            | (CardKind::Curse, Value::Null, false)
            | (CardKind::Deck, _, _) => Ok(()),
            (CardKind::Bless, _, _) => Err("a bless card is a ×2 card that is not rolling".into()),
            (CardKind::Curse, _, _) => {
                Err("a curse card is a null card that is not rolling".into())
            }
        }
    }

    /// The short name, e.g. `+1`, `r+2 pierce 1`, `x2`, `bless`. [`Card::parse`] reads it back.
    pub fn name(&self) -> String {
        let mut s = match (self.kind, self.value) {
            (CardKind::Bless, _) => "bless".to_string(),
            (CardKind::Curse, _) => "curse".to_string(),
            (_, Value::Plus(n)) => format!(
                "{}{}{n}",
                if self.rolling { "r" } else { "" },
                if n >= 0 { "+" } else { "" }
            ),
            (_, Value::Double) => "x2".to_string(),
            (_, Value::Null) => "null".to_string(),
        };
        for e in &self.effects {
            s.push(' ');
            s.push_str(&e.to_string());
        }
        s
    }

    /// Reads a short name. The error message says what names are understood.
    pub fn parse(name: &str) -> Result<Card, String> {
        let bad = |why: &str| format!("unknown card `{name}`{why}; expected {EXPECTED_NAMES}");
        let mut words = name.split_whitespace();
        let first = words.next().ok_or_else(|| bad(""))?;
        let mut card = match first.to_ascii_lowercase().as_str() {
            "x2" | "×2" | "2x" => Card::double(),
            "null" => Card::null(),
            "bless" => Card::bless(),
            "curse" => Card::curse(),
            word => {
                let (rolling, number) = match word.strip_prefix('r') {
                    Some(rest) => (true, rest),
                    None => (false, word),
                };
                if !(number.starts_with('+') || number.starts_with('-')) {
                    return Err(bad(""));
                }
                let n: i32 = number.parse().map_err(|_| bad(""))?;
                if rolling {
                    Card::rolling(n)
                } else {
                    Card::plus(n)
                }
            }
        };
        while let Some(word) = words.next() {
            let mut amount = |what: &str| -> Result<u32, String> {
                words
                    .next()
                    .and_then(|w| w.parse().ok())
                    .ok_or_else(|| bad(&format!(" (`{what}` needs a number after it)")))
            };
            let effect = match word.to_ascii_lowercase().as_str() {
                "pierce" => Effect::Pierce(amount("pierce")?),
                "push" => Effect::Push(amount("push")?),
                "pull" => Effect::Pull(amount("pull")?),
                "heal" => Effect::Heal(amount("heal")?),
                "shield" => Effect::Shield(amount("shield")?),
                "poison" => Effect::Poison,
                "wound" => Effect::Wound,
                "stun" => Effect::Stun,
                "muddle" => Effect::Muddle,
                "immobilize" => Effect::Immobilize,
                "disarm" => Effect::Disarm,
                "target" => Effect::AddTarget,
                "curse" => Effect::Curse,
                "bless" => Effect::Bless,
                other => match Element::ALL.iter().find(|(_, n)| *n == other) {
                    Some((e, _)) => Effect::Infuse(*e),
                    None => return Err(bad(&format!(" (unknown effect `{word}`)"))),
                },
            };
            card.effects.push(effect);
        }
        card.validate()
            .map_err(|why| format!("card `{name}`: {why}"))?;
        Ok(card)
    }
}

/// The largest number a card adds or an effect carries; keeps all sums far from overflow.
pub(crate) const MAX_AMOUNT: u32 = 99;

/// The names [`Card::parse`] understands, for error messages.
pub(crate) const EXPECTED_NAMES: &str = "a card name: +N or -N (+0, +1, -1, +2, -2, …), x2, null, bless, curse, or a rolling rN (r+0, r+1, r+2, …), optionally followed by effects (pierce N, poison, wound, push N, pull N, stun, muddle, immobilize, disarm, heal N, shield N, fire, ice, air, earth, light, dark, wild, target, curse, bless)";

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl Serialize for Card {
    /// Cards are written as their short name, which carries everything about them.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.name())
    }
}

/// The structured form of a card in RON files.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CardFields {
    value: Value,
    #[serde(default)]
    rolling: bool,
    #[serde(default)]
    effects: Vec<Effect>,
    #[serde(default)]
    kind: CardKind,
}

impl CardFields {
    fn into_card<E: de::Error>(self) -> Result<Card, E> {
        let card = Card {
            value: self.value,
            rolling: self.rolling,
            effects: self.effects,
            kind: self.kind,
        };
        card.validate().map_err(E::custom)?;
        Ok(card)
    }
}

struct CardVisitor;

impl<'de> Visitor<'de> for CardVisitor {
    type Value = Card;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "{EXPECTED_NAMES}, or a structure like (value: Plus(1), rolling: true, effects: [Poison])"
        )
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Card, E> {
        Card::parse(v).map_err(E::custom)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Card, A::Error> {
        CardFields::deserialize(de::value::MapAccessDeserializer::new(map))?.into_card()
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(CardVisitor)
    }
}

/// One entry of a card list: a card, or `(count, card)` for several copies.
struct Entry(Vec<Card>);

struct EntryVisitor;

impl<'de> Visitor<'de> for EntryVisitor {
    type Value = Entry;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{EXPECTED_NAMES}, a structured card, or (count, card)")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Entry, E> {
        CardVisitor.visit_str(v).map(|c| Entry(vec![c]))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Entry, A::Error> {
        CardVisitor.visit_map(map).map(|c| Entry(vec![c]))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Entry, A::Error> {
        let count: i64 = seq
            .next_element()?
            .ok_or_else(|| de::Error::custom("expected (count, card), found ()"))?;
        if !(0..=100).contains(&count) {
            return Err(de::Error::custom(format!(
                "a card count must be between 0 and 100, found {count}"
            )));
        }
        let card: Card = seq
            .next_element()?
            .ok_or_else(|| de::Error::custom("expected (count, card), the card is missing"))?;
        if seq.next_element::<de::IgnoredAny>()?.is_some() {
            return Err(de::Error::custom(
                "expected (count, card), found a third element",
            ));
        }
        Ok(Entry(vec![card; count as usize]))
    }
}

impl<'de> Deserialize<'de> for Entry {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(EntryVisitor)
    }
}

/// Reads a card list whose entries are cards or `(count, card)` pairs; use with
/// `#[serde(deserialize_with = "card_list")]`.
pub(crate) fn card_list<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Card>, D::Error> {
    deserializer.deserialize_seq(ListVisitor)
}

/// A card list holds at most this many cards, counts expanded: a short file must not ask for a
/// huge allocation through `(count, card)` pairs.
pub(crate) const MAX_LIST: usize = 10_000;

struct ListVisitor;

impl<'de> Visitor<'de> for ListVisitor {
    type Value = Vec<Card>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a list of cards or (count, card) pairs")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Card>, A::Error> {
        let mut cards = Vec::new();
        while let Some(Entry(more)) = seq.next_element()? {
            if cards.len() + more.len() > MAX_LIST {
                return Err(de::Error::custom(format!(
                    "the list holds more than {MAX_LIST} cards: expected at most {MAX_LIST}"
                )));
            }
            cards.extend(more);
        }
        Ok(cards)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names_read_as_the_cards_they_name() {
        let cases = [
            ("+0", Card::plus(0)),
            ("-1", Card::plus(-1)),
            ("+2", Card::plus(2)),
            ("x2", Card::double()),
            ("null", Card::null()),
            ("bless", Card::bless()),
            ("curse", Card::curse()),
            ("r+1", Card::rolling(1)),
            ("r+0", Card::rolling(0)),
            ("r+2", Card::rolling(2)),
            ("+1 poison", Card::plus(1).with(Effect::Poison)),
            (
                "r+0 pierce 3 fire",
                Card::rolling(0)
                    .with(Effect::Pierce(3))
                    .with(Effect::Infuse(Element::Fire)),
            ),
            (
                "+0 push 2 target",
                Card::plus(0).with(Effect::Push(2)).with(Effect::AddTarget),
            ),
        ];
        for (name, card) in cases {
            assert_eq!(Card::parse(name), Ok(card.clone()), "{name}");
            assert_eq!(Card::parse(&card.name()), Ok(card), "round trip of {name}");
        }
    }

    #[test]
    fn unknown_names_say_what_is_expected() {
        for name in [
            "+",
            "7",
            "x3",
            "r",
            "rx2",
            "+1 poisson",
            "+1 pierce",
            "",
            "r null",
            "+100",
            "+0 push 500",
        ] {
            let err = Card::parse(name).unwrap_err();
            assert!(
                err.contains("expected") || err.contains("rolling") || err.contains("at most"),
                "{name}: {err}"
            );
        }
    }

    #[test]
    fn only_the_decks_own_x2_and_null_trigger_a_reshuffle() {
        let cases = [
            (Card::double(), true),
            (Card::null(), true),
            (Card::bless(), false),
            (Card::curse(), false),
            (Card::plus(2), false),
            (Card::rolling(1), false),
        ];
        for (card, reshuffles) in cases {
            assert_eq!(card.triggers_reshuffle(), reshuffles, "{card}");
        }
    }

    #[test]
    fn both_card_forms_and_counts_are_accepted_in_lists() {
        #[derive(Deserialize)]
        struct List(#[serde(deserialize_with = "card_list")] Vec<Card>);
        let text = r#"List(["+0", (2, "r+1"), (value: Plus(1), rolling: false, effects: [Poison]), (value: Double, kind: Bless), (0, "x2")])"#;
        let list: List = ron::from_str(text).unwrap();
        assert_eq!(
            list.0,
            vec![
                Card::plus(0),
                Card::rolling(1),
                Card::rolling(1),
                Card::plus(1).with(Effect::Poison),
                Card::bless()
            ]
        );
    }

    #[test]
    fn structured_cards_reject_impossible_combinations() {
        #[derive(Deserialize, Debug)]
        struct List(
            #[expect(dead_code, reason = "only parsed, to see which cards are refused")] Vec<Card>,
        );
        for text in [
            "List([(value: Double, rolling: true)])",
            "List([(value: Plus(1), kind: Curse)])",
            "List([(value: Plus(1), colour: Red)])",
        ] {
            assert!(ron::from_str::<List>(text).is_err(), "{text}");
        }
    }
}
