//! Stage 3: the order of an answer. The best tool for the whole request first, then the best for each
//! intent of a compound request, then the rest by confidence; then no server may hold more than `cap`
//! of the first `limit` places, except a hinted server, the tools chosen per intent, and — for a
//! single-intent request — any tool the decision keeps (a cap must never cut a right answer). Pure.

use std::collections::{HashMap, HashSet};

use super::Candidate;

/// What arranging needs to know.
#[derive(Clone, Copy)]
pub(crate) struct Arranging<'a> {
    /// Most tools of one server among the first `limit` (0: no cap).
    pub cap: usize,
    /// Places in the answer.
    pub limit: usize,
    /// Servers the request hinted at (exempt from the cap).
    pub hinted: &'a HashSet<usize>,
    /// Order by fused score instead of the decision's probability (to measure what the learned order adds).
    pub by_fused: bool,
}

/// Candidate positions (into `candidates`) in answer order. Each slot is the set of passes that gets a
/// place of its own: the whole request (with its spelled-out and respelled variants), and each intent.
pub(crate) fn arrange(candidates: &[Candidate], slots: &[Vec<usize>], a: &Arranging<'_>) -> Vec<usize> {
    let by = |passes: Option<&Vec<usize>>| -> Vec<usize> {
        let key = |c: &Candidate| {
            let best = |v: &[f32]| match passes {
                Some(ps) => ps.iter().map(|&p| v[p]).fold(f32::MIN, f32::max),
                None => v.iter().copied().fold(f32::MIN, f32::max),
            };
            let (a1, a2) = if a.by_fused {
                (best(&c.fused), best(&c.probability))
            } else {
                (best(&c.probability), best(&c.fused))
            };
            // A hinted server is preferred: its tools come before the others.
            (f32::from(u8::from(a.hinted.contains(&c.server))), a1, a2)
        };
        let mut v: Vec<usize> = (0..candidates.len()).collect();
        v.sort_by(|&x, &y| {
            let (kx, ky) = (key(&candidates[x]), key(&candidates[y]));
            ky.0.total_cmp(&kx.0)
                .then(ky.1.total_cmp(&kx.1))
                .then(ky.2.total_cmp(&kx.2))
                .then(candidates[x].tool.cmp(&candidates[y].tool))
        });
        v
    };
    let mut order: Vec<usize> = Vec::new();
    for passes in slots {
        if let Some(&c) = by(Some(passes)).iter().find(|c| !order.contains(c)) {
            order.push(c);
        }
    }
    let chosen = order.len();
    for c in by(None) {
        if !order.contains(&c) {
            order.push(c);
        }
    }
    diversify(order, a.cap, a.limit, |c| (candidates[c].server, a.hinted.contains(&candidates[c].server)), chosen)
}

/// Keeps at most `cap` items of one server among the first `limit`; `info(item)` gives its server and
/// whether it is exempt; the first `keep` items are exempt too (they still count). Items pushed out
/// follow in their order. Pure.
pub(crate) fn diversify(
    order: Vec<usize>,
    cap: usize,
    limit: usize,
    info: impl Fn(usize) -> (usize, bool),
    keep: usize,
) -> Vec<usize> {
    if cap == 0 {
        return order;
    }
    let mut kept = Vec::with_capacity(order.len());
    let mut deferred = Vec::new();
    let mut per_server: HashMap<usize, usize> = HashMap::new();
    for (i, item) in order.into_iter().enumerate() {
        let (server, exempt) = info(item);
        let n = per_server.entry(server).or_default();
        if i >= keep && kept.len() < limit && *n >= cap && !exempt {
            deferred.push(item);
        } else {
            *n += 1;
            kept.push(item);
        }
    }
    kept.extend(deferred);
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_filler_but_not_chosen_or_exempt_items() {
        // Items 0..6 all on server 0 except 3 and 5 (server 1).
        let server = |t: usize| usize::from(t == 3 || t == 5);
        let plain = |t: usize| (server(t), false);
        assert_eq!(diversify(vec![0, 1, 2, 3, 4, 5], 2, 5, plain, 0), vec![0, 1, 3, 5, 2, 4]);
        assert_eq!(diversify(vec![0, 1, 2, 3, 4, 5], 2, 5, plain, 3), vec![0, 1, 2, 3, 5, 4]);
        assert_eq!(diversify(vec![0, 1, 2, 3], 0, 5, plain, 0), vec![0, 1, 2, 3]);
        let hinted = |t: usize| (server(t), server(t) == 0);
        assert_eq!(diversify(vec![0, 1, 2, 3], 1, 5, hinted, 0), vec![0, 1, 2, 3]);
    }
}
