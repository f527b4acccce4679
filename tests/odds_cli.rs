//! Runs the built `foehold odds` on query files: JSON shape, exact values, the readable table, bad input.

use std::path::PathBuf;
use std::process::{Command, Output};

fn query(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/odds")
        .join(name)
        .display()
        .to_string()
}

fn odds(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_foehold"))
        .arg("odds")
        .args(args)
        .output()
        .expect("the foehold binary runs")
}

/// The parsed output and the text as printed.
fn json(name: &str) -> (serde_json::Value, String) {
    let out = odds(&["--json", &query(name)]);
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let value = serde_json::from_str(text.trim())
        .unwrap_or_else(|e| panic!("{name}: not one JSON value ({e}): {text}"));
    (value, text)
}

/// The probabilities as `(damage, probability)` in numeric order of damage.
fn distribution(v: &serde_json::Value) -> Vec<(u32, f64)> {
    let mut d: Vec<(u32, f64)> = v["distribution"]
        .as_object()
        .expect("distribution is an object")
        .iter()
        .map(|(k, p)| {
            (
                k.parse().expect("numeric key"),
                p.as_f64().expect("a number"),
            )
        })
        .collect();
    d.sort_by_key(|&(k, _)| k);
    d
}

/// The damage keys in the order they are printed (a JSON parser would not keep it).
fn printed_keys(text: &str) -> Vec<u32> {
    let start = text.find("\"distribution\": {").expect("a distribution") + 17;
    let end = start + text[start..].find('}').expect("end of the distribution");
    text[start..end]
        .split(',')
        .map(|entry| {
            entry
                .trim()
                .trim_start_matches('"')
                .split('"')
                .next()
                .unwrap_or("")
                .parse()
                .expect("numeric key")
        })
        .collect()
}

#[test]
fn json_output_is_one_object_with_the_three_fields() {
    for name in [
        "example.ron",
        "standard-normal.ron",
        "advantage-rolling.ron",
        "disadvantage-rolling.ron",
        "pierce.ron",
    ] {
        let (v, text) = json(name);
        let keys: Vec<&str> = v
            .as_object()
            .expect("an object")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, ["distribution", "expected", "null_chance"], "{name}");
        let dist = distribution(&v);
        assert!(
            dist.iter().all(|&(_, p)| p > 0.0),
            "{name}: only nonzero probabilities"
        );
        let printed = printed_keys(&text);
        assert_eq!(
            printed,
            dist.iter().map(|&(d, _)| d).collect::<Vec<_>>(),
            "{name}: damage in numeric order: {text}"
        );
        let total: f64 = dist.iter().map(|&(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-12, "{name}: sums to {total}");
        let mean: f64 = dist.iter().map(|&(d, p)| d as f64 * p).sum();
        assert!(
            (mean - v["expected"].as_f64().expect("a number")).abs() < 1e-12,
            "{name}"
        );
    }
}

/// Exact fractions as the binary prints them (the nearest f64 of each).
fn exact(pairs: &[(u32, u32, u32)]) -> Vec<(u32, f64)> {
    pairs
        .iter()
        .map(|&(d, n, den)| (d, n as f64 / den as f64))
        .collect()
}

#[test]
fn json_values_are_the_hand_computed_fractions() {
    let cases = [
        // Standard deck, attack 3: 6 +0 → 3, 5 +1 → 4, 5 −1 → 2, +2 → 5, −2 → 1, x2 → 6, null → 0.
        (
            "standard-normal.ron",
            exact(&[
                (0, 1, 20),
                (1, 1, 20),
                (2, 1, 4),
                (3, 3, 10),
                (4, 1, 4),
                (5, 1, 20),
                (6, 1, 20),
            ]),
            3.0,
            1.0 / 20.0,
        ),
        (
            "advantage-rolling.ron",
            exact(&[
                (3, 1, 6),
                (4, 1, 6),
                (5, 1, 4),
                (7, 1, 6),
                (9, 1, 6),
                (11, 1, 12),
            ]),
            6.0,
            0.0,
        ),
        (
            "disadvantage-rolling.ron",
            exact(&[(2, 7, 12), (5, 5, 12)]),
            13.0 / 4.0,
            0.0,
        ),
        // +2: 12 − (5 − 2) = 9; +0 pierce 3: 10 − 0 = 10.
        ("pierce.ron", exact(&[(9, 1, 2), (10, 1, 2)]), 9.5, 0.0),
    ];
    for (name, want, expected, null_chance) in cases {
        let (v, _) = json(name);
        assert_eq!(distribution(&v), want, "{name}");
        assert_eq!(v["expected"].as_f64(), Some(expected), "{name}");
        assert_eq!(v["null_chance"].as_f64(), Some(null_chance), "{name}");
    }
}

#[test]
fn the_readable_table_shows_fractions_and_says_whose_choice_is_assumed() {
    let out = odds(&[&query("advantage-rolling.ron")]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf-8");
    for needle in [
        "advantage",
        "1/12",
        "expected damage  6",
        "assume the choice that deals more damage",
        "5/12",
        "#",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in:\n{text}");
    }
}

#[test]
fn bad_queries_exit_2_naming_file_line_and_column() {
    let cases = [
        ("unknown-card.ron", 4, "unknown card `+1x`"),
        ("negative-attack.ron", 3, "`attack` must be"),
        ("negative-shield.ron", 4, "`shield` must be"),
        ("empty-deck.ron", 2, "`deck` is empty"),
        ("negative-count.ron", 2, "count"),
        ("unknown-field.ron", 6, "luck"),
        ("unknown-mode.ron", 5, "Double"),
    ];
    for (name, line, message) in cases {
        for json in [true, false] {
            let path = query(name);
            let out = if json {
                odds(&["--json", &path])
            } else {
                odds(&[&path])
            };
            assert_eq!(out.status.code(), Some(2), "{name}");
            assert!(out.stdout.is_empty(), "{name}: nothing on stdout");
            let err = String::from_utf8(out.stderr).expect("utf-8");
            let prefix = format!("{path}:{line}:");
            assert!(
                err.starts_with(&prefix),
                "{name}: expected {prefix}COL: …, got {err}"
            );
            let col: String = err[prefix.len()..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            assert!(
                col.parse::<u32>().is_ok_and(|c| c > 0),
                "{name}: column in {err}"
            );
            assert!(err.contains(message), "{name}: {err}");
        }
    }
}

#[test]
fn bad_usage_exits_2() {
    let missing = query("no-such-file.ron");
    let cases: [&[&str]; 4] = [&[], &["--json"], &["--fast", "x.ron"], &[&missing]];
    for args in cases {
        let out = odds(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
    let err = String::from_utf8(odds(&[&missing]).stderr).expect("utf-8");
    assert!(err.contains("no-such-file.ron"), "{err}");
}
