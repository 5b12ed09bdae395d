//! Approximate nearest neighbours over L2-normalized vectors with hnsw_rs, and the exact scan.
//!
//! hnsw_rs builds the graph over int8 codes of the vectors (`code.rs`) and writes it as
//! `<base>.hnsw.graph` and `<base>.hnsw.data`; once built or read back, its links are copied into
//! [`links::Links`] (`u32` positions) and hnsw_rs's own structures are dropped, so a loaded graph holds
//! no codes and one `u32` per edge. Searches walk those links scoring points with the caller's exact
//! cosine.

mod code;
mod links;

use std::path::Path;

use half::f16;
use half::slice::HalfFloatSliceExt;
use hnsw_rs::api::AnnT;
use hnsw_rs::hnswio::{HnswIo, ReloadOptions};
use hnsw_rs::prelude::Hnsw;

use self::code::{DistCode, encode};
use self::links::Links;
use crate::{Error, Result};

const MAX_CONNECTIONS: usize = 16;
const MAX_LAYERS: usize = 16;
const EF_CONSTRUCTION: usize = 200;

/// One ANN result: the vector's position and its cosine similarity to the query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AnnHit {
    /// Position of the vector in the order it was added.
    pub id: u32,
    /// Cosine similarity.
    pub score: f32,
}

/// An HNSW graph's links, or nothing when there were no vectors; a graph just built also keeps
/// hnsw_rs's form of it, to be written. The default is the empty graph.
#[derive(Default)]
pub struct Ann {
    links: Option<Links>,
    built: Option<Hnsw<'static, i8, DistCode>>,
    /// Points whose vectors changed after the graph was built (an update kept the graph): every search
    /// scores them exactly besides the walk, so none is lost where its old place in the graph misleads.
    stale: Vec<u32>,
}

/// Vectors coded and inserted at a time: the build holds the codes of one chunk besides the graph's copy.
const INSERT_CHUNK: usize = 4096;

impl std::fmt::Debug for Ann {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ann").field("points", &self.len()).finish()
    }
}

impl Ann {
    /// Builds a graph over `vectors` (ids are their positions).
    pub fn build(vectors: &[&[f32]]) -> Ann {
        Ann::build_coded(vectors.len(), |i| encode(vectors[i]))
    }

    /// Builds a graph over `n` vectors of `dim` halves each, side by side in `halves` (a snapshot's
    /// stored form).
    pub fn build_halves(halves: &[f16], dim: usize) -> Ann {
        let dim = dim.max(1);
        let mut buffer = vec![0f32; dim];
        let vector = |i: usize, buffer: &mut Vec<f32>| {
            halves[i * dim..(i + 1) * dim].convert_to_f32_slice(buffer);
            encode(buffer)
        };
        Ann::build_coded(halves.len() / dim, |i| vector(i, &mut buffer))
    }

    /// Builds a graph over `n` vectors given by the codes of each (ids are their positions).
    fn build_coded(n: usize, mut code: impl FnMut(usize) -> Vec<i8>) -> Ann {
        if n == 0 {
            return Ann::default();
        }
        let hnsw = Hnsw::new(MAX_CONNECTIONS, n, MAX_LAYERS, EF_CONSTRUCTION, DistCode);
        for start in (0..n).step_by(INSERT_CHUNK) {
            let codes: Vec<Vec<i8>> = (start..n.min(start + INSERT_CHUNK)).map(&mut code).collect();
            let data: Vec<(&[i8], usize)> = codes.iter().enumerate().map(|(i, v)| (v.as_slice(), start + i)).collect();
            hnsw.parallel_insert_slice(&data);
        }
        Ann { links: Some(Links::from_hnsw(&hnsw)), built: Some(hnsw), stale: Vec::new() }
    }

    /// Writes a graph just built into `dir` as `<base>.hnsw.*`; returns the base name actually used, or
    /// `None` when there is nothing to write. A graph read back ([`Ann::load`]) is not written again.
    pub fn dump(&self, dir: &Path, base: &str) -> Result<Option<String>> {
        match (&self.built, &self.links) {
            (None, None) => Ok(None),
            (None, Some(_)) => Err(Error::io(
                "writing",
                dir.join(base),
                std::io::Error::other("a graph read back from a snapshot is not written again"),
            )),
            (Some(h), _) => h
                .file_dump(dir, base)
                .map(Some)
                .map_err(|e| Error::io("writing", dir.join(base), std::io::Error::other(e.to_string()))),
        }
    }

    /// Loads a graph written by [`Ann::dump`]; `None` means an empty graph. hnsw_rs reads it (its codes
    /// memory-mapped, not copied), its links are copied out, and hnsw_rs's structures are dropped.
    /// `stale`: the points whose vectors changed since it was built (scored exactly by every search).
    pub fn load(dir: &Path, base: Option<&str>, stale: &[u32]) -> Result<Ann> {
        let Some(base) = base else { return Ok(Ann::default()) };
        for ext in ["hnsw.graph", "hnsw.data"] {
            let p = dir.join(format!("{base}.{ext}"));
            if !p.is_file() {
                return Err(Error::corrupt(dir, format!("missing {}", p.display())));
            }
        }
        let mut io = HnswIo::new(dir, base);
        io.set_options(ReloadOptions::default().set_mmap(true));
        let hnsw = io.load_hnsw::<i8, DistCode>().map_err(|e| Error::corrupt(dir, format!("hnsw {base}: {e}")))?;
        let links = Links::from_hnsw(&hnsw);
        drop(hnsw);
        tracing::debug!(points = links.len(), bytes = links.bytes(), stale = stale.len(), "graph links loaded");
        let stale = stale.iter().copied().filter(|&id| (id as usize) < links.len()).collect();
        Ok(Ann { links: Some(links), built: None, stale })
    }

    /// The `k` nearest vectors, best first, scored by `exact` (the exact cosine of vector `id`, called
    /// once per point the walk visits).
    pub fn search(&self, k: usize, exact: impl Fn(u32) -> f32) -> Vec<AnnHit> {
        let Some(links) = &self.links else { return Vec::new() };
        // The beam is as wide as the search list over codes was (2k, at least 64), every point in it
        // now scored exactly (`ann` bench: recall against the scan).
        let ef = (2 * k).max(64);
        let mut hits: Vec<AnnHit> =
            links.search(k, ef, &exact).into_iter().map(|(id, score)| AnnHit { id, score }).collect();
        if !self.stale.is_empty() {
            let walked: std::collections::HashSet<u32> = hits.iter().map(|h| h.id).collect();
            hits.extend(self.stale.iter().filter(|id| !walked.contains(id)).map(|&id| AnnHit { id, score: exact(id) }));
            hits.sort_unstable_by(|a, b| b.score.total_cmp(&a.score).then(a.id.cmp(&b.id)));
            hits.truncate(k);
        }
        hits
    }

    /// Number of vectors in the graph.
    pub fn len(&self) -> usize {
        self.links.as_ref().map_or(0, Links::len)
    }

    /// Whether the graph is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Cosine similarity of two L2-normalized vectors (their dot product).
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    // Eight independent partial sums: a plain `sum()` is one serial chain (float addition is not
    // reassociated), which the compiler cannot vectorize; eight lanes it can (3–4× faster here, measured
    // by the `ann` bench's flat column).
    const LANES: usize = 8;
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut acc = [0f32; LANES];
    let (ca, cb) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let tail: f32 = ca.remainder().iter().zip(cb.remainder()).map(|(x, y)| x * y).sum();
    for (x, y) in ca.zip(cb) {
        for i in 0..LANES {
            acc[i] += x[i] * y[i];
        }
    }
    acc.iter().sum::<f32>() + tail
}

/// Cosine similarity of a query and a stored vector in halves (both L2-normalized). Where the processor
/// has AVX, F16C and FMA (found at run time) eight halves at a time are widened and multiplied in
/// vector registers — faster than the `f32` scan, having half the bytes to read; elsewhere the halves are
/// widened to `f32` exactly (`half`), then [`cosine`].
pub fn cosine_half(query: &[f32], stored: &[f16]) -> f32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx")
        && std::arch::is_x86_feature_detected!("f16c")
        && std::arch::is_x86_feature_detected!("fma")
    {
        // SAFETY: the processor has the features the function is compiled for (checked just above).
        return unsafe { x86::dot_half(query, stored) };
    }
    cosine_half_portable(query, stored)
}

/// [`cosine_half`] on any processor.
fn cosine_half_portable(query: &[f32], stored: &[f16]) -> f32 {
    const ON_STACK: usize = 1024;
    let n = query.len().min(stored.len());
    if n > ON_STACK {
        return cosine(&query[..n], &from_halves(&stored[..n]));
    }
    let mut wide = [0f32; ON_STACK];
    stored[..n].convert_to_f32_slice(&mut wide[..n]);
    cosine(&query[..n], &wide[..n])
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::{
        __m128i, _mm_loadu_si128, _mm256_add_ps, _mm256_cvtph_ps, _mm256_fmadd_ps, _mm256_loadu_ps, _mm256_setzero_ps,
        _mm256_storeu_ps,
    };

    use half::f16;

    /// The dot product of `q` and `h` over their common length, sixteen at a time in two accumulators.
    ///
    /// # Safety
    /// The processor must have AVX, F16C and FMA.
    #[target_feature(enable = "avx,f16c,fma")]
    pub(super) unsafe fn dot_half(q: &[f32], h: &[f16]) -> f32 {
        let n = q.len().min(h.len());
        let (mut a, mut b) = (_mm256_setzero_ps(), _mm256_setzero_ps());
        let mut i = 0;
        while i + 16 <= n {
            // SAFETY: i + 16 <= n, so both 8-lane reads of each slice lie inside it (unaligned loads).
            unsafe {
                let h0 = _mm256_cvtph_ps(_mm_loadu_si128(h.as_ptr().add(i).cast::<__m128i>()));
                let h1 = _mm256_cvtph_ps(_mm_loadu_si128(h.as_ptr().add(i + 8).cast::<__m128i>()));
                a = _mm256_fmadd_ps(_mm256_loadu_ps(q.as_ptr().add(i)), h0, a);
                b = _mm256_fmadd_ps(_mm256_loadu_ps(q.as_ptr().add(i + 8)), h1, b);
            }
            i += 16;
        }
        let mut lanes = [0f32; 8];
        // SAFETY: `lanes` holds eight f32s.
        unsafe { _mm256_storeu_ps(lanes.as_mut_ptr(), _mm256_add_ps(a, b)) };
        lanes.iter().sum::<f32>() + q[i..n].iter().zip(&h[i..n]).map(|(x, y)| x * y.to_f32()).sum::<f32>()
    }
}

/// `values` rounded to halves (to nearest, as `half` rounds): how a snapshot stores vectors.
pub fn to_halves(values: &[f32]) -> Vec<f16> {
    let mut out = vec![f16::ZERO; values.len()];
    out.convert_from_f32_slice(values);
    out
}

/// `halves` widened to `f32` (exactly).
pub fn from_halves(halves: &[f16]) -> Vec<f32> {
    let mut out = vec![0f32; halves.len()];
    halves.convert_to_f32_slice(&mut out);
    out
}

/// Below this many vectors an exact scan is faster than the HNSW graph (measured by
/// `cargo bench -p toolscout-indexer --bench ann`; BENCHMARKS.md "Flat scan or HNSW").
pub const FLAT_BELOW: usize = 32_000;

/// The `k` nearest of `vectors` to `query` by an exact scan (ids are positions), best first.
pub fn flat_top_k<'a>(vectors: impl Iterator<Item = &'a [f32]>, query: &[f32], k: usize) -> Vec<AnnHit> {
    top_k(vectors.map(|v| cosine(query, v)), k)
}

/// The `k` best of `scores` (ids are positions), best first; equal scores by position.
pub fn top_k(scores: impl Iterator<Item = f32>, k: usize) -> Vec<AnnHit> {
    if k == 0 {
        return Vec::new();
    }
    let mut hits: Vec<AnnHit> = scores.enumerate().map(|(i, score)| AnnHit { id: i as u32, score }).collect();
    let order = |a: &AnnHit, b: &AnnHit| b.score.total_cmp(&a.score).then(a.id.cmp(&b.id));
    if hits.len() > k {
        hits.select_nth_unstable_by(k - 1, order);
        hits.truncate(k);
    }
    hits.sort_unstable_by(order);
    hits
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn lcg(seed: u64) -> f32 {
        let x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((x >> 33) % 1000) as f32 / 1000.0 - 0.5
    }

    pub(super) fn unit(v: Vec<f32>) -> Vec<f32> {
        let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        v.into_iter().map(|x| x / n).collect()
    }

    #[test]
    fn cosine_is_the_dot_product_at_every_length() {
        for n in [0usize, 1, 7, 8, 9, 31, 384, 385] {
            let a: Vec<f32> = (0..n as u64).map(lcg).collect();
            let b: Vec<f32> = (0..n as u64).map(|i| lcg(i + 1000)).collect();
            let plain: f64 = a.iter().zip(&b).map(|(x, y)| f64::from(*x) * f64::from(*y)).sum();
            assert!((f64::from(cosine(&a, &b)) - plain).abs() < 1e-4, "length {n}");
        }
        // Different lengths: the common prefix.
        assert_eq!(cosine(&[1.0, 2.0, 3.0], &[1.0, 1.0]), 3.0);
    }

    #[test]
    fn halves_score_as_their_exact_widening_and_round_to_nearest() {
        for n in [0usize, 1, 63, 64, 65, 384, 896, 1500] {
            let q = unit((0..n as u64).map(lcg).collect());
            let v = unit((0..n as u64).map(|i| lcg(i + 7)).collect());
            let halves = to_halves(&v);
            let wide = from_halves(&halves);
            // Scored as the widened vector would be, up to the order of additions, on every path.
            assert!((cosine_half(&q, &halves) - cosine(&q, &wide)).abs() < 1e-5, "length {n}");
            assert_eq!(cosine_half_portable(&q, &halves), cosine(&q, &wide), "length {n}");
            // Each half within half a unit in the last place (2^-11 relative) of the value it stores.
            assert!(v.iter().zip(&wide).all(|(a, b)| (a - b).abs() <= a.abs() * 2f32.powi(-11) + 1e-7));
            // And the cosine within a thousandth of the f32 one.
            assert!((cosine_half(&q, &halves) - cosine(&q, &v)).abs() < 1e-3, "length {n}");
        }
        let vectors: Vec<Vec<f32>> = (0..50u64).map(|i| unit((0..16u64).map(|j| lcg(i * 16 + j)).collect())).collect();
        let halves: Vec<f16> = vectors.iter().flat_map(|v| to_halves(v)).collect();
        let by_halves = top_k((0..50).map(|i| cosine_half(&vectors[9], &halves[i * 16..(i + 1) * 16])), 5);
        assert_eq!(by_halves[0].id, 9);
        let graph = Ann::build_halves(&halves, 16);
        assert_eq!(graph.len(), 50);
        assert_eq!(graph.search(1, |id| cosine(&vectors[9], &vectors[id as usize]))[0].id, 9);
    }

    #[test]
    fn finds_nearest_and_survives_dump_and_load() {
        let vectors: Vec<Vec<f32>> = (0..200u64).map(|i| unit((0..16u64).map(|j| lcg(i * 16 + j)).collect())).collect();
        let refs: Vec<&[f32]> = vectors.iter().map(Vec::as_slice).collect();
        let ann = Ann::build(&refs);
        let vs = &vectors;
        let exact = |q: usize| move |id: u32| cosine(&vs[q], &vs[id as usize]);
        let hits = ann.search(3, exact(42));
        assert_eq!(hits[0].id, 42);
        assert!((hits[0].score - 1.0).abs() < 1e-4);
        let dir = tempfile::tempdir().expect("tempdir");
        let base = ann.dump(dir.path(), "t").expect("dump").expect("non-empty");
        let back = Ann::load(dir.path(), Some(&base), &[]).expect("load");
        assert_eq!(back.len(), 200);
        assert_eq!(back.search(3, exact(42))[0].id, 42);
        assert!(Ann::build(&[]).search(3, exact(0)).is_empty());
        assert!(Ann::load(dir.path(), Some("missing"), &[]).is_err());
        // The links read back are the links built: every search answers the same.
        for q in [0usize, 42, 77, 199] {
            assert_eq!(back.search(10, exact(q)), ann.search(10, exact(q)), "query {q}");
        }
        let again = tempfile::tempdir().expect("tempdir");
        assert!(back.dump(again.path(), "t").is_err(), "a graph read back is not written again");

        // A vector that changed after the graph was built (moved next to point 42's query, far from its
        // old place): listed as stale it is always scored, so it comes first; out-of-range ids are dropped.
        let mut moved = vectors.clone();
        moved[7] = vectors[42].iter().map(|x| x * 0.999).collect();
        let now = |id: u32| cosine(&vectors[42], &moved[id as usize]);
        let kept = Ann::load(dir.path(), Some(&base), &[7, 5_000]).expect("load with stale");
        let hits = kept.search(2, now);
        assert_eq!(hits.iter().map(|h| h.id).collect::<Vec<_>>(), vec![42, 7], "{hits:?}");
        assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));
        assert_eq!(kept.search(1, now)[0].id, 42, "k still bounds the answer");
    }

    /// A point the walk cannot reach is still answered when it is stale (its vector changed after the
    /// graph was built), and only then.
    #[test]
    fn stale_points_are_scored_whether_the_walk_reaches_them_or_not() {
        // Points 0–3 in a ring; point 4 has no links and no point links to it.
        let ring = vec![vec![1, 3], vec![2, 0], vec![3, 1], vec![0, 2], vec![]];
        let score = |id: u32| [0.1, 0.2, 0.3, 0.4, 0.9][id as usize];
        let walk = Ann { links: Some(Links::of_lists(ring.clone(), 0)), built: None, stale: Vec::new() };
        assert_eq!(walk.search(2, score).iter().map(|h| h.id).collect::<Vec<_>>(), vec![3, 2]);
        let kept = Ann { links: Some(Links::of_lists(ring, 0)), built: None, stale: vec![4] };
        assert_eq!(kept.search(2, score).iter().map(|h| h.id).collect::<Vec<_>>(), vec![4, 3]);
    }

    /// The walk over the copied links finds at least what hnsw_rs's own search of the same graph finds
    /// with the same narrow beam (over codes, re-scored exactly), against the exact scan.
    #[test]
    fn the_links_walk_finds_what_hnsw_rs_finds() {
        let (n, dim) = (4_000, 64u64);
        let vectors: Vec<Vec<f32>> =
            (0..n as u64).map(|i| unit((0..dim).map(|j| lcg(i * dim + j + 11)).collect())).collect();
        let refs: Vec<&[f32]> = vectors.iter().map(Vec::as_slice).collect();
        let ann = Ann::build(&refs);
        let (hnsw, links) = (ann.built.as_ref().expect("built"), ann.links.as_ref().expect("links"));
        let (k, ef) = (10, 10);
        let (mut ours, mut theirs) = (0, 0);
        for q in (0..n).step_by(97) {
            let want = flat_top_k(refs.iter().copied(), &vectors[q], k);
            let hits = links.search(k, ef, |id| cosine(&vectors[q], &vectors[id as usize]));
            let library: Vec<usize> = hnsw.search(&encode(&vectors[q]), k, ef).iter().map(|h| h.d_id).collect();
            ours += want.iter().filter(|w| hits.iter().any(|h| h.0 == w.id)).count();
            theirs += want.iter().filter(|w| library.contains(&(w.id as usize))).count();
        }
        assert!(ours >= theirs, "recall@{k}: links walk {ours}, hnsw_rs {theirs}");
    }

    /// The graph answers with exact scores, in exact order, and finds nearly what the
    /// exact scan finds (more than one graph chunk, so ids stay positions across chunks).
    #[test]
    fn graph_answers_carry_exact_scores_and_match_the_scan() {
        let n = INSERT_CHUNK + 500;
        let vectors: Vec<Vec<f32>> =
            (0..n as u64).map(|i| unit((0..32u64).map(|j| lcg(i * 32 + j)).collect())).collect();
        let refs: Vec<&[f32]> = vectors.iter().map(Vec::as_slice).collect();
        let ann = Ann::build(&refs);
        let (mut found, k) = (0, 10);
        for q in [3usize, 100, 2_000, INSERT_CHUNK + 7, n - 1] {
            let hits = ann.search(k, |id| cosine(&vectors[q], &vectors[id as usize]));
            assert_eq!(hits.len(), k);
            assert_eq!(hits[0].id as usize, q, "a stored vector finds itself");
            assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));
            for h in &hits {
                assert_eq!(h.score, cosine(&vectors[q], &vectors[h.id as usize]));
            }
            let want = flat_top_k(refs.iter().copied(), &vectors[q], k);
            found += want.iter().filter(|w| hits.iter().any(|h| h.id == w.id)).count();
        }
        assert!(found >= 45, "recall@10 of the graph against the scan: {found}/50");
    }

    #[test]
    fn the_flat_scan_is_exact_and_ordered() {
        let vectors: Vec<Vec<f32>> = (0..300u64).map(|i| unit((0..16u64).map(|j| lcg(i * 16 + j)).collect())).collect();
        let hits = flat_top_k(vectors.iter().map(Vec::as_slice), &vectors[7], 10);
        assert_eq!(hits.len(), 10);
        assert_eq!(hits[0].id, 7);
        assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));
        let mut all: Vec<(u32, f32)> =
            vectors.iter().enumerate().map(|(i, v)| (i as u32, cosine(&vectors[7], v))).collect();
        all.sort_by(|a, b| b.1.total_cmp(&a.1));
        let want: Vec<u32> = all.iter().take(10).map(|h| h.0).collect();
        assert_eq!(hits.iter().map(|h| h.id).collect::<Vec<_>>(), want);
        assert!(flat_top_k(vectors.iter().map(Vec::as_slice), &vectors[0], 0).is_empty());
        assert_eq!(flat_top_k(vectors[..3].iter().map(Vec::as_slice), &vectors[0], 10).len(), 3);
    }
}
