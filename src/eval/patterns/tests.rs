//! Tests of the pattern evaluation: the fast index reading against a
//! square-by-square one, the written-out sum, the set's instances, and the
//! symmetry of mirror-tied tables.

use super::index::table_sum;
use super::set::OFFSETS;
use super::*;
use crate::game::othello::symmetry::Symmetry;
use crate::game::othello::Square;
use crate::rng::SplitMix64;

/// The index of instance `n` of pattern `k`, read square by square.
fn slow_index(b: &Board, k: usize, n: usize) -> usize {
    let mut index = 0;
    let mut power = 1;
    for s in SET[k].instance_squares(n) {
        let digit = if b.player & s.bit() != 0 {
            1
        } else if b.opponent & s.bit() != 0 {
            2
        } else {
            0
        };
        index += digit * power;
        power *= 3;
    }
    index
}

fn random_board(rng: &mut SplitMix64) -> Board {
    let a = rng.next_u64();
    let m = rng.next_u64();
    Board {
        player: a & m,
        opponent: a & !m,
        side: crate::game::othello::Color::Black,
    }
}

#[test]
fn fast_indices_match_square_by_square_reading() {
    let mut rng = SplitMix64::new(7);
    for _ in 0..2000 {
        let b = random_board(&mut rng);
        let mut count = 0;
        for_each_index(b.player, b.opponent, |k, n, index| {
            assert_eq!(
                index,
                slow_index(&b, k, n),
                "pattern {} instance {n}",
                SET[k].name
            );
            count += 1;
        });
        assert_eq!(count, INSTANCES);
    }
}

#[test]
fn the_written_out_sum_visits_every_instance_once() {
    let mut rng = SplitMix64::new(9);
    let t: Vec<i16> = (0..STAGE_SIZE)
        .map(|_| (rng.below(2001) as i16) - 1000)
        .collect();
    for _ in 0..2000 {
        let b = random_board(&mut rng);
        let mut want = 0i32;
        for_each_index(b.player, b.opponent, |k, _, index| {
            want += i32::from(t[OFFSETS[k] + index]);
        });
        assert_eq!(table_sum(&t, b.player, b.opponent), want);
    }
}

#[test]
fn instances_are_distinct_and_cover_the_classic_set() {
    for p in &SET {
        let mut sets: Vec<Vec<Square>> = (0..p.symmetries.len())
            .map(|n| {
                let mut s = p.instance_squares(n);
                s.sort_by_key(|q| q.index());
                s
            })
            .collect();
        sets.sort_by_key(|s| s.iter().map(|q| q.index()).collect::<Vec<_>>());
        sets.dedup();
        // corner_2x5 has 8 distinct instances, diag_8 2, the rest 4.
        assert_eq!(sets.len(), p.symmetries.len(), "{}", p.name);
    }
    // Every square is covered by some instance.
    let mut covered = 0u64;
    for p in &SET {
        for n in 0..p.symmetries.len() {
            for s in p.instance_squares(n) {
                covered |= s.bit();
            }
        }
    }
    // The four centre squares are in the diagonals; all 64 are covered.
    assert_eq!(covered, u64::MAX);
}

#[test]
fn mirror_tied_tables_give_a_symmetric_evaluation() {
    // With every configuration weighing the same as its mirror image,
    // the 8 reflections and rotations of a position score the same.
    let mut rng = SplitMix64::new(3);
    let mut tables = vec![0i16; STAGE_SIZE];
    for (k, p) in SET.iter().enumerate() {
        for i in 0..p.size() {
            let j = p.mirrored(i);
            assert_eq!(p.mirrored(j), i);
            if j >= i {
                let w = (rng.below(2001) as i16) - 1000;
                tables[OFFSETS[k] + i] = w;
                tables[OFFSETS[k] + j] = w;
            }
        }
    }
    let eval = Patterns::new(
        vec![0],
        vec![StageWeights {
            bias: 3.0,
            mobility: 7.0,
            parity: 11.0,
            tables,
        }],
    );
    for _ in 0..500 {
        let b = random_board(&mut rng);
        let v = eval.evaluate(&b);
        for s in Symmetry::ALL {
            assert_eq!(eval.evaluate(&s.board(&b)), v, "symmetry {}", s.0);
        }
    }
}

#[test]
fn known_moves_give_the_same_value() {
    // The solver's ordering search hands the evaluation the legal moves
    // it already has: the value must be the evaluation's own, on either
    // code path, in every stage.
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("engines/weights/patterns-train.bin");
    let patterns = Patterns::load(&shipped).unwrap();
    let eval = crate::eval::OthelloEval::Patterns(patterns.clone());
    let mut rng = SplitMix64::new(17);
    for _ in 0..2000 {
        let b = random_board(&mut rng);
        let own = legal_moves(b.player, b.opponent);
        let theirs = legal_moves(b.opponent, b.player);
        let want = patterns.evaluate_on(Baseline, &b);
        assert_eq!(patterns.evaluate(&b), want);
        assert_eq!(
            patterns.evaluate_moves_on(Baseline, b.player, b.opponent, own, theirs),
            want
        );
        assert_eq!(
            eval.evaluate_moves_on(Baseline, b.player, b.opponent, own, theirs),
            want
        );
        if let Some(avx2) = detect() {
            assert_eq!(
                patterns.evaluate_moves_on(avx2, b.player, b.opponent, own, theirs),
                want
            );
        }
    }
}

#[test]
fn carried_readings_evaluate_as_the_board_does() {
    // Random games: each position's readings carried from the start by
    // `after` and `passed` equal those read off the board, and evaluate
    // the same.
    let eval = Patterns::from_binary(
        &std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("engines/weights/patterns-train.bin"),
        )
        .unwrap(),
        Path::new("patterns-train.bin"),
    )
    .unwrap();
    let mut rng = SplitMix64::new(11);
    let mut positions = 0;
    for _ in 0..200 {
        let (mut p, mut o) = (Board::start().player, Board::start().opponent);
        let mut c = Configs::of(p, o);
        loop {
            assert_eq!(c, Configs::of(p, o));
            let (own, theirs) = (legal_moves(p, o), legal_moves(o, p));
            let want = eval.evaluate_moves_on(Baseline, p, o, own, theirs);
            assert_eq!(
                eval.evaluate_configs_on(Baseline, &c, p, o, own, theirs),
                want
            );
            if let Some(avx2) = crate::game::cpu::Avx2::detect() {
                assert_eq!(eval.evaluate_configs_on(avx2, &c, p, o, own, theirs), want);
            }
            positions += 1;
            if own == 0 {
                if theirs == 0 {
                    break;
                }
                (p, o, c) = (o, p, c.passed());
                continue;
            }
            let squares: Vec<usize> = crate::game::othello::bitboard::Bits(own).collect();
            let sq = squares[rng.below(squares.len() as u64) as usize];
            let f = crate::game::othello::ops::flips(sq, p, o);
            (p, o, c) = (o ^ f, p ^ f ^ (1u64 << sq), c.after(sq, f));
        }
    }
    assert!(positions > 10_000, "{positions}");
}
