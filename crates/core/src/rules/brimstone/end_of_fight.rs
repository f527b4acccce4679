//! The end of a fight: each party member catches their breath (heal D3, or heal D6 / recover Grit when
//! they got no turn) and each hero draws Loot, one card per Threat card, at most 3.

use crate::decision::{ChosenBy, Decision};
use crate::modifiers::fraction::Fraction;

/// A hero or ally at the end of the fight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// The member's name.
    pub name: String,
    /// An ally: catches its breath, but draws no loot.
    pub ally: bool,
    /// The member got a turn during the fight.
    pub got_turn: bool,
    /// Wounds taken, which healing may remove.
    pub wounds: u32,
    /// Sanity damage taken, which healing may remove too.
    pub sanity_damage: u32,
    /// Grit the member has now.
    pub grit: u32,
    /// The most Grit the member can have.
    pub max_grit: u32,
}

/// One catch-your-breath option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Breath {
    /// Heal a roll of a `die`-sided die: `healed[k]` is the chance of healing exactly `k` points.
    Heal {
        /// Sides of the die.
        die: u32,
        /// `healed[k]` is the chance of healing exactly `k` points.
        healed: Vec<Fraction>,
    },
    /// Recover Grit.
    Grit {
        /// Grit recovered.
        gain: u32,
    },
}

/// A catch-your-breath option and who settles it (the member, when there are two).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BreathOption {
    /// The option.
    pub option: Breath,
    /// Who settles it: fixed when it is the only one, the member's players otherwise.
    pub chosen_by: ChosenBy,
}

/// What one member gets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settlement {
    /// The member's name.
    pub name: String,
    /// The catch-your-breath options.
    pub catch_breath: Decision<BreathOption>,
    /// Loot cards drawn (0 for an ally).
    pub loot: u32,
}

/// At most this many Loot cards per hero.
pub(crate) const MAX_LOOT: u32 = 3;

/// The chance of healing exactly `0..=min(die, cap)` points with a `die`-sided roll, when at most
/// `cap` points of damage can be healed.
pub(crate) fn heal_chances(die: u32, cap: u32) -> Vec<Fraction> {
    let top = die.min(cap);
    let mut out = vec![Fraction::ZERO; top as usize + 1];
    for roll in 1..=die {
        let k = roll.min(cap) as usize;
        out[k] += Fraction::new(1, u128::from(die));
    }
    out
}

/// Catch your breath and loot for one member of the party.
pub fn settle_member(m: &Member, threat_cards: u32) -> Settlement {
    let cap = m.wounds + m.sanity_damage;
    let mut trace = Vec::new();
    let die = if m.got_turn { 3 } else { 6 };
    let mut options = vec![Breath::Heal {
        die,
        healed: heal_chances(die, cap),
    }];
    if m.got_turn {
        trace.push(format!("{} got a turn → heals D3", m.name));
    } else if m.grit < m.max_grit {
        trace.push(format!(
            "{} got no turn → chooses between healing D6 and recovering 1 Grit",
            m.name
        ));
        options.push(Breath::Grit { gain: 1 });
    } else {
        trace.push(format!(
            "{} got no turn → heals D6 (already at full Grit, so no Grit option)",
            m.name
        ));
    }
    trace.push(format!(
        "healing goes to wounds and sanity damage in any mix: at most {cap}"
    ));
    let by = if options.len() == 1 {
        ChosenBy::Fixed
    } else {
        ChosenBy::Players
    };
    let loot = if m.ally {
        0
    } else {
        threat_cards.min(MAX_LOOT)
    };
    trace.push(if m.ally {
        "an ally draws no Loot".to_string()
    } else {
        format!("{threat_cards} Threat card(s) → {loot} Loot card(s) (at most {MAX_LOOT})")
    });
    Settlement {
        name: m.name.clone(),
        catch_breath: Decision {
            options: options
                .into_iter()
                .map(|option| BreathOption {
                    option,
                    chosen_by: by,
                })
                .collect(),
            trace,
        },
        loot,
    }
}
