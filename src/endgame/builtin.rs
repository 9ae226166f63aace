//! The evaluation the solver orders moves with when nothing else is given:
//! the shipped fitted pattern tables, built into the binary so that `arena
//! solve` and adjudication work from any folder.

use crate::eval::patterns::Patterns;
use crate::eval::OthelloEval;
use std::path::Path;

/// The shipped pattern weights in their binary form
/// (`engines/weights/patterns-fit.bin`, converted from `patterns-fit.ron`
/// by `arena eval convert`; a test checks the two are the same weights):
/// read in milliseconds, where the RON form takes a few hundred.
const ORDER_WEIGHTS: &[u8] = include_bytes!("../../engines/weights/patterns-fit.bin");

/// The solver's built-in move-ordering evaluation.
///
/// # Panics
/// Never: the built-in weights are checked by a test.
pub fn order_eval() -> OthelloEval {
    OthelloEval::Patterns(
        Patterns::from_binary(ORDER_WEIGHTS, Path::new("patterns-fit.bin"))
            .expect("built-in weights"),
    )
}

#[cfg(test)]
mod tests {
    use crate::eval::patterns::Patterns;
    use std::path::Path;

    #[test]
    fn the_built_in_weights_are_the_shipped_ron_weights() {
        let crate::eval::OthelloEval::Patterns(built_in) = super::order_eval() else {
            panic!("the built-in evaluation is a pattern evaluation");
        };
        let ron = Path::new(env!("CARGO_MANIFEST_DIR")).join("engines/weights/patterns-fit.ron");
        assert_eq!(built_in, Patterns::load(&ron).unwrap());
    }
}
