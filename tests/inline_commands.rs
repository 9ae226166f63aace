//! Every command that takes an in-process engine file takes it with fields
//! changed (`FILE.ron:FIELD=VALUE`) as `arena match` does: `search`, `book
//! generate`, `probcut fit` and `probcut check` (`eval` and `serve`:
//! tests/inline.rs). The change is seen in what the command does; a bad
//! field, or a program written out where an in-process engine is needed,
//! is one line, exit code 2, and nothing written. The real binary, run
//! from a folder outside the repository, bounded in time.

use crate::tournament::tmp;
use crate::util::arena_in_within;
use crate::util::{repo, stderr, stdout};
use std::path::Path;
use std::process::Output;
use std::time::Duration;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `arena args` in `dir`: successful, its one JSON object.
fn json_in(dir: &Path, args: &[&str]) -> serde_json::Value {
    let r = arena_in_within(dir, args, Duration::from_secs(120));
    assert!(r.status.success(), "{args:?}: {}", stderr(&r));
    serde_json::from_str(&stdout(&r)).unwrap_or_else(|e| panic!("{args:?}: {e}: {}", stdout(&r)))
}

/// A refusal: exit code 2 and one line, `error: ` and the words `says`.
fn refused(r: &Output, args: &[&str], says: &str) {
    let err = stderr(r);
    assert_eq!(r.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(
        err.starts_with("error: ") && err.contains(says),
        "{args:?}: {err}"
    );
}

#[test]
fn search_takes_a_changed_engine_and_its_limit_flags_still_win() {
    let dir = tmp("inline-search");
    let ordered = repo("engines/alphabeta-ordered-d6.ron");
    let search = |engine: &str, extra: &[&str]| {
        let mut args = vec!["search", "--engine", engine, "--json"];
        args.extend_from_slice(extra);
        json_in(&dir, &args)
    };
    let file = search(s(&ordered), &[]);
    let unordered = search(&format!("{}:ordering=[]", s(&ordered)), &[]);
    // The same depth-6 alpha-beta search, without its move ordering: the
    // same value, more nodes.
    assert_eq!(
        (file["depth"].clone(), unordered["depth"].clone()),
        (6.into(), 6.into())
    );
    assert_eq!(file["score_discs"], unordered["score_discs"]);
    assert!(
        unordered["nodes"].as_u64() > file["nodes"].as_u64(),
        "{file} {unordered}"
    );
    // The changed limit is the engine's; --depth replaces it, as it does a
    // file's own.
    let shallow = format!("{}:limit=Depth(3)", s(&ordered));
    assert_eq!(search(&shallow, &[])["depth"], 3);
    assert_eq!(search(&shallow, &["--depth", "2"])["depth"], 2);
    assert_eq!(
        search(&shallow, &["--depth", "2"])["nodes"],
        search(s(&ordered), &["--depth", "2"])["nodes"]
    );
    // A relative value is relative to the current folder.
    std::fs::copy(
        repo("engines/weights/squares-classic.ron"),
        dir.join("w.ron"),
    )
    .unwrap();
    let here = search(&format!("{}:eval.weights=w.ron", s(&ordered)), &[]);
    assert_eq!(here["nodes"], file["nodes"]);

    for (engine, says) in [
        (
            format!("{}:nope=1", s(&ordered)),
            "`nope` is not a field of an engine".to_string(),
        ),
        (
            format!("{}:limit=Depth(0)", s(&ordered)),
            "limit".to_string(),
        ),
        (
            format!("cmd={} arg=serve proto=nboard", env!("CARGO_BIN_EXE_arena")),
            "is an external engine; arena search needs an in-process engine".to_string(),
        ),
    ] {
        let args = ["search", "--engine", &engine, "--depth", "2"];
        refused(
            &arena_in_within(&dir, &args, Duration::from_secs(60)),
            &args,
            &says,
        );
    }
}

#[test]
fn book_generate_balances_with_a_changed_engine_and_records_it() {
    let dir = tmp("inline-book");
    let ab = repo("engines/alphabeta-d6.ron");
    let generate = |engine: &str, out: &str| {
        let args = [
            "book",
            "generate",
            "--plies",
            "3",
            "--balanced",
            "--engine",
            engine,
            "--depth",
            "2",
            "--max-abs",
            "2",
            "--out",
            out,
            "--json",
        ];
        (
            json_in(&dir, &args),
            std::fs::read_to_string(dir.join(out)).unwrap(),
        )
    };
    let (squares, _) = generate(s(&ab), "squares.txt");
    let discs_arg = format!("{}:eval=Discs", s(&ab));
    let (discs, text) = generate(&discs_arg, "discs.txt");
    // Counting discs instead of weighing squares keeps other openings.
    assert_eq!(squares["searched"], discs["searched"]);
    assert_ne!(squares["kept"], discs["kept"], "{squares} {discs}");
    assert_eq!(discs["engine"], "alphabeta-d6+eval=Discs");
    assert_eq!(discs["engine_file"], discs_arg.as_str());
    // The header's command regenerates the book with the changed engine.
    let first = text.lines().next().unwrap();
    assert!(
        first.contains(&format!(" --engine {discs_arg} --depth 2 ")),
        "{first}"
    );

    let bad = format!("{}:eval=Nope", s(&ab));
    let args = [
        "book",
        "generate",
        "--plies",
        "3",
        "--balanced",
        "--engine",
        &bad,
        "--depth",
        "2",
        "--max-abs",
        "2",
        "--out",
        "never.txt",
    ];
    refused(
        &arena_in_within(&dir, &args, Duration::from_secs(60)),
        &args,
        &format!("{bad}: "),
    );
    assert!(!dir.join("never.txt").exists());
}

#[test]
fn probcut_fit_and_check_take_a_changed_engine() {
    let dir = tmp("inline-probcut");
    let ab = repo("engines/alphabeta-d6.ron");
    let killers = format!("{}:ordering=[Killers]", s(&ab));
    let fit = [
        "probcut",
        "fit",
        "--engine",
        &killers,
        "--games",
        "4",
        "--positions",
        "10",
        "--pairs",
        "3:1",
        "--out",
        "pc.ron",
        "--json",
    ];
    json_in(&dir, &fit);
    let text = std::fs::read_to_string(dir.join("pc.ron")).unwrap();
    assert!(
        text.starts_with("// ProbCut parameters for alphabeta-d6+ordering=[Killers] "),
        "{text}"
    );
    // The header's command quotes the argument for the shell.
    assert!(
        text.contains(&format!(
            "arena probcut fit --engine '{killers}' --games 4 "
        )),
        "{text}"
    );

    // alphabeta-d6 has no ProbCut file; given the one just fitted, it is
    // checked, and a second change (its ordering) changes its node counts.
    let check = |engine: &str| {
        let args = [
            "probcut",
            "check",
            "--engine",
            engine,
            "--depth",
            "3",
            "--positions",
            "4",
            "--games",
            "2",
            "--json",
        ];
        arena_in_within(&dir, &args, Duration::from_secs(120))
    };
    let none = check(s(&ab));
    assert_eq!(none.status.code(), Some(1), "{}", stderr(&none));
    assert!(
        stderr(&none).contains("has no ProbCut file"),
        "{}",
        stderr(&none)
    );
    let with = format!("{}:probcut=pc.ron", s(&ab));
    let report = |r: Output| -> serde_json::Value {
        assert!(r.status.success(), "{}", stderr(&r));
        serde_json::from_str(&stdout(&r)).unwrap()
    };
    let plain = report(check(&with));
    let ordered = report(check(&format!("{with},ordering=[Killers]")));
    assert_eq!(plain["positions"], 4);
    assert_ne!(
        plain["nodes_full"], ordered["nodes_full"],
        "{plain} {ordered}"
    );

    let bad = format!("{}:nope=1", s(&ab));
    for args in [
        vec![
            "probcut",
            "fit",
            "--engine",
            &bad,
            "--games",
            "4",
            "--positions",
            "10",
            "--out",
            "never.ron",
        ],
        vec!["probcut", "check", "--engine", &bad],
    ] {
        refused(
            &arena_in_within(&dir, &args, Duration::from_secs(60)),
            &args,
            "`nope` is not a field of an engine",
        );
    }
    assert!(!dir.join("never.ron").exists());
}
