//! The draw rules: how many cards a plain, advantage or disadvantage draw takes, and which of them count.

use std::cmp::Ordering;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::card::{Card, Value, effect_totals, effects_cover};

/// How an attack draws its modifier card.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub enum Mode {
    /// One card.
    #[default]
    Normal,
    /// Two cards, the better one counts.
    Advantage,
    /// Two cards, the worse one counts.
    Disadvantage,
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mode::Normal => "plain draw",
            Mode::Advantage => "advantage",
            Mode::Disadvantage => "disadvantage",
        })
    }
}

impl Mode {
    /// Advantage and disadvantage cancel out; either one alone stays.
    pub fn combine(advantage: bool, disadvantage: bool) -> Mode {
        match (advantage, disadvantage) {
            (true, false) => Mode::Advantage,
            (false, true) => Mode::Disadvantage,
            _ => Mode::Normal,
        }
    }
}

/// Whether one more card must be drawn, given the cards drawn so far in this draw.
///
/// Plain: until a card that is not rolling appears. Advantage and disadvantage: two cards, and more
/// only while both of the first two were rolling and no card that is not rolling has appeared since.
pub(crate) fn wants_another(mode: Mode, drawn: &[Card]) -> bool {
    match drawn.last() {
        None => true,
        Some(last) => match mode {
            Mode::Normal => last.rolling,
            Mode::Advantage | Mode::Disadvantage => {
                drawn.len() < 2 || (drawn[0].rolling && drawn[1].rolling && last.rolling)
            }
        },
    }
}

/// How one card compares with another for an attack of a given value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comparison {
    /// The first card is better.
    Better,
    /// The first card is worse.
    Worse,
    /// The two cards have the same value and effects.
    Same,
    /// Neither is plainly better (e.g. `+0 poison` against `+1`): the attacker's side chooses.
    Unclear,
}

/// The attack value a card alone gives to an attack of `attack`, or `None` for a null card.
pub(crate) fn card_value(card: &Card, attack: i32) -> Option<i32> {
    match card.value {
        Value::Plus(n) => Some(attack + n),
        Value::Double => Some(attack * 2),
        Value::Null => None,
    }
}

/// Compares two cards that are not rolling, for an attack of value `attack`.
///
/// Null is the worst card. Otherwise a card is better when it gives at least the same attack value
/// *and* has at least the other's effects (each at least as strong), and is not the same; anything
/// else (more value but fewer effects, same value but different effects) is unclear.
pub fn compare(a: &Card, b: &Card, attack: i32) -> Comparison {
    let (va, vb) = match (card_value(a, attack), card_value(b, attack)) {
        (None, None) => return Comparison::Same,
        (None, Some(_)) => return Comparison::Worse,
        (Some(_), None) => return Comparison::Better,
        (Some(va), Some(vb)) => (va, vb),
    };
    let (ea, eb) = (effect_totals(&a.effects), effect_totals(&b.effects));
    let a_covers = effects_cover(&ea, &eb);
    let b_covers = effects_cover(&eb, &ea);
    match va.cmp(&vb) {
        Ordering::Equal if a_covers && b_covers => Comparison::Same,
        Ordering::Equal | Ordering::Greater if a_covers => Comparison::Better,
        Ordering::Equal | Ordering::Less if b_covers => Comparison::Worse,
        _ => Comparison::Unclear,
    }
}

/// A finished draw: the cards in the order drawn and which of them count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draw {
    /// How the cards were drawn.
    pub mode: Mode,
    /// The attack value (after the attacker's own modifiers) the cards were compared for.
    pub attack: i32,
    /// Every card drawn, in order.
    pub drawn: Vec<Card>,
    /// The ways the drawn cards may be used, each a list of indexes into `drawn`. More than one only
    /// where the rules leave the choice to the attacker's side; an empty list means no card applies
    /// (the attack value stands as it is).
    pub options: Vec<Vec<usize>>,
    /// The rule steps, in words.
    pub trace: Vec<String>,
}

fn names(cards: &[Card]) -> String {
    let v: Vec<String> = cards.iter().map(Card::name).collect();
    v.join(", ")
}

impl Draw {
    /// Applies the draw rules of `mode` to cards already drawn (in order), for an attack of value
    /// `attack`. This is the rule itself; [`super::ModifierDeck::draw`] draws the cards and calls it.
    ///
    /// A draw cut short because the deck ran out uses what was drawn: see the module documentation.
    pub(crate) fn from_cards(mode: Mode, attack: i32, drawn: Vec<Card>) -> Draw {
        let mut trace = Vec::new();
        let all: Vec<usize> = (0..drawn.len()).collect();
        let options = match (mode, drawn.len()) {
            (_, 0) => {
                trace.push("no card could be drawn: the attack value stands".to_string());
                vec![vec![]]
            }
            (Mode::Normal, _) => {
                if drawn.len() > 1 {
                    trace.push(format!(
                        "plain draw: {} (rolling cards add up)",
                        names(&drawn)
                    ));
                } else {
                    trace.push(format!("plain draw: {}", drawn[0]));
                }
                if drawn[drawn.len() - 1].rolling {
                    trace.push("the deck ran out before a card that is not rolling: the rolling cards apply alone".into());
                }
                vec![all]
            }
            (_, 1) => {
                let c = &drawn[0];
                if mode == Mode::Disadvantage && c.rolling {
                    trace.push(format!("{mode}: only {c} could be drawn; a rolling card is disregarded: no card applies"));
                    vec![vec![]]
                } else {
                    trace.push(format!("{mode}: only {c} could be drawn, it applies"));
                    vec![vec![0]]
                }
            }
            (_, _) => Self::pair(mode, attack, &drawn, &mut trace),
        };
        Draw {
            mode,
            attack,
            drawn,
            options,
            trace,
        }
    }

    /// Advantage or disadvantage with at least two cards drawn.
    fn pair(mode: Mode, attack: i32, drawn: &[Card], trace: &mut Vec<String>) -> Vec<Vec<usize>> {
        let (a, b) = (&drawn[0], &drawn[1]);
        let last = drawn.len() - 1;
        match (a.rolling, b.rolling, mode) {
            (true, true, Mode::Advantage) => {
                trace.push(format!("advantage: drew {a} and {b}, both rolling: keep drawing and add everything: {}", names(drawn)));
                if drawn[last].rolling {
                    trace.push("the deck ran out before a card that is not rolling: the rolling cards apply alone".into());
                }
                vec![(0..drawn.len()).collect()]
            }
            (true, true, _) => {
                let extra = names(&drawn[2..]);
                if drawn[last].rolling {
                    trace.push(format!("disadvantage: drew {a} and {b}, both rolling: kept drawing ({extra}) but the deck ran out: rolling cards are disregarded, no card applies"));
                    vec![vec![]]
                } else {
                    trace.push(format!("disadvantage: drew {a} and {b}, both rolling: kept drawing ({extra}); only the last, {}, applies", drawn[last]));
                    vec![vec![last]]
                }
            }
            (true, false, Mode::Advantage) | (false, true, Mode::Advantage) => {
                let (r, other) = if a.rolling { (a, b) } else { (b, a) };
                trace.push(format!(
                    "advantage: drew {a} and {b}: the rolling {r} is added to {other}"
                ));
                vec![vec![0, 1]]
            }
            (true, false, _) | (false, true, _) => {
                let (r, keep) = if a.rolling { (a, 1) } else { (b, 0) };
                trace.push(format!(
                    "disadvantage: drew {a} and {b}: the rolling {r} is disregarded, {} applies",
                    drawn[keep]
                ));
                vec![vec![keep]]
            }
            (false, false, _) => {
                let cmp = compare(a, b, attack);
                let (word, first_wins) = if mode == Mode::Advantage {
                    ("better", Comparison::Better)
                } else {
                    ("worse", Comparison::Worse)
                };
                let head = format!("{mode}: drew {a} and {b} (attack {attack})");
                match cmp {
                    Comparison::Same => {
                        trace.push(format!("{head} → they are alike, {a} applies"));
                        vec![vec![0]]
                    }
                    Comparison::Unclear => {
                        trace.push(format!(
                            "{head} → neither is plainly {word}: the attacker's side chooses"
                        ));
                        vec![vec![0], vec![1]]
                    }
                    c if c == first_wins => {
                        trace.push(format!("{head} → {a} is {word}"));
                        vec![vec![0]]
                    }
                    _ => {
                        trace.push(format!("{head} → {b} is {word}"));
                        vec![vec![1]]
                    }
                }
            }
        }
    }

    /// Whether the attacker's side must choose between several ways to use the cards.
    pub fn is_choice(&self) -> bool {
        self.options.len() > 1
    }

    /// The cards of one option.
    pub fn cards(&self, option: usize) -> Vec<&Card> {
        self.options
            .get(option)
            .map(|o| o.iter().map(|&i| &self.drawn[i]).collect())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (mode, cards drawn, attack value, the options the rules give)
    type SelectCase = (Mode, &'static [&'static str], i32, Vec<Vec<usize>>);

    fn cards(names: &[&str]) -> Vec<Card> {
        names.iter().map(|n| Card::parse(n).unwrap()).collect()
    }

    #[test]
    fn cards_compare_by_value_then_by_effects() {
        let cases = [
            ("+1", "+0", 3, Comparison::Better),
            ("x2", "+2", 3, Comparison::Better),
            ("x2", "+2", 1, Comparison::Worse),
            ("x2", "+2", 2, Comparison::Same),
            ("null", "-2", 3, Comparison::Worse),
            ("curse", "null", 3, Comparison::Same),
            ("+0 poison", "+1", 3, Comparison::Unclear),
            ("+0 poison", "+0", 3, Comparison::Better),
            ("+2 poison", "+1", 3, Comparison::Better),
            ("+1 pierce 2", "+1 pierce 1", 3, Comparison::Better),
            ("+1 push 1", "+1 pull 1", 3, Comparison::Unclear),
            ("bless", "x2", 3, Comparison::Same),
        ];
        for (a, b, attack, want) in cases {
            let (a, b) = (Card::parse(a).unwrap(), Card::parse(b).unwrap());
            assert_eq!(
                compare(&a, &b, attack),
                want,
                "{a} vs {b} at attack {attack}"
            );
        }
    }

    #[test]
    fn draws_take_as_many_cards_as_the_rules_say() {
        let cases: [(Mode, &[&str], bool); 10] = [
            (Mode::Normal, &[], true),
            (Mode::Normal, &["+1"], false),
            (Mode::Normal, &["r+1"], true),
            (Mode::Normal, &["r+1", "r+1", "-1"], false),
            (Mode::Advantage, &["+1"], true),
            (Mode::Advantage, &["r+1", "+1"], false),
            (Mode::Advantage, &["r+1", "r+1"], true),
            (Mode::Advantage, &["r+1", "r+1", "r+0"], true),
            (Mode::Disadvantage, &["r+1", "r+1", "+0"], false),
            (Mode::Disadvantage, &["+0", "r+1"], false),
        ];
        for (mode, drawn, want) in cases {
            assert_eq!(
                wants_another(mode, &cards(drawn)),
                want,
                "{mode} after {drawn:?}"
            );
        }
    }

    #[test]
    fn the_draw_rules_pick_the_cards_that_count() {
        let cases: [SelectCase; 12] = [
            (Mode::Normal, &["r+1", "r+2", "-1"], 3, vec![vec![0, 1, 2]]),
            (Mode::Advantage, &["+1", "x2"], 3, vec![vec![1]]),
            (Mode::Advantage, &["+2", "x2"], 1, vec![vec![0]]),
            (Mode::Advantage, &["r+1", "-1"], 3, vec![vec![0, 1]]),
            (
                Mode::Advantage,
                &["r+1", "r+2", "r+0", "null"],
                3,
                vec![vec![0, 1, 2, 3]],
            ),
            (
                Mode::Advantage,
                &["+0 poison", "+1"],
                3,
                vec![vec![0], vec![1]],
            ),
            (Mode::Disadvantage, &["+1", "x2"], 3, vec![vec![0]]),
            (Mode::Disadvantage, &["null", "+2"], 3, vec![vec![0]]),
            (Mode::Disadvantage, &["r+2", "-1"], 3, vec![vec![1]]),
            (Mode::Disadvantage, &["+1", "r+2"], 3, vec![vec![0]]),
            (
                Mode::Disadvantage,
                &["r+1", "r+2", "r+0", "+2"],
                3,
                vec![vec![3]],
            ),
            (
                Mode::Disadvantage,
                &["+0 poison", "+1"],
                3,
                vec![vec![0], vec![1]],
            ),
        ];
        for (mode, drawn, attack, want) in cases {
            let draw = Draw::from_cards(mode, attack, cards(drawn));
            assert_eq!(draw.options, want, "{mode} {drawn:?}: {:?}", draw.trace);
            assert!(!draw.trace.is_empty());
        }
    }

    #[test]
    fn the_trace_says_which_card_is_better() {
        let draw = Draw::from_cards(Mode::Advantage, 3, cards(&["+1", "x2"]));
        assert_eq!(
            draw.trace,
            vec!["advantage: drew +1 and x2 (attack 3) → x2 is better".to_string()]
        );
    }

    #[test]
    fn a_draw_cut_short_by_an_empty_deck_uses_what_was_drawn() {
        let cases: [SelectCase; 4] = [
            (Mode::Normal, &["r+1"], 2, vec![vec![0]]),
            (Mode::Advantage, &["r+1"], 2, vec![vec![0]]),
            (Mode::Disadvantage, &["r+1"], 2, vec![vec![]]),
            (Mode::Disadvantage, &["r+1", "r+1"], 2, vec![vec![]]),
        ];
        for (mode, drawn, attack, want) in cases {
            assert_eq!(
                Draw::from_cards(mode, attack, cards(drawn)).options,
                want,
                "{mode} {drawn:?}"
            );
        }
    }
}
