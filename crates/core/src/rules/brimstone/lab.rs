//! Brimstone-style board cases in the position lab: tiles stamped and cut, figures placed, a panel.
//!
//! The lab edits the two kinds of case that have a board, `Placement` and `Targeting`. A position is
//! exactly the case file, so walls are wall squares (the format has no walls along edges), a square
//! painted off the tiles becomes a tile of its own, and a square cut out of a tile splits it.

use super::Brimstone;
use super::actions::Actor;
use super::case::{
    ActiveIn, BoardIn, EnemyIn, GroupIn, HeroIn, LayoutIn, MAX_GROUPS, MAX_MODELS, MAX_SMALL,
    MAX_STEPS, OutcomeIn, Parsed, PlacementCase, PlacementExpect, TargetingCase, TargetingExpect,
    TileIn, Worked,
};
use super::placement::{Initiative, Placement, PlacementError, Style};
use super::square_name;
use super::state::{Stage, State};
use super::targeting::{Activation, Behaviour};
use super::view::{behaviour_word, gear, style_word};
use crate::LoadError;
use crate::decision::ChosenBy;
use crate::rules::case::top_level_name;
use crate::rules::lab::{Answer, Brush, BrushKind, Choice, Field, Lab, Value};
use crate::rules::view::{CellInfo, FigureInfo, Gear, GridKind, Ground, Panel, Side, TableView};
use crate::square::{MAX_COORDINATE, SquareBoard};
use std::collections::BTreeSet;

type Sq = (i32, i32);

/// A Brimstone board case: the kinds of case the lab edits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Case {
    /// Where the enemies of a new fight go.
    Placement(PlacementCase),
    /// What one enemy does on its activation.
    Targeting(TargetingCase),
}

/// The table id of the enemy that activates; other enemies follow it, heroes start at [`HERO_IDS`].
const ACTIVE_ID: u32 = 0;
const HERO_IDS: u32 = 1_000;
/// How far around the tiles the lab offers squares to paint.
const MARGIN: i32 = 2;
/// Most squares the lab offers around a board (the board itself may be as large as a file's).
const MAX_OFFERED: usize = 4_000;
/// The side of the tile the stamp lays.
const STAMP: i32 = 4;
/// The longest side a tile may have: every square within [`MAX_COORDINATE`] of the origin.
const MAX_SIDE: i32 = 2 * MAX_COORDINATE + 1;
/// The retreat roll is a D6; 0 in the panel lists both results.
const MAX_ROLL: u8 = 6;

/// Names for new heroes, as many as a file may hold; beyond them heroes are numbered.
const HERO_NAMES: [&str; 16] = [
    "Vera", "Wes", "Cole", "Dana", "Eli", "Faye", "Gus", "Hank", "Ida", "Jed", "Kit", "Lou", "Mae",
    "Ned", "Opal", "Pike",
];
/// Names for new enemy groups, as many as a file may hold; a group's models take its last word.
const GROUP_NAMES: [&str; 8] = [
    "Hollow Hound",
    "Gravel Gunman",
    "Dust Sniper",
    "Ash Swarm",
    "Acid Blob",
    "Bone Chanter",
    "Mine Brute",
    "Pale Wraith",
];
/// The behaviours, by the words the file uses.
pub(super) const BEHAVIOURS: [(&str, Behaviour); 6] = [
    ("Melee", Behaviour::Melee),
    ("Ranged", Behaviour::Ranged),
    ("MeleeOrRanged", Behaviour::MeleeOrRanged),
    ("AcidBlob", Behaviour::AcidBlob),
    ("Shootout", Behaviour::Shootout),
    ("Support", Behaviour::Support),
];
/// The ambush styles, by the words the file uses.
pub(super) const STYLES: [(&str, Style); 4] = [
    ("Plain", Style::Plain),
    ("Shootout", Style::Shootout),
    ("Support", Style::Support),
    ("Immobile", Style::Immobile),
];
const KINDS: [&str; 2] = ["Placement", "Targeting"];
const NONE: &str = "None";

impl Case {
    const fn kind(&self) -> &'static str {
        match self {
            Case::Placement(_) => "Placement",
            Case::Targeting(_) => "Targeting",
        }
    }

    const fn board(&self) -> &BoardIn {
        match self {
            Case::Placement(c) => &c.board,
            Case::Targeting(c) => &c.board,
        }
    }

    const fn board_mut(&mut self) -> &mut BoardIn {
        match self {
            Case::Placement(c) => &mut c.board,
            Case::Targeting(c) => &mut c.board,
        }
    }

    fn heroes(&self) -> &[HeroIn] {
        match self {
            Case::Placement(c) => &c.heroes,
            Case::Targeting(c) => &c.heroes,
        }
    }

    const fn heroes_mut(&mut self) -> &mut Vec<HeroIn> {
        match self {
            Case::Placement(c) => &mut c.heroes,
            Case::Targeting(c) => &mut c.heroes,
        }
    }

    fn id(&self) -> &str {
        match self {
            Case::Placement(c) => &c.id,
            Case::Targeting(c) => &c.id,
        }
    }

    /// Every model's name: heroes, then enemies (placed or still in their groups).
    fn names(&self) -> Vec<&str> {
        let mut out: Vec<&str> = self.heroes().iter().map(|h| h.name.as_str()).collect();
        match self {
            Case::Placement(c) => out.extend(
                c.groups
                    .iter()
                    .flat_map(|g| g.models.iter().map(String::as_str)),
            ),
            Case::Targeting(c) => {
                out.push(&c.active.name);
                out.extend(c.enemies.iter().map(|e| e.name.as_str()));
            }
        }
        out
    }

    fn has_expect(&self) -> bool {
        match self {
            Case::Placement(c) => c.expect.is_some(),
            Case::Targeting(c) => c.expect.is_some(),
        }
    }
}

/// Whether a tile covers a square, in `i64` so that any clicked square is simply outside.
fn covers(t: &TileIn, (x, y): Sq) -> bool {
    let (x, y) = (i64::from(x), i64::from(y));
    let (tx, ty) = (i64::from(t.x), i64::from(t.y));
    x >= tx && x < tx + i64::from(t.w) && y >= ty && y < ty + i64::from(t.h)
}

fn tile_at(b: &BoardIn, s: Sq) -> Option<usize> {
    b.tiles.iter().position(|t| covers(t, s))
}

/// A tile name no tile has yet: a letter, then numbered names.
fn fresh_tile_name(b: &BoardIn) -> String {
    let taken = |n: &str| b.tiles.iter().any(|t| t.name == n);
    ('A'..='Z')
        .map(String::from)
        .chain((1..).map(|n| format!("T{n}")))
        .find(|n| !taken(n))
        .unwrap_or_default()
}

/// `"{base} {k}"` for the lowest `k` no model of the case is named.
fn fresh_name(p: &Case, base: &str) -> String {
    let names = p.names();
    (1..)
        .map(|k| format!("{base} {k}"))
        .find(|n| !names.contains(&n.as_str()))
        .unwrap_or_default()
}

fn fresh_hero_name(p: &Case) -> String {
    let names = p.names();
    HERO_NAMES
        .iter()
        .find(|n| !names.contains(n))
        .map_or_else(|| fresh_name(p, "Hero"), |n| (*n).to_string())
}

/// A model's type as its name shows it: the name without its number ("Hound" of "Hound 2").
pub(super) fn stem(name: &str) -> &str {
    let s = name
        .trim_end_matches(|c: char| c.is_ascii_digit())
        .trim_end();
    if s.is_empty() { name } else { s }
}

/// The word a group's models are named after: the last word of its name.
fn model_base(group: &str) -> &str {
    group.split_whitespace().last().unwrap_or("Model")
}

/// Another enemy of a `Targeting` case counts as of the active enemy's type when its name shows
/// the same type: the file itself only counts them (`same_type_count`).
fn is_kin(c: &TargetingCase, name: &str) -> bool {
    stem(name) == stem(&c.active.name)
}

/// A figure on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fig {
    Hero(usize),
    Active,
    Enemy(usize),
}

fn figure_at(p: &Case, s: Sq) -> Option<Fig> {
    if let Some(i) = p.heroes().iter().position(|h| h.at == s) {
        return Some(Fig::Hero(i));
    }
    match p {
        Case::Targeting(c) if c.active.at == s => Some(Fig::Active),
        Case::Targeting(c) => c.enemies.iter().position(|e| e.at == s).map(Fig::Enemy),
        Case::Placement(_) => None,
    }
}

/// Whether the case's expected answer names a model: taking the model away would leave it wrong.
fn expect_names(p: &Case, name: &str) -> bool {
    match p {
        Case::Placement(c) => c.expect.as_ref().is_some_and(|e| {
            e.layouts.iter().any(|l| {
                l.at.iter().any(|(m, _)| m == name) || l.unplaced.iter().any(|m| m == name)
            })
        }),
        Case::Targeting(c) => c.expect.as_ref().is_some_and(|e| {
            e.outcomes
                .iter()
                .any(|o| o.targets.iter().any(|t| t == name))
        }),
    }
}

fn named_in_expect(name: &str) -> String {
    format!("the expected answer names `{name}`: turn off `Expected answer` before taking it away")
}

/// Takes whatever figure stands on `s` off the board, with what the case says about it; false when
/// there was none. The enemy that activates stays: a `Targeting` case always has one.
fn take_figure(p: &mut Case, s: Sq) -> Result<bool, String> {
    match figure_at(p, s) {
        None => Ok(false),
        Some(Fig::Active) => {
            Err("the enemy that activates stays on the board: drag it elsewhere instead".into())
        }
        Some(Fig::Hero(i)) => {
            let name = p.heroes()[i].name.clone();
            if expect_names(p, &name) {
                return Err(named_in_expect(&name));
            }
            p.heroes_mut().remove(i);
            forget_hero(p, &name);
            Ok(true)
        }
        Some(Fig::Enemy(i)) => {
            if let Case::Targeting(c) = p {
                let gone = c.enemies.remove(i);
                // It was counted among the active enemy's type: the count follows it.
                if is_kin(c, &gone.name) {
                    c.active.same_type_count = c.active.same_type_count.saturating_sub(1).max(1);
                }
            }
            Ok(true)
        }
    }
}

/// Drops every mention of a hero taken off the board.
fn forget_hero(p: &mut Case, name: &str) {
    match p {
        Case::Placement(c) => {
            for g in &mut c.groups {
                if g.ambushed_hero.as_deref() == Some(name) {
                    g.ambushed_hero = None;
                }
            }
        }
        Case::Targeting(c) => {
            if c.active.current_target.as_deref() == Some(name) {
                c.active.current_target = None;
            }
            c.active.targeted_by_same_type.retain(|n| n != name);
        }
    }
}

/// Renames a hero everywhere the case names it.
fn rename_hero(p: &mut Case, old: &str, new: &str) {
    let swap = |n: &mut String| {
        if n == old {
            *n = new.to_string();
        }
    };
    for h in p.heroes_mut() {
        swap(&mut h.name);
    }
    match p {
        Case::Placement(c) => {
            for g in &mut c.groups {
                g.ambushed_hero.iter_mut().for_each(swap);
            }
        }
        Case::Targeting(c) => {
            c.active.current_target.iter_mut().for_each(swap);
            c.active.targeted_by_same_type.iter_mut().for_each(swap);
            for o in c.expect.iter_mut().flat_map(|e| e.outcomes.iter_mut()) {
                o.targets.iter_mut().for_each(swap);
                // The format lists targets sorted by name.
                o.targets.sort();
            }
        }
    }
}

/// Makes `s` a board square: takes its wall off, or lays a one-square tile there.
fn add_square(b: &mut BoardIn, s: Sq) {
    if tile_at(b, s).is_some() {
        b.walls.retain(|w| *w != s);
    } else {
        let name = fresh_tile_name(b);
        b.tiles.push(TileIn {
            name,
            x: s.0,
            y: s.1,
            w: 1,
            h: 1,
        });
    }
}

/// Takes `s` off its tile: the rest of the tile becomes up to four rectangles, the largest keeping
/// the tile's name so that a fight tile named in the case stays a tile.
fn cut_square(b: &mut BoardIn, s: Sq) {
    let Some(i) = tile_at(b, s) else {
        return;
    };
    b.walls.retain(|w| *w != s);
    let t = b.tiles.remove(i);
    let (sx, sy) = s;
    let piece = |x, y, w, h| TileIn {
        name: String::new(),
        x,
        y,
        w,
        h,
    };
    let mut pieces: Vec<TileIn> = [
        piece(t.x, t.y, t.w, sy - t.y),
        piece(t.x, sy + 1, t.w, t.y + t.h - 1 - sy),
        piece(t.x, sy, sx - t.x, 1),
        piece(sx + 1, sy, t.x + t.w - 1 - sx, 1),
    ]
    .into_iter()
    .filter(|p| p.w > 0 && p.h > 0)
    .collect();
    let Some(keep) = (0..pieces.len()).max_by_key(|&k| {
        // The first of equally large pieces: `max_by_key` keeps the last, so ties look backwards.
        (i64::from(pieces[k].w) * i64::from(pieces[k].h), -(k as i64))
    }) else {
        return;
    };
    let mut kept = pieces.remove(keep);
    kept.name = t.name;
    b.tiles.insert(i, kept);
    for mut p in pieces {
        p.name = fresh_tile_name(b);
        b.tiles.push(p);
    }
}

fn placement_has_no_models() -> String {
    "the rules place a Placement case's enemies: set its groups in the side panel".into()
}

/// What the rules work out for a position, with solve's answer; the position's own loader error
/// when it is refused.
fn worked(p: &Case) -> Result<(crate::rules::case::Answer, Option<Worked>), LoadError> {
    Parsed::parse("the lab", &Brimstone::write(p)).map(|parsed| parsed.answer_worked())
}

/// Keeps the rules' answer in the case as its expected answer.
fn record_expect(p: &mut Case) -> Result<(), String> {
    let (_, w) = worked(p).map_err(|e| e.message)?;
    match (p, w) {
        (Case::Targeting(c), Some(Worked::Targeting(act))) => {
            c.expect = Some(TargetingExpect {
                retarget: act.retarget,
                outcomes: act
                    .outcomes
                    .options
                    .iter()
                    .map(|o| OutcomeIn {
                        end: o.end,
                        targets: o.targets.clone(),
                        attack: o.attack,
                        chosen_by: o.chosen_by,
                    })
                    .collect(),
            });
        }
        (Case::Placement(c), Some(Worked::Placement(Ok(placed)))) => {
            c.expect = Some(PlacementExpect {
                initiative_bonus: placed.initiative_bonus,
                ends_turn: placed.ends_turn,
                layouts: placed
                    .layouts
                    .options
                    .iter()
                    .map(|l| LayoutIn {
                        chosen_by: l.chosen_by,
                        at: l.at.clone(),
                        unplaced: l.unplaced.clone(),
                    })
                    .collect(),
            });
        }
        (_, Some(Worked::Placement(Err(e)))) => return Err(format!("no answer to keep: {e}")),
        _ => return Err("no answer to keep".into()),
    }
    Ok(())
}

/// How a group of a `Placement` case acts: as its ambush keyword says (a group there has no
/// behaviour of its own).
pub(super) const fn behaviour_of(style: Style) -> Behaviour {
    match style {
        Style::Shootout => Behaviour::Shootout,
        Style::Support => Behaviour::Support,
        Style::Plain | Style::Immobile => Behaviour::Melee,
    }
}

/// The ambush style that matches a behaviour.
pub(super) const fn style_of(b: Behaviour) -> Style {
    match b {
        Behaviour::Shootout => Style::Shootout,
        Behaviour::Support => Style::Support,
        Behaviour::Melee | Behaviour::Ranged | Behaviour::MeleeOrRanged | Behaviour::AcidBlob => {
            Style::Plain
        }
    }
}

/// A `Targeting` case as the `Placement` of its fight: the active enemy and those of its type make
/// one group, placed on the active enemy's tile.
pub(super) fn to_placement(c: &TargetingCase) -> PlacementCase {
    let kind = stem(&c.active.name).to_string();
    let mut models = vec![c.active.name.clone()];
    models.extend(
        c.enemies
            .iter()
            .filter(|e| is_kin(c, &e.name))
            .map(|e| e.name.clone()),
    );
    let fight_tile = c
        .board
        .tiles
        .iter()
        .find(|t| covers(t, c.active.at))
        .or(c.board.tiles.first())
        .map_or_else(String::new, |t| t.name.clone());
    PlacementCase {
        id: c.id.clone(),
        board: c.board.clone(),
        heroes: c.heroes.clone(),
        groups: vec![GroupIn {
            name: kind,
            initiative: Initiative::Fixed(1),
            style: style_of(c.active.behaviour),
            ambushed_hero: None,
            models,
        }],
        fight_tile,
        ambush: false,
        triggered_before_anyone_moved: false,
        expect: None,
    }
}

/// A `Placement` case as the `Targeting` of its first activation: the models go where the first
/// allowed layout puts them, and the first placed one activates.
fn to_targeting(c: &PlacementCase) -> Result<TargetingCase, String> {
    let p = Case::Placement(c.clone());
    let (_, w) = worked(&p).map_err(|e| e.message)?;
    let layout = match w {
        Some(Worked::Placement(Ok(placed))) => placed.layouts.options.into_iter().next(),
        _ => None,
    };
    let at = |m: &str| {
        layout
            .as_ref()
            .and_then(|l| l.at.iter().find(|(n, _)| n == m).map(|(_, s)| *s))
    };
    // In group order, each group's models in their order.
    let placed: Vec<(usize, &str, Sq)> = c
        .groups
        .iter()
        .enumerate()
        .flat_map(|(g, group)| {
            group
                .models
                .iter()
                .filter_map(move |m| at(m).map(|s| (g, m.as_str(), s)))
        })
        .collect();
    let (group, name, square) = match placed.first() {
        Some(&(g, m, s)) => (Some(g), m.to_string(), s),
        None => {
            let name = c
                .groups
                .first()
                .and_then(|g| g.models.first().cloned())
                .unwrap_or_else(|| fresh_name(&p, "Hound"));
            (None, name, first_free_square(c)?)
        }
    };
    let style = group.map_or(Style::Plain, |g| c.groups[g].style);
    let behaviour = behaviour_of(style);
    let same_type = placed.iter().filter(|(g, _, _)| Some(*g) == group).count();
    Ok(TargetingCase {
        id: c.id.clone(),
        board: c.board.clone(),
        heroes: c.heroes.clone(),
        enemies: placed
            .iter()
            .skip(1)
            .map(|&(_, m, s)| EnemyIn {
                name: m.to_string(),
                at: s,
                markers: 0,
            })
            .collect(),
        active: ActiveIn {
            name,
            at: square,
            behaviour,
            move_points: 3,
            range: if behaviour == Behaviour::Shootout {
                3
            } else {
                0
            },
            current_target: None,
            same_type_count: u32::try_from(same_type.max(1)).unwrap_or(1),
            targeted_by_same_type: Vec::new(),
        },
        retreat_roll: None,
        expect: None,
    })
}

/// The first board square, in `(x, y)` order, that no hero stands on.
fn first_free_square(c: &PlacementCase) -> Result<Sq, String> {
    board_of(&c.board)
        .and_then(|b| {
            b.squares()
                .iter()
                .copied()
                .find(|s| c.heroes.iter().all(|h| h.at != *s))
        })
        .ok_or_else(|| "no free square for the enemy that activates".to_string())
}

/// Who settles which outcome it is, in words ("" when nobody does).
const fn chosen_words(c: ChosenBy) -> &'static str {
    match c {
        ChosenBy::Fixed => "",
        ChosenBy::Random => " (a random draw)",
        ChosenBy::Players => " (the players' choice)",
        ChosenBy::RandomAndPlayers => " (a random draw, then the players' choice)",
    }
}

/// Who chooses among several outcomes, in words.
fn choosers(all: impl Iterator<Item = ChosenBy>) -> &'static str {
    let (mut random, mut players) = (false, false);
    for c in all {
        random |= matches!(c, ChosenBy::Random | ChosenBy::RandomAndPlayers);
        players |= matches!(c, ChosenBy::Players | ChosenBy::RandomAndPlayers);
    }
    match (random, players) {
        (true, true) => "a random draw and the players",
        (true, false) => "a random draw",
        (false, true) => "the players",
        (false, false) => "the rules",
    }
}

/// One line on whether the case's expected answer holds.
fn verdict_words(v: Option<&Result<(), String>>) -> String {
    match v {
        None => String::new(),
        Some(Ok(())) => " The expected answer holds.".into(),
        Some(Err(diffs)) => format!(" The expected answer differs: {diffs}."),
    }
}

fn targeting_answer(c: &TargetingCase, act: &Activation) -> (String, Vec<Choice>) {
    let board = board_of(&c.board);
    let hero_at = |name: &str| c.heroes.iter().find(|h| h.name == name).map(|h| h.at);
    let blocked: BTreeSet<Sq> = c
        .heroes
        .iter()
        .map(|h| h.at)
        .chain(c.enemies.iter().map(|e| e.at))
        .collect();
    // One shortest walk around the other models; the rules settle only where it ends.
    let path = |end: Sq| -> Vec<Sq> {
        let Some(b) = &board else {
            return Vec::new();
        };
        let (Some(from), Some(to)) = (b.index_of(c.active.at), b.index_of(end)) else {
            return Vec::new();
        };
        b.path_to(from, to, |i| !blocked.contains(&b.square(i)))
            .map(|walk| walk.into_iter().skip(1).map(|i| b.square(i)).collect())
            .unwrap_or_default()
    };
    let choices: Vec<Choice> = act
        .outcomes
        .options
        .iter()
        .map(|o| {
            let attack = if o.targets.is_empty() {
                "no attack".to_string()
            } else {
                format!(
                    "{} attack on {}",
                    o.attack.name(),
                    super::join_names(&o.targets)
                )
            };
            Choice {
                label: format!(
                    "ends on {}, {attack}{}",
                    square_name(o.end),
                    chosen_words(o.chosen_by)
                ),
                from: Some(c.active.at),
                end: Some(o.end),
                path: path(o.end),
                targets: o.targets.iter().filter_map(|t| hero_at(t)).collect(),
                area: Vec::new(),
                focus: Vec::new(),
            }
        })
        .collect();
    let mut summary = match choices.as_slice() {
        [] => format!("{} does nothing.", c.active.name),
        [one] => format!("{} {}.", c.active.name, one.label),
        many => format!(
            "{} outcomes are allowed, chosen by {}.",
            many.len(),
            choosers(act.outcomes.options.iter().map(|o| o.chosen_by))
        ),
    };
    if !act.retarget && c.active.behaviour != Behaviour::Support {
        summary += " It keeps its current target.";
    }
    (summary, choices)
}

fn placement_answer(
    c: &PlacementCase,
    placed: &Result<Placement, PlacementError>,
) -> (String, Vec<Choice>) {
    let p = match placed {
        Ok(p) => p,
        Err(e) => return (e.to_string(), Vec::new()),
    };
    let choices: Vec<Choice> = p
        .layouts
        .options
        .iter()
        .map(|l| {
            let at: Vec<String> =
                l.at.iter()
                    .map(|(m, s)| format!("{m} on {}", square_name(*s)))
                    .collect();
            let mut label = if at.is_empty() {
                "no model placed".to_string()
            } else {
                at.join(", ")
            };
            if !l.unplaced.is_empty() {
                label += &format!("; unplaced: {}", l.unplaced.join(", "));
            }
            label += chosen_words(l.chosen_by);
            Choice {
                label,
                targets: l.at.iter().map(|(_, s)| *s).collect(),
                ..Choice::default()
            }
        })
        .collect();
    let how = if c.ambush {
        format!(
            "Ambush (+{} initiative on the first turn, {})",
            p.initiative_bonus,
            if p.ends_turn {
                "ends the turn"
            } else {
                "the turn goes on"
            }
        )
    } else {
        format!("Normal placement on tile {}", c.fight_tile)
    };
    let summary = match choices.as_slice() {
        [] => format!("{how}: no layout."),
        [one] => format!("{how}: {}.", one.label),
        many => format!(
            "{how}: {} layouts are allowed, chosen by {}.",
            many.len(),
            choosers(p.layouts.options.iter().map(|l| l.chosen_by))
        ),
    };
    (summary, choices)
}

/// The checked board of a position (`None` only for a board its loader would refuse).
fn board_of(b: &BoardIn) -> Option<SquareBoard> {
    SquareBoard::new(b.square_tiles(), &b.walls).ok()
}

fn active_card(c: &TargetingCase) -> Vec<String> {
    let a = &c.active;
    let mut card = vec![
        format!("{} keyword", behaviour_word(a.behaviour)),
        format!("Move {}", a.move_points),
    ];
    if a.range > 0 {
        card.push(format!("Range {}", a.range));
    }
    card.push(format!("{} of its type on the board", a.same_type_count));
    if let Some(t) = &a.current_target {
        card.push(format!("Current target: {t}"));
    }
    if let (Behaviour::Shootout, Some(r)) = (a.behaviour, c.retreat_roll) {
        card.push(format!("Retreat roll {r}"));
    }
    card
}

fn hero_card(p: &Case, h: &HeroIn) -> Vec<String> {
    let mut card = vec![format!("Shootout markers {}", h.markers)];
    if let Case::Targeting(c) = p {
        if c.active.current_target.as_ref() == Some(&h.name) {
            card.push(format!("Current target of {}", c.active.name));
        }
        if c.active.targeted_by_same_type.contains(&h.name) {
            card.push(format!(
                "Already targeted this turn by a {}",
                stem(&c.active.name)
            ));
        }
    }
    card
}

fn figure(id: u32, name: &str, side: Side, cell: Sq, tint: usize) -> FigureInfo {
    FigureInfo {
        id,
        name: name.to_string(),
        side,
        elite: false,
        hp: 1,
        max_hp: 0,
        conditions: Vec::new(),
        cell,
        owner: None,
        tint,
        gear: Gear::Bare,
        rooted: false,
        card: Vec::new(),
    }
}

/// A number of the side panel, already checked against its field's bounds.
fn whole<T: TryFrom<i64>>(v: &Value) -> Result<T, String> {
    match v {
        Value::Number(n) => T::try_from(*n).map_err(|_| format!("{n}: expected a whole number")),
        _ => Err("expected a number".into()),
    }
}

fn flag(v: &Value) -> Result<bool, String> {
    match v {
        Value::Flag(b) => Ok(*b),
        _ => Err("expected yes or no".into()),
    }
}

fn word(v: &Value) -> Result<&str, String> {
    match v {
        Value::Choice(s) | Value::Text(s) => Ok(s),
        _ => Err("expected a word".into()),
    }
}

/// Checks a value against its field before anything changes: its kind, a number's bounds, a
/// choice's words.
fn check(f: &Field, v: &Value) -> Result<(), String> {
    match (&f.value, v) {
        (Value::Number(_), Value::Number(n)) => {
            let (lo, hi) = f.bounds;
            if (lo..=hi).contains(n) {
                Ok(())
            } else {
                Err(format!("{n}: expected a number from {lo} to {hi}"))
            }
        }
        (Value::Number(_), _) => Err("expected a number".into()),
        (Value::Flag(_), Value::Flag(_)) | (Value::Text(_), Value::Text(_)) => Ok(()),
        (Value::Flag(_), _) => Err("expected yes or no".into()),
        (Value::Choice(_), Value::Choice(c)) if f.choices.contains(c) => Ok(()),
        (Value::Choice(_), _) => Err(format!("expected one of {}", f.choices.join(", "))),
        (Value::Text(_), _) => Err("expected text".into()),
    }
}

fn group_fields(c: &PlacementCase, out: &mut Vec<Field>) {
    let heroes: Vec<&str> = std::iter::once(NONE)
        .chain(c.heroes.iter().map(|h| h.name.as_str()))
        .collect();
    let styles: Vec<&str> = STYLES.iter().map(|s| s.0).collect();
    for (i, g) in c.groups.iter().enumerate() {
        let id = |f: &str| format!("group.{}.{f}", i + 1);
        let label = |f: &str| format!("{}: {f}", g.name);
        out.push(Field::text(&id("name"), &label("name"), &g.name));
        out.push(Field::flag(
            &id("variable"),
            &label("initiative rolled each turn"),
            g.initiative == Initiative::Variable,
        ));
        if let Initiative::Fixed(n) = g.initiative {
            out.push(Field::number(
                &id("initiative"),
                &label("initiative"),
                n.into(),
                (0, MAX_SMALL.into()),
            ));
        }
        let style = STYLES
            .iter()
            .find(|s| s.1 == g.style)
            .map_or("Plain", |s| s.0);
        out.push(Field::choice(
            &id("style"),
            &label("ambush style"),
            style,
            &styles,
        ));
        if g.style != Style::Plain {
            out.push(Field::choice(
                &id("ambushed_hero"),
                &label("ambushed hero (None: drawn)"),
                g.ambushed_hero.as_deref().unwrap_or(NONE),
                &heroes,
            ));
        }
        out.push(Field::number(
            &id("models"),
            &label("models"),
            g.models.len() as i64,
            (0, MAX_MODELS as i64),
        ));
    }
}

/// Sets a field of group `i` (from 0).
fn set_group(c: &mut PlacementCase, i: usize, field: &str, value: &Value) -> Result<(), String> {
    let p = Case::Placement(c.clone());
    let Some(g) = c.groups.get_mut(i) else {
        return Err(format!("no group {}", i + 1));
    };
    match field {
        "name" => word(value)?.clone_into(&mut g.name),
        "variable" => {
            g.initiative = if flag(value)? {
                Initiative::Variable
            } else {
                Initiative::Fixed(1)
            };
        }
        "initiative" => g.initiative = Initiative::Fixed(whole(value)?),
        "style" => {
            let w = word(value)?;
            g.style = STYLES.iter().find(|s| s.0 == w).map_or(g.style, |s| s.1);
            // A Plain ambush draws a hero per model: it never names one.
            if g.style == Style::Plain {
                g.ambushed_hero = None;
            }
        }
        "ambushed_hero" => {
            let w = word(value)?;
            g.ambushed_hero = (w != NONE).then(|| w.to_string());
        }
        "models" => {
            let n: usize = whole(value)?;
            if let Some(m) = g.models.iter().skip(n).find(|m| expect_names(&p, m)) {
                return Err(named_in_expect(m));
            }
            g.models.truncate(n);
            let base = model_base(&g.name).to_string();
            let mut names: Vec<String> = p.names().into_iter().map(String::from).collect();
            while g.models.len() < n {
                let m = (1..)
                    .map(|k| format!("{base} {k}"))
                    .find(|m| !names.contains(m))
                    .unwrap_or_default();
                names.push(m.clone());
                g.models.push(m);
            }
        }
        _ => return Err(format!("no field `group.{}.{field}` here", i + 1)),
    }
    Ok(())
}

/// Sets the number of groups: new ones come with one model each, the last ones go first.
fn set_groups(c: &mut PlacementCase, n: usize) -> Result<(), String> {
    let p = Case::Placement(c.clone());
    if let Some(m) = c
        .groups
        .iter()
        .skip(n)
        .flat_map(|g| &g.models)
        .find(|m| expect_names(&p, m))
    {
        return Err(named_in_expect(m));
    }
    c.groups.truncate(n);
    while c.groups.len() < n {
        // A name whose models read as a type of their own: no model's name shows its word yet.
        let taken = Case::Placement(c.clone());
        let taken: Vec<&str> = taken.names().into_iter().map(stem).collect();
        let name = GROUP_NAMES
            .iter()
            .find(|g| c.groups.iter().all(|x| x.name != **g) && !taken.contains(&model_base(g)))
            .map_or_else(
                || format!("Type {}", c.groups.len() + 1),
                |g| (*g).to_string(),
            );
        let model = fresh_name(&Case::Placement(c.clone()), model_base(&name));
        c.groups.push(GroupIn {
            name,
            initiative: Initiative::Fixed(1),
            style: Style::Plain,
            ambushed_hero: None,
            models: vec![model],
        });
    }
    Ok(())
}

/// The next enemy model to activate after `after` (or, with `None`, after the hero whose turn it
/// is): the rest of the acting group, then the first model of the group with the highest initiative
/// among those still to act this round.
fn next_model(s: &State, after: Option<usize>) -> Result<usize, String> {
    if let Some(m) = after {
        let group = s.models.get(m).map(|x| x.group);
        let rest = (m.saturating_add(1)..s.models.len())
            .find(|&i| Some(s.models[i].group) == group && s.models[i].active());
        if let Some(next) = rest {
            return Ok(next);
        }
    }
    let waiting: Vec<usize> = (0..s.groups.len())
        .filter(|&g| s.group_active(g) && !s.acted.contains(&Actor::Group(g)))
        .collect();
    if waiting
        .iter()
        .any(|&g| s.spec(g).initiative == Initiative::Variable && s.groups[g].rolled.is_none())
    {
        return Err(
            "the enemies' initiative is not rolled yet: the order they act in is not known".into(),
        );
    }
    let Some(best) = waiting.iter().map(|&g| s.initiative(Actor::Group(g))).max() else {
        return Err("every enemy group has acted this round: none activates before it ends".into());
    };
    let top: Vec<usize> = waiting
        .into_iter()
        .filter(|&g| s.initiative(Actor::Group(g)) == best)
        .collect();
    if let [_, _, ..] = top.as_slice() {
        let names: Vec<String> = top.iter().map(|&g| s.spec(g).name.clone()).collect();
        return Err(format!(
            "{} act on the same initiative: the players choose which goes first",
            names.join(" and ")
        ));
    }
    top.first()
        .and_then(|&g| {
            (0..s.models.len()).find(|&m| s.models[m].group == g && s.models[m].active())
        })
        .ok_or_else(|| "no enemy model is on the board".into())
}

/// A model's move being carried out: it ends on `end`, and a Shootout shot marks its targets.
struct Moving {
    model: usize,
    end: (i32, i32),
    marked: Vec<usize>,
}

/// The model a game's moment opens, the retreat roll it has made, and the move of the model before
/// it still to be walked: the model whose targeting is under way, else the next to activate.
fn moment_model(s: &State) -> Result<(usize, Option<u32>, Option<Moving>), String> {
    match &s.stage {
        Stage::Targeting { model, retreat } => Ok((*model, *retreat, None)),
        // The model's decision is made: the next one decides once it has moved there.
        Stage::Movement {
            model,
            end,
            targets,
            ranged,
        } => {
            let shootout = s
                .models
                .get(*model)
                .is_some_and(|x| s.spec(x.group).behaviour == Behaviour::Shootout);
            let moving = Moving {
                model: *model,
                end: *end,
                marked: if *ranged && shootout {
                    targets.clone()
                } else {
                    Vec::new()
                },
            };
            Ok((next_model(s, Some(*model))?, None, Some(moving)))
        }
        Stage::Attack(strike) => Ok((next_model(s, Some(strike.model))?, None, None)),
        Stage::NextActor
        | Stage::Hero { .. }
        | Stage::HeroAttack(_)
        | Stage::Lurk { .. }
        | Stage::Initiative { .. } => Ok((next_model(s, None)?, None, None)),
        Stage::Threat => Err("the enemies are being drawn: none activates yet".into()),
        // `moment` opens the placement itself.
        Stage::Placement => Err("the enemies are being placed: none activates yet".into()),
        Stage::Breath { .. } | Stage::Healing { .. } | Stage::Loot { .. } => {
            Err("every enemy is down: the heroes catch their breath".into())
        }
        Stage::Over { .. } => Err("the fight is over: no enemy activates any more".into()),
    }
}

/// The scenario's tiles and wall squares, as a case file has them.
fn board_in(s: &State) -> BoardIn {
    let mut walls = s.scenario.file.board.walls.clone();
    walls.sort_unstable();
    BoardIn {
        tiles: s
            .scenario
            .file
            .board
            .tiles
            .iter()
            .map(|t| TileIn {
                name: t.name.clone(),
                x: t.x,
                y: t.y,
                w: t.w,
                h: t.h,
            })
            .collect(),
        walls,
    }
}

/// The `Placement` case of the enemies being placed in a game's state: the scenario's tiles and
/// walls, the standing heroes with their markers, the groups drawn with their models in the order
/// they are placed, the fight's tile, and whether it is an ambush and sprang before anyone moved
/// (what the game's own placement reads). Picks the players made in this placement are not kept:
/// the case answers the whole placement, every layout the rules allow.
fn placement_of(s: &State) -> Result<PlacementCase, String> {
    let heroes: Vec<HeroIn> = s
        .decision_heroes()
        .into_iter()
        .map(|h| HeroIn {
            name: h.name,
            at: h.at,
            markers: h.markers,
        })
        .collect();
    // Two threat cards may bring models of one name: a case needs each name once.
    let mut taken: BTreeSet<String> = heroes.iter().map(|h| h.name.clone()).collect();
    let groups: Vec<GroupIn> = s
        .placement_groups()
        .into_iter()
        .map(|g| GroupIn {
            name: g.name,
            initiative: g.initiative,
            style: g.style,
            ambushed_hero: None,
            models: g
                .models
                .iter()
                .map(|m| unique_name(m, &mut taken))
                .collect(),
        })
        .collect();
    let board = board_in(s);
    let fight_tile = board
        .tiles
        .get(s.scenario.fight_tile)
        .map(|t| t.name.clone())
        .ok_or("the fight's tile is not on the board")?;
    let (ambush, triggered_before_anyone_moved, _) = s.ambush_now();
    Ok(PlacementCase {
        id: format!("{}, round {}: placement", s.scenario.file.name, s.round),
        board,
        heroes,
        groups,
        fight_tile,
        ambush,
        triggered_before_anyone_moved,
        expect: None,
    })
}

/// `name`, or `name (2)`, `name (3)`, … : the first not yet in `taken`, which it joins. Two threat
/// cards may bring models of one name; a case needs every name once.
fn unique_name(name: &str, taken: &mut BTreeSet<String>) -> String {
    let fresh = std::iter::once(name.to_string())
        .chain((2..).map(|k| format!("{name} ({k})")))
        .find(|n| !taken.contains(n))
        .unwrap_or_else(|| name.to_string());
    taken.insert(fresh.clone());
    fresh
}

/// The `Targeting` case of model `model` activating in a game's state, with the retreat roll made
/// so far and the move of a model before it still to be walked: the scenario's tiles and wall
/// squares, the standing heroes with their markers, the other models on the board (they only
/// block), and the model's group: its behaviour, movement and range, the hero it targets, how many
/// models it has on the board and the heroes they targeted this round.
fn targeting_of(
    s: &State,
    model: usize,
    retreat: Option<u32>,
    moving: Option<&Moving>,
) -> Result<TargetingCase, String> {
    let at = |m: usize| match moving {
        Some(mv) if mv.model == m => Some(mv.end),
        _ => s
            .models
            .get(m)
            .and_then(|x| x.at)
            .filter(|_| s.models[m].active()),
    };
    let x = s
        .models
        .get(model)
        .filter(|x| x.active())
        .ok_or_else(|| format!("enemy model {model} is not on the board"))?;
    let me = at(model).ok_or_else(|| format!("{} is not on the board", x.name))?;
    let spec = s.spec(x.group);
    let standing = s.standing();
    let hero_name = |h: usize| standing.contains(&h).then(|| s.hero_name(h).to_string());
    let heroes: Vec<HeroIn> = standing
        .iter()
        .map(|&h| HeroIn {
            name: s.hero_name(h).to_string(),
            at: s.heroes[h].at,
            markers: s.heroes[h].markers
                + u32::from(moving.is_some_and(|mv| mv.marked.contains(&h))),
        })
        .collect();
    let mut taken: BTreeSet<String> = heroes.iter().map(|h| h.name.clone()).collect();
    let name = unique_name(&x.name, &mut taken);
    let enemies = (0..s.models.len())
        .filter(|&m| m != model)
        .filter_map(|m| {
            at(m).map(|sq| EnemyIn {
                name: unique_name(&s.models[m].name, &mut taken),
                at: sq,
                markers: 0,
            })
        })
        .collect();
    Ok(TargetingCase {
        id: format!("{}, round {}: {}", s.scenario.file.name, s.round, x.name),
        board: board_in(s),
        heroes,
        enemies,
        active: ActiveIn {
            name,
            at: me,
            behaviour: spec.behaviour,
            move_points: spec.move_points,
            range: spec.range,
            current_target: x.current_target.and_then(hero_name),
            same_type_count: (0..s.models.len())
                .filter(|&m| s.models[m].group == x.group && at(m).is_some())
                .count() as u32,
            targeted_by_same_type: s.groups[x.group]
                .targeted
                .iter()
                .filter_map(|&h| hero_name(h))
                .collect(),
        },
        retreat_roll: retreat.and_then(|r| u8::try_from(r).ok()),
        expect: None,
    })
}

impl Lab for Brimstone {
    type Position = Case;
    const MODULE: &'static str = "brimstone";

    fn blank() -> Case {
        // One tile, a hound three squares from two heroes it can both reach: a random target.
        Case::Targeting(TargetingCase {
            id: "lab".into(),
            board: BoardIn {
                tiles: vec![TileIn {
                    name: "A".into(),
                    x: 0,
                    y: 0,
                    w: 6,
                    h: 4,
                }],
                walls: Vec::new(),
            },
            heroes: vec![
                HeroIn {
                    name: "Vera".into(),
                    at: (1, 0),
                    markers: 0,
                },
                HeroIn {
                    name: "Wes".into(),
                    at: (4, 0),
                    markers: 0,
                },
            ],
            enemies: Vec::new(),
            active: ActiveIn {
                name: "Hound 1".into(),
                at: (2, 3),
                behaviour: Behaviour::Melee,
                move_points: 3,
                range: 0,
                current_target: None,
                same_type_count: 1,
                targeted_by_same_type: Vec::new(),
            },
            retreat_roll: None,
            expect: None,
        })
    }

    fn cleared(p: &Case) -> Case {
        let mut q = p.clone();
        q.board_mut().walls.clear();
        q.heroes_mut().clear();
        match &mut q {
            // The groups are what is placed: they stay.
            Case::Placement(c) => c.expect = None,
            Case::Targeting(c) => {
                c.enemies.clear();
                c.active.current_target = None;
                c.active.targeted_by_same_type.clear();
                c.retreat_roll = None;
                c.expect = None;
            }
        }
        q
    }

    fn read(file: &str, text: &str) -> Result<Case, LoadError> {
        let parsed = Parsed::parse(file, text)?;
        if let Some(c) = parsed.placement() {
            return Ok(Case::Placement(c.clone()));
        }
        if let Some(c) = parsed.targeting() {
            return Ok(Case::Targeting(c.clone()));
        }
        let kind = top_level_name(text).map_or("this", |(_, n)| n);
        Err(LoadError::whole(
            file,
            format!(
                "a `{kind}` case has no board: the lab edits `Placement` and `Targeting` cases"
            ),
        ))
    }

    fn write(p: &Case) -> String {
        match p {
            Case::Placement(c) => crate::rules::lab::write_case("Placement", c),
            Case::Targeting(c) => crate::rules::lab::write_case("Targeting", c),
        }
    }

    fn position_view(p: &Case) -> TableView {
        let b = p.board();
        let walls: BTreeSet<Sq> = b.walls.iter().copied().collect();
        let mut cells: Vec<CellInfo> = Vec::new();
        for t in &b.tiles {
            for x in t.x..t.x + t.w {
                for y in t.y..t.y + t.h {
                    cells.push(CellInfo {
                        key: (x, y),
                        ground: if walls.contains(&(x, y)) {
                            Ground::Wall
                        } else {
                            Ground::Floor
                        },
                        door: false,
                        place: None,
                    });
                }
            }
        }
        cells.sort_by_key(|c| c.key);
        let mut outside: BTreeSet<Sq> = BTreeSet::new();
        'tiles: for t in &b.tiles {
            for x in t.x - MARGIN..t.x + t.w + MARGIN {
                for y in t.y - MARGIN..t.y + t.h + MARGIN {
                    if outside.len() >= MAX_OFFERED {
                        break 'tiles;
                    }
                    let s = (x, y);
                    if !covers(t, s)
                        && x.abs() <= MAX_COORDINATE
                        && y.abs() <= MAX_COORDINATE
                        && tile_at(b, s).is_none()
                    {
                        outside.insert(s);
                    }
                }
            }
        }
        cells.extend(outside.into_iter().map(|key| CellInfo {
            key,
            ground: Ground::Outside,
            door: false,
            place: None,
        }));
        let mut figures = Vec::new();
        let mut active = None;
        let mut panels = vec![Panel {
            title: "Tiles".into(),
            lines: b
                .tiles
                .iter()
                .map(|t| {
                    format!(
                        "{}: {}×{} from {}",
                        t.name,
                        t.w,
                        t.h,
                        square_name((t.x, t.y))
                    )
                })
                .collect(),
        }];
        let mut banner = format!("Position lab · Brimstone {}", p.kind());
        match p {
            Case::Targeting(c) => {
                let a = &c.active;
                figures.push(FigureInfo {
                    gear: gear(a.behaviour),
                    card: active_card(c),
                    ..figure(ACTIVE_ID, &a.name, Side::Foe, a.at, 0)
                });
                active = Some(ACTIVE_ID);
                for (i, e) in c.enemies.iter().enumerate() {
                    let kin = is_kin(c, &e.name);
                    figures.push(FigureInfo {
                        gear: if kin { gear(a.behaviour) } else { Gear::Bare },
                        card: vec![if kin {
                            format!("Of {}'s type", a.name)
                        } else {
                            "Another enemy: it only blocks movement".to_string()
                        }],
                        ..figure(
                            ACTIVE_ID + 1 + i as u32,
                            &e.name,
                            Side::Foe,
                            e.at,
                            usize::from(!kin),
                        )
                    });
                }
            }
            Case::Placement(c) => {
                banner += &if c.ambush {
                    " · ambush".to_string()
                } else {
                    format!(" · fight tile {}", c.fight_tile)
                };
                panels.push(Panel {
                    title: "Groups".into(),
                    lines: c
                        .groups
                        .iter()
                        .map(|g| {
                            let initiative = match g.initiative {
                                Initiative::Fixed(n) => format!("initiative {n}"),
                                Initiative::Variable => "initiative rolled".to_string(),
                            };
                            let drawn = g
                                .ambushed_hero
                                .as_ref()
                                .map_or_else(String::new, |h| format!(", falls on {h}"));
                            format!(
                                "{}: {initiative}, placed as {}{drawn} — {}",
                                g.name,
                                style_word(g.style),
                                super::join_names(&g.models)
                            )
                        })
                        .collect(),
                });
            }
        }
        for (i, h) in p.heroes().iter().enumerate() {
            figures.push(FigureInfo {
                card: hero_card(p, h),
                ..figure(HERO_IDS + i as u32, &h.name, Side::Hero, h.at, i)
            });
        }
        TableView {
            grid: GridKind::Square,
            cells,
            thin_walls: Vec::new(),
            figures,
            tokens: Vec::new(),
            active,
            banner,
            round: 0,
            panels,
            odds: None,
            tie: None,
        }
    }

    fn brushes() -> Vec<Brush> {
        let brush = |id, label, kind| Brush { id, label, kind };
        vec![
            brush(
                "floor",
                "Floor (a tile of its own off the tiles)",
                BrushKind::Ground,
            ),
            brush("wall", "Wall square", BrushKind::Ground),
            brush("tile", "Tile 4×4 (its front-left square)", BrushKind::Stamp),
            brush("hero", "Hero", BrushKind::Figure),
            brush("active", "Enemy that activates", BrushKind::Figure),
            brush("kin", "Enemy of its type", BrushKind::Figure),
            brush("enemy", "Enemy of another type", BrushKind::Figure),
            brush("marker", "Shootout marker (+1)", BrushKind::Mark),
            brush("fight-tile", "Fight tile", BrushKind::Mark),
            brush("remove", "Remove figure", BrushKind::Figure),
            brush("erase", "Erase square", BrushKind::Erase),
            brush("erase-tile", "Erase whole tile", BrushKind::Erase),
        ]
    }

    fn paint(p: &mut Case, brush: &str, cell: Sq, _other: Option<Sq>) -> Result<(), String> {
        match brush {
            "floor" => add_square(p.board_mut(), cell),
            "wall" => {
                if figure_at(p, cell).is_some() {
                    return Err("a figure stands there: move it before walling the square".into());
                }
                let b = p.board_mut();
                if tile_at(b, cell).is_none() {
                    add_square(b, cell);
                }
                if !b.walls.contains(&cell) {
                    b.walls.push(cell);
                    b.walls.sort_unstable();
                }
            }
            "tile" => {
                let b = p.board_mut();
                let name = fresh_tile_name(b);
                b.tiles.push(TileIn {
                    name,
                    x: cell.0,
                    y: cell.1,
                    w: STAMP,
                    h: STAMP,
                });
            }
            "hero" => {
                take_figure(p, cell)?;
                let name = fresh_hero_name(p);
                p.heroes_mut().push(HeroIn {
                    name,
                    at: cell,
                    markers: 0,
                });
            }
            "active" | "kin" | "enemy" => {
                let Case::Targeting(c) = &*p else {
                    return Err(placement_has_no_models());
                };
                let kind = stem(&c.active.name).to_string();
                if brush != "active" || figure_at(p, cell) != Some(Fig::Active) {
                    take_figure(p, cell)?;
                }
                // Another type's name must not read as the active enemy's type.
                let other = if kind == "Foe" { "Other foe" } else { "Foe" };
                let name = fresh_name(p, if brush == "kin" { &kind } else { other });
                if let Case::Targeting(c) = p {
                    if brush == "active" {
                        c.active.at = cell;
                    } else {
                        c.enemies.push(EnemyIn {
                            name,
                            at: cell,
                            markers: 0,
                        });
                        if brush == "kin" {
                            c.active.same_type_count = c.active.same_type_count.saturating_add(1);
                        }
                    }
                }
            }
            "marker" => {
                let Some(Fig::Hero(i)) = figure_at(p, cell) else {
                    return Err("no hero stands there: Shootout markers go on heroes".into());
                };
                let h = &mut p.heroes_mut()[i];
                if h.markers >= MAX_SMALL {
                    return Err(format!(
                        "{}: expected a number from 0 to {MAX_SMALL}",
                        u64::from(h.markers) + 1
                    ));
                }
                h.markers += 1;
            }
            "fight-tile" => {
                let Case::Placement(c) = p else {
                    return Err("only a Placement case has a fight tile".into());
                };
                let Some(t) = tile_at(&c.board, cell) else {
                    return Err("no tile there".into());
                };
                c.fight_tile.clone_from(&c.board.tiles[t].name);
            }
            "remove" => {
                if !take_figure(p, cell)? {
                    return Err("no figure stands there".into());
                }
            }
            "erase" => {
                take_figure(p, cell)?;
                cut_square(p.board_mut(), cell);
            }
            "erase-tile" => {
                let Some(t) = tile_at(p.board(), cell) else {
                    return Err("no tile there".into());
                };
                let tile = p.board().tiles[t].clone();
                let mut on: Vec<Sq> = p.heroes().iter().map(|h| h.at).collect();
                if let Case::Targeting(c) = p {
                    on.push(c.active.at);
                    on.extend(c.enemies.iter().map(|e| e.at));
                }
                for s in on.into_iter().filter(|s| covers(&tile, *s)) {
                    take_figure(p, s)?;
                }
                let b = p.board_mut();
                b.walls.retain(|w| !covers(&tile, *w));
                b.tiles.remove(t);
            }
            _ => return Err(format!("no brush `{brush}` for Brimstone cases")),
        }
        Ok(())
    }

    fn drag(p: &mut Case, from: Sq, to: Sq) -> Result<(), String> {
        if from == to {
            return Ok(());
        }
        if figure_at(p, to).is_some() {
            return Err("another figure stands there".into());
        }
        match (figure_at(p, from), p) {
            (None, _) => return Err("no figure stands there".into()),
            (Some(Fig::Hero(i)), p) => p.heroes_mut()[i].at = to,
            (Some(Fig::Active), Case::Targeting(c)) => c.active.at = to,
            (Some(Fig::Enemy(i)), Case::Targeting(c)) => c.enemies[i].at = to,
            // Only a Targeting case has enemies on the board.
            (Some(Fig::Active | Fig::Enemy(_)), Case::Placement(_)) => {}
        }
        Ok(())
    }

    fn fields(p: &Case, selected: Option<Sq>) -> Vec<Field> {
        let steps = (0, i64::from(MAX_STEPS));
        let heroes: Vec<&str> = std::iter::once(NONE)
            .chain(p.heroes().iter().map(|h| h.name.as_str()))
            .collect();
        let mut out = vec![
            Field::choice("kind", "Kind of case", p.kind(), &KINDS),
            Field::text("id", "Name of the case", p.id()),
            Field::flag("expect", "Expected answer", p.has_expect()),
        ];
        match p {
            Case::Targeting(c) => {
                let a = &c.active;
                let behaviours: Vec<&str> = BEHAVIOURS.iter().map(|b| b.0).collect();
                let behaviour = BEHAVIOURS
                    .iter()
                    .find(|b| b.1 == a.behaviour)
                    .map_or("Melee", |b| b.0);
                out.extend([
                    Field::choice("behaviour", "Behaviour", behaviour, &behaviours),
                    Field::number("move", "Move", a.move_points.into(), steps),
                    Field::number("range", "Range (0: melee only)", a.range.into(), steps),
                    Field::number(
                        "same_type_count",
                        "Enemies of its type, itself included",
                        a.same_type_count.into(),
                        (1, i64::from(MAX_STEPS)),
                    ),
                    Field::choice(
                        "current_target",
                        "Current target",
                        a.current_target.as_deref().unwrap_or(NONE),
                        &heroes,
                    ),
                    Field::number(
                        "retreat_roll",
                        "Retreat roll (0: both results)",
                        c.retreat_roll.map_or(0, i64::from),
                        (0, i64::from(MAX_ROLL)),
                    ),
                ]);
            }
            Case::Placement(c) => {
                let tiles: Vec<&str> = c.board.tiles.iter().map(|t| t.name.as_str()).collect();
                out.extend([
                    Field::choice("fight_tile", "Fight tile", &c.fight_tile, &tiles),
                    Field::flag("ambush", "Ambush", c.ambush),
                    Field::flag(
                        "triggered_before_anyone_moved",
                        "Ambush before anyone moved",
                        c.triggered_before_anyone_moved,
                    ),
                    Field::number(
                        "groups",
                        "Enemy groups",
                        c.groups.len() as i64,
                        (0, MAX_GROUPS as i64),
                    ),
                ]);
                group_fields(c, &mut out);
            }
        }
        let Some(s) = selected else {
            return out;
        };
        match (figure_at(p, s), p) {
            (Some(Fig::Hero(i)), p) => {
                let h = &p.heroes()[i];
                out.push(Field::text("name", "Hero's name", &h.name));
                out.push(Field::number(
                    "markers",
                    "Shootout markers",
                    h.markers.into(),
                    (0, MAX_SMALL.into()),
                ));
                if let Case::Targeting(c) = p {
                    out.push(Field::flag(
                        "targeted",
                        "Already targeted by its type this turn",
                        c.active.targeted_by_same_type.contains(&h.name),
                    ));
                }
            }
            (Some(Fig::Active), Case::Targeting(c)) => {
                out.push(Field::text("name", "Enemy's name", &c.active.name));
            }
            (Some(Fig::Enemy(i)), Case::Targeting(c)) => {
                out.push(Field::text("name", "Enemy's name", &c.enemies[i].name));
            }
            _ => {}
        }
        if let Some(t) = tile_at(p.board(), s) {
            let t = &p.board().tiles[t];
            let side = (1, i64::from(MAX_SIDE));
            out.push(Field::text("tile.name", "Tile's name", &t.name));
            out.push(Field::number("tile.w", "Tile's width", t.w.into(), side));
            out.push(Field::number("tile.h", "Tile's height", t.h.into(), side));
        }
        out
    }

    fn set(p: &mut Case, selected: Option<Sq>, field: &str, value: Value) -> Result<(), String> {
        let fields = Self::fields(p, selected);
        let Some(f) = fields.iter().find(|f| f.id == field) else {
            return Err(format!("no field `{field}` here"));
        };
        check(f, &value)?;
        let v = &value;
        if let Some(rest) = field.strip_prefix("group.") {
            let (i, g) = rest.split_once('.').unwrap_or((rest, ""));
            let i: usize = i.parse().map_err(|_| format!("no field `{field}` here"))?;
            let Case::Placement(c) = p else {
                return Err(format!("no field `{field}` here"));
            };
            return set_group(c, i.saturating_sub(1), g, v);
        }
        let at = selected.and_then(|s| figure_at(p, s));
        match (field, &mut *p) {
            ("kind", _) => {
                let next = match (word(v)?, &*p) {
                    ("Placement", Case::Targeting(c)) => Case::Placement(to_placement(c)),
                    ("Targeting", Case::Placement(c)) => Case::Targeting(to_targeting(c)?),
                    _ => return Ok(()),
                };
                *p = next;
            }
            ("id", Case::Placement(c)) => word(v)?.clone_into(&mut c.id),
            ("id", Case::Targeting(c)) => word(v)?.clone_into(&mut c.id),
            ("expect", _) => {
                if !flag(v)? {
                    match p {
                        Case::Placement(c) => c.expect = None,
                        Case::Targeting(c) => c.expect = None,
                    }
                } else if !p.has_expect() {
                    record_expect(p)?;
                }
            }
            ("behaviour", Case::Targeting(c)) => {
                let w = word(v)?;
                if let Some(b) = BEHAVIOURS.iter().find(|b| b.0 == w) {
                    c.active.behaviour = b.1;
                }
            }
            ("move", Case::Targeting(c)) => c.active.move_points = whole(v)?,
            ("range", Case::Targeting(c)) => c.active.range = whole(v)?,
            ("same_type_count", Case::Targeting(c)) => c.active.same_type_count = whole(v)?,
            ("current_target", Case::Targeting(c)) => {
                let w = word(v)?;
                c.active.current_target = (w != NONE).then(|| w.to_string());
            }
            ("retreat_roll", Case::Targeting(c)) => {
                let r: u8 = whole(v)?;
                c.retreat_roll = (r > 0).then_some(r);
            }
            ("fight_tile", Case::Placement(c)) => word(v)?.clone_into(&mut c.fight_tile),
            ("ambush", Case::Placement(c)) => c.ambush = flag(v)?,
            ("triggered_before_anyone_moved", Case::Placement(c)) => {
                c.triggered_before_anyone_moved = flag(v)?;
            }
            ("groups", Case::Placement(c)) => set_groups(c, whole(v)?)?,
            ("name", _) => {
                let new = word(v)?.to_string();
                match (at, &mut *p) {
                    (Some(Fig::Hero(i)), _) => {
                        let old = p.heroes()[i].name.clone();
                        rename_hero(p, &old, &new);
                    }
                    (Some(Fig::Active), Case::Targeting(c)) => c.active.name = new,
                    (Some(Fig::Enemy(i)), Case::Targeting(c)) => c.enemies[i].name = new,
                    _ => return Err("no figure there".into()),
                }
            }
            ("markers", _) => {
                if let Some(Fig::Hero(i)) = at {
                    p.heroes_mut()[i].markers = whole(v)?;
                }
            }
            ("targeted", Case::Targeting(c)) => {
                if let Some(Fig::Hero(i)) = at {
                    let name = &c.heroes[i].name;
                    let list = &mut c.active.targeted_by_same_type;
                    list.retain(|n| n != name);
                    if flag(v)? {
                        list.push(name.clone());
                    }
                }
            }
            ("tile.name" | "tile.w" | "tile.h", _) => {
                let Some(t) = selected.and_then(|s| tile_at(p.board(), s)) else {
                    return Err("no tile there".into());
                };
                match field {
                    "tile.name" => {
                        let new = word(v)?.to_string();
                        let old = std::mem::replace(&mut p.board_mut().tiles[t].name, new.clone());
                        // The fight tile is named: it follows its tile.
                        if let Case::Placement(c) = p
                            && c.fight_tile == old
                        {
                            c.fight_tile = new;
                        }
                    }
                    "tile.w" => p.board_mut().tiles[t].w = whole(v)?,
                    _ => p.board_mut().tiles[t].h = whole(v)?,
                }
            }
            _ => return Err(format!("no field `{field}` here")),
        }
        Ok(())
    }

    /// The model whose targeting is under way, else the next to activate this round (once the
    /// move being walked is done), as a `Targeting` case: the scenario's tiles and wall squares, the
    /// standing heroes, the other models on the board and the model's group as the game reads it.
    fn arrange(
        state: &State,
        change: &crate::rules::lab::Arrangement,
    ) -> Result<super::Action, String> {
        crate::rules::lab::tried::<Brimstone>(state, super::Action::Arrange(change.clone()))
    }

    /// Enemy model `figure` activating as if it were its turn now (with the retreat roll made,
    /// when it is), the move of a model before it still to be walked.
    fn foe_moment(state: &State, figure: u32) -> Result<Case, String> {
        let m = (figure as usize)
            .checked_sub(state.heroes.len())
            .ok_or_else(|| "not an enemy: the players move it".to_string())?;
        match state.stage {
            Stage::Threat => return Err("the enemies are being drawn: none activates yet".into()),
            Stage::Placement => {
                return Err("the enemies are being placed: none activates yet".into());
            }
            Stage::Over { .. } => {
                return Err("the fight is over: no enemy activates any more".into());
            }
            _ => {}
        }
        let now = moment_model(state).ok();
        let retreat = now
            .as_ref()
            .filter(|(model, ..)| *model == m)
            .and_then(|(_, r, _)| *r);
        let moving = now.and_then(|(_, _, mv)| mv).filter(|mv| mv.model != m);
        targeting_of(state, m, retreat, moving.as_ref()).map(Case::Targeting)
    }

    /// The model's group: when it acts this round, and whether it has.
    fn foe_card(state: &State, figure: u32) -> Vec<String> {
        let Some(x) = (figure as usize)
            .checked_sub(state.heroes.len())
            .and_then(|m| state.models.get(m))
        else {
            return Vec::new();
        };
        let spec = state.spec(x.group);
        let group = Actor::Group(x.group);
        let when = match (spec.initiative, state.groups[x.group].rolled) {
            (Initiative::Variable, None) => "initiative to be rolled".to_string(),
            _ => format!("initiative {}", state.initiative(group)),
        };
        let acted = if state.acted.contains(&group) {
            "has acted this round"
        } else {
            "still to act this round"
        };
        vec![format!("{} · {when} · {acted}", spec.name)]
    }

    fn moment(state: &State) -> Result<Case, String> {
        if state.stage == Stage::Placement {
            return placement_of(state).map(Case::Placement);
        }
        let (model, retreat, moving) = moment_model(state)?;
        targeting_of(state, model, retreat, moving.as_ref()).map(Case::Targeting)
    }

    fn answer(p: &Case) -> Answer {
        let (solved, w) = match worked(p) {
            Ok(x) => x,
            Err(e) => {
                return Answer {
                    summary: e.message.clone(),
                    text: e.message,
                    ..Answer::default()
                };
            }
        };
        let (summary, choices, why) = match (p, w) {
            (Case::Targeting(c), Some(Worked::Targeting(act))) => {
                let (s, ch) = targeting_answer(c, &act);
                (s, ch, act.outcomes.trace)
            }
            (Case::Placement(c), Some(Worked::Placement(placed))) => {
                let (s, ch) = placement_answer(c, &placed);
                let why = placed.map(|pl| pl.layouts.trace).unwrap_or_default();
                (s, ch, why)
            }
            // A board case always works out as a board case.
            _ => (solved.text.clone(), Vec::new(), Vec::new()),
        };
        Answer {
            summary: summary + &verdict_words(solved.verdict.as_ref()),
            choices,
            why,
            text: solved.text,
        }
    }
}
