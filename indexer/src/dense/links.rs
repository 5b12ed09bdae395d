//! The HNSW graph hnsw_rs built, laid out for searching: each layer's neighbour lists as `u32`
//! positions side by side (one array per layer, and where each point's list starts), and the search
//! that walks it, scoring points with the caller's exact cosine.
//!
//! hnsw_rs holds a graph as one reference-counted record per edge (an `Arc` to the neighbour and its
//! distance, behind a lock per point): at 100K tools that is 147 MB of links, besides the int8 codes it
//! searches, for what fits in ~13 MB of positions here. hnsw_rs still builds, writes and reads the graph
//! (its files are the snapshot's); only its in-memory form is replaced once loaded. The walk is HNSW's
//! (Malkov & Yashunin): greedy descent through the upper layers, then a beam of `ef` points on layer 0.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use hnsw_rs::prelude::{Distance, Hnsw};

/// One layer's neighbour lists.
#[derive(Debug, Default)]
struct Layer {
    /// The layer's points, ascending; empty for layer 0, which holds every point (position = id).
    members: Vec<u32>,
    /// Where the `i`th member's list starts in `links` (one more entry than members).
    starts: Vec<u32>,
    links: Vec<u32>,
}

impl Layer {
    /// Builds a layer from `(id, neighbours)` lists; `every` when it is layer 0 with ids `0..n`.
    fn from_lists(mut lists: Vec<(u32, Vec<u32>)>, every: bool) -> Layer {
        lists.sort_unstable_by_key(|(id, _)| *id);
        let mut layer = Layer { starts: Vec::with_capacity(lists.len() + 1), ..Layer::default() };
        layer.links.reserve(lists.iter().map(|(_, l)| l.len()).sum());
        for (id, list) in lists {
            if !every {
                layer.members.push(id);
            }
            layer.starts.push(layer.links.len() as u32);
            layer.links.extend(list);
        }
        layer.starts.push(layer.links.len() as u32);
        layer
    }

    /// The neighbours of point `id` on this layer (none when it is not on it).
    fn neighbours(&self, id: u32) -> &[u32] {
        let at = if self.members.is_empty() {
            id as usize
        } else {
            match self.members.binary_search(&id) {
                Ok(i) => i,
                Err(_) => return &[],
            }
        };
        match (self.starts.get(at), self.starts.get(at + 1)) {
            (Some(&from), Some(&to)) => &self.links[from as usize..to as usize],
            _ => &[],
        }
    }

    fn bytes(&self) -> usize {
        4 * (self.members.len() + self.starts.len() + self.links.len())
    }
}

/// A point and its score; ordered by score, then by the lower id first (so equal scores order the same
/// way in every run).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Scored {
    score: f32,
    id: u32,
}

impl Eq for Scored {}

impl Ord for Scored {
    fn cmp(&self, other: &Self) -> Ordering {
        self.score.total_cmp(&other.score).then(other.id.cmp(&self.id))
    }
}

impl PartialOrd for Scored {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// An HNSW graph's links, layer 0 first, and the point every search starts from.
#[derive(Debug)]
pub(super) struct Links {
    layers: Vec<Layer>,
    entry: u32,
    points: usize,
}

impl Links {
    /// The links of `hnsw`, whose data ids are the positions `0..n` of its points.
    pub(super) fn from_hnsw<T, D>(hnsw: &Hnsw<'_, T, D>) -> Links
    where
        T: Clone + Send + Sync + std::fmt::Debug,
        D: Distance<T> + Send + Sync,
    {
        let points = hnsw.get_nb_point();
        let indexation = hnsw.get_point_indexation();
        let top = usize::from(indexation.get_max_level_observed());
        let mut lists: Vec<Vec<(u32, Vec<u32>)>> = (0..=top).map(|_| Vec::new()).collect();
        lists[0].reserve(points);
        for point in indexation {
            let id = point.get_origin_id() as u32;
            let level = usize::from(point.get_point_id().0).min(top);
            for (layer, neighbours) in point.get_neighborhood_id().into_iter().take(level + 1).enumerate() {
                lists[layer].push((id, neighbours.iter().map(|n| n.d_id as u32).collect()));
            }
        }
        // Every point is on layer 0, and positions are ids: a point hnsw_rs did not list gets no links.
        lists[0].retain(|&(id, _)| (id as usize) < points);
        let mut listed = vec![false; points];
        for &(id, _) in &lists[0] {
            listed[id as usize] = true;
        }
        lists[0].extend((0..points as u32).filter(|&id| !listed[id as usize]).map(|id| (id, Vec::new())));
        // The search starts where hnsw_rs's does: the first point that reached the top layer.
        let entry = indexation.get_layer_iterator(top).next().map_or(0, |p| p.get_origin_id() as u32);
        let layers = lists.into_iter().enumerate().map(|(l, lists)| Layer::from_lists(lists, l == 0)).collect();
        Links { layers, entry, points }
    }

    /// Number of points.
    pub(super) fn len(&self) -> usize {
        self.points
    }

    /// Bytes the links take.
    pub(super) fn bytes(&self) -> usize {
        self.layers.iter().map(Layer::bytes).sum()
    }

    /// The `k` points of highest `score` the walk finds with a beam of `ef` (≥ k) on layer 0, best
    /// first (equal scores by id); `score` is called once per point visited.
    pub(super) fn search(&self, k: usize, ef: usize, score: impl Fn(u32) -> f32) -> Vec<(u32, f32)> {
        if k == 0 || self.points == 0 {
            return Vec::new();
        }
        let ef = ef.max(k);
        // Greedy descent: on each upper layer, move to a better neighbour while there is one.
        let entry = if (self.entry as usize) < self.points { self.entry } else { 0 };
        let mut best = Scored { score: score(entry), id: entry };
        for layer in self.layers.iter().skip(1).rev() {
            loop {
                let mut moved = false;
                // (A position past the points, from a damaged file, is passed over, never scored.)
                for &n in layer.neighbours(best.id).iter().filter(|&&n| (n as usize) < self.points) {
                    let s = Scored { score: score(n), id: n };
                    if s > best {
                        best = s;
                        moved = true;
                    }
                }
                if !moved {
                    break;
                }
            }
        }
        // Layer 0: a beam of the `ef` best seen, widened from its best unexpanded point until that
        // point is worse than the beam's worst.
        let mut visited = vec![0u64; self.points.div_ceil(64)];
        let points = self.points;
        let mut visit = |id: u32| {
            let (word, bit) = (id as usize / 64, 1u64 << (id % 64));
            let new = (id as usize) < points && visited[word] & bit == 0;
            if new {
                visited[word] |= bit;
            }
            new
        };
        visit(best.id);
        let mut frontier = BinaryHeap::from([best]);
        let mut beam = BinaryHeap::from([Reverse(best)]);
        while let Some(point) = frontier.pop() {
            if beam.len() >= ef && beam.peek().is_some_and(|Reverse(worst)| point < *worst) {
                break;
            }
            for &n in self.layers[0].neighbours(point.id) {
                if !visit(n) {
                    continue;
                }
                let s = Scored { score: score(n), id: n };
                if beam.len() < ef || beam.peek().is_some_and(|Reverse(worst)| s > *worst) {
                    frontier.push(s);
                    beam.push(Reverse(s));
                    if beam.len() > ef {
                        beam.pop();
                    }
                }
            }
        }
        let mut found: Vec<Scored> = beam.into_iter().map(|Reverse(s)| s).collect();
        found.sort_unstable_by(|a, b| b.cmp(a));
        found.truncate(k);
        found.into_iter().map(|s| (s.id, s.score)).collect()
    }
}

#[cfg(test)]
impl Links {
    /// A one-layer graph from its neighbour lists (tests).
    pub(super) fn of_lists(layer0: Vec<Vec<u32>>, entry: u32) -> Links {
        let points = layer0.len();
        let zero = Layer::from_lists(layer0.into_iter().enumerate().map(|(i, l)| (i as u32, l)).collect(), true);
        Links { layers: vec![zero], entry, points }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn links(layer0: Vec<Vec<u32>>, upper: Vec<(u32, Vec<u32>)>, entry: u32) -> Links {
        let points = layer0.len();
        let zero = Layer::from_lists(layer0.into_iter().enumerate().map(|(i, l)| (i as u32, l)).collect(), true);
        let mut layers = vec![zero];
        if !upper.is_empty() {
            layers.push(Layer::from_lists(upper, false));
        }
        Links { layers, entry, points }
    }

    #[test]
    fn a_connected_graph_gives_the_best_points_in_order() {
        // Five points in a ring, the entry on the upper layer with one neighbour.
        let ring = (0..5u32).map(|i| vec![(i + 1) % 5, (i + 4) % 5]).collect();
        let g = links(ring, vec![(3, vec![0]), (0, vec![3])], 3);
        let score = |id: u32| [0.1, 0.9, 0.5, 0.2, 0.9][id as usize];
        assert_eq!(g.search(3, 5, score), vec![(1, 0.9), (4, 0.9), (2, 0.5)], "equal scores by id");
        assert_eq!(g.search(10, 10, score).len(), 5);
        assert!(g.search(0, 5, score).is_empty());
        assert_eq!(g.len(), 5);
    }

    #[test]
    fn positions_past_the_points_are_never_scored() {
        // A damaged file: links to 7 and 99 among three points, the entry itself out of range.
        let g = links(vec![vec![1, 99], vec![7, 2], vec![0]], vec![(0, vec![64, 1])], 500);
        let score = |id: u32| {
            assert!(id < 3, "scored {id}");
            id as f32
        };
        assert_eq!(g.search(3, 3, score), vec![(2, 2.0), (1, 1.0), (0, 0.0)]);
    }
}
