//! Where an HNSW graph starts to beat an exact scan, and what it costs in recall: unit vectors
//! of the default model's size (896) at growing counts, the same queries through `Ann::search` (k=50, as
//! the engine asks; the walk scores points exactly, as `Snapshot::nearest_*` does) and `flat_top_k`, median
//! time per query, the ratio in the same run, and the graph's recall@50 against the scan. `FLAT_BELOW` is
//! set from this table.
//! `cargo bench -p toolscout-indexer --bench ann` (release; a few minutes; `ANN_SIZES=2000,4000` for some
//! sizes, `ANN_DIM=384` for another size of vector). `ANN_VECTORS=<snapshot>/vectors.f16` measures real
//! vectors instead (a format-5 `vectors.f32` too) (a snapshot's, `ANN_DIM` its dimensions): its last 200 are the queries, the rest the data.

use std::time::Instant;

use toolscout_indexer::{Ann, cosine, flat_top_k};

const K: usize = 50;
const QUERIES: usize = 200;

fn vectors(n: usize, dim: usize, seed: u64) -> Vec<Vec<f32>> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            let v: Vec<f32> = (0..dim)
                .map(|_| {
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    ((x >> 33) % 10_000) as f32 / 10_000.0 - 0.5
                })
                .collect();
            let norm = v.iter().map(|a| a * a).sum::<f32>().sqrt();
            v.into_iter().map(|a| a / norm).collect()
        })
        .collect()
}

fn median_us(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// One row: `data` searched with `queries` through the graph and the scan.
fn row(label: &str, data: &[Vec<f32>], queries: &[Vec<f32>]) {
    let refs: Vec<&[f32]> = data.iter().map(Vec::as_slice).collect();
    let ann = Ann::build(&refs);
    let (mut hnsw, mut flat, mut overlap) = (Vec::new(), Vec::new(), 0usize);
    for q in queries {
        let t = Instant::now();
        let a = ann.search(K, |i| cosine(q, refs[i as usize]));
        hnsw.push(t.elapsed().as_secs_f64() * 1e6);
        let t = Instant::now();
        let f = flat_top_k(refs.iter().copied(), q, K);
        flat.push(t.elapsed().as_secs_f64() * 1e6);
        overlap += f.iter().filter(|h| a.iter().any(|x| x.id == h.id)).count();
    }
    let (h, f) = (median_us(hnsw), median_us(flat));
    let recall = overlap as f64 / (queries.len() * K.min(data.len())) as f64;
    println!("| {label} | {h:.0} | {f:.0} | {:.2} | {recall:.3} |", f / h);
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let dim: usize = std::env::var("ANN_DIM").ok().and_then(|d| d.parse().ok()).unwrap_or(896);
    println!("| vectors ({dim}-d) | HNSW µs/query | flat µs/query | flat / HNSW | HNSW recall@50 vs flat |");
    println!("|---:|---:|---:|---:|---:|");
    if let Ok(path) = std::env::var("ANN_VECTORS") {
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let floats: Vec<f32> = if path.ends_with(".f32") {
            bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect()
        } else {
            bytes.chunks_exact(2).map(|b| toolscout_indexer::f16::from_le_bytes([b[0], b[1]]).to_f32()).collect()
        };
        let mut all: Vec<Vec<f32>> = floats.chunks_exact(dim).map(<[f32]>::to_vec).collect();
        assert!(all.len() > QUERIES, "{path}: {} vectors of {dim} dimensions", all.len());
        let queries = all.split_off(all.len() - QUERIES);
        row(&format!("{} real", all.len()), &all, &queries);
        return;
    }
    let queries = vectors(QUERIES, dim, 7);
    // `ANN_SIZES=2000,4000` measures only those sizes.
    let chosen: Option<Vec<usize>> =
        std::env::var("ANN_SIZES").ok().map(|v| v.split(',').filter_map(|n| n.trim().parse().ok()).collect());
    let sizes: &[usize] = match &chosen {
        Some(sizes) => sizes,
        None if std::env::args().any(|a| a == "--bench") => &[500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000],
        None => &[500], // `cargo test --benches`: one small size, to prove it runs
    };
    for &n in sizes {
        row(&n.to_string(), &vectors(n, dim, n as u64), &queries);
    }
}
