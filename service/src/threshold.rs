//! The not-found decision: a cut on the fused score of the best tool.
//!
//! The value comes from `calibration.json` in the index folder when there is one (written by the
//! calibration command from labelled queries), else from the built-in default, and can be overridden by
//! configuration. Which one is in force is reported with every answer.

use std::path::Path;

use serde::{Deserialize, Serialize};

/// Built-in default cut, used when the index has no calibration: see BENCHMARKS.md for how it was measured.
pub const DEFAULT_THRESHOLD: f32 = 0.235;
const CALIBRATION: &str = "calibration.json";

/// The threshold in force and where it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Threshold {
    /// Answers whose best fused score is below this are `not_found`.
    pub value: f32,
    /// `default`, `calibration.json`, or `config`.
    pub source: String,
}

impl Threshold {
    /// The threshold for the index at `index_dir`: `overridden` if given, else its calibration, else default.
    pub fn for_index(index_dir: &Path, overridden: Option<f32>) -> Threshold {
        if let Some(value) = overridden {
            return Threshold { value, source: "config".into() };
        }
        let file = index_dir.join(CALIBRATION);
        let calibrated = std::fs::read_to_string(&file)
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|v| v.get("threshold").and_then(serde_json::Value::as_f64));
        match calibrated {
            Some(v) => Threshold { value: v as f32, source: CALIBRATION.into() },
            None => Threshold { value: DEFAULT_THRESHOLD, source: "default".into() },
        }
    }

    /// Whether a best score means "found".
    pub fn accepts(&self, best: f32) -> bool {
        best >= self.value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn override_then_calibration_then_default() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert_eq!(Threshold::for_index(dir.path(), None).source, "default");
        std::fs::write(dir.path().join(CALIBRATION), r#"{"threshold": 0.42}"#).expect("write");
        let t = Threshold::for_index(dir.path(), None);
        assert_eq!((t.value, t.source.as_str()), (0.42, "calibration.json"));
        assert_eq!(Threshold::for_index(dir.path(), Some(0.1)).value, 0.1);
        assert!(t.accepts(0.42) && !t.accepts(0.41));
    }
}
