//! Score fusion: one calibrated number per tool from dense and BM25 signals. Pure code, no I/O.
//!
//! Dense cosines are absolute (comparable across queries), raw BM25 is not, so BM25 is squashed with
//! `s / (s + k)` into [0, 1) before mixing. The fused score is a weighted sum of the tool's own cosine,
//! its server's cosine, and both squashed BM25 scores; with weights summing to at most 1 it stays in
//! [-1, 1], and the not-found threshold is a cut on this one number.

use serde::{Deserialize, Serialize};

/// The signals measured for one candidate tool.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Signals {
    /// Cosine between the query and the tool's document.
    pub tool_dense: f32,
    /// Raw BM25 of the tool's document (0 when it did not match).
    pub tool_bm25: f32,
    /// Cosine between the query and the tool's server document.
    pub server_dense: f32,
    /// Raw BM25 of the server's document.
    pub server_bm25: f32,
}

/// Weights of [`fuse`]. With weights summing to at most 1 the fused score stays in [-1, 1].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FusionWeights {
    /// Weight of [`Signals::tool_dense`].
    pub tool_dense: f32,
    /// Weight of squashed [`Signals::tool_bm25`].
    pub tool_bm25: f32,
    /// Weight of [`Signals::server_dense`].
    pub server_dense: f32,
    /// Weight of squashed [`Signals::server_bm25`].
    pub server_bm25: f32,
    /// Half-saturation constant `k` of the BM25 squash.
    pub bm25_k: f32,
}

impl Default for FusionWeights {
    fn default() -> Self {
        // Tuned on the dev sets (`toolscout tune`, BENCHMARKS.md); they need not sum to 1: the threshold is
        // calibrated on the resulting scale.
        FusionWeights { tool_dense: 0.65, tool_bm25: 0.1, server_dense: 0.08, server_bm25: 0.1, bm25_k: 16.0 }
    }
}

/// `s / (s + k)`: maps a non-negative raw BM25 score into [0, 1].
pub fn saturate(score: f32, k: f32) -> f32 {
    let s = score.max(0.0);
    if s == 0.0 { 0.0 } else { s / (s + k.max(f32::EPSILON)) }
}

/// The fused score of one tool.
pub fn fuse(s: &Signals, w: &FusionWeights) -> f32 {
    w.tool_dense * s.tool_dense
        + w.tool_bm25 * saturate(s.tool_bm25, w.bm25_k)
        + w.server_dense * s.server_dense
        + w.server_bm25 * saturate(s.server_bm25, w.bm25_k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn saturation_is_bounded() {
        assert_eq!(saturate(0.0, 8.0), 0.0);
        assert_eq!(saturate(-3.0, 8.0), 0.0);
        assert!((saturate(8.0, 8.0) - 0.5).abs() < 1e-6);
        assert!(saturate(1e9, 8.0) <= 1.0 && saturate(100.0, 8.0) < 1.0);
    }

    fn signals() -> impl Strategy<Value = Signals> {
        (-1.0f32..1.0, 0.0f32..50.0, -1.0f32..1.0, 0.0f32..50.0).prop_map(|(a, b, c, d)| Signals {
            tool_dense: a,
            tool_bm25: b,
            server_dense: c,
            server_bm25: d,
        })
    }

    proptest! {
        #[test]
        fn fused_score_is_bounded_and_monotonic(s in signals(), bump in 0.0f32..0.5) {
            let w = FusionWeights::default();
            let base = fuse(&s, &w);
            prop_assert!((-1.0..=1.0).contains(&base));
            let better = Signals { tool_dense: (s.tool_dense + bump).min(1.0), tool_bm25: s.tool_bm25 + bump * 10.0, ..s };
            prop_assert!(fuse(&better, &w) >= base);
            let better_server = Signals { server_dense: (s.server_dense + bump).min(1.0), ..s };
            prop_assert!(fuse(&better_server, &w) >= base);
        }
    }
}
