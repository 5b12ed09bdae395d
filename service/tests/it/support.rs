//! A shared engine over the reference catalog, built once per test binary (with the real model).

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
