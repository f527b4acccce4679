//! Where the enemies of a new fight go: normal placement on the fight tile (a checkerboard from the
//! tile's back-left corner) or one of the four ambush styles, group by group in initiative order.

use super::choices::{Branches, Kind, Pending, Walk, fixed, settle};
use super::{Hero, join_names, join_squares, square_name};
use crate::decision::{ChosenBy, Decision};
use crate::square::{Square, SquareBoard, UNREACHABLE, adjacent};
use serde::{Deserialize, Serialize};

/// A group's initiative: printed, or rolled each turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Initiative {
    /// The printed initiative.
    Fixed(u32),
    /// Rolled each turn.
    Variable,
}

/// The keyword that decides how a group is placed in an ambush.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Style {
    /// Each model goes next to a hero drawn for it.
    Plain,
    /// The whole group goes as far as it can from one drawn hero, on the hero's tile, then the tiles around it.
    Shootout,
    /// Placed as `Shootout`.
    Support,
    /// As `Shootout`, but only ever on the hero's tile.
    Immobile,
}

/// One enemy group: one enemy type, its models in the order they are placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The enemy type.
    pub name: String,
    /// Its initiative.
    pub initiative: Initiative,
    /// How it is placed in an ambush.
    pub style: Style,
    /// The hero a non-`Plain` ambush falls on when that draw is already made (index into heroes).
    pub ambushed_hero: Option<usize>,
    /// Its models, in the order they are placed.
    pub models: Vec<String>,
}

/// A fight about to start.
#[derive(Debug, Clone, Copy)]
pub struct Fight<'a> {
    /// The board.
    pub board: &'a SquareBoard,
    /// The heroes on it.
    pub heroes: &'a [Hero],
    /// The enemy groups of the fight (placement orders them by initiative).
    pub groups: &'a [Group],
    /// Index of the tile a normal fight is placed on.
    pub fight_tile: usize,
    /// The fight starts as an ambush.
    pub ambush: bool,
    /// The ambush was triggered before any model moved this turn.
    pub triggered_before_anyone_moved: bool,
}

/// Where every model went, for one allowed result.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Layout {
    /// `(model, square)` for every placed model, sorted by model name.
    pub at: Vec<(String, Square)>,
    /// Models left off the board, sorted.
    pub unplaced: Vec<String>,
    /// Who settles which layout it is.
    pub chosen_by: ChosenBy,
}

/// The start of a fight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// +2 initiative for the enemies on the first turn of an ambush.
    pub initiative_bonus: u32,
    /// The ambush ends the current turn at once.
    pub ends_turn: bool,
    /// Every allowed layout.
    pub layouts: Decision<Layout>,
}

/// Placement stops exploring past this many complete layouts (counted with repeats).
pub const MAX_BRANCHES: usize = 250_000;

/// Why a placement could not be worked out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlacementError {
    /// More layouts than [`MAX_BRANCHES`] to explore.
    TooManyBranches,
}

impl std::fmt::Display for PlacementError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlacementError::TooManyBranches => write!(
                f,
                "the placement branches into more than {MAX_BRANCHES} ways: expected a smaller fight"
            ),
        }
    }
}

impl std::error::Error for PlacementError {}

/// The groups in placement order, as blocks of groups tied with each other (players order a block).
/// Variable initiative first, then fixed: lowest first normally, highest first in an ambush.
pub(crate) fn order_blocks(groups: &[Group], ambush: bool) -> Vec<Vec<usize>> {
    let key = |g: &Group| match g.initiative {
        Initiative::Variable => (0, 0),
        Initiative::Fixed(n) if ambush => (1, -i64::from(n)),
        Initiative::Fixed(n) => (1, i64::from(n)),
    };
    let mut idx: Vec<usize> = (0..groups.len()).collect();
    idx.sort_by_key(|&i| key(&groups[i]));
    let mut blocks: Vec<Vec<usize>> = Vec::new();
    for i in idx {
        match blocks.last_mut() {
            Some(b) if key(&groups[b[0]]) == key(&groups[i]) => b.push(i),
            _ => blocks.push(vec![i]),
        }
    }
    blocks
}

/// Every full order of the groups the tied blocks allow, in lexicographic order of block permutations.
fn all_orders(blocks: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut orders = vec![Vec::new()];
    for block in blocks {
        let perms = permutations(block);
        orders = orders
            .iter()
            .flat_map(|o| {
                perms.iter().map(move |p| {
                    let mut o = o.clone();
                    o.extend_from_slice(p);
                    o
                })
            })
            .collect();
    }
    orders
}

fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, first);
            out.push(p);
        }
    }
    out
}

/// The fight tile's squares in normal-placement order.
///
/// First the checkerboard from the back-left corner, row by row from the back, left to right; then
/// the skipped squares in the same order. Walls are left out (they are never free).
pub(crate) fn normal_order(board: &SquareBoard, tile: usize) -> Vec<usize> {
    let t = &board.tiles()[tile];
    let (left, back) = t.back_left();
    let mut pattern = Vec::new();
    let mut rest = Vec::new();
    for y in (t.y..t.y + t.h).rev() {
        for x in t.x..t.x + t.w {
            if let Some(i) = board.index_of((x, y)) {
                if ((x - left) + (back - y)) % 2 == 0 {
                    pattern.push(i);
                } else {
                    rest.push(i);
                }
            }
        }
    }
    pattern.extend(rest);
    pattern
}

/// Places the enemies of a new fight: every allowed layout, each with who settles it.
pub fn place(fight: &Fight) -> Result<Placement, PlacementError> {
    let walk = Walk::all();
    let (branches, run, mut trace) = walk_placement(fight, &walk)?;
    let mut layouts: Vec<Layout> = settle(branches)
        .into_iter()
        .map(|(key, chosen_by)| run.layout(&key, chosen_by))
        .collect();
    layouts.sort();
    trace.push(format!(
        "{} allowed layout{}",
        layouts.len(),
        if layouts.len() == 1 { "" } else { "s" }
    ));
    Ok(Placement {
        initiative_bonus: if fight.ambush { 2 } else { 0 },
        ends_turn: fight.ambush && !fight.triggered_before_anyone_moved,
        layouts: Decision {
            options: layouts,
            trace,
        },
    })
}

/// One step of a placement in a game: the layout the picks made so far lead to, or the next choice
/// they leave open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// The picks settle the placement.
    Done {
        /// Where every model goes (`chosen_by` is `Fixed`: nothing is left to choose).
        layout: Layout,
        /// What the rules did, in words.
        trace: Vec<String>,
    },
    /// The next choice: a random pick or the players' tie.
    Choice(Pending),
}

/// Places the enemies along `picks` (one per real choice met, in order): the same rules as
/// [`place`], met one choice at a time. `Ok(None)` when the picks go past the rules' choices.
pub fn place_along(fight: &Fight, picks: &[usize]) -> Result<Option<Step>, PlacementError> {
    let walk = Walk::along(picks);
    let (branches, run, trace) = walk_placement(fight, &walk)?;
    if let Some(p) = walk.pending() {
        return Ok(Some(Step::Choice(p)));
    }
    if walk.unused() > 0 {
        return Ok(None);
    }
    Ok(settle(branches)
        .into_iter()
        .next()
        .map(|(key, chosen_by)| Step::Done {
            layout: run.layout(&key, chosen_by),
            trace,
        }))
}

type Walked<'a> = (Branches<Key>, Run<'a>, Vec<String>);

fn walk_placement<'a>(fight: &'a Fight<'a>, walk: &'a Walk) -> Result<Walked<'a>, PlacementError> {
    let mut trace = Vec::new();
    let blocks = order_blocks(fight.groups, fight.ambush);
    if !fight.ambush {
        let board = fight.board;
        let tile = &board.tiles()[fight.fight_tile];
        trace.push(format!(
            "Normal placement on tile {}: the checkerboard from its back-left corner {}, back row first, \
             left to right, then the skipped squares",
            tile.name,
            square_name(tile.back_left())
        ));
    }
    let block_names: Vec<String> = blocks
        .iter()
        .map(|b| {
            let names: Vec<&str> = b.iter().map(|&g| fight.groups[g].name.as_str()).collect();
            if names.len() > 1 {
                format!("{} (tied: the players order them)", join_names(&names))
            } else {
                names[0].to_string()
            }
        })
        .collect();
    trace.push(format!(
        "{}: groups placed in the order {}",
        if fight.ambush {
            "Ambush: variable initiative first, then highest initiative first"
        } else {
            "Normal placement: variable initiative first, then lowest initiative first"
        },
        block_names.join(", then ")
    ));
    let mut run = Run::new(fight, walk);
    let orders = all_orders(&blocks);
    let order_name = |i: usize| {
        let names: Vec<&str> = orders[i]
            .iter()
            .map(|&g| fight.groups[g].name.as_str())
            .collect();
        names.join(", then ")
    };
    walk.why(|| {
        "groups of the same initiative: the players choose the order they are placed in".to_string()
    });
    let branches = walk.try_choose_n(Kind::Players, orders.len(), order_name, |i| {
        run.order = orders[i].clone();
        run.next(0, 0)
    })?;
    run.describe(&mut trace);
    Ok((branches, run, trace))
}

/// A layout while it is being built: the square of each model (global model index), if placed.
type Key = Vec<Option<u16>>;

/// The depth-first walk over the placement's choices, with the board state it changes and restores.
struct Run<'a> {
    fight: &'a Fight<'a>,
    /// How the choices are met: all of them, or along a game's picks.
    walk: &'a Walk,
    order: Vec<usize>,
    /// Global index of the first model of each group.
    first_model: Vec<usize>,
    occupied: Vec<bool>,
    key: Key,
    /// Walking distance from each hero to every square.
    hero_dist: Vec<Vec<u32>>,
    /// The hero of the group being placed (non-`Plain` ambush).
    group_hero: Option<usize>,
    /// Heroes picked for earlier models of the group being placed (`Plain` ambush).
    picked: Vec<bool>,
    normal: Vec<usize>,
    leaves: usize,
    notes: Vec<String>,
}

impl<'a> Run<'a> {
    fn new(fight: &'a Fight<'a>, walk: &'a Walk) -> Self {
        let board = fight.board;
        let mut occupied = vec![false; board.len()];
        let hero_at: Vec<usize> = fight
            .heroes
            .iter()
            .map(|h| board.index_of(h.at).expect("heroes stand on board squares"))
            .collect();
        for &i in &hero_at {
            occupied[i] = true;
        }
        let mut first_model = Vec::new();
        let mut total = 0;
        for g in fight.groups {
            first_model.push(total);
            total += g.models.len();
        }
        Run {
            fight,
            walk,
            order: Vec::new(),
            first_model,
            occupied,
            key: vec![None; total],
            hero_dist: if fight.ambush {
                hero_at.iter().map(|&i| board.distances_from(i)).collect()
            } else {
                Vec::new()
            },
            group_hero: None,
            picked: vec![false; fight.heroes.len()],
            normal: if fight.ambush {
                Vec::new()
            } else {
                normal_order(board, fight.fight_tile)
            },
            leaves: 0,
            notes: Vec::new(),
        }
    }

    fn note(&mut self, line: String) {
        if !self.notes.contains(&line) && self.notes.len() < 64 {
            self.notes.push(line);
        }
    }

    fn describe(&self, trace: &mut Vec<String>) {
        trace.extend(self.notes.iter().cloned());
    }

    /// Every layout reachable from model `model` of the `pos`-th group in the order.
    fn next(&mut self, pos: usize, model: usize) -> Result<Branches<Key>, PlacementError> {
        let Some(&g) = self.order.get(pos) else {
            self.leaves += 1;
            if self.leaves > MAX_BRANCHES {
                return Err(PlacementError::TooManyBranches);
            }
            return Ok(fixed(self.key.clone()));
        };
        let fight = self.fight;
        let group = &fight.groups[g];
        if model == group.models.len() {
            return self.next(pos + 1, 0);
        }
        if model == 0 {
            self.picked.iter_mut().for_each(|p| *p = false);
        }
        if !fight.ambush {
            let square = self.normal_square();
            let line = match square {
                Some(i) => format!(
                    "{}: {} takes the first free square in order: {}",
                    group.name,
                    group.models[model],
                    square_name(fight.board.square(i))
                ),
                None => format!(
                    "{}: {} finds no free square on the fight tile → unplaced",
                    group.name, group.models[model]
                ),
            };
            self.note(line);
            return self.put(pos, model, square);
        }
        match group.style {
            Style::Plain => self.plain(pos, model),
            _ if model == 0 => match group.ambushed_hero {
                Some(h) => {
                    let name = &fight.heroes[h].name;
                    self.note(format!("{}: ambushes {name} (given)", group.name));
                    self.group_hero = Some(h);
                    self.far(pos, model)
                }
                None => {
                    self.note(format!(
                        "{}: the hero it ambushes is drawn at random among all heroes",
                        group.name
                    ));
                    let walk = self.walk;
                    walk.try_choose_n(
                        Kind::Random,
                        fight.heroes.len(),
                        |h| format!("{} ambushes {}", group.name, fight.heroes[h].name),
                        |h| {
                            self.group_hero = Some(h);
                            self.far(pos, model)
                        },
                    )
                }
            },
            _ => self.far(pos, model),
        }
    }

    fn normal_square(&self) -> Option<usize> {
        self.normal.iter().copied().find(|&i| !self.occupied[i])
    }

    /// Puts the current model on `square` (or leaves it off the board) and goes on.
    fn put(
        &mut self,
        pos: usize,
        model: usize,
        square: Option<usize>,
    ) -> Result<Branches<Key>, PlacementError> {
        let g = self.order[pos];
        let slot = self.first_model[g] + model;
        self.key[slot] = square.map(|i| i as u16);
        if let Some(i) = square {
            self.occupied[i] = true;
        }
        let out = self.next(pos, model + 1);
        if let Some(i) = square {
            self.occupied[i] = false;
        }
        self.key[slot] = None;
        out
    }

    /// Players' choice among `squares` (none: the model stays off the board).
    fn put_any(
        &mut self,
        pos: usize,
        model: usize,
        squares: Vec<usize>,
    ) -> Result<Branches<Key>, PlacementError> {
        if squares.is_empty() {
            return self.put(pos, model, None);
        }
        let walk = self.walk;
        let board = self.fight.board;
        let name = &self.fight.groups[self.order[pos]].name;
        walk.why(|| {
            format!(
                "{name} {}: {} squares are equally good: the players choose",
                model + 1,
                squares.len()
            )
        });
        walk.try_choose_n(
            Kind::Players,
            squares.len(),
            |i| {
                // The model and the tile read with the square, in the log and on the tie's
                // buttons.
                let at = board.square(squares[i]);
                let tile = &board.tiles()[board.tile_of(squares[i])].name;
                format!("{name} {} on {}, {tile}", model + 1, square_name(at))
            },
            |i| self.put(pos, model, Some(squares[i])),
        )
    }

    /// `Plain` ambush: a random hero per model, then any free square next to it.
    fn plain(&mut self, pos: usize, model: usize) -> Result<Branches<Key>, PlacementError> {
        let fight = self.fight;
        let group = &fight.groups[self.order[pos]];
        let heroes = fight.heroes;
        let spread = heroes.len() > group.models.len();
        let mut candidates: Vec<usize> = (0..heroes.len())
            .filter(|&h| !(spread && self.picked[h]))
            .collect();
        if candidates.is_empty() {
            candidates = (0..heroes.len()).collect();
        }
        if model == 0 {
            self.note(format!(
                "{}: each model ambushes a hero drawn at random{}; the players put it next to that hero",
                group.name,
                if spread {
                    " (more heroes than models: no hero twice)"
                } else {
                    ""
                }
            ));
        }
        let walk = self.walk;
        walk.try_choose_n(
            Kind::Random,
            candidates.len(),
            |i| {
                format!(
                    "{} ambushes {}",
                    group.models[model], heroes[candidates[i]].name
                )
            },
            |i| {
                let h = candidates[i];
                let squares = self.next_to(h);
                let was = std::mem::replace(&mut self.picked[h], true);
                let out = self.put_any(pos, model, squares);
                self.picked[h] = was;
                out
            },
        )
    }

    /// Free squares adjacent to hero `h`, or else the free squares it can walk to soonest.
    fn next_to(&self, h: usize) -> Vec<usize> {
        let board = self.fight.board;
        let at = self.fight.heroes[h].at;
        let free = |i: usize| !self.occupied[i];
        let beside: Vec<usize> = (0..board.len())
            .filter(|&i| free(i) && adjacent(board.square(i), at))
            .collect();
        if !beside.is_empty() {
            return beside;
        }
        let dist = &self.hero_dist[h];
        let least = (0..board.len())
            .filter(|&i| free(i))
            .map(|i| dist[i])
            .min()
            .unwrap_or(UNREACHABLE);
        if least == UNREACHABLE {
            return Vec::new();
        }
        (0..board.len())
            .filter(|&i| free(i) && dist[i] == least)
            .collect()
    }

    /// `Shootout`, `Support`, `Immobile`: the farthest free square from the group's hero, on its tile,
    /// then (not `Immobile`) on the tiles sharing a side with it.
    fn far(&mut self, pos: usize, model: usize) -> Result<Branches<Key>, PlacementError> {
        let fight = self.fight;
        let group = &fight.groups[self.order[pos]];
        let board = fight.board;
        let h = self
            .group_hero
            .expect("the group's hero is drawn before its first model");
        let dist = &self.hero_dist[h];
        let hero_tile = board.tile_of(board.index_of(fight.heroes[h].at).unwrap_or(0));
        let usable = |i: usize| !self.occupied[i] && dist[i] != UNREACHABLE;
        let farthest = |on: &dyn Fn(usize) -> bool| -> Vec<usize> {
            let best = (0..board.len())
                .filter(|&i| usable(i) && on(board.tile_of(i)))
                .map(|i| dist[i])
                .max();
            match best {
                Some(d) => (0..board.len())
                    .filter(|&i| usable(i) && on(board.tile_of(i)) && dist[i] == d)
                    .collect(),
                None => Vec::new(),
            }
        };
        let mut squares = farthest(&|t| t == hero_tile);
        let mut overflow = false;
        if squares.is_empty() && group.style != Style::Immobile {
            let near = board.adjacent_tiles(hero_tile);
            squares = farthest(&|t| near.contains(&t));
            overflow = true;
        }
        let hero = &fight.heroes[h].name;
        let sq: Vec<Square> = squares.iter().map(|&i| board.square(i)).collect();
        let line = match (squares.is_empty(), overflow) {
            (true, _) => format!(
                "{}: {} finds no free square {} → unplaced",
                group.name,
                group.models[model],
                if group.style == Style::Immobile {
                    format!("on {hero}'s tile (Immobile: no overflow)")
                } else {
                    format!("on {hero}'s tile or the tiles beside it")
                }
            ),
            (false, false) => format!(
                "{}: {} goes as far from {hero} as possible on {hero}'s tile: {}",
                group.name,
                group.models[model],
                join_squares(&sq)
            ),
            (false, true) => format!(
                "{}: {hero}'s tile is full, so {} overflows onto the tiles beside it, as far as possible: {}",
                group.name,
                group.models[model],
                join_squares(&sq)
            ),
        };
        self.note(line);
        self.put_any(pos, model, squares)
    }

    fn layout(&self, key: &Key, chosen_by: ChosenBy) -> Layout {
        let mut at = Vec::new();
        let mut unplaced = Vec::new();
        for (g, group) in self.fight.groups.iter().enumerate() {
            for (m, name) in group.models.iter().enumerate() {
                match key[self.first_model[g] + m] {
                    Some(i) => at.push((name.clone(), self.fight.board.square(i as usize))),
                    None => unplaced.push(name.clone()),
                }
            }
        }
        at.sort();
        unplaced.sort();
        Layout {
            at,
            unplaced,
            chosen_by,
        }
    }
}
