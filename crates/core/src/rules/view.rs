//! The plain-data picture of a game that the 3D table draws, filled by every rule module.
//!
//! It holds the grid, cells with their ground, walls between cells, figures and what the rules want
//! lit up. The table draws it without knowing the module.

use serde::{Deserialize, Serialize};

use crate::modifiers::fraction::Fraction;

/// A cell's key: axial `(q, r)` on hex boards, `(x, y)` on square ones.
pub type CellKey = (i32, i32);

/// The shape of the board's cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub enum GridKind {
    /// Flat-topped hexes named by axial `(q, r)`.
    #[default]
    Hex,
    /// Unit squares named by `(x, y)`.
    Square,
}

/// The kinds of ground the table can draw, one colour and shape each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Ground {
    /// Plain ground.
    Floor,
    /// Blocks walking, not sight.
    Obstacle,
    /// A trap.
    Trap,
    /// Hazardous terrain.
    Hazard,
    /// Difficult terrain: dearer to walk on.
    Difficult,
    /// Icy terrain.
    Icy,
    /// A wall cell.
    Wall,
    /// Woods: dearer to walk on, and cover against shots (goal-priority boards).
    Woods,
    /// A Dome: nobody walks in, a hero inside is out of every foe's reach (goal-priority boards).
    Dome,
    /// A gap space of a Dome key: plain ground that belongs to the key (goal-priority boards).
    DomeGap,
    /// An adventure space: plain ground the heroes explore and the foes capture; tokens say which
    /// side closed it (goal-priority boards).
    Adventure,
    /// Not on the board: a place the position lab may add to it, drawn faintly.
    Outside,
    /// Plain ground that is a way out: a character ending its turn there leaves the scenario
    /// (Gloomhaven-family escapes).
    Exit,
}

impl Ground {
    /// The ground's name in labels.
    pub const fn name(self) -> &'static str {
        match self {
            Ground::Floor => "floor",
            Ground::Obstacle => "obstacle",
            Ground::Trap => "trap",
            Ground::Hazard => "hazardous terrain",
            Ground::Difficult => "difficult terrain",
            Ground::Icy => "icy terrain",
            Ground::Wall => "wall",
            Ground::Woods => "woods",
            Ground::Dome => "Dome",
            Ground::DomeGap => "gap space",
            Ground::Adventure => "adventure space",
            Ground::Outside => "off the board",
            Ground::Exit => "exit",
        }
    }
}

/// One board cell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CellInfo {
    /// Which cell.
    pub key: CellKey,
    /// What it is made of.
    pub ground: Ground,
    /// A door stands on it.
    pub door: bool,
    /// The place the scenario names it part of (an adventure, a tile, a room), for players to read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub place: Option<String>,
}

/// Which side a figure fights on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Side {
    /// A hero.
    Hero,
    /// A foe the rules play.
    Foe,
    /// A figure fighting beside the heroes.
    Ally,
}

/// One figure on (or fallen from) the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FigureInfo {
    /// The figure's id on the table, stable for the whole game.
    pub id: u32,
    /// The figure's name.
    pub name: String,
    /// Which side it fights on.
    pub side: Side,
    /// An elite foe.
    pub elite: bool,
    /// 0 once it died or is out of the game.
    pub hp: i32,
    /// Hit points when unhurt; 0 where none are kept (a position of the lab, whose case files
    /// have no hit points), and the table draws no bar.
    pub max_hp: i32,
    /// Its conditions, by name.
    pub conditions: Vec<String>,
    /// Where it stands (or last stood).
    pub cell: CellKey,
    /// Hot-seat player owning this figure (heroes only).
    pub owner: Option<u8>,
    /// A colour index so figures of one side stay distinguishable.
    pub tint: usize,
    /// What the mini carries: how it fights, at a glance.
    pub gear: Gear,
    /// It never moves from where it was placed.
    pub rooted: bool,
    /// Its printed card as the rules name its stats and ratings, a line each ("Move 3", "Wits 4"),
    /// with what the state adds to it (cards in hand, a weapon's range), for the figure's card at
    /// the table.
    pub card: Vec<String>,
}

/// What a mini carries, so its way of fighting reads on the board before any name plate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize)]
pub enum Gear {
    /// Nothing in hand: heroes, and figures whose rules name no way of fighting.
    #[default]
    Bare,
    /// A blade: fights next to its target.
    Blade,
    /// A bow: shoots from afar.
    Bow,
    /// A blade and a bow: either, as the fight asks.
    BladeAndBow,
    /// A shapeless blob that swallows what stands around it.
    Ooze,
    /// A pair of guns: trades shots and backs away.
    Guns,
    /// A staff: helps its side and keeps away from the fight.
    Staff,
}

/// Tokens lying on cells (money, loot), drawn as small piles.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TokenInfo {
    /// Which cell.
    pub cell: CellKey,
    /// What lies there, in a few characters.
    pub label: String,
}

/// The whole picture.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct TableView {
    /// The kind of grid.
    pub grid: GridKind,
    /// Every board cell.
    pub cells: Vec<CellInfo>,
    /// Walls along the shared edge of two neighbouring cells.
    pub thin_walls: Vec<(CellKey, CellKey)>,
    /// Every figure.
    pub figures: Vec<FigureInfo>,
    /// Every token.
    pub tokens: Vec<TokenInfo>,
    /// The figure whose turn it is.
    pub active: Option<u32>,
    /// A few words about where the game stands ("Mara's turn", "victory!").
    pub banner: String,
    /// The round.
    pub round: u32,
    /// Small windows of what the rules hold now (the round's override card, …).
    pub panels: Vec<Panel>,
    /// The chance of each number of hits of a roll declared and not yet over.
    pub odds: Option<Odds>,
    /// While a tie waits for the players: why the rules leave it to them, in words, so the table
    /// says it before the pick (a module whose own tie window says it may leave it empty).
    pub tie: Option<String>,
}

/// A small window of the table: a title and its lines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Panel {
    /// The window's title.
    pub title: String,
    /// Its lines.
    pub lines: Vec<String>,
}

/// The exact chance of every number of hits of a roll: shown before and while its dice are rolled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Odds {
    /// Who rolls for what ("Sam shoots the Gnawer").
    pub what: String,
    /// The dice's sides.
    pub sides: u32,
    /// What a die must show to hit.
    pub needed: u32,
    /// The chance of `k` hits at index `k`, for `0..=dice`.
    pub chances: Vec<Fraction>,
    /// The dice of this roll already rolled.
    pub rolled: Vec<u32>,
    /// The whole attack the roll belongs to, every die of it (to hit, then defense or damage, and
    /// what is added to them), before any is rolled; `None` when the roll is all there is.
    pub whole: Option<WholeAttack>,
}

/// The exact chance of every number of wounds a whole attack deals.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WholeAttack {
    /// What is counted ("wounds to Gnawer 2; 2 take it out").
    pub what: String,
    /// The chance of `k` wounds at index `k`, from 0 up to what takes the target out.
    pub wounds: Vec<Fraction>,
}

/// Something the table shows for a moment as the rules play: who aims at whom, a step walked, a
/// die that lands, a random pick, a foe's walk down its options, a wound.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Show {
    /// A figure aims at others (ids of [`FigureInfo`]).
    Aim {
        /// The figure aiming.
        by: u32,
        /// Those it aims at.
        at: Vec<u32>,
    },
    /// A figure moved from one cell to another.
    Step {
        /// The figure.
        figure: u32,
        /// From.
        from: CellKey,
        /// To.
        to: CellKey,
    },
    /// A roll begins: the dice after this go in a fresh tray.
    Roll {
        /// Who rolls for what ("Sam attacks the Gnawer").
        what: String,
    },
    /// A die landed.
    Die {
        /// What it was rolled for ("to hit").
        what: String,
        /// Its sides.
        sides: u32,
        /// What it shows.
        roll: u32,
        /// What it needed to succeed (1: every roll counts, as for damage).
        needed: u32,
    },
    /// Chance picked one of several options.
    Pick {
        /// The options.
        among: Vec<String>,
        /// The one picked (index into `among`).
        chosen: usize,
    },
    /// A foe walked its list of options.
    Walk {
        /// The foe's name.
        who: String,
        /// The walk, one line per step.
        lines: Vec<String>,
        /// The line of the option taken, if one names it.
        chosen: Option<usize>,
    },
    /// A few words over a figure (a wound: `harm`).
    Over {
        /// The figure.
        figure: u32,
        /// The words.
        text: String,
        /// Harm (red) rather than help (green).
        harm: bool,
    },
}

/// How a table that several players share tells an event's log line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Telling {
    /// Said at once.
    Public,
    /// Kept back until the next [`Telling::Reveal`] (a card chosen in secret); `public` is what
    /// is said meanwhile ("Mara has chosen").
    Secret {
        /// The words said in its place.
        public: String,
    },
    /// The lines kept back are said before this one (the cards are revealed).
    Reveal,
}
