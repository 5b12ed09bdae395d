#!/usr/bin/env python3
"""Validate the independent hand-written test sets data/eval/indep-*.jsonl.

Standard library only. For each file it checks:

- every row is a JSON object with exactly the keys id, query, relevant, kind, source;
- ids are unique, carry the file's prefix (im- / il- / id-) and queries are non-empty and unique;
- kind agrees with the groups: none = no group, single = one, multi = two or more;
- no group is empty and no group repeats a pair;
- source is handwritten:positive for positive rows, and handwritten:near-miss:<text> or
  handwritten:absent for none rows;
- every (server, tool) pair exists in the catalog(s) that go with the file.

Prints counts per file and kind. Exits 1 on any error.

    python3 benches/eval/check_indep.py [--shared DIR]    # DIR defaults to $TOOLSCOUT_SHARED or ../shared
"""
import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
KEYS = {"id", "query", "relevant", "kind", "source"}


def mcpzero_catalog(shared):
    pairs = set()
    with open(shared / "data/mcp-zero-mcptools/mcp_tools.jsonl", encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                # Repeated server names: a pair naming such a name matches any of those rows.
                for tool in row.get("tools") or []:
                    pairs.add((row["name"], tool["name"]))
    return pairs


def livemcpbench_catalog(path):
    pairs = set()
    with open(path, encoding="utf-8") as f:
        servers = json.load(f)
    for server in servers:
        for launch in (server.get("tools") or {}).values():
            for tool in launch.get("tools") or []:
                pairs.add((server["name"], tool["name"]))
    return pairs


def toolscout_catalog(path):
    pairs = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                for tool in row.get("tools") or []:
                    pairs.add((row["name"], tool["name"]))
    return pairs


def check_file(path, prefix, catalog, errors):
    counts = Counter()
    ids, queries = set(), set()
    if not path.exists():
        errors.append(f"{path}: missing")
        return counts
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for n, line in enumerate(lines, 1):
        where = f"{path.name}:{n}"
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
        if not isinstance(rid, str) or not rid.startswith(prefix + "-"):
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
        if kind != want:
            errors.append(f"{where}: kind {kind!r} but {len(groups)} group(s)")
        if not isinstance(source, str):
            errors.append(f"{where}: source must be a string")
        elif want == "none":
            if source != "handwritten:absent" and not (
                source.startswith("handwritten:near-miss:") and len(source) > len("handwritten:near-miss:")
            ):
                errors.append(f"{where}: none row needs source handwritten:near-miss:<text> or handwritten:absent")
        elif source != "handwritten:positive":
            errors.append(f"{where}: positive row needs source handwritten:positive")
        for g, group in enumerate(groups):
            if not isinstance(group, list) or not group:
                errors.append(f"{where}: group {g} is empty or not a list")
                continue
            seen = set()
            for pair in group:
                if not isinstance(pair, dict) or set(pair) != {"server", "tool"}:
                    errors.append(f"{where}: group {g} has a malformed pair {pair!r}")
                    continue
                key = (pair["server"], pair["tool"])
                if key in seen:
                    errors.append(f"{where}: group {g} repeats {key}")
                seen.add(key)
                if key not in catalog:
                    errors.append(f"{where}: {key} not in catalog")
        counts[kind] += 1
        if kind == "none" and isinstance(source, str) and source.startswith("handwritten:near-miss:"):
            counts["near-miss"] += 1
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shared", default=os.environ.get("TOOLSCOUT_SHARED") or str(REPO.parent / "shared"))
    args = ap.parse_args()
    shared = Path(args.shared)
    errors = []
    try:
        lmb = livemcpbench_catalog(shared / "data/livemcpbench/tools.json")
        mz = mcpzero_catalog(shared)
        demo = toolscout_catalog(REPO / "data/catalog/reference-servers.jsonl") | livemcpbench_catalog(
            REPO / "data/catalog/livemcpbench-tools.json"
        )
    except (OSError, json.JSONDecodeError, KeyError) as e:
        print(f"error: cannot load catalogs: {e}", file=sys.stderr)
        return 1
    files = [
        ("indep-mcpzero.jsonl", "im", mz),
        ("indep-livemcp.jsonl", "il", lmb),
        ("indep-demo.jsonl", "id", demo),
    ]
    for name, prefix, catalog in files:
        path = REPO / "data/eval" / name
        c = check_file(path, prefix, catalog, errors)
        total = c["single"] + c["multi"] + c["none"]
        print(f"{name:22} {total:4} rows  single {c['single']:3}  multi {c['multi']:3}  "
              f"none {c['none']:3} (near-miss {c['near-miss']}, absent {c['none'] - c['near-miss']})")
    for e in errors:
        print("error:", e, file=sys.stderr)
    if errors:
        print(f"{len(errors)} error(s)", file=sys.stderr)
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
