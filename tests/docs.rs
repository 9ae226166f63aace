//! The front door and the guide stay true: every relative link in
//! README.md, DESIGN.md and docs/ names a file that exists (and, with a
//! `#fragment`, a heading of it), and README.md stays a front door.

use crate::util::repo;
use std::path::{Path, PathBuf};

/// The Markdown files a reader follows.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![repo("README.md"), repo("DESIGN.md")];
    for dir in ["docs", "docs/results"] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(repo(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .collect();
        found.sort();
        pages.extend(found);
    }
    pages
}

/// The targets of the inline links `[text](target)` of a Markdown text,
/// outside code (fenced blocks and backticks).
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Drop inline code.
        let mut plain = String::new();
        for (k, part) in line.split('`').enumerate() {
            if k % 2 == 0 {
                plain.push_str(part);
            }
        }
        let mut rest = plain.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            out.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    out
}

/// GitHub's anchor of a heading: lower case, spaces to `-`, punctuation
/// other than `-` and `_` dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings.
fn anchors(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            out.push(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

#[test]
fn every_relative_link_of_the_docs_names_a_file_and_heading_that_exist() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for target in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, fragment) = match target.split_once('#') {
                Some((f, frag)) => (f, Some(frag)),
                None => (target.as_str(), None),
            };
            let path = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            checked += 1;
            if !path.exists() {
                broken.push(format!("{}: {target} (no such file)", page.display()));
                continue;
            }
            if let Some(frag) = fragment {
                if path.extension().is_some_and(|x| x == "md")
                    && !anchors(&path).contains(&frag.to_string())
                {
                    broken.push(format!("{}: {target} (no such heading)", page.display()));
                }
            }
        }
    }
    assert!(
        checked > 30,
        "only {checked} links found: is the scan right?"
    );
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_link_scanner_finds_links_and_skips_code() {
    let text = "see [a](x.md) and `[b](y.md)`\n```\n[c](z.md)\n```\n[d](w.md#top-part)";
    assert_eq!(links(text), ["x.md", "w.md#top-part"]);
    assert_eq!(anchor(" Shards across machines"), "shards-across-machines");
    assert_eq!(
        anchor(" Config reference (`configs/*.ron`)"),
        "config-reference-configsron"
    );
}

#[test]
fn the_readme_is_a_front_door() {
    let text = std::fs::read_to_string(repo("README.md")).unwrap();
    let lines = text.lines().count();
    assert!(
        lines <= 250,
        "README.md has {lines} lines (at most 250: the reference belongs in docs/)"
    );
    // Its two set-up commands, near the top.
    let top: String = text.lines().take(40).collect::<Vec<_>>().join("\n");
    for command in [
        "cargo run --release -- run configs/quick.ron",
        "cargo test --release",
    ] {
        assert!(
            top.contains(command),
            "README.md's first 40 lines lack `{command}`"
        );
    }
}
