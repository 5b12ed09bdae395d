//! The indexer's one error type. Variants say whose problem it is: the input's, a server's, or the index's.

use std::path::PathBuf;

/// Result with the indexer's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong while reading catalogs, crawling, embedding or reading/writing an index.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read or written.
    #[error("{action} {path}: {source}")]
    Io {
        /// What we were doing ("reading", "writing", …).
        action: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// Input data (a catalog, a config file) is not what its format requires.
    #[error("bad input {what}: {message}")]
    BadInput {
        /// Which input ("catalog line 12", "mcpServers config", …).
        what: String,
        /// What is wrong with it.
        message: String,
    },
    /// The embedding model could not be loaded or failed on input.
    #[error("embedding model: {0}")]
    Embed(String),
    /// An index on disk is damaged or inconsistent.
    #[error("index at {path} is corrupt: {message}")]
    IndexCorrupt {
        /// The index folder.
        path: PathBuf,
        /// What check failed.
        message: String,
    },
    /// A path given as an index folder is not one.
    #[error("{path} is not a toolscout index: {message}")]
    NotAnIndex {
        /// The folder.
        path: PathBuf,
        /// What is missing.
        message: String,
    },
    /// A file in the index folder is malformed, of another version, or fitted for something else.
    #[error("{path}: {message}")]
    StaleFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// An update would remove more of the live index's tools than allowed.
    #[error(
        "this update would remove {removed} of the live index's {live} tools (more than {:.0}%): refusing, the live \
         snapshot is unchanged. A partial crawl keeps failed servers as stale records; if the removal is meant, \
         rerun with --allow-mass-removal",
        share * 100.0
    )]
    MassRemoval {
        /// Tools the update would remove.
        removed: usize,
        /// Tools in the live snapshot.
        live: usize,
        /// The share allowed.
        share: f64,
    },
    /// An index was written by an incompatible version of toolscout.
    #[error(
        "index format version {found} is not supported (expected {expected}); update the index with `toolscout \
         index` (a format-5 index keeps its vectors: nothing is embedded again)"
    )]
    FormatVersion {
        /// Version found in the manifest.
        found: u32,
        /// Version this build reads.
        expected: u32,
    },
    /// The BM25 engine failed.
    #[error("bm25 index: {0}")]
    Bm25(#[from] tantivy::TantivyError),
}

impl Error {
    pub(crate) fn io(action: &'static str, path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io { action, path: path.into(), source }
    }

    pub(crate) fn bad_input(what: impl Into<String>, message: impl Into<String>) -> Self {
        Error::BadInput { what: what.into(), message: message.into() }
    }

    pub(crate) fn corrupt(path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Error::IndexCorrupt { path: path.into(), message: message.into() }
    }
}
