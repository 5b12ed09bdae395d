//! Durable file writes: the one place that writes a file so that a crash leaves either the old or the
//! new content, never a torn one (write a temporary file beside it, fsync, rename, fsync the folder).

use std::io::Write;
use std::path::Path;

use crate::{Error, Result};

/// Replaces `path` with `bytes` atomically and durably.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_with(path, |f| f.write_all(bytes))
}

/// Replaces `path` with what `fill` writes, atomically and durably; on any error `path` is untouched and
/// the temporary file is removed.
pub(crate) fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let written = (|| -> Result<()> {
        let mut f = std::fs::File::create(&tmp).map_err(|e| Error::io("creating", &tmp, e))?;
        fill(&mut f).map_err(|e| Error::io("writing", &tmp, e))?;
        f.sync_all().map_err(|e| Error::io("syncing", &tmp, e))?;
        std::fs::rename(&tmp, path).map_err(|e| Error::io("renaming", &tmp, e))
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written?;
    sync_dir(dir);
    Ok(())
}

/// Puts the file `from` of a published snapshot at `to` inside one being built: a hard link (no bytes
/// written; published files are never written again, so both folders may share them), or a copy where the
/// file system cannot link.
pub(crate) fn link_or_copy(from: &Path, to: &Path) -> Result<()> {
    if std::fs::hard_link(from, to).is_ok() {
        return Ok(());
    }
    std::fs::copy(from, to).map(|_| ()).map_err(|e| Error::io("copying", from, e))
}

/// Writes a new file inside a folder that is not published yet (a snapshot being built), synced: `parts`
/// one after the other (so a large file need not be joined in memory first).
pub(crate) fn write_synced(path: &Path, parts: &[&[u8]]) -> Result<()> {
    let mut f = std::fs::File::create(path).map_err(|e| Error::io("creating", path, e))?;
    for bytes in parts {
        f.write_all(bytes).map_err(|e| Error::io("writing", path, e))?;
    }
    f.sync_all().map_err(|e| Error::io("syncing", path, e))
}

/// Makes a rename in `dir` durable (best effort: not every file system can sync a folder).
pub(crate) fn sync_dir(dir: &Path) {
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_whole_and_leaves_the_old_file_when_writing_fails() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("f.json");
        write_atomic(&path, b"one").expect("write");
        write_atomic(&path, b"two").expect("rewrite");
        assert_eq!(std::fs::read(&path).expect("read"), b"two");
        let failed = write_atomic_with(&path, |f| {
            f.write_all(b"half")?;
            Err(std::io::Error::other("disk full"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read(&path).expect("read"), b"two");
        let names: Vec<_> = std::fs::read_dir(dir.path()).expect("ls").flatten().map(|e| e.file_name()).collect();
        assert_eq!(names.len(), 1, "no temporary file left: {names:?}");
    }
}
