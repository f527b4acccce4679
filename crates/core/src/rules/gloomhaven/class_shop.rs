//! The workshop's panel for a hero class written in the scenario: its hit points by level, its
//! hand size and its card pool card by card, half by half, action by action; and its library file.
//!
//! A class the scenario writes (`classes:`) is found before the library's of the same name, so a
//! copy of a library class edited here changes it for this scenario only, until it is kept in the
//! library. What the rows do not make (an attack's consumed element, a second condition, the
//! modifier deck and the perks) stays as the file wrote it.

use super::scenario::{
    CardHalf, Class, Condition, Effect, HeroCard, MAX_HERO_LEVEL, Scenario, SummonSpec,
};
use super::type_shop::{
    CONDITIONS, ELEMENTS, MAX_REACH, MAX_ROWS, MAX_STAT, bounded, choice_of, chosen, library_file,
    new_name, set_first_condition,
};
use crate::rules::lab::{Field, Value};

/// The kinds of action a half's row makes; `Summon` is offered on a row that holds one and in
/// the *add* row; then the row that adds nothing and the one that takes the action out.
const KINDS: [&str; 11] = [
    "Move",
    "Jump",
    "Attack",
    "Heal",
    "Shield",
    "Infuse",
    "Condition",
    "Loot",
    "Summon",
    "—",
    "take out",
];
/// The two halves of a card, as the ids and the (narrow) labels name them.
const HALVES: [(&str, &str); 2] = [("top", "top"), ("bottom", "bot")];
/// The cards of a new class: name, initiative, top, bottom; the last card's top is lost.
const NEW_CARDS: [(&str, u32, i64, i64); 8] = [
    ("Opening Cut", 18, 3, 2),
    ("Steady Step", 62, 2, 3),
    ("Guarded Blow", 35, 2, 2),
    ("Quick Feet", 11, 1, 4),
    ("Heavy Swing", 71, 4, 1),
    ("Feint", 27, 2, 3),
    ("Press On", 48, 3, 2),
    ("Last Stand", 83, 5, 2),
];

/// A new class named `name`: hit points from 8 to 16 over the nine levels, a hand of eight and
/// eight level-1 cards (an attack on top, a move below; the last one's attack is lost), so that
/// a hero of it loads and plays as it is.
pub fn new_class(name: &str) -> Class {
    let cards = NEW_CARDS
        .iter()
        .enumerate()
        .map(|(i, &(card, initiative, attack, step))| HeroCard {
            name: card.into(),
            level: 1,
            initiative,
            top: CardHalf {
                effects: vec![action_of("Attack", attack)],
                lost: i == NEW_CARDS.len() - 1,
                xp: u32::from(i == NEW_CARDS.len() - 1),
            },
            bottom: CardHalf {
                effects: vec![action_of("Move", step)],
                lost: false,
                xp: 0,
            },
        })
        .collect();
    Class {
        name: name.into(),
        hp: (8..8 + MAX_HERO_LEVEL).collect(),
        hand_size: 8,
        modifiers: None,
        cards,
        perks: Vec::new(),
    }
}

/// The row word of an action, and its number.
fn action_row(a: &Effect) -> (&'static str, i64) {
    let n = |v: &u32| i64::from(*v);
    match a {
        Effect::Move(v) => ("Move", n(v)),
        Effect::Jump(v) => ("Jump", n(v)),
        Effect::Attack { value, .. } => ("Attack", n(value)),
        Effect::Heal { value, .. } => ("Heal", n(value)),
        Effect::Shield(v) => ("Shield", n(v)),
        Effect::Infuse(_) => ("Infuse", 0),
        Effect::SelfCondition(_) => ("Condition", 0),
        Effect::Loot(v) => ("Loot", n(v)),
        Effect::Summon(_) => ("Summon", 0),
    }
}

/// A new action of kind `word`, its number kept where the kind has one (a heal or shield of at
/// least 1).
fn action_of(word: &str, number: i64) -> Effect {
    let reach = u32::try_from(number.clamp(0, MAX_REACH)).unwrap_or(0);
    let stat = u32::try_from(number.clamp(1, MAX_STAT)).unwrap_or(1);
    match word {
        "Move" => Effect::Move(reach),
        "Jump" => Effect::Jump(reach),
        "Attack" => Effect::Attack {
            value: u32::try_from(number.clamp(0, MAX_STAT)).unwrap_or(0),
            range: 0,
            targets: 1,
            pierce: 0,
            conditions: Vec::new(),
            consume: None,
        },
        "Heal" => Effect::Heal {
            value: stat,
            range: 0,
        },
        "Shield" => Effect::Shield(stat),
        "Infuse" => Effect::Infuse(ELEMENTS[0].1),
        "Condition" => Effect::SelfCondition(Condition::Strengthen),
        "Summon" => Effect::Summon(SummonSpec {
            name: "Spirit".into(),
            hp: 4,
            movement: 2,
            attack: 2,
            range: 0,
        }),
        _ => Effect::Loot(reach),
    }
}

/// The word of `word` as an action kind, or the error that lists them.
fn kind(word: &str) -> Result<&'static str, String> {
    KINDS[..9]
        .iter()
        .find(|k| **k == word)
        .copied()
        .ok_or_else(|| format!("`{word}`: expected one of {}", KINDS[..9].join(", ")))
}

/// The panel's rows for the scenario's own class `name`.
pub fn class_fields(s: &Scenario, name: &str) -> Vec<Field> {
    let Some(c) = s.classes.iter().find(|c| c.name == name) else {
        return Vec::new();
    };
    let mut out = vec![
        Field::text("class:name", "Class", &c.name),
        Field::number(
            "class:hand",
            "…hand size",
            i64::from(c.hand_size),
            (2, MAX_ROWS as i64),
        ),
    ];
    for (l, hp) in c.hp.iter().enumerate() {
        out.push(Field::number(
            &format!("class:hp:{}", l + 1),
            &format!("…hp lv {}", l + 1),
            i64::from(*hp),
            (1, MAX_STAT),
        ));
    }
    for (i, card) in c.cards.iter().enumerate() {
        let n = i + 1;
        out.push(Field::text(
            &format!("class:card:{i}:name"),
            &format!("Card {n}"),
            &card.name,
        ));
        out.push(Field::number(
            &format!("class:card:{i}:level"),
            "…from level",
            i64::from(card.level),
            (1, i64::from(MAX_HERO_LEVEL)),
        ));
        out.push(Field::number(
            &format!("class:card:{i}:initiative"),
            "…initiative",
            i64::from(card.initiative),
            (1, 99),
        ));
        for ((half, short), h) in HALVES.iter().zip([&card.top, &card.bottom]) {
            half_fields(&mut out, &format!("class:card:{i}:{half}"), short, h);
        }
        out.push(Field::choice(
            &format!("class:card:{i}:card"),
            "…this card",
            "keep",
            &["keep", "take out"],
        ));
    }
    out.push(Field::choice(
        "class:add-card",
        "Add a card",
        "—",
        &["—", "a new card"],
    ));
    out.push(Field::choice(
        "class:class",
        "This class",
        "keep",
        &["keep", "take out"],
    ));
    out
}

/// The rows of one half of a card, their ids under `id`, their labels naming it `half`.
fn half_fields(out: &mut Vec<Field>, id: &str, half: &str, h: &CardHalf) {
    out.push(Field::flag(
        &format!("{id}:lost"),
        &format!("…{half} lost"),
        h.lost,
    ));
    out.push(Field::number(
        &format!("{id}:xp"),
        &format!("…{half} xp"),
        i64::from(h.xp),
        (0, 99),
    ));
    // A number row: the id's last word, the label's, the value and its bounds.
    let number = |out: &mut Vec<Field>, key: &str, (id, label): (&str, &str), v: u32, hi: i64| {
        let lo = i64::from(matches!(id, "hp" | "targets") || matches!(label, "shield" | "heal"));
        out.push(Field::number(
            &format!("{key}:{id}"),
            &format!("……{label}"),
            i64::from(v),
            (lo, hi),
        ));
    };
    for (j, a) in h.effects.iter().enumerate() {
        let key = format!("{id}:act:{j}");
        let (word, _) = action_row(a);
        out.push(Field::choice(&key, &format!("…{half} act"), word, &KINDS));
        match a {
            Effect::Move(v) | Effect::Jump(v) => number(out, &key, ("n", "hexes"), *v, MAX_REACH),
            Effect::Loot(v) => number(out, &key, ("n", "range"), *v, MAX_REACH),
            Effect::Shield(v) => number(out, &key, ("n", "shield"), *v, MAX_STAT),
            Effect::Heal { value, range } => {
                number(out, &key, ("n", "heal"), *value, MAX_STAT);
                number(out, &key, ("range", "range"), *range, MAX_REACH);
            }
            Effect::Attack {
                value,
                range,
                targets,
                pierce,
                conditions,
                ..
            } => {
                number(out, &key, ("n", "attack"), *value, MAX_STAT);
                number(out, &key, ("range", "range"), *range, MAX_REACH);
                number(out, &key, ("targets", "targets"), *targets, 8);
                number(out, &key, ("pierce", "pierce"), *pierce, MAX_STAT);
                out.push(choice_of(
                    &format!("{key}:condition"),
                    "……gives",
                    &CONDITIONS,
                    &conditions.first().copied(),
                ));
            }
            Effect::Infuse(e) => {
                out.push(choice_of(
                    &format!("{key}:element"),
                    "……element",
                    &ELEMENTS,
                    e,
                ));
            }
            Effect::SelfCondition(c) => out.push(choice_of(
                &format!("{key}:condition"),
                "……on self",
                &CONDITIONS[1..],
                &Some(*c),
            )),
            Effect::Summon(x) => {
                out.push(Field::text(&format!("{key}:name"), "……summon", &x.name));
                number(out, &key, ("hp", "hp"), x.hp, MAX_STAT);
                number(out, &key, ("move", "move"), x.movement, MAX_REACH);
                number(out, &key, ("attack", "attack"), x.attack, MAX_STAT);
                number(out, &key, ("range", "range"), x.range, MAX_REACH);
            }
        }
    }
    out.push(Field::choice(
        &format!("{id}:add"),
        &format!("…{half} add"),
        "—",
        &KINDS[..10],
    ));
}

/// Sets one row of [`class_fields`] of the scenario's class `name`; gives the class's name after
/// (a rename changes it; taken out, none).
pub fn set_class(
    s: &mut Scenario,
    name: &str,
    field: &str,
    value: &Value,
    library: &[String],
) -> Result<Option<String>, String> {
    let i = s
        .classes
        .iter()
        .position(|c| c.name == name)
        .ok_or_else(|| format!("the scenario writes no class {name:?}"))?;
    let parts: Vec<&str> = field.split(':').collect();
    let no_field = || format!("no field `{field}`");
    match parts[..] {
        ["class", "name"] => {
            let own = |n: &str| s.classes.iter().any(|c| c.name == n);
            let new = new_name(value, name, "class", own, library)?;
            for h in &mut s.heroes {
                if h.class.as_deref() == Some(name) {
                    h.class = Some(new.clone());
                }
            }
            s.classes[i].name.clone_from(&new);
            return Ok(Some(new));
        }
        ["class", "class"] => {
            if value.text()? == "take out" {
                s.classes.remove(i);
                return Ok(None);
            }
        }
        ["class", "hand"] => s.classes[i].hand_size = bounded(value, 2, MAX_ROWS as i64)?,
        ["class", "hp", level] => {
            let l: usize = level.parse().map_err(|_| no_field())?;
            let hp = s.classes[i]
                .hp
                .get_mut(l.wrapping_sub(1))
                .ok_or_else(no_field)?;
            *hp = bounded(value, 1, MAX_STAT)?;
        }
        ["class", "add-card"] => {
            if value.text()? != "—" {
                let c = &mut s.classes[i];
                if c.cards.len() >= MAX_ROWS {
                    return Err(format!("a class holds at most {MAX_ROWS} cards here"));
                }
                let name = (c.cards.len() + 1..)
                    .map(|n| format!("Card {n}"))
                    .find(|n| !c.cards.iter().any(|x| &x.name == n))
                    .unwrap_or_default();
                c.cards.push(HeroCard {
                    name,
                    level: 1,
                    initiative: 50,
                    top: CardHalf {
                        effects: vec![action_of("Attack", 2)],
                        lost: false,
                        xp: 0,
                    },
                    bottom: CardHalf {
                        effects: vec![action_of("Move", 2)],
                        lost: false,
                        xp: 0,
                    },
                });
            }
        }
        ["class", "card", c, ref rest @ ..] => {
            let c: usize = c.parse().map_err(|_| no_field())?;
            if c >= s.classes[i].cards.len() {
                return Err(format!("the class has no card {}", c + 1));
            }
            let old = s.classes[i].cards[c].name.clone();
            let count = s.classes[i].cards.len();
            set_card(&mut s.classes[i].cards, c, rest, value)
                .map_err(|e| if e.is_empty() { no_field() } else { e })?;
            // The hands that name the card follow a rename, and lose a card taken out.
            let renamed = match rest {
                ["name"] => Some(s.classes[i].cards[c].name.clone()),
                _ => None,
            };
            let gone = s.classes[i].cards.len() < count;
            for h in s
                .heroes
                .iter_mut()
                .filter(|h| h.class.as_deref() == Some(name))
            {
                if gone {
                    h.hand.retain(|x| *x != old);
                }
                if let Some(new) = &renamed {
                    for card in h.hand.iter_mut().filter(|x| **x == old) {
                        card.clone_from(new);
                    }
                }
            }
        }
        _ => return Err(no_field()),
    }
    Ok(Some(name.to_string()))
}

/// Sets a row of card `c` of `cards` (`rest` is the field's id after `class:card:c`); an empty
/// error is a field that does not exist.
fn set_card(
    cards: &mut Vec<HeroCard>,
    c: usize,
    rest: &[&str],
    value: &Value,
) -> Result<(), String> {
    let card = &mut cards[c];
    match rest {
        ["name"] => {
            let name = value.text()?.trim().to_string();
            if name.is_empty() {
                return Err("a card needs a name".into());
            }
            card.name = name;
        }
        ["level"] => card.level = bounded(value, 1, i64::from(MAX_HERO_LEVEL))?,
        ["initiative"] => card.initiative = bounded(value, 1, 99)?,
        ["card"] => {
            if value.text()? == "take out" {
                if cards.len() == 1 {
                    return Err("a class needs a card".into());
                }
                cards.remove(c);
            }
        }
        [half @ ("top" | "bottom"), what @ ..] => {
            let h = if *half == "top" {
                &mut card.top
            } else {
                &mut card.bottom
            };
            set_half(h, what, value)?;
        }
        _ => return Err(String::new()),
    }
    Ok(())
}

/// Sets a row of a half (`what` is the field's id after the half's word).
fn set_half(h: &mut CardHalf, what: &[&str], value: &Value) -> Result<(), String> {
    match what {
        ["lost"] => h.lost = value.flag()?,
        ["xp"] => h.xp = bounded(value, 0, 99)?,
        ["add"] => {
            let word = value.text()?;
            if word != "—" {
                if h.effects.len() >= 16 {
                    return Err("a card half holds at most 16 actions".into());
                }
                h.effects.push(action_of(kind(&word)?, 0));
            }
        }
        ["act", j, rest @ ..] => {
            let j: usize = j.parse().map_err(|_| String::new())?;
            if j >= h.effects.len() {
                return Err(format!("the half has no action {}", j + 1));
            }
            match rest {
                [] => match value.text()?.as_str() {
                    "take out" => {
                        h.effects.remove(j);
                    }
                    "—" => {}
                    word => {
                        let (old, number) = action_row(&h.effects[j]);
                        let word = kind(word)?;
                        if old != word {
                            h.effects[j] = action_of(word, number);
                        }
                    }
                },
                [what] => set_action(&mut h.effects[j], what, value)?,
                _ => return Err(String::new()),
            }
        }
        _ => return Err(String::new()),
    }
    Ok(())
}

/// Sets one number or word of an action.
fn set_action(a: &mut Effect, what: &str, value: &Value) -> Result<(), String> {
    let reach = |v: &Value| bounded(v, 0, MAX_REACH);
    match (a, what) {
        (Effect::Move(n) | Effect::Jump(n) | Effect::Loot(n), "n") => *n = reach(value)?,
        (Effect::Shield(n) | Effect::Heal { value: n, .. }, "n") => {
            *n = bounded(value, 1, MAX_STAT)?;
        }
        (Effect::Heal { range, .. } | Effect::Attack { range, .. }, "range") => {
            *range = reach(value)?;
        }
        (Effect::Attack { value: n, .. }, "n") => *n = bounded(value, 0, MAX_STAT)?,
        (Effect::Attack { targets, .. }, "targets") => *targets = bounded(value, 1, 8)?,
        (Effect::Attack { pierce, .. }, "pierce") => *pierce = bounded(value, 0, MAX_STAT)?,
        (Effect::Attack { conditions, .. }, "condition") => {
            set_first_condition(conditions, value)?;
        }
        (Effect::Infuse(e), "element") => *e = chosen(&ELEMENTS, value, "element")?,
        (Effect::SelfCondition(c), "condition") => {
            *c = chosen(&CONDITIONS[1..], value, "condition")?.unwrap_or(*c);
        }
        (Effect::Summon(x), "name") => {
            let name = value.text()?.trim().to_string();
            if name.is_empty() {
                return Err("a summon needs a name".into());
            }
            x.name = name;
        }
        (Effect::Summon(x), "hp") => x.hp = bounded(value, 1, MAX_STAT)?,
        (Effect::Summon(x), "move") => x.movement = reach(value)?,
        (Effect::Summon(x), "attack") => x.attack = bounded(value, 0, MAX_STAT)?,
        (Effect::Summon(x), "range") => x.range = reach(value)?,
        _ => return Err(String::new()),
    }
    Ok(())
}

/// The library file of the scenario's class `name`: its file name (from the name) and text, read
/// back by the library as it is written.
pub fn class_file(s: &Scenario, name: &str) -> Option<(String, String)> {
    let c = s.classes.iter().find(|c| c.name == name)?;
    library_file(&c.name, "a hero class", c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::workshop::Document;

    #[test]
    fn hands_follow_a_renamed_card_and_lose_one_taken_out() {
        let mut s = Scenario::blank("hands");
        s.classes.push(new_class("Reed Dancer"));
        s.heroes.push(super::super::scenario::HeroSpec {
            name: "Ash".into(),
            player: 1,
            class: Some("Reed Dancer".into()),
            hp: 0,
            modifiers: None,
            cards: Vec::new(),
            hand: vec!["Opening Cut".into(), "Guarded Blow".into()],
            level: 1,
            perks: Vec::new(),
        });
        let text = |v: &str| Value::Text(v.into());
        set_class(
            &mut s,
            "Reed Dancer",
            "class:card:2:name",
            &text("Low Guard"),
            &[],
        )
        .unwrap();
        assert_eq!(s.heroes[0].hand, ["Opening Cut", "Low Guard"]);
        let out = Value::Choice("take out".into());
        set_class(&mut s, "Reed Dancer", "class:card:0:card", &out, &[]).unwrap();
        assert_eq!(s.heroes[0].hand, ["Low Guard"]);
        assert_eq!(s.classes[0].cards[0].name, "Steady Step");
        // Another field of a card leaves the hands alone.
        set_class(
            &mut s,
            "Reed Dancer",
            "class:card:0:initiative",
            &Value::Number(9),
            &[],
        )
        .unwrap();
        assert_eq!(s.heroes[0].hand, ["Low Guard"]);
        assert!(s.write().contains("hand: [\"Low Guard\"]"), "{}", s.write());
    }
}
