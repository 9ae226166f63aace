//! The evaluation the solver orders moves with when nothing else is given:
//! the shipped fitted pattern tables, built into the binary so that `arena
//! solve` and adjudication work from any folder.

use crate::eval::patterns::Patterns;
use crate::eval::OthelloEval;
use std::path::Path;

/// The shipped pattern weights (`engines/weights/patterns-fit.ron`).
const ORDER_WEIGHTS: &str = include_str!("../../engines/weights/patterns-fit.ron");

/// The solver's built-in move-ordering evaluation.
///
/// # Panics
/// Never: the built-in weights are checked by a test.
pub fn order_eval() -> OthelloEval {
    OthelloEval::Patterns(
        Patterns::parse(ORDER_WEIGHTS, Path::new("patterns-fit.ron")).expect("built-in weights"),
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_built_in_weights_parse() {
        let _ = super::order_eval();
    }
}
