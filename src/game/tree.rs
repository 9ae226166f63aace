//! Explicit game trees for studying search, read from `.tree.ron` text: nested
//! lists, an integer is a leaf (its value from the first player's, MAX's,
//! point of view), a list is an inner node, the root is a MAX node. Example:
//! `[[7, 3], [15], [1, 12, 20, 22]]` has minimax value 15. Leaf values are
//! integers within `±`[`MAX_LEAF`] (2^28 - 1), the range every search
//! handles exactly; a leaf outside it is an error naming its line and column.
//!
//! The parser is hand-written (RON's list syntax plus `//` and `/* */`
//! comments and trailing commas) so that every error carries a line and
//! column. Reading the file is the caller's job: this module does no I/O.

use crate::game::movelist::MAX_MOVES;
use crate::game::{Game, MoveList};
use std::fmt;
use std::sync::Arc;

#[derive(Clone, Copy, Debug)]
enum Node {
    Leaf(i32),
    Inner { first: u32, count: u32 },
}

/// Largest leaf value, in magnitude: 2^28 - 1. Every search keeps its
/// scores inside `±search::INFINITY` (2^28) and negates them at each ply, so
/// a leaf beyond that range would be clipped or overflow; the parser refuses
/// it instead (`i32::MIN` has no negation at all).
pub const MAX_LEAF: i32 = (1 << 28) - 1;

/// A whole tree, nodes stored breadth-first-by-parent (children contiguous).
#[derive(Debug)]
pub struct TreeData {
    nodes: Vec<Node>,
}

/// A node of a tree, as a game position: the side to move is MAX at even
/// depth and MIN at odd depth.
#[derive(Clone, Debug)]
pub struct TreePos {
    tree: Arc<TreeData>,
    node: u32,
    depth: u32,
}

/// A move in a tree: the index of the child, 0-based, left to right.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Branch(pub u8);

impl fmt::Display for Branch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Why a tree text could not be read: what was wrong, at which line and
/// column (both 1-based).
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct TreeError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// Parsed form before flattening.
enum Raw {
    Leaf(i32),
    Inner(Vec<Raw>),
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Parser<'a> {
    fn error_at(&self, pos: usize, message: String) -> TreeError {
        let before = &self.text[..pos];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        TreeError {
            line,
            column,
            message,
        }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn skip_space(&mut self) -> Result<(), TreeError> {
        loop {
            let rest = &self.text[self.pos..];
            if let Some(c) = rest.chars().next().filter(|c| c.is_whitespace()) {
                self.pos += c.len_utf8();
            } else if rest.starts_with("//") {
                self.pos += rest.find('\n').unwrap_or(rest.len());
            } else if let Some(body) = rest.strip_prefix("/*") {
                match body.find("*/") {
                    Some(k) => self.pos += k + 4,
                    None => return Err(self.error_at(self.pos, "unterminated /* comment".into())),
                }
            } else {
                return Ok(());
            }
        }
    }

    fn value(&mut self, depth: usize) -> Result<Raw, TreeError> {
        self.skip_space()?;
        let start = self.pos;
        match self.peek() {
            None => Err(self.error_at(
                start,
                "expected an integer leaf or '[', found the end of the file".into(),
            )),
            Some('[') => {
                if depth > 200 {
                    return Err(
                        self.error_at(start, "tree is nested more than 200 levels deep".into())
                    );
                }
                self.pos += 1;
                let mut children = Vec::new();
                loop {
                    self.skip_space()?;
                    if self.peek() == Some(']') {
                        self.pos += 1;
                        break;
                    }
                    children.push(self.value(depth + 1)?);
                    self.skip_space()?;
                    match self.peek() {
                        Some(',') => self.pos += 1,
                        Some(']') => {}
                        Some(c) => {
                            return Err(self
                                .error_at(self.pos, format!("expected ',' or ']', found {c:?}")))
                        }
                        None => {
                            return Err(self.error_at(start, "this '[' is never closed".into()));
                        }
                    }
                }
                if children.is_empty() {
                    return Err(self.error_at(
                        start,
                        "empty inner node: a list needs at least one child".into(),
                    ));
                }
                if children.len() > MAX_MOVES {
                    return Err(self.error_at(
                        start,
                        format!(
                            "inner node has {} children; at most {MAX_MOVES} are supported",
                            children.len()
                        ),
                    ));
                }
                Ok(Raw::Inner(children))
            }
            Some(_) => {
                let rest = &self.text[start..];
                let len = rest
                    .find(|c: char| c.is_whitespace() || c == ',' || c == ']' || c == '[')
                    .unwrap_or(rest.len());
                let token = &rest[..len.max(1)];
                self.pos += token.len();
                self.leaf(token, start)
            }
        }
    }

    /// The leaf written as `token` at byte `start`: an integer within
    /// `±MAX_LEAF`.
    fn leaf(&self, token: &str, start: usize) -> Result<Raw, TreeError> {
        let digits = token.strip_prefix(['-', '+']).unwrap_or(token);
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            return match token.parse::<i32>() {
                Ok(v) if (-MAX_LEAF..=MAX_LEAF).contains(&v) => Ok(Raw::Leaf(v)),
                Ok(_) | Err(_) => Err(self.error_at(
                    start,
                    format!(
                        "leaf value {token} is outside the supported range -{MAX_LEAF} to {MAX_LEAF}"
                    ),
                )),
            };
        }
        let what = if token.parse::<f64>().is_ok() {
            "leaf values must be integers"
        } else {
            "expected an integer leaf or '['"
        };
        Err(self.error_at(start, format!("{what}, found {token:?}")))
    }
}

impl TreeData {
    /// Parses tree text.
    ///
    /// # Errors
    /// A [`TreeError`] with the line and column of the first problem: the
    /// root is not a list, an inner node is empty, a leaf is not an integer,
    /// a leaf is beyond `±`[`MAX_LEAF`], a bracket is unbalanced, or text
    /// follows the root.
    pub fn parse(text: &str) -> Result<TreePos, TreeError> {
        let mut p = Parser { text, pos: 0 };
        p.skip_space()?;
        if p.peek() != Some('[') {
            let at = p.pos;
            return Err(p.error_at(at, "the root of a tree must be a list '[...]'".into()));
        }
        let raw = p.value(0)?;
        p.skip_space()?;
        if p.pos < text.len() {
            let at = p.pos;
            return Err(p.error_at(at, "unexpected text after the root list".into()));
        }
        let mut nodes = vec![Node::Leaf(0)];
        // Flatten breadth-first so that children are contiguous.
        let mut queue = std::collections::VecDeque::from([(raw, 0usize)]);
        while let Some((raw, index)) = queue.pop_front() {
            nodes[index] = match raw {
                Raw::Leaf(v) => Node::Leaf(v),
                Raw::Inner(children) => {
                    let first = nodes.len();
                    let count = children.len();
                    for (k, child) in children.into_iter().enumerate() {
                        nodes.push(Node::Leaf(0));
                        queue.push_back((child, first + k));
                    }
                    Node::Inner {
                        first: first as u32,
                        count: count as u32,
                    }
                }
            };
        }
        Ok(TreePos {
            tree: Arc::new(TreeData { nodes }),
            node: 0,
            depth: 0,
        })
    }

    /// Number of nodes, root and leaves included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True for a tree with no node (never produced by the parser).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

impl TreePos {
    /// The tree this node belongs to.
    pub fn tree(&self) -> &TreeData {
        &self.tree
    }

    /// Depth of this node (root 0).
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The leaf value from MAX's point of view, if this is a leaf.
    pub fn leaf_value(&self) -> Option<i32> {
        match self.tree.nodes[self.node as usize] {
            Node::Leaf(v) => Some(v),
            Node::Inner { .. } => None,
        }
    }
}

impl Game for TreePos {
    type Move = Branch;
    const NAME: &'static str = "tree";

    fn generate_moves(&self, moves: &mut MoveList<Branch>) {
        if let Node::Inner { count, .. } = self.tree.nodes[self.node as usize] {
            for k in 0..count {
                moves.push(Branch(k as u8));
            }
        }
    }

    fn play(&self, mv: Branch) -> TreePos {
        match self.tree.nodes[self.node as usize] {
            Node::Inner { first, count } => {
                assert!(u32::from(mv.0) < count, "branch {} out of range", mv.0);
                TreePos {
                    tree: Arc::clone(&self.tree),
                    node: first + u32::from(mv.0),
                    depth: self.depth + 1,
                }
            }
            Node::Leaf(_) => panic!("no move from a leaf"),
        }
    }

    fn is_over(&self) -> bool {
        matches!(self.tree.nodes[self.node as usize], Node::Leaf(_))
    }

    fn final_score(&self) -> i32 {
        let v = self.leaf_value().unwrap_or(0);
        if self.depth.is_multiple_of(2) {
            v
        } else {
            -v
        }
    }

    fn hash(&self) -> u64 {
        // Every node is its own position: mix its index (SplitMix64 finaliser).
        crate::rng::mix(u64::from(self.node).wrapping_add(crate::rng::GOLDEN))
    }

    fn first_player_to_move(&self) -> bool {
        self.depth.is_multiple_of(2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_textbook_tree() {
        let root = TreeData::parse("[[7, 3], [15], [1, 12, 20, 22]]").unwrap();
        assert_eq!(root.tree().len(), 11);
        assert_eq!(root.move_count(), 3);
        let third = root.play(Branch(2));
        assert_eq!(third.move_count(), 4);
        let leaf = third.play(Branch(3));
        assert!(leaf.is_over());
        assert_eq!(leaf.leaf_value(), Some(22));
        assert_eq!(leaf.final_score(), 22); // depth 2: MAX to move
        assert_eq!(root.play(Branch(1)).play(Branch(0)).final_score(), 15);
    }

    #[test]
    fn errors_have_line_and_column() {
        let e = TreeData::parse("[[1, 2],\n  [],\n  [3]]").unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        assert!(e.message.contains("empty inner node"), "{e}");
        let e = TreeData::parse("[1, 2.5]").unwrap_err();
        assert_eq!((e.line, e.column), (1, 5));
        assert!(e.message.contains("integers"), "{e}");
        let e = TreeData::parse("7").unwrap_err();
        assert!(e.message.contains("root"), "{e}");
        let e = TreeData::parse("[1, [2, 3]").unwrap_err();
        assert!(e.message.contains("never closed"), "{e}");
        let e = TreeData::parse("[1, x]").unwrap_err();
        assert_eq!((e.line, e.column), (1, 5));
        let e = TreeData::parse("[1] [2]").unwrap_err();
        assert!(e.message.contains("after the root"), "{e}");
        // Leaves beyond the searches' range are refused where they stand.
        let e = TreeData::parse("[[1, 5],\n [-2147483648, 3]]").unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        assert!(e.message.contains("-2147483648 is outside"), "{e}");
        let e = TreeData::parse("[268435456]").unwrap_err();
        assert!(e.message.contains("268435456 is outside"), "{e}");
        let e = TreeData::parse("[1, 99999999999999999999999]").unwrap_err();
        assert!(e.message.contains("outside the supported range"), "{e}");
        let max = TreeData::parse("[-268435455, +268435455]").unwrap();
        assert_eq!(max.play(Branch(1)).leaf_value(), Some(MAX_LEAF));
        // Comments and trailing commas are fine.
        assert!(TreeData::parse("// a tree\n[ /* left */ 1, 2, ]").is_ok());
    }
}
