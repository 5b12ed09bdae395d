//! The index folder and every file in it. This is the only code that names a path inside an index
//! folder; everything else asks an [`IndexDir`].
//!
//! ```text
//! DIR/CURRENT                 id of the live snapshot (replaced atomically)
//! DIR/HISTORY                 the ids that were live, oldest first (what a rollback goes back to)
//! DIR/snapshots/<id>/         immutable snapshots (see `snapshot.rs` for what is inside)
//! DIR/snapshots/.tmp-<id>-<pid>/  a snapshot being written (removed on the next build once its writer is gone)
//! DIR/pins.json               trust on first use (`pins.rs`)
//! DIR/calibration.json        the fitted found/not-found decision (`calibration.rs`)
//! ```
//! Every file outside the snapshots is written atomically (`atomic.rs`). A file that exists but does not
//! parse is an error naming it, never a silent default.

use std::path::{Path, PathBuf};

use crate::atomic::{sync_dir, write_atomic, write_synced};
use crate::calibration::{CALIBRATION_VERSION, Calibration};
use crate::pins::{PinHashes, Pins};
use crate::{Error, Result};

const CURRENT: &str = "CURRENT";
const HISTORY: &str = "HISTORY";
/// Entries kept in `HISTORY`.
const HISTORY_LEN: usize = 50;
const SNAPSHOTS: &str = "snapshots";
const PINS: &str = "pins.json";
const CALIBRATION: &str = "calibration.json";
const TMP_PREFIX: &str = ".tmp-";

/// An index folder (nothing is read until asked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexDir {
    root: PathBuf,
}

impl IndexDir {
    /// The index folder at `root`.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        IndexDir { root: root.into() }
    }

    /// The folder itself.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Id of the live snapshot.
    pub fn current(&self) -> Result<String> {
        let path = self.root.join(CURRENT);
        match std::fs::read_to_string(&path) {
            Ok(id) => Ok(id.trim().to_string()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(if self.root.is_dir() {
                Error::NotAnIndex {
                    path: self.root.clone(),
                    message: "it has no CURRENT file (build one with `toolscout index`)".into(),
                }
            } else {
                Error::NotAnIndex { path: self.root.clone(), message: "no such folder".into() }
            }),
            Err(e) => Err(Error::io("reading", path, e)),
        }
    }

    /// The folder of snapshot `id`.
    pub fn snapshot(&self, id: &str) -> PathBuf {
        self.root.join(SNAPSHOTS).join(id)
    }

    /// Ids of the finished snapshots, oldest first (ids start with their creation time).
    pub fn snapshots(&self) -> Result<Vec<String>> {
        let dir = self.root.join(SNAPSHOTS);
        let entries = match std::fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(Error::io("reading", dir, e)),
        };
        let mut ids: Vec<String> = entries
            .flatten()
            .filter(|e| e.path().is_dir())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| !n.starts_with('.'))
            .collect();
        ids.sort();
        Ok(ids)
    }

    /// Creates the folder for a first build, refusing one that holds something other than an index.
    pub fn create(&self) -> Result<()> {
        if self.root.exists() {
            let is_index = self.root.join(CURRENT).is_file() || self.root.join(SNAPSHOTS).is_dir();
            let empty =
                std::fs::read_dir(&self.root).map_err(|e| Error::io("reading", &self.root, e))?.next().is_none();
            if !is_index && !empty {
                return Err(Error::bad_input(
                    self.root.display().to_string(),
                    "exists and is not a toolscout index; refusing to write into it",
                ));
            }
        }
        let snapshots = self.root.join(SNAPSHOTS);
        std::fs::create_dir_all(&snapshots).map_err(|e| Error::io("creating", &snapshots, e))
    }

    /// A fresh folder to write snapshot `id` into; [`IndexDir::publish`] makes it live.
    pub(crate) fn staging(&self, id: &str) -> Result<PathBuf> {
        let tmp = self.root.join(SNAPSHOTS).join(format!("{TMP_PREFIX}{id}-{}", std::process::id()));
        std::fs::create_dir_all(&tmp).map_err(|e| Error::io("creating", &tmp, e))?;
        Ok(tmp)
    }

    /// Moves a written staging folder into place as snapshot `id`, then makes it live. A crash before
    /// the last rename leaves the previous snapshot live.
    pub(crate) fn publish(&self, staging: &Path, id: &str) -> Result<()> {
        let final_dir = self.snapshot(id);
        std::fs::rename(staging, &final_dir).map_err(|e| Error::io("renaming", staging, e))?;
        sync_dir(&self.root.join(SNAPSHOTS));
        fault_point("after-snapshot-rename");
        self.set_current(id)
    }

    fn set_current(&self, id: &str) -> Result<()> {
        let mut history = self.history()?;
        if history.last().map(String::as_str) != Some(id) {
            history.push(id.to_string());
        }
        let excess = history.len().saturating_sub(HISTORY_LEN);
        history.drain(..excess);
        self.write_history(&history)?;
        write_atomic(&self.root.join(CURRENT), id.as_bytes())
    }

    /// The ids that were live, oldest first.
    fn history(&self) -> Result<Vec<String>> {
        let text = self.read_optional(HISTORY)?.unwrap_or_default();
        Ok(text.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_string).collect())
    }

    fn write_history(&self, history: &[String]) -> Result<()> {
        write_atomic(&self.root.join(HISTORY), format!("{}\n", history.join("\n")).as_bytes())
    }

    /// Makes the snapshot that was live before the live one live again (one that still exists: a build
    /// that crashed before publishing never counts); returns its id.
    pub fn rollback(&self) -> Result<String> {
        let live = self.current()?;
        let on_disk = self.snapshots()?;
        let mut history = self.history()?;
        while history.last().is_some_and(|h| *h == live) {
            history.pop();
        }
        let previous = history.iter().rev().find(|h| on_disk.contains(h)).cloned().ok_or_else(|| {
            Error::bad_input(self.root.display().to_string(), "has no earlier live snapshot left to roll back to")
        })?;
        // The history now ends at the restored snapshot: a second rollback goes further back.
        let keep = history.iter().rposition(|h| *h == previous).map_or(0, |i| i + 1);
        history.truncate(keep);
        self.write_history(&history)?;
        write_atomic(&self.root.join(CURRENT), previous.as_bytes())?;
        Ok(previous)
    }

    /// Removes staging folders whose writer is gone, and finished snapshots beyond the newest `keep`
    /// (never the live one). Returns what was removed.
    pub fn collect_garbage(&self, keep: usize) -> Vec<String> {
        let mut removed = Vec::new();
        let dir = self.root.join(SNAPSHOTS);
        let Ok(entries) = std::fs::read_dir(&dir) else { return removed };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if let Some(rest) = name.strip_prefix(TMP_PREFIX) {
                let pid = rest.rsplit('-').next().and_then(|p| p.parse::<u32>().ok());
                if pid.is_none_or(|p| !process_alive(p)) && std::fs::remove_dir_all(e.path()).is_ok() {
                    removed.push(name);
                }
            }
        }
        // Keep the live snapshot and the newest `keep - 1` others that were live (rollback targets); a
        // snapshot that was never live (its build crashed before publishing) goes first.
        let live = self.current().ok();
        let history = self.history().unwrap_or_default();
        let ids = self.snapshots().unwrap_or_default();
        let mut kept: Vec<&String> = live.iter().collect();
        for h in history.iter().rev() {
            if kept.len() >= keep.max(1) {
                break;
            }
            if ids.contains(h) && !kept.contains(&h) {
                kept.push(h);
            }
        }
        for id in ids.iter().filter(|id| !kept.contains(id)) {
            if std::fs::remove_dir_all(self.snapshot(id)).is_ok() {
                removed.push(id.clone());
            }
        }
        removed
    }

    /// The trust-on-first-use pins (empty when the file does not exist yet).
    pub fn read_pins(&self) -> Result<Pins> {
        match self.read_optional(PINS)? {
            Some(text) => serde_json::from_str(&text).map_err(|e| self.malformed(PINS, e)),
            None => Ok(Pins::default()),
        }
    }

    /// What a query engine needs of the pins ([`PinHashes`]), without parsing the definitions.
    pub fn read_pin_hashes(&self) -> Result<PinHashes> {
        match self.read_optional(PINS)? {
            Some(text) => serde_json::from_str(&text).map_err(|e| self.malformed(PINS, e)),
            None => Ok(PinHashes::default()),
        }
    }

    /// Replaces the pins.
    pub fn write_pins(&self, pins: &Pins) -> Result<()> {
        let text = serde_json::to_string_pretty(pins).expect("pins serialize");
        write_atomic(&self.root.join(PINS), text.as_bytes())
    }

    /// The calibration, if the index has one. A file of another version, or one that does not parse, is
    /// an error naming it.
    pub fn read_calibration(&self) -> Result<Option<Calibration>> {
        let Some(text) = self.read_optional(CALIBRATION)? else { return Ok(None) };
        let probe: serde_json::Value = serde_json::from_str(&text).map_err(|e| self.malformed(CALIBRATION, e))?;
        let version = probe.get("version").and_then(serde_json::Value::as_u64).unwrap_or(0) as u32;
        if version != CALIBRATION_VERSION {
            return Err(Error::StaleFile {
                path: self.root.join(CALIBRATION),
                message: format!(
                    "version {version}, this build reads version {CALIBRATION_VERSION}; run `toolscout calibrate` again"
                ),
            });
        }
        serde_json::from_value(probe).map(Some).map_err(|e| self.malformed(CALIBRATION, e))
    }

    /// Replaces the calibration.
    pub fn write_calibration(&self, calibration: &Calibration) -> Result<()> {
        write_atomic(&self.root.join(CALIBRATION), calibration.to_json().as_bytes())
    }

    /// Where the calibration lives (for messages).
    pub fn calibration_path(&self) -> PathBuf {
        self.root.join(CALIBRATION)
    }

    fn read_optional(&self, name: &str) -> Result<Option<String>> {
        let path = self.root.join(name);
        match std::fs::read_to_string(&path) {
            Ok(text) => Ok(Some(text)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Error::io("reading", path, e)),
        }
    }

    fn malformed(&self, name: &str, e: serde_json::Error) -> Error {
        Error::StaleFile { path: self.root.join(name), message: format!("does not parse: {e}") }
    }
}

/// Writes a file into a staging folder (not yet published).
pub(crate) fn write_staged(path: &Path, bytes: &[u8]) -> Result<()> {
    write_synced(path, &[bytes])
}

/// Writes a file into a staging folder from `parts`, one after the other.
pub(crate) fn write_staged_parts(path: &Path, parts: &[&[u8]]) -> Result<()> {
    write_synced(path, parts)
}

fn process_alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    // Signal 0 checks existence without sending anything.
    let Ok(pid) = i32::try_from(pid) else { return false };
    // SAFETY: kill(2) with signal 0 has no effect on the target; it only reports whether it exists.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// Test-only crash point: when `TOOLSCOUT_FAULT` names `point`, the process exits at once (as a kill
/// would), so tests can stop a build inside its publish window.
pub(crate) fn fault_point(point: &str) {
    if std::env::var("TOOLSCOUT_FAULT").is_ok_and(|v| v == point) {
        eprintln!("toolscout: fault point {point} reached, exiting");
        std::process::exit(86);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_missing_folders_and_malformed_files() {
        let dir = tempfile::tempdir().expect("tempdir");
        let missing = IndexDir::new(dir.path().join("nope"));
        assert!(missing.current().expect_err("missing").to_string().contains("no such folder"));
        let index = IndexDir::new(dir.path());
        assert!(index.current().expect_err("empty").to_string().contains("no CURRENT"));
        assert_eq!(index.read_calibration().expect("none"), None);
        std::fs::write(index.calibration_path(), "{not json").expect("write");
        let e = index.read_calibration().expect_err("malformed").to_string();
        assert!(e.contains("calibration.json") && e.contains("does not parse"), "{e}");
        std::fs::write(index.calibration_path(), r#"{"threshold": 0.42}"#).expect("write");
        let e = index.read_calibration().expect_err("old version").to_string();
        assert!(e.contains("calibration.json") && e.contains("version 0"), "{e}");
        std::fs::write(dir.path().join(PINS), "[]").expect("write");
        assert!(index.read_pins().expect_err("bad pins").to_string().contains("pins.json"));
    }

    #[test]
    fn rollback_and_garbage_collection() {
        let dir = tempfile::tempdir().expect("tempdir");
        let index = IndexDir::new(dir.path());
        index.create().expect("create");
        for id in ["20260101-a", "20260102-b", "20260103-c"] {
            let staging = index.staging(id).expect("staging");
            index.publish(&staging, id).expect("publish");
        }
        // A build that crashed after renaming its snapshot but before publishing it leaves a snapshot that
        // was never live: rollback skips it.
        std::fs::create_dir_all(dir.path().join(SNAPSHOTS).join("20260104-crashed")).expect("orphan");
        assert_eq!(index.current().expect("current"), "20260103-c");
        assert_eq!(index.rollback().expect("rollback"), "20260102-b");
        assert_eq!(index.rollback().expect("rollback again"), "20260101-a");
        // A staging folder of a dead writer is removed, and so is the never-live snapshot; the live one
        // survives pruning even when it is the oldest.
        std::fs::create_dir_all(dir.path().join(SNAPSHOTS).join(".tmp-x-999999999")).expect("stale");
        let removed = index.collect_garbage(1);
        assert!(removed.contains(&".tmp-x-999999999".to_string()), "{removed:?}");
        assert!(removed.contains(&"20260104-crashed".to_string()), "{removed:?}");
        assert_eq!(index.snapshots().expect("ids"), ["20260101-a"]);
        assert!(index.rollback().expect_err("nothing older").to_string().contains("earlier"));
    }
}
