//! RON's parse errors in the user's words. RON reports what its parser
//! expected (`Integer is out of bounds`, `Expected float`) and the Rust type
//! it was filling (`RawStage`, `RawBook`); a user needs the field they
//! wrote, the value they wrote there and what is accepted. This module reads
//! both from the text around the error's position: the field whose value it
//! is, the list entry it sits in, the value itself (cut to a short
//! excerpt), and words each kind of error in those terms. Type names never
//! reach the message.

use super::ron_place::{char_index, place_at, top_description, Place, VALUE_CHARS};
use super::text::excerpt;
use ron::error::Error as RonError;

/// Whole-number fields whose accepted range is narrower than their type's,
/// by the name written before the value (a field, or a variant like
/// `Depth`): the smallest and largest value their own checks accept. RON
/// refuses a negative or oversized number before those checks run, so the
/// message must say the range here. Fields not listed accept any value of
/// at least 0.
const RANGES: &[(&str, i64, Option<i64>)] = &[
    ("concurrency", 1, Some(256)),
    ("rounds", 1, None),
    ("max_pairs", 1, None),
    ("iterations", 1, None),
    ("pairs_per_iteration", 1, None),
    ("challengers", 1, None),
    ("Depth", 1, None),
    ("Nodes", 1, None),
    ("MoveTime", 1, None),
    ("tt_mib", 0, Some(16384)),
    ("endgame_exact_at", 0, Some(30)),
    ("endgame_selective_at", 0, Some(40)),
    ("min_empties", 0, Some(60)),
    ("squares", -100_000, Some(100_000)),
    ("aspiration", 1, Some(6400)),
    ("deep", 1, Some(60)),
    ("shallow", 0, Some(59)),
];

/// The message for RON error `code` at `line`:`column` (1-based) of `text`.
pub(crate) fn explain(code: &RonError, text: &str, line: usize, column: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut at = char_index(text, line, column).min(chars.len());
    // RON places some errors on the space (or the line end) before the
    // value.
    while chars.get(at).is_some_and(|c| c.is_whitespace()) {
        at += 1;
    }
    let place = place_at(&chars, at);
    words(code, &place)
}

/// `a, b or c`.
fn one_of(names: &[&str]) -> String {
    match names {
        [] => "nothing".into(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The words for `found`, written as a field of `container` (`an
/// engine`, `eval: Features`), which has the fields `expected` and not it.
pub fn unknown_field(found: &str, container: &str, expected: &[&str]) -> String {
    format!(
        "`{}` is not a field of {container}; the fields are {}",
        excerpt(found, VALUE_CHARS),
        one_of(expected)
    )
}

/// The accepted range of whole numbers at `place`, in words.
fn accepted_range(place: &Place) -> (i64, Option<i64>) {
    let key = place.range_key().unwrap_or("");
    RANGES
        .iter()
        .find(|(name, ..)| *name == key)
        .map_or((0, None), |&(_, lo, hi)| (lo, hi))
}

/// A number that RON could not fit in its field's type.
fn out_of_bounds(place: &Place) -> String {
    let name = place.name();
    let value = &place.value;
    let (lo, hi) = accepted_range(place);
    match hi {
        _ if value.starts_with('-') => format!("{name} must be at least {lo}, got {value}"),
        Some(hi) => format!("{name} must be at most {hi}, got {value}"),
        None => format!("{name} is too large, got {value}"),
    }
}

/// True when the value reads as a number with a fraction or an exponent.
fn is_fraction(value: &str) -> bool {
    value.parse::<f64>().is_ok() && value.contains(['.', 'e', 'E'])
}

/// The message for one error.
fn words(code: &RonError, place: &Place) -> String {
    value_words(code, place)
        .or_else(|| shape_words(code, place))
        .unwrap_or_else(|| syntax(code, place))
}

/// Where a value was expected, a separator means none was written.
fn written(place: &Place) -> &str {
    match place.value.as_str() {
        "`,`" | "`)`" | "`]`" | "`}`" => "nothing",
        v => v,
    }
}

/// A value of the wrong type (a number, text, a list...). `ron::Error` is
/// foreign and `#[non_exhaustive]`: the other errors fall through.
#[allow(clippy::wildcard_enum_match_arm)]
fn value_words(code: &RonError, place: &Place) -> Option<String> {
    let name = place.name();
    let value = written(place);
    Some(match code {
        RonError::IntegerOutOfBounds => out_of_bounds(place),
        RonError::ExpectedInteger => format!("{name} must be a whole number, got {value}"),
        // A word where a number goes: most often a field name written in
        // a value that takes its numbers in order, like `Clock(10000, 100)`.
        RonError::InvalidIntegerDigit { .. }
            if value
                .strip_prefix('`')
                .is_some_and(|v| v.starts_with(char::is_alphabetic)) =>
        {
            format!("{name} takes numbers in order, without field names; got {value}")
        }
        RonError::InvalidIntegerDigit { .. } => {
            format!("{name} must be a whole number, got {value}")
        }
        RonError::ExpectedComma if place.in_number && is_fraction(value) => {
            format!("{name} must be a whole number, got {value}")
        }
        RonError::ExpectedFloat => format!("{name} must be a number, got {value}"),
        RonError::ExpectedBoolean => format!("{name} must be true or false, got {value}"),
        RonError::ExpectedString if place.levels.first().is_some_and(|l| l.opener == '{') => {
            format!(
                "{name}: a key must be text in double quotes, got {}",
                place.next
            )
        }
        RonError::ExpectedString => {
            format!("{name} must be text in double quotes, got {value}")
        }
        RonError::ExpectedStringEnd => {
            format!("{name}: a string is not closed (a `\"` is missing)")
        }
        RonError::ExpectedOption => format!("{name} must be None or Some(...), got {value}"),
        RonError::ExpectedArray => format!("{name} must be a list in [...], got {value}"),
        RonError::ExpectedMap => format!("{name} must be a map in {{...}}, got {value}"),
        RonError::ExpectedMapColon => format!(
            "expected `:` after a field name in {}, found {value}",
            place.container()
        ),
        _ => return None,
    })
}

/// A struct or enum written wrong: a missing or unknown field, a name, the
/// parentheses. The other errors fall through.
#[allow(clippy::wildcard_enum_match_arm)]
fn shape_words(code: &RonError, place: &Place) -> Option<String> {
    let name = place.name();
    let value = written(place);
    Some(match code {
        RonError::ExpectedStructLike => match value.strip_prefix('`') {
            Some(word) if word.starts_with(char::is_uppercase) => {
                let word = word.trim_end_matches('`');
                format!("{name}: {word} needs its values in parentheses, like {word}(...)")
            }
            _ => format!("{name} must be written in parentheses, (...), got {value}"),
        },
        RonError::ExpectedNamedStructLike(top) if place.at_top() => {
            format!(
                "{} starts with `{top}(`, found {value}",
                capitalised(&top_description(top))
            )
        }
        RonError::ExpectedNamedStructLike(_) => {
            format!("{name} must be written in parentheses, (...), got {value}")
        }
        RonError::ExpectedDifferentStructName { found, .. } if !place.at_top() => format!(
            "{name} must be written in parentheses, (...), got `{}`",
            excerpt(found, VALUE_CHARS)
        ),
        RonError::ExpectedDifferentStructName { expected, found } => format!(
            "this file holds `{}(...)`, but {} is expected here (it starts with `{expected}(`)",
            excerpt(found, VALUE_CHARS),
            top_description(expected)
        ),
        RonError::ExpectedDifferentLength { expected, found } => {
            let wanted = expected
                .split_whitespace()
                .skip_while(|w| *w != "with")
                .nth(1)
                .unwrap_or("another number of");
            format!("{name} takes {wanted} values, got {found}")
        }
        RonError::NoSuchEnumVariant {
            expected, found, ..
        } => format!(
            "{name}: unknown value `{}`; expected {}",
            excerpt(found, VALUE_CHARS),
            one_of(expected)
        ),
        RonError::NoSuchStructField {
            expected, found, ..
        } => unknown_field(found, &place.container(), expected),
        RonError::MissingStructField { field, .. } => {
            format!(
                "{} needs the field `{field}:`, which is missing",
                place.container()
            )
        }
        RonError::DuplicateStructField { field, .. } => {
            format!("`{field}:` is given twice in {}", place.container())
        }
        RonError::InvalidValueForType { found, .. } => {
            format!("{name} cannot be {}", excerpt(found, VALUE_CHARS))
        }
        _ => return None,
    })
}

/// Errors of the text's shape: brackets, commas, stray characters, the end
/// of the file; RON's own words, with the place, for the rare rest.
#[allow(clippy::wildcard_enum_match_arm)]
fn syntax(code: &RonError, place: &Place) -> String {
    let value = &place.value;
    let inside = match place.field() {
        _ if place.at_top() => String::new(),
        Some(_) => format!(" in {}", place.name()),
        None => format!(" in {}", place.container()),
    };
    match code {
        RonError::Eof => format!(
            "the file ends before every bracket is closed{}",
            if place.at_top() {
                String::new()
            } else {
                format!(" (the last one open is {})", place.container())
            }
        ),
        RonError::TrailingCharacters => {
            format!("unexpected text after the end of the file's value: {value}")
        }
        RonError::ExpectedAttribute => {
            format!("this is not a RON data file: it starts with {value}")
        }
        RonError::ExpectedComma => {
            format!(
                "expected `,` or a closing bracket{inside}, found {}",
                place.next
            )
        }
        RonError::ExpectedIdentifier => {
            format!(
                "expected a field name in {}, found {value}",
                place.container()
            )
        }
        RonError::ExpectedArrayEnd => format!("expected `]`{inside}, found {value}"),
        RonError::ExpectedMapEnd => format!("expected `}}`{inside}, found {value}"),
        RonError::ExpectedOptionEnd | RonError::ExpectedStructLikeEnd => {
            format!("expected `)`{inside}, found {value}")
        }
        RonError::UnexpectedChar(c) => format!("unexpected character {c:?}{inside}"),
        RonError::SuggestRawIdentifier(word) | RonError::InvalidIdentifier(word) => format!(
            "`{}` is not a name{inside}: names are letters, digits and `_`",
            excerpt(word, VALUE_CHARS)
        ),
        RonError::Message(m) => format!("{}: {}", place.name(), excerpt(m, 120)),
        other => format!(
            "{}{inside} (near {value})",
            excerpt(&other.to_string(), 120)
        ),
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
