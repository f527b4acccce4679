//! Case files: one board position or situation with a question, answered by the rule module whose
//! format it is. The file's top-level struct name (`Puzzle(…)`, `Targeting(…)`, …) selects the module.

use crate::error::{LoadError, offset_to_position};

/// One case file answered.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// The JSON object the case format specifies (the caller adds the `"file"` field).
    pub json: serde_json::Value,
    /// The answer in words, with the rule steps that led to it: what `solve` prints without `--json`.
    pub text: String,
    /// How the answer compares with the answer the file expects: `None` when it expects none,
    /// `Some(Ok(()))` when they match, `Some(Err(why))` with the first difference otherwise.
    pub verdict: Option<Result<(), String>>,
}

/// A case format and the module that answers it.
#[derive(Debug, Clone, Copy)]
pub struct CaseFormat {
    /// The rule module's name.
    pub module: &'static str,
    /// The top-level struct names its files start with.
    pub kinds: &'static [&'static str],
    /// Parses, validates and answers one file (`file` is the name used in error messages).
    pub solve: fn(file: &str, text: &str) -> Result<Answer, LoadError>,
    /// [`CaseFormat::solve`]'s JSON object alone, leaving out the words and the comparison with
    /// the expected answer where that saves work.
    pub json: fn(file: &str, text: &str) -> Result<serde_json::Value, LoadError>,
}

/// Every case format, one line per rule module.
pub const FORMATS: &[CaseFormat] = &[
    crate::rules::gloomhaven::case::FORMAT,
    crate::rules::brimstone::case::FORMAT,
    CaseFormat {
        module: "goals",
        kinds: &["GoalTurn"],
        solve: super::goals::case::solve,
        json: |file, text| super::goals::case::solve(file, text).map(|a| a.json),
    },
];

/// The name of the file's top-level struct, after blank space and `//` or `/* */` comments, with
/// its byte offset.
pub fn top_level_name(text: &str) -> Option<(usize, &str)> {
    let mut rest = text;
    loop {
        let trimmed = rest.trim_start();
        if let Some(after) = trimmed.strip_prefix("//") {
            rest = after.split_once('\n').map_or("", |(_, r)| r);
        } else if let Some(after) = trimmed.strip_prefix("/*") {
            rest = after.split_once("*/").map_or("", |(_, r)| r);
        } else if trimmed.starts_with("#!") {
            // RON extension attributes such as `#![enable(implicit_some)]`.
            rest = trimmed.split_once('\n').map_or("", |(_, r)| r);
        } else {
            rest = trimmed;
            break;
        }
    }
    let start = text.len() - rest.len();
    let len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (len > 0).then(|| (start, &rest[..len]))
}

/// Answers a case file of any known format.
pub fn solve(file: &str, text: &str) -> Result<Answer, LoadError> {
    (format_of(file, text)?.solve)(file, text)
}

/// Answers a case under the rules `ask` names; with nothing asked, [`solve`].
///
/// Only Gloomhaven-family puzzles have editions
/// ([`crate::rules::gloomhaven::case::solve_under`]); asking another format for one is an error.
pub fn solve_asking(
    file: &str,
    text: &str,
    ask: &crate::rules::gloomhaven::case::Ask,
) -> Result<Answer, LoadError> {
    if ask.is_empty() {
        return solve(file, text);
    }
    let format = format_of(file, text)?;
    if format.module != crate::rules::gloomhaven::case::FORMAT.module {
        return Err(LoadError::whole(
            file,
            format!(
                "--rules and --set choose among the Gloomhaven-family presets; a {} case has none",
                format.module
            ),
        ));
    }
    crate::rules::gloomhaven::case::solve_under(file, text, ask)
}

/// [`solve`]'s JSON object alone (see [`CaseFormat::json`]).
pub fn solve_json(file: &str, text: &str) -> Result<serde_json::Value, LoadError> {
    (format_of(file, text)?.json)(file, text)
}

/// The format of a case file, by its top-level struct name.
fn format_of(file: &str, text: &str) -> Result<&'static CaseFormat, LoadError> {
    let Some((offset, name)) = top_level_name(text) else {
        return Err(LoadError::whole(
            file,
            format!(
                "expected a case: a top-level struct, one of {}",
                kinds_list()
            ),
        ));
    };
    match FORMATS.iter().find(|f| f.kinds.contains(&name)) {
        Some(format) => Ok(format),
        None => {
            let (line, column) = offset_to_position(text, offset);
            Err(LoadError::new(
                file,
                line,
                column,
                format!(
                    "unknown case kind `{name}`: expected one of {}",
                    kinds_list()
                ),
            ))
        }
    }
}

fn kinds_list() -> String {
    let kinds: Vec<String> = FORMATS
        .iter()
        .flat_map(|f| f.kinds.iter().map(|k| format!("`{k}`")))
        .collect();
    kinds.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_top_level_name_skips_comments_and_attributes() {
        let text = "// a case\n/* note */\n#![enable(implicit_some)]\n  Targeting(\n";
        let (offset, name) = top_level_name(text).unwrap();
        assert_eq!(name, "Targeting");
        assert_eq!(offset_to_position(text, offset), (4, 3));
        assert_eq!(top_level_name("// only a comment\n"), None);
    }

    #[test]
    fn the_json_alone_is_the_whole_answers_json_for_every_case_file() {
        // Every case folder of the repository, good files and bad: the JSON-only path answers, or
        // refuses, exactly as the whole answer does.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests");
        let mut dirs = vec![root.join("puzzles")];
        let mut files = Vec::new();
        for entry in std::fs::read_dir(root.join("conformance")).expect("the conformance folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                dirs.push(path);
            }
        }
        for dir in dirs {
            for entry in std::fs::read_dir(&dir).expect("a case folder") {
                let path = entry.expect("an entry").path();
                if path.extension().is_some_and(|x| x == "ron") {
                    files.push(path);
                }
            }
        }
        files.sort();
        let mut answered = 0;
        for path in &files {
            let name = path.display().to_string();
            let text = std::fs::read_to_string(path).expect("readable");
            match (solve(&name, &text), solve_json(&name, &text)) {
                (Ok(whole), Ok(json)) => {
                    assert_eq!(whole.json, json, "{name}");
                    answered += 1;
                }
                (Err(a), Err(b)) => assert_eq!(a, b, "{name}"),
                (a, b) => panic!("{name}: {:?} against {:?}", a.map(|a| a.json), b),
            }
        }
        assert!(
            answered >= 90,
            "{answered} of {} files answered",
            files.len()
        );
    }

    #[test]
    fn an_unknown_kind_is_a_positioned_error() {
        let err = solve("x.ron", "\n  Mystery(a: 1)").unwrap_err();
        assert_eq!((err.line, err.column), (2, 3));
        assert!(err.message.contains("unknown case kind `Mystery`"), "{err}");
    }
}
