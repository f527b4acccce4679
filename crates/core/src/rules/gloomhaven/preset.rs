//! The editions of the monster rules: named presets of the few switches on which they differ.
//!
//! The switches are the ones the public puzzle format tabulates (its section 8); `Gloomhaven2e` is
//! the second edition's focus and movement text as `docs/rules-gloomhaven.md` reads it. A puzzle or
//! scenario names its preset and may override single switches.

pub use crate::hex::sight::Sightlines;
use serde::{Deserialize, Serialize};

/// A named set of switches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Preset {
    /// Frosthaven's monster rules (the convention of the public Frosthaven puzzles).
    Frosthaven,
    /// The first edition of Gloomhaven.
    Gloomhaven,
    /// Jaws of the Lion.
    JawsOfTheLion,
    /// The second edition of Gloomhaven, as our rules text reads it.
    #[default]
    Gloomhaven2e,
}

impl Preset {
    /// Every preset, in the order players meet them in menus.
    pub const ALL: [Preset; 4] = [
        Preset::Gloomhaven2e,
        Preset::Frosthaven,
        Preset::Gloomhaven,
        Preset::JawsOfTheLion,
    ];

    /// The preset's switches.
    pub const fn switches(self) -> Switches {
        let fh = Switches {
            sight: Sightlines::AnyPoint,
            proximity: true,
            clear_focus_first: false,
            rank_secondary: false,
            rank_by_path: false,
            head_as_attack: false,
            jump_landing: JumpLanding::One,
        };
        match self {
            Preset::Frosthaven => fh,
            Preset::Gloomhaven => Switches {
                sight: Sightlines::Corners,
                clear_focus_first: true,
                rank_secondary: true,
                head_as_attack: true,
                jump_landing: JumpLanding::Terrain,
                ..fh
            },
            Preset::JawsOfTheLion => Switches {
                proximity: false,
                clear_focus_first: true,
                rank_secondary: true,
                head_as_attack: true,
                ..fh
            },
            // Sight from any point and a jump landing at 1: see `docs/rules-gloomhaven.md`.
            Preset::Gloomhaven2e => Switches {
                clear_focus_first: true,
                rank_secondary: true,
                rank_by_path: true,
                head_as_attack: true,
                ..fh
            },
        }
    }

    /// The preset's name as files and commands write it.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Frosthaven => "Frosthaven",
            Preset::Gloomhaven => "Gloomhaven",
            Preset::JawsOfTheLion => "JawsOfTheLion",
            Preset::Gloomhaven2e => "Gloomhaven2e",
        }
    }

    /// The edition's name for players.
    pub const fn title(self) -> &'static str {
        match self {
            Preset::Frosthaven => "Frosthaven",
            Preset::Gloomhaven => "Gloomhaven, first edition",
            Preset::JawsOfTheLion => "Jaws of the Lion",
            Preset::Gloomhaven2e => "Gloomhaven, second edition",
        }
    }

    /// A short tag for the trace ("2e", "FH", …).
    pub const fn tag(self) -> &'static str {
        match self {
            Preset::Frosthaven => "FH",
            Preset::Gloomhaven => "GH",
            Preset::JawsOfTheLion => "JotL",
            Preset::Gloomhaven2e => "2e",
        }
    }

    /// The preset named `name` (as [`Preset::name`] writes it, any case).
    pub fn parse(name: &str) -> Option<Preset> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(name))
    }
}

/// What a jump's landing on difficult terrain costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum JumpLanding {
    /// Every hex of a jump costs 1, the last included.
    One,
    /// The last hex costs what the terrain costs: 2 on difficult terrain.
    Terrain,
}

/// The switches on which the editions' monster rules differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Switches {
    /// How sight is drawn.
    pub sight: Sightlines,
    /// Proximity counts in the focus tie-breaks (after movement, before initiative).
    pub proximity: bool,
    /// Of the focus's attack hexes, those from which the focus is not at disadvantage come first,
    /// before the number of targets.
    pub clear_focus_first: bool,
    /// Secondary targets are ranked by proximity from the starting hex (when `proximity`), then
    /// initiative; otherwise every largest group is an option of its own.
    pub rank_secondary: bool,
    /// Secondary targets are ranked by the whole focus rules from the starting hex (negative
    /// hexes on the path, path length, then proximity and initiative), and no group is kept for
    /// being reachable with fewer movement points before they are: the second edition's "chosen
    /// using the focus rules". Otherwise by proximity and initiative, after the cheapest groups.
    pub rank_by_path: bool,
    /// A multi-target monster that cannot reach its focus heads for the hexes it would attack the
    /// most (ranked) targets from, not just the nearest.
    pub head_as_attack: bool,
    /// What a jump's last hex costs on difficult terrain.
    pub jump_landing: JumpLanding,
}

impl Switches {
    /// Each switch as `--set` writes it (`sight=Corners`), in the order of [`SWITCH_NAMES`].
    pub fn settings(&self) -> [String; 7] {
        [
            format!("sight={:?}", self.sight),
            format!("proximity={}", self.proximity),
            format!("clear_focus_first={}", self.clear_focus_first),
            format!("rank_secondary={}", self.rank_secondary),
            format!("rank_by_path={}", self.rank_by_path),
            format!("head_as_attack={}", self.head_as_attack),
            format!("jump_landing={:?}", self.jump_landing),
        ]
    }
}

impl Default for Switches {
    fn default() -> Self {
        Preset::default().switches()
    }
}

/// One switch set to a value, as `--set` and files write it: `sight=Corners`, `proximity=false`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setting {
    /// [`Switches::sight`].
    Sight(Sightlines),
    /// [`Switches::proximity`].
    Proximity(bool),
    /// [`Switches::clear_focus_first`].
    ClearFocusFirst(bool),
    /// [`Switches::rank_secondary`].
    RankSecondary(bool),
    /// [`Switches::rank_by_path`].
    RankByPath(bool),
    /// [`Switches::head_as_attack`].
    HeadAsAttack(bool),
    /// [`Switches::jump_landing`].
    JumpLanding(JumpLanding),
}

/// The switches' names, as `--set` takes them, with the values each takes.
pub const SWITCH_NAMES: [(&str, &str); 7] = [
    ("sight", "AnyPoint | Corners"),
    ("proximity", "true | false"),
    ("clear_focus_first", "true | false"),
    ("rank_secondary", "true | false"),
    ("rank_by_path", "true | false"),
    ("head_as_attack", "true | false"),
    ("jump_landing", "One | Terrain"),
];

impl Setting {
    /// Reads `name=value`; the error says what is wrong in words.
    pub fn parse(text: &str) -> Result<Setting, String> {
        let (name, value) = text
            .split_once('=')
            .ok_or_else(|| format!("`{text}`: write a switch as NAME=VALUE"))?;
        let (name, value) = (name.trim(), value.trim());
        let flag = || match value {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(format!("`{name}` takes true or false, not `{value}`")),
        };
        match name {
            "sight" => match value {
                "AnyPoint" => Ok(Setting::Sight(Sightlines::AnyPoint)),
                "Corners" => Ok(Setting::Sight(Sightlines::Corners)),
                _ => Err(format!("`sight` takes AnyPoint or Corners, not `{value}`")),
            },
            "proximity" => flag().map(Setting::Proximity),
            "clear_focus_first" => flag().map(Setting::ClearFocusFirst),
            "rank_secondary" => flag().map(Setting::RankSecondary),
            "rank_by_path" => flag().map(Setting::RankByPath),
            "head_as_attack" => flag().map(Setting::HeadAsAttack),
            "jump_landing" => match value {
                "One" => Ok(Setting::JumpLanding(JumpLanding::One)),
                "Terrain" => Ok(Setting::JumpLanding(JumpLanding::Terrain)),
                _ => Err(format!(
                    "`jump_landing` takes One or Terrain, not `{value}`"
                )),
            },
            _ => Err(format!(
                "no switch `{name}`; the switches are {}",
                SWITCH_NAMES
                    .iter()
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    /// The switches with this one set.
    pub fn apply(self, to: Switches) -> Switches {
        match self {
            Setting::Sight(v) => Switches { sight: v, ..to },
            Setting::Proximity(v) => Switches { proximity: v, ..to },
            Setting::ClearFocusFirst(v) => Switches {
                clear_focus_first: v,
                ..to
            },
            Setting::RankSecondary(v) => Switches {
                rank_secondary: v,
                ..to
            },
            Setting::RankByPath(v) => Switches {
                rank_by_path: v,
                ..to
            },
            Setting::HeadAsAttack(v) => Switches {
                head_as_attack: v,
                ..to
            },
            Setting::JumpLanding(v) => Switches {
                jump_landing: v,
                ..to
            },
        }
    }
}

/// Overrides of single switches, as puzzles and scenarios write them: each field left out keeps
/// the preset's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Overrides {
    /// [`Switches::sight`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sight: Option<Sightlines>,
    /// [`Switches::proximity`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proximity: Option<bool>,
    /// [`Switches::clear_focus_first`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clear_focus_first: Option<bool>,
    /// [`Switches::rank_secondary`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank_secondary: Option<bool>,
    /// [`Switches::rank_by_path`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank_by_path: Option<bool>,
    /// [`Switches::head_as_attack`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_as_attack: Option<bool>,
    /// [`Switches::jump_landing`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jump_landing: Option<JumpLanding>,
}

impl Overrides {
    /// The preset's switches with these overrides.
    pub fn over(self, preset: Preset) -> Switches {
        let s = preset.switches();
        Switches {
            sight: self.sight.unwrap_or(s.sight),
            proximity: self.proximity.unwrap_or(s.proximity),
            clear_focus_first: self.clear_focus_first.unwrap_or(s.clear_focus_first),
            rank_secondary: self.rank_secondary.unwrap_or(s.rank_secondary),
            rank_by_path: self.rank_by_path.unwrap_or(s.rank_by_path),
            head_as_attack: self.head_as_attack.unwrap_or(s.head_as_attack),
            jump_landing: self.jump_landing.unwrap_or(s.jump_landing),
        }
    }
}

/// The rules a monster decides by: the preset named, and the switches in force.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Edition {
    /// The preset named (for the trace's words).
    pub preset: Preset,
    /// The switches in force: the preset's, with any overrides.
    pub switches: Switches,
}

impl Edition {
    /// A preset with its own switches.
    pub const fn of(preset: Preset) -> Self {
        Edition {
            preset,
            switches: preset.switches(),
        }
    }

    /// What the players read of these rules on the table: the preset, then one line per switch.
    pub fn lines(&self) -> Vec<String> {
        let sw = self.switches;
        let changed = if sw == self.preset.switches() {
            ""
        } else {
            ", with switches of its own"
        };
        let on_off = |on: bool, yes: &str, no: &str| if on { yes } else { no }.to_string();
        vec![
            format!("{}{changed}", self.preset.title()),
            on_off(
                sw.sight == Sightlines::Corners,
                "Sight: from a corner of one hex to a corner of the other",
                "Sight: from any point of one hex to any point of the other",
            ),
            on_off(
                sw.proximity,
                "Focus: path, then proximity, then initiative",
                "Focus: path, then initiative (proximity does not count)",
            ),
            on_off(
                sw.clear_focus_first,
                "Ranged: it attacks its focus without disadvantage first",
                "Ranged: the most targets first, disadvantage after",
            ),
            on_off(
                sw.rank_secondary,
                "Other targets: ranked as the focus is",
                "Other targets: the players choose among equal groups",
            ),
            on_off(
                sw.rank_by_path,
                "Other targets: by path, then proximity and initiative, before movement",
                "Other targets: by proximity and initiative, after the cheapest groups",
            ),
            on_off(
                sw.head_as_attack,
                "Out of reach: it heads where it would hit the most",
                "Out of reach: it heads for the nearest attack hex",
            ),
            on_off(
                sw.jump_landing == JumpLanding::Terrain,
                "A jump landing on difficult terrain costs 2",
                "A jump landing on difficult terrain costs 1",
            ),
        ]
    }

    /// The tag the trace puts before a step a switch decided: the preset's, or "set" where an
    /// override made the switch differ from it.
    pub fn tag(&self, differs: bool) -> &'static str {
        if differs { "set" } else { self.preset.tag() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_presets_differ_as_the_format_tabulates() {
        let fh = Preset::Frosthaven.switches();
        let gh = Preset::Gloomhaven.switches();
        let jl = Preset::JawsOfTheLion.switches();
        assert_eq!(
            (fh.sight, gh.sight, jl.sight),
            (
                Sightlines::AnyPoint,
                Sightlines::Corners,
                Sightlines::AnyPoint
            )
        );
        assert_eq!(
            (fh.proximity, gh.proximity, jl.proximity),
            (true, true, false)
        );
        for s in [gh, jl] {
            assert!(s.clear_focus_first && s.rank_secondary && s.head_as_attack);
        }
        assert!(!fh.clear_focus_first && !fh.rank_secondary && !fh.head_as_attack);
        // Only our reading of the second edition ranks other targets by the whole focus rules.
        assert!(!fh.rank_by_path && !gh.rank_by_path && !jl.rank_by_path);
        assert!(Preset::Gloomhaven2e.switches().rank_by_path);
        assert_eq!(gh.jump_landing, JumpLanding::Terrain);
        assert_eq!(
            (fh.jump_landing, jl.jump_landing),
            (JumpLanding::One, JumpLanding::One)
        );
    }

    #[test]
    fn second_edition_takes_the_gloomhaven_column_on_the_movement_switches() {
        let e2 = Preset::Gloomhaven2e.switches();
        let gh = Preset::Gloomhaven.switches();
        assert_eq!(
            (
                e2.clear_focus_first,
                e2.rank_secondary,
                e2.head_as_attack,
                e2.proximity
            ),
            (
                gh.clear_focus_first,
                gh.rank_secondary,
                gh.head_as_attack,
                gh.proximity
            )
        );
    }

    #[test]
    fn a_setting_reads_names_and_values_and_says_what_is_wrong() {
        let s = Setting::parse("sight=Corners").unwrap();
        assert_eq!(
            s.apply(Preset::Frosthaven.switches()).sight,
            Sightlines::Corners
        );
        assert!(
            !Setting::parse("proximity = false")
                .unwrap()
                .apply(Switches::default())
                .proximity
        );
        assert!(Setting::parse("sight").unwrap_err().contains("NAME=VALUE"));
        assert!(Setting::parse("reach=3").unwrap_err().contains("no switch"));
        assert!(
            Setting::parse("proximity=maybe")
                .unwrap_err()
                .contains("true or false")
        );
        for p in Preset::ALL {
            assert_eq!(Preset::parse(p.name()), Some(p));
        }
        assert_eq!(Preset::parse("gloomhaven2E"), Some(Preset::Gloomhaven2e));
        assert_eq!(Preset::parse("Gloom"), None);
    }

    #[test]
    fn the_players_read_the_edition_and_each_switch() {
        let lines = Edition::of(Preset::JawsOfTheLion).lines();
        assert_eq!(lines[0], "Jaws of the Lion");
        assert!(lines.iter().any(|l| l.contains("proximity does not count")));
        let set = Edition {
            preset: Preset::Frosthaven,
            switches: Switches {
                sight: Sightlines::Corners,
                ..Preset::Frosthaven.switches()
            },
        };
        let lines = set.lines();
        assert_eq!(lines[0], "Frosthaven, with switches of its own");
        assert!(lines[1].contains("from a corner of one hex"));
    }

    #[test]
    fn each_switch_written_as_a_setting_reads_back_as_it_was() {
        for p in Preset::ALL {
            let from = if p == Preset::Frosthaven {
                Preset::Gloomhaven
            } else {
                Preset::Frosthaven
            };
            let back = p
                .switches()
                .settings()
                .iter()
                .map(|t| Setting::parse(t).unwrap())
                .fold(from.switches(), |sw, s| s.apply(sw));
            assert_eq!(back, p.switches(), "{p:?}");
        }
    }

    #[test]
    fn overrides_change_only_what_they_name() {
        let o = Overrides {
            proximity: Some(false),
            ..Overrides::default()
        };
        let s = o.over(Preset::Gloomhaven);
        assert_eq!(
            s,
            Switches {
                proximity: false,
                ..Preset::Gloomhaven.switches()
            }
        );
    }
}
