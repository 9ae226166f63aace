//! Tests of the pattern evaluation: the fast index reading against a
//! square-by-square one, the written-out sum, the set's instances, and the
//! symmetry of mirror-tied tables.

use super::index::table_sum;
use super::set::{FIRST_INSTANCES, OFFSETS};
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
        let (mut first, mut all) = (0i32, 0i32);
        let mut visits = 0;
        for_each_index(b.player, b.opponent, |k, _, index| {
            let w = i32::from(t[OFFSETS[k] + index]);
            all += w;
            // The first patterns' instances come first.
            if visits < FIRST_INSTANCES {
                assert!(k < FIRST_PATTERNS);
                first += w;
            } else {
                assert!(k >= FIRST_PATTERNS);
            }
            visits += 1;
        });
        assert_eq!(table_sum(&t, b.player, b.opponent, PATTERNS), all);
        assert_eq!(
            table_sum(
                &t[..stage_size(FIRST_PATTERNS)],
                b.player,
                b.opponent,
                FIRST_PATTERNS
            ),
            first
        );
    }
}

/// A random evaluation of every pattern, `row_4` too, in two stages.
fn random_full_set(seed: u64) -> Patterns {
    let mut rng = SplitMix64::new(seed);
    let mut stage = || StageWeights {
        bias: 12.0,
        mobility: 31.0,
        parity: -7.0,
        tables: (0..STAGE_SIZE)
            .map(|_| (rng.below(401) as i16) - 200)
            .collect(),
    };
    let stages = vec![stage(), stage()];
    Patterns::new(vec![30, 0], stages)
}

#[test]
fn the_fourth_lines_weigh_only_in_evaluations_that_have_them() {
    let full = random_full_set(21);
    assert_eq!(full.patterns().len(), PATTERNS);
    // The same weights less `row_4`: the first ten patterns' tables.
    let bounds: Vec<u32> = full.stages().map(|s| s.0).collect();
    let cut = |zero: bool| -> Patterns {
        let stages = full
            .stages()
            .map(|(_, w)| {
                let mut tables = w.tables.clone();
                if zero {
                    tables[stage_size(FIRST_PATTERNS)..].fill(0);
                } else {
                    tables.truncate(stage_size(FIRST_PATTERNS));
                }
                StageWeights {
                    tables,
                    ..w.clone()
                }
            })
            .collect();
        Patterns::new(bounds.clone(), stages)
    };
    let (without, zeroed) = (cut(false), cut(true));
    assert_eq!(without.patterns().len(), FIRST_PATTERNS);
    let mut rng = SplitMix64::new(4);
    let mut differ = 0;
    for _ in 0..500 {
        let b = random_board(&mut rng);
        let mut row_4 = 0;
        for_each_index(b.player, b.opponent, |k, _, index| {
            if k == FIRST_PATTERNS {
                row_4 += i32::from(full.stage(&b).tables[OFFSETS[k] + index]);
            }
        });
        assert_eq!(without.evaluate(&b), zeroed.evaluate(&b));
        assert_eq!(full.evaluate(&b), without.evaluate(&b) + row_4);
        differ += usize::from(row_4 != 0);
        // `arena eval` explains the patterns an evaluation has.
        let rows = |p: &Patterns| {
            p.explain(&b)
                .iter()
                .filter(|t| t.name.starts_with("row_4"))
                .count()
        };
        assert_eq!((rows(&full), rows(&without)), (4, 0));
    }
    assert!(differ > 400, "{differ}");
}

#[test]
fn a_file_lists_row_4_in_every_stage_or_in_none() {
    let full = random_full_set(5);
    let bounds: Vec<u32> = full.stages().map(|s| s.0).collect();
    let stages: Vec<StageWeights> = full.stages().map(|s| s.1.clone()).collect();
    let text = weights_file(&bounds, &stages, &[], &[]);
    assert_eq!(text.matches("\"row_4\": [").count(), 2);
    let path = Path::new("w.ron");
    assert_eq!(Patterns::parse(&text, path).unwrap(), full);
    let back = Patterns::from_binary(&full.to_binary(), Path::new("w.bin")).unwrap();
    assert_eq!(back, full);
    // Left out of the second stage only.
    let second = text.rfind("\"row_4\": [").unwrap();
    let end = second + text[second..].find("],\n").unwrap() + 3;
    let broken = format!("{}{}", &text[..second], &text[end..]);
    let e = Patterns::parse(&broken, path).unwrap_err().to_string();
    assert!(
        e.contains("stage 2: pattern \"row_4\" is missing (another stage lists it"),
        "{e}"
    );
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
    // the same, for the first ten patterns (a shipped file) and with
    // `row_4`.
    carried_readings(&shipped(), 11);
    carried_readings(&random_full_set(8), 12);
}

/// A shipped evaluation (the first ten patterns).
pub(crate) fn shipped() -> Patterns {
    Patterns::from_binary(
        &std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("engines/weights/patterns-train.bin"),
        )
        .unwrap(),
        Path::new("patterns-train.bin"),
    )
    .unwrap()
}

fn carried_readings(eval: &Patterns, seed: u64) {
    let mut rng = SplitMix64::new(seed);
    let mut positions = 0;
    for _ in 0..200 {
        let (mut p, mut o) = (Board::start().player, Board::start().opponent);
        // The readings the evaluation needs, carried; all of them read off
        // the board for an evaluation of every pattern.
        let mut c = eval.configs_of(p, o);
        let every = eval.patterns().len() == PATTERNS;
        loop {
            // Read afresh or carried, the same value.
            let fresh = eval.configs_of(p, o);
            if every {
                assert_eq!(c, fresh);
            }
            let (own, theirs) = (legal_moves(p, o), legal_moves(o, p));
            let want = eval.evaluate_moves_on(Baseline, p, o, own, theirs);
            assert_eq!(
                eval.evaluate_configs_on(Baseline, &c, p, o, own, theirs),
                want
            );
            assert_eq!(
                eval.evaluate_configs_on(Baseline, &fresh, p, o, own, theirs),
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

#[test]
fn the_horizon_value_is_the_final_score_or_the_evaluation() {
    // Random games, their passes and ends included: a search's horizon
    // value, which shares one pair of move generations between the test
    // for the game's end and the evaluation, is what the two give apart,
    // with and without `row_4`, on every code path.
    use crate::eval::{OthelloEval, UNITS_PER_DISC};
    use crate::game::{Game, MoveList};
    use crate::search::Evaluator;
    for (eval, seed) in [(shipped(), 21), (random_full_set(4), 22)] {
        let eval = OthelloEval::Patterns(eval);
        let mut rng = SplitMix64::new(seed);
        let mut moves = MoveList::new();
        let (mut over, mut passes) = (0, 0);
        for _ in 0..100 {
            let mut b = Board::start();
            loop {
                let want = if b.is_over() {
                    b.final_score() * UNITS_PER_DISC
                } else {
                    eval.evaluate_on(Baseline, &b)
                };
                assert_eq!(eval.horizon_on(Baseline, &b), want);
                if let Some(avx2) = crate::game::cpu::Avx2::detect() {
                    assert_eq!(eval.horizon_on(avx2, &b), want);
                }
                if b.is_over() {
                    over += 1;
                    break;
                }
                passes += usize::from(b.moves() == 0);
                moves.clear();
                b.generate_moves(&mut moves);
                b = b.play(moves.get(rng.below(moves.len() as u64) as usize));
            }
        }
        assert_eq!(over, 100);
        assert!(passes > 0, "no pass in 100 random games");
    }
}
