//! Book files as `arena book check` and `arena book import` read them: every
//! bad line reported with its reason, long lists capped, empty and missing
//! books, exact and symmetric duplicates, non-ASCII text, and the public XOT
//! list when `../shared/data/openings/` is there.

use crate::book::tmp;
use crate::util::{arena, data, repo, stderr, stdout};
use arena::book::{import_move_lists, read_book, BookError};

#[test]
fn every_bad_line_is_reported_with_the_move_and_why() {
    let out = arena(&[
        "book",
        "check",
        data("book/bad-lines.txt").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).is_empty());
    let err = stderr(&out);
    let expected = [
        "bad-lines.txt: 7 bad lines",
        "  line 3: \"f5d6a1\": illegal move a1 at index 4 of the move list (move 3): a1 flips no disc for black (legal for black: c3 c4 c5 c6 c7)",
        "  line 4: \"f5f5\": illegal move f5 at index 2 of the move list (move 2): f5 is already occupied (legal for white: d6 f4 f6)",
        "  line 5: \"F5\"…: \"z9\" at index 9 of the move list is not a move (expected a1..h8 or pa)",
        "  line 6: \"f5\"…: illegal move pa at index 3 of the move list (move 2): white has legal moves (d6 f4 f6)",
        "  line 11: \"XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX\"…: the game is over in this position (neither side can move)",
    ];
    let got: Vec<&str> = err.lines().collect();
    assert!(
        got[0].starts_with("error: ") && got[0].ends_with(expected[0]),
        "{err}"
    );
    // Position-string errors are the notation reader's own words: only
    // their place and gist are pinned here.
    // Each line is quoted by its first word, at most 40 characters.
    let start = "---------------------------OX------XO---";
    assert!(
        got[5].starts_with(&format!("  line 9: \"{start}")) && got[5].contains("'Q'"),
        "{err}"
    );
    assert!(
        got[6].starts_with(&format!("  line 10: \"{start}")) && got[6].contains("53"),
        "{err}"
    );
    let mine: Vec<&str> = got[1..5].iter().chain(&got[7..]).copied().collect();
    assert_eq!(mine, &expected[1..], "{err}");
    // The library gives the same list, as data.
    let Err(BookError::BadLines { errors, .. }) = read_book(&data("book/bad-lines.txt")) else {
        panic!()
    };
    assert_eq!(
        errors.iter().map(|e| e.line).collect::<Vec<_>>(),
        [3, 4, 5, 6, 9, 10, 11]
    );
}

#[test]
fn a_long_list_of_bad_lines_is_capped() {
    let out = arena(&["book", "check", data("book/many-bad.txt").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.lines()
            .next()
            .unwrap()
            .ends_with("many-bad.txt: 25 bad lines"),
        "{err}"
    );
    assert_eq!(
        err.lines().filter(|l| l.starts_with("  line ")).count(),
        20,
        "{err}"
    );
    assert_eq!(err.lines().last(), Some("  and 5 more"));
    let Err(BookError::BadLines { errors, .. }) = read_book(&data("book/many-bad.txt")) else {
        panic!()
    };
    assert_eq!(errors.len(), 25);
}

#[test]
fn empty_and_missing_books_are_errors() {
    let out = arena(&["book", "check", data("book/empty.txt").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("empty.txt: no openings (every line is blank or a comment)"),
        "{}",
        stderr(&out)
    );
    let out = arena(&["book", "check", "no/such/book.txt"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).starts_with("error: no/such/book.txt: "),
        "{}",
        stderr(&out)
    );
}

#[test]
fn check_reports_duplicates_and_strict_fails() {
    let file = data("book/duplicates.txt");
    let out = arena(&["book", "check", file.to_str().unwrap()]);
    assert!(out.status.success());
    let text = stdout(&out);
    let body: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(
        body,
        [
            "distinct positions: 6; up to symmetry: 3",
            "exact duplicates: 2",
            "  line 4 \"f5 D6\" repeats line 2 \"f5d6\"",
            "  line 9 \"start\" repeats line 8 \"---------------------------OX------XO--------------------------- X\"",
            "duplicates by symmetry: 3",
            "  line 5 \"d3c3\" repeats line 3 \"c4c3\" (reflection in the a1-h8 diagonal)",
            "  line 6 \"e6f4\" repeats line 2 \"f5d6\" (reflection in the a1-h8 diagonal)",
            "  line 7 \"f5f6\" repeats line 3 \"c4c3\" (rotation by 180 degrees)",
        ]
    );
    assert!(text.starts_with(&format!(
        "{}: 8 openings (7 move lists, 1 position string)",
        file.display()
    )));
    assert!(stderr(&out).starts_with("warning: "), "{}", stderr(&out));

    let out = arena(&["book", "check", "--strict", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("5 duplicate openings (--strict)"),
        "{}",
        stderr(&out)
    );

    let out = arena(&["book", "check", "--json", file.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(stdout(&out).lines().count(), 1);
    assert_eq!(v["openings"], 8);
    assert_eq!(v["distinct_positions"], 6);
    assert_eq!(v["distinct_by_symmetry"], 3);
    assert_eq!(v["exact_duplicates"][0]["line"], 4);
    assert_eq!(v["exact_duplicates"][0]["duplicate_of_line"], 2);
    assert_eq!(
        v["symmetry_duplicates"][2]["symmetry"],
        "rotation by 180 degrees"
    );
}

#[test]
fn a_non_ascii_line_is_a_bad_line_not_a_panic() {
    let f = tmp("utf8.txt");
    std::fs::write(&f, "a\u{20ac}\n\u{20ac}\u{20ac}\nf\u{e9}5\nf5\n").unwrap();
    let out = arena(&["book", "check", f.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("3 bad lines"), "{err}");
}

#[test]
fn import_writes_move_lists_and_refuses_positions() {
    let out = tmp("imported.txt");
    let r = arena(&[
        "book",
        "import",
        data("book/duplicates.txt").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        r.status.code(),
        Some(1),
        "position strings are not move lists"
    );
    assert!(stderr(&r).contains("line 8: "), "{}", stderr(&r));
    assert!(stderr(&r).contains("not a move list"), "{}", stderr(&r));

    let src = tmp("to-import.txt");
    std::fs::write(&src, "F5D6C3\nf5 f6 e6\n").unwrap();
    let r = arena(&[
        "book",
        "import",
        src.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("# arena book import "), "{text}");
    assert_eq!(
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .collect::<Vec<_>>(),
        ["f5d6c3", "f5f6e6"]
    );
}

/// The public XOT list, which we may not redistribute: tested only where the
/// shared data folder sits next to the repository.
#[test]
fn xot_large_list_imports_legal_and_distinct() {
    let path = repo("../shared/data/openings/xot_openingslarge.txt");
    if !path.exists() {
        crate::util::skip_data(&format!(
            "{} is absent (the shared data folder beside the repository)",
            path.display()
        ));
        return;
    }
    let book = import_move_lists(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(book.len(), 10_784);
    assert!(book
        .openings
        .iter()
        .all(|o| o.moves.as_ref().is_some_and(|m| m.len() == 8)));
    let report = arena::book::check(&book);
    assert_eq!(report.distinct_positions, 10_784);
    assert_eq!(report.duplicates(), 0);
    // After 8 moves it is always black to move with 52 empties.
    assert!(book
        .openings
        .iter()
        .all(|o| o.board.empties() == 52 && o.board.side == arena::game::othello::Color::Black));

    let out = tmp("xot.txt");
    let r = arena(&[
        "book",
        "import",
        path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    let v: serde_json::Value = serde_json::from_str(stdout(&r).trim()).unwrap();
    assert_eq!(v["openings"], 10_784);
    let written = read_book(&out).unwrap();
    let original = std::fs::read_to_string(&path).unwrap();
    let texts: Vec<&str> = written.openings.iter().map(|o| o.text.as_str()).collect();
    assert_eq!(texts, original.lines().map(str::trim).collect::<Vec<_>>());
}
