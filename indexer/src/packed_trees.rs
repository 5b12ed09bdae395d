//! Boosted trees laid out for scoring: every node of every tree in one array, each node one 16-byte
//! record (threshold, feature, children, leaf value), each split's children side by side, so a step down
//! a tree is one read and no branch on the row's value; eight rows walk a tree side by side, so the
//! processor overlaps their reads instead of waiting on each in turn (1.25–1.75× faster than walking the
//! stored form row by row, over four runs: `stage/trees-*` in `benches/benches/search.rs`). Built once
//! from the stored form ([`BoostedTrees`]) when a decision is loaded; it gives exactly the same log-odds
//! (the same leaves, summed in the same order).

use crate::calibration::BoostedTrees;

/// One node: at a split, a row goes to the node `left` when its feature `feature` is below `value`, else
/// (also when it is NaN) to the node after it (`left + 1`: the two children are side by side). A leaf
/// holds its log-odds in `leaf` and leads to itself (`value` NaN, so every row goes "right", and `left`
/// one before it): a walk that is already at a leaf stays there, so rows can walk a tree side by side.
#[derive(Debug, Clone, Copy)]
#[repr(C)]
struct Node {
    value: f32,
    feature: u32,
    left: u32,
    leaf: f32,
}

/// Rows walked through a tree side by side (their steps are independent, so the processor overlaps
/// them instead of waiting on each load in turn).
const LANES: usize = 8;

/// [`BoostedTrees`] packed for scoring.
#[derive(Debug, Clone)]
pub struct PackedTrees {
    base: f64,
    /// Every tree's nodes, tree after tree, each tree breadth first; children indexes are into this array.
    nodes: Vec<Node>,
    /// Each tree's root in `nodes`.
    roots: Vec<u32>,
}

impl PackedTrees {
    /// Packs trees that passed [`BoostedTrees::check`] (children after their parents, inside the tree).
    pub fn new(trees: &BoostedTrees) -> PackedTrees {
        let mut nodes = Vec::with_capacity(trees.trees.iter().map(|t| t.value.len()).sum());
        let mut roots = Vec::with_capacity(trees.trees.len());
        let index = |n: usize| u32::try_from(n).expect("fewer than 4 billion nodes");
        let blank = Node { value: f32::NAN, feature: 0, left: 0, leaf: 0.0 };
        for tree in &trees.trees {
            // A root never at 0, so that a leaf's `left` (itself − 1) is never below zero.
            if nodes.is_empty() {
                nodes.push(blank);
            }
            roots.push(index(nodes.len()));
            // Breadth first from the root: each split's two children are placed side by side.
            let mut queue = std::collections::VecDeque::from([(0usize, index(nodes.len()))]);
            nodes.push(blank);
            while let Some((i, at)) = queue.pop_front() {
                nodes[at as usize] = if tree.left[i] == 0 {
                    Node { value: f32::NAN, feature: 0, left: at - 1, leaf: tree.value[i] }
                } else {
                    let left = index(nodes.len());
                    nodes.extend([blank, blank]);
                    queue.push_back((tree.left[i] as usize, left));
                    queue.push_back((tree.right[i] as usize, left + 1));
                    Node { value: tree.value[i], feature: u32::from(tree.feature[i]), left, leaf: 0.0 }
                };
            }
        }
        PackedTrees { base: trees.base, nodes, roots }
    }

    /// The log-odds of each row of `rows` (`width` features each, row after row), tree after tree so that
    /// one tree stays in cache over all the rows: equal to [`BoostedTrees::log_odds_of_rows`] (the same
    /// leaves, summed in the same order).
    #[expect(clippy::neg_cmp_op_on_partial_ord, reason = "\"not below\" is meant: a NaN feature goes right")]
    pub fn log_odds_of_rows(&self, rows: &[f32], width: usize) -> Vec<f64> {
        let width = width.max(1);
        let n = rows.len() / width;
        let mut z = vec![self.base; n];
        for &root in &self.roots {
            for start in (0..n).step_by(LANES) {
                // A last, short group repeats its last row in the spare lanes (and ignores them).
                let row_of = |lane: usize| (start + lane).min(n - 1) * width;
                let mut at = [root; LANES];
                // Step every lane until none moves (a lane at its leaf stays there).
                loop {
                    let mut moved = false;
                    for (lane, at) in at.iter_mut().enumerate() {
                        let node = &self.nodes[*at as usize];
                        // No branch on the row's value (which way a row goes is unpredictable).
                        let next = node.left + u32::from(!(rows[row_of(lane) + node.feature as usize] < node.value));
                        moved |= next != *at;
                        *at = next;
                    }
                    if !moved {
                        break;
                    }
                }
                for (lane, &at) in at.iter().enumerate().take(n - start) {
                    z[start + lane] += f64::from(self.nodes[at as usize].leaf);
                }
            }
        }
        z
    }

    /// Number of trees.
    pub fn len(&self) -> usize {
        self.roots.len()
    }

    /// Whether there is no tree.
    pub fn is_empty(&self) -> bool {
        self.roots.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calibration::Tree;

    /// A tree of depth two over features 0 and 1 (children after parents, as `check` requires).
    fn tree(a: f32, b: f32, leaves: [f32; 3]) -> Tree {
        Tree {
            feature: vec![0, 0, 1, 0, 0],
            value: vec![a, leaves[0], b, leaves[1], leaves[2]],
            left: vec![1, 0, 3, 0, 0],
            right: vec![2, 0, 4, 0, 0],
        }
    }

    #[test]
    fn packed_trees_give_the_stored_trees_log_odds_exactly() {
        let stored = BoostedTrees {
            base: -0.25,
            trees: vec![
                tree(0.5, 0.1, [-1.0, 0.3, 2.0]),
                tree(-0.2, 0.7, [0.125, -0.5, 0.75]),
                tree(0.0, 0.0, [1.0, 2.0, 3.0]),
            ],
        };
        stored.check(2).expect("well formed");
        let packed = PackedTrees::new(&stored);
        assert_eq!(packed.len(), 3);
        // A grid over both features, thresholds exactly, and NaN (which goes right).
        let values = [-1.0, -0.2, 0.0, 0.1, 0.3, 0.5, 0.7, 2.0, f32::NAN];
        let rows: Vec<f32> = values.iter().flat_map(|&a| values.iter().flat_map(move |&b| [a, b])).collect();
        let z = packed.log_odds_of_rows(&rows, 2);
        assert_eq!(z, stored.log_odds_of_rows(&rows, 2));
        // Spot checks by hand: row (0.0, 0.7) → tree 0: 0.0 < 0.5 → leaf -1.0; tree 1: 0.0 ≥ -0.2 → right,
        // 0.7 ≥ 0.7 → 0.75; tree 2: 0.0 ≥ 0.0 → right, 0.7 ≥ 0.0 → 3.0.
        let i = values.iter().position(|&v| v == 0.0).expect("0.0 is a value") * values.len() + 6;
        assert_eq!(z[i], -0.25 - 1.0 + 0.75 + 3.0);
        // NaN goes right at every split: tree 0 → 0.3 or 2.0 by feature 1.
        let nan_row = (values.len() - 1) * values.len() + values.len() - 1;
        assert_eq!(z[nan_row], -0.25 + 2.0 + 0.75 + 3.0);
    }
}
