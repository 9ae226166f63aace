//! Explicit trees at the edges of the score range: a leaf the searches
//! cannot hold is refused naming its place, and every algorithm returns
//! the true minimax value of every tree it accepts, extreme leaves
//! included.

use crate::util::{arena, stderr, stdout};
use arena::game::tree::{TreeData, MAX_LEAF};
use arena::rng::SplitMix64;
use arena::search::tree::search_tree;
use arena::search::Variant;
use proptest::prelude::*;

const ALGORITHMS: [&str; 6] = [
    "minimax",
    "negamax",
    "alphabeta",
    "alphabeta-failsoft",
    "pvs",
    "mtdf",
];

/// A tree as nested values, for building its text and its reference value.
enum Node {
    Leaf(i32),
    Inner(Vec<Node>),
}

impl Node {
    fn text(&self) -> String {
        match self {
            Node::Leaf(v) => v.to_string(),
            Node::Inner(c) => format!(
                "[{}]",
                c.iter().map(Node::text).collect::<Vec<_>>().join(", ")
            ),
        }
    }

    /// Plain minimax from MAX's point of view, the definition itself.
    fn minimax(&self, max: bool) -> i32 {
        match self {
            Node::Leaf(v) => *v,
            Node::Inner(c) => {
                let values = c.iter().map(|n| n.minimax(!max));
                if max {
                    values.max().unwrap()
                } else {
                    values.min().unwrap()
                }
            }
        }
    }
}

/// A leaf drawn mostly from the edges of the accepted range.
fn leaf(rng: &mut SplitMix64) -> i32 {
    match rng.below(8) {
        0 => MAX_LEAF,
        1 => -MAX_LEAF,
        2 => MAX_LEAF - 1,
        3 => -MAX_LEAF + 1,
        4 => 0,
        5 => rng.below(11) as i32 - 5,
        _ => (rng.below(2 * MAX_LEAF as u64 + 1) as i64 - i64::from(MAX_LEAF)) as i32,
    }
}

/// A random tree: up to `depth` more levels, 1 to 4 children per node,
/// leaves at any level.
fn random_tree(rng: &mut SplitMix64, depth: u32) -> Node {
    if depth == 0 || rng.below(5) == 0 {
        return Node::Leaf(leaf(rng));
    }
    let n = 1 + rng.below(4) as usize;
    Node::Inner((0..n).map(|_| random_tree(rng, depth - 1)).collect())
}

fn temp_tree(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-trees-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_leaf_beyond_the_score_range_is_refused_naming_its_place() {
    for (name, text, column) in [
        ("min.tree.ron", "[[-2147483648, 5], [3]]", 3),
        ("max.tree.ron", "[[3], [5, 2147483647]]", 11),
        ("over.tree.ron", "[[3], [268435456]]", 8),
    ] {
        let path = temp_tree(name, text);
        for algorithm in ALGORITHMS {
            let out = arena(&["tree", path.to_str().unwrap(), "--algorithm", algorithm]);
            assert_eq!(out.status.code(), Some(1), "{text} {algorithm}");
            assert_eq!(stdout(&out), "", "no value is printed for {text}");
            let err = stderr(&out);
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(
                err.contains(name)
                    && err.contains(&format!("line 1, column {column}"))
                    && err.contains("outside the supported range -268435455 to 268435455"),
                "{err}"
            );
        }
    }
}

#[test]
fn the_largest_accepted_leaves_give_the_true_value_from_the_binary() {
    let text = format!("[[{}, 5], [3], [{MAX_LEAF}, {}]]", -MAX_LEAF, -MAX_LEAF);
    let path = temp_tree("edges.tree.ron", &text);
    for algorithm in ALGORITHMS {
        let out = arena(&[
            "tree",
            path.to_str().unwrap(),
            "--algorithm",
            algorithm,
            "--json",
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(json["value"], 3, "{algorithm}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(debug_assertions) { 64 } else { 512 }))]

    #[test]
    fn every_algorithm_returns_the_minimax_value_of_trees_with_extreme_leaves(seed in any::<u64>(), depth in 1u32..=7) {
        let mut rng = SplitMix64::new(seed);
        let tree = match random_tree(&mut rng, depth) {
            leaf @ Node::Leaf(_) => Node::Inner(vec![leaf]),
            inner @ Node::Inner(_) => inner,
        };
        let text = tree.text();
        let root = TreeData::parse(&text).unwrap();
        let expected = tree.minimax(true);
        for variant in Variant::ALL {
            let got = search_tree(&root, variant).value;
            prop_assert_eq!(got, expected, "{} on {}", variant.name(), text);
        }
    }
}
