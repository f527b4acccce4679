//! The workshop's panel rows of a Brimstone fight: how it starts, its loot deck, the selected
//! hero's statistics and gear, and its threat cards group by group with every number a group has.
//!
//! A row sets the file's field as it is; the loader's bounds (checked after every edit) say what
//! is wrong, in the words a file would get.

use super::lab::{BEHAVIOURS, STYLES};
use super::placement::Initiative;
use super::scenario::{AmbushSpec, Gun, HandWeapon, LurkSpec, ScenarioFile};
use super::workshop::{new_group, threat};
use crate::rules::lab::{Field, Value};
use crate::rules::view::CellKey;

/// The most a panel's number takes (the loader bounds each again).
pub(super) const MAX_FIELD: i64 = 99;
/// The most threat cards, groups on a card and loot cards the rows add (the loader's bounds).
const MAX_THREATS: usize = super::scenario::MAX_THREATS;
const MAX_GROUPS: usize = super::scenario::MAX_GROUPS;
const MAX_LOOT: usize = super::scenario::MAX_LOOT_CARDS;
/// How a fight starts, by the words of the `Starts as` row.
const STARTS: [&str; 4] = [
    "a fight",
    "an ambush",
    "an ambush, no one moved",
    "a lurking threat",
];
const KEEP: [&str; 2] = ["keep", "take out"];

fn start_word(f: &ScenarioFile) -> &'static str {
    match (f.ambush, f.lurk) {
        (Some(a), _) if a.triggered_before_anyone_moved => STARTS[2],
        (Some(_), _) => STARTS[1],
        (None, Some(_)) => STARTS[3],
        (None, None) => STARTS[0],
    }
}

/// The word of `table` for `now`.
fn word_of<T: PartialEq>(table: &[(&'static str, T)], now: &T) -> &'static str {
    table.iter().find(|(_, v)| v == now).map_or("", |(w, _)| *w)
}

/// The value of `table` a choice row's word stands for.
fn keyword<T: Copy>(table: &[(&str, T)], value: &Value) -> Result<T, String> {
    let w = value.text()?;
    table
        .iter()
        .find(|(t, _)| *t == w)
        .map(|(_, v)| *v)
        .ok_or_else(|| format!("`{w}`: no such keyword"))
}

fn number(id: &str, label: &str, v: u32, lo: i64) -> Field {
    Field::number(id, label, i64::from(v), (lo, MAX_FIELD))
}

/// The fight's own rows (after name, description and the numbers the workshop shows first), the
/// selected hero's, and the threat cards' (whose ids start with `threat`).
pub(super) fn fields(f: &ScenarioFile, selected: Option<CellKey>) -> Vec<Field> {
    let mut out = vec![Field::choice("start", "Starts as", start_word(f), &STARTS)];
    if let Some(l) = f.lurk {
        out.push(number("lurk:start", "…round ≤", l.start_of_round, 0));
        out.push(number("lurk:move", "…a move ≤", l.after_move, 0));
        out.push(number("lurk:latest", "…latest", l.latest_round, 1));
    }
    for (i, card) in f.loot.iter().enumerate() {
        out.push(Field::text(
            &format!("loot:{i}"),
            &format!("Loot {}", i + 1),
            card,
        ));
        out.push(Field::choice(
            &format!("loot:{i}:card"),
            "…this card",
            "keep",
            &KEEP,
        ));
    }
    if f.loot.len() < MAX_LOOT {
        out.push(Field::choice(
            "loot:add",
            "Add loot",
            "—",
            &["—", "a new card"],
        ));
    }
    if let Some(h) = selected.and_then(|c| f.heroes.iter().find(|h| h.at == c)) {
        out.push(Field::text("hero:name", "Hero", &h.name));
        for (id, label, v, lo) in [
            ("hero:health", "…health", h.health, 1),
            ("hero:defense", "…defense", h.defense, 2),
            ("hero:initiative", "…initiative", h.initiative, 0),
            ("hero:move", "…move", h.move_points, 0),
            ("hero:combat", "…combat", h.combat, 0),
            ("hero:melee_to_hit", "…melee hit", h.melee_to_hit, 2),
            ("hero:damage_bonus", "…damage +", h.damage_bonus, 0),
            ("hero:grit", "…grit", h.grit, 0),
            ("hero:max_grit", "…max grit", h.max_grit, 0),
        ] {
            out.push(number(id, label, v, lo));
        }
        out.push(Field::flag("hero:gun", "…gun", h.gun.is_some()));
        if let Some(g) = h.gun {
            out.push(number("hero:gun:shots", "……shots", g.shots, 1));
            out.push(number("hero:gun:range", "……range", g.range, 1));
            out.push(number("hero:gun:to_hit", "……to hit", g.to_hit, 2));
            out.push(Field::flag("hero:gun:splash", "……splash", g.splash));
        }
        out.push(Field::flag("hero:weapon", "…weapon", h.weapon.is_some()));
        if let Some(w) = &h.weapon {
            out.push(Field::text("hero:weapon:name", "……name", &w.name));
            out.push(number("hero:weapon:combat", "……combat", w.combat, 1));
            out.push(Field::flag(
                "hero:weapon:free_attack",
                "……free",
                w.free_attack,
            ));
            out.push(Field::flag("hero:weapon:splash", "……splash", w.splash));
        }
    }
    threat_fields(f, &mut out);
    out
}

/// The threat cards' rows: each card's name, then each group's name and numbers.
fn threat_fields(f: &ScenarioFile, out: &mut Vec<Field>) {
    let styles: Vec<&str> = STYLES.iter().map(|(w, _)| *w).collect();
    let behaviours: Vec<&str> = BEHAVIOURS.iter().map(|(w, _)| *w).collect();
    for (i, t) in f.threats.iter().enumerate() {
        let n = i + 1;
        out.push(Field::text(
            &format!("threat:{n}:name"),
            &format!("Threat {n}"),
            &t.name,
        ));
        out.push(Field::choice(
            &format!("threat:{n}:card"),
            "…this card",
            "keep",
            &KEEP,
        ));
        for (j, g) in t.groups.iter().enumerate() {
            let id = format!("threat:{n}:group:{}", j + 1);
            out.push(Field::text(&format!("{id}:name"), "…group", &g.name));
            out.push(number(&format!("{id}:count"), "……models", g.count, 1));
            let rolled = g.initiative == Initiative::Variable;
            out.push(Field::flag(&format!("{id}:rolled"), "……rolled", rolled));
            if let Initiative::Fixed(v) = g.initiative {
                out.push(number(&format!("{id}:initiative"), "……initiative", v, 0));
            }
            out.push(Field::choice(
                &format!("{id}:style"),
                "……ambush",
                word_of(&STYLES, &g.style),
                &styles,
            ));
            out.push(Field::choice(
                &format!("{id}:behaviour"),
                "……acts",
                word_of(&BEHAVIOURS, &g.behaviour),
                &behaviours,
            ));
            for (what, label, v, lo) in [
                ("move", "……move", g.move_points, 0),
                ("range", "……range", g.range, 0),
                ("wounds", "……wounds", g.wounds, 1),
                ("armour", "……armour", g.armour, 0),
                ("combat", "……combat", g.combat, 1),
                ("to_hit", "……to hit", g.to_hit, 2),
                ("damage", "……damage", g.damage, 1),
                ("xp", "……xp", g.xp, 0),
            ] {
                out.push(number(&format!("{id}:{what}"), label, v, lo));
            }
            out.push(Field::choice(
                &format!("{id}:group"),
                "……group",
                "keep",
                &KEEP,
            ));
        }
        if t.groups.len() < MAX_GROUPS {
            out.push(Field::choice(
                &format!("threat:{n}:add-group"),
                "…add group",
                "—",
                &["—", "a new group"],
            ));
        }
    }
    if f.threats.len() < MAX_THREATS {
        out.push(Field::flag("threat:add", "Add a threat card", false));
    }
}

/// Sets one of [`fields`]' rows; `Ok(false)` when the id is none of them.
pub(super) fn set(
    f: &mut ScenarioFile,
    selected: Option<CellKey>,
    field: &str,
    value: &Value,
) -> Result<bool, String> {
    let n = || value.unsigned();
    let parts: Vec<&str> = field.split(':').collect();
    match parts[..] {
        ["start"] => {
            let word = value.text()?;
            let latest = f.round_limit.clamp(1, 3);
            (f.ambush, f.lurk) = match STARTS.iter().position(|w| *w == word) {
                Some(0) => (None, None),
                Some(1 | 2) => (
                    Some(AmbushSpec {
                        triggered_before_anyone_moved: word == STARTS[2],
                    }),
                    None,
                ),
                Some(_) => (
                    None,
                    Some(f.lurk.unwrap_or(LurkSpec {
                        start_of_round: 1,
                        after_move: 1,
                        latest_round: latest,
                    })),
                ),
                None => return Err(format!("`{word}`: expected one of {}", STARTS.join(", "))),
            };
        }
        ["lurk", what] => {
            let l = f.lurk.as_mut().ok_or("the threat does not lurk")?;
            match what {
                "start" => l.start_of_round = n()?,
                "move" => l.after_move = n()?,
                "latest" => l.latest_round = n()?,
                _ => return Ok(false),
            }
        }
        ["loot", "add"] => {
            if value.text()? != "—" {
                if f.loot.len() >= MAX_LOOT {
                    return Err(format!("a loot deck holds at most {MAX_LOOT} cards"));
                }
                f.loot.push(format!("Loot {}", f.loot.len() + 1));
            }
        }
        ["loot", k, ref rest @ ..] => {
            let k: usize = k.parse().map_err(|_| format!("no field `{field}`"))?;
            if k >= f.loot.len() {
                return Err(format!("the loot deck has no card {}", k + 1));
            }
            match rest {
                [] => f.loot[k] = value.text()?,
                ["card"] if value.text()? == "take out" => {
                    f.loot.remove(k);
                }
                ["card"] => {}
                _ => return Ok(false),
            }
        }
        ["hero", ..] => {
            let h = selected
                .and_then(|c| f.heroes.iter_mut().find(|h| h.at == c))
                .ok_or("select a hero first")?;
            match parts[1..] {
                ["name"] => h.name = value.text()?,
                ["health"] => h.health = n()?,
                ["defense"] => h.defense = n()?,
                ["initiative"] => h.initiative = n()?,
                ["move"] => h.move_points = n()?,
                ["combat"] => h.combat = n()?,
                ["melee_to_hit"] => h.melee_to_hit = n()?,
                ["damage_bonus"] => h.damage_bonus = n()?,
                ["grit"] => h.grit = n()?,
                ["max_grit"] => h.max_grit = n()?,
                ["gun"] => {
                    h.gun = value.flag()?.then_some(h.gun.unwrap_or(Gun {
                        shots: 1,
                        range: 6,
                        to_hit: 4,
                        splash: false,
                    }));
                }
                ["gun", what] => {
                    let g = h.gun.as_mut().ok_or("the hero has no gun")?;
                    match what {
                        "shots" => g.shots = n()?,
                        "range" => g.range = n()?,
                        "to_hit" => g.to_hit = n()?,
                        "splash" => g.splash = value.flag()?,
                        _ => return Ok(false),
                    }
                }
                ["weapon"] => {
                    h.weapon = if value.flag()? {
                        Some(h.weapon.take().unwrap_or(HandWeapon {
                            name: "Hatchet".into(),
                            combat: 1,
                            free_attack: false,
                            splash: false,
                        }))
                    } else {
                        None
                    };
                }
                ["weapon", what] => {
                    let w = h.weapon.as_mut().ok_or("the hero has no hand weapon")?;
                    match what {
                        "name" => w.name = value.text()?,
                        "combat" => w.combat = n()?,
                        "free_attack" => w.free_attack = value.flag()?,
                        "splash" => w.splash = value.flag()?,
                        _ => return Ok(false),
                    }
                }
                _ => return Ok(false),
            }
        }
        ["threat", "add"] => {
            if *value == Value::Flag(true) {
                if f.threats.len() >= MAX_THREATS {
                    return Err(format!("a threat deck holds at most {MAX_THREATS} cards"));
                }
                f.threats.push(threat(f.threats.len() + 1));
            }
        }
        ["threat", i, ref rest @ ..] => return set_threat(f, i, rest, value, field),
        _ => return Ok(false),
    }
    Ok(true)
}

/// Sets a row of threat card `i` (counted from 1; `rest` is the id after `threat:i`).
fn set_threat(
    f: &mut ScenarioFile,
    i: &str,
    rest: &[&str],
    value: &Value,
    field: &str,
) -> Result<bool, String> {
    let no_field = || format!("no field `{field}`");
    let index = |k: &str, len: usize| {
        k.parse::<usize>()
            .ok()
            .and_then(|n| n.checked_sub(1))
            .filter(|&i| i < len)
            .ok_or_else(no_field)
    };
    let i = index(i, f.threats.len())?;
    let n = || value.unsigned();
    match rest {
        ["name"] => f.threats[i].name = value.text()?,
        ["card"] => {
            if value.text()? == "take out" {
                if f.threats.len() == 1 {
                    return Err("a fight needs a threat card".into());
                }
                f.threats.remove(i);
                let cards = u32::try_from(f.threats.len()).unwrap_or(1);
                f.threat_draws = f.threat_draws.min(cards);
            }
        }
        ["add-group"] => {
            if value.text()? != "—" {
                let groups = &f.threats[i].groups;
                if groups.len() >= MAX_GROUPS {
                    return Err(format!("a threat card brings at most {MAX_GROUPS} groups"));
                }
                // A name no group of the fight has yet.
                let taken = |name: &str| {
                    f.threats
                        .iter()
                        .flat_map(|t| &t.groups)
                        .any(|g| g.name == name)
                };
                let k = (1..).find(|k| !taken(&format!("Ganger {k}"))).unwrap_or(1);
                f.threats[i].groups.push(new_group(k));
            }
        }
        ["group", j, what] => {
            let j = index(j, f.threats[i].groups.len())?;
            let g = &mut f.threats[i].groups[j];
            match *what {
                "name" => g.name = value.text()?,
                "count" => g.count = n()?,
                "rolled" => {
                    g.initiative = if value.flag()? {
                        Initiative::Variable
                    } else {
                        Initiative::Fixed(3)
                    };
                }
                "initiative" => g.initiative = Initiative::Fixed(n()?),
                "style" => g.style = keyword(&STYLES, value)?,
                "behaviour" => g.behaviour = keyword(&BEHAVIOURS, value)?,
                "move" => g.move_points = n()?,
                "range" => g.range = n()?,
                "wounds" => g.wounds = n()?,
                "armour" => g.armour = n()?,
                "combat" => g.combat = n()?,
                "to_hit" => g.to_hit = n()?,
                "damage" => g.damage = n()?,
                "xp" => g.xp = n()?,
                "group" => {
                    if value.text()? == "take out" {
                        if f.threats[i].groups.len() == 1 {
                            return Err(
                                "a threat card brings a group: take the card out instead".into()
                            );
                        }
                        f.threats[i].groups.remove(j);
                    }
                }
                _ => return Ok(false),
            }
        }
        _ => return Ok(false),
    }
    Ok(true)
}
