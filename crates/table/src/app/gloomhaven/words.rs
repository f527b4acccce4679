//! Gloomhaven cards and actions in a player's words, for the windows and the history.

pub use foehold_core::rules::gloomhaven::log::half_name;
use foehold_core::rules::gloomhaven::scenario::{Effect, HeroCard};

/// One effect of a card half, as printed: "attack 3 range 2 poison".
pub fn effect_words(e: &Effect) -> String {
    match e {
        Effect::Move(n) => format!("move {n}"),
        Effect::Jump(n) => format!("jump {n}"),
        Effect::Attack {
            value,
            range,
            targets,
            pierce,
            conditions,
            consume,
        } => {
            let mut s = format!("attack {value}");
            if *range > 0 {
                s += &format!(" range {range}");
            }
            if *targets > 1 {
                s += &format!(" ×{targets} targets");
            }
            if *pierce > 0 {
                s += &format!(" pierce {pierce}");
            }
            for c in conditions {
                s += &format!(" {}", c.name());
            }
            if let Some(c) = consume {
                s += &format!(" (consume {}: +{})", c.element.name(), c.attack);
            }
            s
        }
        Effect::Heal { value, range } => {
            if *range > 0 {
                format!("heal {value} range {range}")
            } else {
                format!("heal {value} self")
            }
        }
        Effect::Shield(n) => format!("shield {n}"),
        Effect::Infuse(e) => format!("infuse {}", e.name()),
        Effect::SelfCondition(c) => c.name().to_string(),
        Effect::Loot(0) => "loot".to_string(),
        Effect::Loot(n) => format!("loot range {n}"),
        Effect::Summon(x) => {
            let range = if x.range > 0 {
                format!(" range {}", x.range)
            } else {
                String::new()
            };
            format!(
                "summon {} (hp {}, move {}, attack {}{range})",
                x.name, x.hp, x.movement, x.attack
            )
        }
    }
}

/// A card half's effects, with "(lost)" when playing it loses the card.
pub fn half_words(effects: &[Effect], lost: bool) -> String {
    let mut s = effects
        .iter()
        .map(effect_words)
        .collect::<Vec<_>>()
        .join(", ");
    if lost {
        s += " (lost)";
    }
    s
}

/// A whole card: name, initiative and both halves.
pub fn card_words(c: &HeroCard) -> String {
    format!(
        "{} [{}] — top: {} · bottom: {}",
        c.name,
        c.initiative,
        half_words(&c.top.effects, c.top.lost),
        half_words(&c.bottom.effects, c.bottom.lost)
    )
}
