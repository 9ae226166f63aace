//! Duplicate openings in a book: lines that reach the same position as an
//! earlier line, exactly or up to one of the 8 board symmetries.

use super::format::Book;
use super::symmetry::{canonical, symmetry_between, symmetry_name};
use crate::game::othello::Board;
use std::collections::HashMap;

/// A line that repeats an earlier one.
#[derive(Clone, PartialEq, Eq, Debug, serde::Serialize)]
pub struct Duplicate {
    /// The later line's number.
    pub line: usize,
    /// The later line's text.
    pub text: String,
    /// The number of the first line with the same position (or class).
    pub duplicate_of_line: usize,
    /// That line's text.
    pub duplicate_of_text: String,
    /// For a duplicate by symmetry, the symmetry taking the earlier line's
    /// position to this one's (`None` for an exact duplicate).
    pub symmetry: Option<&'static str>,
}

/// What `arena book check` reports.
#[derive(Clone, PartialEq, Eq, Debug, serde::Serialize)]
pub struct CheckReport {
    /// The file.
    pub file: String,
    /// Openings read.
    pub openings: usize,
    /// Openings given as move lists.
    pub move_lists: usize,
    /// Openings given as position strings.
    pub position_strings: usize,
    /// Distinct positions (side to move included).
    pub distinct_positions: usize,
    /// Distinct positions up to the 8 board symmetries.
    pub distinct_by_symmetry: usize,
    /// Lines whose position equals an earlier line's.
    pub exact_duplicates: Vec<Duplicate>,
    /// Lines whose position is a symmetric image (not equal) of an earlier
    /// line's.
    pub symmetry_duplicates: Vec<Duplicate>,
}

impl CheckReport {
    /// Number of duplicate lines of either kind.
    pub fn duplicates(&self) -> usize {
        self.exact_duplicates.len() + self.symmetry_duplicates.len()
    }
}

/// Finds the duplicate openings of a book. Each later line is reported once,
/// against the first line that has its position (an exact duplicate) or,
/// failing that, the first line of its symmetry class.
pub fn check(book: &Book) -> CheckReport {
    let mut exact: HashMap<Board, usize> = HashMap::with_capacity(book.len());
    let mut classes: HashMap<Board, usize> = HashMap::with_capacity(book.len());
    let mut report = CheckReport {
        file: book.path.display().to_string(),
        openings: book.len(),
        move_lists: book.openings.iter().filter(|o| o.moves.is_some()).count(),
        position_strings: book.openings.iter().filter(|o| o.moves.is_none()).count(),
        distinct_positions: 0,
        distinct_by_symmetry: 0,
        exact_duplicates: Vec::new(),
        symmetry_duplicates: Vec::new(),
    };
    for (i, opening) in book.openings.iter().enumerate() {
        let dup = |first: usize, symmetry| {
            let earlier = &book.openings[first];
            Duplicate {
                line: opening.line,
                text: opening.text.clone(),
                duplicate_of_line: earlier.line,
                duplicate_of_text: earlier.text.clone(),
                symmetry,
            }
        };
        let first_class = *classes.entry(canonical(&opening.board).0).or_insert(i);
        if let Some(&first) = exact.get(&opening.board) {
            report.exact_duplicates.push(dup(first, None));
            continue;
        }
        exact.insert(opening.board, i);
        if first_class != i {
            let sym = symmetry_between(&book.openings[first_class].board, &opening.board)
                .map_or("a symmetry", symmetry_name);
            report.symmetry_duplicates.push(dup(first_class, Some(sym)));
        }
    }
    report.distinct_positions = exact.len();
    report.distinct_by_symmetry = classes.len();
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::parse_book;
    use std::path::Path;

    #[test]
    fn finds_exact_and_symmetric_duplicates() {
        let text = "f5d6\nc4c3\nf5 D6\nd3c3\ne6f4\nf5f6\n";
        let book = parse_book(text, Path::new("b.txt")).unwrap();
        let r = check(&book);
        // c4c3, d3c3 and f5f6 are images of each other, as are f5d6 and e6f4.
        assert_eq!(
            (r.openings, r.distinct_positions, r.distinct_by_symmetry),
            (6, 5, 2)
        );
        assert_eq!(r.exact_duplicates.len(), 1);
        assert_eq!(
            (
                r.exact_duplicates[0].line,
                r.exact_duplicates[0].duplicate_of_line
            ),
            (3, 1)
        );
        let sym: Vec<(usize, usize)> = r
            .symmetry_duplicates
            .iter()
            .map(|d| (d.line, d.duplicate_of_line))
            .collect();
        assert_eq!(sym, [(4, 2), (5, 1), (6, 2)]);
        assert_eq!(
            r.symmetry_duplicates[0].symmetry,
            Some("reflection in the a1-h8 diagonal")
        );
        assert_eq!(
            r.symmetry_duplicates[2].symmetry,
            Some("rotation by 180 degrees")
        );
    }
}
