//! RON helpers shared by every data file (engines, weights, ProbCut,
//! tournaments): parsing with the file, line and column of an error, and the
//! staged-weights rules (stage lookup, stage bounds check).

use crate::error::{Error, Result};
use std::path::Path;

pub use super::ron_explain::unknown_field;

/// Parses a RON data file (a tournament, an engine, weights, ProbCut) into
/// `T`, with the file, line and column of a syntax or shape error, and a
/// message in the user's words: the field, the value written and what is
/// accepted (see [`super::ron_explain`]). A leading byte order mark is
/// ignored.
///
/// # Errors
/// [`Error::Config`] naming the place.
pub fn parse_ron<T: serde::de::DeserializeOwned>(text: &str, path: &Path) -> Result<T> {
    parse_ron_seed(text, path, std::marker::PhantomData)
}

/// [`parse_ron`] with a seed: what `seed` reads, with the same errors.
fn parse_ron_seed<'de, S: serde::de::DeserializeSeed<'de>>(
    text: &'de str,
    path: &Path,
    seed: S,
) -> Result<S::Value> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    ron::Options::default()
        .from_str_seed(text, seed)
        .map_err(|e: ron::error::SpannedError| {
            // Trailing text is reported from the end of the value before
            // it; the text itself starts at the span's end.
            let at = if matches!(e.code, ron::Error::TrailingCharacters) {
                &e.span.end
            } else {
                &e.span.start
            };
            let (line, column) = (at.line, at.col);
            let message = super::ron_explain::explain(&e.code, text, line, column);
            Error::config_at(path, line, column, message)
        })
}

/// Reads `value`, the RON text of the field `field` of a struct written
/// `top(...)` (`8` in an engine file's `Engine(tt_mib: 8)`), as a `T`:
/// read in that place, as the field of a file is, so that what does not
/// read is said in [`parse_ron`]'s words of a file, naming the field and
/// the value (`tt_mib must be a whole number, got `lots``).
///
/// # Errors
/// The message alone: the text read is the value's, not a file's.
pub fn parse_ron_field<T: serde::de::DeserializeOwned>(
    value: &str,
    top: &'static str,
    field: &str,
) -> std::result::Result<T, String> {
    let text = format!("{top}({field}: {value})");
    parse_ron_seed(&text, Path::new(""), field_seed::OneField::<T>::new(top)).map_err(|e| {
        if let Error::Config { message, .. } = e {
            message
        } else {
            e.to_string()
        }
    })
}

/// Reading a struct of one field, whatever its name, as that field's value.
mod field_seed {
    use serde::de::{self, DeserializeOwned, DeserializeSeed, MapAccess, Visitor};
    use std::fmt;
    use std::marker::PhantomData;

    /// `TOP(NAME: VALUE)` read as the `T` of `VALUE`.
    pub(super) struct OneField<T> {
        top: &'static str,
        value: PhantomData<T>,
    }

    impl<T> OneField<T> {
        pub(super) fn new(top: &'static str) -> OneField<T> {
            OneField {
                top,
                value: PhantomData,
            }
        }
    }

    impl<'de, T: DeserializeOwned> DeserializeSeed<'de> for OneField<T> {
        type Value = T;

        fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
            d.deserialize_struct(self.top, &[], self)
        }
    }

    impl<'de, T: DeserializeOwned> Visitor<'de> for OneField<T> {
        type Value = T;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{}(FIELD: VALUE)", self.top)
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
            if map.next_key::<Name>()?.is_none() {
                return Err(de::Error::custom("no value is written"));
            }
            let value = map.next_value::<T>()?;
            if map.next_key::<Name>()?.is_some() {
                return Err(de::Error::custom("one value is written, not several"));
            }
            Ok(value)
        }
    }

    /// A field's name, read as an identifier and not kept.
    struct Name;

    impl<'de> de::Deserialize<'de> for Name {
        fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Name, D::Error> {
            struct NameVisitor;
            impl Visitor<'_> for NameVisitor {
                type Value = Name;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("a field name")
                }
                fn visit_str<E: de::Error>(self, _: &str) -> Result<Name, E> {
                    Ok(Name)
                }
            }
            d.deserialize_identifier(NameVisitor)
        }
    }
}

/// The stage (index into `stages`, sorted by `min_empties` descending) for a
/// position with `empties` empty squares: the first whose `min_empties` is
/// at most `empties`.
#[inline]
pub fn stage_of(min_empties: &[u32], empties: u32) -> usize {
    min_empties
        .iter()
        .position(|&m| empties >= m)
        .unwrap_or(min_empties.len() - 1)
}

/// Checks a list of stage bounds: non-empty, strictly decreasing, ending at 0.
///
/// # Errors
/// [`Error::Config`] naming the field, at the stage that breaks the order.
pub fn check_stages(min_empties: &[u32], text: &str, path: &Path) -> Result<()> {
    let bad = |n: usize, msg: String| {
        Err(super::ron_scan::config_field_nth(
            path,
            text,
            "min_empties",
            n,
            msg,
        ))
    };
    let Some(&last) = min_empties.last() else {
        return bad(0, "there must be at least one stage".into());
    };
    if let Some(i) = min_empties.windows(2).position(|w| w[0] <= w[1]) {
        return bad(
            i + 1,
            format!(
                "stages must be listed with min_empties strictly decreasing, got {min_empties:?} (stage {} is not below stage {})",
                i + 2,
                i + 1
            ),
        );
    }
    if last != 0 {
        return bad(
            min_empties.len() - 1,
            format!("the last stage must have min_empties: 0 (got {last})"),
        );
    }
    Ok(())
}

/// What is wrong with a display name (a `what`'s, e.g. "an engine"): it is
/// empty, or not one line of plain text (names label results, tables and
/// game records, line by line).
pub fn name_problem(name: &str, what: &str) -> Option<String> {
    if name.trim().is_empty() {
        Some(format!("{what} needs a non-empty name"))
    } else if name.chars().any(char::is_control) {
        Some(format!(
            "{name:?} holds a line break, tab or other control character; a name is one line of text"
        ))
    } else {
        None
    }
}

/// Where a config came from: its file (named in errors, and the base of the
/// relative paths inside it), its text (where errors find their line) and
/// the part of the text it is (the whole file, or one inline engine of a
/// tournament's `engines` list).
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    /// The file.
    pub path: &'a Path,
    /// Its text.
    pub text: &'a str,
    /// The characters (a range of indices) this value is written in.
    scope: (usize, usize),
}

impl<'a> Source<'a> {
    /// The source `text` of the file `path`.
    pub fn new(path: &'a Path, text: &'a str) -> Source<'a> {
        Source {
            path,
            text,
            scope: (0, usize::MAX),
        }
    }

    /// The source of entry `n` (0-based) of the list `list` written in
    /// this one: errors about its fields point into that entry. This
    /// source when there is no such entry.
    pub fn entry(&self, list: &str, n: usize) -> Source<'a> {
        let within = |&(a, b): &(usize, usize)| a >= self.scope.0 && b <= self.scope.1;
        match super::ron_scan::list_entry(self.text, list, n).filter(within) {
            Some(scope) => Source { scope, ..*self },
            None => *self,
        }
    }

    /// An error about `field`: at its least deep occurrence in this
    /// source's part of the text (the first of those), or where that part
    /// starts when the field is not written (left to its default).
    pub fn field(&self, field: &str, message: impl Into<String>) -> Error {
        let (line, column) = self.place(field);
        Error::config_at(
            self.path,
            line,
            column,
            format!("{field}: {}", message.into()),
        )
    }

    /// Line and column of `field`, as [`Source::field`] places its error.
    pub fn place(&self, field: &str) -> (usize, usize) {
        super::ron_scan::field_place(self.text, self.scope, field, 0)
    }

    /// Line and column of the value written after `field:` (on the same
    /// line); where `field` is placed when its value is on another line.
    pub fn value_place(&self, field: &str) -> (usize, usize) {
        let (line, column) = self.place(field);
        let Some(text) = line.checked_sub(1).and_then(|i| self.text.lines().nth(i)) else {
            return (line, column);
        };
        let rest: Vec<char> = text.chars().skip(column.saturating_sub(1)).collect();
        let after = field.chars().count();
        let skip = rest
            .iter()
            .enumerate()
            .skip(after)
            .find(|&(_, c)| *c != ':' && !c.is_whitespace())
            .map(|(k, _)| k);
        match skip {
            Some(k) if rest[after..k].contains(&':') => (line, column + k),
            _ => (line, column),
        }
    }

    /// The folder relative paths inside the file start from.
    pub fn base(&self) -> &'a Path {
        self.path.parent().unwrap_or(Path::new("."))
    }
}

/// A raw (deserialized, unchecked) config with its [`Source`]: what the
/// `TryFrom` steps into checked types take, so each check can name the
/// file, line and field of a problem.
#[derive(Clone, Copy, Debug)]
pub struct Sourced<'a, T> {
    /// The raw value.
    pub raw: T,
    /// Where it came from.
    pub source: Source<'a>,
}
