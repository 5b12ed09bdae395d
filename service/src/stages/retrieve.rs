//! Stage 1: candidate generation. For each pass text: servers by dense cosine and BM25 (fused at the
//! server level), then tools: every tool of the top servers and of hinted servers, plus the global
//! dense (exact scan below `FLAT_BELOW` vectors, HNSW above) and BM25 passes over all tools, so a
//! server-level miss is recoverable.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};

use toolscout_indexer::Snapshot;

use crate::Result;
use crate::engine::EngineConfig;
use crate::fusion::saturate;

/// Server candidates taken from the server ANN and BM25 of each pass.
const SERVER_CANDIDATES: usize = 30;

/// What one retrieval pass measured.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Pass {
    /// Its embedding.
    pub vector: Vec<f32>,
    /// Raw server BM25 scores.
    pub server_bm25: HashMap<usize, f32>,
    /// Raw tool BM25 scores.
    pub tool_bm25: HashMap<usize, f32>,
    /// Best servers, with their server-level score.
    pub servers: Vec<(usize, f32)>,
    /// Tools worth scoring.
    pub candidates: HashSet<usize>,
}

/// Requests being prepared (embedded and retrieved) in this process right now.
static PREPARING: AtomicUsize = AtomicUsize::new(0);

/// Counts a request as being prepared while it lives.
pub(crate) struct Preparing;

impl Preparing {
    /// Counts one more request in preparation, until dropped.
    pub(crate) fn enter() -> Preparing {
        PREPARING.fetch_add(1, Ordering::Relaxed);
        Preparing
    }
}

impl Drop for Preparing {
    fn drop(&mut self) {
        PREPARING.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Runs one pass per `(text, vector)`, in order. Passes are independent, so when no other request is
/// being prepared (the cores are idle), a request of several (its intents, a respelled or unquoted form)
/// runs them on up to as many threads as the machine has cores: a long request's passes no longer add up.
/// Under load they run one after another on the request's thread, where extra threads would only take
/// the cores from other requests (BENCHMARKS.md "Passes side by side, when the cores are idle").
pub(crate) fn retrieve(
    snap: &Snapshot,
    config: &EngineConfig,
    texts: &[String],
    vectors: Vec<Vec<f32>>,
    hinted: &HashSet<usize>,
) -> Result<Vec<Pass>> {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let cores = *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from));
    let alone = PREPARING.load(Ordering::Relaxed) <= 1;
    retrieve_on(if alone { cores } else { 1 }, snap, config, texts, vectors, hinted)
}

/// [`retrieve`] on at most `workers` threads (this one included).
fn retrieve_on(
    workers: usize,
    snap: &Snapshot,
    config: &EngineConfig,
    texts: &[String],
    vectors: Vec<Vec<f32>>,
    hinted: &HashSet<usize>,
) -> Result<Vec<Pass>> {
    let workers = workers.min(texts.len());
    let run = |jobs: Vec<(usize, &String, Vec<f32>)>| -> Result<Vec<(usize, Pass)>> {
        jobs.into_iter().map(|(i, text, vector)| Ok((i, pass(snap, config, text, vector, hinted)?))).collect()
    };
    let workers = workers.max(1);
    let mut shares: Vec<Vec<(usize, &String, Vec<f32>)>> = (0..workers).map(|_| Vec::new()).collect();
    for (i, (text, vector)) in texts.iter().zip(vectors).enumerate() {
        shares[i % workers].push((i, text, vector));
    }
    let mine = shares.remove(0);
    let mut done = if shares.is_empty() {
        run(mine)?
    } else {
        std::thread::scope(|scope| -> Result<Vec<(usize, Pass)>> {
            let others: Vec<_> = shares.into_iter().map(|share| scope.spawn(move || run(share))).collect();
            let mut done = run(mine)?;
            for other in others {
                // A pass that panicked panics the request, as it would have run on this thread.
                done.extend(other.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))?);
            }
            Ok(done)
        })?
    };
    done.sort_by_key(|&(i, _)| i);
    Ok(done.into_iter().map(|(_, p)| p).collect())
}

#[tracing::instrument(level = "debug", skip_all, fields(chars = text.len()))]
fn pass(snap: &Snapshot, config: &EngineConfig, text: &str, vector: Vec<f32>, hinted: &HashSet<usize>) -> Result<Pass> {
    let w = &config.weights;
    let server_bm25: HashMap<usize, f32> =
        snap.server_bm25.search(text, SERVER_CANDIDATES)?.into_iter().map(|h| (h.id as usize, h.score)).collect();
    let mut server_set: HashSet<usize> =
        snap.nearest_servers(&vector, SERVER_CANDIDATES).iter().map(|h| h.id as usize).collect();
    server_set.extend(server_bm25.keys());
    server_set.extend(hinted);
    let server_weight = (w.server_dense + w.server_bm25).max(f32::EPSILON);
    let mut servers: Vec<(usize, f32)> = server_set
        .into_iter()
        .map(|i| {
            let score = (w.server_dense * snap.server_cosine(&vector, i)
                + w.server_bm25 * saturate(server_bm25.get(&i).copied().unwrap_or(0.0), w.bm25_k))
                / server_weight;
            (i, score)
        })
        .collect();
    servers.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    servers.truncate(config.top_servers.max(1));

    let tool_bm25: HashMap<usize, f32> =
        snap.tool_bm25.search(text, config.global_tools * 2)?.into_iter().map(|h| (h.id as usize, h.score)).collect();
    let mut candidates: HashSet<usize> = HashSet::new();
    for &(s, _) in &servers {
        candidates.extend(snap.server_tools(s));
    }
    for &s in hinted {
        candidates.extend(snap.server_tools(s));
    }
    candidates.extend(snap.nearest_tools(&vector, config.global_tools).iter().map(|h| h.id as usize));
    let mut by_bm25: Vec<(&usize, &f32)> = tool_bm25.iter().collect();
    by_bm25.sort_by(|a, b| b.1.total_cmp(a.1).then(a.0.cmp(b.0)));
    candidates.extend(by_bm25.iter().take(config.global_tools).map(|(i, _)| **i));
    Ok(Pass { vector, server_bm25, tool_bm25, servers, candidates })
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolscout_indexer::IndexDir;

    #[test]
    fn passes_side_by_side_are_the_passes_one_after_another() {
        let dir = tempfile::tempdir().expect("tempdir");
        let embedder = toolscout_test_support::hash_embedder();
        toolscout_test_support::index_of(&toolscout_test_support::reference_catalog(), dir.path(), embedder.as_ref());
        let snap = Snapshot::open(&IndexDir::new(dir.path())).expect("snapshot");
        let texts: Vec<String> = [
            "read a file and then search the web",
            "read a file",
            "search the web",
            "take a screenshot of the page",
            "store a memory about the user",
        ]
        .map(String::from)
        .to_vec();
        let vectors: Vec<Vec<f32>> = texts.iter().map(|t| embedder.embed_query(t).expect("embeds")).collect();
        let config = EngineConfig::default();
        let hinted = HashSet::from([0]);
        let one = retrieve_on(1, &snap, &config, &texts, vectors.clone(), &hinted).expect("retrieves");
        assert_eq!(one.len(), texts.len());
        assert!(one.iter().all(|p| !p.candidates.is_empty()), "every pass finds candidates");
        for workers in [2, 3, 8] {
            let many = retrieve_on(workers, &snap, &config, &texts, vectors.clone(), &hinted).expect("retrieves");
            assert_eq!(many, one, "{workers} threads: the same passes, in the same order");
        }
    }
}
