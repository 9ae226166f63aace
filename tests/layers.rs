//! The house keeps its arrows one-way (DESIGN.md, "Layers"): every module
//! of `src/` imports only from layers below its own. This reads the source
//! text, finds every `crate::…` path (in `use` lines, `use crate::{…}`
//! groups and inline paths; comments skipped) and `super::…` paths that
//! climb out of a top-level module, and fails naming the file, line and
//! both layers of each upward or sideways import.

use std::path::{Path, PathBuf};

/// The layers, lowest first. A module may import from any module of a
/// lower layer, never from its own layer's siblings or from above.
const LAYERS: &[&[&str]] = &[
    &["rng"],
    &["game", "stats"],
    &["error"],
    &["util"],
    &["book"],
    &["records"],
    &["search"],
    &["eval"],
    &["endgame"],
    &["engine"],
    &["report"],
    &["lab"],
    &["tournament"],
    &["watch"],
    &["cli"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// The top-level module a file of `src/` belongs to (`None` for the crate
/// roots, `lib.rs` and `main.rs`, which may re-export anything).
fn module_of(rel: &Path) -> Option<String> {
    let first = rel.components().next()?.as_os_str().to_str()?.to_string();
    match first.strip_suffix(".rs") {
        Some("lib" | "main") => None,
        Some(stem) => Some(stem.to_string()),
        None => Some(first),
    }
}

/// The line without its `//` comment (string literals holding `//` are rare
/// enough in import position not to matter).
fn code_of(line: &str) -> &str {
    line.split("//").next().unwrap_or("")
}

/// Every top-level module named after `crate::` in `text`, with its line
/// (1-based). `use crate::{a::x, b}` names `a` and `b`.
pub fn crate_imports(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut in_group: Option<i32> = None;
    for (i, line) in text.lines().enumerate() {
        let code = code_of(line);
        let mut rest = code;
        if let Some(depth) = in_group.as_mut() {
            group_names(code, depth, |name| found.push((i + 1, name)));
            if *depth <= 0 {
                in_group = None;
            }
            continue;
        }
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            if let Some(group) = after.strip_prefix('{') {
                let mut depth = 1;
                group_names(group, &mut depth, |name| found.push((i + 1, name)));
                if depth > 0 {
                    in_group = Some(depth);
                }
                break;
            }
            let name: String = after
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                found.push((i + 1, name));
            }
            rest = after;
        }
    }
    found
}

/// The names at brace depth 1 of a `use crate::{…}` group, from `text`
/// (which starts inside the group at `depth`).
fn group_names(text: &str, depth: &mut i32, mut name: impl FnMut(String)) {
    let mut word = String::new();
    let mut expect_name = *depth == 1;
    for c in text.chars() {
        match c {
            '{' => {
                *depth += 1;
                expect_name = false;
            }
            '}' => {
                *depth -= 1;
                if *depth <= 0 {
                    break;
                }
            }
            ',' if *depth == 1 => expect_name = true,
            c if c.is_alphanumeric() || c == '_' => {
                if expect_name {
                    word.push(c);
                }
            }
            _ => {
                if !word.is_empty() {
                    name(std::mem::take(&mut word));
                    expect_name = false;
                }
            }
        }
    }
    if !word.is_empty() {
        name(word);
    }
}

/// The top-level modules reached by `super::` paths that climb out of the
/// file's own top-level module (`super::super::eval` from `src/search/x.rs`).
fn super_escapes(rel: &Path, text: &str) -> Vec<(usize, String)> {
    // Depth of the file's module below its top-level module: src/a.rs and
    // src/a/mod.rs are 0, src/a/b.rs is 1.
    let parts: Vec<&str> = rel.iter().filter_map(|p| p.to_str()).collect();
    let depth = match parts.last() {
        Some(&"mod.rs") => parts.len().saturating_sub(2),
        _ => parts.len().saturating_sub(1),
    };
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut rest = code_of(line);
        while let Some(at) = rest.find("super::") {
            let mut after = &rest[at..];
            let mut ups = 0;
            while let Some(r) = after.strip_prefix("super::") {
                ups += 1;
                after = r;
            }
            if ups > depth {
                let name: String = after
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                found.push((i + 1, name));
            }
            rest = after;
        }
    }
    found
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

/// Every import in `src/` that goes sideways or up, as messages.
fn violations(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut bad = Vec::new();
    for path in files {
        let rel = path.strip_prefix(src).expect("under src/").to_path_buf();
        let Some(module) = module_of(&rel) else {
            continue;
        };
        let Some(own) = layer_of(&module) else {
            bad.push(format!(
                "src/{}: module {module} is in no layer of tests/layers.rs (add it, and to DESIGN.md)",
                rel.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(&path).expect("source is UTF-8");
        let mut imports = crate_imports(&text);
        imports.extend(super_escapes(&rel, &text));
        for (line, target) in imports {
            if target == module || target == "self" {
                continue;
            }
            match layer_of(&target) {
                Some(l) if l < own => {}
                Some(l) => bad.push(format!(
                    "src/{}:{line}: {module} (layer {own}) imports {target} (layer {l}), which is not below it",
                    rel.display()
                )),
                // Re-exports of the crate root (`crate::Board`) and macros.
                None => {}
            }
        }
    }
    bad
}

#[test]
fn no_module_imports_from_its_own_layer_or_above() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let bad = violations(&src);
    assert!(bad.is_empty(), "upward imports:\n{}", bad.join("\n"));
}

#[test]
fn the_checker_sees_each_form_of_import() {
    // The checker itself must not pass by seeing nothing.
    let text = "use crate::eval::Patterns;\n\
                use crate::{\n    search::Limit,\n    util::{a, b},\n};\n\
                let x = crate::endgame::Solver::new(); // crate::lab in a comment\n\
                use crate::{book::Order, stats};\n";
    let names: Vec<String> = crate_imports(text).into_iter().map(|x| x.1).collect();
    assert_eq!(
        names,
        ["eval", "search", "util", "endgame", "book", "stats"],
        "{names:?}"
    );
    let escapes = super_escapes(
        Path::new("search/alphabeta.rs"),
        "use super::tt::Bound;\nuse super::super::eval::X;\n",
    );
    assert_eq!(escapes, [(2, "eval".to_string())]);
}

#[test]
fn the_checker_flags_an_upward_import() {
    // A copy of src/ with one upward import added must fail.
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("layers-src");
    let _ = std::fs::remove_dir_all(&tmp);
    copy_dir(&src, &tmp);
    let victim = tmp.join("game/perft.rs");
    let text = std::fs::read_to_string(&victim).unwrap();
    std::fs::write(
        &victim,
        format!("use crate::tournament::Tournament;\n{text}"),
    )
    .unwrap();
    let bad = violations(&tmp);
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert!(
        bad[0].starts_with("src/game/perft.rs:1: game (layer 1) imports tournament"),
        "{}",
        bad[0]
    );
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let dest = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &dest);
        } else {
            std::fs::copy(&path, &dest).unwrap();
        }
    }
}

/// The files of `src/` other than `util/sys.rs` that call `libc`, with
/// the line of each call.
fn libc_outside_sys(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut found = Vec::new();
    for path in files {
        let rel = path.strip_prefix(src).expect("under src/");
        if rel == Path::new("util/sys.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("source is UTF-8");
        for (i, line) in text.lines().enumerate() {
            if code_of(line).contains("libc::") {
                found.push(format!("src/{}:{}", rel.display(), i + 1));
            }
        }
    }
    found
}

/// The files of `src/` outside `util/` that use the platform beyond the
/// standard library's portable part (`std::os::unix`, `/proc`), with the
/// line of each use, unit-test files included.
fn platform_outside_util(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut found = Vec::new();
    for path in files {
        let rel = path.strip_prefix(src).expect("under src/");
        if rel.starts_with("util") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("source is UTF-8");
        for (i, line) in text.lines().enumerate() {
            let code = code_of(line);
            if code.contains("std::os::unix") || code.contains("\"/proc") {
                found.push(format!("src/{}:{}", rel.display(), i + 1));
            }
        }
    }
    found
}

#[test]
fn platform_code_outside_libc_stays_in_util() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = platform_outside_util(&src);
    assert!(
        found.is_empty(),
        "platform code outside src/util/:\n{}",
        found.join("\n")
    );
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("layers-platform");
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(tmp.join("util")).unwrap();
    std::fs::create_dir_all(tmp.join("a")).unwrap();
    std::fs::write(
        tmp.join("util/fs.rs"),
        "use std::os::unix::fs::MetadataExt;\n",
    )
    .unwrap();
    std::fs::write(
        tmp.join("a/b_tests.rs"),
        "use std::os::unix::fs::symlink;\n",
    )
    .unwrap();
    std::fs::write(
        tmp.join("a/x.rs"),
        "// std::os::unix\nfn b() { let _ = \"/proc/self/fd\"; }\nuse std::os::unix::fs::MetadataExt;\n",
    )
    .unwrap();
    assert_eq!(
        platform_outside_util(&tmp),
        ["a/b_tests.rs:1", "a/x.rs:2", "a/x.rs:3"].map(|s| format!("src/{s}"))
    );
}

#[test]
fn platform_calls_are_made_in_one_module() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = libc_outside_sys(&src);
    assert!(
        found.is_empty(),
        "libc called outside src/util/sys.rs:\n{}",
        found.join("\n")
    );
    // The check sees a call where there is one.
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("layers-libc");
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(tmp.join("util")).unwrap();
    std::fs::write(tmp.join("util/sys.rs"), "fn a() { libc::kill(1, 0); }\n").unwrap();
    std::fs::write(
        tmp.join("x.rs"),
        "// libc::kill\nfn b() { libc::getpid(); }\n",
    )
    .unwrap();
    assert_eq!(libc_outside_sys(&tmp), ["src/x.rs:2"]);
}

/// The module path of a file of `src/` (`tournament/workers/claims.rs` is
/// `tournament::workers::claims`; a `mod.rs` is its folder's module).
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" && stem != "main" {
        parts.push(stem.to_string());
    }
    parts
}

/// The code of `text` without comments (line comments and doc comments).
fn code_text(text: &str) -> String {
    text.lines().map(code_of).collect::<Vec<_>>().join("\n")
}

/// Every path a `use` item of `code` names, with its braces expanded
/// (`use super::{a::X, b};` names `super::a::X` and `super::b`).
fn use_paths(code: &str) -> Vec<String> {
    fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
        let tree = tree.trim();
        match tree.find('{') {
            None => out.push(format!("{prefix}{tree}")),
            Some(open) => {
                let head = &tree[..open];
                let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
                let mut depth = 0;
                let mut start = 0;
                for (i, c) in inner.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            expand(&format!("{prefix}{head}"), &inner[start..i], out);
                            start = i + 1;
                        }
                        _ => {}
                    }
                }
                if !inner[start..].trim().is_empty() {
                    expand(&format!("{prefix}{head}"), &inner[start..], out);
                }
            }
        }
    }
    let mut out = Vec::new();
    let lines: Vec<&str> = code.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim_start();
        let item = ["use ", "pub use ", "pub(crate) use ", "pub(super) use "]
            .iter()
            .find_map(|p| line.strip_prefix(p));
        i += 1;
        let Some(first) = item else {
            continue;
        };
        let mut tree = first.to_string();
        while !tree.contains(';') && i < lines.len() {
            tree.push_str(lines[i]);
            i += 1;
        }
        let tree: String = tree[..tree.find(';').unwrap_or(tree.len())]
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        if tree
            .chars()
            .all(|c| c.is_alphanumeric() || "_:{},*".contains(c))
        {
            expand("", &tree, &mut out);
        }
    }
    out
}

/// Inline paths of `code` that start `crate::` or `super::`.
fn inline_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for start in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(start) {
            let at = from + i;
            from = at + start.len();
            if at > 0 && code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':')
            {
                continue;
            }
            let len = code[at..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(code.len() - at);
            out.push(code[at..at + len].trim_end_matches(':').to_string());
        }
    }
    out
}

/// A path as written in the file of module `me`, made absolute:
/// `super::x` from `a::b::c` is `a::b::x`.
fn absolute(path: &str, me: &[String]) -> Option<Vec<String>> {
    let mut parts = path.split("::").filter(|p| !p.is_empty());
    let first = parts.next()?;
    let mut base: Vec<String> = match first {
        "crate" => Vec::new(),
        "super" | "self" => {
            // A file's `self` is its own module; `super` its parent (for a
            // mod.rs, the folder's parent).
            let mut b = me.to_vec();
            if first == "super" {
                b.pop()?;
            }
            b
        }
        _ => return None,
    };
    for p in parts {
        if p == "super" {
            base.pop()?;
        } else {
            base.push(p.to_string());
        }
    }
    Some(base)
}

/// The circles among the files of each folder of `src/`: an import from
/// one file (or subfolder) of a folder to another, both ways round, the
/// folder's own `mod.rs` aside. Each as `folder: a <-> b`.
fn folder_circles(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut nodes: std::collections::BTreeMap<Vec<String>, std::collections::BTreeSet<String>> =
        Default::default();
    let mut edges = std::collections::BTreeSet::new();
    let mut parsed = Vec::new();
    for path in &files {
        let rel = path.strip_prefix(src).expect("under src/");
        let me = module_path(rel);
        let mod_rs = rel.file_name().is_some_and(|n| n == "mod.rs");
        let folder: Vec<String> = module_path(
            rel.parent()
                .unwrap_or(Path::new(""))
                .join("mod.rs")
                .as_path(),
        );
        if !mod_rs && !matches!(rel.to_str(), Some("lib.rs" | "main.rs")) {
            nodes
                .entry(folder.clone())
                .or_default()
                .insert(me.last().cloned().unwrap_or_default());
        }
        if mod_rs && !folder.is_empty() {
            let parent = folder[..folder.len() - 1].to_vec();
            nodes
                .entry(parent)
                .or_default()
                .insert(folder.last().cloned().unwrap_or_default());
        }
        let code = code_text(&std::fs::read_to_string(path).expect("source is UTF-8"));
        let mut paths = use_paths(&code);
        paths.extend(inline_paths(&code));
        parsed.push((me, paths));
    }
    for (me, paths) in &parsed {
        for p in paths {
            let Some(target) = absolute(p, me) else {
                continue;
            };
            // For each folder holding both: the two nodes they are under.
            for depth in 0..me.len().min(target.len()) {
                if me[..depth] != target[..depth] {
                    break;
                }
                let folder = me[..depth].to_vec();
                let (Some(from), Some(to)) = (me.get(depth), target.get(depth)) else {
                    continue;
                };
                let known = nodes
                    .get(&folder)
                    .is_some_and(|n| n.contains(from) && n.contains(to));
                if known && from != to {
                    edges.insert((folder, from.clone(), to.clone()));
                }
            }
        }
    }
    circles_of(&edges)
}

/// The circles of a set of edges `(folder, from, to)`: each group of a
/// folder's nodes that reach one another (two or more), as
/// `src/folder: a <-> b <-> c`, names in order.
fn circles_of(edges: &std::collections::BTreeSet<(Vec<String>, String, String)>) -> Vec<String> {
    use std::collections::BTreeSet;
    let reach = |folder: &Vec<String>, from: &String| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(n) = todo.pop() {
            for (f, a, b) in edges {
                if f == folder && *a == n && seen.insert(b.clone()) {
                    todo.push(b.clone());
                }
            }
        }
        seen
    };
    let mut circles = BTreeSet::new();
    for (folder, a, _) in edges {
        let from_a = reach(folder, a);
        if !from_a.contains(a) {
            continue;
        }
        let group: BTreeSet<&String> = from_a
            .iter()
            .filter(|n| reach(folder, n).contains(a))
            .collect();
        let names: Vec<&str> = group.iter().map(|n| n.as_str()).collect();
        circles.insert(format!("src/{}: {}", folder.join("/"), names.join(" <-> ")));
    }
    circles.into_iter().collect()
}

#[test]
fn no_circle_of_files_inside_a_folder() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = folder_circles(&src);
    assert!(
        found.is_empty(),
        "files of one folder that import each other (the lower one must not reach up):\n{found:#?}"
    );
}

#[test]
fn the_circle_checker_sees_a_circle_and_not_a_re_export() {
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("layers-circles");
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(tmp.join("a/deep")).unwrap();
    let write = |name: &str, text: &str| std::fs::write(tmp.join(name), text).unwrap();
    write("lib.rs", "pub mod a;\n");
    write(
        "a/mod.rs",
        "pub mod deep;\npub mod x;\npub mod y;\npub mod z;\npub use x::T;\n",
    );
    write(
        "a/x.rs",
        "use super::{\n    y::U,\n    z,\n};\npub struct T;\n",
    );
    write(
        "a/y.rs",
        "// use super::x::T;\npub struct U;\nfn f() -> crate::a::x::T { todo!() }\n",
    );
    // Through the folder's mod.rs: no circle.
    write("a/z.rs", "use super::T;\n");
    // From a subfolder's file, two levels up.
    write("a/deep/mod.rs", "use super::super::a::x::T;\n");
    write("a/deep/w.rs", "\n");
    assert_eq!(folder_circles(&tmp), ["src/a: x <-> y"]);
    write("a/x.rs", "use super::{deep::w, y::U};\n");
    assert_eq!(folder_circles(&tmp), ["src/a: deep <-> x <-> y"]);
    // A circle of three, none of whose files imports another back.
    write("a/x.rs", "use super::y::U;\npub struct T;\n");
    write("a/y.rs", "use super::z::V;\npub struct U;\n");
    write("a/z.rs", "use super::x::T;\npub struct V;\n");
    assert_eq!(folder_circles(&tmp), ["src/a: x <-> y <-> z"]);
}
