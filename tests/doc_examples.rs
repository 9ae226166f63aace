//! The documented commands still do what the pages show: every fenced
//! block marked `console` in README.md and docs/ is run, command by
//! command, and its output compared with the page.
//!
//! The form (trycmd's, written for our layout; see docs/reference.md):
//! - a line `$ arena ARGS` is a command (only `arena`; words split as a
//!   shell splits them, with single and double quotes); the lines up to
//!   the next `$ ` or the block's end are what it prints, stdout and
//!   stderr together in the order written;
//! - `[..]` in an expected line stands for any text within the line, a
//!   line `...` for any number of lines (none too);
//! - a last line `[exit N]` is the exit code expected (none: 0).
//!
//! The commands of one page run in order in one scratch folder that holds
//! links to the repository's `configs/`, `engines/`, `openings/` and
//! `examples/`, as a checkout looks to a user, so outputs land in the
//! scratch folder's `results/`, never in the checkout. Each command is
//! bounded in time. trycmd runs markdown examples in the page's own folder
//! or a copied sandbox and has no way to link a checkout's folders in, so
//! this is our own, 150 lines.

use crate::util::repo;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The longest a documented command may take (CI is a loaded 2-core box).
const BOUND: Duration = Duration::from_secs(120);

/// One documented command and what the page says it prints.
#[derive(Debug)]
struct Example {
    /// `page:line` of the command.
    at: String,
    args: Vec<String>,
    expected: Vec<String>,
    exit: i32,
}

/// Words of a command line, split as a shell splits them (quotes, no
/// variables or globs).
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => out.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    assert!(quote.is_none(), "unclosed quote in {line:?}");
    out.extend(word);
    out
}

/// The examples of a page's `console` blocks.
fn examples(page: &Path) -> Vec<Example> {
    let text = std::fs::read_to_string(page).unwrap();
    let name = page.strip_prefix(repo("")).unwrap_or(page).display();
    let mut out: Vec<Example> = Vec::new();
    let mut in_console = false;
    let mut in_other = false;
    for (i, line) in text.lines().enumerate() {
        let fence = line.trim_start().strip_prefix("```");
        match fence {
            Some(info) if !in_console && !in_other => {
                in_console = info.trim() == "console";
                in_other = !in_console;
                continue;
            }
            Some(_) => {
                (in_console, in_other) = (false, false);
                continue;
            }
            None if !in_console => continue,
            None => {}
        }
        if let Some(command) = line.strip_prefix("$ ") {
            let args = words(command);
            assert_eq!(
                args.first().map(String::as_str),
                Some("arena"),
                "{name}:{}: a console example runs arena only",
                i + 1
            );
            out.push(Example {
                at: format!("{name}:{}", i + 1),
                args: args[1..].to_vec(),
                expected: Vec::new(),
                exit: 0,
            });
        } else if let Some(e) = out.last_mut() {
            let code = line
                .strip_prefix("[exit ")
                .and_then(|r| r.strip_suffix(']'));
            match code.and_then(|c| c.parse().ok()) {
                Some(code) => e.exit = code,
                None => e.expected.push(line.to_string()),
            }
        } else {
            panic!("{name}:{}: output before any `$ arena` line", i + 1);
        }
    }
    out
}

/// Does `line` match `pattern`, whose `[..]` stand for any text?
fn line_matches(pattern: &str, line: &str) -> bool {
    let mut parts = pattern.split("[..]");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (k, part) in parts.iter().enumerate() {
        if k + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Do the lines match the expected lines, whose `...` lines stand for any
/// number of lines?
fn lines_match(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, rest)) if e == "..." => {
            (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..]))
        }
        Some((e, rest)) => {
            actual.first().is_some_and(|a| line_matches(e, a)) && lines_match(rest, &actual[1..])
        }
    }
}

/// A scratch folder laid out like a checkout, for one page.
fn scratch(page: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("doc-examples")
        .join(page.replace('/', "-"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for folder in ["configs", "engines", "openings", "examples"] {
        std::os::unix::fs::symlink(repo(folder), dir.join(folder)).unwrap();
    }
    dir
}

/// Runs one example in `dir`: its exit code and output (stdout and stderr
/// together, in the order written).
fn run(e: &Example, dir: &Path) -> (i32, String) {
    let out_path = dir.join(".output");
    let file = std::fs::File::create(&out_path).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(&e.args)
        .current_dir(dir)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .stdin(Stdio::null())
        .stdout(file.try_clone().unwrap())
        .stderr(file)
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > BOUND {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{}: arena {:?} ran past {BOUND:?}", e.at, e.args);
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let text = std::fs::read_to_string(&out_path).unwrap();
    (status.code().unwrap_or(-1), text)
}

/// Runs every example of a page; the count run.
fn check_page(page: &str) -> usize {
    let examples = examples(&repo(page));
    let dir = scratch(page);
    for e in &examples {
        let (code, text) = run(e, &dir);
        let actual: Vec<&str> = text.lines().collect();
        assert!(
            code == e.exit && lines_match(&e.expected, &actual),
            "{}: `arena {}` exited {code} (the page says {}) and printed:\n{text}\nthe page shows:\n{}",
            e.at,
            e.args.join(" "),
            e.exit,
            e.expected.join("\n")
        );
    }
    examples.len()
}

#[test]
fn the_matcher_reads_wildcards_as_the_pages_use_them() {
    assert!(line_matches("Elo: [..] +/- [..]", "Elo: 1.00 +/- 2.00"));
    assert!(line_matches("[..]", ""));
    assert!(line_matches("a[..]b[..]c", "a1b2c"));
    assert!(!line_matches("a[..]b", "a1c"));
    assert!(!line_matches("exact", "exact and more"));
    let e = |t: &[&str]| t.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(lines_match(&e(&["a", "...", "z"]), &["a", "b", "c", "z"]));
    assert!(lines_match(&e(&["a", "...", "z"]), &["a", "z"]));
    assert!(!lines_match(&e(&["a", "...", "z"]), &["a", "b"]));
    assert!(!lines_match(&e(&["a"]), &["a", "b"]));
    assert_eq!(
        words(r#"match "cmd=x arg=-l" 'b c' d"#),
        ["match", "cmd=x arg=-l", "b c", "d"]
    );
}

/// Every page with `console` examples, and how many it has at least (a
/// page that lost its examples by a typo in the fence fails here).
const PAGES: &[(&str, usize)] = &[
    ("README.md", 5),
    ("docs/tournaments.md", 2),
    ("docs/statistics.md", 2),
    ("docs/reference.md", 2),
    ("docs/engines.md", 3),
    ("docs/tuning.md", 1),
];

#[test]
fn every_console_example_in_the_pages_prints_what_they_show() {
    for (page, at_least) in PAGES {
        let n = check_page(page);
        assert!(
            n >= *at_least,
            "{page}: {n} console examples, expected at least {at_least}"
        );
    }
}

#[test]
fn every_page_with_console_examples_is_checked() {
    let mut pages = vec![PathBuf::from("README.md")];
    for e in std::fs::read_dir(repo("docs")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            pages.push(PathBuf::from("docs").join(p.file_name().unwrap()));
        }
    }
    for p in pages {
        let has = !examples(&repo(p.to_str().unwrap())).is_empty();
        let listed = PAGES.iter().any(|(name, _)| Path::new(name) == p);
        assert!(
            !has || listed,
            "{}: has console examples but is not in PAGES",
            p.display()
        );
    }
}
