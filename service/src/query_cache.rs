//! Recent query vectors, so a repeated request (or intent) is not embedded again.

use std::collections::HashMap;
use std::sync::Mutex;

/// Most vectors kept before the cache is cleared.
const CAPACITY: usize = 4096;

/// Query text → vector.
#[derive(Debug, Default)]
pub(crate) struct QueryCache {
    vectors: Mutex<HashMap<String, Vec<f32>>>,
}

impl QueryCache {
    /// The cached vector of `text`.
    pub(crate) fn get(&self, text: &str) -> Option<Vec<f32>> {
        self.vectors.lock().ok().and_then(|c| c.get(text).cloned())
    }

    /// Remembers `vector` for `text` (clearing everything when full).
    pub(crate) fn put(&self, text: &str, vector: &[f32]) {
        if let Ok(mut c) = self.vectors.lock() {
            if c.len() >= CAPACITY {
                c.clear();
            }
            c.insert(text.to_string(), vector.to_vec());
        }
    }

    /// Forgets everything (so a benchmark can time embedding again).
    pub(crate) fn clear(&self) {
        if let Ok(mut c) = self.vectors.lock() {
            c.clear();
        }
    }
}
