//! What every test suite of toolscout needs: where the repository, the installed model and the public
//! datasets are, the real embedding model (loaded once per test binary), a deterministic model-free
//! embedder, and indexes built from the committed fixtures. Dev-only.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use toolscout_indexer::{
    BuildOptions, Embedder, EmbedderConfig, FastEmbedder, HashEmbedder, IndexDir, build, import_catalog,
};

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("crate sits in the workspace root").to_path_buf()
}

/// The folder the setup scripts install into (`TOOLSCOUT_DEPS`, default `.deps`).
pub fn deps() -> PathBuf {
    std::env::var_os("TOOLSCOUT_DEPS").map(PathBuf::from).unwrap_or_else(|| root().join(".deps"))
}

/// `../shared` beside the repository (public datasets), or `TOOLSCOUT_SHARED`. Panics with the path it
/// looked at when it is missing, so a contributor without it knows what to provide.
pub fn shared() -> PathBuf {
    let dir = std::env::var_os("TOOLSCOUT_SHARED").map(PathBuf::from).unwrap_or_else(|| root().join("../shared"));
    assert!(
        dir.join("data").is_dir(),
        "the public datasets are not at {} (this test reads ../shared/data beside the repository; set \
         TOOLSCOUT_SHARED to where they are)",
        dir.display()
    );
    dir
}

/// The real embedding model, loaded once per test binary.
pub fn embedder() -> Arc<dyn Embedder> {
    static MODEL: OnceLock<Arc<dyn Embedder>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            let config = EmbedderConfig::installed(&deps());
            Arc::new(FastEmbedder::load(&config).expect("embedding model (run scripts/setup-models.sh)"))
        })
        .clone()
}

/// The deterministic model-free embedder (64 dimensions).
pub fn hash_embedder() -> Arc<dyn Embedder> {
    Arc::new(HashEmbedder::new(64))
}

/// The folder, under a target's temporary folder (`CARGO_TARGET_TMPDIR`, the same for every member of
/// the workspace), of the index of the public catalog called `name` built with [`embedder`]. Every test
/// and bench that indexes that catalog uses it, so a clean run embeds each catalog once: the quick gate
/// and the search bench share MCP-Zero's (3,100 documents, minutes in a debug build), the build and
/// search benches LiveMCPBench's. Builds are incremental, so a later user only checks it. Cargo runs one
/// test or bench binary at a time, so no two processes write one folder at once (the A/B benchmark's
/// LLM test, which `scripts/test.sh` runs beside the others, uses folders of its own).
pub fn catalog_index_dir(tmp: &Path, name: &str) -> PathBuf {
    tmp.join(format!("index-{name}"))
}

/// Builds (incrementally: cheap when unchanged) an index of the catalog file `catalog` at `dir`.
pub fn index_of(catalog: &Path, dir: &Path, embedder: &dyn Embedder) -> PathBuf {
    let (catalog, _) = import_catalog(catalog, None).unwrap_or_else(|e| panic!("{}: {e}", catalog.display()));
    build(&catalog, embedder, &IndexDir::new(dir), &BuildOptions::default()).expect("build index");
    dir.to_path_buf()
}

/// An index of `catalog` built with the model-free [`hash_embedder`] at `dir`, with a calibration that
/// decides by the tool cosine alone (`p = σ(12 · (cos − 0.35))`, found from 0.5), fitted for that model
/// and the engine configuration whose fingerprint is `engine`: ranking, decision, delivery and the wire
/// shapes are then exactly reproducible without ONNX Runtime.
pub fn hashed_index(catalog: &Path, dir: &Path, engine: &str) -> PathBuf {
    index_of(catalog, dir, hash_embedder().as_ref());
    let calibration = toolscout_indexer::Calibration {
        version: toolscout_indexer::CALIBRATION_VERSION,
        model_id: hash_embedder().model_id().to_string(),
        engine: engine.to_string(),
        decision: toolscout_indexer::DecisionModel {
            features: vec!["tool_dense".into()],
            weights: vec![12.0],
            bias: -4.2,
            tool_cut: 0.2,
            relative_cut: 0.0,
            request_cut: 0.5,
            foreign_request_cut: None,
            trees: None,
            trees_share: None,
            catalog_sizes: None,
        },
        fitted: toolscout_indexer::FitSummary::default(),
    };
    IndexDir::new(dir).write_calibration(&calibration).expect("write calibration");
    dir.to_path_buf()
}

/// The committed real crawl of 14 npm servers.
pub fn reference_catalog() -> PathBuf {
    root().join("data/catalog/reference-servers.jsonl")
}
