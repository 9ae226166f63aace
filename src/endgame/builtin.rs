//! The evaluation the solver orders moves with when nothing else is given:
//! the first generation of the trained pattern tables (the strong preset
//! now plays the second, and orders its own solves with it), built into
//! the binary so that `arena solve` and adjudication work
//! from any folder; and the cut model of `arena solve`'s selective passes,
//! fitted for that evaluation.

use super::EndCut;
use crate::eval::patterns::Patterns;
use crate::eval::OthelloEval;
use crate::search::probcut::ProbCut;
use std::path::Path;

/// The first-generation pattern weights (`engines/weights/patterns-train.bin`, made
/// by `arena train engines/training/patterns-train.ron`): better ordering
/// than the older `patterns-fit` tables (FFO #40-#49 with the search of
/// 2026-11-24: 931 M nodes against 1,225 M), read in milliseconds.
const ORDER_WEIGHTS: &[u8] = include_bytes!("../../engines/weights/patterns-train.bin");

/// The cut model of the selective passes for [`order_eval`]
/// (`engines/probcut/endgame.ron`, made by `arena probcut fit-endgame
/// --out engines/probcut/endgame.ron`).
const ENDCUT: &str = include_str!("../../engines/probcut/endgame.ron");

/// The built-in cut model, for solves of at least `from` empties.
///
/// # Panics
/// Never: the built-in model is checked by a test.
pub fn endcut(from: u32) -> EndCut {
    let pc = ProbCut::parse(ENDCUT, Path::new("endgame.ron")).expect("built-in cut model");
    EndCut::new(&pc, from).expect("built-in cut model has exact-score pairs")
}

/// The solver's built-in move-ordering evaluation.
///
/// # Panics
/// Never: the built-in weights are checked by a test.
pub fn order_eval() -> OthelloEval {
    OthelloEval::Patterns(
        Patterns::from_binary(ORDER_WEIGHTS, Path::new("patterns-train.bin"))
            .expect("built-in weights"),
    )
}

#[cfg(test)]
mod tests {
    use crate::eval::patterns::Patterns;
    use std::path::Path;

    /// The FFO figures and the built-in cut model were measured and fitted
    /// with the first generation; the strong preset plays the second.
    #[test]
    fn the_built_in_weights_are_the_first_generation() {
        let crate::eval::OthelloEval::Patterns(built_in) = super::order_eval() else {
            panic!("the built-in evaluation is a pattern evaluation");
        };
        let shipped =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("engines/weights/patterns-train.bin");
        assert_eq!(built_in, Patterns::load(&shipped).unwrap());
        let strong = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("engines/strong.ron"),
        )
        .unwrap();
        assert!(strong.contains(r#"eval: Patterns(weights: "weights/patterns-train2.bin")"#));
    }

    #[test]
    fn the_built_in_cut_model_reads() {
        assert_eq!(super::endcut(20).lowest(), 12);
    }
}
