//! Per-query judgements and their aggregates. Pure code.
//!
//! - Group recall@k: share of a query's capability groups with a pair among the first k *delivered*
//!   tools (only when the answer is `found`); "no threshold": among the first k of the ranking, whatever
//!   was decided.
//! - Success@k: every group hit.
//! - Server recall@k: share of groups whose gold servers include one of the first k distinct servers of
//!   the returned tools.
//! - nDCG@5: binary gain for a returned tool that serves a group not yet served higher up; the ideal
//!   ranking serves min(groups, 5) groups.
//! - MRR: 1 / rank of the first tool that serves any group.
//! - Group recall@k with `also_serves`: as group recall@k, a tool the query lists as one that may also
//!   serve it counted as serving its one group.

use std::collections::HashSet;

use crate::queries::{Kind, Query};
use crate::rankers::{Answer, RankedTool};

/// How one query went.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryOutcome {
    /// The query's kind.
    pub kind: Kind,
    /// Answered `found`.
    pub found: bool,
    /// For each k asked: groups hit in the top k (0 when not found).
    pub groups_hit: Vec<usize>,
    /// The same without the not-found decision (as if always found).
    pub groups_hit_no_threshold: Vec<usize>,
    /// For each k: groups hit in the top k counting the query's `also_serves` (0 when not found); `None`
    /// when it lists none.
    pub groups_hit_also_serves: Option<Vec<usize>>,
    /// For each k: groups whose server is among the first k distinct servers.
    pub servers_hit: Vec<usize>,
    /// Number of groups.
    pub groups: usize,
    /// nDCG@5 (0 when not found).
    pub ndcg5: f64,
    /// Reciprocal rank of the first relevant tool (0 when not found or none).
    pub rr: f64,
    /// Tools delivered (0 when not found).
    pub delivered: usize,
    /// Delivered tools that serve no group.
    pub irrelevant_delivered: usize,
    /// The confidence of the best-ranked tool (0 with an empty ranking): what the not-found cut is
    /// applied to.
    pub best_confidence: f32,
    /// The best-ranked tool, `server/tool`.
    pub top: Option<String>,
}

/// Judges one answer against its labels at each k in `ks`.
pub fn judge(query: &Query, answer: &Answer, ks: &[usize]) -> QueryOutcome {
    let found = answer.found;
    let serves = |tools: &[RankedTool], rank: usize| -> Vec<usize> {
        let t = &tools[rank];
        (0..query.relevant.len())
            .filter(|&g| {
                // A collapsed mirror counts as its original: the tool is also its alternates'.
                query.relevant[g]
                    .iter()
                    .any(|p| p.tool == t.tool && (p.server == t.server || t.alternates.contains(&p.server)))
            })
            .collect()
    };
    let hits_at = |tools: &[RankedTool], k: usize| -> usize {
        let mut hit = HashSet::new();
        for r in 0..k.min(tools.len()) {
            hit.extend(serves(tools, r));
        }
        hit.len()
    };
    let groups_hit_no_threshold: Vec<usize> = ks.iter().map(|&k| hits_at(&answer.ranking, k)).collect();
    let groups_hit: Vec<usize> = ks.iter().map(|&k| if found { hits_at(&answer.delivered, k) } else { 0 }).collect();
    let also = |t: &RankedTool| {
        query.also_serves.iter().any(|p| p.tool == t.tool && (p.server == t.server || t.alternates.contains(&p.server)))
    };
    let groups_hit_also_serves = (!query.also_serves.is_empty()).then(|| {
        ks.iter()
            .zip(&groups_hit)
            .map(|(&k, &hit)| {
                // `also_serves` belongs to a query of one group (`read_queries` checks).
                if found && answer.delivered.iter().take(k).any(also) { hit.max(1) } else { hit }
            })
            .collect()
    });
    let delivered = &answer.delivered;
    let irrelevant_delivered =
        if found { (0..delivered.len()).filter(|&r| serves(delivered, r).is_empty()).count() } else { 0 };

    let mut distinct_servers: Vec<&str> = Vec::new();
    for t in delivered {
        if !distinct_servers.contains(&t.server.as_str()) {
            distinct_servers.push(&t.server);
        }
    }
    let servers_hit = ks
        .iter()
        .map(|&k| {
            if !found {
                return 0;
            }
            let top: Vec<&str> = distinct_servers.iter().take(k).copied().collect();
            query.relevant.iter().filter(|g| g.iter().any(|p| top.contains(&p.server.as_str()))).count()
        })
        .collect();

    let (mut dcg, mut covered, mut rr) = (0.0, HashSet::new(), 0.0);
    for r in 0..5.min(delivered.len()) {
        let groups = serves(delivered, r);
        if rr == 0.0 && !groups.is_empty() {
            rr = 1.0 / (r + 1) as f64;
        }
        if groups.iter().any(|g| !covered.contains(g)) {
            dcg += 1.0 / ((r + 2) as f64).log2();
            covered.extend(groups);
        }
    }
    if rr == 0.0 {
        rr = (5..delivered.len()).find(|&r| !serves(delivered, r).is_empty()).map_or(0.0, |r| 1.0 / (r + 1) as f64);
    }
    let ideal: f64 = (0..query.relevant.len().min(5)).map(|r| 1.0 / ((r + 2) as f64).log2()).sum();
    let ndcg5 = if found && ideal > 0.0 { dcg / ideal } else { 0.0 };
    QueryOutcome {
        kind: query.kind,
        found,
        groups_hit,
        groups_hit_no_threshold,
        groups_hit_also_serves,
        servers_hit,
        groups: query.relevant.len(),
        ndcg5,
        rr: if found { rr } else { 0.0 },
        delivered: if found { delivered.len() } else { 0 },
        irrelevant_delivered,
        best_confidence: answer.ranking.first().map_or(0.0, |t| t.confidence),
        top: answer.ranking.first().map(|t| format!("{}/{}", t.server, t.tool)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queries::Pair;

    fn pair(s: &str, t: &str) -> Pair {
        Pair { server: s.into(), tool: t.into() }
    }

    fn ranking(tools: &[(&str, &str)]) -> Answer {
        Answer::undecided(
            tools
                .iter()
                .map(|(s, t)| RankedTool {
                    server: s.to_string(),
                    tool: t.to_string(),
                    score: 0.5,
                    confidence: 0.5,
                    named: false,
                    alternates: Vec::new(),
                })
                .collect(),
        )
    }

    #[test]
    fn groups_alternatives_and_ranks() {
        let q = Query {
            id: "q".into(),
            query: "x".into(),
            relevant: vec![vec![pair("gh", "create_issue"), pair("gl", "create_issue")], vec![pair("slack", "post")]],
            kind: Kind::Multi,
            exclude: vec![],
            also_serves: vec![],
        };
        let r = ranking(&[("a", "x"), ("gl", "create_issue"), ("gh", "create_issue"), ("b", "y"), ("slack", "post")]);
        let o = judge(&q, &r, &[1, 3, 5]);
        assert_eq!(o.groups_hit, vec![0, 1, 2]);
        assert_eq!(o.rr, 0.5);
        // Ranks 2 and 5 serve new groups; rank 3 serves an already served one.
        let ideal = 1.0 + 1.0 / 3f64.log2();
        let dcg = 1.0 / 3f64.log2() + 1.0 / 6f64.log2();
        assert!((o.ndcg5 - dcg / ideal).abs() < 1e-9);
        assert_eq!(o.servers_hit, vec![0, 1, 2]);
        assert_eq!((o.delivered, o.irrelevant_delivered), (5, 2));
        let not_found = judge(&q, &Answer { found: false, delivered: vec![], ..r.clone() }, &[5]);
        assert_eq!((not_found.groups_hit[0], not_found.groups_hit_no_threshold[0]), (0, 2));
        assert_eq!(not_found.ndcg5, 0.0);
    }

    #[test]
    fn also_serves_counts_only_in_its_own_recall() {
        let q = Query {
            id: "q".into(),
            query: "x".into(),
            relevant: vec![vec![pair("set-1", "find_events")]],
            kind: Kind::Single,
            exclude: vec![],
            also_serves: vec![pair("set-2", "find_events")],
        };
        let o = judge(&q, &ranking(&[("a", "x"), ("set-2", "find_events"), ("set-1", "find_events")]), &[1, 2, 3]);
        assert_eq!(o.groups_hit, vec![0, 0, 1]);
        assert_eq!(o.groups_hit_also_serves, Some(vec![0, 1, 1]));
        let plain = Query { also_serves: vec![], ..q };
        assert_eq!(judge(&plain, &ranking(&[("set-2", "find_events")]), &[1]).groups_hit_also_serves, None);
    }
}
