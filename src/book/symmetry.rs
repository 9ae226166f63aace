//! "The same opening up to symmetry": the canonical form of a position under
//! the 8 symmetries of the board, used to find duplicate openings and to keep
//! one opening per symmetry class when generating.

use crate::game::othello::{Board, Symmetry};

/// The canonical image of `board` under the 8 board symmetries, and the
/// symmetry that maps `board` to it.
///
/// The canonical image is the one with the smallest `(player, opponent)`
/// pair; the side to move is kept (a symmetry does not change it), so two
/// positions are "the same up to symmetry" exactly when their canonical
/// images are equal boards. On a tie (a symmetric position) the first
/// symmetry of [`Symmetry::ALL`] giving the minimum is returned.
pub fn canonical(board: &Board) -> (Board, Symmetry) {
    let mut best = (board.player, board.opponent);
    let mut best_sym = Symmetry::ALL[0];
    for sym in &Symmetry::ALL[1..] {
        let image = (sym.apply(board.player), sym.apply(board.opponent));
        if image < best {
            best = image;
            best_sym = *sym;
        }
    }
    (
        Board {
            player: best.0,
            opponent: best.1,
            side: board.side,
        },
        best_sym,
    )
}

/// A name for a symmetry, for messages (`a1` is the top-left corner).
pub fn symmetry_name(sym: Symmetry) -> &'static str {
    match sym.0 & 7 {
        0 => "identity",
        1 => "mirror a-h",
        2 => "mirror 1-8",
        3 => "rotation by 180 degrees",
        4 => "reflection in the a1-h8 diagonal",
        5 => "quarter turn clockwise",
        6 => "quarter turn counterclockwise",
        _ => "reflection in the h1-a8 diagonal",
    }
}

/// The symmetry `s` such that `s.board(from) == to`, if any.
pub fn symmetry_between(from: &Board, to: &Board) -> Option<Symmetry> {
    Symmetry::ALL.into_iter().find(|s| s.board(from) == *to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::{Move, Square};

    #[test]
    fn first_moves_are_one_class_and_names_match_the_squares() {
        let start = Board::start();
        let keys: Vec<Board> = start
            .legal_squares()
            .map(|sq| canonical(&start.try_play(Move::square(sq)).unwrap()).0)
            .collect();
        assert_eq!(keys.len(), 4);
        assert!(keys.iter().all(|k| *k == keys[0]));
        let a1 = Square::parse("a1").unwrap();
        let image = |s: u8| Symmetry(s).square(a1).to_string();
        assert_eq!(
            (image(1), image(2), image(3)),
            ("h1".into(), "a8".into(), "h8".into())
        );
        // Quarter turns: clockwise takes the top-left corner to the top-right.
        assert_eq!(
            (image(5), image(6), image(7)),
            ("h1".into(), "a8".into(), "h8".into())
        );
        let b1 = Square::parse("b1").unwrap();
        assert_eq!(Symmetry(4).square(b1).to_string(), "a2");
        assert_eq!(Symmetry(5).square(b1).to_string(), "h2");
        assert_eq!(Symmetry(6).square(b1).to_string(), "a7");
        assert_eq!(Symmetry(7).square(b1).to_string(), "h7");
    }
}
