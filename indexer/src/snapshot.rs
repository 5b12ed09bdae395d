//! One snapshot of an index: write (atomically, incrementally) and read.
//!
//! Files of a snapshot folder (the index folder around it is [`IndexDir`]'s):
//! ```text
//! manifest.json   format version, model id, dimensions, counts, file checksums
//! catalog.bin     servers and tools (bincode; where each tool object lies in tools.jsonl)
//! tools.jsonl     the tool objects, verbatim, one JSON text per line (memory-mapped when open)
//! vectors.f16     server vectors then tool vectors, little-endian IEEE halves (memory-mapped when open)
//! scan.bin        description-scan findings per tool (bincode)
//! {servers,tools}.hnsw.{graph,data}   HNSW graphs over int8 codes (only at FLAT_BELOW vectors or more)
//! bm25-{servers,tools}/               tantivy indexes
//! ```
//! A build writes a new snapshot into a staging folder and [`IndexDir`] publishes it: a crash at any
//! point leaves the previous snapshot live. Vectors of documents whose search text did not change are
//! copied from the previous snapshot instead of being embedded again.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::atomic::link_or_copy;
use crate::bm25::Bm25;
use crate::canonical::{sha256_file, sha256_hex};
use crate::catalog::Catalog;
use crate::catalog::ServerRecord;
use crate::dense::{Ann, AnnHit, FLAT_BELOW, cosine_half, to_halves, top_k};
use crate::embed::Embedder;
use crate::index_dir::{IndexDir, fault_point, write_staged, write_staged_parts};
use crate::mapped::{Mapped, half_bytes};
use crate::pins::PinReport;
use crate::scan::ToolOwners;
use crate::text::{server_text, tool_text};
use crate::{Error, Result};
use half::f16;

/// Version of the on-disk format this build writes and reads.
/// 2: BM25 documents have four weighted fields (name, description, params, context) instead of two.
/// 4: vectors and tool objects in files of their own, read in place (memory-mapped) instead of decoded.
/// 5: HNSW graphs hold int8 codes of the vectors (candidates re-scored from `vectors.f32`), not f32 copies.
/// 6: vectors stored as halves (`vectors.f16`, half the bytes; no measured recall cost, BENCHMARKS.md
///    "Quantised vectors"). A build still reuses a format-5 snapshot's vectors (rounded to halves), so an
///    update to this format embeds nothing that did not change.
pub const FORMAT_VERSION: u32 = 6;
/// The oldest format whose vectors a build reuses.
const REUSABLE_FROM: u32 = 5;

const MANIFEST: &str = "manifest.json";
const CATALOG: &str = "catalog.bin";
const VECTORS: &str = "vectors.f16";
/// Format 5's vectors, as `f32`s (read only to reuse them).
const VECTORS_F32: &str = "vectors.f32";
const TOOL_OBJECTS: &str = "tools.jsonl";
/// Description-scan findings per tool (optional: snapshots written before the scan have none).
const SCAN: &str = "scan.bin";

/// What a snapshot is, written as `manifest.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// [`FORMAT_VERSION`] of the writer.
    pub format_version: u32,
    /// The snapshot's folder name.
    pub snapshot_id: String,
    /// When it was written (RFC 3339, UTC).
    pub created_at: String,
    /// The embedding model ([`Embedder::model_id`]).
    pub model_id: String,
    /// Vector length.
    pub dimensions: usize,
    /// Number of servers.
    pub servers: usize,
    /// Number of tools.
    pub tools: usize,
    /// Base names of the HNSW files (`None` when there were no vectors).
    pub hnsw: BTreeMap<String, Option<String>>,
    /// Per graph kept from an earlier snapshot by an update (`servers`, `tools`): the positions whose
    /// vectors changed since it was built, which every search scores exactly besides the walk.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub graph_stale: BTreeMap<String, Vec<u32>>,
    /// SHA-256 of every file, by path relative to the snapshot folder.
    pub checksums: BTreeMap<String, String>,
    /// What the build did.
    pub build: BuildStats,
}

/// Counters of one build.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BuildStats {
    /// Tools (by server id and name) not in the previous snapshot.
    #[serde(default)]
    pub added: usize,
    /// Tools whose content hash differs from the previous snapshot.
    #[serde(default)]
    pub changed: usize,
    /// Tools of the previous snapshot that are gone.
    #[serde(default)]
    pub removed: usize,
    /// Documents embedded now.
    pub embedded: usize,
    /// Documents whose vector was reused from the previous snapshot.
    pub reused: usize,
    /// Wall time of the build.
    pub seconds: f64,
    /// Trust-on-first-use: what was pinned, and what is now held back.
    #[serde(default)]
    pub pins: PinReport,
    /// HNSW graphs kept from the previous snapshot instead of built again.
    #[serde(default)]
    pub graphs_kept: usize,
    /// BM25 indexes (servers, tools) updated from the previous snapshot's instead of built again.
    #[serde(default)]
    pub bm25_updated: usize,
}

/// How [`build`] behaves.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// Snapshots kept on disk, the live one included (older ones are deleted).
    pub keep: usize,
    /// Reuse vectors from the previous snapshot where the text is unchanged.
    pub incremental: bool,
    /// Tools of servers never seen before start quarantined (after the first build of the index).
    pub quarantine_new_servers: bool,
    /// Largest share of the live snapshot's tools an update may remove; a build that would remove more
    /// fails with [`Error::MassRemoval`] (a partial crawl or a truncated catalog, most likely). `None`: no limit.
    pub max_removed_share: Option<f64>,
    /// A graph is built over this many vectors or more (the engine scans exactly below [`FLAT_BELOW`],
    /// so a graph below it is never searched: lower only to test the graph's build and update).
    pub graph_from: usize,
}

/// The default [`BuildOptions::max_removed_share`].
pub const MAX_REMOVED_SHARE: f64 = 0.3;

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            keep: 2,
            incremental: true,
            quarantine_new_servers: false,
            max_removed_share: Some(MAX_REMOVED_SHARE),
            graph_from: FLAT_BELOW,
        }
    }
}

/// A server as stored in a snapshot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredServer {
    /// Unique id.
    pub server_id: String,
    /// Name as the source gives it.
    pub name: String,
    /// `serverInfo.title`.
    pub title: Option<String>,
    /// `serverInfo.version`.
    pub version: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// Initialization instructions.
    pub instructions: Option<String>,
    /// Source kind.
    pub source_kind: String,
    /// Source origin.
    pub source_origin: String,
    /// Crawl time.
    pub crawled_at: Option<String>,
    /// Negotiated protocol version.
    pub protocol_version: Option<String>,
    /// Set when these are the server's last known tools (its latest crawl failed).
    pub stale: Option<crate::catalog::Stale>,
    /// Index of its first tool in [`Snapshot::tools`].
    pub first_tool: u32,
    /// Number of its tools.
    pub tool_count: u32,
    /// SHA-256 of its embedded text.
    pub text_hash: String,
}

/// A tool as stored in a snapshot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredTool {
    /// Index of its server in [`Snapshot::servers`].
    pub server: u32,
    /// Tool name.
    pub name: String,
    /// Where its MCP `Tool` object, verbatim, lies in `tools.jsonl` (byte offset and length; read it with
    /// [`Snapshot::tool_json`]).
    pub json_at: u64,
    /// Length in bytes of its object in `tools.jsonl`.
    pub json_len: u32,
    /// Content hash.
    pub hash: String,
    /// Set when the object was derived rather than declared.
    pub derived: Option<String>,
    /// SHA-256 of its embedded text.
    pub text_hash: String,
}

#[derive(Deserialize)]
struct CatalogFile {
    servers: Vec<StoredServer>,
    tools: Vec<StoredTool>,
}

/// [`CatalogFile`] as a build writes it, borrowed (serde writes a slice as it writes a `Vec`).
#[derive(Serialize)]
struct CatalogFileRef<'a> {
    servers: &'a [StoredServer],
    tools: &'a [StoredTool],
}

/// An open snapshot: everything a query needs. Vectors, tool objects, the HNSW graphs' vectors and tantivy's
/// files are memory-mapped; the rest is in memory.
pub struct Snapshot {
    /// The snapshot's folder.
    pub dir: PathBuf,
    /// Its manifest.
    pub manifest: Manifest,
    /// Servers, in catalog order.
    pub servers: Vec<StoredServer>,
    /// Tools, grouped by server.
    pub tools: Vec<StoredTool>,
    /// `vectors.f16`: server vectors, then tool vectors.
    vectors: Mapped,
    /// `tools.jsonl`.
    tool_objects: Mapped,
    /// Description-scan findings, per tool (empty when clean).
    pub tool_warnings: Vec<Vec<String>>,
    /// HNSW over server vectors.
    pub server_ann: Ann,
    /// HNSW over tool vectors.
    pub tool_ann: Ann,
    /// BM25 over server documents.
    pub server_bm25: Bm25,
    /// BM25 over tool documents.
    pub tool_bm25: Bm25,
}

impl std::fmt::Debug for Snapshot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Snapshot").field("dir", &self.dir).field("manifest", &self.manifest).finish()
    }
}

/// What a snapshot stores, checked, without its search structures (what a build reuses).
struct Stored {
    manifest: Manifest,
    catalog: CatalogFile,
    /// `vectors.f16`, or a format-5 snapshot's `vectors.f32` (`singles`).
    vectors: Mapped,
    singles: bool,
    tool_objects: Mapped,
    tool_warnings: Vec<Vec<String>>,
}

impl Stored {
    /// Reads the manifest, checks the format version and every checksum, and opens the stored files; an
    /// older format whose vectors can still be reused is opened too when `to_reuse`.
    fn open(dir: &Path, to_reuse: bool) -> Result<Stored> {
        let manifest_path = dir.join(MANIFEST);
        let text = std::fs::read_to_string(&manifest_path).map_err(|e| Error::io("reading", &manifest_path, e))?;
        let probe: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| Error::corrupt(dir, format!("manifest: {e}")))?;
        let found = probe.get("format_version").and_then(serde_json::Value::as_u64).unwrap_or(0) as u32;
        if found != FORMAT_VERSION && !(to_reuse && (REUSABLE_FROM..FORMAT_VERSION).contains(&found)) {
            return Err(Error::FormatVersion { found, expected: FORMAT_VERSION });
        }
        let singles = found < FORMAT_VERSION;
        let manifest: Manifest =
            serde_json::from_str(&text).map_err(|e| Error::corrupt(dir, format!("manifest: {e}")))?;
        for (rel, want) in &manifest.checksums {
            let got = sha256_file(&dir.join(rel)).map_err(|e| Error::corrupt(dir, format!("{rel}: {e}")))?;
            if &got != want {
                return Err(Error::corrupt(dir, format!("checksum mismatch in {rel}")));
            }
        }
        let catalog: CatalogFile = decode(&dir.join(CATALOG), dir)?;
        let vectors = Mapped::open(&dir.join(if singles { VECTORS_F32 } else { VECTORS }))?;
        let tool_objects = Mapped::open(&dir.join(TOOL_OBJECTS))?;
        let values = if singles {
            vectors.floats().map_or(usize::MAX, <[f32]>::len)
        } else {
            vectors.halves().map_or(usize::MAX, <[f16]>::len)
        };
        if catalog.servers.len() != manifest.servers
            || catalog.tools.len() != manifest.tools
            || values != (manifest.servers + manifest.tools) * manifest.dimensions
        {
            return Err(Error::corrupt(dir, "counts in catalog.bin / the vectors do not match the manifest"));
        }
        let objects = tool_objects.bytes().len() as u64;
        if catalog.tools.iter().any(|t| t.json_at.saturating_add(u64::from(t.json_len)) > objects) {
            return Err(Error::corrupt(dir, "a tool object lies outside tools.jsonl"));
        }
        let tool_warnings: Vec<Vec<String>> = if dir.join(SCAN).is_file() {
            decode(&dir.join(SCAN), dir)?
        } else {
            vec![Vec::new(); catalog.tools.len()]
        };
        if tool_warnings.len() != catalog.tools.len() {
            return Err(Error::corrupt(dir, "scan.bin does not match the tools"));
        }
        Ok(Stored { manifest, catalog, vectors, singles, tool_objects, tool_warnings })
    }

    /// Each tool's content hash by (server id, name).
    fn tool_hashes(&self) -> PreviousTools {
        let servers = &self.catalog.servers;
        self.catalog
            .tools
            .iter()
            .map(|t| ((servers[t.server as usize].server_id.clone(), t.name.clone()), t.hash.clone()))
            .collect()
    }

    /// Each stored document's position ([`Stored::vector`]) by the hash of its embedded text.
    fn text_hashes(&self) -> HashMap<&str, usize> {
        let servers = self.catalog.servers.iter().map(|s| s.text_hash.as_str());
        servers
            .chain(self.catalog.tools.iter().map(|t| t.text_hash.as_str()))
            .enumerate()
            .map(|(i, h)| (h, i))
            .collect()
    }

    /// The vector of stored document `i` (servers first, then tools), as halves (a format-5 vector
    /// rounded to them).
    fn vector(&self, i: usize) -> Vec<f16> {
        let at = i * self.manifest.dimensions..(i + 1) * self.manifest.dimensions;
        if self.singles {
            to_halves(&self.vectors.floats().expect("the length of the vectors was checked at open")[at])
        } else {
            self.vectors.halves().expect("the length of the vectors was checked at open")[at].to_vec()
        }
    }
}

impl Snapshot {
    /// Opens the live snapshot of the index folder `index_dir`, checking version and checksums.
    pub fn open(index_dir: &IndexDir) -> Result<Snapshot> {
        Snapshot::open_snapshot(&index_dir.snapshot(&index_dir.current()?))
    }

    /// Opens one snapshot folder.
    pub fn open_snapshot(dir: &Path) -> Result<Snapshot> {
        let stored = Stored::open(dir, false)?;
        // Queries read vectors here and there (the candidates of each pass), never the file in order.
        stored.vectors.expect_random_reads();
        let base = |k: &str| stored.manifest.hnsw.get(k).cloned().flatten();
        let stale = |k: &str| stored.manifest.graph_stale.get(k).cloned().unwrap_or_default();
        let server_ann = Ann::load(dir, base("servers").as_deref(), &stale("servers"))?;
        let tool_ann = Ann::load(dir, base("tools").as_deref(), &stale("tools"))?;
        if !(server_ann.is_empty() && tool_ann.is_empty()) {
            // hnsw_rs's own form of the graphs, read and dropped again, is most of the heap's free space.
            release_freed_memory();
        }
        Ok(Snapshot {
            server_ann,
            tool_ann,
            server_bm25: Bm25::open(&dir.join("bm25-servers"))?,
            tool_bm25: Bm25::open(&dir.join("bm25-tools"))?,
            dir: dir.to_path_buf(),
            tool_warnings: stored.tool_warnings,
            servers: stored.catalog.servers,
            tools: stored.catalog.tools,
            vectors: stored.vectors,
            tool_objects: stored.tool_objects,
            manifest: stored.manifest,
        })
    }

    /// The vector of server `i`, as stored (halves; [`crate::from_halves`] widens it).
    pub fn server_vector(&self, i: usize) -> &[f16] {
        let d = self.manifest.dimensions;
        &self.halves()[i * d..(i + 1) * d]
    }

    /// The vector of tool `i`, as stored.
    pub fn tool_vector(&self, i: usize) -> &[f16] {
        let d = self.manifest.dimensions;
        let at = (self.servers.len() + i) * d;
        &self.halves()[at..at + d]
    }

    /// Cosine similarity of `query` and server `i`.
    pub fn server_cosine(&self, query: &[f32], i: usize) -> f32 {
        cosine_half(query, self.server_vector(i))
    }

    /// Cosine similarity of `query` and tool `i`.
    pub fn tool_cosine(&self, query: &[f32], i: usize) -> f32 {
        cosine_half(query, self.tool_vector(i))
    }

    fn halves(&self) -> &[f16] {
        self.vectors.halves().expect("the length of vectors.f16 was checked at open")
    }

    /// Hands back the pages of the tool objects read so far: for a reader that went through all of them
    /// once (the engine's load) and from then on reads only the few it answers with, which fault in again
    /// (without read-ahead from then on).
    pub fn release_tool_objects(&self) {
        self.tool_objects.release_resident();
        self.tool_objects.expect_random_reads();
    }

    /// The MCP `Tool` object of tool `i`, verbatim, as JSON text.
    pub fn tool_json(&self, i: usize) -> &str {
        let t = &self.tools[i];
        let at = t.json_at as usize;
        std::str::from_utf8(&self.tool_objects.bytes()[at..at + t.json_len as usize])
            .expect("tools.jsonl was written as UTF-8 and checksummed at open")
    }

    /// The `k` tools nearest to `query`: an exact scan below [`FLAT_BELOW`] tools (faster there, and
    /// exact) or when the snapshot has no graph (built below it), the HNSW graph above.
    pub fn nearest_tools(&self, query: &[f32], k: usize) -> Vec<AnnHit> {
        if self.tools.len() < FLAT_BELOW || self.tool_ann.is_empty() {
            top_k((0..self.tools.len()).map(|i| self.tool_cosine(query, i)), k)
        } else {
            self.tool_ann.search(k, |i| self.tool_cosine(query, i as usize))
        }
    }

    /// The `k` servers nearest to `query` (see [`Snapshot::nearest_tools`]).
    pub fn nearest_servers(&self, query: &[f32], k: usize) -> Vec<AnnHit> {
        if self.servers.len() < FLAT_BELOW || self.server_ann.is_empty() {
            top_k((0..self.servers.len()).map(|i| self.server_cosine(query, i)), k)
        } else {
            self.server_ann.search(k, |i| self.server_cosine(query, i as usize))
        }
    }

    /// Tool indexes of server `i`.
    pub fn server_tools(&self, i: usize) -> std::ops::Range<usize> {
        let s = &self.servers[i];
        s.first_tool as usize..(s.first_tool + s.tool_count) as usize
    }
}

fn decode<T: serde::de::DeserializeOwned>(path: &Path, dir: &Path) -> Result<T> {
    let bytes = std::fs::read(path).map_err(|e| Error::io("reading", path, e))?;
    bincode::serde::decode_from_slice(&bytes, bincode::config::standard())
        .map(|(v, _)| v)
        .map_err(|e| Error::corrupt(dir, format!("{}: {e}", path.display())))
}

fn encode<T: Serialize>(value: &T, path: &Path) -> Result<()> {
    let bytes = bincode::serde::encode_to_vec(value, bincode::config::standard())
        .map_err(|e| Error::io("encoding", path, std::io::Error::other(e.to_string())))?;
    write_staged(path, &bytes)
}

/// Builds a new snapshot of `catalog` in the index folder `out` and makes it live.
pub fn build(catalog: &Catalog, embedder: &dyn Embedder, out: &IndexDir, options: &BuildOptions) -> Result<Manifest> {
    build_from(Cow::Borrowed(catalog), embedder, out, options)
}

/// [`build`], taking the catalog: its parsed tool objects (about a gigabyte at 100K tools) are dropped
/// once their texts, pins and scan findings are taken, before the embedding and the graph need memory.
pub fn build_owned(
    catalog: Catalog,
    embedder: &dyn Embedder,
    out: &IndexDir,
    options: &BuildOptions,
) -> Result<Manifest> {
    build_from(Cow::Owned(catalog), embedder, out, options)
}

fn build_from(
    catalog: Cow<'_, Catalog>,
    embedder: &dyn Embedder,
    out: &IndexDir,
    options: &BuildOptions,
) -> Result<Manifest> {
    let started = Instant::now();
    // Where a build's time goes (`RUST_LOG=toolscout_indexer=debug`).
    let phase = |name: &str| tracing::debug!(seconds = started.elapsed().as_secs_f64(), "build: {name}");
    out.create()?;
    out.collect_garbage(usize::MAX); // staging folders of killed builds; no snapshot is pruned here
    // The live snapshot's stored parts (not its graphs or BM25 readers): its tool hashes, and its vectors
    // by text hash, read in place, when they can be reused.
    let live_dir = out.current().ok().map(|id| out.snapshot(&id));
    let live = live_dir.as_deref().and_then(|dir| Stored::open(dir, true).ok());
    let previous_tools: PreviousTools = live.as_ref().map(Stored::tool_hashes).unwrap_or_default();
    let previous: HashMap<&str, usize> = match &live {
        Some(live) if options.incremental && live.manifest.model_id == embedder.model_id() => live.text_hashes(),
        _ => HashMap::new(),
    };

    phase("the live snapshot opened");
    // Server by server: search texts, stored records, tool objects as text, pins and scan findings. An
    // owned catalog gives each server up once it is taken, so its parsed objects are freed as the texts
    // grow instead of both being held at once.
    let mut servers = Vec::with_capacity(catalog.servers.len());
    let mut tools = Vec::with_capacity(catalog.tool_count());
    let mut server_docs = Vec::new();
    let mut tool_docs = Vec::new();
    let mut tool_objects = String::new();
    let mut pins = out.read_pins()?;
    let mut observer = pins.observer(options.quarantine_new_servers);
    let owners = ToolOwners::of(&catalog);
    let mut warnings: Vec<Vec<String>> = Vec::with_capacity(catalog.tool_count());
    let records: Box<dyn Iterator<Item = Cow<'_, ServerRecord>>> = match catalog {
        Cow::Borrowed(c) => Box::new(c.servers.iter().map(Cow::Borrowed)),
        Cow::Owned(c) => Box::new(c.servers.into_iter().map(Cow::Owned)),
    };
    // In chunks of servers: the description scan of a chunk runs on a second thread while this one builds
    // its texts (about the same work each; 1.3 s apiece at 100K tools).
    let mut records = records.enumerate();
    loop {
        let chunk: Vec<(usize, Cow<'_, ServerRecord>)> = records.by_ref().take(SCAN_CHUNK).collect();
        if chunk.is_empty() {
            break;
        }
        let scanned = std::thread::scope(|scope| {
            let scan = scope.spawn(|| chunk.iter().map(|(si, s)| owners.scan_server(*si, s)).collect::<Vec<_>>());
            for (si, server) in &chunk {
                let si = *si;
                let server = server.as_ref();
                pins.observe_server(&mut observer, server);
                stored_texts(si, server, &mut servers, &mut server_docs, &mut tools, &mut tool_docs, &mut tool_objects);
            }
            scan.join()
        });
        // A scan that panicked panics the build, as it would have on this thread.
        warnings.extend(scanned.unwrap_or_else(|panic| std::panic::resume_unwind(panic)).into_iter().flatten());
    }

    phase("texts, pins and scan findings");
    // What changed since the live snapshot, tool by tool.
    let mut stats = BuildStats::default();
    let mut seen = std::collections::HashSet::new();
    for t in &tools {
        let key = (servers[t.server as usize].server_id.clone(), t.name.clone());
        match previous_tools.get(&key) {
            None => stats.added += 1,
            Some(hash) if *hash != t.hash => stats.changed += 1,
            Some(_) => {}
        }
        seen.insert(key);
    }
    stats.removed = previous_tools.keys().filter(|k| !seen.contains(*k)).count();
    if let Some(share) = options.max_removed_share
        && stats.removed as f64 > share * previous_tools.len() as f64
    {
        return Err(Error::MassRemoval { removed: stats.removed, live: previous_tools.len(), share });
    }

    // Trust on first use: written below, once the snapshot is complete.
    stats.pins = observer.report;
    release_freed_memory();

    // Everything is written into a staging folder; the records and tool objects first, so the tool objects
    // (~200 MB of text at 100K tools) are not held through the embedding, the build's largest phase.
    let content_key = sha256_hex(
        format!(
            "{}{}",
            servers.iter().map(|s| s.text_hash.as_str()).collect::<String>(),
            tools.iter().map(|t| t.hash.as_str()).collect::<String>()
        )
        .as_bytes(),
    );
    let now = std::time::SystemTime::now();
    let stamp = humantime::format_rfc3339_micros(now).to_string().replace([':', '.', '-'], "");
    let id = format!("{stamp}-{}", &content_key[..8]);
    let tmp = out.staging(&id)?;
    let early = (|| -> Result<()> {
        encode(&CatalogFileRef { servers: &servers, tools: &tools }, &tmp.join(CATALOG))?;
        write_staged(&tmp.join(TOOL_OBJECTS), tool_objects.as_bytes())
    })();
    drop(tool_objects);
    release_freed_memory();
    if let Err(e) = early {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }

    phase("records and tool objects written");
    // Vectors: reuse where the text is unchanged, embed the rest.
    // Each vector is rounded to halves as soon as it is there: the build holds half the bytes.
    let mut vectorize = |hashes: Vec<&String>, texts: Vec<&String>| -> Result<Vec<f16>> {
        let mut out: Vec<Option<Vec<f16>>> =
            hashes.iter().map(|h| previous.get(h.as_str()).zip(live.as_ref()).map(|(&i, l)| l.vector(i))).collect();
        let mut missing: Vec<usize> = (0..out.len()).filter(|&i| out[i].is_none()).collect();
        missing.sort_by_key(|&i| texts[i].len()); // similar lengths batch together (less padding)
        stats.reused += out.len() - missing.len();
        stats.embedded += missing.len();
        let bar = progress(missing.len() as u64, "embedding");
        for chunk in missing.chunks(256) {
            let batch: Vec<String> = chunk.iter().map(|&i| texts[i].clone()).collect();
            for (&i, v) in chunk.iter().zip(embedder.embed_documents(&batch)?) {
                out[i] = Some(to_halves(&v));
            }
            bar.inc(chunk.len() as u64);
        }
        bar.finish_and_clear();
        // Joined into one allocation of the exact size (a collect from this iterator cannot know it, and
        // grew by doubling: up to twice the vectors' bytes on top of `out`'s at the build's peak), each
        // vector freed as it is copied.
        let each = out.iter().flatten().next().map_or(0, Vec::len);
        let mut joined = Vec::with_capacity(out.len() * each);
        for v in out.into_iter().flatten() {
            joined.extend_from_slice(&v);
        }
        Ok(joined)
    };
    let embedded =
        vectorize(servers.iter().map(|s| &s.text_hash).collect(), server_docs.iter().map(|d| &d.embed).collect())
            .and_then(|server_vectors| {
                let texts = tool_docs.iter().map(|d| &d.embed).collect();
                Ok((server_vectors, vectorize(tools.iter().map(|t| &t.text_hash).collect(), texts)?))
            });
    let (server_vectors, tool_vectors) = match embedded {
        Ok(vectors) => vectors,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(e);
        }
    };
    phase("vectors reused and embedded");
    // The vector length, from the vectors themselves: an update that embedded nothing never asks the
    // model (a lazily loaded one then never loads).
    let documents = servers.len() + tools.len();
    let dim = (server_vectors.len() + tool_vectors.len()).checked_div(documents).unwrap_or_else(|| embedder.dim());
    // The live snapshot's graphs, where this update leaves them fitting.
    // Whether every server position holds the same server as in the live snapshot, and whether every tool
    // position the same tool as well: then the live graphs may be kept and its BM25 indexes updated
    // instead of built again.
    let servers_in_place = live.as_ref().filter(|l| {
        options.incremental
            && l.catalog.servers.len() == servers.len()
            && l.catalog.servers.iter().zip(&servers).all(|(a, b)| a.server_id == b.server_id)
    });
    let in_place = servers_in_place.filter(|l| {
        l.catalog.tools.len() == tools.len()
            && l.catalog.servers.iter().zip(&servers).all(|(a, b)| a.first_tool == b.first_tool)
            && l.catalog.tools.iter().zip(&tools).all(|(a, b)| a.name == b.name)
    });
    // The live snapshot's graphs, where this update leaves them fitting.
    let same_model = |l: &&Stored| l.manifest.model_id == embedder.model_id();
    let kept_servers = servers_in_place.filter(same_model).and_then(|l| {
        kept_graph(l, "servers", |i| l.catalog.servers[i].text_hash != servers[i].text_hash, servers.len())
    });
    let kept_tools = in_place
        .filter(same_model)
        .and_then(|l| kept_graph(l, "tools", |i| l.catalog.tools[i].text_hash != tools[i].text_hash, tools.len()));
    // Documents whose BM25 text changed: the live BM25 indexes are linked and only these written again. A
    // tool's lexical text is its definition and its server's context (both in its hashes); a server's also
    // lists its tools.
    let lexical_changes: Option<(Vec<usize>, Vec<usize>)> = in_place.map(|l| {
        let lt = &l.catalog.tools;
        let tools_changed: Vec<usize> = (0..tools.len())
            .filter(|&i| lt[i].hash != tools[i].hash || lt[i].text_hash != tools[i].text_hash)
            .collect();
        let touched: std::collections::HashSet<u32> = tools_changed.iter().map(|&t| tools[t].server).collect();
        let servers_changed: Vec<usize> = (0..servers.len())
            .filter(|&s| l.catalog.servers[s].text_hash != servers[s].text_hash || touched.contains(&(s as u32)))
            .collect();
        (servers_changed, tools_changed)
    });

    let written = (|| -> Result<Manifest> {
        write_staged_parts(&tmp.join(VECTORS), &[half_bytes(&server_vectors), half_bytes(&tool_vectors)])?;
        phase("vectors written");
        encode(&warnings, &tmp.join(SCAN))?;
        let (servers_changed, tools_changed) = match &lexical_changes {
            Some((s, t)) => (Some(s), Some(t)),
            None => (None, None),
        };
        for (name, docs, changed) in
            [("bm25-servers", &server_docs, servers_changed), ("bm25-tools", &tool_docs, tools_changed)]
        {
            let d = tmp.join(name);
            std::fs::create_dir_all(&d).map_err(|e| Error::io("creating", &d, e))?;
            let updated = match (changed, &live_dir) {
                (Some(changed), Some(from)) => {
                    let changed: Vec<(u32, [&str; 4])> =
                        changed.iter().map(|&i| (i as u32, docs[i].fields())).collect();
                    // Any failure to update in place (a live index that will not open): built again.
                    match Bm25::update(&from.join(name), &d, &changed) {
                        Ok(updated) => updated,
                        Err(e) => {
                            tracing::warn!("{name}: building again instead of updating the live index: {e}");
                            std::fs::remove_dir_all(&d).map_err(|e| Error::io("removing", &d, e))?;
                            std::fs::create_dir_all(&d).map_err(|e| Error::io("creating", &d, e))?;
                            false
                        }
                    }
                }
                _ => false,
            };
            if updated {
                stats.bm25_updated += 1;
            } else {
                Bm25::build(&d, docs.iter().enumerate().map(|(i, doc)| (i as u32, doc.fields())))?;
            }
        }
        phase("BM25 written");
        // The texts are done with: freed before the graph, the last large allocation of a build.
        drop((std::mem::take(&mut server_docs), std::mem::take(&mut tool_docs)));
        release_freed_memory();
        let mut hnsw = BTreeMap::new();
        let mut graph_stale = BTreeMap::new();
        // A graph only where the engine searches one: below `FLAT_BELOW` vectors it scans exactly.
        let graph = |vectors: &[f16]| {
            if vectors.len() / dim.max(1) < options.graph_from {
                Ann::build(&[])
            } else {
                Ann::build_halves(vectors, dim)
            }
        };
        for (kind, vectors, kept) in
            [("servers", &server_vectors, &kept_servers), ("tools", &tool_vectors, &kept_tools)]
        {
            let base = match (kept, &live_dir) {
                (Some(kept), Some(from)) => {
                    for ext in ["hnsw.graph", "hnsw.data"] {
                        let name = format!("{}.{ext}", kept.base);
                        link_or_copy(&from.join(&name), &tmp.join(&name))?;
                    }
                    if !kept.stale.is_empty() {
                        graph_stale.insert(kind.to_string(), kept.stale.clone());
                    }
                    stats.graphs_kept += 1;
                    Some(kept.base.clone())
                }
                _ => graph(vectors).dump(&tmp, kind)?,
            };
            hnsw.insert(kind.to_string(), base);
        }
        phase("graphs written");
        let mut checksums = BTreeMap::new();
        checksum_tree(&tmp, &tmp, &mut checksums)?;
        stats.seconds = started.elapsed().as_secs_f64();
        let manifest = Manifest {
            format_version: FORMAT_VERSION,
            snapshot_id: id.clone(),
            created_at: humantime::format_rfc3339_seconds(now).to_string(),
            model_id: embedder.model_id().to_string(),
            dimensions: dim,
            servers: servers.len(),
            tools: tools.len(),
            hnsw,
            graph_stale,
            checksums,
            build: stats.clone(),
        };
        let text = serde_json::to_string_pretty(&manifest).expect("manifest serializes");
        write_staged(&tmp.join(MANIFEST), text.as_bytes())?;
        Ok(manifest)
    })();
    let manifest = match written {
        Ok(m) => m,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(e);
        }
    };

    phase("snapshot written");
    fault_point("after-snapshot-write");
    // Pins first (the engine compares them with the live snapshot, so this order is safe), then publish:
    // rename the folder, then swap CURRENT.
    out.write_pins(&pins)?;
    out.publish(&tmp, &id)?;
    out.collect_garbage(options.keep);
    phase("pins written, published");
    Ok(manifest)
}

/// Servers a build scans on the second thread at a time (see `build_from`).
const SCAN_CHUNK: usize = 256;

/// Server `si`'s stored record and search text, and each of its tools' record, search text and object
/// (as JSON text, appended to `tool_objects`).
fn stored_texts(
    si: usize,
    server: &ServerRecord,
    servers: &mut Vec<StoredServer>,
    server_docs: &mut Vec<crate::text::DocText>,
    tools: &mut Vec<StoredTool>,
    tool_docs: &mut Vec<crate::text::DocText>,
    tool_objects: &mut String,
) {
    let doc = server_text(server);
    servers.push(StoredServer {
        server_id: server.server_id.clone(),
        name: server.name.clone(),
        title: server.title.clone(),
        version: server.version.clone(),
        description: server.description.clone(),
        instructions: server.instructions.clone(),
        source_kind: server.source.kind.clone(),
        source_origin: server.source.origin.clone(),
        crawled_at: server.crawled_at.clone(),
        protocol_version: server.protocol_version.clone(),
        stale: server.stale.clone(),
        first_tool: tools.len() as u32,
        tool_count: server.tools.len() as u32,
        text_hash: sha256_hex(doc.embed.as_bytes()),
    });
    server_docs.push(doc);
    for tool in &server.tools {
        let doc = tool_text(server, tool);
        let json = serde_json::to_string(&tool.tool).expect("a JSON value always serializes");
        tools.push(StoredTool {
            server: si as u32,
            name: tool.name.clone(),
            json_at: tool_objects.len() as u64,
            json_len: json.len() as u32,
            hash: tool.hash.clone(),
            derived: tool.derived.clone(),
            text_hash: sha256_hex(doc.embed.as_bytes()),
        });
        tool_docs.push(doc);
        tool_objects.push_str(&json);
        tool_objects.push('\n');
    }
}

/// A graph an update keeps from the live snapshot: its files' base name, and the positions whose vectors
/// changed since it was built.
struct KeptGraph {
    base: String,
    stale: Vec<u32>,
}

/// Largest share of a kept graph's points whose vectors may have changed since it was built (or
/// [`MOST_STALE_POINTS`], if more); past it the graph is built again. Each is one exact cosine per search.
const MOST_STALE: f64 = 0.01;
const MOST_STALE_POINTS: usize = 64;

/// The live snapshot's graph `kind` (`servers`, `tools`) of `n` points, for an update that leaves every
/// document in its place: kept when at most [`MOST_STALE`] of them (or [`MOST_STALE_POINTS`]) changed text
/// (`changed(i)`) since the graph was built, counting earlier kept updates: its links still fit, and every
/// search scores the changed points exactly besides the walk.
/// hnsw_rs cannot move or remove a point, so this is how an update of a large index skips building its
/// graph again (54 of an update's 77 s at 100K tools); an update that adds, removes or reorders
/// documents builds it again.
fn kept_graph(live: &Stored, kind: &str, changed: impl Fn(usize) -> bool, n: usize) -> Option<KeptGraph> {
    let base = live.manifest.hnsw.get(kind)?.clone()?;
    if live.singles {
        return None;
    }
    let mut stale = live.manifest.graph_stale.get(kind).cloned().unwrap_or_default();
    stale.extend((0..n).filter(|&i| changed(i)).map(|i| i as u32));
    stale.sort_unstable();
    stale.dedup();
    (stale.len() <= MOST_STALE_POINTS.max((MOST_STALE * n as f64) as usize)).then_some(KeptGraph { base, stale })
}

/// Hands memory freed by the allocator back to the system (glibc keeps freed small blocks otherwise: the
/// parsed catalog of a large build would stay in the footprint through embedding and graph building).
fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free heap pages to the system; it touches no live allocation.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Content hashes of a snapshot's tools by (server id, name).
type PreviousTools = HashMap<(String, String), String>;

fn checksum_tree(root: &Path, dir: &Path, out: &mut BTreeMap<String, String>) -> Result<()> {
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io("reading", dir, e))?;
    for entry in entries {
        let path = entry.map_err(|e| Error::io("reading", dir, e))?.path();
        if path.is_dir() {
            checksum_tree(root, &path, out)?;
        } else {
            let rel = path.strip_prefix(root).expect("walked from root").to_string_lossy().into_owned();
            if rel == MANIFEST || rel.ends_with(".lock") || rel.ends_with("meta.json.lock") {
                continue;
            }
            out.insert(rel, sha256_file(&path).map_err(|e| Error::io("reading", &path, e))?);
        }
    }
    Ok(())
}

fn progress(len: u64, what: &'static str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::with_draw_target(Some(len), indicatif::ProgressDrawTarget::stderr());
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {msg} [{bar:30}] {pos}/{len} ({eta})")
            .expect("static template is valid")
            .progress_chars("=> "),
    );
    bar.set_message(what);
    bar
}
