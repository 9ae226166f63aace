//! GGF (Generic Game Format, as GGS, Edax and NBoard use it) for a game
//! in progress: the start position and the moves so far, written
//! ([`ggf_of`], what NBoard's `set game` sends) and read back
//! ([`parse_ggf`], what `arena serve` receives). Finished games with their
//! results are written by [`crate::records::ggf`], with the same board and
//! move forms.

use crate::game::othello::{parse_board_string, Board, Color, Move};

/// Why a GGF game could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GgfError {
    /// No `(;` … `;)` around the game.
    #[error("not a GGF game (expected `(;GM[Othello]...;)`)")]
    NotGgf,
    /// A `BO[...]` that is not an 8x8 board.
    #[error("BO[{0}]: not an 8x8 board (expected `8 <64 squares> <side>`)")]
    Board(String),
    /// A move that is not a square or `PA`, or is not legal where it is
    /// played.
    #[error("move {number} ({text}): {why}")]
    Move {
        /// Its 1-based number.
        number: usize,
        /// As written.
        text: String,
        /// What is wrong.
        why: &'static str,
    },
}

/// GGF's board: `8 ` then 64 squares row by row (`*` black, `O` white,
/// `-` empty), then the side to move.
pub fn ggf_board(b: &Board) -> String {
    let mut out = String::with_capacity(68);
    push_ggf_board(&mut out, b);
    out
}

/// Appends [`ggf_board`]'s text to `out` (no allocation: `games.ggf` holds
/// one board per game).
pub fn push_ggf_board(out: &mut String, b: &Board) {
    let (black, white) = (b.black(), b.white());
    out.push_str("8 ");
    for i in 0..64 {
        let bit = 1u64 << i;
        out.push(if black & bit != 0 {
            '*'
        } else if white & bit != 0 {
            'O'
        } else {
            '-'
        });
    }
    out.push_str(if b.side == Color::Black { " *" } else { " O" });
}

/// A move as GGF writes it: `F5`, or `PA` for a pass.
pub fn ggf_move(mv: Move) -> String {
    let mut out = String::with_capacity(2);
    push_ggf_move(&mut out, mv);
    out
}

/// Appends [`ggf_move`]'s text to `out`.
fn push_ggf_move(out: &mut String, mv: Move) {
    match mv.to_square() {
        Some(sq) => {
            out.push(char::from(b'A' + sq.column()));
            out.push(char::from(b'1' + sq.row()));
        }
        None => out.push_str("PA"),
    }
}

/// Writes `B[F5]W[D6]...` for the moves played from `start`, each followed
/// by what `data(i, out)` appends inside its brackets (`/eval/time`, or
/// nothing). Stops at the first move that is not legal where it is played.
pub fn write_moves(
    out: &mut String,
    start: &Board,
    moves: impl IntoIterator<Item = Move>,
    mut data: impl FnMut(usize, &mut String),
) {
    let mut board = *start;
    for (i, mv) in moves.into_iter().enumerate() {
        out.push_str(if board.side == Color::Black {
            "B["
        } else {
            "W["
        });
        push_ggf_move(out, mv);
        data(i, out);
        out.push(']');
        match played(&board, mv) {
            Some(b) => board = b,
            None => break,
        }
    }
}

/// The position after `mv`, when it is legal in `board`: a square is when
/// it is empty and flips a disc (what [`Board::try_play`] checks, without
/// generating every legal move first).
fn played(board: &Board, mv: Move) -> Option<Board> {
    match mv.to_square() {
        Some(sq) if board.empty() & sq.bit() != 0 => {
            let next = board.play_unchecked(mv);
            // A move that flips nothing leaves the other side's discs as they were.
            (next.player != board.opponent).then_some(next)
        }
        Some(_) => None,
        None => board.try_play(mv).ok(),
    }
}

/// A game in progress as GGF: `start`, then `moves` (passes as `PA`), no
/// result: `(;GM[Othello]PC[arena]PB[..]PW[..]TY[8]BO[..]B[F5]W[D6];)`.
pub fn ggf_of(start: &Board, moves: &[Move], black: &str, white: &str) -> String {
    let mut out = format!(
        "(;GM[Othello]PC[arena]PB[{}]PW[{}]TY[8]BO[{}]",
        black.replace(']', ")"),
        white.replace(']', ")"),
        ggf_board(start)
    );
    write_moves(&mut out, start, moves.iter().copied(), |_, _| ());
    out.push_str(";)");
    out
}

/// The `TAG[value]` pairs between `(;` and `;)`.
fn tags(text: &str) -> Result<Vec<(&str, &str)>, GgfError> {
    let start = text.find("(;").ok_or(GgfError::NotGgf)? + 2;
    let end = text[start..].find(";)").ok_or(GgfError::NotGgf)? + start;
    let mut rest = &text[start..end];
    let mut found = Vec::new();
    while let Some(open) = rest.find('[') {
        let close = rest[open..].find(']').ok_or(GgfError::NotGgf)? + open;
        found.push((rest[..open].trim(), &rest[open + 1..close]));
        rest = &rest[close + 1..];
    }
    Ok(found)
}

/// The position of a `BO[8 <squares> <side>]` value.
fn parse_bo(value: &str) -> Result<Board, GgfError> {
    let bad = || GgfError::Board(value.to_string());
    let body = value.trim().strip_prefix('8').ok_or_else(bad)?;
    parse_board_string(body).map_err(|_| bad())
}

/// Reads a GGF game: its start position (`BO`, the standard start without
/// one) and its moves (`B[..]`/`W[..]`, with or without `/eval/time`,
/// `PA` for a pass). A pass the game needed but the file left out (as Edax
/// writes games) is put in.
///
/// # Errors
/// [`GgfError`] naming what is wrong.
pub fn parse_ggf(text: &str) -> Result<(Board, Vec<Move>), GgfError> {
    let tags = tags(text)?;
    let start = match tags.iter().find(|(t, _)| *t == "BO") {
        Some((_, v)) => parse_bo(v)?,
        None => Board::start(),
    };
    let mut board = start;
    let mut moves = Vec::new();
    for (number, (tag, value)) in tags
        .iter()
        .filter(|(t, _)| *t == "B" || *t == "W")
        .enumerate()
    {
        let text = value.split('/').next().unwrap_or("").trim();
        let bad = |why| GgfError::Move {
            number: number + 1,
            text: text.to_string(),
            why,
        };
        let mv = Move::parse(text).ok_or_else(|| bad("not a square or PA"))?;
        let colour = if *tag == "B" {
            Color::Black
        } else {
            Color::White
        };
        if colour != board.side && !mv.is_pass() && board.must_pass() {
            moves.push(Move::PASS);
            board = board.passed();
        }
        board = board.try_play(mv).map_err(|_| bad("not legal there"))?;
        moves.push(mv);
    }
    Ok((start, moves))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::play_move_list;

    #[test]
    fn a_move_is_played_exactly_when_try_play_plays_it() {
        use crate::game::othello::Square;
        // Along a game where each side takes its first legal square (or
        // passes), every square and the pass of every position.
        let mut board = Board::start();
        loop {
            for mv in (0..64).map(|i| Move::square(Square::new(i))) {
                assert_eq!(played(&board, mv), board.try_play(mv).ok(), "{mv}");
            }
            assert_eq!(played(&board, Move::PASS), board.try_play(Move::PASS).ok());
            board = match board.legal_squares().next() {
                Some(sq) => board.play_unchecked(Move::square(sq)),
                None if board.must_pass() => board.passed(),
                None => break,
            };
        }
    }

    #[test]
    fn a_game_in_progress_reads_back_as_written() {
        let (board, moves) = play_move_list(Board::start(), "f5d6c3").unwrap();
        let text = ggf_of(&Board::start(), &moves, "a", "b]");
        assert_eq!(
            text,
            "(;GM[Othello]PC[arena]PB[a]PW[b)]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6]B[C3];)"
        );
        let (start, read) = parse_ggf(&text).unwrap();
        assert_eq!(start, Board::start());
        assert_eq!(read, moves);
        let end = read.iter().fold(start, |b, &m| b.try_play(m).unwrap());
        assert_eq!(end, board);
    }

    #[test]
    fn nboard_s_example_with_evals_times_and_a_clock_reads() {
        let text = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6/0.5/1.2]B[D3//]W[C5];)";
        let (start, moves) = parse_ggf(text).unwrap();
        assert_eq!(start, Board::start());
        let list: String = moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(list, "f5f6d3c5");
    }

    /// The moves of a random game from the start up to the move after its
    /// first pass.
    fn game_with_a_pass() -> Vec<Move> {
        use crate::game::{Game, MoveList};
        for seed in 0.. {
            let mut rng = crate::rng::SplitMix64::new(seed);
            let (mut board, mut moves) = (Board::start(), Vec::new());
            let mut list = MoveList::new();
            while !board.is_over() {
                list.clear();
                board.generate_moves(&mut list);
                let mv = list.get((rng.next_u64() % list.len() as u64) as usize);
                board = board.play(mv);
                moves.push(mv);
                if moves.len() > 1 && moves[moves.len() - 2].is_pass() {
                    return moves;
                }
            }
        }
        unreachable!("some random game passes")
    }

    #[test]
    fn left_out_passes_are_put_in_and_errors_name_the_move() {
        let moves = game_with_a_pass();
        let text = ggf_of(&Board::start(), &moves, "a", "b");
        assert_eq!(parse_ggf(&text).unwrap().1, moves);
        let without = text.replace("B[PA]", "").replace("W[PA]", "");
        assert_eq!(parse_ggf(&without).unwrap().1, moves);
        let first = format!("B[{}]", ggf_move(moves[0]));
        let err = parse_ggf(&text.replacen(&first, "B[A1]", 1)).unwrap_err();
        assert_eq!(err.to_string(), "move 1 (A1): not legal there");
        let err = parse_ggf(&text.replacen(&first, "B[Z9]", 1)).unwrap_err();
        assert_eq!(err.to_string(), "move 1 (Z9): not a square or PA");
        assert_eq!(parse_ggf("hello"), Err(GgfError::NotGgf));
        assert!(matches!(parse_ggf("(;BO[9 x];)"), Err(GgfError::Board(_))));
    }
}
