//! The service's one error type: the caller's mistakes (`BadQuery`, `NotFound`) versus ours.

/// Result with the service's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What can go wrong answering a query or opening an index.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The request cannot be answered as asked (empty query, limit out of range, …). The caller can fix it.
    #[error("{0}")]
    BadQuery(String),
    /// A named server or tool does not exist.
    #[error("{0}")]
    NotFound(String),
    /// The index was built with another embedding model than the one loaded to query it.
    #[error(
        "index was built with model {index}, but the loaded model is {loaded}; rebuild the index or load that model"
    )]
    ModelMismatch {
        /// Model id in the index manifest.
        index: String,
        /// Model id of the loaded embedder.
        loaded: String,
    },
    /// The index's calibration cannot be used (fitted for another model or engine configuration, or names
    /// features this engine does not compute).
    #[error("calibration: {0}")]
    BadCalibration(String),
    /// The engine could not be opened (its index or model), so nothing can be answered; says why.
    #[error("toolscout cannot answer: {0}")]
    Unavailable(String),
    /// Reading the index or embedding failed.
    #[error(transparent)]
    Index(#[from] toolscout_indexer::Error),
}
