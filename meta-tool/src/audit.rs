//! The audit trail of proxied calls: one JSON line per call attempt (forwarded or refused), in daily
//! files `audit.YYYY-MM-DD.jsonl` (tracing-appender's rolling writer; the newest `keep_days` files are
//! kept), and counters for `/metrics`.
//!
//! A line: `time`, `session`, `profile`, `server`, `tool`, `class`, `arguments_sha256` (of the
//! arguments' canonical JSON), `arguments` (only when the profile's `log_arguments` is set: they may hold
//! personal data), `outcome` (`ok`, `tool_error`, `failed`, `refused`, `declined`), `detail` (why, for
//! anything but `ok`), `duration_ms`, `confirmed` (whether a person confirmed it; absent when no
//! confirmation was needed).

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Mutex;

use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};
use toolscout_service::{AuditConfig, EffectClass};
use tracing_appender::rolling::{RollingFileAppender, Rotation};

/// One audited call.
#[derive(Debug, Clone, Serialize)]
pub struct AuditRecord {
    /// When the call was decided (RFC 3339, UTC).
    pub time: String,
    /// The MCP session.
    pub session: String,
    /// The policy profile in force.
    pub profile: String,
    /// Server id.
    pub server: String,
    /// Tool name.
    pub tool: String,
    /// Risk class.
    pub class: EffectClass,
    /// SHA-256 of the arguments' canonical JSON.
    pub arguments_sha256: String,
    /// The arguments, when the profile logs them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Value>,
    /// What happened.
    pub outcome: Outcome,
    /// Why, when not `ok`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Time spent, confirmation included.
    pub duration_ms: u64,
    /// Whether a person confirmed the call (absent when none was needed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confirmed: Option<bool>,
}

/// What became of a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Forwarded and answered.
    Ok,
    /// Forwarded; the server answered with a tool error.
    ToolError,
    /// Forwarded; the call failed (timeout, server gone, result too large).
    Failed,
    /// Not forwarded: policy, limits or a loop.
    Refused,
    /// Not forwarded: the person declined (or could not be asked).
    Declined,
}

impl Outcome {
    fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::ToolError => "tool_error",
            Outcome::Failed => "failed",
            Outcome::Refused => "refused",
            Outcome::Declined => "declined",
        }
    }
}

/// The audit writer and its counters.
pub struct Audit {
    writer: Option<Mutex<RollingFileAppender>>,
    counts: Mutex<BTreeMap<(Outcome, EffectClass), u64>>,
}

impl std::fmt::Debug for Audit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Audit").field("to_file", &self.writer.is_some()).finish()
    }
}

impl Audit {
    /// Writes to daily files under `config.dir` (created if missing).
    pub fn to_files(config: &AuditConfig) -> Result<Audit, String> {
        std::fs::create_dir_all(&config.dir).map_err(|e| format!("audit folder {}: {e}", config.dir.display()))?;
        let writer = RollingFileAppender::builder()
            .rotation(Rotation::DAILY)
            .filename_prefix("audit")
            .filename_suffix("jsonl")
            .max_log_files(config.keep_days.max(1))
            .build(&config.dir)
            .map_err(|e| format!("audit folder {}: {e}", config.dir.display()))?;
        Ok(Audit { writer: Some(Mutex::new(writer)), counts: Mutex::default() })
    }

    /// Counts only (no policy file named an audit folder).
    pub fn counting_only() -> Audit {
        Audit { writer: None, counts: Mutex::default() }
    }

    /// Records one call: a line in the file (flushed at once) and a count.
    pub fn record(&self, record: &AuditRecord) {
        *self.counts.lock().unwrap_or_else(|e| e.into_inner()).entry((record.outcome, record.class)).or_default() += 1;
        if let Some(writer) = &self.writer {
            let mut line = serde_json::to_vec(record).expect("an audit record serializes");
            line.push(b'\n');
            let mut w = writer.lock().unwrap_or_else(|e| e.into_inner());
            if let Err(e) = w.write_all(&line).and_then(|()| w.flush()) {
                tracing::error!("audit line not written: {e}");
            }
        }
    }

    /// `toolscout_proxied_calls_total{outcome, class}` in Prometheus text format.
    pub fn metrics(&self) -> String {
        let mut out = String::from(
            "# HELP toolscout_proxied_calls_total Calls through call_tool, by outcome and risk class.\n\
             # TYPE toolscout_proxied_calls_total counter\n",
        );
        for ((outcome, class), n) in self.counts.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            out.push_str(&format!(
                "toolscout_proxied_calls_total{{outcome=\"{}\",class=\"{class}\"}} {n}\n",
                outcome.as_str()
            ));
        }
        out
    }
}

/// SHA-256 (hex) of a JSON value's canonical text (keys sorted), so the same arguments give the same
/// digest whatever their order.
pub(crate) fn digest(value: &Value) -> String {
    let canonical = toolscout_indexer::canonical_json(value);
    Sha256::digest(canonical.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// Now, as RFC 3339 with milliseconds (UTC).
pub(crate) fn now() -> String {
    humantime::format_rfc3339_millis(std::time::SystemTime::now()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn digests_ignore_key_order_and_metrics_count() {
        assert_eq!(digest(&json!({"a": 1, "b": [2]})), digest(&json!({"b": [2], "a": 1})));
        assert_ne!(digest(&json!({"a": 1})), digest(&json!({"a": 2})));
        let audit = Audit::counting_only();
        let record = AuditRecord {
            time: now(),
            session: "s".into(),
            profile: "p".into(),
            server: "memory".into(),
            tool: "read_graph".into(),
            class: EffectClass::Read,
            arguments_sha256: digest(&json!({})),
            arguments: None,
            outcome: Outcome::Ok,
            detail: None,
            duration_ms: 1,
            confirmed: None,
        };
        audit.record(&record);
        audit.record(&record);
        assert!(audit.metrics().contains("toolscout_proxied_calls_total{outcome=\"ok\",class=\"read\"} 2"));
    }
}
