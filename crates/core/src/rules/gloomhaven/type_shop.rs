//! The workshop's panel for a monster type written in the scenario: its statistics at a level,
//! its ability deck card by card and action by action, and its file for the library.
//!
//! A type the scenario writes (`monsters:`) is found before the library's of the same name, so a
//! copy of a library type edited here changes it for this scenario only, until it is kept in the
//! library. Actions the rows do not make (an area of effect, a consumed element, more than one
//! condition) stay as the file wrote them.

use super::scenario::{
    AbilityCard, Condition, Element, MAX_LEVEL, MAX_SPECIALS, MonsterEffect, MonsterType, Ranks,
    RuleEffect, Scenario, Stats, Trigger, Victory,
};
use crate::rules::lab::{Field, Value};

/// The largest number a statistic takes in the panel (the loader's bound for hit points and
/// attacks).
pub(super) const MAX_STAT: i64 = 1_000;
/// The largest move or range in the panel.
pub(super) const MAX_REACH: i64 = 64;
/// The most cards a deck and actions a card are given here.
pub(super) const MAX_ROWS: usize = 64;

/// The kinds of action a card's row makes, and the row that takes the action out.
const KINDS: [&str; 10] = [
    "Move", "Jump", "Attack", "Heal", "Shield", "Infuse", "Spawn", "Special", "—", "take out",
];
/// The conditions an attack's row gives (the first of the attack's).
pub(super) const CONDITIONS: [(&str, Option<Condition>); 9] = [
    ("none", None),
    ("poison", Some(Condition::Poison)),
    ("wound", Some(Condition::Wound)),
    ("stun", Some(Condition::Stun)),
    ("immobilize", Some(Condition::Immobilize)),
    ("disarm", Some(Condition::Disarm)),
    ("muddle", Some(Condition::Muddle)),
    ("invisible", Some(Condition::Invisible)),
    ("strengthen", Some(Condition::Strengthen)),
];
pub(super) const ELEMENTS: [(&str, Element); 6] = [
    ("fire", Element::Fire),
    ("ice", Element::Ice),
    ("air", Element::Air),
    ("earth", Element::Earth),
    ("light", Element::Light),
    ("dark", Element::Dark),
];
/// The conditions the panel makes a type immune to: those that hinder it. (A file may name
/// others; their rows show them and keep them.)
const IMMUNITIES: [(&str, Condition); 6] = [
    ("poison", Condition::Poison),
    ("wound", Condition::Wound),
    ("stun", Condition::Stun),
    ("immobilize", Condition::Immobilize),
    ("disarm", Condition::Disarm),
    ("muddle", Condition::Muddle),
];
/// The kinds of action a special's row makes: a special performs no special.
const SPECIAL_KINDS: [&str; 9] = [
    "Move", "Jump", "Attack", "Heal", "Shield", "Infuse", "Spawn", "—", "take out",
];
/// The statistics a rank's rows edit: id, label, bound.
const STATS: [(&str, &str, i64); 6] = [
    ("hp", "hp", MAX_STAT),
    ("move", "move", MAX_REACH),
    ("attack", "attack", MAX_STAT),
    ("range", "range", MAX_REACH),
    ("shield", "shield", MAX_STAT),
    ("retaliate", "retaliate", MAX_STAT),
];

/// A choice row of a table of words and values, showing the word of `now` (the first word
/// when the table has none for it).
pub(super) fn choice_of<T: PartialEq>(
    id: &str,
    label: &str,
    table: &[(&str, T)],
    now: &T,
) -> Field {
    let word = table
        .iter()
        .find(|(_, v)| v == now)
        .or(table.first())
        .map_or("", |(w, _)| *w);
    let words: Vec<&str> = table.iter().map(|(w, _)| *w).collect();
    Field::choice(id, label, word, &words)
}

/// The value a choice row's word stands for in `table`; `what` names the kind in the error.
pub(super) fn chosen<T: Copy>(table: &[(&str, T)], value: &Value, what: &str) -> Result<T, String> {
    let word = value.text()?;
    table
        .iter()
        .find(|(w, _)| *w == word)
        .map(|(_, v)| *v)
        .ok_or_else(|| format!("`{word}`: no such {what}"))
}

/// An attack of `value` more than the type's, with nothing else to it: one target, the type's
/// range.
fn plain_attack(value: i32) -> MonsterEffect {
    MonsterEffect::Attack {
        value,
        range: None,
        targets: 1,
        aoe: Vec::new(),
        pierce: 0,
        conditions: Vec::new(),
        consume: None,
    }
}

/// A new monster type named `name`: eight levels of modest statistics and a deck of three
/// cards, so that it loads and plays as it is.
pub fn new_type(name: &str) -> MonsterType {
    let stats = |hp: u32, movement: u32, attack: u32| Stats {
        hp,
        movement,
        attack,
        ..Stats::default()
    };
    let levels = (0..=MAX_LEVEL)
        .map(|l| Ranks {
            normal: stats(3 + l, 2 + l / 3, 1 + l / 2),
            elite: stats(5 + 2 * l, 2 + l / 3, 2 + l / 2),
        })
        .collect();
    let card =
        |name: &str, initiative: u32, shuffle: bool, actions: Vec<MonsterEffect>| AbilityCard {
            name: name.into(),
            initiative,
            shuffle,
            actions,
        };
    let attack = plain_attack;
    MonsterType {
        name: name.into(),
        flying: false,
        advantage: false,
        standees: 6,
        normal: Stats::default(),
        elite: Stats::default(),
        levels,
        deck: vec![
            card("Lunge", 20, false, vec![MonsterEffect::Move(1), attack(-1)]),
            card("Strike", 45, false, vec![MonsterEffect::Move(0), attack(0)]),
            card(
                "Hold Fast",
                70,
                true,
                vec![MonsterEffect::Shield(1), attack(1)],
            ),
        ],
        immunities: Vec::new(),
        objective: false,
        hp_per_character: false,
        specials: Vec::new(),
    }
}

/// `base`, else `base 2`, `base 3`…: the first name `used` says is free.
pub fn free_name(base: &str, used: impl Fn(&str) -> bool) -> String {
    (1..)
        .map(|i| match i {
            1 => base.to_string(),
            i => format!("{base} {i}"),
        })
        .find(|n| !used(n))
        .unwrap_or_else(|| base.to_string())
}

/// The name a rename row gives the scenario's own entry `name` (a `what`): refused when empty,
/// when the scenario writes another entry of it (`own`), or when the library has one of it
/// (`library`), which would then be played as this one wherever the scenario names it.
pub(super) fn new_name(
    value: &Value,
    name: &str,
    what: &str,
    own: impl Fn(&str) -> bool,
    library: &[String],
) -> Result<String, String> {
    let new = value.text()?.trim().to_string();
    if new.is_empty() {
        return Err(format!("a {what} needs a name"));
    }
    if new != name && own(&new) {
        return Err(format!("the scenario has a {what} {new:?} already"));
    }
    if new != name && library.contains(&new) {
        return Err(format!(
            "the library has a {what} {new:?}: give this one another name"
        ));
    }
    Ok(new)
}

/// The statistics of a rank at `level`: those the level prints when the type has levels, else
/// the type's own.
fn stats_at(t: &MonsterType, level: u32, elite: bool) -> &Stats {
    match t.levels.get(level as usize) {
        Some(r) if elite => &r.elite,
        Some(r) => &r.normal,
        None if elite => &t.elite,
        None => &t.normal,
    }
}

fn stats_at_mut(t: &mut MonsterType, level: u32, elite: bool) -> &mut Stats {
    let at = level as usize;
    if at < t.levels.len() {
        let r = &mut t.levels[at];
        return if elite { &mut r.elite } else { &mut r.normal };
    }
    if elite { &mut t.elite } else { &mut t.normal }
}

/// The row word of an action, and its number.
fn action_row(a: &MonsterEffect) -> (&'static str, i64) {
    match a {
        MonsterEffect::Move(n) => ("Move", i64::from(*n)),
        MonsterEffect::Jump(n) => ("Jump", i64::from(*n)),
        MonsterEffect::Attack { value, .. } => ("Attack", i64::from(*value)),
        MonsterEffect::Heal(n) => ("Heal", i64::from(*n)),
        MonsterEffect::Shield(n) => ("Shield", i64::from(*n)),
        MonsterEffect::Infuse(_) => ("Infuse", 0),
        MonsterEffect::Spawn(_) => ("Spawn", 0),
        MonsterEffect::Special(n) => ("Special", i64::from(*n)),
    }
}

/// A new action of kind `word`, its number kept where the kind has one.
fn action_of(word: &str, number: i64, monsters: &[String]) -> Result<MonsterEffect, String> {
    let signed = i32::try_from(number.clamp(-MAX_REACH, MAX_REACH)).unwrap_or(0);
    let unsigned = u32::try_from(number.clamp(0, MAX_STAT)).unwrap_or(0);
    Ok(match word {
        "Move" => MonsterEffect::Move(signed),
        "Jump" => MonsterEffect::Jump(signed),
        "Attack" => plain_attack(signed),
        "Heal" => MonsterEffect::Heal(unsigned.max(1)),
        "Shield" => MonsterEffect::Shield(unsigned.max(1)),
        "Infuse" => MonsterEffect::Infuse(Element::Fire),
        "Spawn" => MonsterEffect::Spawn(monsters.first().cloned().unwrap_or_default()),
        "Special" => MonsterEffect::Special(unsigned.max(1)),
        w => {
            return Err(format!("`{w}`: expected one of {}", KINDS[..8].join(", ")));
        }
    })
}

/// The panel's rows for the scenario's own monster type `name`, its statistics at `level`.
/// `monsters` are the type names a Spawn row offers.
pub fn type_fields(s: &Scenario, name: &str, level: u32, monsters: &[String]) -> Vec<Field> {
    let Some(t) = s.monsters.iter().find(|m| m.name == name) else {
        return Vec::new();
    };
    let mut out = vec![
        Field::text("type:name", "Type", &t.name),
        Field::flag("type:flying", "…flies", t.flying),
        Field::flag("type:advantage", "…advantage", t.advantage),
        Field::flag("type:boss", "…hp × characters", t.hp_per_character),
        Field::number(
            "type:standees",
            "…standees",
            i64::from(t.standees),
            (1, MAX_ROWS as i64),
        ),
    ];
    for (k, c) in t.immunities.iter().enumerate() {
        let mut words = vec!["take out"];
        words.extend(IMMUNITIES.iter().map(|(w, _)| *w));
        let now = c.name();
        if !words.contains(&now) {
            words.push(now);
        }
        out.push(Field::choice(
            &format!("type:immune:{k}"),
            "…immune to",
            now,
            &words,
        ));
    }
    let more: Vec<&str> = IMMUNITIES
        .iter()
        .filter(|(_, c)| !t.immunities.contains(c))
        .map(|(w, _)| *w)
        .collect();
    if !more.is_empty() {
        let mut words = vec!["—"];
        words.extend(more);
        out.push(Field::choice("type:immune:add", "…immune +", "—", &words));
    }
    for (rank, elite) in [("normal", false), ("elite", true)] {
        let st = stats_at(t, level, elite);
        for (id, label, hi) in STATS {
            let v = match id {
                "hp" => st.hp,
                "move" => st.movement,
                "attack" => st.attack,
                "range" => st.range,
                "shield" => st.shield,
                _ => st.retaliate,
            };
            let lo = i64::from(id == "hp");
            out.push(Field::number(
                &format!("type:{rank}:{id}"),
                &format!("{rank} {label}"),
                i64::from(v),
                (lo, hi),
            ));
        }
    }
    let names: Vec<&str> = monsters.iter().map(String::as_str).collect();
    for (i, c) in t.deck.iter().enumerate() {
        let n = i + 1;
        out.push(Field::text(
            &format!("type:card:{i}:name"),
            &format!("Card {n}"),
            &c.name,
        ));
        out.push(Field::number(
            &format!("type:card:{i}:initiative"),
            "…initiative",
            i64::from(c.initiative),
            (1, 99),
        ));
        out.push(Field::flag(
            &format!("type:card:{i}:shuffle"),
            "…shuffle",
            c.shuffle,
        ));
        action_fields(
            &mut out,
            &format!("type:card:{i}"),
            &c.actions,
            &names,
            (&KINDS, t.specials.len()),
        );
        out.push(Field::choice(
            &format!("type:card:{i}:card"),
            "…this card",
            "keep",
            &["keep", "take out"],
        ));
    }
    out.push(Field::choice(
        "type:add-card",
        "Add a card",
        "—",
        &["—", "a new card"],
    ));
    // A boss's specials: a card's `Special n` performs the n-th list.
    for (k, list) in t.specials.iter().enumerate() {
        out.push(Field::choice(
            &format!("type:special:{k}:special"),
            &format!("Special {}", k + 1),
            "keep",
            &["keep", "take out"],
        ));
        action_fields(
            &mut out,
            &format!("type:special:{k}"),
            list,
            &names,
            (&SPECIAL_KINDS, 0),
        );
    }
    out.push(Field::choice(
        "type:add-special",
        "Add special",
        "—",
        &["—", "a new special"],
    ));
    out.push(Field::choice(
        "type:type",
        "This monster type",
        "keep",
        &["keep", "take out"],
    ));
    out
}

/// The rows of a list of actions (a card's, a special's) whose ids start with `prefix`: each
/// action's kind and numbers, then a row to add one. `kinds` are the words an action's row offers
/// (ending with `—` and `take out`), with the number of specials a Special row chooses among;
/// `names` the types a Spawn row offers.
fn action_fields(
    out: &mut Vec<Field>,
    prefix: &str,
    actions: &[MonsterEffect],
    names: &[&str],
    (kinds, specials): (&[&str], usize),
) {
    for (j, a) in actions.iter().enumerate() {
        let (word, number) = action_row(a);
        let id = format!("{prefix}:act:{j}");
        out.push(Field::choice(&id, "…action", word, kinds));
        match a {
            MonsterEffect::Move(_) | MonsterEffect::Jump(_) => out.push(Field::number(
                &format!("{id}:n"),
                "……move ±",
                number,
                (-MAX_REACH, MAX_REACH),
            )),
            MonsterEffect::Attack {
                range,
                targets,
                conditions,
                ..
            } => {
                out.push(Field::number(
                    &format!("{id}:n"),
                    "……attack ±",
                    number,
                    (-MAX_REACH, MAX_REACH),
                ));
                out.push(Field::number(
                    &format!("{id}:range"),
                    "……range",
                    i64::from(range.unwrap_or(0)),
                    (0, MAX_REACH),
                ));
                out.push(Field::number(
                    &format!("{id}:targets"),
                    "……targets",
                    i64::from(*targets),
                    (1, 8),
                ));
                out.push(choice_of(
                    &format!("{id}:condition"),
                    "……gives",
                    &CONDITIONS,
                    &conditions.first().copied(),
                ));
            }
            MonsterEffect::Heal(_) | MonsterEffect::Shield(_) => {
                out.push(Field::number(
                    &format!("{id}:n"),
                    "……by",
                    number,
                    (1, MAX_STAT),
                ));
            }
            MonsterEffect::Special(_) => {
                let most = i64::try_from(specials.max(1)).unwrap_or(1);
                out.push(Field::number(
                    &format!("{id}:n"),
                    "……number",
                    number,
                    (1, most),
                ));
            }
            MonsterEffect::Infuse(e) => {
                out.push(choice_of(
                    &format!("{id}:element"),
                    "……element",
                    &ELEMENTS,
                    e,
                ));
            }
            MonsterEffect::Spawn(m) => out.push(Field::choice(
                &format!("{id}:monster"),
                "……a normal",
                m,
                names,
            )),
        }
    }
    // The add row offers the kinds and `—`, not `take out`.
    out.push(Field::choice(
        &format!("{prefix}:add"),
        "…add action",
        "—",
        &kinds[..kinds.len() - 1],
    ));
}

/// Sets one row of [`type_fields`] of the scenario's type `name` at `level`; gives the type's
/// name after (a rename changes it).
pub fn set_type(
    s: &mut Scenario,
    name: &str,
    level: u32,
    field: &str,
    value: &Value,
    monsters: &[String],
) -> Result<Option<String>, String> {
    let i = s
        .monsters
        .iter()
        .position(|m| m.name == name)
        .ok_or_else(|| format!("the scenario writes no monster type {name:?}"))?;
    let parts: Vec<&str> = field.split(':').collect();
    match parts[..] {
        ["type", "name"] => {
            let own = |n: &str| s.monsters.iter().any(|m| m.name == n);
            let new = new_name(value, name, "monster type", own, monsters)?;
            rename(s, name, &new);
            return Ok(Some(new));
        }
        ["type", "type"] => {
            if value.text()? == "take out" {
                s.monsters.remove(i);
                return Ok(None);
            }
        }
        ["type", "add-card"] => {
            if value.text()? != "—" {
                let t = &mut s.monsters[i];
                if t.deck.len() >= MAX_ROWS {
                    return Err(format!("a deck holds at most {MAX_ROWS} cards here"));
                }
                let n = t.deck.len() + 1;
                t.deck.push(AbilityCard {
                    name: format!("Card {n}"),
                    initiative: 50,
                    shuffle: false,
                    actions: vec![MonsterEffect::Move(0), action_of("Attack", 0, monsters)?],
                });
            }
        }
        ["type", "immune", k] => set_immunity(&mut s.monsters[i].immunities, k, value)?,
        ["type", "add-special"] => {
            if value.text()? != "—" {
                let t = &mut s.monsters[i];
                if t.specials.len() >= MAX_SPECIALS {
                    return Err(format!("a type has at most {MAX_SPECIALS} specials"));
                }
                t.specials.push(vec![plain_attack(0)]);
            }
        }
        ["type", "special", k, ref rest @ ..] => {
            let k: usize = k.parse().map_err(|_| format!("no field `{field}`"))?;
            set_special(&mut s.monsters[i], k, rest, value, monsters, field)?;
        }
        ["type", "card", c, ref rest @ ..] => {
            let c: usize = c.parse().map_err(|_| format!("no field `{field}`"))?;
            let t = &mut s.monsters[i];
            if c >= t.deck.len() {
                return Err(format!("the type has no card {}", c + 1));
            }
            set_card(t, c, rest, value, monsters, field)?;
        }
        ["type", flag @ ("flying" | "advantage" | "boss")] => {
            let t = &mut s.monsters[i];
            let b = value.flag()?;
            match flag {
                "flying" => t.flying = b,
                "advantage" => t.advantage = b,
                _ => t.hp_per_character = b,
            }
        }
        ["type", "standees"] => s.monsters[i].standees = bounded(value, 1, MAX_ROWS as i64)?,
        ["type", rank @ ("normal" | "elite"), stat] => {
            let (_, _, hi) = STATS
                .iter()
                .find(|(id, _, _)| *id == stat)
                .ok_or_else(|| format!("no field `{field}`"))?;
            let v = bounded(value, i64::from(stat == "hp"), *hi)?;
            let st = stats_at_mut(&mut s.monsters[i], level, rank == "elite");
            match stat {
                "hp" => st.hp = v,
                "move" => st.movement = v,
                "attack" => st.attack = v,
                "range" => st.range = v,
                "shield" => st.shield = v,
                _ => st.retaliate = v,
            }
        }
        _ => return Err(format!("no field `{field}`")),
    }
    Ok(Some(name.to_string()))
}

/// A number row's value within `lo..=hi`.
pub(super) fn bounded(value: &Value, lo: i64, hi: i64) -> Result<u32, String> {
    let n = value.unsigned()?;
    if !(lo..=hi).contains(&i64::from(n)) {
        return Err(format!("{n}: expected a number from {lo} to {hi}"));
    }
    Ok(n)
}

/// Sets a row of card `c` of the type's deck (`rest` is the field's id after `type:card:c`).
fn set_card(
    t: &mut MonsterType,
    c: usize,
    rest: &[&str],
    value: &Value,
    monsters: &[String],
    field: &str,
) -> Result<(), String> {
    let specials = t.specials.len();
    let deck = &mut t.deck;
    let card = &mut deck[c];
    match rest {
        ["name"] => {
            let name = value.text()?.trim().to_string();
            if name.is_empty() {
                return Err("a card needs a name".into());
            }
            card.name = name;
        }
        ["initiative"] => card.initiative = bounded(value, 1, 99)?,
        ["shuffle"] => card.shuffle = value.flag()?,
        ["card"] => {
            if value.text()? == "take out" {
                if deck.len() == 1 {
                    return Err("a monster type's deck needs a card".into());
                }
                deck.remove(c);
            }
        }
        ["add"] | ["act", ..] => {
            let actions = &mut card.actions;
            set_actions(actions, rest, value, (monsters, specials), field)?;
        }
        _ => return Err(format!("no field `{field}`")),
    }
    Ok(())
}

/// Sets an immunity row: `k` is the immunity's index (a word of [`IMMUNITIES`] in its place, or
/// `take out`) or `add` (a word added).
fn set_immunity(immunities: &mut Vec<Condition>, k: &str, value: &Value) -> Result<(), String> {
    let word = value.text()?;
    if word == "—" {
        return Ok(());
    }
    let at = match k {
        "add" => None,
        k => {
            let k: usize = k.parse().map_err(|_| format!("no immunity `{k}`"))?;
            if k >= immunities.len() {
                return Err(format!("the type has no immunity {}", k + 1));
            }
            Some(k)
        }
    };
    if word == "take out" {
        let k = at.ok_or("nothing to take out")?;
        immunities.remove(k);
        return Ok(());
    }
    let c = chosen(&IMMUNITIES, value, "condition a type is immune to")?;
    if immunities
        .iter()
        .enumerate()
        .any(|(j, x)| *x == c && Some(j) != at)
    {
        return Err(format!("the type is immune to {word} already"));
    }
    match at {
        Some(k) => immunities[k] = c,
        None => immunities.push(c),
    }
    Ok(())
}

/// Sets a row of the type's special `k` (`rest` is the field's id after `type:special:k`).
/// A special a card still performs stays; those after it are renumbered on the cards.
fn set_special(
    t: &mut MonsterType,
    k: usize,
    rest: &[&str],
    value: &Value,
    monsters: &[String],
    field: &str,
) -> Result<(), String> {
    if k >= t.specials.len() {
        return Err(format!("the type has no special {}", k + 1));
    }
    let n = u32::try_from(k + 1).unwrap_or(u32::MAX);
    match rest {
        ["special"] => {
            if value.text()? != "take out" {
                return Ok(());
            }
            let actions = t
                .deck
                .iter()
                .flat_map(|c| c.actions.iter().map(move |a| (c, a)));
            if let Some((c, _)) = actions
                .into_iter()
                .find(|(_, a)| **a == MonsterEffect::Special(n))
            {
                return Err(format!(
                    "card {:?} performs Special {n}: take that action out first",
                    c.name
                ));
            }
            t.specials.remove(k);
            for a in t.deck.iter_mut().flat_map(|c| &mut c.actions) {
                if let MonsterEffect::Special(m) = a
                    && *m > n
                {
                    *m -= 1;
                }
            }
        }
        ["act", "0"] if value.text()? == "take out" && t.specials[k].len() == 1 => {
            return Err("a special needs an action: take the special out instead".into());
        }
        ["add" | "act", ..] => {
            if value.text().is_ok_and(|w| w == "Special") {
                return Err("a special performs plain actions, not a special".into());
            }
            set_actions(&mut t.specials[k], rest, value, (monsters, 0), field)?;
        }
        _ => return Err(format!("no field `{field}`")),
    }
    Ok(())
}

/// Sets a row of [`action_fields`] of `actions` (`rest` is the field's id after the list's
/// prefix: `add`, or `act`, the action's index and what of it). `specials` is how many the type
/// has: a Special action performs one of them.
fn set_actions(
    actions: &mut Vec<MonsterEffect>,
    rest: &[&str],
    value: &Value,
    (monsters, specials): (&[String], usize),
    field: &str,
) -> Result<(), String> {
    let special = |word: &str| {
        if word == "Special" && specials == 0 {
            return Err("the type has no special to perform: add one first".to_string());
        }
        Ok(())
    };
    match rest {
        ["add"] => {
            let word = value.text()?;
            if word != "—" {
                if actions.len() >= MAX_ROWS {
                    return Err(format!("at most {MAX_ROWS} actions here"));
                }
                special(&word)?;
                actions.push(action_of(&word, 0, monsters)?);
            }
        }
        ["act", j, what @ ..] => {
            let j: usize = j.parse().map_err(|_| format!("no field `{field}`"))?;
            let a = actions
                .get_mut(j)
                .ok_or_else(|| format!("no action {}", j + 1))?;
            match what {
                [] => match value.text()?.as_str() {
                    "take out" => {
                        actions.remove(j);
                    }
                    "—" => {}
                    word => {
                        let (old, number) = action_row(a);
                        if old != word {
                            special(word)?;
                            // A kind's number kept where it names a special the type has.
                            let number = if word == "Special" && number as usize > specials {
                                1
                            } else {
                                number
                            };
                            *a = action_of(word, number, monsters)?;
                        }
                    }
                },
                ["n"] => match a {
                    MonsterEffect::Move(n) | MonsterEffect::Jump(n) => {
                        *n = signed(value, MAX_REACH)?;
                    }
                    MonsterEffect::Attack { value: n, .. } => *n = signed(value, MAX_REACH)?,
                    MonsterEffect::Heal(n) | MonsterEffect::Shield(n) => {
                        *n = bounded(value, 1, MAX_STAT)?;
                    }
                    MonsterEffect::Special(n) => {
                        *n = bounded(value, 1, i64::try_from(specials).unwrap_or(0))?;
                    }
                    _ => return Err(format!("no field `{field}`")),
                },
                ["range" | "targets" | "condition"] => {
                    let MonsterEffect::Attack {
                        range,
                        targets,
                        conditions,
                        ..
                    } = a
                    else {
                        return Err("this action is no attack".into());
                    };
                    match what[0] {
                        "range" => {
                            let r = bounded(value, 0, MAX_REACH)?;
                            *range = (r > 0).then_some(r);
                        }
                        "targets" => *targets = bounded(value, 1, 8)?,
                        _ => set_first_condition(conditions, value)?,
                    }
                }
                ["element"] => {
                    let MonsterEffect::Infuse(e) = a else {
                        return Err("this action infuses nothing".into());
                    };
                    *e = chosen(&ELEMENTS, value, "element")?;
                }
                ["monster"] => {
                    let MonsterEffect::Spawn(m) = a else {
                        return Err("this action spawns nothing".into());
                    };
                    let word = value.text()?;
                    if !monsters.contains(&word) {
                        return Err(format!("`{word}`: no such monster type"));
                    }
                    *m = word;
                }
                _ => return Err(format!("no field `{field}`")),
            }
        }
        _ => return Err(format!("no field `{field}`")),
    }
    Ok(())
}

/// Sets the first of an attack's conditions to a row's word (`none` takes it out); any others
/// stay as the file wrote them.
pub(super) fn set_first_condition(
    conditions: &mut Vec<Condition>,
    value: &Value,
) -> Result<(), String> {
    match (
        chosen(&CONDITIONS, value, "condition")?,
        conditions.is_empty(),
    ) {
        (Some(c), true) => conditions.push(c),
        (Some(c), false) => conditions[0] = c,
        (None, false) => {
            conditions.remove(0);
        }
        (None, true) => {}
    }
    Ok(())
}

pub(super) fn signed(value: &Value, reach: i64) -> Result<i32, String> {
    let n = value.signed()?;
    if !(-reach..=reach).contains(&i64::from(n)) {
        return Err(format!("{n}: expected a number from {} to {reach}", -reach));
    }
    Ok(n)
}

/// Renames the type `old` to `new` wherever the scenario names it: the type, its spots, the
/// goal, the special rules, and the cards that spawn it.
fn rename(s: &mut Scenario, old: &str, new: &str) {
    let fix = |n: &mut String| {
        if n == old {
            *n = new.to_string();
        }
    };
    for m in &mut s.monsters {
        fix(&mut m.name);
        for a in m
            .deck
            .iter_mut()
            .flat_map(|c| &mut c.actions)
            .chain(m.specials.iter_mut().flatten())
        {
            if let MonsterEffect::Spawn(n) = a {
                fix(n);
            }
        }
    }
    for p in s.legend.values_mut() {
        fix(&mut p.monster);
    }
    if let Victory::Kill(n) = &mut s.victory {
        fix(n);
    }
    for r in &mut s.special_rules {
        if let Trigger::Dies(n) = &mut r.when {
            fix(n);
        }
        for e in &mut r.then {
            match e {
                RuleEffect::Spawn { monster, .. } => fix(monster),
                RuleEffect::Goal(Victory::Kill(n)) => fix(n),
                _ => {}
            }
        }
    }
}

/// The library file of the scenario's type `name`: its file name (from the name) and text, read
/// back by the library as it is written.
pub fn type_file(s: &Scenario, name: &str) -> Option<(String, String)> {
    let t = s.monsters.iter().find(|m| m.name == name)?;
    library_file(&t.name, "a monster type", t)
}

/// A library file of the entry `name` (`what` it is, in words): its file name and its text, the
/// entry pretty-printed under a comment line.
pub(super) fn library_file<T: serde::Serialize>(
    name: &str,
    what: &str,
    entry: &T,
) -> Option<(String, String)> {
    let cfg = ron::ser::PrettyConfig::new()
        .depth_limit(3)
        .indentor("    ".to_string());
    let body = ron::ser::to_string_pretty(entry, cfg).ok()?;
    let text = format!("// {name}: {what} made in the Foehold workshop.\n{body}\n");
    Some((crate::library::file_for(name), text))
}
