//! The workshop's panel rows of a Brimstone fight: its start, loot, heroes and threat cards.
//!
//! How the fight starts, its loot deck, the selected hero's statistics and gear, and its threat
//! cards group by group with every number a group has. A number row steps within the loader's
//! bounds; a number typed past them is the loader's error (checked after every edit), in the words
//! a file would get.

use super::lab::{BEHAVIOURS, STYLES};
use super::placement::{Initiative, Style};
use super::scenario::{
    AmbushSpec, GroupSpec, Gun, HandWeapon, HeroSpec, LurkSpec, MAX_CARD_MODELS, MAX_INITIATIVE,
    MAX_REACH, ScenarioFile, ThreatCard,
};
use super::targeting::Behaviour;
use crate::rules::lab::{Field, Value};
use crate::rules::view::CellKey;

/// The most a panel's number takes (the loader bounds each again).
pub(super) const MAX_FIELD: i64 = 99;
/// The most threat cards, groups on a card and loot cards the rows add (the loader's bounds).
const MAX_THREATS: usize = super::scenario::MAX_THREATS;
const MAX_GROUPS: usize = super::scenario::MAX_GROUPS;
const MAX_LOOT: usize = super::scenario::MAX_LOOT_CARDS;
const ADD_LOOT: [&str; 2] = ["—", "a new card"];
const ADD_GROUP: [&str; 2] = ["—", "a new group"];
/// A number row's bounds, the loader's: a hero's and a group's.
const HERO_BOUNDS: [(&str, i64, i64); 9] = [
    ("health", 1, 100),
    ("defense", 2, 7),
    ("initiative", 0, MAX_INITIATIVE as i64),
    ("move", 0, MAX_REACH as i64),
    ("combat", 0, 6),
    ("melee_to_hit", 2, 6),
    ("damage_bonus", 0, 6),
    ("grit", 0, 9),
    ("max_grit", 0, 9),
];
const GROUP_BOUNDS: [(&str, i64, i64); 10] = [
    ("count", 1, MAX_CARD_MODELS as i64),
    ("initiative", 0, MAX_INITIATIVE as i64),
    ("move", 0, MAX_REACH as i64),
    ("range", 0, MAX_REACH as i64),
    ("wounds", 1, 100),
    ("armour", 0, 6),
    ("combat", 1, 6),
    ("to_hit", 2, 6),
    ("damage", 1, 10),
    ("xp", 0, 1_000),
];
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

/// A hero as a new fight seats one: a lamplighter with a pistol.
pub(super) fn new_hero(name: String, at: (i32, i32), initiative: u32) -> HeroSpec {
    HeroSpec {
        name,
        at,
        health: 7,
        defense: 4,
        initiative,
        move_points: 4,
        combat: 2,
        melee_to_hit: 4,
        gun: Some(Gun {
            shots: 2,
            range: 6,
            to_hit: 4,
            splash: false,
        }),
        weapon: None,
        damage_bonus: 0,
        grit: 0,
        max_grit: 2,
    }
}

/// A threat card as a new one starts: a pack of gangers (named by the card: a fight's groups
/// have names of their own).
pub(super) fn threat(n: usize) -> ThreatCard {
    ThreatCard {
        name: format!("Threat {n}"),
        groups: vec![new_group(n)],
    }
}

/// A group as a new threat card brings it: two gangers that fight in melee.
pub(super) fn new_group(n: usize) -> GroupSpec {
    GroupSpec {
        name: format!("Ganger {n}"),
        count: 2,
        initiative: Initiative::Fixed(3),
        style: Style::Plain,
        behaviour: Behaviour::Melee,
        move_points: 4,
        range: 0,
        wounds: 6,
        armour: 0,
        combat: 2,
        to_hit: 4,
        damage: 3,
        xp: 10,
    }
}

/// A group's range: a shooting behaviour shoots 6 squares when nothing says how far; never
/// past a fight's reach.
pub(super) const fn reach(b: Behaviour, range: u32) -> u32 {
    if b.shoots() && range == 0 {
        6
    } else if range > MAX_REACH {
        MAX_REACH
    } else {
        range
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

/// A number row of a field of `bounds` (the id's last part names it).
fn bounded(bounds: &[(&str, i64, i64)], id: &str, label: &str, v: u32) -> Field {
    let what = id.rsplit(':').next().unwrap_or_default();
    let (lo, hi) = bounds
        .iter()
        .find(|(w, _, _)| *w == what)
        .map_or((0, MAX_FIELD), |(_, lo, hi)| (*lo, *hi));
    Field::number(id, label, i64::from(v), (lo, hi))
}

/// The word a choice row was given, one of `words`.
fn one_of<'w>(value: &Value, words: &[&'w str]) -> Result<&'w str, String> {
    let w = value.text()?;
    words
        .iter()
        .find(|x| **x == w)
        .copied()
        .ok_or_else(|| format!("`{w}`: expected one of {}", words.join(", ")))
}

/// A group name no group, model or hero of the fight has, nor any model of it as the group
/// grows (`Ganger 2`, `Ganger 3`, …).
pub(super) fn free_group_name(f: &ScenarioFile) -> String {
    let mut taken: Vec<String> = f.heroes.iter().map(|h| h.name.clone()).collect();
    for g in f.threats.iter().flat_map(|t| &t.groups) {
        taken.push(g.name.clone());
        taken.extend((1..=g.count).map(|k| format!("{} {k}", g.name)));
    }
    let free = |name: &str| {
        !taken.iter().any(|t| t == name)
            && !(1..=MAX_CARD_MODELS).any(|k| taken.contains(&format!("{name} {k}")))
    };
    (1..)
        .map(|k| format!("Ganger {k}"))
        .find(|n| free(n))
        .unwrap_or_default()
}

/// The fight's own rows (after name, description and the numbers the workshop shows first), the
/// selected hero's, and the threat cards' (whose ids start with `threat`).
pub(super) fn fields(f: &ScenarioFile, selected: Option<CellKey>) -> Vec<Field> {
    let mut out = vec![Field::choice("start", "Starts as", start_word(f), &STARTS)];
    if let Some(l) = f.lurk {
        let d6 = |v: u32| (i64::from(v), (0, 6));
        let (v, b) = d6(l.start_of_round);
        out.push(Field::number("lurk:start", "…round ≤", v, b));
        let (v, b) = d6(l.after_move);
        out.push(Field::number("lurk:move", "…a move ≤", v, b));
        out.push(Field::number(
            "lurk:latest",
            "…latest",
            i64::from(l.latest_round),
            (1, i64::from(f.round_limit.max(1))),
        ));
    }
    for (i, card) in f.loot.iter().enumerate() {
        let n = i + 1;
        out.push(Field::text(
            &format!("loot:{n}"),
            &format!("Loot {n}"),
            card,
        ));
        out.push(Field::choice(
            &format!("loot:{n}:card"),
            "…this card",
            "keep",
            &KEEP,
        ));
    }
    if f.loot.len() < MAX_LOOT {
        out.push(Field::choice("loot:add", "Add loot", "—", &ADD_LOOT));
    }
    if let Some(h) = selected.and_then(|c| f.hero_at(c)).map(|i| &f.heroes[i]) {
        out.push(Field::text("hero:name", "Hero", &h.name));
        for (id, label, v) in [
            ("hero:health", "…health", h.health),
            ("hero:defense", "…defense", h.defense),
            ("hero:initiative", "…initiative", h.initiative),
            ("hero:move", "…move", h.move_points),
            ("hero:combat", "…combat", h.combat),
            ("hero:melee_to_hit", "…melee hit", h.melee_to_hit),
            ("hero:damage_bonus", "…damage +", h.damage_bonus),
            ("hero:grit", "…grit", h.grit),
            ("hero:max_grit", "…max grit", h.max_grit),
        ] {
            out.push(bounded(&HERO_BOUNDS, id, label, v));
        }
        out.push(Field::flag("hero:gun", "…gun", h.gun.is_some()));
        if let Some(g) = h.gun {
            let n = |v: u32| i64::from(v);
            out.push(Field::number(
                "hero:gun:shots",
                "……shots",
                n(g.shots),
                (1, 6),
            ));
            let reach = (1, i64::from(MAX_REACH));
            out.push(Field::number(
                "hero:gun:range",
                "……range",
                n(g.range),
                reach,
            ));
            out.push(Field::number(
                "hero:gun:to_hit",
                "……to hit",
                n(g.to_hit),
                (2, 6),
            ));
            out.push(Field::flag("hero:gun:splash", "……splash", g.splash));
        }
        out.push(Field::flag("hero:weapon", "…weapon", h.weapon.is_some()));
        if let Some(w) = &h.weapon {
            out.push(Field::text("hero:weapon:name", "……name", &w.name));
            let combat = i64::from(w.combat);
            out.push(Field::number(
                "hero:weapon:combat",
                "……combat",
                combat,
                (1, 6),
            ));
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
            let row = |what: &str, label: &str, v: u32| {
                bounded(&GROUP_BOUNDS, &format!("{id}:{what}"), label, v)
            };
            out.push(row("count", "……models", g.count));
            let rolled = g.initiative == Initiative::Variable;
            out.push(Field::flag(&format!("{id}:rolled"), "……rolled", rolled));
            if let Initiative::Fixed(v) = g.initiative {
                out.push(row("initiative", "……initiative", v));
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
            for (what, label, v) in [
                ("move", "……move", g.move_points),
                ("range", "……range", g.range),
                ("wounds", "……wounds", g.wounds),
                ("armour", "……armour", g.armour),
                ("combat", "……combat", g.combat),
                ("to_hit", "……to hit", g.to_hit),
                ("damage", "……damage", g.damage),
                ("xp", "……xp", g.xp),
            ] {
                out.push(row(what, label, v));
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
                &ADD_GROUP,
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
            let word = one_of(value, &STARTS)?;
            // A new lurking threat springs by round 3 at the latest (sooner in a shorter fight).
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
                None => return Ok(false),
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
            if one_of(value, &ADD_LOOT)? != "—" {
                if f.loot.len() >= MAX_LOOT {
                    return Err(format!("a loot deck holds at most {MAX_LOOT} cards"));
                }
                f.loot.push(format!("Loot {}", f.loot.len() + 1));
            }
        }
        ["loot", k, ref rest @ ..] => {
            let k = k
                .parse::<usize>()
                .ok()
                .and_then(|n| n.checked_sub(1))
                .ok_or_else(|| format!("no field `{field}`"))?;
            if k >= f.loot.len() {
                return Err(format!("the loot deck has no card {}", k + 1));
            }
            match rest {
                [] => f.loot[k] = value.text()?,
                ["card"] => {
                    if one_of(value, &KEEP)? == "take out" {
                        f.loot.remove(k);
                    }
                }
                _ => return Ok(false),
            }
        }
        ["hero", ..] => {
            let i = selected
                .and_then(|c| f.hero_at(c))
                .ok_or("select a hero first")?;
            let h = &mut f.heroes[i];
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
                let mut card = threat(f.threats.len() + 1);
                card.groups[0].name = free_group_name(f);
                f.threats.push(card);
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
            if one_of(value, &KEEP)? == "take out" {
                if f.threats.len() == 1 {
                    return Err("a fight needs a threat card".into());
                }
                f.threats.remove(i);
                let cards = u32::try_from(f.threats.len()).unwrap_or(1);
                f.threat_draws = f.threat_draws.min(cards);
            }
        }
        ["add-group"] => {
            if one_of(value, &ADD_GROUP)? != "—" {
                let groups = &f.threats[i].groups;
                if groups.len() >= MAX_GROUPS {
                    return Err(format!("a threat card brings at most {MAX_GROUPS} groups"));
                }
                let mut g = new_group(1);
                g.name = free_group_name(f);
                f.threats[i].groups.push(g);
            }
        }
        ["group", j, what] => {
            let j = index(j, f.threats[i].groups.len())?;
            let g = &mut f.threats[i].groups[j];
            match *what {
                "name" => g.name = value.text()?,
                "count" => g.count = n()?,
                "rolled" => {
                    // Printed again, a group takes a new group's initiative.
                    g.initiative = if value.flag()? {
                        Initiative::Variable
                    } else {
                        Initiative::Fixed(3)
                    };
                }
                "initiative" => g.initiative = Initiative::Fixed(n()?),
                "style" => g.style = keyword(&STYLES, value)?,
                "behaviour" => {
                    g.behaviour = keyword(&BEHAVIOURS, value)?;
                    // A group that now shoots needs a range to shoot at.
                    g.range = reach(g.behaviour, g.range);
                }
                "move" => g.move_points = n()?,
                "range" => g.range = n()?,
                "wounds" => g.wounds = n()?,
                "armour" => g.armour = n()?,
                "combat" => g.combat = n()?,
                "to_hit" => g.to_hit = n()?,
                "damage" => g.damage = n()?,
                "xp" => g.xp = n()?,
                "group" => {
                    if one_of(value, &KEEP)? == "take out" {
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
