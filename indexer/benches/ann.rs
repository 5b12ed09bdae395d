//! Where an HNSW graph starts to beat an exact scan: random unit vectors of the model's size (384) at
//! growing counts, the same queries through `Ann::search` (k=50, as the engine asks) and `flat_top_k`,
//! median time per query, and the ratio in the same run. `FLAT_BELOW` is set from this table.
//! `cargo bench -p toolscout-indexer --bench ann` (release; ~1 minute; `ANN_SIZES=2000,4000` for some sizes).

use std::time::Instant;

use toolscout_indexer::{Ann, flat_top_k};

const DIM: usize = 384;
const K: usize = 50;
const QUERIES: usize = 200;

fn vectors(n: usize, seed: u64) -> Vec<Vec<f32>> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            let v: Vec<f32> = (0..DIM)
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

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let queries = vectors(QUERIES, 7);
    println!("| vectors | HNSW µs/query | flat µs/query | flat / HNSW | HNSW recall@50 vs flat |");
    println!("|---:|---:|---:|---:|---:|");
    // `ANN_SIZES=2000,4000` measures only those sizes.
    let chosen: Option<Vec<usize>> =
        std::env::var("ANN_SIZES").ok().map(|v| v.split(',').filter_map(|n| n.trim().parse().ok()).collect());
    let sizes: &[usize] = match &chosen {
        Some(sizes) => sizes,
        None if std::env::args().any(|a| a == "--bench") => &[500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000],
        None => &[500], // `cargo test --benches`: one small size, to prove it runs
    };
    for &n in sizes {
        let data = vectors(n, n as u64);
        let refs: Vec<&[f32]> = data.iter().map(Vec::as_slice).collect();
        let ann = Ann::build(&refs);
        let (mut hnsw, mut flat, mut overlap) = (Vec::new(), Vec::new(), 0usize);
        for q in &queries {
            let t = Instant::now();
            let a = ann.search(q, K);
            hnsw.push(t.elapsed().as_secs_f64() * 1e6);
            let t = Instant::now();
            let f = flat_top_k(refs.iter().copied(), q, K);
            flat.push(t.elapsed().as_secs_f64() * 1e6);
            overlap += f.iter().filter(|h| a.iter().any(|x| x.id == h.id)).count();
        }
        let (h, f) = (median_us(hnsw), median_us(flat));
        println!("| {n} | {h:.0} | {f:.0} | {:.2} | {:.3} |", f / h, overlap as f64 / (QUERIES * K) as f64);
    }
}
