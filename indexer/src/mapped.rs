//! A read-only, memory-mapped snapshot file: the large parts of a snapshot (vectors, tool objects) are read
//! in place, so a page is resident only once a query touched it, and the kernel may drop it again.

use std::path::Path;

use memmap2::Mmap;

use crate::{Error, Result};

#[cfg(target_endian = "big")]
compile_error!("snapshots store vectors as little-endian f32 and read them in place");

/// One mapped file (an empty file maps to nothing).
pub(crate) struct Mapped {
    map: Option<Mmap>,
}

impl Mapped {
    /// Maps `path` read-only.
    pub(crate) fn open(path: &Path) -> Result<Mapped> {
        let file = std::fs::File::open(path).map_err(|e| Error::io("opening", path, e))?;
        let len = file.metadata().map_err(|e| Error::io("reading", path, e))?.len();
        if len == 0 {
            return Ok(Mapped { map: None });
        }
        // SAFETY: a snapshot folder is immutable once written (builds write new folders; garbage collection
        // removes whole folders, which leaves existing maps intact), and its checksums were verified at open.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| Error::io("mapping", path, e))?;
        Ok(Mapped { map: Some(map) })
    }

    /// The file's bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        self.map.as_deref().unwrap_or(&[])
    }

    /// The file as little-endian `f32`s, or `None` when its length is not a multiple of four.
    pub(crate) fn floats(&self) -> Option<&[f32]> {
        match self.bytes() {
            [] => Some(&[]), // an empty slice's dangling pointer need not be aligned for f32
            bytes => bytemuck::try_cast_slice(bytes).ok(),
        }
    }
}

/// `values` as the bytes [`Mapped::floats`] reads back.
pub(crate) fn float_bytes(values: &[f32]) -> &[u8] {
    bytemuck::cast_slice(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_round_trip_and_empty_files_map_to_nothing() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("v.f32");
        let values = [0.5f32, -1.25, 3.0e-7, f32::MAX];
        std::fs::write(&path, float_bytes(&values)).expect("write");
        assert_eq!(Mapped::open(&path).expect("map").floats(), Some(&values[..]));
        std::fs::write(&path, [1u8, 2, 3]).expect("write");
        assert_eq!(Mapped::open(&path).expect("map").floats(), None, "a length not a multiple of four");
        std::fs::write(&path, []).expect("write");
        let empty = Mapped::open(&path).expect("map");
        assert!(empty.bytes().is_empty());
        assert_eq!(empty.floats(), Some(&[][..]));
    }
}
