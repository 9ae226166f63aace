//! The house keeps its rooms small (issue 36, item 7): no function in
//! `src/` is over 80 lines and no file over 600. This reads the source text,
//! blanks out comments, strings and char literals, finds every `fn NAME`
//! with a body and measures it from the line holding `fn NAME` to the line
//! of its matching closing brace, inclusive, by brace depth. Test code
//! inside `#[cfg(test)] mod tests` counts like any other.

use std::path::{Path, PathBuf};

/// The longest a function may be, in lines.
const MAX_FN_LINES: usize = 80;
/// The longest a file may be, in lines.
const MAX_FILE_LINES: usize = 600;

/// `text` with every comment, string literal (plain, byte and raw) and char
/// literal replaced by spaces, newlines kept, so that braces and `fn` seen
/// in the result are code. Lifetimes (`'a`) are left as they are.
pub fn blank_non_code(text: &str) -> Vec<char> {
    let src: Vec<char> = text.chars().collect();
    let mut out = src.clone();
    let mut i = 0;
    while i < src.len() {
        let end = match src[i] {
            '/' if src.get(i + 1) == Some(&'/') => line_comment_end(&src, i),
            '/' if src.get(i + 1) == Some(&'*') => block_comment_end(&src, i),
            '"' => string_end(&src, i + 1),
            '\'' => char_literal_end(&src, i),
            'r' | 'b' if !ident_char_before(&src, i) => raw_string_end(&src, i),
            _ => None,
        };
        match end {
            Some(end) => {
                for c in &mut out[i..end] {
                    if *c != '\n' {
                        *c = ' ';
                    }
                }
                i = end;
            }
            None => i += 1,
        }
    }
    out
}

fn ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn ident_char_before(src: &[char], i: usize) -> bool {
    i > 0 && ident_char(src[i - 1])
}

/// End (exclusive) of the `//` comment starting at `i`: its newline stays.
fn line_comment_end(src: &[char], i: usize) -> Option<usize> {
    let len = src[i..].iter().position(|&c| c == '\n');
    Some(len.map_or(src.len(), |n| i + n))
}

/// End (exclusive) of the `/* … */` comment starting at `i`; they nest.
fn block_comment_end(src: &[char], i: usize) -> Option<usize> {
    let mut depth = 0;
    let mut j = i;
    while j < src.len() {
        if src[j] == '/' && src.get(j + 1) == Some(&'*') {
            depth += 1;
            j += 2;
        } else if src[j] == '*' && src.get(j + 1) == Some(&'/') {
            depth -= 1;
            j += 2;
            if depth == 0 {
                return Some(j);
            }
        } else {
            j += 1;
        }
    }
    Some(src.len())
}

/// End (exclusive) of a `"…"` string whose body starts at `body`.
fn string_end(src: &[char], body: usize) -> Option<usize> {
    let mut j = body;
    while j < src.len() {
        match src[j] {
            '\\' => j += 2,
            '"' => return Some(j + 1),
            _ => j += 1,
        }
    }
    Some(src.len())
}

/// End (exclusive) of a char literal at `i` (`'x'`, `'\n'`, `'\u{7b}'`), or
/// `None` for a lifetime or label (`'a`).
fn char_literal_end(src: &[char], i: usize) -> Option<usize> {
    match src.get(i + 1)? {
        '\\' => {
            // Skip the escaped char itself, which may be a quote (`'\''`).
            let close = src[i + 3..].iter().position(|&c| c == '\'')?;
            Some(i + 3 + close + 1)
        }
        _ if src.get(i + 2) == Some(&'\'') => Some(i + 3),
        _ => None,
    }
}

/// End (exclusive) of a raw string (`r"…"`, `r#"…"#`, `br#"…"#`) or a byte
/// string (`b"…"`) starting at `i`, or `None` if `i` starts neither.
fn raw_string_end(src: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    if src[j] == 'b' {
        j += 1;
        if src.get(j) == Some(&'"') {
            return string_end(src, j + 1);
        }
    }
    if src.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let hashes = src[j..].iter().take_while(|&&c| c == '#').count();
    j += hashes;
    if src.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < src.len() {
        if src[j] == '"'
            && src[j + 1..]
                .iter()
                .take(hashes)
                .filter(|&&c| c == '#')
                .count()
                == hashes
        {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(src.len())
}

/// Every function with a body in `text`: its name, the line (1-based) of
/// `fn NAME` and its length in lines up to its closing brace, inclusive.
pub fn function_lengths(text: &str) -> Vec<(String, usize, usize)> {
    let code = blank_non_code(text);
    let line_at = |at: usize| 1 + code[..at].iter().filter(|&&c| c == '\n').count();
    let mut found = Vec::new();
    let mut i = 0;
    while i + 2 < code.len() {
        let is_fn = code[i] == 'f'
            && code[i + 1] == 'n'
            && code[i + 2].is_whitespace()
            && !ident_char_before(&code, i);
        if !is_fn {
            i += 1;
            continue;
        }
        let mut j = i + 2;
        while j < code.len() && code[j].is_whitespace() {
            j += 1;
        }
        let name: String = code[j..].iter().take_while(|&&c| ident_char(c)).collect();
        if let (false, Some(close)) = (name.is_empty(), body_close(&code, j)) {
            let (first, last) = (line_at(i), line_at(close));
            found.push((name, first, last - first + 1));
        }
        i += 2;
    }
    found
}

/// Position of the brace closing the body of the function whose signature
/// starts at `from`, or `None` if the signature ends in `;` (no body).
/// Braces and semicolons inside `(…)`, `[…]` and `<…>`-free code of the
/// signature are skipped by bracket depth.
fn body_close(code: &[char], from: usize) -> Option<usize> {
    let mut brackets = 0i32;
    let mut j = from;
    while j < code.len() {
        match code[j] {
            '(' | '[' => brackets += 1,
            ')' | ']' => brackets -= 1,
            ';' if brackets == 0 => return None,
            '{' if brackets == 0 => break,
            _ => {}
        }
        j += 1;
    }
    let mut depth = 0i32;
    while j < code.len() {
        match code[j] {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(j);
                }
            }
            _ => {}
        }
        j += 1;
    }
    None
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every function over `MAX_FN_LINES` and file over `MAX_FILE_LINES` in
/// `src`, as messages.
fn oversized(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut bad = Vec::new();
    for path in files {
        let rel = path.strip_prefix(src).expect("under src/").display();
        let text = std::fs::read_to_string(&path).expect("source is UTF-8");
        let lines = text.lines().count();
        if lines > MAX_FILE_LINES {
            bad.push(format!(
                "src/{rel}: file is {lines} lines (at most {MAX_FILE_LINES})"
            ));
        }
        for (name, line, len) in function_lengths(&text) {
            if len > MAX_FN_LINES {
                bad.push(format!(
                    "src/{rel}:{line}: fn {name} is {len} lines (at most {MAX_FN_LINES})"
                ));
            }
        }
    }
    bad
}

#[test]
fn no_function_over_80_lines_and_no_file_over_600() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let bad = oversized(&src);
    assert!(bad.is_empty(), "too long:\n{}", bad.join("\n"));
}

#[test]
fn the_counter_sees_through_strings_comments_and_chars() {
    // The counter itself must not pass by miscounting: braces in a string,
    // a raw string, a char literal and comments (one nested) are not code.
    let text = r####"/// fn doc() { in a doc comment }
fn first(x: [u8; 2]) -> &'static str {
    let open = '{';
    let quote = '\'';
    let s = "a } brace \" and { another";
    /* a { block /* nested } */ comment */
    // a } line comment
    let r = r#"raw " } "#;
    if x[0] == 0 {
        return s;
    }
    r
}
trait T {
    fn declared(&self);
}
fn second<'a>(label: &'a str) -> usize { label.len() }
"####;
    let found = function_lengths(text);
    assert_eq!(
        found,
        [("first".to_string(), 2, 12), ("second".to_string(), 17, 1)],
        "{found:?}"
    );
}
