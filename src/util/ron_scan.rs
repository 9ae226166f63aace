//! Where a field is written in a RON text, read from the text alone:
//! comments blanked and strings made neutral ([`mask_ron`]), then `field:`
//! found by name and bracket depth. Errors about a field's value, found
//! after the file was read, are placed there ([`config_field`]).

use crate::error::Error;
use std::path::Path;

/// A configuration error about `field`, placed at its first occurrence
/// in `text` (`field:` outside comments); the message names the field.
pub fn config_field(path: &Path, text: &str, field: &str, message: String) -> Error {
    config_field_nth(path, text, field, 0, message)
}

/// As [`config_field`], at the field's `n`th occurrence (0-based; the last
/// one when there are fewer) among those least deep in the file's brackets
/// (a tournament's own `limit`, not an inline engine's); the file's first
/// value when the field is not written.
pub fn config_field_nth(path: &Path, text: &str, field: &str, n: usize, message: String) -> Error {
    let (line, column) = field_place(text, (0, usize::MAX), field, n);
    Error::config_at(path, line, column, format!("{field}: {message}"))
}

/// Where `field:` is written in the characters `scope` (a range of
/// character indices) of a RON text: its `n`th occurrence (or the last)
/// among the least deep ones; where the scope's value starts when it is not
/// written there (a field left to its default); `(0, 0)` for a text with
/// no value at all.
pub fn field_place(text: &str, scope: (usize, usize), field: &str, n: usize) -> (usize, usize) {
    let code = mask_ron(&text.chars().collect::<Vec<char>>());
    let spots: Vec<FieldSpot> = spots_in(&code, field)
        .into_iter()
        .filter(|s| (scope.0..scope.1).contains(&s.index))
        .collect();
    let least = spots.iter().map(|s| s.depth).min();
    let shallow: Vec<&FieldSpot> = spots.iter().filter(|s| Some(s.depth) == least).collect();
    match shallow.get(n).or(shallow.last()) {
        Some(s) => (s.line, s.column),
        None => value_start(&code, scope),
    }
}

/// A field name written as `field:` in a RON text, outside comments and
/// strings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FieldSpot {
    /// Index of its first character.
    index: usize,
    /// Line, 1-based.
    line: usize,
    /// Column in characters, 1-based.
    column: usize,
    /// Brackets (`(`, `[`, `{`) open around it.
    depth: usize,
}

/// Every place `field:` is written in a RON text masked by [`mask_ron`],
/// in order.
fn spots_in(code: &[char], field: &str) -> Vec<FieldSpot> {
    let name: Vec<char> = field.chars().collect();
    let word = |c: &char| c.is_alphanumeric() || *c == '_';
    let (mut depth, mut line, mut column) = (0usize, 1usize, 1usize);
    let mut out = Vec::new();
    for i in 0..code.len() {
        if !name.is_empty()
            && code[i..].starts_with(&name)
            && (i == 0 || !word(&code[i - 1]))
            && !code.get(i + name.len()).is_some_and(word)
            && code[i + name.len()..].iter().find(|c| !c.is_whitespace()) == Some(&':')
        {
            out.push(FieldSpot {
                index: i,
                line,
                column,
                depth,
            });
        }
        match code[i] {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            '\n' => {
                line += 1;
                column = 0;
            }
            _ => {}
        }
        column += 1;
    }
    out
}

/// The character range of entry `n` (0-based) of the list written as
/// `list: [...]` least deep in a RON text; `None` when there is no such
/// list or entry.
pub fn list_entry(text: &str, list: &str, n: usize) -> Option<(usize, usize)> {
    let code = mask_ron(&text.chars().collect::<Vec<char>>());
    let spot = spots_in(&code, list).into_iter().min_by_key(|s| s.depth)?;
    let colon = spot.index + list.chars().count();
    let open = colon + code[colon..].iter().position(|&c| c == '[')?;
    if code[colon..open]
        .iter()
        .any(|&c| c != ':' && !c.is_whitespace())
    {
        return None;
    }
    let (mut depth, mut index, mut start) = (0usize, 0usize, open + 1);
    for (k, &c) in code.iter().enumerate().skip(open + 1) {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => return (index == n).then_some((start, k)),
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                if index == n {
                    return Some((start, k));
                }
                index += 1;
                start = k + 1;
            }
            _ => {}
        }
    }
    None
}

/// Line and column of the first character of a value in `scope` of a
/// masked text (comments and spaces skipped); `(0, 0)` when there is none.
fn value_start(code: &[char], scope: (usize, usize)) -> (usize, usize) {
    let (mut line, mut column) = (1, 1);
    for (i, &c) in code.iter().enumerate() {
        if i >= scope.1 {
            break;
        }
        if i >= scope.0 && !c.is_whitespace() {
            return (line, column);
        }
        if c == '\n' {
            line += 1;
            column = 1;
        } else {
            column += 1;
        }
    }
    (0, 0)
}

/// The index just past the block comment that opens at `start` (`/*`):
/// block comments nest in RON, so it ends at the `*/` that closes every
/// `/*` opened inside it; the text's end when it is left open.
fn block_comment_end(chars: &[char], start: usize) -> usize {
    let (mut depth, mut i) = (0usize, start);
    while i < chars.len() {
        match (chars[i], chars.get(i + 1)) {
            ('/', Some('*')) => {
                depth += 1;
                i += 2;
            }
            ('*', Some('/')) => {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    return i;
                }
            }
            _ => i += 1,
        }
    }
    chars.len()
}

/// The characters of a RON text with comments blanked and the contents of
/// strings made neutral, index for index, so that brackets, colons and
/// field names inside them do not count.
pub fn mask_ron(chars: &[char]) -> Vec<char> {
    let mut out = chars.to_vec();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '/' if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    out[i] = ' ';
                    i += 1;
                }
            }
            '/' if chars.get(i + 1) == Some(&'*') => {
                let end = block_comment_end(chars, i);
                for (o, &c) in out[i..end].iter_mut().zip(&chars[i..end]) {
                    // Line breaks stay, so lines still count.
                    if c != '\n' {
                        *o = ' ';
                    }
                }
                i = end;
            }
            '"' => {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    // Line breaks stay, so lines still count.
                    if chars[i] != '\n' {
                        out[i] = 'a';
                    }
                    if chars[i] == '\\' && i + 1 < chars.len() {
                        if chars[i + 1] != '\n' {
                            out[i + 1] = 'a';
                        }
                        i += 1;
                    }
                    i += 1;
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_is_placed_on_its_line_after_strings_and_comments_with_line_breaks() {
        let text = "T(\n  out: \"a\nb\",\n  /* c\n */ depth: 3,\n  n: [(x: 1), (x: 2)],\n)";
        let all = (0, usize::MAX);
        assert_eq!(field_place(text, all, "depth", 0), (5, 5));
        assert_eq!(field_place(text, all, "out", 0), (2, 3));
        // Inside the list's second entry.
        let second = list_entry(text, "n", 1).unwrap();
        assert_eq!(field_place(text, second, "x", 0), (6, 16));
        // A field not written: where its part of the text starts.
        assert_eq!(field_place(text, second, "y", 0), (6, 15));
    }

    #[test]
    fn a_field_named_in_a_nested_block_comment_is_not_placed_there() {
        // RON block comments nest: the comment ends at the second `*/`.
        let text =
            "T(\n  a: 1,\n  /* old /* nested */ concurrency: 3 */\n  b: 2,\n\n  concurrency: 0,\n)";
        assert_eq!(field_place(text, (0, usize::MAX), "concurrency", 0), (6, 3));
        let masked: String = mask_ron(&text.chars().collect::<Vec<char>>())
            .into_iter()
            .collect();
        assert_eq!(masked.lines().nth(2), Some(" ".repeat(39).as_str()));
        // An unclosed comment blanks the rest of the text, line breaks kept.
        let open: String = mask_ron(&"a /* x /* y */ z\nb".chars().collect::<Vec<char>>())
            .into_iter()
            .collect();
        assert_eq!(open, format!("a {}\n ", " ".repeat(14)));
    }
}
