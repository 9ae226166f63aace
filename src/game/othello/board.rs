//! The Othello position: two bitboards (the side to move's discs and the
//! opponent's) plus the colour to move. Implements [`crate::game::Game`].

use super::bitboard::{legal_moves, Bits};
use super::hash;
use super::ops::Ops;
use super::square::{Move, Square};
use crate::game::cpu::{Baseline, Cpu};
use crate::game::{Game, MoveList};

/// A disc colour; black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// The first player (`X` in position strings).
    Black,
    /// The second player (`O`).
    White,
}

impl Color {
    /// The other colour.
    #[inline]
    pub fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

/// An Othello position. Always consistent (no disc on both boards); whether it
/// is reachable from the start is not checked.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the other side.
    pub opponent: u64,
    /// Colour of the side to move.
    pub side: Color,
}

impl Board {
    /// The standard start position: white on d4 and e5, black on e4 and d5,
    /// black to move.
    pub fn start() -> Board {
        let d4 = Square::parse("d4").unwrap().bit();
        let e5 = Square::parse("e5").unwrap().bit();
        let e4 = Square::parse("e4").unwrap().bit();
        let d5 = Square::parse("d5").unwrap().bit();
        Board {
            player: e4 | d5,
            opponent: d4 | e5,
            side: Color::Black,
        }
    }

    /// A board from the two colours' discs and the colour to move.
    ///
    /// # Panics
    /// Panics when a square holds both colours.
    pub fn from_colors(black: u64, white: u64, side: Color) -> Board {
        assert_eq!(black & white, 0, "a square holds two discs");
        match side {
            Color::Black => Board {
                player: black,
                opponent: white,
                side,
            },
            Color::White => Board {
                player: white,
                opponent: black,
                side,
            },
        }
    }

    /// Black's discs.
    #[inline]
    pub fn black(&self) -> u64 {
        if self.side == Color::Black {
            self.player
        } else {
            self.opponent
        }
    }

    /// White's discs.
    #[inline]
    pub fn white(&self) -> u64 {
        if self.side == Color::Black {
            self.opponent
        } else {
            self.player
        }
    }

    /// Empty squares.
    #[inline(always)]
    pub fn empty(&self) -> u64 {
        !(self.player | self.opponent)
    }

    /// Number of empty squares.
    #[inline(always)]
    pub fn empties(&self) -> u32 {
        self.empty().count_ones()
    }

    /// Legal squares of the side to move (no pass information).
    #[inline(always)]
    pub fn moves(&self) -> u64 {
        legal_moves(self.player, self.opponent)
    }

    /// True when the side to move has no square but the opponent has one.
    pub fn must_pass(&self) -> bool {
        self.moves() == 0 && legal_moves(self.opponent, self.player) != 0
    }

    /// The position after the side to move passes.
    #[inline]
    pub fn passed(&self) -> Board {
        Board {
            player: self.opponent,
            opponent: self.player,
            side: self.side.opposite(),
        }
    }

    /// Plays `mv` without checking it: for search, which only plays generated
    /// moves. A square that flips nothing gives a meaningless position.
    #[inline]
    pub fn play_unchecked(&self, mv: Move) -> Board {
        match crate::game::cpu::detect() {
            Some(avx2) => self.play_unchecked_on(avx2, mv),
            None => self.play_unchecked_on(Baseline, mv),
        }
    }

    /// [`Board::play_unchecked`] by the code of path `cpu`.
    #[inline(always)]
    pub fn play_unchecked_on<C: Cpu>(&self, cpu: C, mv: Move) -> Board {
        match mv.to_square() {
            None => self.passed(),
            Some(sq) => {
                let f = cpu.flips(sq.index(), self.player, self.opponent);
                Board {
                    player: self.opponent ^ f,
                    opponent: self.player ^ f ^ sq.bit(),
                    side: self.side.opposite(),
                }
            }
        }
    }

    /// Plays `mv` if it is legal here.
    ///
    /// # Errors
    /// [`IllegalMove`] when the square is occupied or flips nothing, or the
    /// move is a pass while a square is playable or the game is over.
    pub fn try_play(&self, mv: Move) -> Result<Board, IllegalMove> {
        let legal = match mv.to_square() {
            None => self.must_pass(),
            Some(sq) => self.moves() & sq.bit() != 0,
        };
        if legal {
            Ok(self.play_unchecked(mv))
        } else {
            Err(IllegalMove { mv })
        }
    }

    /// Final score by the FFO rule: disc difference for the side to move, with
    /// empty squares going to the winner.
    #[inline(always)]
    pub fn final_score_now(&self) -> i32 {
        let p = self.player.count_ones() as i32;
        let o = self.opponent.count_ones() as i32;
        let e = 64 - p - o;
        match p.cmp(&o) {
            std::cmp::Ordering::Greater => p - o + e,
            std::cmp::Ordering::Less => p - o - e,
            std::cmp::Ordering::Equal => 0,
        }
    }

    /// Black minus white discs with empties to the winner (the game result as
    /// tournaments record it), for a finished game.
    pub fn black_disc_diff(&self) -> i32 {
        match self.side {
            Color::Black => self.final_score_now(),
            Color::White => -self.final_score_now(),
        }
    }

    /// Number of discs of each colour: (black, white).
    pub fn disc_counts(&self) -> (u32, u32) {
        (self.black().count_ones(), self.white().count_ones())
    }

    /// The legal squares, lowest index first.
    pub fn legal_squares(&self) -> impl Iterator<Item = Square> {
        Bits(self.moves()).map(|i| Square::new(i as u8))
    }
}

impl Default for Board {
    fn default() -> Self {
        Board::start()
    }
}

/// A move that is not legal in the position it was played in.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
#[error("illegal move {mv}")]
pub struct IllegalMove {
    /// The move.
    pub mv: Move,
}

impl Game for Board {
    type Move = Move;
    const NAME: &'static str = "othello";

    #[inline(always)]
    fn generate_moves(&self, moves: &mut MoveList<Move>) {
        self.generate_moves_on(Baseline, moves)
    }

    #[inline]
    fn play(&self, mv: Move) -> Board {
        self.play_unchecked(mv)
    }

    #[inline(always)]
    fn play_on<C: Cpu>(&self, cpu: C, mv: Move) -> Board {
        self.play_unchecked_on(cpu, mv)
    }

    #[inline(always)]
    fn is_over(&self) -> bool {
        self.moves() == 0 && legal_moves(self.opponent, self.player) == 0
    }

    #[inline(always)]
    fn final_score(&self) -> i32 {
        self.final_score_now()
    }

    #[inline]
    fn hash(&self) -> u64 {
        hash::hash(self.player, self.opponent)
    }

    #[inline]
    fn first_player_to_move(&self) -> bool {
        self.side == Color::Black
    }

    fn pass_move() -> Option<Move> {
        Some(Move::PASS)
    }

    #[inline(always)]
    fn generate_moves_on<C: Cpu>(&self, cpu: C, moves: &mut MoveList<Move>) {
        let m = cpu.legal_moves(self.player, self.opponent);
        if m != 0 {
            for i in Bits(m) {
                moves.push(Move::square(Square::new(i as u8)));
            }
        } else if cpu.legal_moves(self.opponent, self.player) != 0 {
            moves.push(Move::PASS);
        }
    }

    #[inline(always)]
    fn move_count_on<C: Cpu>(&self, cpu: C) -> usize {
        let m = cpu.legal_moves(self.player, self.opponent);
        if m != 0 {
            m.count_ones() as usize
        } else {
            usize::from(cpu.legal_moves(self.opponent, self.player) != 0)
        }
    }

    #[inline(always)]
    fn perft_bulk_on<C: Cpu>(&self, cpu: C, depth: u32) -> u64 {
        super::perft::leaves_on(cpu, self.player, self.opponent, depth)
    }

    #[inline(always)]
    fn move_count(&self) -> usize {
        self.move_count_on(Baseline)
    }
}
