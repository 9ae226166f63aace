//! Importing public opening lists into our format. The one supported shape
//! is XOT's: one move list per line from the start position (`f5d6c4d3c2b3b4b5`),
//! no position strings. Every line is validated like a book line (all bad
//! lines reported at once); the result is written as normalized move lists
//! (lower case, no separators, passes explicit) under a header.

use super::format::{parse_with, read_book_text, Accept, Book, BookError};
use std::path::Path;

/// Reads a list of move lists (one per line; `#` comments and blank lines
/// are allowed) into a checked [`Book`].
///
/// # Errors
/// [`BookError::Io`], [`BookError::BadLines`] listing every bad line (an
/// illegal move, or a position string), or [`BookError::Empty`].
pub fn import_move_lists(path: &Path) -> Result<Book, BookError> {
    parse_with(&read_book_text(path)?, path, Accept::MoveLists)
}
