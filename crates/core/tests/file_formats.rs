//! File formats. Scenario files may say their format (`format: 1`); a later one is refused naming
//! both, before the rest is read. Save formats: a save says its format; a save of a later one is refused naming both; a save of
//! format 2 written before the field existed still loads; a save of format 1 loads with its draws
//! rebuilt as that format's rules drew them, and plays the very game it saved.
//!
//! The format-1 fixtures are real: written by Foehold as it was at commit edc7c04 (the last before
//! card draws were logged), built headless (`cargo build --no-default-features`) and run as
//! `foehold play --headless --heroes auto --seed S scenarios/NAME --save FILE` (the tutorial with
//! seeds 3 and 7, the Sunken Kiln with seed 5); the scenario files of that commit sit beside them.
//! Each `.trace` beside a save is that build's own run of it: after each action, the round, each
//! monster type's ability card and discard, every modifier deck's discard and removed cards, and
//! each figure's hit points, place and cards (printed by a small program against that commit's
//! rules core, with the function `trace` below).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use foehold_core::game::Game;
use foehold_core::game::check::Disk;
use foehold_core::game::save::{SAVE_FORMAT, Save};
use foehold_core::rules::brimstone::Brimstone;
use foehold_core::rules::gloomhaven::Gloomhaven;
use foehold_core::rules::goals::Goals;
use foehold_core::rules::{Rules, SCENARIO_FORMAT, TieBreaker};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/saves")
}

/// A whole seeded game of a shipped scenario, played by the autopilot, and its scenario's path.
fn played(name: &str, seed: u64) -> (Game<Gloomhaven>, PathBuf) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let scenario = Gloomhaven::parse_scenario(name, &text).unwrap();
    let mut game = Game::new(
        Arc::new(scenario),
        path.display().to_string(),
        seed,
        TieBreaker::Seeded,
    )
    .unwrap()
    .with_scenario_text(&text);
    for _ in 0..100_000 {
        let Some(a) = game.automatic(true, true) else {
            break;
        };
        game.apply(a).unwrap();
    }
    (game, path)
}

#[test]
fn a_save_says_its_format_and_a_later_one_is_refused_naming_both() {
    let (game, _) = played("tutorial.ron", 3);
    let text = Save::of(&game).to_ron();
    assert!(
        text.contains(&format!("format: Some({SAVE_FORMAT})")),
        "{}",
        &text[..200]
    );
    let back: Save<Gloomhaven> = Save::parse("game.ron", &text).unwrap();
    let replayed = back.replay(&Disk, Path::new("game.ron")).unwrap();
    assert_eq!(replayed.state, game.state);
    let later = text.replace(
        &format!("format: Some({SAVE_FORMAT})"),
        &format!("format: Some({})", SAVE_FORMAT + 1),
    );
    let e = Save::<Gloomhaven>::parse("later.ron", &later)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(&format!("format {}", SAVE_FORMAT + 1))
            && e.contains(&format!("formats 1 to {SAVE_FORMAT}")),
        "{e}"
    );
}

#[test]
fn a_format_2_save_written_before_the_field_still_loads() {
    let (game, _) = played("sunken-kiln.ron", 5);
    let text = Save::of(&game).to_ron();
    let unmarked: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("format:"))
        .collect::<Vec<_>>()
        .join("\n");
    assert_ne!(unmarked, text);
    let back: Save<Gloomhaven> = Save::parse("old.ron", &unmarked).unwrap();
    assert_eq!(back.format, None);
    let replayed = back.replay(&Disk, Path::new("old.ron")).unwrap();
    assert_eq!(replayed.state, game.state, "every draw is in its log");
}

/// The game after an action, in words both that day's rules core and today's can print.
fn trace(s: &foehold_core::rules::gloomhaven::state::State) -> String {
    let cards = |c: &[foehold_core::modifiers::card::Card]| {
        c.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut out = format!("round {}", s.round);
    for (k, x) in s.kinds.iter().enumerate() {
        out += &format!(" | kind {k} card {:?} discard {:?}", x.current, x.discard);
    }
    out += &format!(
        " | monster deck discard [{}] removed [{}]",
        cards(&s.monster_deck.discard),
        cards(&s.monster_deck.removed)
    );
    for (h, x) in s.heroes.iter().enumerate() {
        out += &format!(
            " | hero {h} hp {} at ({},{}) discard {:?} lost {:?} deck discard [{}] removed [{}]",
            x.hp,
            x.hex.x,
            x.hex.y,
            x.discard,
            x.lost,
            cards(&x.deck.discard),
            cards(&x.deck.removed)
        );
    }
    for (m, x) in s.monsters.iter().enumerate() {
        out += &format!(
            " | monster {m} hp {} at ({},{}) alive {}",
            x.hp, x.hex.x, x.hex.y, x.alive
        );
    }
    out
}

#[test]
fn a_format_1_save_loads_and_plays_the_game_it_saved() {
    use foehold_core::rules::gloomhaven::actions::Action;
    let mut read = 0;
    let mut names: Vec<PathBuf> = std::fs::read_dir(fixtures())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    for path in names {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.starts_with("format-1-") || !name.ends_with(".ron") {
            continue;
        }
        read += 1;
        let text = std::fs::read_to_string(&path).unwrap();
        // The file itself reads: its fields are those of today's saves.
        let save: Save<Gloomhaven> =
            Save::parse(&name, &text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(save.format, None, "{name}");
        assert!(!save.actions.is_empty());
        // Its scenario is found next to it (the scenario files of that day, which still load).
        let replay = save
            .replay_report(&Disk, &path)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let note = replay
            .converted
            .expect("a format-1 save says it was rebuilt");
        assert!(
            note.contains("format 1") && note.contains(&format!("format {SAVE_FORMAT}")),
            "{name}: {note}"
        );
        let game = replay.game;
        let draws = game
            .actions()
            .iter()
            .filter(|a| matches!(a, Action::Draw(_)))
            .count();
        assert_eq!(game.actions().len(), save.actions.len() + draws, "{name}");
        assert!(draws > 0, "{name}: its draws are in the log now");
        // After each of the save's actions (and the draws it made), today's game is the game
        // that day's rules played: the trace it printed then, line by line.
        let expected = std::fs::read_to_string(path.with_extension("trace")).unwrap();
        let mut step = Game::<Gloomhaven>::new(
            game.scenario.clone(),
            save.scenario.clone(),
            save.seed,
            save.tie_breaker,
        )
        .unwrap();
        let log = game.actions();
        let mut lines = expected.lines();
        let mut n = 0;
        for (i, a) in log.iter().enumerate() {
            step.apply(a.clone()).unwrap();
            if matches!(log.get(i + 1), Some(Action::Draw(_))) {
                continue;
            }
            n += 1;
            let then = lines
                .next()
                .unwrap_or_else(|| panic!("{name}: trace ends at {n}"));
            assert_eq!(
                format!("{n} {}", trace(&step.state)),
                then,
                "{name}: after the save's action {n}"
            );
        }
        assert_eq!(n, save.actions.len(), "{name}");
        assert_eq!(lines.next(), None, "{name}: the whole trace");
        // Written again, it is a save of today's format that replays as any other.
        let again = Save::of(&game).to_ron();
        let back: Save<Gloomhaven> = Save::parse("again.ron", &again).unwrap();
        assert_eq!(back.format, Some(SAVE_FORMAT));
        let replayed = back.replay(&Disk, &path).unwrap();
        assert_eq!(replayed.state, game.state, "{name}");
    }
    assert_eq!(read, 3, "the three format-1 saves of the fixtures");
}

/// A format-1 save whose actions are not the ones its seed's draws allow is refused, naming
/// both formats and where the rebuilding stopped.
#[test]
fn a_damaged_format_1_save_is_refused_naming_both_formats() {
    let path = fixtures().join("format-1-tutorial-seed-3.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    // Seed 7's actions with seed 3's draws: the same first moves, a different game.
    let other = std::fs::read_to_string(fixtures().join("format-1-tutorial-seed-7.ron")).unwrap();
    let mut save: Save<Gloomhaven> = Save::parse("a.ron", &text).unwrap();
    save.actions = Save::<Gloomhaven>::parse("b.ron", &other).unwrap().actions;
    let e = save
        .replay(&Disk, &path)
        .expect_err("another game's actions do not fit these draws");
    assert!(
        e.contains("format 1") && e.contains(&format!("format {SAVE_FORMAT}")),
        "{e}"
    );
    assert!(e.contains("cannot be rebuilt"), "{e}");
}

/// `name`'s text with `format: N` as its first field.
fn with_format(name: &str, n: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios")
        .join(name);
    let text = std::fs::read_to_string(path).unwrap();
    // The file's own parenthesis: the first on a line that is neither an attribute nor a comment.
    let mut at = 0;
    let open = text
        .lines()
        .find_map(|line| {
            let start = at;
            at += line.len() + 1;
            let t = line.trim_start();
            (!t.starts_with("#!") && !t.starts_with("//"))
                .then(|| line.find('(').map(|i| start + i))
                .flatten()
        })
        .unwrap();
    format!("{}(\n  format: {n},{}", &text[..open], &text[open + 1..])
}

fn scenario_formats<R: Rules>(name: &str) {
    let plain = with_format(name, "1");
    R::parse_scenario(name, &plain).unwrap_or_else(|e| panic!("{name}: {e}"));
    for later in [
        format!("{}", SCENARIO_FORMAT + 1),
        "0".to_string(),
        "x".to_string(),
    ] {
        // A later format may bring fields this build does not know: refused before they are read.
        let text = with_format(name, &later).replacen("format:", "unknown_field: 3,\n  format:", 1);
        let e = R::parse_scenario(name, &text)
            .expect_err("a later scenario format is refused")
            .to_string();
        let line = 1 + text
            .lines()
            .position(|l| l.trim_start().starts_with("format:"))
            .unwrap();
        assert!(
            e.contains(&format!("format \"{later}\""))
                && e.contains(&format!("formats 1 to {SCENARIO_FORMAT}"))
                && e.contains(&format!(":{line}:")),
            "{name}: {e}"
        );
    }
}

#[test]
fn a_scenario_says_its_format_and_a_later_one_is_refused_naming_both() {
    scenario_formats::<Gloomhaven>("frozen-sluice.ron");
    scenario_formats::<Brimstone>("cinder-adit.ron");
    scenario_formats::<Goals>("dome-crossing.ron");
}
