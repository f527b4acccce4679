//! Attack modifier decks: cards, draws with advantage, disadvantage and rolling cards, the attack value
//! for each target, death, and the exact odds of a draw.
//!
//! # How the game loop uses it
//!
//! For each target of an attack:
//!
//! 1. [`own_value_options`]`(base, &own)` — the values the attacker's own modifiers can give, one per
//!    order the attacker's side may pick (attack 3 with `+2` and `double`: 10 or 8), highest first.
//! 2. [`ModifierDeck::draw`]`(mode, value, whose, &mut picks)` → [`Draw`]: the cards drawn in order, and
//!    `options` — which of them count; more than one option only where the attacker's side chooses.
//! 3. [`resolve_attack`]`(&draw, shield, pierce)` → [`AttackResult`]: each outcome the attacker's side
//!    may choose, with the attack value, effects and damage, most damage first; a readable trace.
//! 4. [`hit`]`(hp, origin, &outcome)` → [`Hit`]: hit points left, death, money token, and the effects
//!    that still apply (none to a target that died).
//!
//! Between rounds: [`ModifierDeck::end_of_round`]; blessings and curses: [`ModifierDeck::add_bless`],
//! [`ModifierDeck::add_curse`]. Nothing here is random: each card drawn is a pick among the draw pile
//! made by the caller's [`crate::chance::Picker`] (in a game, a chance action in the log).
//! Odds: [`odds()`] or [`OddsQuery`].
//!
//! # Our reading of the rules
//!
//! * **Better and worse.** Two cards that are not rolling are compared by the attack value each gives
//!   to *this* attack (so ×2 beats +2 at attack 3, loses at attack 1, and ties at attack 2); null is the
//!   worst card. A card is better than another when its value is at least as high *and* it has at least
//!   the other's effects, each at least as strong (`+2 poison` beats `+1`, `+1 pierce 2` beats
//!   `+1 pierce 1`), unless the two are alike. Anything else — `+0 poison` against `+1`, equal values
//!   with different effects — is unclear: both cards are returned as options for the attacker's side.
//!   Alike cards (same value and effects, e.g. bless and ×2) count as the first one drawn.
//! * **Advantage with rolling cards.** Exactly one of the first two rolling: both count (the rolling
//!   card adds to the other), nothing more is drawn. Both rolling: draw until a card that is not
//!   rolling, and everything drawn counts.
//! * **Disadvantage with rolling cards.** Exactly one of the first two rolling: it is disregarded and
//!   the other card counts alone. Both rolling: draw until a card that is not rolling; only that card
//!   counts.
//! * **Null ends everything.** If a null or curse counts, the attack does nothing: no damage and none
//!   of the effects, including those of rolling cards added to it.
//! * **×2 with rolling bonuses.** The card step holds several effects, so the attacker's side picks
//!   the order: rolling bonuses then ×2, or ×2 then the bonuses; both are returned as outcomes. ×2
//!   doubles the value after the attacker's own modifiers.
//! * **Reshuffle.** Drawing one of the deck's own ×2 or null cards (they carry the reshuffle mark)
//!   marks the deck; it is reshuffled at the end of the round, even if that card did not count in a
//!   disadvantage or advantage draw. Blessings and curses carry no mark: they leave the game when
//!   drawn, whether or not they counted.
//! * **Running out.** When a card is needed and the draw pile is empty, the discard is shuffled into a
//!   new draw pile; the cards of the draw in progress stay on the table. If no card is left at all,
//!   the draw stops and uses what it has: rolling cards then apply alone (as if a +0 ended the chain)
//!   in a plain or advantage draw; in disadvantage they are disregarded, so no card applies and the
//!   attack value stands. A single card under advantage is a plain draw; under disadvantage it
//!   counts unless it is rolling.
//! * **Odds.** The query's deck is the draw pile alone (no discard), every order equally likely, so
//!   "running out" means the pile is exhausted by a rolling chain, handled as above; an empty pile is
//!   an error. Where the attacker's side chooses, the odds take the choice that deals more damage to
//!   this target. Damage is the value after the card step less the shield (reduced by pierce from the
//!   attack and the cards), never below 0; null and curse deal 0. Card effects other than pierce do
//!   not change the damage, but they do decide which card is better.
//! * **Death.** A target brought to 0 or fewer hit points dies at once; the effects of that attack
//!   that land on it (conditions, push, pull, curse) no longer apply, while those for the attacker
//!   (heal, shield, elements, an extra target, bless) still happen. A monster that was neither
//!   summoned nor spawned leaves a money token.
//! * Advantage for a whole attack action (from an item, say) is simply the `mode` of every draw in
//!   that action; advantage and disadvantage together cancel ([`Mode::combine`]).

pub mod attack;
pub mod card;
#[cfg(test)]
mod crosscheck;
pub mod deck;
pub mod draw;
pub mod fraction;
pub mod odds;

pub use attack::{
    AttackResult, CardOrder, CardOutcome, Hit, Origin, OwnModifier, OwnOrder, hit,
    own_value_options, resolve_attack,
};
pub use card::{Card, CardKind, Effect, Element, Value};
pub use deck::{DeckFile, ModifierDeck};
pub use draw::{Comparison, Draw, Mode, compare};
pub use fraction::Fraction;
pub use odds::{Odds, OddsError, OddsQuery, odds};
