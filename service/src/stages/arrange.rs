//! Stage 3: the order of an answer. The best tool for the whole request first, then the best for each
//! intent of a compound request, then the rest by confidence, what the request rules out last; then no
//! server may hold more than `cap` of the first `limit` places, except a hinted server and the tools
//! chosen per intent — and a tool over the cap keeps its place unless another server's tool has at least
//! `cap_yield` of its confidence (a cap trades a server's next tool for a comparable one, never for
//! filler). Pure.

use std::collections::{HashMap, HashSet};

use super::Candidate;

/// What arranging needs to know.
#[derive(Clone, Copy)]
pub(crate) struct Arranging<'a> {
    /// Most tools of one server among the first `limit` (0: no cap).
    pub cap: usize,
    /// Share of a capped tool's confidence another server's tool needs to take its place (0: always).
    pub cap_yield: f32,
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
            // What the request rules out follows the rest; a hinted server is preferred: its tools come
            // before the others.
            (!c.ruled_out, f32::from(u8::from(a.hinted.contains(&c.server))), a1, a2)
        };
        let mut v: Vec<usize> = (0..candidates.len()).collect();
        v.sort_by(|&x, &y| {
            let (kx, ky) = (key(&candidates[x]), key(&candidates[y]));
            ky.0.cmp(&kx.0)
                .then(ky.1.total_cmp(&kx.1))
                .then(ky.2.total_cmp(&kx.2))
                .then(ky.3.total_cmp(&kx.3))
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
    let strength = |c: &Candidate| if a.by_fused { c.score() } else { c.confidence() };
    diversify(
        order,
        a.cap,
        a.limit,
        |c| (candidates[c].server, a.hinted.contains(&candidates[c].server), strength(&candidates[c])),
        chosen,
        a.cap_yield,
    )
}

/// Keeps at most `cap` items of one server among the first `limit`; `info(item)` gives its server, whether
/// it is exempt, and its strength (the order is by strength, best first); the first `keep` items are exempt
/// too (they still count). An item over the cap keeps its place when no other server's item would take it
/// with at least `yield_share` of its strength: a cap trades a server's next tool for a comparable one of another
/// server, never for filler. Items pushed out follow in their order. Pure.
pub(crate) fn diversify(
    order: Vec<usize>,
    cap: usize,
    limit: usize,
    info: impl Fn(usize) -> (usize, bool, f32),
    keep: usize,
    yield_share: f32,
) -> Vec<usize> {
    if cap == 0 {
        return order;
    }
    let mut kept = Vec::with_capacity(order.len());
    let mut deferred = Vec::new();
    let mut per_server: HashMap<usize, usize> = HashMap::new();
    for (i, &item) in order.iter().enumerate() {
        let (server, exempt, strength) = info(item);
        let n = per_server.get(&server).copied().unwrap_or(0);
        let over = i >= keep && kept.len() < limit && n >= cap && !exempt;
        // The strongest later item that the cap would let in.
        let rival = || {
            order[i + 1..]
                .iter()
                .map(|&x| info(x))
                .find(|&(s, e, _)| s != server && (e || per_server.get(&s).copied().unwrap_or(0) < cap))
                .map(|(_, _, st)| st)
        };
        if over && rival().is_some_and(|st| st >= yield_share * strength) {
            deferred.push(item);
        } else {
            *per_server.entry(server).or_default() += 1;
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
        let plain = |t: usize| (server(t), false, 1.0);
        assert_eq!(diversify(vec![0, 1, 2, 3, 4, 5], 2, 5, plain, 0, 1.0), vec![0, 1, 3, 5, 2, 4]);
        assert_eq!(diversify(vec![0, 1, 2, 3, 4, 5], 2, 5, plain, 3, 1.0), vec![0, 1, 2, 3, 5, 4]);
        assert_eq!(diversify(vec![0, 1, 2, 3], 0, 5, plain, 0, 1.0), vec![0, 1, 2, 3]);
        let hinted = |t: usize| (server(t), server(t) == 0, 1.0);
        assert_eq!(diversify(vec![0, 1, 2, 3], 1, 5, hinted, 0, 1.0), vec![0, 1, 2, 3]);
    }

    #[test]
    fn a_capped_tool_yields_only_to_a_comparable_one() {
        // Server 0 holds items 0..4 (strength 0.9, 0.8, 0.7, 0.6); item 4 is server 1's, strength 0.1.
        let info = |t: usize| (usize::from(t == 4), false, [0.9, 0.8, 0.7, 0.6, 0.1][t]);
        // Filler at a seventh of the capped tool's strength does not take its place at yield 0.3 …
        assert_eq!(diversify(vec![0, 1, 2, 3, 4], 2, 3, info, 0, 0.3), vec![0, 1, 2, 3, 4]);
        // … but does at yield 0.1, and always at yield 0 (the plain cap).
        assert_eq!(diversify(vec![0, 1, 2, 3, 4], 2, 3, info, 0, 0.1), vec![0, 1, 4, 2, 3]);
        assert_eq!(diversify(vec![0, 1, 2, 3, 4], 2, 3, info, 0, 0.0), vec![0, 1, 4, 2, 3]);
        // A comparable tool of another server takes the place.
        let close = |t: usize| (usize::from(t == 4), false, [0.9, 0.8, 0.7, 0.6, 0.5][t]);
        assert_eq!(diversify(vec![0, 1, 2, 3, 4], 2, 3, close, 0, 0.3), vec![0, 1, 4, 2, 3]);
    }
}
