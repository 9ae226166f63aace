//! Where in a RON file an error is, in the file's own terms: the fields
//! and list entries around the position (`stages entry 2, mobility`), the
//! struct it sits in, and the value written there, cut to a short excerpt.
//! Read from the text alone (comments and strings masked), so it works for
//! every file kind without knowing its Rust types.

use super::text::excerpt;

/// Longest quoted value, in characters.
pub(super) const VALUE_CHARS: usize = 40;

/// One enclosing level of the error's position, innermost first.
#[derive(Clone, Debug, Default)]
pub(super) struct Level {
    /// The field (or map key) whose value holds the position at this level.
    pub(super) field: Option<String>,
    /// The name written before this level's bracket (`Depth`, `Engine`).
    pub(super) name: Option<String>,
    /// The bracket that opens it: `(`, `[` or `{`.
    pub(super) opener: char,
    /// Commas between the bracket and the position: the entry's index in
    /// a list.
    pub(super) index: usize,
}

/// Where an error is: the levels around it and the value written there.
pub(super) struct Place {
    pub(super) levels: Vec<Level>,
    /// The whole value the position is in.
    pub(super) value: String,
    /// What starts at the position itself (for "expected X, found Y").
    pub(super) next: String,
    /// The position is a `.` or an exponent inside a number: a fraction
    /// where a whole number was read.
    pub(super) in_number: bool,
}

/// The place of position `at` (an index in characters) of the text.
pub(super) fn place_at(chars: &[char], at: usize) -> Place {
    Place {
        levels: levels(
            &super::ron_scan::mask_ron(chars),
            chars,
            token_start(chars, at),
        ),
        value: value_at(chars, at),
        next: value_at(&chars[at..], 0),
        in_number: chars.get(at).is_some_and(|c| matches!(c, '.' | 'e' | 'E'))
            && at > 0
            && chars[at - 1].is_ascii_digit(),
    }
}

/// The index in characters of a 1-based line and column.
pub(super) fn char_index(text: &str, line: usize, column: usize) -> usize {
    let mut index = 0;
    for (i, l) in text.split('\n').enumerate() {
        if i + 1 == line {
            return index + column.saturating_sub(1).min(l.chars().count());
        }
        index += l.chars().count() + 1;
    }
    index
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Characters a written value is made of (numbers, names, strings' quotes).
fn is_value(c: char) -> bool {
    is_word(c) || matches!(c, '.' | '+' | '-' | '"')
}

/// The first character of the value `at` points into (or `at`).
fn token_start(chars: &[char], at: usize) -> usize {
    let mut i = at;
    while i > 0 && chars.get(i - 1).is_some_and(|&c| is_value(c) && c != '"') {
        i -= 1;
    }
    i
}

/// The value written at `at`: a whole string, or a run of value characters
/// (a number, a name), cut to a short excerpt; the next word when `at`
/// points at a bracket or a separator.
fn value_at(chars: &[char], at: usize) -> String {
    let start = token_start(chars, at);
    let mut end = start;
    if chars.get(start) == Some(&'"') {
        end += 1;
        while end < chars.len() && chars[end] != '"' && chars[end] != '\n' {
            end += 1;
        }
        end = (end + 1).min(chars.len());
    } else {
        while end < chars.len() && is_value(chars[end]) && chars[end] != '"' {
            end += 1;
        }
    }
    if end == start {
        // A bracket, a separator or the end of the file: show what is there.
        let rest: String = chars[start.min(chars.len())..]
            .iter()
            .take_while(|&&c| c != '\n')
            .collect();
        let rest = rest.trim();
        return if start >= chars.len() {
            "the end of the file".into()
        } else if let Some(sep) = rest
            .strip_prefix([',', ')', ']', '}'])
            .map(|r| &rest[..rest.len() - r.len()])
        {
            format!("`{sep}`")
        } else if rest.is_empty() {
            "the end of the line".into()
        } else {
            format!("`{}`", excerpt(rest, VALUE_CHARS))
        };
    }
    let value: String = chars[start..end].iter().collect();
    if value.starts_with('"') || value.parse::<f64>().is_ok() {
        excerpt(&value, VALUE_CHARS)
    } else {
        format!("`{}`", excerpt(&value, VALUE_CHARS))
    }
}

/// The word (or `"string"` key) that ends just before `i`, skipping
/// whitespace, and the index where it starts.
fn word_before(code: &[char], chars: &[char], i: usize) -> (Option<String>, usize) {
    let mut j = i;
    while j > 0 && code[j - 1].is_whitespace() {
        j -= 1;
    }
    let end = j;
    if j > 0 && code[j - 1] == '"' {
        j -= 1;
        while j > 0 && code[j - 1] != '"' {
            j -= 1;
        }
        let key: String = chars[j..end - 1].iter().collect();
        return (Some(format!("\"{key}\"")), j.saturating_sub(1));
    }
    while j > 0 && is_word(code[j - 1]) {
        j -= 1;
    }
    if j == end {
        (None, end)
    } else {
        (Some(chars[j..end].iter().collect()), j)
    }
}

/// The levels around position `at`, innermost first; the last is the top
/// of the file.
fn levels(code: &[char], chars: &[char], at: usize) -> Vec<Level> {
    let mut out = Vec::new();
    let mut level = Level::default();
    let mut depth = 0usize;
    let mut i = at;
    while i > 0 {
        i -= 1;
        match code[i] {
            ')' | ']' | '}' => depth += 1,
            '(' | '[' | '{' if depth > 0 => depth -= 1,
            c @ ('(' | '[' | '{') => {
                let (name, start) = word_before(code, chars, i);
                level.opener = c;
                level.name = name.filter(|n| !n.starts_with('"'));
                out.push(std::mem::take(&mut level));
                i = start;
            }
            ',' if depth == 0 && level.field.is_none() => level.index += 1,
            ':' if depth == 0 && level.field.is_none() && level.index == 0 => {
                let (field, start) = word_before(code, chars, i);
                level.field = field;
                i = start;
            }
            _ => {}
        }
    }
    out.push(level);
    out
}

impl Place {
    /// The innermost field the value belongs to, and the index of its level.
    pub(super) fn field(&self) -> Option<(usize, &str)> {
        self.levels
            .iter()
            .enumerate()
            .find_map(|(i, l)| l.field.as_deref().map(|f| (i, f)))
    }

    /// The name that decides the accepted range of a number: the variant
    /// just around it (`Depth`), or its field.
    pub(super) fn range_key(&self) -> Option<&str> {
        let first = self.levels.first()?;
        if first.field.is_none() && first.opener == '(' {
            if let Some(name) = first.name.as_deref() {
                return Some(name);
            }
        }
        self.field().map(|(_, f)| f)
    }

    /// The list entries around level `from` and outwards, outermost first:
    /// `engines entry 3, stages entry 2`.
    fn entries(&self, from: usize) -> Vec<String> {
        let mut out = Vec::new();
        for (i, l) in self.levels.iter().enumerate().skip(from) {
            if l.opener != '[' {
                continue;
            }
            let list = self.levels.get(i + 1).and_then(|o| o.field.as_deref());
            if let Some(list) = list {
                out.push(format!("{list} entry {}", l.index + 1));
            }
        }
        out.reverse();
        out
    }

    /// How the message names the value's place: `concurrency`,
    /// `limit: Depth`, `stages entry 2: mobility`, `squares entry 5`.
    pub(super) fn name(&self) -> String {
        let Some((at, field)) = self.field() else {
            return match self.entries(0).last() {
                Some(entry) => entry.clone(),
                None => "the file".into(),
            };
        };
        let mut name = field.to_string();
        if let Some(variant) = self.levels[..at]
            .iter()
            .rev()
            .find(|l| l.opener == '(' && l.name.is_some())
            .and_then(|l| l.name.as_deref())
        {
            name = format!("{name}: {variant}");
        }
        if let Some(list) = self.levels[..at].iter().find(|l| l.opener == '[') {
            name = format!("{name} entry {}", list.index + 1);
        }
        let mut outer = self.entries(at + 1);
        outer.push(name);
        outer.join(", ")
    }

    /// How the message names the struct around the position (for unknown,
    /// missing and repeated fields): `book`, `stages entry 2`,
    /// `format: RoundRobin`, `an engine (engines entry 3)`, or the file's
    /// kind at its top.
    pub(super) fn container(&self) -> String {
        let Some(inner) = self.levels.first() else {
            return "the file".into();
        };
        let entries = self.entries(1).join(", ");
        let label = match (
            inner.name.as_deref(),
            self.levels.get(1).and_then(|l| l.field.as_deref()),
        ) {
            (Some(name), Some(field)) => Some(format!("{field}: {name}")),
            (None, Some(field)) => Some(field.to_string()),
            (Some(name), None) => Some(top_description(name)),
            (None, None) => None,
        };
        match (label, entries.is_empty()) {
            (Some(label), true) => label,
            (Some(label), false) => format!("{label} ({entries})"),
            (None, false) => entries,
            (None, true) => "the file".into(),
        }
    }

    /// True when the error is at the top of the file (no bracket opened).
    pub(super) fn at_top(&self) -> bool {
        self.levels.len() <= 1
    }
}

/// A file's top-level name in words.
pub(super) fn top_description(name: &str) -> String {
    match name {
        "Tournament" => "a tournament config".into(),
        "Engine" => "an engine".into(),
        "ProbCut" => "a ProbCut file".into(),
        "WeightedSquares" | "Features" | "Patterns" => format!("a {name} weights file"),
        other => other.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(text: &str, marker: &str) -> Place {
        let at = text.find(marker).unwrap();
        let chars: Vec<char> = text.chars().collect();
        place_at(&chars, text[..at].chars().count())
    }

    #[test]
    fn names_the_field_variant_and_entry() {
        let t = "Tournament(\n  concurrency: -2,\n)";
        assert_eq!(place(t, "2,").name(), "concurrency");
        let t = "Engine(name: \"x\", limit: Depth(-6))";
        let p = place(t, "6)");
        assert_eq!(p.name(), "limit: Depth");
        assert_eq!(p.range_key(), Some("Depth"));
        let t = "Features(stages: [(min_empties: 3), (min_empties: 0, mobility: \"x\")])";
        assert_eq!(place(t, "\"x\"").name(), "stages entry 2, mobility");
        let t = "W(stages: [(min_empties: 0, squares: [1, 2, 99])])";
        assert_eq!(place(t, "99").name(), "stages entry 1, squares entry 3");
    }

    #[test]
    fn comments_and_strings_do_not_count() {
        let t = "T(\n  // a (comment: [with brackets\n  name: \"a, (b\", seed: x)";
        let p = place(t, "x)");
        assert_eq!(p.name(), "seed");
        assert_eq!(p.value, "`x`");
        assert_eq!(place("T(a: \"b\", c: 3)", "3").value, "3");
    }

    #[test]
    fn a_long_value_is_cut() {
        let long = "y".repeat(500);
        let t = format!("T(name: {long})");
        let v = place(&t, "yyy").value;
        assert!(v.chars().count() < 50, "{v}");
        assert!(v.ends_with("…`"), "{v}");
    }
}
