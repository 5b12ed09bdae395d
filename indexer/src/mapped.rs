//! A read-only, memory-mapped snapshot file: the large parts of a snapshot (vectors, tool objects) are read
//! in place, so a page is resident only once a query touched it, and the kernel may drop it again.

use std::path::Path;

use memmap2::Mmap;

use crate::{Error, Result};

#[cfg(target_endian = "big")]
compile_error!("snapshots store vectors as little-endian halves and read them in place");

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

    /// Tells the kernel the file is read here and there from now on (a query reads a few hundred vectors
    /// or tool objects spread over the file): no read-ahead around each page a read faults in, so the
    /// process holds the pages it read, not their neighbours too.
    pub(crate) fn expect_random_reads(&self) {
        let Some(map) = &self.map else { return };
        if let Err(e) = map.advise(memmap2::Advice::Random) {
            tracing::debug!("madvise(RANDOM) refused: {e}");
        }
    }

    /// The file's bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        self.map.as_deref().unwrap_or(&[])
    }

    /// Hands the pages a reader touched back to the kernel: the process's resident set shrinks by them, and
    /// a later read faults them in again from the file, with the same bytes. For data read whole once
    /// (at load) and then only here and there.
    pub(crate) fn release_resident(&self) {
        let Some(map) = &self.map else { return };
        // SAFETY: a read-only, shared mapping of a file nobody writes (see `open`): MADV_DONTNEED only drops
        // this process's page-table entries, and the next access maps the unchanged file page again, so
        // every outstanding borrow keeps reading the same bytes.
        if let Err(e) = unsafe { map.unchecked_advise(memmap2::UncheckedAdvice::DontNeed) } {
            tracing::debug!("madvise(DONTNEED) refused: {e}");
        }
    }

    /// The file as little-endian halves (IEEE binary16), or `None` when its length is odd.
    pub(crate) fn halves(&self) -> Option<&[half::f16]> {
        match self.bytes() {
            [] => Some(&[]), // an empty slice's dangling pointer need not be aligned
            bytes => bytemuck::try_cast_slice(bytes).ok(),
        }
    }

    /// The file as little-endian `f32`s, or `None` when its length is not a multiple of four.
    pub(crate) fn floats(&self) -> Option<&[f32]> {
        match self.bytes() {
            [] => Some(&[]), // an empty slice's dangling pointer need not be aligned for f32
            bytes => bytemuck::try_cast_slice(bytes).ok(),
        }
    }
}

/// `values` as the bytes [`Mapped::halves`] reads back.
pub(crate) fn half_bytes(values: &[half::f16]) -> &[u8] {
    bytemuck::cast_slice(values)
}

/// `values` as the bytes [`Mapped::floats`] reads back (format 5 wrote vectors so).
#[cfg(test)]
pub(crate) fn float_bytes(values: &[f32]) -> &[u8] {
    bytemuck::cast_slice(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Resident kilobytes of this process's mappings of `path` (Linux `/proc/self/smaps`).
    fn resident_kb(path: &Path) -> u64 {
        let smaps = std::fs::read_to_string("/proc/self/smaps").expect("smaps");
        let name = path.to_str().expect("utf-8 path");
        let mut in_map = false;
        let mut kb = 0;
        for line in smaps.lines() {
            let first = line.split_whitespace().next().unwrap_or("");
            if first.contains('-') && first.chars().all(|c| c.is_ascii_hexdigit() || c == '-') {
                in_map = line.ends_with(name);
            } else if in_map && let Some(v) = line.strip_prefix("Rss:") {
                kb += v.trim().trim_end_matches(" kB").trim().parse::<u64>().expect("kB");
            }
        }
        kb
    }

    #[test]
    fn released_pages_leave_the_resident_set_and_read_back_the_same() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("objects.jsonl");
        let bytes: Vec<u8> = (0..8 << 20).map(|i: u32| (i % 251) as u8).collect();
        std::fs::write(&path, &bytes).expect("write");
        let map = Mapped::open(&path).expect("map");
        let sum = |m: &Mapped| m.bytes().iter().step_by(4096).map(|&b| u64::from(b)).sum::<u64>();
        let before = sum(&map);
        assert!(resident_kb(&path) >= 8 << 10, "every page was touched: {} kB", resident_kb(&path));
        map.release_resident();
        assert!(resident_kb(&path) < 1 << 10, "released: {} kB resident", resident_kb(&path));
        assert_eq!(sum(&map), before);
        assert_eq!(map.bytes(), &bytes[..]);
    }

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

    #[test]
    fn halves_round_trip_and_odd_lengths_are_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("v.f16");
        let values: Vec<half::f16> = [0.5f32, -1.25, 3.0e-7, 65504.0].into_iter().map(half::f16::from_f32).collect();
        std::fs::write(&path, half_bytes(&values)).expect("write");
        assert_eq!(Mapped::open(&path).expect("map").halves(), Some(&values[..]));
        std::fs::write(&path, [1u8, 2, 3]).expect("write");
        assert_eq!(Mapped::open(&path).expect("map").halves(), None, "an odd length");
    }
}
