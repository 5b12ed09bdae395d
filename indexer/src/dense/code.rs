//! The HNSW graph's own copy of the vectors, as int8 codes: each L2-normalized vector scaled so its largest
//! magnitude is 127, then rounded. A quarter of f32's bytes — at 100K tools of the ensemble's 896
//! dimensions, 92 MB instead of 387 MB held by the build and touched by the served graph — and an integer
//! dot product. The graph only proposes candidates; `Snapshot::nearest_*` re-scores them exactly from the
//! stored f32 vectors, so scores are never the codes'. The recall cost is measured by `cargo bench -p
//! toolscout-indexer --bench ann` (BENCHMARKS.md "Flat scan or HNSW", "The graph over int8 codes").

use hnsw_rs::prelude::Distance;

/// `v` as int8 codes (a zero vector codes as zeros).
pub(crate) fn encode(v: &[f32]) -> Vec<i8> {
    let max = v.iter().fold(0f32, |m, x| m.max(x.abs()));
    if max == 0.0 || !max.is_finite() {
        return vec![0; v.len()];
    }
    let scale = 127.0 / max;
    // The cast saturates; the clamp says so.
    v.iter().map(|&x| (x * scale).round().clamp(-127.0, 127.0) as i8).collect()
}

/// Cosine distance between two codes (1 − cosine of the decoded vectors; the per-vector scale cancels).
/// A zero code is at distance 1 from everything.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct DistCode;

impl Distance<i8> for DistCode {
    fn eval(&self, a: &[i8], b: &[i8]) -> f32 {
        let (dot, na, nb) = dot_and_norms(a, b);
        if na == 0 || nb == 0 {
            return 1.0;
        }
        // Rounding can put near-identical vectors a hair below 0; hnsw_rs wants distances ≥ 0.
        (1.0 - dot as f32 / ((na as f32).sqrt() * (nb as f32).sqrt())).max(0.0)
    }
}

/// Σ a·b, Σ a², Σ b² over the common prefix, in sixteen i32 lanes the compiler vectorizes. Products are at
/// most 128² = 16,384, so an i32 sum holds over 130K dimensions.
fn dot_and_norms(a: &[i8], b: &[i8]) -> (i32, i32, i32) {
    const LANES: usize = 16;
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let (mut dot, mut na, mut nb) = ([0i32; LANES], [0i32; LANES], [0i32; LANES]);
    let (ca, cb) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for i in 0..LANES {
            // A product of two i8 fits an i16 (at most 128² = 16,384): 16-bit multiplies, which SSE2 has
            // (32-bit ones it has not), widened only to add (`ann` bench: the graph search 23 % faster).
            let (x, y) = (i16::from(x[i]), i16::from(y[i]));
            dot[i] += i32::from(x * y);
            na[i] += i32::from(x * x);
            nb[i] += i32::from(y * y);
        }
    }
    let mut tail = (0, 0, 0);
    for (&x, &y) in ra.iter().zip(rb) {
        let (x, y) = (i32::from(x), i32::from(y));
        tail = (tail.0 + x * y, tail.1 + x * x, tail.2 + y * y);
    }
    (dot.iter().sum::<i32>() + tail.0, na.iter().sum::<i32>() + tail.1, nb.iter().sum::<i32>() + tail.2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dense::cosine;

    /// A pseudo-random unit vector of `n` dimensions.
    fn unit(seed: u64, n: usize) -> Vec<f32> {
        crate::dense::tests::unit((0..n as u64).map(|j| crate::dense::tests::lcg(seed * 10_007 + j)).collect())
    }

    #[test]
    fn codes_use_the_whole_range_and_keep_signs() {
        let c = encode(&[0.5, -0.25, 0.0, -0.5, 0.001]);
        assert_eq!(c, vec![127, -64, 0, -127, 0]);
        assert_eq!(encode(&[0.0; 4]), vec![0; 4]);
        assert_eq!(encode(&[f32::NAN, 1.0]), vec![0, 127], "a NaN component codes as 0");
        assert_eq!(encode(&[f32::INFINITY, 1.0]), vec![0, 0], "an infinite vector codes as zeros");
    }

    #[test]
    fn the_code_distance_tracks_the_exact_cosine() {
        // 896 dimensions (the ensemble's) and odd lengths that leave a remainder past the lanes.
        for n in [7usize, 384, 896, 901] {
            for s in 0..20u64 {
                let (a, b) = (unit(s, n), unit(s + 100, n));
                // A near neighbour too: b moved toward a.
                let near: Vec<f32> = a.iter().zip(&b).map(|(x, y)| 0.9 * x + 0.1 * y).collect();
                for other in [&b, &near] {
                    let norm = other.iter().map(|x| x * x).sum::<f32>().sqrt();
                    let exact = cosine(&a, other) / norm;
                    let coded = 1.0 - DistCode.eval(&encode(&a), &encode(other));
                    assert!((exact - coded).abs() < 0.02, "n={n}: exact {exact}, from codes {coded}");
                }
            }
            assert!(
                DistCode.eval(&encode(&unit(1, n)), &encode(&unit(1, n))) < 1e-6,
                "a code is at distance 0 from itself"
            );
            assert_eq!(DistCode.eval(&vec![0; n], &encode(&unit(1, n))), 1.0);
        }
    }
}
