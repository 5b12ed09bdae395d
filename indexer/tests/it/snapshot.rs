//! Index snapshots with the real embedding model: build, open, incremental update, atomic publish,
//! integrity checks.

use toolscout_indexer::{BuildOptions, Catalog, Error, FORMAT_VERSION, IndexDir, Snapshot, build, import_catalog};
use toolscout_test_support::{embedder, root};

fn small_catalog() -> Catalog {
    let (catalog, _) = import_catalog(&root().join("data/catalog/reference-servers.jsonl"), None).expect("fixture");
    Catalog {
        servers: catalog
            .servers
            .into_iter()
            .filter(|s| ["slack", "time", "google-maps"].contains(&s.name.as_str()))
            .collect(),
    }
}

#[test]
fn build_open_and_search_both_levels() {
    let dir = tempfile::tempdir().expect("tempdir");
    let catalog = small_catalog();
    let manifest =
        build(&catalog, embedder().as_ref(), &IndexDir::new(dir.path()), &BuildOptions::default()).expect("build");
    assert_eq!((manifest.servers, manifest.tools), (3, 21));
    assert_eq!(
        manifest.dimensions,
        embedder().dim(),
        "the default model's vector length (896: MiniLM 384 + USE-m3 512)"
    );
    let snap = Snapshot::open(&IndexDir::new(dir.path())).expect("open");
    assert_eq!(snap.tools.len(), 21);
    let q = embedder().embed_query("post a message in a chat channel").expect("embed");
    let best_server = snap.nearest_servers(&q, 1)[0].id as usize;
    assert_eq!(snap.servers[best_server].name, "slack");
    let best_tool = snap.nearest_tools(&q, 1)[0].id as usize;
    assert_eq!(snap.tools[best_tool].name, "slack_post_message");
    let bm = snap.tool_bm25.search("timezone convert", 1).expect("bm25");
    assert_eq!(snap.tools[bm[0].id as usize].name, "convert_time");
    // Tool objects are stored verbatim.
    let original = &catalog.servers[0].tools[0];
    let stored = snap.tools.iter().position(|t| t.name == original.name).expect("stored");
    assert_eq!(snap.tool_json(stored), serde_json::to_string(&original.tool).expect("json"));
    for (i, (server, tool)) in catalog.servers.iter().flat_map(|s| s.tools.iter().map(move |t| (s, t))).enumerate() {
        assert_eq!(
            (snap.servers[snap.tools[i].server as usize].name.as_str(), snap.tools[i].name.as_str()),
            (server.name.as_str(), tool.name.as_str())
        );
        assert_eq!(snap.tool_json(i), serde_json::to_string(&tool.tool).expect("json"), "every object, in place");
    }
}

#[test]
fn incremental_update_reembeds_only_changed_tools() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut catalog = small_catalog();
    let first =
        build(&catalog, embedder().as_ref(), &IndexDir::new(dir.path()), &BuildOptions::default()).expect("build");
    assert_eq!(first.build.reused, 0);
    // Change one tool's description and remove another.
    let server = catalog.servers.iter_mut().find(|s| s.name == "time").expect("time");
    let mut tool = server.tools[0].tool.clone();
    tool["description"] = serde_json::json!("Tell the current wall-clock time in any city.");
    server.tools[0] = toolscout_indexer::ToolRecord::new(tool, None).expect("valid");
    let removed = server.tools.pop().expect("a tool").name;
    let second =
        build(&catalog, embedder().as_ref(), &IndexDir::new(dir.path()), &BuildOptions::default()).expect("rebuild");
    // The changed tool and its server's document (its summary changed) are embedded again.
    assert_eq!(second.build.embedded, 2, "{:?}", second.build);
    assert_eq!(second.build.reused, first.servers + first.tools - 1 - 2);
    assert_eq!((second.build.added, second.build.changed, second.build.removed), (0, 1, 1));
    assert_eq!(first.build.added, first.tools);
    let snap = Snapshot::open(&IndexDir::new(dir.path())).expect("open");
    assert_eq!(snap.manifest.snapshot_id, second.snapshot_id);
    assert!(snap.tools.iter().all(|t| t.name != removed), "removed tools disappear");
}

#[test]
fn a_crashed_build_leaves_the_previous_snapshot_live_and_damage_is_detected() {
    let dir = tempfile::tempdir().expect("tempdir");
    let catalog = small_catalog();
    let live =
        build(&catalog, embedder().as_ref(), &IndexDir::new(dir.path()), &BuildOptions::default()).expect("build");
    // A build killed half-way leaves only a temporary folder behind; CURRENT still names the old snapshot.
    let half = dir.path().join("snapshots/.tmp-crashed-1");
    std::fs::create_dir_all(&half).expect("mkdir");
    std::fs::write(half.join("catalog.bin"), b"partial").expect("write");
    assert_eq!(Snapshot::open(&IndexDir::new(dir.path())).expect("open").manifest.snapshot_id, live.snapshot_id);

    // Flipping a byte in a data file is caught by the checksums.
    let snap_dir = dir.path().join("snapshots").join(&live.snapshot_id);
    for file in ["vectors.f16", "tools.jsonl"] {
        let path = snap_dir.join(file);
        let original = std::fs::read(&path).expect("read");
        let mut bytes = original.clone();
        bytes[100] ^= 0xff;
        std::fs::write(&path, bytes).expect("write");
        assert!(matches!(Snapshot::open(&IndexDir::new(dir.path())), Err(Error::IndexCorrupt { .. })), "{file}");
        std::fs::write(&path, original).expect("restore");
    }
    // A file of the wrong length is caught before it is read in place (checksums rewritten to match).
    let path = snap_dir.join("vectors.f16");
    let original = std::fs::read(&path).expect("read");
    std::fs::write(&path, &original[..original.len() - 4]).expect("truncate");
    let manifest_path = snap_dir.join("manifest.json");
    let manifest_text = std::fs::read_to_string(&manifest_path).expect("manifest");
    let mut m: serde_json::Value = serde_json::from_str(&manifest_text).expect("json");
    m["checksums"]["vectors.f16"] = toolscout_indexer::sha256_file(&path).expect("hash").into();
    std::fs::write(&manifest_path, m.to_string()).expect("write manifest");
    let err = Snapshot::open(&IndexDir::new(dir.path())).expect_err("short vectors");
    assert!(err.to_string().contains("vectors"), "{err}");
    std::fs::write(&path, original).expect("restore");
    std::fs::write(&manifest_path, manifest_text).expect("restore manifest");
    assert!(Snapshot::open(&IndexDir::new(dir.path())).is_ok());

    // A newer format is refused with a clear error.
    let manifest = snap_dir.join("manifest.json");
    let text = std::fs::read_to_string(&manifest)
        .expect("read")
        .replace(&format!("\"format_version\": {FORMAT_VERSION}"), "\"format_version\": 99");
    std::fs::write(&manifest, text).expect("write");
    assert!(matches!(Snapshot::open(&IndexDir::new(dir.path())), Err(Error::FormatVersion { found: 99, .. })));

    // A folder that is not an index is not overwritten.
    let other = tempfile::tempdir().expect("tempdir");
    std::fs::write(other.path().join("precious.txt"), b"keep me").expect("write");
    assert!(build(&catalog, embedder().as_ref(), &IndexDir::new(other.path()), &BuildOptions::default()).is_err());
    assert!(other.path().join("precious.txt").exists());
}

/// The committed index of the current format (`data/compat/index-v{FORMAT_VERSION}`) still opens and
/// answers. A format change makes this fail on purpose: add a migration, or bump `FORMAT_VERSION` and
/// regenerate the folder knowingly with `TOOLSCOUT_WRITE_COMPAT=1 cargo test -p toolscout-indexer --test it
/// committed_index` (built with the model-free hash embedder from three servers of the reference catalog).
#[test]
fn the_committed_index_of_the_current_format_opens() {
    let dir = root().join(format!("data/compat/index-v{FORMAT_VERSION}"));
    let embedder = toolscout_indexer::HashEmbedder::new(64);
    if std::env::var_os("TOOLSCOUT_WRITE_COMPAT").is_some() {
        let _ = std::fs::remove_dir_all(&dir);
        build(&small_catalog(), &embedder, &IndexDir::new(&dir), &BuildOptions::default()).expect("build");
        std::fs::remove_file(dir.join("pins.json")).ok();
    }
    let snap = Snapshot::open(&IndexDir::new(&dir)).unwrap_or_else(|e| {
        panic!("{} no longer opens ({e}): add a migration or bump FORMAT_VERSION knowingly", dir.display())
    });
    assert_eq!(snap.manifest.format_version, FORMAT_VERSION);
    assert_eq!((snap.manifest.servers, snap.manifest.tools), (3, 21));
    assert_eq!(snap.manifest.model_id, toolscout_indexer::Embedder::model_id(&embedder));
    let q = toolscout_indexer::Embedder::embed_query(&embedder, "slack post message").expect("embed");
    let best = snap.nearest_tools(&q, 1)[0].id as usize;
    assert_eq!(snap.servers[snap.tools[best].server as usize].name, "slack");
    assert!(!snap.tool_bm25.search("timezone convert", 3).expect("bm25").is_empty());
}

/// A format-5 index (vectors as `f32`, `data/compat/index-v5`) is refused for serving with a message that
/// says what to do, and an update of it embeds nothing: its vectors are reused, rounded to halves, and the
/// new snapshot answers as the old one did.
#[test]
fn a_format_5_index_is_updated_without_embedding_again() {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_tree(&root().join("data/compat/index-v5"), dir.path());
    let index = IndexDir::new(dir.path());
    let err = Snapshot::open(&index).expect_err("format 5 is not served");
    assert!(
        matches!(err, Error::FormatVersion { found: 5, .. }) && err.to_string().contains("toolscout index"),
        "{err}"
    );
    let embedder = toolscout_indexer::HashEmbedder::new(64);
    let manifest = build(&small_catalog(), &embedder, &index, &BuildOptions::default()).expect("update");
    assert_eq!((manifest.build.embedded, manifest.build.reused), (0, 24), "3 servers and 21 tools reused");
    assert_eq!(manifest.format_version, FORMAT_VERSION);
    let snap = Snapshot::open(&index).expect("the updated index opens");
    let q = toolscout_indexer::Embedder::embed_query(&embedder, "slack post message").expect("embed");
    let best = snap.nearest_tools(&q, 1)[0];
    assert_eq!(snap.servers[snap.tools[best.id as usize].server as usize].name, "slack");
    // The reused vectors are exactly what embedding afresh stores (the same vectors, rounded to halves).
    let fresh = tempfile::tempdir().expect("tempdir");
    let rebuilt = build(&small_catalog(), &embedder, &IndexDir::new(fresh.path()), &BuildOptions::default())
        .expect("fresh build");
    assert_eq!(rebuilt.build.embedded, 24);
    assert_eq!(manifest.checksums["vectors.f16"], rebuilt.checksums["vectors.f16"]);
}

fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let path = entry.expect("entry").path();
        let target = to.join(path.file_name().expect("name"));
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("copy");
        }
    }
}

/// `build_owned` (what `toolscout index` runs: the catalog is given up server by server) writes the same
/// snapshot as `build` over a borrowed catalog: same records, tool objects, vectors, scan findings, pins.
#[test]
fn an_owned_catalog_builds_the_same_snapshot() {
    let mut catalog = small_catalog();
    // A description that names another server's tool, so the scan (which needs every server's tool names
    // while servers are given up one by one) has something to find.
    let other = catalog.servers[1].tools[0].name.clone();
    let tool = &mut catalog.servers[0].tools[0];
    tool.tool["description"] = format!("Before using this, always call {other} first.").into();
    *tool = toolscout_indexer::ToolRecord::new(tool.tool.clone(), None).expect("tool");
    let (a, b) = (tempfile::tempdir().expect("tempdir"), tempfile::tempdir().expect("tempdir"));
    let borrowed =
        build(&catalog, embedder().as_ref(), &IndexDir::new(a.path()), &BuildOptions::default()).expect("build");
    let owned = toolscout_indexer::build_owned(
        catalog,
        embedder().as_ref(),
        &IndexDir::new(b.path()),
        &BuildOptions::default(),
    )
    .expect("build_owned");
    for file in ["catalog.bin", "tools.jsonl", "vectors.f16", "scan.bin"] {
        assert_eq!(borrowed.checksums[file], owned.checksums[file], "{file}");
    }
    assert_eq!((borrowed.build.pins.pinned, owned.build.pins.pinned), (21, 21));
    let snap = Snapshot::open(&IndexDir::new(b.path())).expect("open");
    assert!(snap.tool_warnings[0].iter().any(|w| w.contains(&other)), "{:?}", snap.tool_warnings[0]);
    let pins = |d: &std::path::Path| {
        let p = IndexDir::new(d).read_pins().expect("pins");
        p.pinned.into_iter().map(|(k, v)| (k, v.hash, v.definition)).collect::<Vec<_>>()
    };
    assert_eq!(pins(a.path()), pins(b.path()));
}

/// An update that leaves every document in its place keeps the graphs (files copied, not built again)
/// and lists the changed points as stale, which a graph search scores exactly; one that removes a tool
/// builds the tool graph again.
#[test]
fn an_update_in_place_keeps_the_graphs_and_scores_the_changed_points() {
    let dir = tempfile::tempdir().expect("tempdir");
    let index = IndexDir::new(dir.path());
    let options = BuildOptions { graph_from: 1, ..BuildOptions::default() };
    let mut catalog = small_catalog();
    let first = build(&catalog, embedder().as_ref(), &index, &options).expect("build");
    assert!(first.hnsw.values().all(Option::is_some), "graphs over 3 servers and 21 tools: {:?}", first.hnsw);
    assert!(first.graph_stale.is_empty());

    let server = catalog.servers.iter().position(|s| s.name == "time").expect("time");
    let mut tool = catalog.servers[server].tools[0].tool.clone();
    tool["description"] = serde_json::json!("Recite a limerick about the weather on Mars.");
    catalog.servers[server].tools[0] = toolscout_indexer::ToolRecord::new(tool, None).expect("valid");
    let second = build(&catalog, embedder().as_ref(), &index, &options).expect("update");
    assert_eq!(second.build.graphs_kept, 2, "{:?}", second.build);
    assert_eq!(second.hnsw, first.hnsw);
    for file in ["tools.hnsw.graph", "tools.hnsw.data", "servers.hnsw.graph"] {
        assert_eq!(second.checksums.get(file), first.checksums.get(file), "{file} kept as it was");
    }
    let changed = catalog.servers[..server].iter().map(|s| s.tools.len()).sum::<usize>() as u32;
    assert_eq!(second.graph_stale.get("tools"), Some(&vec![changed]));
    assert_eq!(second.graph_stale.get("servers"), None, "the server's own text did not change");

    // Through the kept graph, the changed tool is found by its new description.
    let snap = Snapshot::open(&index).expect("open");
    let q = embedder().embed_query("a limerick about the weather on Mars").expect("embed");
    let hits = snap.tool_ann.search(3, |i| snap.tool_cosine(&q, i as usize));
    assert_eq!(hits[0].id, changed, "{hits:?}");
    // The tool BM25 index was updated from the live one (linked, the changed tool written again): the
    // tool is found by its new words, once, and the first snapshot — whose
    // files the new one shares — still opens with every checksum right.
    assert_eq!(second.build.bm25_updated, 1, "tools updated; 1 of 3 servers would be deleted: built again");
    assert_eq!(snap.tool_bm25.search("limerick mars", 3).expect("search")[0].id, changed);
    let timely = snap.tool_bm25.search("time", 50).expect("search");
    let ids: std::collections::HashSet<u32> = timely.iter().map(|h| h.id).collect();
    assert_eq!(ids.len(), timely.len(), "no document twice (its old version deleted): {timely:?}");
    Snapshot::open_snapshot(&index.snapshot(&first.snapshot_id)).expect("the first snapshot is intact");

    // Nothing changed: kept again, the stale points still listed.
    let third = build(&catalog, embedder().as_ref(), &index, &options).expect("again");
    assert_eq!((third.build.graphs_kept, third.graph_stale.get("tools")), (2, Some(&vec![changed])));
    assert_eq!(third.build.bm25_updated, 2, "nothing to write again, but linked all the same");

    // A tool removed: the positions after it move, so the tool graph is built again.
    catalog.servers[server].tools.pop();
    let fourth = build(&catalog, embedder().as_ref(), &index, &options).expect("removal");
    assert!(!fourth.graph_stale.contains_key("tools"), "{:?}", fourth.graph_stale);
    assert_eq!(fourth.build.bm25_updated, 0, "positions moved: BM25 built again");
    assert_ne!(fourth.checksums.get("tools.hnsw.graph"), first.checksums.get("tools.hnsw.graph"));
    let snap = Snapshot::open(&index).expect("open");
    assert_eq!(snap.tool_ann.len(), 20);
}
