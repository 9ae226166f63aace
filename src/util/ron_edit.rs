//! One field of a RON text changed in place, the rest of the text (its
//! comments, its other fields, the lines of everything before the field)
//! kept as written: what `arena match engines/strong.ron:eval.weights=new.bin`
//! reads its engine from. The field is found by its path as the file nests
//! it (`eval.weights`: the field `weights` inside the value of `eval`),
//! from the text alone (comments and strings masked, see
//! [`super::ron_scan::mask_ron`]); whether the new value fits is for the
//! parse of the changed text to say.

use super::ron_scan::mask_ron;

/// The text with the field at `path` (names of nested fields, outermost
/// first) set to `value(old)`, where `old` is the value the text writes
/// there (`None` when the field is not written, left to its default: the
/// field is then added at the end of its struct).
///
/// # Errors
/// A message naming the field: the text holds no struct, a field on the
/// way is not written, or its value has no fields (`eval: Discs`).
pub fn set_field(
    text: &str,
    path: &[&str],
    value: impl FnOnce(Option<&str>) -> String,
) -> Result<String, String> {
    let chars: Vec<char> = text.chars().collect();
    let code = mask_ron(&chars);
    let open = code
        .iter()
        .position(|&c| c == '(')
        .ok_or("the file holds no struct `Name(...)`")?;
    let mut scope = (open + 1, closing(&code, open));
    for (k, name) in path.iter().enumerate() {
        let shown = path[..=k].join(".");
        let found = find_field(&code, scope, name);
        match found {
            Some((start, end)) if k + 1 == path.len() => {
                let old: String = chars[start..end].iter().collect();
                return Ok(splice(&chars, (start, end), &value(Some(&old))));
            }
            Some((start, end)) => {
                // A struct value (`Patterns(weights: ...)`, `(a: 1)`): its
                // own parentheses, after a name at most.
                let old: String = chars[start..end].iter().collect();
                let paren = (start..end)
                    .find(|&i| code[i] == '(')
                    .filter(|&p| code[start..p].iter().all(|&c| is_word(c)));
                let Some(p) = paren else {
                    return Err(format!("{shown} is written {old}, which has no fields"));
                };
                scope = (p + 1, closing(&code, p).min(end));
            }
            None if k + 1 == path.len() => {
                let at = (scope.0..scope.1)
                    .rev()
                    .find(|&i| !code[i].is_whitespace())
                    .map_or(scope.0, |i| i + 1);
                return Ok(added(&chars, &code, (at, scope.1), name, &value(None)));
            }
            None => return Err(format!("{shown} is not written in the file")),
        }
    }
    Err("no field named".into())
}

/// The text with `name: value` added after the last field of a struct
/// (ending at `at`, closed at `close`): on a line of its own after the
/// last field's line (and its comment), indented as it, when the struct is
/// written over several lines; else after it on its line.
fn added(
    chars: &[char],
    code: &[char],
    (at, close): (usize, usize),
    name: &str,
    value: &str,
) -> String {
    let after_comma = at == 0 || code[at - 1] == ',' || code[at - 1] == '(';
    let comma = if after_comma { "" } else { "," };
    let line_end = (at..close).find(|&i| chars[i] == '\n').filter(|&end| {
        // Not a line break inside a block comment that starts on the line.
        let rest: String = chars[at..end].iter().collect();
        rest.rfind("/*")
            .is_none_or(|open| rest[open..].contains("*/"))
    });
    match line_end {
        Some(end) if !after_comma || code[at - 1] == ',' => {
            let line_start = chars[..at]
                .iter()
                .rposition(|&c| c == '\n')
                .map_or(0, |i| i + 1);
            let indent: String = chars[line_start..at]
                .iter()
                .take_while(|c| c.is_whitespace())
                .collect();
            let with_comma = splice(chars, (at, at), comma);
            let end = end + comma.chars().count();
            let line = format!("\n{indent}{name}: {value},");
            let chars: Vec<char> = with_comma.chars().collect();
            splice(&chars, (end, end), &line)
        }
        _ => {
            let space = if after_comma { " " } else { ", " };
            splice(chars, (at, at), &format!("{space}{name}: {value}"))
        }
    }
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The index of the bracket that closes the one at `open` in masked text
/// (the text's end when it is left open).
fn closing(code: &[char], open: usize) -> usize {
    let mut depth = 0usize;
    for (i, &c) in code.iter().enumerate().skip(open) {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    code.len()
}

/// The value (a range of character indices, blank space around it left
/// out) of `name:` written directly in `scope` (not inside a bracket of
/// it), in masked text.
fn find_field(code: &[char], scope: (usize, usize), name: &str) -> Option<(usize, usize)> {
    let name: Vec<char> = name.chars().collect();
    let mut depth = 0usize;
    let mut i = scope.0;
    while i < scope.1 {
        let c = code[i];
        if depth == 0
            && code[i..].starts_with(&name)
            && (i == 0 || !is_word(code[i - 1]))
            && !code.get(i + name.len()).is_some_and(|&c| is_word(c))
        {
            let after = i + name.len();
            let colon = (after..scope.1).find(|&k| !code[k].is_whitespace());
            if let Some(colon) = colon.filter(|&k| code[k] == ':') {
                return Some(value_range(code, colon + 1, scope.1));
            }
        }
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// The value that starts at or after `from`: up to the comma or bracket
/// that ends it at its own depth, blank space around it left out.
fn value_range(code: &[char], from: usize, end: usize) -> (usize, usize) {
    let start = (from..end)
        .find(|&k| !code[k].is_whitespace())
        .unwrap_or(end);
    let mut depth = 0usize;
    let mut stop = end;
    for (k, &c) in code.iter().enumerate().take(end).skip(start) {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => {
                stop = k;
                break;
            }
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                stop = k;
                break;
            }
            _ => {}
        }
    }
    let last = (start..stop).rev().find(|&k| !code[k].is_whitespace());
    (start, last.map_or(start, |k| k + 1))
}

/// The characters with `range` replaced by `with`.
fn splice(chars: &[char], range: (usize, usize), with: &str) -> String {
    let mut out: String = chars[..range.0].iter().collect();
    out.push_str(with);
    out.extend(&chars[range.1..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const ENGINE: &str = "// name: \"not this\"\nEngine(\n    name: \"strong\", // name: x\n    eval: Patterns(weights: \"w/a.bin\"),\n    probcut: Some(\"p.ron\"),\n    tt_mib: 64, /* trailing */\n)\n";

    fn set(path: &str, value: &str) -> Result<String, String> {
        let path: Vec<&str> = path.split('.').collect();
        set_field(ENGINE, &path, |_| value.to_string())
    }

    #[test]
    fn a_nested_field_is_changed_where_it_is_written() {
        let out = set("eval.weights", "\"/n.bin\"").unwrap();
        assert!(
            out.contains("    eval: Patterns(weights: \"/n.bin\"),\n"),
            "{out}"
        );
        // Everything else as written, line for line.
        assert_eq!(out.lines().count(), ENGINE.lines().count());
        let out = set("name", "\"x\"").unwrap();
        assert!(out.contains("    name: \"x\", // name: x\n"), "{out}");
        assert!(out.starts_with("// name: \"not this\"\n"), "{out}");
        let out = set("tt_mib", "8").unwrap();
        assert!(out.contains("tt_mib: 8, /* trailing */"), "{out}");
    }

    #[test]
    fn a_field_added_after_a_block_comment_that_spans_lines_is_not_in_it() {
        let text = "E(\n    a: 1, /* x\n    y */\n)";
        let out = set_field(text, &["b"], |_| "2".into()).unwrap();
        let code: String = mask_ron(&out.chars().collect::<Vec<_>>())
            .into_iter()
            .collect();
        assert!(code.contains("b: 2"), "{out}");
    }

    #[test]
    fn the_old_value_is_handed_over_and_a_missing_field_is_added() {
        let mut seen = None;
        set_field(ENGINE, &["probcut"], |old| {
            seen = old.map(str::to_string);
            "None".into()
        })
        .unwrap();
        assert_eq!(seen.as_deref(), Some("Some(\"p.ron\")"));
        // On a line of its own, after the last field's comment.
        let out = set("threads", "2").unwrap();
        assert!(
            out.contains("    tt_mib: 64, /* trailing */\n    threads: 2,\n)"),
            "{out}"
        );
        let out = set_field("E(a: 1)", &["b"], |old| {
            assert_eq!(old, None);
            "2".into()
        })
        .unwrap();
        assert_eq!(out, "E(a: 1, b: 2)");
        assert_eq!(
            set_field("E()", &["b"], |_| "2".into()).unwrap(),
            "E( b: 2)"
        );
    }

    #[test]
    fn a_path_through_a_value_without_fields_is_refused_naming_it() {
        assert_eq!(
            set("foo.bar", "1"),
            Err("foo is not written in the file".into())
        );
        assert_eq!(
            set("tt_mib.x", "1"),
            Err("tt_mib is written 64, which has no fields".into())
        );
        assert!(set_field("[1, 2]", &["a"], |_| "1".into()).is_err());
        // A field of the same name deeper down is not the one at the top.
        let out = set_field("E(x: (a: 1), a: 2)", &["a"], |_| "3".into()).unwrap();
        assert_eq!(out, "E(x: (a: 1), a: 3)");
    }
}
