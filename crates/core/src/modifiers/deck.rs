//! A modifier deck in play: draw pile, discard, cards removed from the game, and reshuffle timing.

use serde::{Deserialize, Serialize};

use super::card::{Card, CardKind, card_list};
use super::draw::{Draw, Mode, wants_another};
use crate::chance::{Picker, Want};
use crate::error::{LoadError, parse_ron};

/// One attacker's modifier deck.
///
/// The first card of `draw_pile` is the top. Nothing here is random: each card drawn is a pick among
/// the draw pile that the caller's [`Picker`] makes (in a game, a chance action).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModifierDeck {
    /// The cards still to draw, top first.
    pub draw_pile: Vec<Card>,
    /// The cards drawn and kept for the next shuffle.
    pub discard: Vec<Card>,
    /// Blessings and curses that were drawn: they left the game.
    pub removed: Vec<Card>,
    /// A ×2 or null card of the deck was drawn: the deck is reshuffled at the end of the round.
    pub needs_reshuffle: bool,
}

impl ModifierDeck {
    /// A deck whose draw pile is `cards` in this order (first = top), e.g. to replay a known order.
    pub(crate) fn stacked(cards: Vec<Card>) -> Self {
        Self {
            draw_pile: cards,
            discard: Vec::new(),
            removed: Vec::new(),
            needs_reshuffle: false,
        }
    }

    /// The twenty cards of the standard deck, in a fixed order: six +0, five +1, five −1, one +2,
    /// one −2, one ×2 and one null.
    pub fn standard_cards() -> Vec<Card> {
        let mut cards = vec![Card::plus(0); 6];
        cards.extend(vec![Card::plus(1); 5]);
        cards.extend(vec![Card::plus(-1); 5]);
        cards.extend([Card::plus(2), Card::plus(-2), Card::double(), Card::null()]);
        cards
    }

    /// Shuffles the discard back into the draw pile (the reshuffle). Every card of the pile is
    /// equally likely to be drawn next (each draw is a pick among them), so `picks` leaves the
    /// pile's order as it is unless it rebuilds a format-1 game.
    pub(crate) fn reshuffle(&mut self, picks: &mut impl Picker) {
        self.draw_pile.append(&mut self.discard);
        picks.shuffle(&mut self.draw_pile);
        self.needs_reshuffle = false;
    }

    /// End of the round: reshuffles if a ×2 or null card was drawn this round. Returns whether it did.
    pub fn end_of_round(&mut self, picks: &mut impl Picker) -> bool {
        if self.needs_reshuffle {
            self.reshuffle(picks);
            true
        } else {
            false
        }
    }

    /// Shuffles a bless card into the draw pile.
    pub fn add_bless(&mut self, picks: &mut impl Picker) {
        self.shuffle_in(Card::bless(), picks);
    }

    /// Shuffles a curse card into the draw pile.
    pub fn add_curse(&mut self, picks: &mut impl Picker) {
        self.shuffle_in(Card::curse(), picks);
    }

    /// Shuffles any card into the draw pile (the discard stays where it is); it goes under the
    /// pile, which a deck stacked in a known order keeps.
    pub(crate) fn shuffle_in(&mut self, card: Card, picks: &mut impl Picker) {
        self.draw_pile.push(card);
        picks.shuffle(&mut self.draw_pile);
    }

    /// How many cards of a kind are in the deck (draw pile and discard), e.g. to respect the limit
    /// of blessings or curses in the supply.
    pub fn count(&self, kind: CardKind) -> usize {
        self.draw_pile
            .iter()
            .chain(&self.discard)
            .filter(|c| c.kind == kind)
            .count()
    }

    /// Draws for one target of an attack whose value (after the attacker's own modifiers) is
    /// `attack`, and applies the draw rules of `mode`. Each card is a pick among the cards of the
    /// draw pile, all equally likely (outcome 0 is the top card); `whose` names the deck ("the
    /// monsters'") for the picker that asks for the card drawn.
    ///
    /// When the draw pile is empty and a card is needed, the discard is shuffled into a new draw pile.
    /// The cards of this draw are set aside until the draw is over (so they are not reshuffled into
    /// it), then go to the discard, or out of the game for blessings and curses. Drawing one of the
    /// deck's ×2 or null cards marks the deck for a reshuffle at the end of the round, whether or not
    /// the card counts.
    pub fn draw(&mut self, mode: Mode, attack: i32, whose: &str, picks: &mut impl Picker) -> Draw {
        let mut drawn = Vec::new();
        let mut notes = Vec::new();
        while wants_another(mode, &drawn) {
            if self.draw_pile.is_empty() {
                if self.discard.is_empty() {
                    notes.push("the draw pile and the discard are both empty".to_string());
                    break;
                }
                notes.push(format!("the draw pile is empty: the discard ({} cards) is shuffled into a new draw pile", self.discard.len()));
                self.draw_pile.append(&mut self.discard);
                picks.shuffle(&mut self.draw_pile);
            }
            let pile = &self.draw_pile;
            let i = picks.pick(pile.len(), || Want {
                what: format!("a card of {whose} modifier deck"),
                options: pile.iter().map(Card::name).collect(),
            });
            drawn.push(self.draw_pile.remove(i));
        }
        for card in &drawn {
            if card.triggers_reshuffle() && !self.needs_reshuffle {
                self.needs_reshuffle = true;
                notes.push(format!(
                    "{card} was drawn: the deck is reshuffled at the end of the round"
                ));
            }
            if card.leaves_game() {
                self.removed.push(card.clone());
                notes.push(format!("{card} leaves the game"));
            } else {
                self.discard.push(card.clone());
            }
        }
        let mut draw = Draw::from_cards(mode, attack, drawn);
        draw.trace.extend(notes);
        draw
    }
}

/// A deck file under `assets/decks/`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeckFile {
    /// The deck's name.
    pub name: String,
    /// Cards or `(count, card)` pairs.
    #[serde(deserialize_with = "card_list")]
    pub cards: Vec<Card>,
}

impl DeckFile {
    /// Reads a deck from RON text; `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<DeckFile, LoadError> {
        let deck: DeckFile = parse_ron(file, text)?;
        if deck.cards.is_empty() {
            return Err(LoadError::at_text(
                file,
                text,
                "cards",
                "a deck needs at least one card",
            ));
        }
        Ok(deck)
    }

    /// Reads a deck file (for tests: the programs read files through their storage).
    #[cfg(any(test, feature = "testing"))]
    pub fn load(path: &std::path::Path) -> Result<DeckFile, LoadError> {
        Self::parse(&path.display().to_string(), &crate::disk::read_file(path)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chance::Top;

    fn cards(names: &[&str]) -> Vec<Card> {
        names.iter().map(|n| Card::parse(n).unwrap()).collect()
    }

    #[test]
    fn the_standard_deck_has_twenty_cards_in_the_printed_proportions() {
        let cards = ModifierDeck::standard_cards();
        let count = |name: &str| cards.iter().filter(|c| c.name() == name).count();
        assert_eq!(cards.len(), 20);
        assert_eq!(
            [
                count("+0"),
                count("+1"),
                count("-1"),
                count("+2"),
                count("-2"),
                count("x2"),
                count("null")
            ],
            [6, 5, 5, 1, 1, 1, 1]
        );
    }

    #[test]
    fn drawing_x2_or_null_reshuffles_at_the_end_of_the_round_only() {
        for special in ["x2", "null"] {
            let mut deck = ModifierDeck::stacked(cards(&[special, "+1", "+0"]));
            deck.draw(Mode::Normal, 3, "a", &mut Top);
            assert!(deck.needs_reshuffle, "{special}");
            assert_eq!(
                (deck.draw_pile.len(), deck.discard.len()),
                (2, 1),
                "nothing moves before the round ends"
            );
            assert!(deck.end_of_round(&mut Top));
            assert_eq!(
                (
                    deck.draw_pile.len(),
                    deck.discard.len(),
                    deck.needs_reshuffle
                ),
                (3, 0, false)
            );
            assert!(!deck.end_of_round(&mut Top), "only once");
        }
    }

    #[test]
    fn a_round_without_x2_or_null_keeps_the_discard() {
        let mut deck = ModifierDeck::stacked(cards(&["+1", "x2", "+0"]));
        deck.draw(Mode::Normal, 3, "a", &mut Top);
        assert!(!deck.end_of_round(&mut Top));
        assert_eq!((deck.draw_pile.len(), deck.discard.len()), (2, 1));
    }

    #[test]
    fn an_x2_drawn_but_not_used_still_marks_the_reshuffle() {
        let mut deck = ModifierDeck::stacked(cards(&["x2", "+2", "+0"]));
        let draw = deck.draw(Mode::Disadvantage, 3, "a", &mut Top);
        assert_eq!(draw.options, vec![vec![1]]);
        assert!(deck.needs_reshuffle);
    }

    #[test]
    fn blessings_and_curses_leave_the_game_when_drawn() {
        let mut deck = ModifierDeck::stacked(cards(&["bless", "curse", "+0"]));
        deck.draw(Mode::Advantage, 3, "a", &mut Top);
        assert_eq!(deck.removed, cards(&["bless", "curse"]));
        assert!(deck.discard.is_empty());
        assert!(
            !deck.needs_reshuffle,
            "blessings and curses carry no reshuffle mark"
        );
        deck.reshuffle(&mut Top);
        assert_eq!(deck.draw_pile, cards(&["+0"]));
    }

    #[test]
    fn blessings_and_curses_are_shuffled_into_the_draw_pile() {
        let mut deck = ModifierDeck::stacked(ModifierDeck::standard_cards());
        deck.add_bless(&mut Top);
        deck.add_curse(&mut Top);
        deck.add_curse(&mut Top);
        assert_eq!(
            (
                deck.count(CardKind::Bless),
                deck.count(CardKind::Curse),
                deck.draw_pile.len()
            ),
            (1, 2, 23)
        );
    }

    #[test]
    fn an_empty_draw_pile_takes_the_discard_but_not_the_cards_of_this_draw() {
        let mut deck = ModifierDeck::stacked(cards(&["r+1"]));
        deck.discard = cards(&["+2"]);
        let draw = deck.draw(Mode::Normal, 3, "a", &mut Top);
        assert_eq!(draw.drawn, cards(&["r+1", "+2"]));
        assert!(
            draw.trace
                .iter()
                .any(|s| s.contains("shuffled into a new draw pile")),
            "{:?}",
            draw.trace
        );
        assert_eq!((deck.draw_pile.len(), deck.discard.len()), (0, 2));
    }

    #[test]
    fn an_exhausted_deck_yields_what_could_be_drawn() {
        let mut deck = ModifierDeck::stacked(cards(&["r+1"]));
        let draw = deck.draw(Mode::Normal, 3, "a", &mut Top);
        assert_eq!((draw.drawn.len(), draw.options.clone()), (1, vec![vec![0]]));
        assert!(
            draw.trace.iter().any(|s| s.contains("both empty")),
            "{:?}",
            draw.trace
        );
        // Next draw: the discard becomes the draw pile, and the chain runs out again.
        let draw = deck.draw(Mode::Normal, 3, "a", &mut Top);
        assert_eq!(draw.drawn, cards(&["r+1"]));
        assert_eq!((deck.draw_pile.len(), deck.discard.len()), (0, 1));
    }

    #[test]
    fn each_card_is_a_pick_among_the_draw_pile_and_decks_survive_a_round_trip() {
        let mut deck = ModifierDeck::stacked(cards(&["+0", "+1", "x2"]));
        let mut dealer = crate::chance::Dealer::new(vec![2]);
        let draw = deck.draw(Mode::Normal, 3, "Ann's", &mut dealer);
        assert_eq!(
            draw.drawn,
            cards(&["x2"]),
            "outcome 2 is the third card of the pile"
        );
        assert_eq!(dealer.wanted(), None);
        let draw = deck.draw(Mode::Normal, 3, "Ann's", &mut dealer);
        assert_eq!(
            draw.drawn,
            cards(&["+0"]),
            "a pick with no outcome runs on with the top"
        );
        let want = dealer.wanted().expect("the second card was asked for");
        assert_eq!(want.what, "a card of Ann's modifier deck");
        assert_eq!(want.options, ["+0", "+1"]);
        let text = ron::to_string(&deck).unwrap();
        assert_eq!(ron::from_str::<ModifierDeck>(&text).unwrap(), deck);
    }

    #[test]
    fn deck_files_list_cards_with_counts() {
        let deck = DeckFile::parse("d.ron", r#"DeckFile(name: "test", cards: [(6, "+0"), "r+1", (value: Plus(1), effects: [Poison])])"#).unwrap();
        assert_eq!(deck.cards.len(), 8);
        let err = DeckFile::parse(
            "d.ron",
            "DeckFile(\n  name: \"x\",\n  cards: [\"+0\", \"+9z\"],\n)",
        )
        .unwrap_err();
        assert_eq!((err.file.as_str(), err.line), ("d.ron", 3), "{err}");
        assert!(
            err.message.contains("+9z") && err.message.contains("expected"),
            "{err}"
        );
        let err =
            DeckFile::parse("d.ron", "DeckFile(name: \"x\", cards: [(-1, \"+0\")])").unwrap_err();
        assert!(err.message.contains("count"), "{err}");
    }
}
