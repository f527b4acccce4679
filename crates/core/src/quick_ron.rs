//! A quick reader for the plain RON our data files are written in; anything else goes to the `ron` crate.
//!
//! The `ron` crate checks every token against every form RON allows (number prefixes and suffixes,
//! byte literals, raw strings, Unicode whitespace), which makes a board's list of coordinate pairs
//! slow to read: on a run over many case files it was a quarter of the whole process. This reader
//! knows only the plain forms (decimal integers, strings without escapes, named structs, lists,
//! tuples, maps, unit and data-carrying enum variants, options bare or as `Some(..)`, `//` and
//! non-nested `/* */` comments) and gives up, with no result, at anything else, including every
//! error: the caller then reads the text again with `ron`, which reports the error with its
//! position. So it may only accept what `ron` accepts, and must build the same value from it; tests
//! compare the two on every data file here and on many thousands of altered copies of them.

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use std::fmt;

/// Nesting deeper than this is left to `ron` (whose own limit is 128), so that no text can exhaust
/// the stack here.
const MAX_DEPTH: usize = 100;

/// Reads `text` as a `T` if it is written in plain RON and is a valid `T`; `None` otherwise.
pub(crate) fn from_str<T: de::DeserializeOwned>(text: &str) -> Option<T> {
    let mut reader = Reader {
        text,
        at: 0,
        depth: 0,
    };
    let value = T::deserialize(&mut reader).ok()?;
    reader.skip_ws().ok()?;
    (reader.at == text.len()).then_some(value)
}

/// Why the quick reader stopped; never shown, as `ron` then reads the text and says what is wrong.
#[derive(Debug)]
pub(crate) struct GiveUp;

impl fmt::Display for GiveUp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not plain RON")
    }
}

impl std::error::Error for GiveUp {}

impl de::Error for GiveUp {
    fn custom<T: fmt::Display>(_: T) -> Self {
        GiveUp
    }
}

type Result<T> = std::result::Result<T, GiveUp>;

struct Reader<'a> {
    /// Read as bytes; pieces cut between ASCII bytes are taken from the text itself, which is
    /// already known to be UTF-8.
    text: &'a str,
    /// The byte read next.
    at: usize,
    depth: usize,
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

impl<'a> Reader<'a> {
    fn src(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    fn peek(&self) -> Option<u8> {
        self.src().get(self.at).copied()
    }

    /// Skips whitespace and comments. Other whitespace than ASCII's, nested block comments and
    /// `#!` attributes are left to `ron`.
    fn skip_ws(&mut self) -> Result<()> {
        loop {
            match self.peek() {
                Some(b' ' | b'\n' | b'\t' | b'\r') => self.at += 1,
                Some(b'/') => match self.src().get(self.at + 1) {
                    Some(b'/') => {
                        let rest = &self.src()[self.at..];
                        self.at += rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
                    }
                    Some(b'*') => {
                        let body = &self.src()[self.at + 2..];
                        let end = body.windows(2).position(|w| w == b"*/").ok_or(GiveUp)?;
                        if body[..end].windows(2).any(|w| w == b"/*") {
                            return Err(GiveUp);
                        }
                        self.at += 2 + end + 2;
                    }
                    _ => return Err(GiveUp),
                },
                _ => return Ok(()),
            }
        }
    }

    /// Skips whitespace, then takes `b` if it comes next.
    fn eat(&mut self, b: u8) -> Result<bool> {
        self.skip_ws()?;
        if self.peek() == Some(b) {
            self.at += 1;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    fn expect(&mut self, b: u8) -> Result<()> {
        if self.eat(b)? { Ok(()) } else { Err(GiveUp) }
    }

    /// The identifier that comes next, if one does (ASCII only; raw identifiers are `ron`'s).
    fn ident(&mut self) -> Result<Option<&'a str>> {
        self.skip_ws()?;
        let start = self.at;
        if !self.peek().is_some_and(is_ident_start) {
            return Ok(None);
        }
        let len = self.src()[start..]
            .iter()
            .position(|&b| !is_ident_char(b))
            .unwrap_or(self.src().len() - start);
        if self.src().get(start + len) == Some(&b'#') {
            return Err(GiveUp);
        }
        self.at += len;
        self.text.get(start..start + len).map(Some).ok_or(GiveUp)
    }

    /// Takes the keyword `word` if it comes next as a whole identifier.
    fn eat_word(&mut self, word: &str) -> Result<bool> {
        let save = self.at;
        if self.ident()? == Some(word) {
            Ok(true)
        } else {
            self.at = save;
            Ok(false)
        }
    }

    /// A struct, tuple struct or unit struct's optional name: when written it must be `name`.
    fn struct_name(&mut self, name: &str) -> Result<()> {
        match self.ident()? {
            None => Ok(()),
            Some(found) if found == name => Ok(()),
            Some(_) => Err(GiveUp),
        }
    }

    /// A decimal integer: an optional minus, then digits with no leading zero, no `_` and no suffix.
    fn integer(&mut self) -> Result<i128> {
        self.skip_ws()?;
        let negative = self.peek() == Some(b'-');
        if negative {
            self.at += 1;
        }
        let start = self.at;
        let len = self.src()[start..]
            .iter()
            .position(|b| !b.is_ascii_digit())
            .unwrap_or(self.src().len() - start);
        let digits = &self.src()[start..start + len];
        let next = self.src().get(start + len).copied();
        if len == 0
            || len > 30
            || (len > 1 && digits[0] == b'0')
            || next.is_some_and(|b| is_ident_char(b) || b == b'.')
            || (negative && digits == b"0")
        {
            return Err(GiveUp);
        }
        self.at += len;
        let value = digits
            .iter()
            .fold(0i128, |n, &d| n * 10 + i128::from(d - b'0'));
        Ok(if negative { -value } else { value })
    }

    /// A string with no escapes (those are `ron`'s).
    fn string(&mut self) -> Result<&'a str> {
        self.expect(b'"')?;
        let start = self.at;
        let len = self.src()[start..]
            .iter()
            .position(|&b| b == b'"' || b == b'\\')
            .ok_or(GiveUp)?;
        if self.src()[start + len] == b'\\' {
            return Err(GiveUp);
        }
        self.at += len + 1;
        self.text.get(start..start + len).ok_or(GiveUp)
    }

    /// Whether another item comes before `close`, taking the comma before it unless it is the
    /// `first`; a trailing comma before `close` is allowed.
    fn another(&mut self, close: u8, first: &mut bool) -> Result<bool> {
        self.skip_ws()?;
        if self.peek() == Some(close) {
            return Ok(false);
        }
        if !std::mem::replace(first, false) {
            self.expect(b',')?;
            self.skip_ws()?;
            if self.peek() == Some(close) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// What `f` reads one level deeper, then an optional trailing comma and `close`: the inside
    /// of brackets already opened. A tuple's visitor takes just its items, so a trailing comma is
    /// left, and so is a surplus item, which `expect` then refuses.
    fn closed_by<T>(&mut self, close: u8, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let value = self.nested(f)?;
        self.eat(b',')?;
        self.expect(close)?;
        Ok(value)
    }

    /// `open`, a list's or a tuple's items up to `close`, and `close`.
    fn items<V: Visitor<'a>>(&mut self, open: u8, close: u8, visitor: V) -> Result<V::Value> {
        self.expect(open)?;
        self.closed_by(close, |r| {
            visitor.visit_seq(Items {
                reader: r,
                close,
                first: true,
            })
        })
    }

    /// `open`, a struct's fields (`fields`) or a map's entries up to `close`, and `close`.
    fn entries<V: Visitor<'a>>(
        &mut self,
        open: u8,
        close: u8,
        fields: bool,
        visitor: V,
    ) -> Result<V::Value> {
        self.expect(open)?;
        self.closed_by(close, |r| {
            visitor.visit_map(Entries {
                reader: r,
                close,
                first: true,
                fields,
            })
        })
    }

    /// Runs `f` one level deeper, giving up past `MAX_DEPTH`.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        if self.depth >= MAX_DEPTH {
            return Err(GiveUp);
        }
        self.depth += 1;
        let out = f(self);
        self.depth -= 1;
        out
    }
}

macro_rules! integers {
    ($($method:ident $visit:ident $ty:ty;)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let n = self.integer()?;
            visitor.$visit(<$ty>::try_from(n).map_err(|_| GiveUp)?)
        }
    )*};
}

macro_rules! give_up {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
            Err(GiveUp)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for &mut Reader<'de> {
    type Error = GiveUp;

    integers! {
        deserialize_i8 visit_i8 i8;
        deserialize_i16 visit_i16 i16;
        deserialize_i32 visit_i32 i32;
        deserialize_i64 visit_i64 i64;
        deserialize_i128 visit_i128 i128;
        deserialize_u8 visit_u8 u8;
        deserialize_u16 visit_u16 u16;
        deserialize_u32 visit_u32 u32;
        deserialize_u64 visit_u64 u64;
        deserialize_u128 visit_u128 u128;
    }

    // What only a self-describing read, a float or a char would need is left to `ron`.
    give_up! {
        deserialize_any deserialize_ignored_any deserialize_f32 deserialize_f64 deserialize_char
        deserialize_bytes deserialize_byte_buf
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.ident()? {
            Some("true") => visitor.visit_bool(true),
            Some("false") => visitor.visit_bool(false),
            _ => Err(GiveUp),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_str(self.string()?)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.ident()? {
            Some(name) => visitor.visit_borrowed_str(name),
            None => Err(GiveUp),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.eat_word("None")? {
            return visitor.visit_none();
        }
        let save = self.at;
        if self.eat_word("Some")? && self.eat(b'(')? {
            return self.closed_by(b')', |r| visitor.visit_some(r));
        }
        // Written bare (`ron`'s implicit `Some`); a `Some` not followed by `(` is read again as the
        // value itself, as `ron` does.
        self.at = save;
        self.nested(|r| visitor.visit_some(r))
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.expect(b'(')?;
        self.expect(b')')?;
        visitor.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if self.eat_word(name)? {
            return visitor.visit_unit();
        }
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.struct_name(name)?;
        self.expect(b'(')?;
        self.closed_by(b')', |r| visitor.visit_newtype_struct(r))
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.items(b'[', b']', visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.items(b'(', b')', visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.struct_name(name)?;
        self.deserialize_tuple(len, visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.entries(b'{', b'}', false, visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.struct_name(name)?;
        self.entries(b'(', b')', true, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.nested(|r| visitor.visit_enum(Variant { reader: r }))
    }
}

/// The items of a list or a tuple, separated by commas, with an optional trailing comma.
struct Items<'r, 'de> {
    reader: &'r mut Reader<'de>,
    close: u8,
    first: bool,
}

impl<'de> de::SeqAccess<'de> for Items<'_, 'de> {
    type Error = GiveUp;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if !self.reader.another(self.close, &mut self.first)? {
            return Ok(None);
        }
        seed.deserialize(&mut *self.reader).map(Some)
    }
}

/// A struct's fields (`name: value`) or a map's entries (`key: value`), comma-separated.
struct Entries<'r, 'de> {
    reader: &'r mut Reader<'de>,
    close: u8,
    first: bool,
    /// A struct's keys are bare identifiers; a map's are values.
    fields: bool,
}

impl<'de> de::MapAccess<'de> for Entries<'_, 'de> {
    type Error = GiveUp;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if !self.reader.another(self.close, &mut self.first)? {
            return Ok(None);
        }
        let key = if self.fields {
            let name = self.reader.ident()?.ok_or(GiveUp)?;
            seed.deserialize(name.into_deserializer())?
        } else {
            seed.deserialize(&mut *self.reader)?
        };
        self.reader.expect(b':')?;
        Ok(Some(key))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        seed.deserialize(&mut *self.reader)
    }
}

/// An enum variant: `Name`, `Name(value)`, `Name(a, b)` or `Name(field: value)`.
struct Variant<'r, 'de> {
    reader: &'r mut Reader<'de>,
}

impl<'de> de::EnumAccess<'de> for Variant<'_, 'de> {
    type Error = GiveUp;
    type Variant = Self;

    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Self)> {
        let name = self.reader.ident()?.ok_or(GiveUp)?;
        let value = seed.deserialize(de::value::BorrowedStrDeserializer::new(name))?;
        Ok((value, self))
    }
}

impl<'de> de::VariantAccess<'de> for Variant<'_, 'de> {
    type Error = GiveUp;

    fn unit_variant(self) -> Result<()> {
        // `Name()` and the like are `ron`'s to judge.
        self.reader.skip_ws()?;
        match self.reader.peek() {
            Some(b'(') => Err(GiveUp),
            _ => Ok(()),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        self.reader.expect(b'(')?;
        self.reader.closed_by(b')', |r| seed.deserialize(r))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.reader.items(b'(', b')', visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.reader.entries(b'(', b')', true, visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::parse_ron_fully;
    use crate::game::save::Save;
    use crate::modifiers::{deck::DeckFile, odds::OddsQuery};
    use crate::rules::brimstone::{self, Brimstone};
    use crate::rules::gloomhaven::{self, Gloomhaven};
    use crate::rules::goals::{self, Goals};
    use rand::{RngExt, SeedableRng};
    use std::fmt::Debug;
    use std::path::{Path, PathBuf};

    /// Whether the quick reader read `text` as a `T`. When it did, `ron` must read the same value
    /// (compared by every field's debug form); when it did not, `ron` reads it or refuses it alone.
    fn agrees<T: de::DeserializeOwned + Debug>(text: &str) -> std::result::Result<bool, String> {
        let Some(quick) = from_str::<T>(text) else {
            return Ok(false);
        };
        match parse_ron_fully::<T>("f.ron", text) {
            Ok(full) if format!("{full:?}") == format!("{quick:?}") => Ok(true),
            Ok(full) => Err(format!("read as {quick:?}, by ron as {full:?}")),
            Err(e) => Err(format!("read as {quick:?}, refused by ron: {e}")),
        }
    }

    /// Every type a data file is read as: what [`agrees`] says for each, by name.
    fn each_type(text: &str) -> Vec<(&'static str, std::result::Result<bool, String>)> {
        vec![
            ("Puzzle", agrees::<gloomhaven::case::Puzzle>(text)),
            ("Scenario", agrees::<gloomhaven::scenario::Scenario>(text)),
            ("Save<Gloomhaven>", agrees::<Save<Gloomhaven>>(text)),
            ("GoalTurn", agrees::<goals::case::GoalTurn>(text)),
            (
                "goals Scenario",
                agrees::<goals::scenario::ScenarioFile>(text),
            ),
            ("Save<Goals>", agrees::<Save<Goals>>(text)),
            ("Placement", agrees::<brimstone::case::PlacementCase>(text)),
            ("Targeting", agrees::<brimstone::case::TargetingCase>(text)),
            (
                "HeroAttack",
                agrees::<brimstone::case::HeroAttackCase>(text),
            ),
            (
                "EndOfFight",
                agrees::<brimstone::case::EndOfFightCase>(text),
            ),
            (
                "Brimstone Scenario",
                agrees::<brimstone::scenario::ScenarioFile>(text),
            ),
            ("Save<Brimstone>", agrees::<Save<Brimstone>>(text)),
            ("DeckFile", agrees::<DeckFile>(text)),
            ("OddsQuery", agrees::<OddsQuery>(text)),
        ]
    }

    /// Every `.ron` file of the repository's data folders, in name order.
    fn data_files() -> Vec<PathBuf> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut out = Vec::new();
        let mut folders: Vec<PathBuf> = ["scenarios", "assets", "tests"]
            .iter()
            .map(|f| root.join(f))
            .collect();
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    folders.push(path);
                } else if path.extension().is_some_and(|x| x == "ron") {
                    out.push(path);
                }
            }
        }
        out.sort();
        out
    }

    #[test]
    fn every_data_file_reads_as_ron_reads_it_as_every_type() {
        let mut quick = 0;
        let files = data_files();
        assert!(files.len() > 120, "{} files", files.len());
        for file in &files {
            let text = std::fs::read_to_string(file).unwrap();
            for (name, verdict) in each_type(&text) {
                match verdict {
                    Ok(read) => quick += usize::from(read),
                    Err(why) => panic!("{} as {name}: {why}", file.display()),
                }
            }
        }
        // What the quick reader is for: every puzzle and every Brimstone case is read by it.
        for folder in ["conformance/frosthaven", "puzzles", "conformance/brimstone"] {
            for file in files
                .iter()
                .filter(|f| f.to_string_lossy().contains(folder))
            {
                let text = std::fs::read_to_string(file).unwrap();
                let read = each_type(&text).iter().any(|(_, v)| *v == Ok(true));
                assert!(read, "{} is left to ron", file.display());
            }
        }
        eprintln!(
            "{quick} readings of {} files by the quick reader",
            files.len()
        );
        assert!(quick >= 77, "{quick} files read quickly");
    }

    /// A copy of `text` with one small change: a character taken out, put in or replaced, or a
    /// short piece repeated, with the characters and words RON gives meaning to.
    fn altered(text: &str, rng: &mut impl rand::Rng) -> String {
        const PIECES: &[&str] = &[
            ",", "(", ")", "[", "]", "{", "}", ":", "-", "0", "1", "7", "\"", "\\", " ", "\n", "_",
            "a", "//", "/*", "*/", "#", "Some", "None", "Some(", "true", "r#", "0x", "+", ".", "e",
            "é", "u8", "()", "b'", "\t", "\u{a0}",
        ];
        let chars: Vec<char> = text.chars().collect();
        let at = rng.random_range(0..=chars.len());
        let piece = PIECES[rng.random_range(0..PIECES.len())];
        let mut out: String = chars[..at].iter().collect();
        let rest: String = match rng.random_range(0..4) {
            0 => chars.get(at + 1..).unwrap_or_default().iter().collect(),
            1 => format!("{piece}{}", chars[at..].iter().collect::<String>()),
            2 => format!(
                "{piece}{}",
                chars
                    .get(at + 1..)
                    .unwrap_or_default()
                    .iter()
                    .collect::<String>()
            ),
            _ => {
                let end = (at + rng.random_range(1..12)).min(chars.len());
                let piece: String = chars[at..end].iter().collect();
                format!("{piece}{}", chars[at..].iter().collect::<String>())
            }
        };
        out.push_str(&rest);
        out
    }

    #[test]
    fn altered_data_files_read_as_ron_reads_them_or_are_left_to_ron() {
        // FOEHOLD_QUICK_RON_ALTERED sets how many altered copies of each file are tried.
        let per_file: usize = std::env::var("FOEHOLD_QUICK_RON_ALTERED")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(150);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let (mut tried, mut read) = (0, 0);
        for file in data_files() {
            let text = std::fs::read_to_string(&file).unwrap();
            // Each copy is tried as the types the file itself reads as, where a change matters.
            let types: Vec<&str> = each_type(&text)
                .into_iter()
                .filter(|(_, v)| *v == Ok(true))
                .map(|(name, _)| name)
                .collect();
            for _ in 0..per_file {
                let copy = altered(&text, &mut rng);
                for (name, verdict) in each_type(&copy) {
                    if !types.contains(&name) {
                        continue;
                    }
                    tried += 1;
                    match verdict {
                        Ok(r) => read += usize::from(r),
                        Err(why) => panic!("{} altered, as {name}: {why}\n{copy}", file.display()),
                    }
                }
            }
        }
        // Many copies still read (a changed number, a comment, a space): those were compared.
        eprintln!("{read} of {tried} altered copies read quickly, and read the same by ron");
        assert!(tried > 5_000 && read > tried / 10, "{read} of {tried}");
    }

    #[test]
    fn plain_forms_read_and_the_rest_is_left_to_ron() {
        #[derive(Debug, serde::Deserialize, PartialEq)]
        struct P {
            a: Option<i32>,
            b: Option<(u8, i64)>,
            c: Vec<String>,
        }
        let p: P =
            from_str("P(a: -3, b: Some((1, -2),), c: [\"x y\", /* c */ \"\",],) // end").unwrap();
        assert_eq!(
            p,
            P {
                a: Some(-3),
                b: Some((1, -2)),
                c: vec!["x y".into(), String::new()]
            }
        );
        let p: P = from_str("(a: None, b: (0, 5), c: [])").unwrap();
        assert_eq!((p.a, p.b), (None, Some((0, 5))));
        for left in [
            "Q(a: 1, b: None, c: [])",
            "P(a: +1, b: None, c: [])",
            "P(a: 0x1, b: None, c: [])",
            "P(a: 1_0, b: None, c: [])",
            "P(a: 01, b: None, c: [])",
            "P(a: 1i32, b: None, c: [])",
            "P(a: 1, b: (256, 0), c: [])",
            "P(a: 1, b: (1, 2, 3), c: [])",
            "P(a: 1, b: None, c: [\"\\n\"])",
            "P(a: 1, b: None, c: []) x",
            "#![enable(implicit_some)] P(a: 1, b: None, c: [])",
            "P(a: 1, b: None, c: [] /* /* */ */)",
            "P(r#a: 1, b: None, c: [])",
        ] {
            assert_eq!(from_str::<P>(left), None, "{left}");
        }
        #[derive(Debug, serde::Deserialize)]
        #[serde(transparent)]
        struct Nest(#[expect(dead_code, reason = "only its depth matters")] Vec<Nest>);
        let nest = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(from_str::<Nest>(&nest(MAX_DEPTH)).is_some());
        assert!(from_str::<Nest>(&nest(MAX_DEPTH + 1)).is_none());
        assert!(from_str::<Nest>(&nest(100_000)).is_none());
    }
}
