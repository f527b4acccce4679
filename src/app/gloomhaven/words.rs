//! Gloomhaven cards and actions in a player's words, for the windows and the history.

use foehold_core::rules::gloomhaven::scenario::{Effect, HeroCard};
use foehold_core::rules::gloomhaven::{Action, Half, Phase, State};

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

/// "top" or "bottom".
pub fn half_name(half: Half) -> &'static str {
    match half {
        Half::Top => "top",
        Half::Bottom => "bottom",
    }
}

/// An action as the history lists it, from the state just before it: who did what, with which card.
pub fn action_words(s: &State, a: &Action) -> String {
    let hero = |h: usize| s.scenario.heroes[h].name.as_str();
    match a {
        Action::Advance => match s.phase {
            Phase::Setup => "set up the scenario".into(),
            Phase::CardSelection => "reveal the cards".into(),
            Phase::HeroTurn { hero: h, .. } => format!("{} ends the turn", hero(h)),
            Phase::FoeTurn { monster, .. } => format!(
                "{} acts",
                s.name(foehold_core::rules::gloomhaven::FigureId::Monster(monster))
            ),
            Phase::SummonTurn { summon, .. } => format!(
                "{} acts",
                s.name(foehold_core::rules::gloomhaven::FigureId::Summon(summon))
            ),
            Phase::RoundEnd => "end the round".into(),
            Phase::Victory | Phase::Defeat => "the end".into(),
        },
        // The pick itself stays secret in the history too: it shows after the reveal in the log.
        Action::SelectCards { hero: h, .. } => format!("{} picks two cards", hero(*h)),
        Action::LongRest { hero: h, .. } => format!("{} long rests", hero(*h)),
        Action::Play {
            card, half, basic, ..
        } => {
            let who = match s.phase {
                Phase::HeroTurn { hero: h, .. } => hero(h).to_string(),
                _ => "a hero".into(),
            };
            let name = match s.phase {
                Phase::HeroTurn { hero: h, .. } => s.scenario.heroes[h]
                    .cards
                    .get(*card)
                    .map_or("?", |c| c.name.as_str()),
                _ => "?",
            };
            let basic = if *basic { " as a basic action" } else { "" };
            format!("{who} plays the {} of {name}{basic}", half_name(*half))
        }
        Action::ShortRest { hero: h } => format!("{} short rests", hero(*h)),
        Action::Choose(i) => format!("the table picks option {}", i + 1),
        Action::ChooseByDice => "the dice pick an option".into(),
        Action::Draw(i) => match s.drawing.as_ref().and_then(|d| d.want.options.get(*i)) {
            Some(card) => format!("draws {card}"),
            None => format!("draws card {}", i + 1),
        },
    }
}
