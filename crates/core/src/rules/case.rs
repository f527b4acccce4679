//! Case files: one board position or situation with a question, answered by the rule module whose
//! format it is. The file's top-level struct name (`Puzzle(…)`, `Targeting(…)`, …) selects the module.

use crate::error::LoadError;

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

/// The name of the file's top-level struct, after blank space and `//` or `/* */` comments, with
/// its byte offset.
pub(crate) fn top_level_name(text: &str) -> Option<(usize, &str)> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::offset_to_position;

    #[test]
    fn the_top_level_name_skips_comments_and_attributes() {
        let text = "// a case\n/* note */\n#![enable(implicit_some)]\n  Targeting(\n";
        let (offset, name) = top_level_name(text).unwrap();
        assert_eq!(name, "Targeting");
        assert_eq!(offset_to_position(text, offset), (4, 3));
        assert_eq!(top_level_name("// only a comment\n"), None);
    }
}
