#!/usr/bin/env python3
"""Validate the hand-written training/dev request sets data/eval/handdev-*.jsonl.

These sets are written by hand, like the indep-*.jsonl test sets. They are dev sets: tuned on, never reported as
test numbers. handdev-live, handdev-mcpzero and handdev-demo share a catalog with test sets; handdev-mcpzero
and handdev-demo were filtered against them (benches/eval/overlap.py).

Standard library only. For each file it checks:

- every row is a JSON object with exactly the keys id, query, relevant, kind, source;
- ids are unique strings (hc-... for handdev-crawl.jsonl), queries are non-empty and unique (case-folded);
- kind agrees with the groups: none = no group, single = one, multi = two or more;
- no group is empty, no group repeats a pair, and every pair is exactly {"server", "tool"};
- source is handwritten-dev:positive (handdev-save: handwritten-dev:save-to-path) for positive rows, and
  handwritten-dev:near-miss:<text> or handwritten-dev:absent[:<text>] for none rows;
- every (server, tool) pair exists in the catalog that goes with the file:
  - handdev-crawl.jsonl:  <shared>/mcp-crawl.json, servers as the importer names them (the entry's `name`;
    entries with ok false or without tools are skipped, as the importer skips them);
  - handdev-docker.jsonl: <shared>/data/docker-mcp-registry/servers_with_tools.jsonl (server = the row's
    `server`, tools by `name` from the row's `tools` list);
  - handdev-save.jsonl: the crawl dump, as handdev-crawl;
  - handdev-live.jsonl: <shared>/data/livemcpbench/tools.json (server = the entry's top-level `name`);
  - handdev-mcpzero.jsonl: <shared>/data/mcp-zero-mcptools/mcp_tools.jsonl (server = the row's `name`);
  - handdev-demo.jsonl: the demo index's catalogs, data/catalog/reference-servers.jsonl and
    data/catalog/livemcpbench-tools.json (as check_indep.py reads them for indep-demo).

A handdev-*.jsonl file with no known catalog is an error. A missing file is reported and skipped (the sets are
written separately), unless it is named with --file.

Prints counts per file and kind (and near-miss / absent counts). Exits 1 on any error.

    python3 benches/eval/check_handdev.py [--shared DIR] [--file data/eval/handdev-crawl.jsonl ...]
    # DIR defaults to $TOOLSCOUT_SHARED or ../shared (next to the repository)
"""
import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path

from check_indep import livemcpbench_catalog, mcpzero_catalog, toolscout_catalog

REPO = Path(__file__).resolve().parents[2]
EVAL = REPO / "data" / "eval"
KEYS = {"id", "query", "relevant", "kind", "source"}
SRC_POS = "handwritten-dev:positive"
SRC_ABSENT = "handwritten-dev:absent"
SRC_NEAR = "handwritten-dev:near-miss:"
# handdev-save.jsonl: requests that save their result to a path (all positive).
SRC_SAVE = "handwritten-dev:save-to-path"


def crawl_catalog(shared):
    """(server, tool) pairs of the crawl dump, as the importer names them."""
    with open(shared / "mcp-crawl.json", encoding="utf-8") as f:
        data = json.load(f)
    pairs = set()
    for server in data.get("servers") or []:
        if not server.get("ok") or not server.get("tools"):
            continue
        for tool in server["tools"]:
            pairs.add((server["name"], tool["name"]))
    return pairs


def docker_catalog(shared):
    """(server, tool) pairs of the Docker MCP registry dump (one server per line)."""
    pairs = set()
    with open(shared / "data/docker-mcp-registry/servers_with_tools.jsonl", encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                for tool in row.get("tools") or []:
                    pairs.add((row["server"], tool["name"]))
    return pairs


def live_catalog(shared):
    """(server, tool) pairs of the LiveMCPBench catalog (server = the entry's top-level `name`)."""
    return livemcpbench_catalog(shared / "data/livemcpbench/tools.json")


def demo_catalog(_shared):
    """(server, tool) pairs of the demo index (README's first command): the committed reference-server crawl
    and LiveMCPBench tools, as check_indep.py reads them for indep-demo."""
    return toolscout_catalog(REPO / "data/catalog/reference-servers.jsonl") | livemcpbench_catalog(
        REPO / "data/catalog/livemcpbench-tools.json"
    )


# file name -> (required id prefix or None, catalog loader)
CATALOGS = {
    "handdev-crawl.jsonl": ("hc", crawl_catalog),
    "handdev-docker.jsonl": (None, docker_catalog),
    "handdev-save.jsonl": ("hs", crawl_catalog),
    "handdev-live.jsonl": ("hl", live_catalog),
    "handdev-mcpzero.jsonl": ("hz", mcpzero_catalog),  # as the test sets read it (check_indep.py)
    "handdev-demo.jsonl": ("hm", demo_catalog),  # filtered against indep-demo and indep-livemcp (overlap.py)
}


def check_file(path, prefix, catalog, errors):
    counts = Counter()
    ids, queries = set(), set()
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for n, line in enumerate(lines, 1):
        where = f"{path.name}:{n}"
        if not line.strip():
            errors.append(f"{where}: blank line")
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            errors.append(f"{where}: bad JSON ({e})")
            continue
        if not isinstance(row, dict) or set(row) != KEYS:
            errors.append(f"{where}: keys must be exactly {sorted(KEYS)}")
            continue
        rid, query, groups, kind, source = (row[k] for k in ("id", "query", "relevant", "kind", "source"))
        where = f"{path.name}:{n} ({rid})"
        if not isinstance(rid, str) or not rid.strip():
            errors.append(f"{where}: id must be a non-empty string")
        elif prefix and not rid.startswith(prefix + "-"):
            errors.append(f"{where}: id must start with {prefix}-")
        if rid in ids:
            errors.append(f"{where}: duplicate id")
        ids.add(rid)
        if not isinstance(query, str) or not query.strip():
            errors.append(f"{where}: empty query")
        elif query.strip().casefold() in queries:
            errors.append(f"{where}: duplicate query text")
        else:
            queries.add(query.strip().casefold())
        if not isinstance(groups, list):
            errors.append(f"{where}: relevant must be a list")
            continue
        want = "none" if not groups else "single" if len(groups) == 1 else "multi"
        if kind not in ("none", "single", "multi"):
            errors.append(f"{where}: unknown kind {kind!r}")
        elif kind != want:
            errors.append(f"{where}: kind {kind!r} but {len(groups)} group(s)")
        if not isinstance(source, str):
            errors.append(f"{where}: source must be a string")
        elif want == "none":
            near = source.startswith(SRC_NEAR) and source[len(SRC_NEAR):].strip()
            absent = source == SRC_ABSENT or (source.startswith(SRC_ABSENT + ":") and source[len(SRC_ABSENT) + 1:].strip())
            if not absent and not near:
                errors.append(f"{where}: none row needs source {SRC_NEAR}<text> or {SRC_ABSENT}[:<text>]")
        elif source not in (SRC_POS, SRC_SAVE):
            errors.append(f"{where}: positive row needs source {SRC_POS} (or {SRC_SAVE})")
        for g, group in enumerate(groups):
            if not isinstance(group, list) or not group:
                errors.append(f"{where}: group {g} is empty or not a list")
                continue
            seen = set()
            for pair in group:
                if not isinstance(pair, dict) or set(pair) != {"server", "tool"}:
                    errors.append(f"{where}: group {g} has a malformed pair {pair!r}")
                    continue
                if not isinstance(pair["server"], str) or not isinstance(pair["tool"], str):
                    errors.append(f"{where}: group {g} has a non-string pair {pair!r}")
                    continue
                key = (pair["server"], pair["tool"])
                if key in seen:
                    errors.append(f"{where}: group {g} repeats {key}")
                seen.add(key)
                if key not in catalog:
                    errors.append(f"{where}: {key} not in catalog")
        counts[kind] += 1
        if want == "none" and isinstance(source, str):
            counts["near-miss" if source.startswith(SRC_NEAR) else "absent"] += 1
    counts["rows"] = len(lines)
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shared", default=os.environ.get("TOOLSCOUT_SHARED") or str(REPO.parent / "shared"))
    ap.add_argument("--file", action="append", default=[], help="check only these files (repeatable)")
    args = ap.parse_args()
    shared = Path(args.shared)
    errors = []

    explicit = [Path(p) for p in args.file]
    paths = explicit or sorted(set(EVAL.glob("handdev-*.jsonl")) | {EVAL / name for name in CATALOGS})
    loaded = {}
    for path in paths:
        spec = CATALOGS.get(path.name)
        if spec is None:
            errors.append(f"{path}: no catalog is known for this file (expected one of {sorted(CATALOGS)})")
            continue
        if not path.exists():
            if explicit:
                errors.append(f"{path}: missing")
            else:
                print(f"{path.name}: not present, skipped")
            continue
        prefix, loader = spec
        if loader not in loaded:
            try:
                loaded[loader] = loader(shared)
            except (OSError, json.JSONDecodeError, KeyError, TypeError) as e:
                errors.append(f"{path.name}: cannot load its catalog under {shared}: {e}")
                continue
        counts = check_file(path, prefix, loaded[loader], errors)
        print(
            f"{path.name}: {counts['rows']} rows — single {counts['single']}, multi {counts['multi']}, "
            f"none {counts['none']} (near-miss {counts['near-miss']}, absent {counts['absent']})"
        )
    for e in errors:
        print(f"error: {e}", file=sys.stderr)
    if errors:
        print(f"{len(errors)} error(s)", file=sys.stderr)
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
