//! The board-position puzzle format (`Puzzle(...)` RON files): parsing, validation with positions,
//! conversion to a [`Situation`](super::targeting::Situation), and comparison with expected answers.

use super::preset::{Edition, Overrides, Preset, Setting};
use super::targeting::{Decision, Enemy, MonsterAction, decide};
use crate::error::{LoadError, parse_ron};
use crate::hex::{Hex, HexMap, Terrain, hex, qr};
use crate::rules::case::{Answer, CaseFormat};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// The format's entry in the module kit ([`crate::kit::Module::CASES`]).
pub(crate) const FORMAT: CaseFormat = CaseFormat {
    module: "gloomhaven",
    kinds: &["Puzzle"],
    solve,
    json: solve_json,
};

/// Parses, validates and answers one puzzle: the decision of the active monster.
pub fn solve(file: &str, text: &str) -> Result<Answer, LoadError> {
    let (p, pos) = parse(file, text)?;
    let d = pos.decide();
    let verdict = check(&p, &d).map(|v| {
        if v.passed() {
            Ok(())
        } else {
            Err(format!("missing {:?}, unexpected {:?}", v.missing, v.extra))
        }
    });
    Ok(Answer {
        json: decision_json(&d),
        text: decision_text(&d),
        verdict,
    })
}

/// What a player asks of a puzzle's rules: another preset, and single switches set.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ask {
    /// Another preset than the file's (its overrides then go too).
    pub preset: Option<Preset>,
    /// Switches set on top, in order.
    pub settings: Vec<Setting>,
}

impl Ask {
    /// Whether it asks nothing.
    pub fn is_empty(&self) -> bool {
        self.preset.is_none() && self.settings.is_empty()
    }

    /// The edition asked, from the file's own.
    pub(crate) fn edition(&self, file: Edition) -> Edition {
        let base = match self.preset {
            Some(p) => Edition::of(p),
            None => file,
        };
        Edition {
            switches: self
                .settings
                .iter()
                .fold(base.switches, |sw, s| s.apply(sw)),
            ..base
        }
    }
}

/// The edition in words: the preset, and each switch that differs from it.
pub(crate) fn edition_words(e: Edition) -> String {
    let set: Vec<String> = e
        .switches
        .settings()
        .into_iter()
        .zip(e.preset.switches().settings())
        .filter(|(mine, preset)| mine != preset)
        .map(|(mine, _)| mine)
        .collect();
    if set.is_empty() {
        e.preset.name().to_string()
    } else {
        format!("{} with {}", e.preset.name(), set.join(", "))
    }
}

/// [`solve`] under the rules `ask` names, and how the answer differs from the file's own rules'.
///
/// The file's expectations are for its own rules, so nothing is compared with them here.
pub fn solve_under(file: &str, text: &str, ask: &Ask) -> Result<Answer, LoadError> {
    let (_, pos) = parse(file, text)?;
    let own = pos.decide();
    let asked = Position {
        edition: ask.edition(pos.edition),
        ..pos.clone()
    };
    let d = asked.decide();
    let (only_asked, only_own) = differences(&d, &own);
    let same_focus = d.focus == own.focus;
    let (own_words, asked_words) = (edition_words(pos.edition), edition_words(asked.edition));
    let mut text = format!("  under {asked_words} (the file's rules: {own_words})\n");
    text.push_str(&decision_text(&d));
    if same_focus && only_asked.is_empty() && only_own.is_empty() {
        text.push_str(&format!("  the same as under {own_words}\n"));
    } else {
        text.push_str(&format!("  differs from {own_words}:\n"));
        if !same_focus {
            text.push_str(&format!(
                "    focus {} there, {} here\n",
                fmt_list(&own.focus),
                fmt_list(&d.focus)
            ));
        }
        for (end, targets) in &only_asked {
            text.push_str(&format!(
                "    only here: ends on {}, attacks {}\n",
                fmt_hex(*end),
                fmt_list(targets)
            ));
        }
        for (end, targets) in &only_own {
            text.push_str(&format!(
                "    only there: ends on {}, attacks {}\n",
                fmt_hex(*end),
                fmt_list(targets)
            ));
        }
    }
    let pairs = |v: &[Pair]| -> Value {
        Value::Array(
            v.iter()
                .map(|(e, t)| json!({"end": hex_json(*e), "targets": hexes_json(t)}))
                .collect(),
        )
    };
    let mut json = decision_json(&d);
    if let Value::Object(map) = &mut json {
        map.insert("rules".into(), Value::String(asked_words));
        map.insert(
            "compared_with".into(),
            json!({
                "rules": own_words,
                "focus": hexes_json(&own.focus),
                "only_here": pairs(&only_asked),
                "only_there": pairs(&only_own),
            }),
        );
    }
    Ok(Answer {
        json,
        text,
        verdict: None,
    })
}

/// An outcome as the format scores it: where the monster ends, whom it attacks.
type Pair = (Hex, Vec<Hex>);

/// The (end, targets) pairs of `a` that `b` lacks, and those of `b` that `a` lacks.
fn differences(a: &Decision, b: &Decision) -> (Vec<Pair>, Vec<Pair>) {
    let pairs = |d: &Decision| -> Vec<Pair> {
        d.options
            .iter()
            .map(|o| (o.end, o.targets.clone()))
            .collect()
    };
    let (pa, pb) = (pairs(a), pairs(b));
    (
        pa.iter().filter(|x| !pb.contains(x)).cloned().collect(),
        pb.iter().filter(|x| !pa.contains(x)).cloned().collect(),
    )
}

/// [`solve`]'s JSON object alone: neither the words nor the comparison with the expected answer.
fn solve_json(file: &str, text: &str) -> Result<Value, LoadError> {
    let (_, pos) = parse(file, text)?;
    Ok(decision_json(&pos.decide()))
}

fn hex_json(h: Hex) -> Value {
    json!([h.x, h.y])
}

fn hexes_json(hs: &[Hex]) -> Value {
    Value::Array(hs.iter().map(|h| hex_json(*h)).collect())
}

/// The JSON answer: the focus, every option (end, targets, heading, focus, path, area) and the trace.
pub(crate) fn decision_json(d: &Decision) -> Value {
    let options: Vec<Value> = d
        .options
        .iter()
        .map(|o| {
            json!({
                "end": hex_json(o.end),
                "targets": hexes_json(&o.targets),
                "heading_to": hexes_json(&o.heading_to),
                "focus": hexes_json(&o.focus),
                "path": hexes_json(&o.path),
                "aoe": hexes_json(&o.aoe),
            })
        })
        .collect();
    json!({
        "focus": hexes_json(&d.focus),
        "options": options,
        "trace": d.trace,
    })
}

fn fmt_hex(h: Hex) -> String {
    format!("({}, {})", h.x, h.y)
}

fn fmt_list(hs: &[Hex]) -> String {
    if hs.is_empty() {
        "none".into()
    } else {
        hs.iter()
            .map(|h| fmt_hex(*h))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The answer in words: the focus, one line per option, and the rule steps behind them.
pub(crate) fn decision_text(d: &Decision) -> String {
    let mut s = format!("  focus: {}\n", fmt_list(&d.focus));
    for (i, o) in d.options.iter().enumerate() {
        s.push_str(&format!("  option {}: ends on {}", i + 1, fmt_hex(o.end)));
        if !o.path.is_empty() {
            s.push_str(&format!(" via {}", fmt_list(&o.path)));
        }
        if o.targets.is_empty() {
            s.push_str(", attacks no one");
        } else {
            s.push_str(&format!(", attacks {}", fmt_list(&o.targets)));
        }
        if !o.heading_to.is_empty() {
            s.push_str(&format!(", heading for {}", fmt_list(&o.heading_to)));
        }
        if !o.aoe.is_empty() {
            s.push_str(&format!(" (area on {})", fmt_list(&o.aoe)));
        }
        s.push('\n');
    }
    s.push_str("  why:\n");
    for t in &d.trace {
        s.push_str(&format!("    - {t}\n"));
    }
    s
}

type Qr = (i32, i32);

/// The board of a puzzle, in axial `(q, r)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleMap {
    /// Every hex of the board that is not a wall.
    pub hexes: Vec<Qr>,
    /// Wall hexes.
    #[serde(default)]
    pub walls: Vec<Qr>,
    /// Obstacles: block walking, not sight.
    #[serde(default)]
    pub obstacles: Vec<Qr>,
    /// Traps.
    #[serde(default)]
    pub traps: Vec<Qr>,
    /// Hazardous terrain.
    #[serde(default)]
    pub hazards: Vec<Qr>,
    /// Difficult terrain.
    #[serde(default)]
    pub difficult: Vec<Qr>,
    /// Icy terrain.
    #[serde(default)]
    pub icy: Vec<Qr>,
    /// Thin walls between two neighbouring hexes.
    #[serde(default)]
    pub thin_walls: Vec<(Qr, Qr)>,
}

/// A character the active monster fights.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleEnemy {
    /// Where it stands.
    pub hex: Qr,
    /// Its initiative: lower acts earlier; 0 when the scenario set none (ties are then real ties).
    #[serde(default)]
    pub initiative: u32,
}

/// What the active monster's ability card tells it to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleAction {
    /// Movement points; 0: it does not move.
    #[serde(rename = "move")]
    pub move_points: u32,
    /// Attack range; 0: melee.
    pub range: u32,
    /// Number of targets; 0: no attack.
    pub targets: u32,
    /// Area-of-effect offsets, empty for none.
    #[serde(default)]
    pub aoe: Vec<Qr>,
    /// The area is anchored on the attacker (a melee area).
    #[serde(default)]
    pub aoe_melee: bool,
    /// It flies.
    #[serde(default)]
    pub flying: bool,
    /// It jumps.
    #[serde(default)]
    pub jumping: bool,
    /// It teleports.
    #[serde(default)]
    pub teleport: bool,
    /// It is muddled.
    #[serde(default)]
    pub muddled: bool,
}

/// One expected outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    /// Where the monster ends its move.
    pub end: Qr,
    /// The enemies it attacks.
    pub targets: Vec<Qr>,
    /// The hexes it heads for when it cannot attack its focus this turn.
    #[serde(default)]
    pub heading_to: Vec<Qr>,
    /// The focus (or tied foci) under which this outcome arises; optional.
    #[serde(default)]
    pub focus: Vec<Qr>,
    /// One placement of the area giving these targets; optional.
    #[serde(default)]
    pub aoe_example: Vec<Qr>,
}

/// A puzzle file. The expectations are optional so that a position can be asked without an answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Puzzle {
    /// The puzzle's name, for reports.
    #[serde(default)]
    pub id: String,
    /// The edition of the rules it is posed under.
    pub rules: Preset,
    /// Single switches set otherwise than the preset sets them.
    #[serde(default)]
    pub switches: Overrides,
    /// The board.
    pub map: PuzzleMap,
    /// Where the active monster stands.
    pub active: Qr,
    /// The other monsters: the active monster's allies.
    #[serde(default)]
    pub allies: Vec<Qr>,
    /// The characters, sorted by hex.
    pub enemies: Vec<PuzzleEnemy>,
    /// What its ability card tells it to do.
    pub action: PuzzleAction,
    /// The enemies that are valid foci (`[]`: no focus); `None` when not asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect_focus: Option<Vec<Qr>>,
    /// Every allowed outcome; `None` when not asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<Vec<Expected>>,
}

/// A puzzle turned into rules-core values.
#[derive(Debug, Clone)]
pub struct Position {
    /// The board.
    pub map: HexMap,
    /// Where the active monster stands.
    pub active: Hex,
    /// Its allies.
    pub allies: Vec<Hex>,
    /// Its enemies.
    pub enemies: Vec<Enemy>,
    /// What its ability card tells it to do.
    pub action: MonsterAction,
    /// The edition of the rules it decides by.
    pub edition: Edition,
}

impl Position {
    /// What the rules say the active monster does.
    pub fn decide(&self) -> Decision {
        let s = super::targeting::Situation {
            map: &self.map,
            active: self.active,
            allies: &self.allies,
            enemies: &self.enemies,
            action: &self.action,
            edition: self.edition,
        };
        // `load` validated the position, so this cannot fail; keep a readable answer all the same.
        decide(&s).unwrap_or_else(|e| Decision {
            focus: vec![],
            options: vec![],
            trace: vec![e.to_string()],
        })
    }
}

/// Reads and validates a puzzle file (for tests: the programs read files through their storage).
#[cfg(any(test, feature = "testing"))]
pub fn load(path: &std::path::Path) -> Result<(Puzzle, Position), LoadError> {
    let text = crate::disk::read_file(path)?;
    parse(&path.display().to_string(), &text)
}

/// Parses and validates puzzle text; `file` names it in errors.
pub fn parse(file: &str, text: &str) -> Result<(Puzzle, Position), LoadError> {
    let p: Puzzle = parse_ron(file, text)?;
    let pos = validate(file, text, &p)?;
    Ok((p, pos))
}

/// Finds `(q, r)` (any spacing) after the first occurrence of `field` in `text`.
fn locate(file: &str, text: &str, field: &str, at: Option<Qr>, message: String) -> LoadError {
    let start = find_field(text, field).unwrap_or(0);
    let offset = at
        .and_then(|h| find_hex_literal(text, start, h))
        .or(find_field(text, field));
    match offset {
        Some(o) => {
            let (line, column) = crate::error::offset_to_position(text, o);
            LoadError::new(file, line, column, message)
        }
        None => LoadError::whole(file, message),
    }
}

/// Byte offset of `field:` as a field name (not inside a longer identifier).
fn find_field(text: &str, field: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(i) = text[from..].find(field) {
        let at = from + i;
        let before_ok =
            at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
        let rest = text[at + field.len()..].trim_start();
        if before_ok && rest.starts_with(':') {
            return Some(at);
        }
        from = at + field.len();
    }
    None
}

fn find_hex_literal(text: &str, from: usize, (q, r): Qr) -> Option<usize> {
    let mut at = from;
    while let Some(i) = text[at..].find('(') {
        let open = at + i;
        let inner = &text[open + 1..];
        if let Some(close) = inner.find(')') {
            let parts: Vec<&str> = inner[..close].split(',').map(str::trim).collect();
            if parts.len() == 2
                && parts[0].parse::<i32>() == Ok(q)
                && parts[1].parse::<i32>() == Ok(r)
            {
                return Some(open);
            }
        }
        at = open + 1;
    }
    None
}

fn fmt(h: Qr) -> String {
    format!("({}, {})", h.0, h.1)
}

/// Move and range are at most this.
pub(crate) const MAX_REACH: u32 = 64;
/// Targets of one attack are at most this (as many as enemies a puzzle may hold).
pub(crate) const MAX_TARGETS: u32 = 64;
/// Initiatives are at most this.
pub(crate) const MAX_INITIATIVE: u32 = 1_000;
/// Area offsets stay within this many hexes of their anchor.
pub(crate) const MAX_AOE_OFFSET: i32 = 32;

/// Checks every coordinate and number against its bound, before anything is built from them.
fn check_bounds(file: &str, text: &str, p: &Puzzle) -> Result<(), LoadError> {
    let err = |field: &str, at: Option<Qr>, msg: String| locate(file, text, field, at, msg);
    let m = &p.map;
    let far = |h: &Qr| !crate::hex::within_bounds(hex(h.0, h.1));
    let walls: Vec<Qr> = m.thin_walls.iter().flat_map(|&(a, b)| [a, b]).collect();
    let enemies: Vec<Qr> = p.enemies.iter().map(|e| e.hex).collect();
    let lists: [(&str, &[Qr]); 11] = [
        ("hexes", &m.hexes),
        ("walls", &m.walls),
        ("obstacles", &m.obstacles),
        ("traps", &m.traps),
        ("hazards", &m.hazards),
        ("difficult", &m.difficult),
        ("icy", &m.icy),
        ("thin_walls", &walls),
        ("active", std::slice::from_ref(&p.active)),
        ("allies", &p.allies),
        ("enemies", &enemies),
    ];
    for (field, list) in lists {
        if let Some(&h) = list.iter().find(|h| far(h)) {
            return Err(err(
                field,
                Some(h),
                format!(
                    "`{field}` lists {}: expected coordinates within ±{}",
                    fmt(h),
                    crate::hex::MAX_COORD
                ),
            ));
        }
    }
    let off = |h: &&Qr| h.0.unsigned_abs().max(h.1.unsigned_abs()) > MAX_AOE_OFFSET as u32;
    if let Some(&h) = p.action.aoe.iter().find(off) {
        return Err(err(
            "aoe",
            Some(h),
            format!(
                "`aoe` lists {}: expected offsets within ±{MAX_AOE_OFFSET}",
                fmt(h)
            ),
        ));
    }
    let a = &p.action;
    let numbers = [
        ("move", a.move_points, MAX_REACH),
        ("range", a.range, MAX_REACH),
        ("targets", a.targets, MAX_TARGETS),
    ]
    .into_iter()
    .chain(
        p.enemies
            .iter()
            .map(|e| ("initiative", e.initiative, MAX_INITIATIVE)),
    );
    for (field, value, max) in numbers {
        if value > max {
            return Err(LoadError::at_number(
                file,
                text,
                field,
                value.into(),
                format!("`{field}` is {value}: expected at most {max}"),
            ));
        }
    }
    Ok(())
}

fn validate(file: &str, text: &str, p: &Puzzle) -> Result<Position, LoadError> {
    check_bounds(file, text, p)?;
    let m = &p.map;
    let err = |field: &str, at: Option<Qr>, msg: String| locate(file, text, field, at, msg);
    let hexes: Vec<Hex> = m.hexes.iter().map(|&(q, r)| hex(q, r)).collect();
    let walls: Vec<Hex> = m.walls.iter().map(|&(q, r)| hex(q, r)).collect();
    if hexes.is_empty() {
        return Err(err(
            "hexes",
            None,
            "expected at least one hex in `map.hexes`".into(),
        ));
    }
    let mut map = HexMap::new(&hexes, &walls).map_err(|e| match e {
        crate::hex::MapError::Duplicate(h) => {
            let field = if m.walls.contains(&qr(h)) {
                "walls"
            } else {
                "hexes"
            };
            err(
                field,
                Some(qr(h)),
                format!(
                    "hex {} is listed twice in `map.hexes`/`map.walls`",
                    fmt(qr(h))
                ),
            )
        }
        other => err("hexes", None, other.to_string()),
    })?;
    let layers: [(&str, &Vec<Qr>, Terrain); 5] = [
        ("obstacles", &m.obstacles, Terrain::Obstacle),
        ("traps", &m.traps, Terrain::Trap),
        ("hazards", &m.hazards, Terrain::Hazard),
        ("difficult", &m.difficult, Terrain::Difficult),
        ("icy", &m.icy, Terrain::Icy),
    ];
    for (field, list, t) in layers {
        for &h in list {
            match map.terrain(hex(h.0, h.1)) {
                None | Some(Terrain::Wall) => {
                    return Err(err(
                        field,
                        Some(h),
                        format!(
                            "`map.{field}` lists {}, expected a hex of `map.hexes`",
                            fmt(h)
                        ),
                    ));
                }
                Some(Terrain::Floor) => {}
                Some(other) => {
                    return Err(err(
                        field,
                        Some(h),
                        format!(
                            "hex {} is both {} and {}: terrain lists must not overlap",
                            fmt(h),
                            other.name(),
                            t.name()
                        ),
                    ));
                }
            }
            let _ = map.set_terrain(hex(h.0, h.1), t);
        }
    }
    for &(a, b) in &m.thin_walls {
        map.add_thin_wall(hex(a.0, a.1), hex(b.0, b.1))
            .map_err(|e| {
                err(
                    "thin_walls",
                    Some(a),
                    format!("thin wall {} – {}: {e}", fmt(a), fmt(b)),
                )
            })?;
    }
    let mut taken: Vec<(Qr, &str)> = Vec::new();
    let mut place = |field: &str, h: Qr| -> Result<Hex, LoadError> {
        match map.terrain(hex(h.0, h.1)) {
            None => {
                return Err(err(
                    field,
                    Some(h),
                    format!(
                        "`{field}` puts a figure on {}, which is not on the map",
                        fmt(h)
                    ),
                ));
            }
            Some(Terrain::Wall) => {
                return Err(err(
                    field,
                    Some(h),
                    format!("`{field}` puts a figure on the wall hex {}", fmt(h)),
                ));
            }
            _ => {}
        }
        if let Some((_, other)) = taken.iter().find(|(t, _)| *t == h) {
            return Err(err(
                field,
                Some(h),
                format!("two figures on {}: `{other}` and `{field}`", fmt(h)),
            ));
        }
        taken.push((
            h,
            if field == "active" {
                "active"
            } else if field == "allies" {
                "allies"
            } else {
                "enemies"
            },
        ));
        Ok(hex(h.0, h.1))
    };
    let active = place("active", p.active)?;
    let allies = p
        .allies
        .iter()
        .map(|&h| place("allies", h))
        .collect::<Result<Vec<_>, _>>()?;
    let mut enemies = Vec::new();
    for e in &p.enemies {
        let h = place("enemies", e.hex)?;
        enemies.push(Enemy {
            hex: h,
            initiative: e.initiative,
            second: 0,
            order: super::targeting::LAST,
            name: String::new(),
        });
    }
    if enemies.len() > 64 {
        return Err(err(
            "enemies",
            None,
            format!("{} enemies: at most 64 are supported", enemies.len()),
        ));
    }
    let a = &p.action;
    let groups = super::attack::groups_bound(enemies.len(), a.targets);
    if groups > super::attack::MAX_GROUPS {
        return Err(err(
            "targets",
            None,
            format!(
                "`targets` is {} against {} enemies: that allows more than {} sets of targets",
                a.targets,
                enemies.len(),
                super::attack::MAX_GROUPS
            ),
        ));
    }
    if a.targets > 0 && !a.aoe.is_empty() && a.aoe_melee != (a.range == 0) {
        return Err(err(
            "aoe_melee",
            None,
            format!(
                "`aoe_melee` is {} but `range` is {}: a melee area needs range 0, a ranged area a range",
                a.aoe_melee, a.range
            ),
        ));
    }
    if a.aoe.len() > 32 {
        return Err(err(
            "aoe",
            None,
            "expected an area of at most 32 hexes".into(),
        ));
    }
    let action = MonsterAction {
        move_points: a.move_points,
        range: a.range,
        targets: a.targets,
        aoe: a.aoe.iter().map(|&(q, r)| hex(q, r)).collect(),
        aoe_melee: a.aoe_melee,
        flying: a.flying,
        jumping: a.jumping,
        teleport: a.teleport,
        muddled: a.muddled,
    };
    Ok(Position {
        map,
        active,
        allies,
        enemies,
        action,
        edition: Edition {
            preset: p.rules,
            switches: p.switches.over(p.rules),
        },
    })
}

/// How a decision compares with a puzzle's expectations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The foci found are exactly the ones expected.
    pub focus_ok: bool,
    /// The `(end, targets)` pairs found are exactly the ones expected.
    pub options_ok: bool,
    /// (end, targets) pairs expected but not found.
    pub missing: Vec<(Qr, Vec<Qr>)>,
    /// (end, targets) pairs found but not expected.
    pub extra: Vec<(Qr, Vec<Qr>)>,
}

impl Verdict {
    /// Whether the decision meets every expectation.
    pub fn passed(&self) -> bool {
        self.focus_ok && self.options_ok
    }
}

/// Compares a decision with the puzzle's expectations, as sets; `None` when the puzzle has none.
pub fn check(p: &Puzzle, d: &Decision) -> Option<Verdict> {
    let (ef, ex) = (p.expect_focus.as_ref()?, p.expect.as_ref()?);
    let mut want_focus = ef.clone();
    want_focus.sort();
    let mut got_focus: Vec<Qr> = d.focus.iter().map(|h| qr(*h)).collect();
    got_focus.sort();
    let mut want: Vec<(Qr, Vec<Qr>)> = ex
        .iter()
        .map(|e| {
            let mut t = e.targets.clone();
            t.sort();
            (e.end, t)
        })
        .collect();
    want.sort();
    want.dedup();
    let mut got: Vec<(Qr, Vec<Qr>)> = d
        .options
        .iter()
        .map(|o| (qr(o.end), o.targets.iter().map(|h| qr(*h)).collect()))
        .collect();
    got.sort();
    got.dedup();
    let missing: Vec<_> = want.iter().filter(|w| !got.contains(w)).cloned().collect();
    let extra: Vec<_> = got.iter().filter(|g| !want.contains(g)).cloned().collect();
    Some(Verdict {
        focus_ok: want_focus == got_focus,
        options_ok: missing.is_empty() && extra.is_empty(),
        missing,
        extra,
    })
}
