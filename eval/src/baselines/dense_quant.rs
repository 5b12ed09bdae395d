//! `dense-f16` / `dense-int8`: `dense-flat` over the stored tool vectors rounded to f16, or to int8 with
//! one scale per vector (the query stays f32): what quantised vector storage would cost in recall,
//! measured before building it (issue 15 asks for that cost to be under half a point). Since snapshot
//! format 6 the stored vectors are halves, so `dense-f16` ranks exactly as `dense-flat` does and
//! `dense-int8` measures int8 codes of the halves.

use std::sync::Arc;

use toolscout_indexer::{Embedder, Snapshot, cosine, from_halves, to_halves};

use super::ranked_tools;
use crate::Result;
use crate::queries::Pair;
use crate::rankers::{Answer, Ranker};

/// How the stored vectors are rounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Precision {
    /// IEEE half precision.
    F16,
    /// Signed 8-bit codes, one f32 scale per vector (its largest magnitude / 127).
    Int8,
}

pub(crate) struct DenseQuant {
    snapshot: Arc<Snapshot>,
    embedder: Arc<dyn Embedder>,
    precision: Precision,
    /// The tool vectors after the round trip (quantised, then read back as f32).
    vectors: Vec<Vec<f32>>,
}

impl DenseQuant {
    pub(crate) fn new(snapshot: Arc<Snapshot>, embedder: Arc<dyn Embedder>, precision: Precision) -> Self {
        let vectors =
            (0..snapshot.tools.len()).map(|i| round_trip(&from_halves(snapshot.tool_vector(i)), precision)).collect();
        DenseQuant { snapshot, embedder, precision, vectors }
    }
}

/// `v` stored at `precision` and read back.
pub(crate) fn round_trip(v: &[f32], precision: Precision) -> Vec<f32> {
    match precision {
        Precision::F16 => from_halves(&to_halves(v)),
        Precision::Int8 => {
            let max = v.iter().fold(0f32, |m, x| m.max(x.abs()));
            if max == 0.0 {
                return vec![0.0; v.len()];
            }
            let scale = max / 127.0;
            v.iter().map(|&x| (x / scale).round().clamp(-127.0, 127.0) * scale).collect()
        }
    }
}

impl Ranker for DenseQuant {
    fn name(&self) -> String {
        match self.precision {
            Precision::F16 => "dense-f16".into(),
            Precision::Int8 => "dense-int8".into(),
        }
    }

    fn answer(&self, query: &str, exclude: &[Pair], k: usize) -> Result<Answer> {
        let q = self.embedder.embed_query(query)?;
        let scored = self.vectors.iter().enumerate().map(|(i, v)| (i, cosine(&q, v))).collect();
        Ok(ranked_tools(&self.snapshot, scored, exclude, k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_stay_close_and_int8_uses_the_whole_range() {
        let v: Vec<f32> = (0..384).map(|i| ((i as f32) * 0.37).sin() / 13.0).collect();
        for p in [Precision::F16, Precision::Int8] {
            let r = round_trip(&v, p);
            let err = v.iter().zip(&r).map(|(a, b)| (a - b).abs()).fold(0f32, f32::max);
            let bound = if p == Precision::F16 { 1e-4 } else { 1.0 / 13.0 / 127.0 };
            assert!(err <= bound, "{p:?}: max error {err}");
            assert!(r != v || p == Precision::F16, "int8 changes values");
        }
        assert_eq!(round_trip(&[0.0, 0.0], Precision::Int8), [0.0, 0.0]);
        let peak = round_trip(&[0.5, -0.25], Precision::Int8);
        assert!((peak[0] - 0.5).abs() < 1e-6, "the largest magnitude is exact");
    }
}
