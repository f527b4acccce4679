//! Goal-priority foe turns in the position lab: board, Dome keys, figures and the override card.

use super::case::{
    self, FileAdventure, FileAura, FileBoard, FileEffect, FileFoe, FileHero, FileItem, FileKey,
    FileLoot, FileMinion, FileOverride, FileWeapon, GoalTurn, MAX_COORD, MAX_FIGURES, MAX_LOOT,
    MAX_RATING, MAX_REACH,
};
use super::scenario::Tile;
use super::situation::{
    Aura, AuraEffect, Foe, GoalOption, Hero, ItemEffect, Mode, Outcome, Pick, Rating, Situation,
};
use super::state::{Phase, State};
use super::{FOE_BASE, Goals};
use crate::LoadError;
use crate::hex::path::{UNREACHED, path_costs};
use crate::hex::{DIRECTIONS, hex, qr};
use crate::rules::lab::{Answer, Brush, BrushKind, Choice, Field, Lab, Value};
use crate::rules::view::{
    CellInfo, FigureInfo, Gear, GridKind, Ground, Panel, Side, TableView, TokenInfo,
};
use std::collections::BTreeSet;

type Qr = (i32, i32);

/// How far around the board the lab offers hexes to paint.
const MARGIN: i32 = 2;
/// Most hexes the lab offers around a board (the board itself may be as large as a file's).
const MAX_OFFERED: usize = 4_000;

/// The goals the active foe may be deciding, as the files spell them.
const MODES: [(Mode, &str); 4] = [
    (Mode::Attack, "Attack"),
    (Mode::Special, "Special"),
    (Mode::MeleeStep, "MeleeStep"),
    (Mode::ReactionShot, "ReactionShot"),
];
const RATINGS: [Rating; 7] = [
    Rating::Speed,
    Rating::Melee,
    Rating::Aim,
    Rating::Agility,
    Rating::Stealth,
    Rating::Wits,
    Rating::Armor,
];
const PICKS: [(Pick, &str); 2] = [(Pick::Highest, "Highest"), (Pick::Lowest, "Lowest")];
/// A figure's first aura, as the side panel offers it.
const AURAS: [(Option<AuraEffect>, &str); 3] = [
    (None, "none"),
    (Some(AuraEffect::Help), "Help"),
    (Some(AuraEffect::Hinder), "Hinder"),
];

/// Who stands on a hex, by index in the file's lists.
#[derive(Debug, Clone, Copy)]
enum Who {
    Hero(usize),
    Foe(usize),
}

fn step((q, r): Qr, d: usize, n: i32) -> Qr {
    (q + DIRECTIONS[d].0 * n, r + DIRECTIONS[d].1 * n)
}

fn neighbours(a: Qr, b: Qr) -> bool {
    (0..6).any(|d| step(a, d, 1) == b)
}

/// The hexes within `radius` of `centre`.
fn spiral(centre: Qr, radius: i32) -> Vec<Qr> {
    let mut out = Vec::new();
    for dq in -radius..=radius {
        for dr in (-radius).max(-dq - radius)..=radius.min(-dq + radius) {
            out.push((centre.0 + dq, centre.1 + dr));
        }
    }
    out
}

/// The ten hexes of a Dome key stamped on `centre`, and its Domes: the centre, its six neighbours
/// and the three hexes two steps out in every other direction; the centre and those three are the
/// Domes, the ring between them the gap spaces.
pub(crate) fn key_shape(centre: Qr) -> (Vec<Qr>, Vec<Qr>) {
    let mut domes: Vec<Qr> = [0, 2, 4].iter().map(|&d| step(centre, d, 2)).collect();
    domes.push(centre);
    let mut hexes: Vec<Qr> = (0..6).map(|d| step(centre, d, 1)).collect();
    hexes.extend(&domes);
    hexes.sort_unstable();
    domes.sort_unstable();
    (hexes, domes)
}

fn qr_text((q, r): Qr) -> String {
    format!("({q}, {r})")
}

fn add_sorted(list: &mut Vec<Qr>, h: Qr) {
    if !list.contains(&h) {
        list.push(h);
        list.sort_unstable();
    }
}

fn terrain_list<'a>(b: &'a mut FileBoard, id: &str) -> Option<&'a mut Vec<Qr>> {
    Some(match id {
        "woods" => &mut b.woods,
        "rough" => &mut b.rough,
        "blocked" => &mut b.blocked,
        _ => return None,
    })
}

fn clear_terrain(b: &mut FileBoard, h: Qr) {
    for l in [&mut b.woods, &mut b.rough, &mut b.blocked] {
        l.retain(|x| *x != h);
    }
}

/// Makes `h` a space of the board; a wall stays a wall until the floor brush takes it away.
fn make_space(b: &mut FileBoard, h: Qr) -> Result<(), String> {
    if b.walls.contains(&h) {
        return Err(format!("{} is a wall: paint floor there first", qr_text(h)));
    }
    add_sorted(&mut b.hexes, h);
    Ok(())
}

/// Takes `h` off the board's spaces with what lies on it: its terrain, its loot, its adventure
/// space (an adventure left with none goes) and its Dome key (a key is ten hexes or none).
fn take_space(b: &mut FileBoard, h: Qr) {
    b.hexes.retain(|x| *x != h);
    clear_terrain(b, h);
    b.loot.retain(|l| l.hex != h);
    b.adventures.retain_mut(|a| {
        let before = a.spaces.len();
        a.spaces.retain(|x| *x != h);
        a.spaces.len() == before || !a.spaces.is_empty()
    });
    b.dome_keys.retain(|k| !k.hexes.contains(&h));
}

fn active_index(p: &GoalTurn) -> Option<usize> {
    p.foes.iter().position(|f| f.name == p.active)
}

fn active_on(p: &GoalTurn, h: Qr) -> bool {
    p.foes.iter().any(|f| f.hex == h && f.name == p.active)
}

/// The figure on `h`: a hero, else the active foe, else the first foe there (two foes share a hex
/// only as a stack).
fn figure_at(p: &GoalTurn, h: Qr) -> Option<Who> {
    if let Some(i) = p.heroes.iter().position(|x| x.hex == h) {
        return Some(Who::Hero(i));
    }
    let there: Vec<usize> = (0..p.foes.len()).filter(|&i| p.foes[i].hex == h).collect();
    there
        .iter()
        .copied()
        .find(|&i| p.foes[i].name == p.active)
        .or_else(|| there.first().copied())
        .map(Who::Foe)
}

/// Takes the heroes and the foes other than the active one off `h`; whether any was there. The
/// active foe alone on `h` is refused: a case always has one.
fn take_figures(p: &mut GoalTurn, h: Qr) -> Result<bool, String> {
    let before = p.heroes.len() + p.foes.len();
    p.heroes.retain(|x| x.hex != h);
    let active = p.active.clone();
    p.foes.retain(|f| f.hex != h || f.name == active);
    let took = before != p.heroes.len() + p.foes.len();
    if !took && active_on(p, h) {
        return Err("the active foe stays on the board: drag it elsewhere instead".into());
    }
    Ok(took)
}

/// `stem 1`, `stem 2`, …: the first not yet among `taken`.
fn free_name<'a>(stem: &str, taken: impl Iterator<Item = &'a str> + Clone) -> String {
    // More candidates than names can be taken: one of them is free.
    (1..=MAX_FIGURES * 4 + 1)
        .map(|n| format!("{stem} {n}"))
        .find(|n| taken.clone().all(|t| t != n.as_str()))
        .unwrap_or_else(|| stem.to_string())
}

fn figure_names(p: &GoalTurn) -> impl Iterator<Item = &str> + Clone {
    p.heroes
        .iter()
        .map(|h| h.name.as_str())
        .chain(p.foes.iter().map(|f| f.name.as_str()))
}

/// A hero of the ratings most of the shipped cases give their heroes.
fn new_hero(name: String, hex: Qr) -> FileHero {
    FileHero {
        name,
        hex,
        speed: 5,
        melee: 3,
        aim: 3,
        agility: 4,
        stealth: 4,
        wits: 3,
        armor: 2,
        minion: false,
        loot: 0,
        can_trade: false,
        trapped: false,
        auras: Vec::new(),
    }
}

/// A foe of the ratings most of the shipped cases give their foes.
fn new_foe(name: String, hex: Qr) -> FileFoe {
    FileFoe {
        name,
        hex,
        speed: 5,
        melee: 4,
        aim: 0,
        weapons: Vec::new(),
        auras: Vec::new(),
        specials: Vec::new(),
        minion_card: None,
        slip_away: true,
        acted: false,
        entered_from: None,
        hurt: false,
    }
}

/// Puts a hero or a foe on `cell`, in place of a figure of the other side standing there.
fn place(p: &mut GoalTurn, cell: Qr, hero: bool) -> Result<(), String> {
    if p.board.walls.contains(&cell) {
        return Err(format!(
            "{} is a wall: a figure stands on a space",
            qr_text(cell)
        ));
    }
    if let Some(who) = figure_at(p, cell) {
        if matches!(who, Who::Hero(_)) == hero {
            return Ok(());
        }
        if active_on(p, cell) {
            return Err("the active foe stands there: drag it elsewhere first".into());
        }
        take_figures(p, cell)?;
    }
    if hero {
        let name = free_name("Hero", figure_names(p));
        p.heroes.push(new_hero(name, cell));
    } else {
        let name = free_name("Foe", figure_names(p));
        p.foes.push(new_foe(name, cell));
    }
    Ok(())
}

/// Stamps a Dome key on `centre`, or takes off the key `centre` belongs to.
fn stamp_key(b: &mut FileBoard, centre: Qr) -> Result<(), String> {
    if let Some(i) = b.dome_keys.iter().position(|k| k.hexes.contains(&centre)) {
        // The same brush again takes the key off; its hexes stay as plain spaces.
        b.dome_keys.remove(i);
        return Ok(());
    }
    let (hexes, domes) = key_shape(centre);
    if let Some(w) = hexes.iter().find(|h| b.walls.contains(h)) {
        return Err(format!(
            "a Dome key needs ten spaces here: {} is a wall",
            qr_text(*w)
        ));
    }
    if let Some(k) = b
        .dome_keys
        .iter()
        .find(|k| k.hexes.iter().any(|h| hexes.contains(h)))
    {
        return Err(format!(
            "a Dome key here would overlap key `{}`: keys do not overlap",
            k.name
        ));
    }
    for &h in &hexes {
        add_sorted(&mut b.hexes, h);
    }
    // A Dome carries no terrain: the stamp clears it, as a ground brush would.
    for &h in &domes {
        clear_terrain(b, h);
    }
    let name = free_name("Key", b.dome_keys.iter().map(|k| k.name.as_str()));
    b.dome_keys.push(FileKey { name, hexes, domes });
    Ok(())
}

/// Puts an adventure space on `cell` (joining an adventure next to it) or takes it off.
fn toggle_adventure(b: &mut FileBoard, cell: Qr) -> Result<(), String> {
    make_space(b, cell)?;
    if b.adventures.iter().any(|a| a.spaces.contains(&cell)) {
        b.adventures.retain_mut(|a| {
            a.spaces.retain(|x| *x != cell);
            !a.spaces.is_empty()
        });
    } else if let Some(a) = b
        .adventures
        .iter_mut()
        .find(|a| a.spaces.iter().any(|s| neighbours(*s, cell)))
    {
        add_sorted(&mut a.spaces, cell);
    } else {
        let name = free_name("Adventure", b.adventures.iter().map(|a| a.name.as_str()));
        b.adventures.push(FileAdventure {
            name,
            spaces: vec![cell],
            captured: false,
            foes_use: true,
        });
    }
    Ok(())
}

/// Puts a pile of one gold on `cell` or takes the pile there off.
fn toggle_loot(b: &mut FileBoard, cell: Qr) -> Result<(), String> {
    make_space(b, cell)?;
    if b.loot.iter().any(|l| l.hex == cell) {
        b.loot.retain(|l| l.hex != cell);
    } else {
        b.loot.push(FileLoot {
            hex: cell,
            gold: 1,
            cards: 0,
        });
        b.loot.sort_by_key(|l| l.hex);
    }
    Ok(())
}

fn mode_words(m: Mode) -> &'static str {
    match m {
        Mode::Attack => "Attack goal",
        Mode::Special => "Special goal",
        Mode::MeleeStep => "Melee step",
        Mode::ReactionShot => "Reaction shot",
    }
}

fn aura_line(a: &FileAura) -> String {
    match a.effect {
        AuraEffect::Help => format!("Aura: helps allies within {}", a.radius),
        AuraEffect::Hinder => format!("Aura: hinders enemies within {}", a.radius),
    }
}

/// A hero's ratings as the goal-priority table prints them.
fn hero_card(h: &FileHero) -> Vec<String> {
    let mut card = vec![
        format!("Speed {}", h.speed),
        format!("Melee {:+}, Aim {:+}", h.melee, h.aim),
        format!("Agility {:+}, Stealth {:+}", h.agility, h.stealth),
        format!("Wits {:+}, Armor {}", h.wits, h.armor),
    ];
    card.extend(h.auras.iter().map(aura_line));
    if h.can_trade {
        card.push("Can trade".to_string());
    }
    card
}

/// A foe's card as the goal-priority table prints it; the active foe's names its goal.
fn foe_card(f: &FileFoe, goal: Option<Mode>) -> Vec<String> {
    let mut card = vec![
        match goal {
            Some(m) => format!("{}, speed {}", mode_words(m), f.speed),
            None => format!("Speed {}", f.speed),
        },
        format!("Melee {:+}, Aim {:+}", f.melee, f.aim),
    ];
    for w in &f.weapons {
        card.push(format!(
            "{}: range {}–{}, hit {:+}",
            w.name, w.range.0, w.range.1, w.hit
        ));
    }
    card.extend(f.auras.iter().map(aura_line));
    for sp in &f.specials {
        card.push(format!("Special: {}", sp.name));
    }
    if let Some(m) = &f.minion_card {
        card.push(format!("Unleashes {}", m.name));
    }
    if f.slip_away {
        card.push("Can slip away".to_string());
    }
    card
}

/// The hexes a foe enters going from `from` to `end` on a cheapest path that passes no hex of
/// `heroes`, the end last; the first in `(q, r)` order where paths tie.
fn cheapest(s: &Situation, from: Qr, end: Qr, heroes: &BTreeSet<Qr>) -> Vec<Qr> {
    let b = &s.board;
    let (Some(start), Some(goal)) = (b.index(hex(from.0, from.1)), b.index(hex(end.0, end.1)))
    else {
        return vec![end];
    };
    let cost = path_costs(b.map(), &[start], u32::MAX, |_, to| {
        if heroes.contains(&qr(b.hex(to))) {
            return None;
        }
        b.enter_cost(to)
    });
    if cost[goal] == UNREACHED {
        return vec![end];
    }
    let mut path = vec![end];
    let mut at = goal;
    // Costs fall strictly along a cheapest path, so walking back ends at the start.
    while at != start {
        let Some(entry) = b.enter_cost(at) else {
            return vec![end];
        };
        let back = b
            .neighbours(at)
            .filter(|&n| cost[n] != UNREACHED && cost[n].saturating_add(entry) == cost[at])
            .min_by_key(|&n| qr(b.hex(n)));
        let Some(n) = back else {
            return vec![end];
        };
        if n != start {
            path.push(qr(b.hex(n)));
        }
        at = n;
    }
    path.reverse();
    path
}

/// The hexes the active foe enters to carry out `o`: a Slip Away first switches places with its
/// hero, then shifts; a foe that stays, or unleashes its minion, enters none.
fn walk(s: &Situation, o: &Outcome) -> Vec<Qr> {
    let me = &s.foes[s.active];
    if o.option == GoalOption::Unleash || o.end == me.hex {
        return Vec::new();
    }
    let mut heroes: BTreeSet<Qr> = s.heroes.iter().map(|h| qr(h.hex)).collect();
    let swapped = o
        .swap
        .as_deref()
        .and_then(|n| s.heroes.iter().find(|h| h.name == n));
    let Some(h) = swapped else {
        return cheapest(s, qr(me.hex), qr(o.end), &heroes);
    };
    // The shift is walked with the hero already on the foe's old hex.
    heroes.remove(&qr(h.hex));
    heroes.insert(qr(me.hex));
    let mut path = vec![qr(h.hex)];
    if o.end != h.hex {
        path.extend(cheapest(s, qr(h.hex), qr(o.end), &heroes));
    }
    path
}

fn reach(id: &str, label: &str, v: u32) -> Field {
    Field::number(id, label, v.into(), (0, MAX_REACH.into()))
}

fn rating(id: &str, label: &str, v: i32) -> Field {
    Field::number(
        id,
        label,
        v.into(),
        (-i64::from(MAX_RATING), MAX_RATING.into()),
    )
}

fn count(id: &str, label: &str, v: u32) -> Field {
    Field::number(id, label, v.into(), (0, MAX_LOOT.into()))
}

fn aura_fields(auras: &[FileAura], out: &mut Vec<Field>) {
    let first = auras.first();
    let word = AURAS
        .iter()
        .find(|(e, _)| *e == first.map(|a| a.effect))
        .map_or("none", |(_, w)| w);
    let words = AURAS.map(|(_, w)| w);
    out.push(Field::choice("aura", "Aura", word, &words));
    if let Some(a) = first {
        out.push(reach("aura_radius", "Aura radius", a.radius));
    }
}

fn hero_fields(h: &FileHero, out: &mut Vec<Field>) {
    out.extend([
        Field::text("name", "Hero's name", &h.name),
        reach("speed", "Speed", h.speed),
        rating("melee", "Melee", h.melee),
        rating("aim", "Aim", h.aim),
        rating("agility", "Agility", h.agility),
        rating("stealth", "Stealth", h.stealth),
        rating("wits", "Wits", h.wits),
        rating("armor", "Armor", h.armor),
        count("loot", "Loot items carried", h.loot),
        Field::flag("can_trade", "Can trade", h.can_trade),
        Field::flag("trapped", "Trapped this round", h.trapped),
        Field::flag("minion", "A hero's minion", h.minion),
    ]);
    aura_fields(&h.auras, out);
}

fn foe_fields(f: &FileFoe, out: &mut Vec<Field>) {
    out.extend([
        Field::text("name", "Foe's name", &f.name),
        reach("speed", "Speed", f.speed),
        rating("melee", "Melee", f.melee),
        rating("aim", "Aim", f.aim),
        Field::flag("slip_away", "Can slip away", f.slip_away),
        Field::flag("acted", "Has acted this round", f.acted),
        Field::flag("hurt", "Has lost wounds", f.hurt),
        Field::flag("weapon", "Ranged weapon", !f.weapons.is_empty()),
    ]);
    // The panel edits the first weapon; a file may give more, kept until the switch takes all off.
    if let Some(w) = f.weapons.first() {
        out.extend([
            reach("range_min", "Weapon's nearest range", w.range.0),
            reach("range_max", "Weapon's farthest range", w.range.1),
            rating("hit", "Weapon's hit", w.hit),
        ]);
    }
    aura_fields(&f.auras, out);
    out.push(Field::flag(
        "minion_card",
        "Can unleash a minion",
        f.minion_card.is_some(),
    ));
    if let Some(m) = &f.minion_card {
        out.extend([
            reach("minion_speed", "Minion's speed", m.speed),
            rating("minion_melee", "Minion's melee", m.melee),
            rating("minion_aim", "Minion's aim", m.aim),
        ]);
    }
}

/// A value given for a field, read within the field's bounds and choices.
struct Input<'a> {
    field: &'a Field,
    value: &'a Value,
}

impl Input<'_> {
    fn number(&self) -> Result<i64, String> {
        let (lo, hi) = self.field.bounds;
        match self.value {
            Value::Number(n) if (lo..=hi).contains(n) => Ok(*n),
            Value::Number(n) => Err(format!("{n}: expected a number from {lo} to {hi}")),
            _ => Err("expected a number".into()),
        }
    }

    fn unsigned(&self) -> Result<u32, String> {
        u32::try_from(self.number()?).map_err(|_| "expected a whole number".to_string())
    }

    fn signed(&self) -> Result<i32, String> {
        i32::try_from(self.number()?).map_err(|_| "expected a whole number".to_string())
    }

    fn flag(&self) -> Result<bool, String> {
        match self.value {
            Value::Flag(b) => Ok(*b),
            _ => Err("expected yes or no".into()),
        }
    }

    fn word(&self) -> Result<&str, String> {
        match self.value {
            Value::Choice(w) if self.field.choices.contains(w) => Ok(w),
            _ => Err(format!("expected one of {}", self.field.choices.join(", "))),
        }
    }

    fn text(&self) -> Result<String, String> {
        match self.value {
            Value::Text(t) => Ok(t.clone()),
            _ => Err("expected text".into()),
        }
    }
}

fn set_aura(auras: &mut Vec<FileAura>, field: &str, v: &Input) -> Result<(), String> {
    if field == "aura_radius" {
        if let Some(a) = auras.first_mut() {
            a.radius = v.unsigned()?;
        }
        return Ok(());
    }
    let word = v.word()?;
    match AURAS.iter().find(|(_, w)| *w == word).and_then(|(e, _)| *e) {
        None if !auras.is_empty() => {
            auras.remove(0);
        }
        None => {}
        Some(effect) => match auras.first_mut() {
            Some(a) => a.effect = effect,
            None => auras.push(FileAura { radius: 1, effect }),
        },
    }
    Ok(())
}

fn set_hero(h: &mut FileHero, field: &str, v: &Input) -> Result<(), String> {
    match field {
        "name" => h.name = v.text()?,
        "speed" => h.speed = v.unsigned()?,
        "melee" => h.melee = v.signed()?,
        "aim" => h.aim = v.signed()?,
        "agility" => h.agility = v.signed()?,
        "stealth" => h.stealth = v.signed()?,
        "wits" => h.wits = v.signed()?,
        "armor" => h.armor = v.signed()?,
        "loot" => h.loot = v.unsigned()?,
        "can_trade" => h.can_trade = v.flag()?,
        "trapped" => h.trapped = v.flag()?,
        "minion" => h.minion = v.flag()?,
        "aura" | "aura_radius" => set_aura(&mut h.auras, field, v)?,
        _ => return Err(format!("no field `{field}` here")),
    }
    Ok(())
}

fn set_foe(f: &mut FileFoe, field: &str, v: &Input) -> Result<(), String> {
    match field {
        "name" => f.name = v.text()?,
        "speed" => f.speed = v.unsigned()?,
        "melee" => f.melee = v.signed()?,
        "aim" => f.aim = v.signed()?,
        "slip_away" => f.slip_away = v.flag()?,
        "acted" => f.acted = v.flag()?,
        "hurt" => f.hurt = v.flag()?,
        "weapon" => {
            if !v.flag()? {
                f.weapons.clear();
            } else if f.weapons.is_empty() {
                f.weapons.push(FileWeapon {
                    name: "Bow".into(),
                    range: (1, 4),
                    hit: 0,
                });
            }
        }
        "range_min" | "range_max" | "hit" => {
            let Some(w) = f.weapons.first_mut() else {
                return Err("the foe has no ranged weapon".into());
            };
            match field {
                "range_min" => w.range.0 = v.unsigned()?,
                "range_max" => w.range.1 = v.unsigned()?,
                _ => w.hit = v.signed()?,
            }
        }
        "aura" | "aura_radius" => set_aura(&mut f.auras, field, v)?,
        "minion_card" => {
            if !v.flag()? {
                f.minion_card = None;
            } else if f.minion_card.is_none() {
                f.minion_card = Some(FileMinion {
                    name: "Minion".into(),
                    speed: 3,
                    melee: 3,
                    aim: 0,
                });
            }
        }
        "minion_speed" | "minion_melee" | "minion_aim" => {
            let Some(m) = &mut f.minion_card else {
                return Err("the foe has no minion to unleash".into());
            };
            match field {
                "minion_speed" => m.speed = v.unsigned()?,
                "minion_melee" => m.melee = v.signed()?,
                _ => m.aim = v.signed()?,
            }
        }
        _ => return Err(format!("no field `{field}` here")),
    }
    Ok(())
}

/// The foe whose decision a game's moment opens: the foe a tie waits on, else the first foe whose
/// reaction to a hero's action is still to come, else the next foe of the round to act (in the
/// heroes' turns too: the first foe that acts once they are done).
fn moment_foe(s: &State) -> Result<usize, String> {
    if let Phase::Over { .. } = s.phase {
        return Err("the game is over: no foe decides any more".into());
    }
    if let Some((f, _)) = s.tie {
        return Ok(f);
    }
    if let Some(r) = s.reactions.iter().find(|r| s.foe_in(r.foe())) {
        return Ok(r.foe());
    }
    match s.phase {
        Phase::Draw => Err(
            "the round's override card is not drawn yet: the foes' decisions depend on it".into(),
        ),
        Phase::Capture => {
            Err("every foe has acted this round: the foes capture, then a new round begins".into())
        }
        Phase::Hero { .. } | Phase::Foes => s
            .next_foe()
            .ok_or_else(|| "every foe has acted this round: none decides before it ends".into()),
        Phase::Over { .. } => Err("the game is over: no foe decides any more".into()),
    }
}

fn file_auras(auras: &[Aura]) -> Vec<FileAura> {
    auras
        .iter()
        .map(|a| FileAura {
            radius: a.radius,
            effect: a.effect,
        })
        .collect()
}

fn file_hero(h: &Hero) -> FileHero {
    FileHero {
        name: h.name.clone(),
        hex: qr(h.hex),
        speed: h.speed,
        melee: h.melee,
        aim: h.aim,
        agility: h.agility,
        stealth: h.stealth,
        wits: h.wits,
        armor: h.armor,
        minion: h.minion,
        loot: h.loot,
        can_trade: h.can_trade,
        trapped: h.trapped,
        auras: file_auras(&h.auras),
    }
}

fn file_foe(f: &Foe) -> FileFoe {
    FileFoe {
        name: f.name.clone(),
        hex: qr(f.hex),
        speed: f.speed,
        melee: f.melee,
        aim: f.aim,
        weapons: f
            .weapons
            .iter()
            .map(|w| FileWeapon {
                name: w.name.clone(),
                range: (w.min, w.max),
                hit: w.hit,
            })
            .collect(),
        auras: file_auras(&f.auras),
        specials: f
            .items
            .iter()
            .map(|i| FileItem {
                name: i.name.clone(),
                kind: i.kind,
                effect: match i.effect {
                    ItemEffect::Lurk { min, max, strike } => FileEffect::Lurk {
                        range: (min, max),
                        strike,
                    },
                    ItemEffect::Burst { radius, affects } => FileEffect::Burst { radius, affects },
                    ItemEffect::Guard => FileEffect::Guard,
                },
                action: i.action,
            })
            .collect(),
        minion_card: f.minion_card.as_ref().map(|m| FileMinion {
            name: m.name.clone(),
            speed: m.speed,
            melee: m.melee,
            aim: m.aim,
        }),
        slip_away: f.slip_away,
        acted: f.acted,
        entered_from: f.entered_from.map(qr),
        hurt: f.hurt,
    }
}

/// The `GoalTurn` of foe `f` in a game's state.
///
/// It holds the map as the scenario lays it out with the adventures closed so far and the loot
/// lying about, and the figures, mode and override card exactly as the game's own decision reads
/// them ([`State::situation`]).
///
/// A Lurk special's strike bonus is left out: the case format has no field for it, and it only
/// matters to the dice of the surprise shot, not to the decision.
pub fn case_of(s: &State, f: usize) -> Result<GoalTurn, String> {
    let (situation, _) = s.situation(f)?;
    let layout = &s.scenario.layout;
    let file = s.file();
    let of = |want: Tile| -> Vec<Qr> {
        let mut v: Vec<Qr> = layout
            .tiles
            .iter()
            .filter(|(_, t)| *t == want)
            .map(|(h, _)| qr(*h))
            .collect();
        v.sort_unstable();
        v
    };
    let mut hexes: Vec<Qr> = layout
        .tiles
        .iter()
        .filter(|(_, t)| *t != Tile::Wall)
        .map(|(h, _)| qr(*h))
        .collect();
    hexes.sort_unstable();
    let adventures = layout
        .adventures
        .iter()
        .zip(&file.adventures)
        .zip(s.closed())
        .map(|((spaces, spec), captured)| FileAdventure {
            name: spec.name.clone(),
            spaces: spaces.iter().map(|h| qr(*h)).collect(),
            captured,
            foes_use: spec.foes_use,
        })
        .collect();
    let card = situation.override_card;
    Ok(GoalTurn {
        id: format!("{} round {}", file.name, s.round),
        board: FileBoard {
            hexes,
            walls: of(Tile::Wall),
            woods: of(Tile::Woods),
            rough: of(Tile::Rough),
            blocked: of(Tile::Prohibited),
            dome_keys: layout
                .keys
                .iter()
                .map(|k| FileKey {
                    name: k.name.clone(),
                    hexes: k.hexes.iter().map(|h| qr(*h)).collect(),
                    domes: k.domes.iter().map(|h| qr(*h)).collect(),
                })
                .collect(),
            adventures,
            loot: s
                .loot
                .iter()
                .map(|p| FileLoot {
                    hex: p.hex,
                    gold: p.gold,
                    cards: p.cards,
                })
                .collect(),
        },
        heroes: situation.heroes.iter().map(file_hero).collect(),
        foes: situation.foes.iter().map(file_foe).collect(),
        active: situation.foes[situation.active].name.clone(),
        mode: situation.mode,
        override_card: FileOverride {
            rating: card.rating,
            pick: card.pick,
        },
        expect: None,
    })
}

/// A board of these hexes, all plain floor (sorted, each once).
fn plain_board(mut hexes: Vec<Qr>) -> FileBoard {
    hexes.sort_unstable();
    hexes.dedup();
    FileBoard {
        hexes,
        walls: Vec::new(),
        woods: Vec::new(),
        rough: Vec::new(),
        blocked: Vec::new(),
        dome_keys: Vec::new(),
        adventures: Vec::new(),
        loot: Vec::new(),
    }
}

impl Lab for Goals {
    type Position = GoalTurn;
    const MODULE: &'static str = "goals";

    fn blank() -> GoalTurn {
        // A round room, the foe four hexes from a hero in a straight line: one space next to the
        // hero is nearest, so the answer is one clear Attack option 2.
        let mut hexes = spiral((0, 0), 3);
        hexes.sort_unstable();
        GoalTurn {
            id: "lab".into(),
            board: plain_board(hexes),
            heroes: vec![new_hero("Hero 1".into(), (2, 0))],
            foes: vec![new_foe("Foe 1".into(), (-2, 0))],
            active: "Foe 1".into(),
            mode: Mode::Attack,
            override_card: FileOverride {
                rating: Rating::Stealth,
                pick: Pick::Highest,
            },
            expect: None,
        }
    }

    fn cleared(p: &GoalTurn) -> GoalTurn {
        GoalTurn {
            // Every cell of the board stays, as plain floor.
            board: {
                let b = &p.board;
                let features = b
                    .dome_keys
                    .iter()
                    .flat_map(|k| k.hexes.iter().chain(&k.domes));
                let spaces = b.adventures.iter().flat_map(|a| &a.spaces);
                plain_board(
                    b.hexes
                        .iter()
                        .chain(&b.walls)
                        .chain(&b.woods)
                        .chain(&b.rough)
                        .chain(&b.blocked)
                        .chain(features)
                        .chain(spaces)
                        .chain(b.loot.iter().map(|l| &l.hex))
                        .copied()
                        .collect(),
                )
            },
            heroes: Vec::new(),
            foes: p
                .foes
                .iter()
                .filter(|f| f.name == p.active)
                .cloned()
                .collect(),
            expect: None,
            ..p.clone()
        }
    }

    fn read(file: &str, text: &str) -> Result<GoalTurn, LoadError> {
        case::load(file, text).map(|(turn, _, _)| turn)
    }

    fn write(p: &GoalTurn) -> String {
        crate::rules::lab::write_case("GoalTurn", p)
    }

    fn position_view(p: &GoalTurn) -> TableView {
        let b = &p.board;
        let set = |l: &[Qr]| l.iter().copied().collect::<BTreeSet<Qr>>();
        let (woods, rough, blocked) = (set(&b.woods), set(&b.rough), set(&b.blocked));
        let domes: BTreeSet<Qr> = b.dome_keys.iter().flat_map(|k| k.domes.clone()).collect();
        let keyed: BTreeSet<Qr> = b.dome_keys.iter().flat_map(|k| k.hexes.clone()).collect();
        let adventure: BTreeSet<Qr> = b.adventures.iter().flat_map(|a| a.spaces.clone()).collect();
        // One ground a hex: a Dome (it carries no terrain), else the terrain a walk pays for, else
        // what the hex belongs to, so that every brush shows where it was put.
        let ground = |h: &Qr| {
            if domes.contains(h) {
                Ground::Dome
            } else if blocked.contains(h) {
                Ground::Obstacle
            } else if woods.contains(h) {
                Ground::Woods
            } else if rough.contains(h) {
                Ground::Difficult
            } else if adventure.contains(h) {
                Ground::Adventure
            } else if keyed.contains(h) {
                Ground::DomeGap
            } else {
                Ground::Floor
            }
        };
        let mut cells: Vec<CellInfo> = b
            .hexes
            .iter()
            .map(|h| CellInfo {
                key: *h,
                ground: ground(h),
                door: false,
                place: None,
            })
            .chain(b.walls.iter().map(|&h| CellInfo {
                key: h,
                ground: Ground::Wall,
                door: false,
                place: None,
            }))
            .collect();
        let board: BTreeSet<Qr> = cells.iter().map(|c| c.key).collect();
        let mut outside = BTreeSet::new();
        'offer: for &c in &board {
            for h in spiral(c, MARGIN) {
                if outside.len() >= MAX_OFFERED {
                    break 'offer;
                }
                if h.0.abs() <= MAX_COORD && h.1.abs() <= MAX_COORD && !board.contains(&h) {
                    outside.insert(h);
                }
            }
        }
        cells.extend(outside.into_iter().map(|h| CellInfo {
            key: h,
            ground: Ground::Outside,
            door: false,
            place: None,
        }));
        let mut figures = Vec::new();
        for (i, h) in p.heroes.iter().enumerate() {
            let mut conditions = Vec::new();
            if h.trapped {
                conditions.push("trapped".to_string());
            }
            if domes.contains(&h.hex) {
                conditions.push("in a Dome".to_string());
            }
            if h.loot > 0 {
                conditions.push(format!("carries {} loot", h.loot));
            }
            if h.minion {
                conditions.push("a minion".to_string());
            }
            figures.push(FigureInfo {
                id: i as u32,
                name: h.name.clone(),
                side: Side::Hero,
                elite: false,
                hp: 1,
                max_hp: 0,
                conditions,
                cell: h.hex,
                owner: None,
                tint: i,
                gear: Gear::Bare,
                rooted: false,
                card: hero_card(h),
            });
        }
        for (i, f) in p.foes.iter().enumerate() {
            let mut conditions = Vec::new();
            if f.acted {
                conditions.push("acted".to_string());
            }
            if f.hurt {
                conditions.push("hurt".to_string());
            }
            if let Some(from) = f.entered_from {
                conditions.push(format!("came in from {}", qr_text(from)));
            }
            let active = f.name == p.active;
            figures.push(FigureInfo {
                id: FOE_BASE + i as u32,
                name: f.name.clone(),
                side: Side::Foe,
                elite: false,
                hp: 1,
                max_hp: 0,
                conditions,
                cell: f.hex,
                owner: None,
                tint: i,
                gear: match (f.weapons.is_empty(), f.melee > 0) {
                    (false, true) => Gear::BladeAndBow,
                    (false, false) => Gear::Bow,
                    (true, _) => Gear::Blade,
                },
                rooted: false,
                card: foe_card(f, active.then_some(p.mode)),
            });
        }
        let mut tokens: Vec<TokenInfo> = b
            .loot
            .iter()
            .map(|l| TokenInfo {
                cell: l.hex,
                label: format!("{}g {}c", l.gold, l.cards),
            })
            .collect();
        for a in &b.adventures {
            let label = match (a.captured, a.foes_use) {
                (true, _) => "captured",
                (false, false) => "foes skip it",
                (false, true) => continue,
            };
            tokens.extend(a.spaces.iter().map(|&h| TokenInfo {
                cell: h,
                label: label.into(),
            }));
        }
        let card = &p.override_card;
        let pick = match card.pick {
            Pick::Highest => "highest",
            Pick::Lowest => "lowest",
        };
        TableView {
            grid: GridKind::Hex,
            cells,
            thin_walls: Vec::new(),
            figures,
            tokens,
            active: active_index(p).map(|i| FOE_BASE + i as u32),
            banner: format!("Position lab · goal-priority · {}", mode_words(p.mode)),
            round: 0,
            panels: vec![Panel {
                title: "Override card".into(),
                lines: vec![format!(
                    "Choose Target picks the {pick} {}",
                    card.rating.name()
                )],
            }],
            odds: None,
            tie: None,
        }
    }

    fn brushes() -> Vec<Brush> {
        let brush = |id, label, kind| Brush { id, label, kind };
        vec![
            brush("floor", "Floor", BrushKind::Ground),
            brush("wall", "Wall", BrushKind::Ground),
            brush("woods", "Woods", BrushKind::Ground),
            brush("rough", "Rough ground", BrushKind::Ground),
            brush("blocked", "Prohibited terrain", BrushKind::Ground),
            brush("dome-key", "Dome key (ten hexes)", BrushKind::Stamp),
            brush("adventure", "Adventure space", BrushKind::Mark),
            brush("loot", "Loot", BrushKind::Mark),
            brush("hero", "Hero", BrushKind::Figure),
            brush("foe", "Foe", BrushKind::Figure),
            brush("active", "Make active", BrushKind::Figure),
            brush("remove", "Remove figure", BrushKind::Figure),
            brush("erase", "Erase", BrushKind::Erase),
        ]
    }

    fn paint(p: &mut GoalTurn, brush: &str, cell: Qr, _other: Option<Qr>) -> Result<(), String> {
        match brush {
            "floor" => {
                let b = &mut p.board;
                b.walls.retain(|x| *x != cell);
                add_sorted(&mut b.hexes, cell);
                clear_terrain(b, cell);
                // A Dome painted over becomes a gap space of its key.
                for k in &mut b.dome_keys {
                    k.domes.retain(|x| *x != cell);
                }
            }
            "wall" => {
                if figure_at(p, cell).is_some() {
                    return Err("a figure stands there: move it before walling the hex".into());
                }
                let b = &mut p.board;
                take_space(b, cell);
                add_sorted(&mut b.walls, cell);
            }
            "woods" | "rough" | "blocked" => {
                let b = &mut p.board;
                make_space(b, cell)?;
                let had = terrain_list(b, brush).is_some_and(|l| l.contains(&cell));
                clear_terrain(b, cell);
                // The same brush again takes the terrain off.
                if !had && let Some(l) = terrain_list(b, brush) {
                    add_sorted(l, cell);
                }
            }
            "dome-key" => stamp_key(&mut p.board, cell)?,
            "adventure" => toggle_adventure(&mut p.board, cell)?,
            "loot" => toggle_loot(&mut p.board, cell)?,
            "hero" => place(p, cell, true)?,
            "foe" => place(p, cell, false)?,
            "active" => match figure_at(p, cell) {
                Some(Who::Foe(i)) => p.active = p.foes[i].name.clone(),
                Some(Who::Hero(_)) => {
                    return Err("a hero stands there: the figure about to act is a foe".into());
                }
                None => return Err("no foe stands there".into()),
            },
            "remove" => {
                if !take_figures(p, cell)? {
                    return Err("no figure stands there".into());
                }
            }
            "erase" => {
                if active_on(p, cell) {
                    return Err("the active foe stands there: drag it elsewhere first".into());
                }
                take_figures(p, cell)?;
                take_space(&mut p.board, cell);
                p.board.walls.retain(|x| *x != cell);
            }
            _ => return Err(format!("no brush `{brush}` for goal-priority cases")),
        }
        Ok(())
    }

    fn drag(p: &mut GoalTurn, from: Qr, to: Qr) -> Result<(), String> {
        if from == to {
            return Ok(());
        }
        let Some(who) = figure_at(p, from) else {
            return Err("no figure stands there".into());
        };
        if figure_at(p, to).is_some() {
            return Err("another figure stands there".into());
        }
        if p.board.walls.contains(&to) {
            return Err(format!(
                "{} is a wall: a figure stands on a space",
                qr_text(to)
            ));
        }
        match who {
            Who::Hero(i) => p.heroes[i].hex = to,
            Who::Foe(i) => p.foes[i].hex = to,
        }
        Ok(())
    }

    fn fields(p: &GoalTurn, selected: Option<Qr>) -> Vec<Field> {
        let modes = MODES.map(|(_, w)| w);
        let mode = MODES
            .iter()
            .find(|(m, _)| *m == p.mode)
            .map_or("Attack", |(_, w)| w);
        let ratings = RATINGS.map(Rating::name);
        let picks = PICKS.map(|(_, w)| w);
        let pick = PICKS
            .iter()
            .find(|(k, _)| *k == p.override_card.pick)
            .map_or("Highest", |(_, w)| w);
        let mut out = vec![
            Field::text("id", "Case name", &p.id),
            Field::choice("mode", "The foe decides", mode, &modes),
            Field::choice(
                "rating",
                "Override rating",
                p.override_card.rating.name(),
                &ratings,
            ),
            Field::choice("pick", "Override keeps the", pick, &picks),
        ];
        let Some(h) = selected else {
            return out;
        };
        match figure_at(p, h) {
            Some(Who::Hero(i)) => hero_fields(&p.heroes[i], &mut out),
            Some(Who::Foe(i)) => foe_fields(&p.foes[i], &mut out),
            None => {}
        }
        if let Some(l) = p.board.loot.iter().find(|l| l.hex == h) {
            out.extend([
                count("gold", "Loot's gold", l.gold),
                count("cards", "Loot's cards", l.cards),
            ]);
        }
        if let Some(a) = p.board.adventures.iter().find(|a| a.spaces.contains(&h)) {
            out.extend([
                Field::text("adventure", "Adventure", &a.name),
                Field::flag("captured", "Captured by the foes", a.captured),
                Field::flag("foes_use", "The foes go for it", a.foes_use),
            ]);
        }
        out
    }

    fn set(
        p: &mut GoalTurn,
        selected: Option<Qr>,
        field: &str,
        value: Value,
    ) -> Result<(), String> {
        let fields = Self::fields(p, selected);
        let Some(f) = fields.iter().find(|f| f.id == field) else {
            return Err(format!("no field `{field}` here"));
        };
        let v = Input {
            field: f,
            value: &value,
        };
        match field {
            "id" => {
                p.id = v.text()?;
                return Ok(());
            }
            "mode" => {
                let w = v.word()?;
                p.mode = MODES.iter().find(|(_, m)| *m == w).map_or(p.mode, |m| m.0);
                return Ok(());
            }
            "rating" => {
                let w = v.word()?;
                let r = RATINGS.iter().find(|r| r.name() == w);
                p.override_card.rating = r.copied().unwrap_or(p.override_card.rating);
                return Ok(());
            }
            "pick" => {
                let w = v.word()?;
                let k = PICKS.iter().find(|(_, k)| *k == w);
                p.override_card.pick = k.map_or(p.override_card.pick, |k| k.0);
                return Ok(());
            }
            _ => {}
        }
        // Every other field is of what lies on the hex selected.
        let Some(at) = selected else {
            return Err(format!("no field `{field}` here"));
        };
        match field {
            "gold" | "cards" => {
                let n = v.unsigned()?;
                if let Some(l) = p.board.loot.iter_mut().find(|l| l.hex == at) {
                    if field == "gold" {
                        l.gold = n;
                    } else {
                        l.cards = n;
                    }
                }
            }
            "adventure" | "captured" | "foes_use" => {
                let a = p
                    .board
                    .adventures
                    .iter_mut()
                    .find(|a| a.spaces.contains(&at));
                if let Some(a) = a {
                    match field {
                        "adventure" => a.name = v.text()?,
                        "captured" => a.captured = v.flag()?,
                        _ => a.foes_use = v.flag()?,
                    }
                }
            }
            _ => match figure_at(p, at) {
                Some(Who::Hero(i)) => set_hero(&mut p.heroes[i], field, &v)?,
                Some(Who::Foe(i)) => {
                    let was_active = p.foes[i].name == p.active;
                    set_foe(&mut p.foes[i], field, &v)?;
                    // The case names its active foe: a new name follows it.
                    if was_active {
                        p.active = p.foes[i].name.clone();
                    }
                }
                None => return Err(format!("no field `{field}` here")),
            },
        }
        Ok(())
    }

    /// The foe a tie waits on, else the next foe to react to a hero's action, else the next foe
    /// of the round to act, as the case of [`case_of`].
    fn arrange(
        state: &State,
        change: &crate::rules::lab::Arrangement,
    ) -> Result<super::Action, String> {
        crate::rules::lab::tried::<Goals>(state, super::Action::Arrange(change.clone()))
    }

    /// Foe `figure` deciding its turn as if it acted now, under the round's override card.
    fn foe_moment(state: &State, figure: u32) -> Result<GoalTurn, String> {
        let f = figure
            .checked_sub(FOE_BASE)
            .map(|f| f as usize)
            .ok_or_else(|| "not a foe: the players move it".to_string())?;
        if !state.foe_in(f) {
            return Err("it is not on the board".into());
        }
        if let Phase::Over { .. } = state.phase {
            return Err("the game is over: no foe decides any more".into());
        }
        if state.card.is_none() {
            return Err(
                "the round's override card is not drawn yet: the foes' decisions depend on it"
                    .into(),
            );
        }
        case_of(state, f)
    }

    /// The round's override card, as every foe's Choose Target reads it.
    fn foe_card(state: &State, figure: u32) -> Vec<String> {
        let Some(c) = state.card else {
            return Vec::new();
        };
        if figure < FOE_BASE {
            return Vec::new();
        }
        vec![format!(
            "Override card: Choose Target picks the {}",
            state.file().override_deck[c].words()
        )]
    }

    fn moment(state: &State) -> Result<GoalTurn, String> {
        let f = moment_foe(state)?;
        if state.card.is_none() {
            return Err(
                "the round's override card is not drawn yet: the foes' decisions depend on it"
                    .into(),
            );
        }
        case_of(state, f)
    }

    fn answer(p: &GoalTurn) -> Answer {
        let (turn, s) = match case::load("the lab", &Self::write(p)) {
            Ok((turn, s, _)) => (turn, s),
            Err(e) => {
                return Answer {
                    summary: e.message.clone(),
                    text: e.message,
                    ..Answer::default()
                };
            }
        };
        let d = super::decide(&s);
        let me = &s.foes[s.active];
        let hero_at = |name: &str| s.heroes.iter().find(|h| h.name == name).map(|h| qr(h.hex));
        let choices: Vec<Choice> = d
            .options
            .iter()
            .map(|o| Choice {
                label: case::outcome_words(o),
                from: Some(qr(me.hex)),
                end: Some(qr(o.end)),
                path: walk(&s, o),
                targets: o.target.as_deref().and_then(hero_at).into_iter().collect(),
                area: Vec::new(),
                focus: Vec::new(),
            })
            .collect();
        let summary = match choices.as_slice() {
            [] => format!("{} does nothing.", me.name),
            [one] => format!("{}: {}.", me.name, one.label),
            many => format!(
                "{}: {} outcomes are equal under the rules: the players choose.",
                me.name,
                many.len()
            ),
        };
        Answer {
            summary,
            choices,
            why: d.trace.clone(),
            text: case::decision_text(&turn, &d),
        }
    }
}
