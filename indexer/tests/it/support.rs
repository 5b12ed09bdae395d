//! Where the test dependencies are, and a shared embedding model.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use toolscout_indexer::{Embedder, EmbedderConfig};

/// The repository root.
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("crate sits in the workspace root").to_path_buf()
}

/// `../shared` beside the repository (public datasets).
pub(crate) fn shared() -> PathBuf {
    let dir = std::env::var_os("TOOLSCOUT_SHARED").map(PathBuf::from).unwrap_or_else(|| root().join("../shared"));
    assert!(dir.join("data").is_dir(), "shared data not found at {} (set TOOLSCOUT_SHARED)", dir.display());
    dir
}

/// The folder the setup scripts install into.
pub(crate) fn deps() -> PathBuf {
    std::env::var_os("TOOLSCOUT_DEPS").map(PathBuf::from).unwrap_or_else(|| root().join(".deps"))
}

/// The real embedding model, loaded once per test binary.
pub(crate) fn embedder() -> Arc<Embedder> {
    static MODEL: OnceLock<Arc<Embedder>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            let config = EmbedderConfig::installed(&deps());
            Arc::new(Embedder::load(&config).expect("embedding model (run scripts/setup-models.sh)"))
        })
        .clone()
}
