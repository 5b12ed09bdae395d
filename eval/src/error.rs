//! The evaluation library's one error type.

use std::path::PathBuf;

/// Result with the evaluation [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What can go wrong evaluating or calibrating.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A query file could not be read.
    #[error("reading {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A query file line is not a valid labelled query.
    #[error("{path} line {line}: {message}")]
    QueryFile {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// No baseline of that name.
    #[error("unknown baseline {0:?} (one of bm25-flat, dense-flat, mcp-zero)")]
    UnknownBaseline(String),
    /// The labelled queries cannot calibrate a decision.
    #[error("calibration: {0}")]
    Calibration(String),
    /// One query failed in the engine.
    #[error("query {id}: {source}")]
    Query {
        /// The query's id.
        id: String,
        /// The engine's error.
        source: toolscout_service::Error,
    },
    /// The engine failed.
    #[error(transparent)]
    Engine(#[from] toolscout_service::Error),
    /// The index or the model failed.
    #[error(transparent)]
    Index(#[from] toolscout_indexer::Error),
    /// A baseline's in-memory BM25 failed.
    #[error("bm25: {0}")]
    Bm25(#[from] tantivy::TantivyError),
}
