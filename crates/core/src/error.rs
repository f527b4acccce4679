//! Load errors that name the file, line, column and what was expected, for every data file we read.

use std::fmt;

/// An error found while reading or validating a data file.
///
/// Line and column are 1-based; `line == 0` means the error is about the file as a whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// The file, as named to the user.
    pub file: String,
    /// 1-based line, 0 for the file as a whole.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What was wrong and what was expected.
    pub message: String,
}

impl LoadError {
    /// An error at a position of a file.
    pub fn new(
        file: impl Into<String>,
        line: usize,
        column: usize,
        message: impl Into<String>,
    ) -> Self {
        Self {
            file: file.into(),
            line,
            column,
            message: message.into(),
        }
    }

    /// An error about the whole file (unreadable, empty, …).
    pub fn whole(file: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(file, 0, 0, message)
    }

    /// An error at the position of `needle`'s first occurrence in `text`, or about the
    /// whole file when it cannot be found; used by validators that know a field but not its span.
    pub(crate) fn at_text(
        file: &str,
        text: &str,
        needle: &str,
        message: impl Into<String>,
    ) -> Self {
        match find_position(text, needle) {
            Some((line, column)) => Self::new(file, line, column, message),
            None => Self::whole(file, message),
        }
    }
}

impl LoadError {
    /// An error at a number written in `text`: at `field: value` when found, else at the first
    /// token that reads as `value`, else at `field:`, else about the whole file. For validators that
    /// check a number against its bound after parsing.
    pub(crate) fn at_number(
        file: &str,
        text: &str,
        field: &str,
        value: i128,
        message: impl Into<String>,
    ) -> Self {
        match number_position(text, field, value) {
            Some(offset) => {
                let (line, column) = offset_to_position(text, offset);
                Self::new(file, line, column, message)
            }
            None => Self::at_text(file, text, &format!("{field}:"), message),
        }
    }
}

/// Byte offset of `value` written after `field:`, or of the first number token equal to `value`.
fn number_position(text: &str, field: &str, value: i128) -> Option<usize> {
    let bytes = text.as_bytes();
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    // Number tokens: maximal runs of sign, digits and `_`, not glued to an identifier.
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let starts = (bytes[i].is_ascii_digit()
            || (matches!(bytes[i], b'-' | b'+')
                && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)))
            && (i == 0 || !is_word(bytes[i - 1]));
        if starts {
            let mut j = i + 1;
            while j < bytes.len() && (bytes[j].is_ascii_digit() || bytes[j] == b'_') {
                j += 1;
            }
            let digits: String = text[i..j].chars().filter(|&c| c != '_').collect();
            if digits.parse::<i128>() == Ok(value) {
                tokens.push(i);
            }
            i = j;
        } else {
            i += 1;
        }
    }
    let after_field = |at: usize| {
        let before = &text[..at];
        let before = before.trim_end();
        let before = before.strip_suffix(':')?.trim_end();
        let start = before.len().checked_sub(field.len())?;
        (before.ends_with(field) && (start == 0 || !is_word(bytes[start - 1]))).then_some(at)
    };
    tokens
        .iter()
        .find_map(|&at| after_field(at))
        .or_else(|| tokens.first().copied())
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = printable(&self.file);
        if self.line == 0 {
            write!(f, "{file}: {}", self.message)
        } else {
            write!(f, "{file}:{}:{}: {}", self.line, self.column, self.message)
        }
    }
}

/// A file name as it may be printed on a terminal: control characters (which could move the
/// cursor or recolour the screen) written as `\u{…}` escapes, everything else as it is.
pub fn printable(name: &str) -> std::borrow::Cow<'_, str> {
    if !name.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(name);
    }
    name.chars()
        .map(|c| {
            if c.is_control() {
                format!("\\u{{{:x}}}", u32::from(c))
            } else {
                c.to_string()
            }
        })
        .collect()
}

impl std::error::Error for LoadError {}

/// 1-based line and column of the first occurrence of `needle` in `text`.
pub(crate) fn find_position(text: &str, needle: &str) -> Option<(usize, usize)> {
    let offset = text.find(needle)?;
    Some(offset_to_position(text, offset))
}

/// 1-based line and column (in characters) of byte `offset` in `text`.
pub(crate) fn offset_to_position(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

/// Parses RON text into `T`, reporting syntax and schema errors with their position.
///
/// Optional fields may be written bare (`x: 3` rather than `x: Some(3)`).
///
/// Plain text is read by a quicker reader first (`quick_ron`); whatever it does not take, every error
/// among it, is read by the `ron` crate, whose messages and positions are the ones reported.
pub fn parse_ron<T: serde::de::DeserializeOwned>(file: &str, text: &str) -> Result<T, LoadError> {
    match crate::quick_ron::from_str(text) {
        Some(value) => Ok(value),
        None => parse_ron_fully(file, text),
    }
}

/// Parses RON text into `T` with the `ron` crate alone.
pub fn parse_ron_fully<T: serde::de::DeserializeOwned>(
    file: &str,
    text: &str,
) -> Result<T, LoadError> {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(text)
        .map_err(|e: ron::error::SpannedError| {
            LoadError::new(
                file,
                e.span.start.line,
                e.span.start.col,
                e.code.to_string(),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_name_with_control_characters_prints_them_escaped() {
        let e = LoadError::new("a\u{1b}[2Jb\n.ron", 3, 4, "expected `)`");
        assert_eq!(e.to_string(), "a\\u{1b}[2Jb\\u{a}.ron:3:4: expected `)`");
        assert_eq!(
            LoadError::whole("plain.ron", "x").to_string(),
            "plain.ron: x"
        );
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Probe {
        #[expect(dead_code, reason = "only parsed, to see which fields are refused")]
        a: u32,
    }

    #[test]
    fn an_unknown_field_is_reported_with_its_line_and_column() {
        let err = parse_ron::<Probe>("x.ron", "Probe(\n  a: 1,\n  b: 2,\n)").unwrap_err();
        assert_eq!((err.line, err.file.as_str()), (3, "x.ron"));
        assert!(err.column >= 3, "{err}");
        assert!(err.message.contains('b'), "{err}");
    }

    #[test]
    fn a_number_is_found_after_its_field_first() {
        let text = "A(\n  x: 7,\n  move: 7,\n  range: -7,\n)";
        let at = |field: &str, value| {
            let e = LoadError::at_number("f", text, field, value, "m");
            (e.line, e.column)
        };
        assert_eq!(at("move", 7), (3, 9));
        assert_eq!(at("hp", 7), (2, 6));
        assert_eq!(at("range", -7), (4, 10));
        assert_eq!(at("range", 9), (4, 3));
    }

    #[test]
    fn offsets_turn_into_one_based_positions() {
        assert_eq!(offset_to_position("ab\ncd", 4), (2, 2));
        assert_eq!(offset_to_position("ab", 0), (1, 1));
    }
}
