//! A shared engine over the reference catalog, built once per test binary.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use toolscout_indexer::{BuildOptions, Embedder, EmbedderConfig, build, import_catalog};
use toolscout_service::{Engine, EngineConfig};

pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

fn deps() -> PathBuf {
    std::env::var_os("TOOLSCOUT_DEPS").map(PathBuf::from).unwrap_or_else(|| root().join(".deps"))
}

pub(crate) fn embedder() -> Arc<Embedder> {
    static MODEL: OnceLock<Arc<Embedder>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            let config = EmbedderConfig::installed(&deps());
            Arc::new(Embedder::load(&config).expect("embedding model (run scripts/setup-models.sh)"))
        })
        .clone()
}

/// The index of the reference catalog (rebuilt incrementally at each run: cheap when unchanged).
pub(crate) fn index_dir() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("reference-index");
        let (catalog, _) = import_catalog(&root().join("data/catalog/reference-servers.jsonl"), None).expect("fixture");
        build(&catalog, &embedder(), &dir, &BuildOptions::default()).expect("build index");
        dir
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
