//! A shared engine over the reference catalog, built once per test binary (with the real model); and an
//! engine over a few catalog lines a test writes, with the hashed embedder.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use toolscout_service::{Engine, EngineConfig};
pub(crate) use toolscout_test_support::{embedder, root};

/// The index of the reference catalog (rebuilt incrementally at each run: cheap when unchanged).
pub(crate) fn index_dir() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("reference-index");
        toolscout_test_support::index_of(&toolscout_test_support::reference_catalog(), &dir, embedder().as_ref())
    })
    .clone()
}

pub(crate) fn engine() -> Arc<Engine> {
    static ENGINE: OnceLock<Arc<Engine>> = OnceLock::new();
    ENGINE
        .get_or_init(|| {
            Arc::new(Engine::with_embedder(&index_dir(), embedder(), EngineConfig::default()).expect("engine"))
        })
        .clone()
}

/// An engine over `lines` (catalog JSONL, one server per line) with the hashed embedder and the default
/// configuration; the folder holding its index lives as long as the returned guard.
pub(crate) fn hashed_engine(lines: &[String]) -> (tempfile::TempDir, Arc<Engine>) {
    let scratch = tempfile::tempdir().expect("tempdir");
    let catalog = scratch.path().join("catalog.jsonl");
    std::fs::write(&catalog, lines.join("\n") + "\n").expect("write");
    let config = EngineConfig::default();
    let dir = toolscout_test_support::hashed_index(&catalog, &scratch.path().join("idx"), &config.fingerprint());
    let engine = Engine::with_embedder(&dir, toolscout_test_support::hash_embedder(), config).expect("engine");
    (scratch, Arc::new(engine))
}
