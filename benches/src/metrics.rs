//! Per-query judgements and their aggregates. Pure code.
//!
//! - Group recall@k: share of a query's capability groups with a pair among the top-k returned tools
//!   (only when the answer is `found`).
//! - Success@k: every group hit.
//! - Server recall@k: share of groups whose gold servers include one of the first k distinct servers of
//!   the returned tools.
//! - nDCG@5: binary gain for a returned tool that serves a group not yet served higher up; the ideal
//!   ranking serves min(groups, 5) groups.
//! - MRR: 1 / rank of the first tool that serves any group.

use std::collections::HashSet;

use crate::queries::{Kind, Query};
use crate::rankers::Ranking;

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
    /// For each k: groups whose server is among the first k distinct servers.
    pub servers_hit: Vec<usize>,
    /// Number of groups.
    pub groups: usize,
    /// nDCG@5 (0 when not found).
    pub ndcg5: f64,
    /// Reciprocal rank of the first relevant tool (0 when not found or none).
    pub rr: f64,
}

/// Judges one ranked answer against its labels at each k in `ks`.
pub fn judge(query: &Query, ranking: &Ranking, found: bool, ks: &[usize]) -> QueryOutcome {
    let serves = |rank: usize| -> Vec<usize> {
        let t = &ranking.tools[rank];
        (0..query.relevant.len())
            .filter(|&g| query.relevant[g].iter().any(|p| p.server == t.server && p.tool == t.tool))
            .collect()
    };
    let hits_at = |k: usize| -> usize {
        let mut hit = HashSet::new();
        for r in 0..k.min(ranking.tools.len()) {
            hit.extend(serves(r));
        }
        hit.len()
    };
    let groups_hit_no_threshold: Vec<usize> = ks.iter().map(|&k| hits_at(k)).collect();
    let groups_hit = if found { groups_hit_no_threshold.clone() } else { vec![0; ks.len()] };

    let mut distinct_servers: Vec<&str> = Vec::new();
    for t in &ranking.tools {
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
    for r in 0..5.min(ranking.tools.len()) {
        let groups = serves(r);
        if rr == 0.0 && !groups.is_empty() {
            rr = 1.0 / (r + 1) as f64;
        }
        if groups.iter().any(|g| !covered.contains(g)) {
            dcg += 1.0 / ((r + 2) as f64).log2();
            covered.extend(groups);
        }
    }
    if rr == 0.0 {
        rr = (5..ranking.tools.len()).find(|&r| !serves(r).is_empty()).map_or(0.0, |r| 1.0 / (r + 1) as f64);
    }
    let ideal: f64 = (0..query.relevant.len().min(5)).map(|r| 1.0 / ((r + 2) as f64).log2()).sum();
    let ndcg5 = if found && ideal > 0.0 { dcg / ideal } else { 0.0 };
    QueryOutcome {
        kind: query.kind,
        found,
        groups_hit,
        groups_hit_no_threshold,
        servers_hit,
        groups: query.relevant.len(),
        ndcg5,
        rr: if found { rr } else { 0.0 },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queries::Pair;
    use crate::rankers::RankedTool;

    fn pair(s: &str, t: &str) -> Pair {
        Pair { server: s.into(), tool: t.into() }
    }

    fn ranking(tools: &[(&str, &str)]) -> Ranking {
        Ranking {
            tools: tools
                .iter()
                .map(|(s, t)| RankedTool { server: s.to_string(), tool: t.to_string(), score: 0.5, named: false })
                .collect(),
        }
    }

    #[test]
    fn groups_alternatives_and_ranks() {
        let q = Query {
            id: "q".into(),
            query: "x".into(),
            relevant: vec![vec![pair("gh", "create_issue"), pair("gl", "create_issue")], vec![pair("slack", "post")]],
            kind: Kind::Multi,
        };
        let r = ranking(&[("a", "x"), ("gl", "create_issue"), ("gh", "create_issue"), ("b", "y"), ("slack", "post")]);
        let o = judge(&q, &r, true, &[1, 3, 5]);
        assert_eq!(o.groups_hit, vec![0, 1, 2]);
        assert_eq!(o.rr, 0.5);
        // Ranks 2 and 5 serve new groups; rank 3 serves an already served one.
        let ideal = 1.0 + 1.0 / 3f64.log2();
        let dcg = 1.0 / 3f64.log2() + 1.0 / 6f64.log2();
        assert!((o.ndcg5 - dcg / ideal).abs() < 1e-9);
        assert_eq!(o.servers_hit, vec![0, 1, 2]);
        let not_found = judge(&q, &r, false, &[5]);
        assert_eq!((not_found.groups_hit[0], not_found.groups_hit_no_threshold[0]), (0, 2));
        assert_eq!(not_found.ndcg5, 0.0);
    }
}
