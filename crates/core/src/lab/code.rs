//! Position codes: a case file as one short line of text to copy and paste, versioned so that old
//! codes keep opening.
//!
//! Version 1 is `FH1.` followed by the case file's text, deflated (`miniz_oxide`) and written in
//! URL-safe base64 without padding (`data-encoding`). The code carries the file itself, so a code
//! opens wherever the file would, and the case formats' own care for old files carries over.

use data_encoding::BASE64URL_NOPAD;

/// The prefix of version 1 codes.
pub(crate) const V1: &str = "FH1.";
/// The longest code read; longer text is refused before it is decoded.
pub const MAX_CODE: usize = 64 * 1024;
/// The longest case file a code may unpack to.
pub(crate) const MAX_TEXT: usize = 1 << 20;

/// The code of a case file's text.
pub fn encode(text: &str) -> String {
    encode_as(V1, text)
}

/// The case file's text a code carries, or why it is no code. Blank space and line breaks inside
/// the code (from a chat window's wrapping) are ignored.
pub fn decode(code: &str) -> Result<String, String> {
    decode_as(V1, "position code", code)
}

/// A text's code behind `prefix` (`FH1.` a position, `FS1.` a scenario to share): the text
/// deflated, in URL-safe base64.
pub fn encode_as(prefix: &str, text: &str) -> String {
    let packed = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), 9);
    format!("{prefix}{}", BASE64URL_NOPAD.encode(&packed))
}

/// The text a code behind `prefix` carries, or why it is no `what` (a code of another version of
/// the same family is named as such). Bounded as [`decode`] is.
pub fn decode_as(prefix: &str, what: &str, code: &str) -> Result<String, String> {
    if code.len() > MAX_CODE {
        return Err(format!(
            "the code is {} characters long: expected at most {MAX_CODE}",
            code.len()
        ));
    }
    let code: String = code.split_whitespace().collect();
    let family = prefix.trim_end_matches(|c: char| c == '.' || c.is_ascii_digit());
    let Some(body) = code.strip_prefix(prefix) else {
        return Err(match code.split_once('.') {
            Some((v, _)) if v.starts_with(family) && v.len() > family.len() => {
                format!(
                    "`{v}` is a code of a version this Foehold does not know: expected `{prefix}`"
                )
            }
            _ => format!("not a {what}: expected text starting with `{prefix}`"),
        });
    };
    let packed = BASE64URL_NOPAD
        .decode(body.as_bytes())
        .map_err(|e| format!("the code is damaged: {e}"))?;
    let bytes = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_TEXT).map_err(
        |e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => {
                format!("the code unpacks to more than {MAX_TEXT} bytes")
            }
            _ => "the code is damaged: its contents do not unpack".into(),
        },
    )?;
    String::from_utf8(bytes).map_err(|_| "the code is damaged: its contents are not text".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_carries_the_file_exactly_and_is_shorter_than_it() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/puzzles/e2-001.ron"
        ))
        .unwrap();
        let code = encode(&text);
        assert!(code.starts_with(V1));
        assert!(
            code.len() < text.len() / 2,
            "{} of {}",
            code.len(),
            text.len()
        );
        assert!(
            code.chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        );
        assert_eq!(decode(&code).unwrap(), text);
        // A chat window's line breaks do not matter.
        let (a, b) = code.split_at(code.len() / 2);
        assert_eq!(decode(&format!("  {a}\n {b} ")).unwrap(), text);
    }

    #[test]
    fn a_version_one_code_written_today_opens_unchanged() {
        // Written once by another deflater and kept: whatever packs a version 1 code, it opens.
        let kept = "FH1.09dXSFQoLE0tLsnMz-MKKK2qyknV4FJQyEjNyclXKM8vyknh0uQCAA";
        assert_eq!(
            decode(kept).unwrap(),
            "// a question\nPuzzle(\n  hello world\n)\n"
        );
    }

    #[test]
    fn bad_codes_are_refused_with_a_reason() {
        let why = |c: &str| decode(c).unwrap_err();
        assert!(
            why("hello").contains("not a position code"),
            "{}",
            why("hello")
        );
        assert!(why("FH9.abc").contains("version"), "{}", why("FH9.abc"));
        assert!(why("FH1.***").contains("damaged"), "{}", why("FH1.***"));
        assert!(why("FH1.AAAA").contains("damaged"), "{}", why("FH1.AAAA"));
        let long = format!("FH1.{}", "A".repeat(MAX_CODE));
        assert!(why(&long).contains("at most"), "{}", why(&long));
        // A small code that unpacks to a flood is stopped at the limit.
        let bomb = encode(&" ".repeat(MAX_TEXT + 1));
        assert!(bomb.len() < MAX_CODE);
        assert!(why(&bomb).contains("more than"), "{}", why(&bomb));
    }
}
