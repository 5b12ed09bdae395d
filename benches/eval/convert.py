#!/usr/bin/env python3
"""Builds toolscout's evaluation query files under data/eval/ from the public datasets in ../shared/data.

Usage (from anywhere; paths are resolved from this file):

    python3 benches/eval/convert.py all                              # (re)write every derived file
    python3 benches/eval/convert.py check                            # validate every query file, print counts
    python3 benches/eval/convert.py livemcpbench|metatool|bfcl|mcpzero   # one dataset only
    python3 benches/eval/convert.py mcpzero-holdout-catalog OUT.jsonl   # MCP-Zero rows minus the held-out servers

Options: --shared DIR (default: $TOOLSCOUT_SHARED, else <repo>/../shared).

Python 3.11 standard library only. Deterministic: every random choice uses random.Random(f"{SEED}:<purpose>")
over sorted input, so `all` run twice writes identical bytes. data/eval/mcpzero-queries.jsonl is hand-written: this
script only reads it (split, hold-out re-labelling), never writes it. See benches/eval/README.md.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

SEED = 20261129
REPO = Path(__file__).resolve().parents[2]
OUT_DIR = REPO / "data" / "eval"
MAX_QUERY_CHARS = 300  # tool-discovery requests are short; longer rows are pasted essays/code
MAX_FILE_BYTES = 200_000  # committed MetaTool / BFCL files stay below this

# MetaTool sample sizes per split (dev and test are disjoint and the same size).
MT_SINGLE, MT_MULTI, MT_NONE = 300, 150, 150
MT_SMALL = (60, 20, 30)  # metatool-dev-small: the first rows of dev, per kind


def rng(purpose: str) -> random.Random:
    return random.Random(f"{SEED}:{purpose}")


def norm(text: str) -> str:
    """Key for exact-duplicate detection: surrounding quotes/space dropped, whitespace collapsed, case folded."""
    return " ".join(text.strip().strip('"').split()).casefold()


def dumps(obj) -> str:
    return json.dumps(obj, ensure_ascii=False)


def jsonl(rows) -> bytes:
    return "".join(dumps(r) + "\n" for r in rows).encode("utf-8")


def qrow(qid: str, query: str, groups: list, source: str | None = None) -> dict:
    kind = "none" if not groups else ("single" if len(groups) == 1 else "multi")
    row = {"id": qid, "query": query, "relevant": groups, "kind": kind}
    if source is not None:
        row["source"] = source
    return row


def read_jsonl(path: Path) -> list:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


# --------------------------------------------------------------------------------------------------------------
# LiveMCPBench (Apache-2.0): 95 tasks -> data/eval/livemcpbench.jsonl. TEST ONLY: never tune on it.
# --------------------------------------------------------------------------------------------------------------


# Gold mentions that name no tool in tools.json are dropped (5 upstream: trial_references, ddg-search,
# execute_command, get_maven_latest_version, open_document). One task's ONLY mention is one of them; for that case
# alone we use the tool the (renamed) mention clearly means, instead of leaving the task without gold.
LMB_SOLE_MENTION_ALIASES = {"get_maven_latest_version": ("Maven Dependencies MCP Server", "get_latest_release")}


def livemcpbench_catalog(shared: Path) -> dict[str, set[str]]:
    servers: dict[str, set[str]] = defaultdict(set)
    for server in json.loads((shared / "data/livemcpbench/tools.json").read_text(encoding="utf-8")):
        servers[server["name"]]  # a server without tools still exists
        for launch in (server.get("tools") or {}).values():
            for tool in launch.get("tools") or []:
                servers[server["name"]].add(tool["name"])
    return dict(servers)


def parse_gold_tools(text: str) -> list[str]:
    """`Annotator Metadata.Tools` is a numbered list: "1. name\n2. name"."""
    names = []
    for line in text.splitlines():
        m = re.match(r"^\s*\d+\s*[.)]\s*(.+?)\s*$", line)
        if m:
            names.append(m.group(1))
        elif line.strip():
            names.append(line.strip())
    return names


def build_livemcpbench(shared: Path, log) -> dict[str, bytes]:
    catalog = livemcpbench_catalog(shared)
    servers_of_tool: dict[str, list[str]] = defaultdict(list)
    for server in sorted(catalog):
        for tool in catalog[server]:
            servers_of_tool[tool].append(server)
    tasks = json.loads((shared / "data/livemcpbench/all_annotations.json").read_text(encoding="utf-8"))
    rows, dropped, aliased, mentions = [], [], [], 0
    for i, task in enumerate(tasks, 1):
        groups, seen = [], set()
        for name in parse_gold_tools(task["Annotator Metadata"]["Tools"]):
            mentions += 1
            if name in seen:
                continue
            seen.add(name)
            if name not in servers_of_tool:
                dropped.append(f"{task['task_id']}: {name}")
                continue
            groups.append([{"server": s, "tool": name} for s in servers_of_tool[name]])
        if not groups:
            # Dropping the mention would leave the task with no gold at all (it would read as "not found"), so a
            # task whose only mention is unresolvable uses the tool that the renamed mention obviously means.
            for name in seen:
                if name in LMB_SOLE_MENTION_ALIASES:
                    server, tool = LMB_SOLE_MENTION_ALIASES[name]
                    assert tool in catalog[server], (server, tool)
                    groups.append([{"server": server, "tool": tool}])
                    aliased.append(f"{task['task_id']}: {name} -> {server}/{tool}")
        if not groups:
            raise SystemExit(f"livemcpbench task {task['task_id']} has no resolvable gold tool")
        rows.append(qrow(f"lmb-{i:03d}", task["Question"].strip(), groups, f"all_annotations.json#{task['task_id']}"))
    log(f"livemcpbench: {len(rows)} tasks, {mentions} gold mentions, dropped {len(dropped)} that match no tool: "
        + "; ".join(dropped) + "; sole-mention alias used: " + "; ".join(aliased))
    return {"livemcpbench.jsonl": jsonl(rows)}


# --------------------------------------------------------------------------------------------------------------
# MetaTool (MIT): 199 ChatGPT plugins = 199 one-tool servers; single / two-tool / "no tool needed" queries.
# --------------------------------------------------------------------------------------------------------------

MT_DERIVED = "MetaTool plugin: tool object built from plugin_des.json (name, description); no input schema upstream"


def metatool_catalog_rows(shared: Path, names=None) -> list[dict]:
    plugins = json.loads((shared / "data/metatool/plugin_des.json").read_text(encoding="utf-8"))
    rows = []
    for name in sorted(plugins):
        if names is not None and name not in names:
            continue
        desc = plugins[name]
        rows.append({
            "server_id": "", "name": name, "title": None, "version": None, "description": desc or None,
            "instructions": None, "source": {"kind": "metatool", "origin": f"plugin_des.json#{name}"},
            "crawled_at": None, "protocol_version": None,
            "tools": [{"name": name,
                       "tool": {"name": name, "description": desc, "inputSchema": {"type": "object", "properties": {}}},
                       "hash": "", "derived": MT_DERIVED}],
        })
    return rows


def metatool_pools(shared: Path, log):
    """Deduplicated candidate pools: single (tool), multi (tool pair), none. Conflicting labels are dropped."""
    base = shared / "data/metatool"
    entries: dict[str, dict] = {}  # norm key -> {text, source, labels:set of (kind, tools)}
    long_dropped = Counter()

    def add(text: str, kind: str, tools: tuple, source: str):
        text = text.strip()
        if len(text) >= 2 and text[0] == text[-1] == '"' and text.count('"') == 2:
            text = text[1:-1].strip()  # some upstream rows are wrapped in one pair of quotes
        if not text:
            return
        if len(text) > MAX_QUERY_CHARS:
            long_dropped[kind] += 1
            return
        e = entries.setdefault(norm(text), {"text": text, "source": source, "labels": set()})
        e["labels"].add((kind, tools))

    with open(base / "all_clean_data.csv", newline="", encoding="utf-8") as f:
        for i, row in enumerate(csv.DictReader(f), 1):
            add(row["Query"], "single", (row["Tool"],), f"all_clean_data.csv#row{i}")
    for i, item in enumerate(json.loads((base / "Task1.json").read_text(encoding="utf-8"))):
        if item["label"] == "positive":
            add(item["query"], "single", (item["tool"],), f"Task1.json#{i}")
        else:
            add(item["query"], "none", (), f"Task1.json#{i}")
    for i, item in enumerate(json.loads((base / "multi_tool_query_golden.json").read_text(encoding="utf-8"))):
        tools = tuple(item["tool"])
        if len(set(tools)) != 2:
            continue
        add(item["query"], "multi", tools, f"multi_tool_query_golden.json#{i}")

    pools = {"single": [], "multi": [], "none": []}
    conflicts = 0
    for key in sorted(entries):
        e = entries[key]
        if len(e["labels"]) != 1:
            conflicts += 1
            continue
        kind, tools = next(iter(e["labels"]))
        pools[kind].append((key, e["text"], tools, e["source"]))
    log(f"metatool pools after exact-dedupe: single {len(pools['single'])}, multi {len(pools['multi'])}, "
        f"none {len(pools['none'])}; dropped {conflicts} texts with conflicting labels, "
        f"over {MAX_QUERY_CHARS} chars: {dict(sorted(long_dropped.items()))}")
    return pools


def stratified_by_tool(pool: list, r: random.Random) -> list:
    """Round-robin over tools (tool order shuffled once) so that every tool appears before any repeats."""
    by_tool: dict[str, list] = defaultdict(list)
    for item in pool:
        by_tool[item[2][0]].append(item)
    tools = sorted(by_tool)
    r.shuffle(tools)
    for t in tools:
        r.shuffle(by_tool[t])
    out, depth = [], 0
    while len(out) < len(pool):
        for t in tools:
            if depth < len(by_tool[t]):
                out.append(by_tool[t][depth])
        depth += 1
    return out


def relabel(rows: list, held: set[str]) -> tuple[list, Counter]:
    """Re-labels queries against a catalog without the `held` servers: all groups gone -> none; all groups still
    served -> kept with the remaining alternatives; some gone -> dropped. `none` queries stay."""
    out, stats = [], Counter()
    for row in rows:
        if not row["relevant"]:
            out.append(dict(row))
            stats["none kept"] += 1
            continue
        kept = [[p for p in g if p["server"] not in held] for g in row["relevant"]]
        if all(not g for g in kept):
            out.append({**row, "relevant": [], "kind": "none"})
            stats["positive -> none"] += 1
        elif all(kept):
            out.append({**row, "relevant": kept})
            stats["positive kept"] += 1
        else:
            stats["partially served, dropped"] += 1
    return out, stats


def holdout_half(names: list[str], purpose: str) -> set[str]:
    names = sorted(set(names))
    rng(purpose).shuffle(names)
    return set(names[: len(names) // 2])


def build_metatool(shared: Path, log) -> dict[str, bytes]:
    files = {}
    catalog = metatool_catalog_rows(shared)
    files["metatool-catalog.jsonl"] = jsonl(catalog)
    pools = metatool_pools(shared, log)

    def pair(tool):
        return [{"server": tool, "tool": tool}]

    single = stratified_by_tool(pools["single"], rng("metatool-single"))[: 2 * MT_SINGLE]
    multi = list(pools["multi"])
    rng("metatool-multi").shuffle(multi)
    multi = multi[: 2 * MT_MULTI]
    none = list(pools["none"])
    rng("metatool-none").shuffle(none)
    none = none[: 2 * MT_NONE]

    splits = {"dev": [], "test": []}
    # Alternate (dev, test) along each sample order, so both splits cover the same tools equally.
    for kind, sample in (("single", single), ("multi", multi), ("none", none)):
        for n, (_key, text, tools, source) in enumerate(sample):
            groups = [pair(t) for t in tools]
            splits["dev" if n % 2 == 0 else "test"].append(
                qrow(f"mt-{kind}-{n + 1:03d}", text, groups, source))
    for name, rows in splits.items():
        files[f"metatool-{name}.jsonl"] = jsonl(rows)
    small = []
    quota = dict(zip(("single", "multi", "none"), MT_SMALL))
    for row in splits["dev"]:
        if quota[row["kind"]] > 0:
            quota[row["kind"]] -= 1
            small.append(row)
    files["metatool-dev-small.jsonl"] = jsonl(small)

    held = holdout_half([row["name"] for row in catalog], "metatool-holdout")
    files["metatool-catalog-holdout.jsonl"] = jsonl([row for row in catalog if row["name"] not in held])
    dev_holdout, stats = relabel(splits["dev"], held)
    files["metatool-dev-holdout.jsonl"] = jsonl(dev_holdout)
    log(f"metatool hold-out: {len(held)} of {len(catalog)} plugins held out; dev re-labelled: {dict(stats)}")
    return files


def write_metatool_train(shared: Path, out: Path, singles: int = 1600) -> None:
    """A training set for `toolscout calibrate` (never committed: it is rebuilt from ../shared): MetaTool
    queries from the same pools as dev and test but after the rows dev and test took, so no training text
    is a dev or test text (the pools are de-duplicated by normalized text). Counts as in-domain for MetaTool."""
    pools = metatool_pools(shared, lambda *_: None)
    single = stratified_by_tool(pools["single"], rng("metatool-single"))[2 * MT_SINGLE: 2 * MT_SINGLE + singles]
    multi = list(pools["multi"])
    rng("metatool-multi").shuffle(multi)
    none = list(pools["none"])
    rng("metatool-none").shuffle(none)
    rows = []
    for kind, sample in (("single", single), ("multi", multi[2 * MT_MULTI:]), ("none", none[2 * MT_NONE:])):
        for n, (_key, text, tools, source) in enumerate(sample):
            rows.append(qrow(f"mt-train-{kind}-{n + 1:04d}", text, [[{"server": t, "tool": t}] for t in tools], source))
    held = {json.loads(line)["query"] for f in ("metatool-dev.jsonl", "metatool-test.jsonl")
            for line in (OUT_DIR / f).read_text(encoding="utf-8").splitlines()}
    assert not any(r["query"] in held for r in rows), "a training text is in dev or test"
    out.write_bytes(jsonl(rows))
    print(f"wrote {out}: {len(rows)} rows ({Counter(r['kind'] for r in rows)})")


def write_bfcl_multiple(shared: Path, out_dir: Path) -> None:
    """Training and evaluation data from BFCL v4 live_multiple (Apache-2.0), never committed: 1,053 real user
    requests, each with its own list of candidate functions (the gold one plus same-domain distractors). Each
    distinct list becomes a server; its functions become tools (`parameters` of type "dict" become the
    input schema with type "object"; marked derived). A request's gold is its gold function in its own
    server, plus every identical function (same name and description) elsewhere; a function of the same name
    with another description is listed in `also_serves` (not counted by recall, left out of the request's
    near-miss twin). The servers are split 60/20/20 into train / dev / test, so no request of a test server is
    trained on."""
    base = shared / "data/bfcl"
    rows = [json.loads(l) for l in (base / "BFCL_v4_live_multiple.json").read_text(encoding="utf-8").splitlines() if l]
    answers = {}
    for l in (base / "possible_answer/BFCL_v4_live_multiple.json").read_text(encoding="utf-8").splitlines():
        if l:
            a = json.loads(l)
            answers[a["id"]] = a
    sets: dict[tuple, str] = {}
    servers: dict[str, dict] = {}
    same: dict[tuple, set] = defaultdict(set)  # (name, description) -> {(server, name)}
    for row in rows:
        sig = tuple(sorted((f["name"], f.get("description", "")) for f in row["function"]))
        if sig not in sets:
            name = f"bfcl-set-{len(sets) + 1:03d}"
            sets[sig] = name
            tools = []
            for f in row["function"]:
                schema = json.loads(json.dumps(f.get("parameters") or {"type": "object"}))
                if schema.get("type") == "dict":
                    schema["type"] = "object"
                tools.append({"name": f["name"], "description": f.get("description", ""), "inputSchema": schema})
                same[(f["name"], f.get("description", ""))].add((name, f["name"]))
            servers[name] = {
                "server_id": name, "name": name, "title": None, "version": None, "description": None,
                "instructions": None, "source": {"kind": "bfcl", "origin": f"BFCL_v4_live_multiple.json#{row['id']}"},
                "crawled_at": None, "protocol_version": None,
                "tools": [{"name": t["name"], "tool": t, "hash": "",
                           "derived": "bfcl: parameters of type dict given as an object schema"} for t in tools],
            }
    by_name: dict[str, set] = defaultdict(set)  # name -> {(server, name)}, whatever the description
    for pairs in same.values():
        for server, name in pairs:
            by_name[name].add((server, name))
    names = sorted(servers)
    rng("bfcl-multiple-split").shuffle(names)
    cut1, cut2 = int(len(names) * 0.6), int(len(names) * 0.8)
    split_of = {n: ("train" if i < cut1 else "dev" if i < cut2 else "test") for i, n in enumerate(names)}
    splits = {"train": [], "dev": [], "test": []}
    for row in rows:
        sig = tuple(sorted((f["name"], f.get("description", "")) for f in row["function"]))
        server = sets[sig]
        gold = list(answers[row["id"]]["ground_truth"][0].keys())[0]
        desc = next(f.get("description", "") for f in row["function"] if f["name"] == gold)
        pairs = sorted(same[(gold, desc)])
        users = [m["content"] for turn in row["question"] for m in turn if m["role"] == "user"]
        text = (users[-1] if users else "").strip()
        if not text or len(text) > MAX_QUERY_CHARS:
            continue
        q = qrow(f"bfcl-{row['id']}", text, [[{"server": s, "tool": t} for s, t in pairs]],
                 f"BFCL_v4_live_multiple.json#{row['id']}")
        # The same function under other lists with another description (an enum more or less, a reworded
        # sentence) is not labelled right, but may serve the request: its near-miss twin leaves it out too.
        also = sorted(by_name[gold] - set(pairs))
        if also:
            q["also_serves"] = [{"server": s, "tool": t} for s, t in also]
        splits[split_of[server]].append(q)
    out_dir.mkdir(parents=True, exist_ok=True)
    # The catalog's server objects use our JSONL catalog format (tools as objects with hash computed on import).
    (out_dir / "bfcl-catalog.jsonl").write_bytes(jsonl([servers[n] for n in sorted(servers)]))
    for split, qs in splits.items():
        (out_dir / f"bfcl-{split}.jsonl").write_bytes(jsonl(qs))
    print(f"wrote {out_dir}: {len(servers)} servers, {sum(len(s['tools']) for s in servers.values())} tools; "
          + ", ".join(f"{k} {len(v)}" for k, v in splits.items()))


def write_small_catalogs(shared: Path, out_dir: Path) -> None:
    """Small catalogs for calibration (never committed; rebuilt from ../shared and the hand-written dev sets):
    a decision fitted only on catalogs of hundreds or thousands of tools misjudges a catalog of a dozen
    servers, where the right tool often has no close neighbours and scores lower. Each small catalog keeps a
    fixed random sample of servers of the crawl dump or the Docker registry; the hand-written dev queries are
    re-labelled against it (all groups served: kept; no group served: `none`; partly served: dropped)."""
    crawl = json.loads((shared / "mcp-crawl.json").read_text(encoding="utf-8"))
    usable = sorted(e["name"] for e in crawl["servers"] if e.get("ok", True) and e.get("tools"))
    docker_rows = read_jsonl(shared / "data/docker-mcp-registry/servers_with_tools.jsonl")
    docker_names = sorted(r["server"] for r in docker_rows)
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, names, size, queries in (("crawl-small-a", usable, 15, "handdev-crawl.jsonl"),
                                       ("crawl-small-b", usable, 25, "handdev-crawl.jsonl"),
                                       ("docker-small", docker_names, 10, "handdev-docker.jsonl")):
        pool = list(names)
        rng(f"small-catalog:{name}").shuffle(pool)
        keep = set(pool[:size])
        if name.startswith("crawl"):
            doc = {**crawl, "servers": [e for e in crawl["servers"] if e["name"] in keep]}
            (out_dir / f"{name}.json").write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
        else:
            (out_dir / f"{name}.jsonl").write_bytes(jsonl([r for r in docker_rows if r["server"] in keep]))
        rows = read_jsonl(OUT_DIR / queries)
        relabelled, stats = relabel(rows, set(names) - keep)
        (out_dir / f"{name}-queries.jsonl").write_bytes(jsonl(relabelled))
        print(f"wrote {out_dir}/{name}: {size} servers; queries {dict(stats)}")


# --------------------------------------------------------------------------------------------------------------
# BFCL irrelevance (Apache-2.0): kind "none" queries, filtered so that no tool in our catalogs could serve them.
# --------------------------------------------------------------------------------------------------------------

# Pass 1: a row is dropped when any of these (case-insensitive, at a word start) occurs in its text. The topics
# are the ones tools in the LiveMCPBench / MetaTool / tests/mcp-servers catalogs cover.
BFCL_KEYWORDS = r"""
weather forecast temperature rain snow wind humidity climate sunny sunset sunrise air.?quality
maps? geocod latitude longitude coordinates address location directions? route distance kilomet km miles? nearby near.me navigat
search google bing web internet browse website url http www link look.?up online wikipedia wiki
e.?mail mail inbox gmail sms text.message slack
calendar meeting schedul appointment remind event
files? folder director pdf documents? docx excel spreadsheet csv upload download
translat spanish french german chinese japanese korean
stocks? shares? price finance financial market invest crypto bitcoin currenc exchange.rate dollar usd eur loan interest mortgage bank tax salary revenue profit payment pay transaction
news headline latest current today tonight tomorrow yesterday recent trend
code python script program javascript java sql execut compil bash shell command terminal
calculat compute sum multipl divid subtract plus minus equation solve math area volume roots? derivative integral probability average mean median percent factorial fibonacci prime square \d+\s*[-+*/x]\s*\d+ how.many how.much
convert conversion units? pounds? kilogram kg celsius fahrenheit inch meter liter gallon feet
time clock timezone date
buy shop order purchase products? cart deliver store sizes? stock restock color colou
flights? hotel travel trip airline airport train bus taxi cab uber ride ticket book reserv vacation visa tour rent
music songs? playlist album lyrics movies? film tv show netflix games? video youtube podcast
recipe cook ingredient food restaurant dinner lunch breakfast meal calori nutrition diet dessert
sports? football soccer basketball nba nfl tennis team player match score league cup championship
jobs? resume career hire hiring
doctor health medical symptom disease drug medicine hospital therapist
images? photo picture draw chart diagram graph plot
github git repositor commit pull.request
database postgres mysql kubernetes docker cluster pod
whois dns subdomain resolution certificate
memory remember notes? todo
poem story essay write rewrite summar
law legal
""".split()
BFCL_KEYWORD_RE = re.compile(r"\b(?:" + "|".join(BFCL_KEYWORDS) + r")", re.IGNORECASE)

# Pass 2 (manual, after reading every row): keyword hits that are false alarms, kept with the reason ...
BFCL_KEEP_RESCUED = {
    "I148": "colour-mixing advice for a painting, no tool",
    "I150": "colour-mixing advice, no tool",
    "L15-2-3": "VirusTotal graph lookup; 'graph' is not a chart request",
    "L17-2-5": "VirusTotal comments; 'interest' is not finance",
    "L273-58-0": "write a poem: plain generation, no tool",
    "L301-75-0": "a statement, not a request ('Unit' from United States)",
    "L424-101-1": "intent-classification question; 'show' is not a TV show",
    "L434-108-0": "intent-classification question; 'bank' is only an example intent",
    "L472-132-0": "adjust a store's inventory counts: no inventory tool in the catalogs",
    "L738-252-0": "Instana events; 'event' is not a calendar event",
    "L769-278-0": "is a text relevant to a keyword: reasoning, not a calendar request",
}
# ... and rows without a keyword hit that are dropped anyway, by reason. I = irrelevance_N, L = live_irrelevance_N.
BFCL_MANUAL_DROP = {
    "not English": "L182-31-1 L184-31-3 L189-32-2 L194-32-7 L197-32-10 L203-32-16 L205-32-18 L210-33-0 L211-34-0 "
                   "L219-34-8 L297-73-4 L298-73-5 L350-81-11 L371-81-32 L495-142-6 L535-167-0 L536-167-1 L742-254-2 "
                   "L832-324-0 L836-327-0 L846-336-0",
    "not a request (gibberish, fragment, placeholder, log/error/doc text, system prompt, profanity)":
        "L103-3-0 L104-4-0 L106-5-0 L107-5-1 L111-7-1 L124-10-0 L142-13-8 L143-13-9 L147-15-0 L148-15-1 L151-16-0 "
        "L152-16-1 L164-21-0 L172-26-0 L178-29-1 L234-39-0 L249-50-0 L252-53-0 L259-56-2 L260-56-3 L261-56-4 "
        "L262-56-5 L263-56-6 L264-56-7 L285-67-0 L286-68-0 L287-69-0 L289-71-0 L290-71-1 L291-72-0 L294-73-1 "
        "L299-73-6 L319-76-17 L323-76-21 L340-81-1 L358-81-19 L381-81-42 L408-90-0 L412-92-1 L419-97-0 "
        "L438-110-0 L439-110-1 L455-122-0 L463-128-0 L474-133-0 L475-133-1 L477-134-1 L488-141-1 L491-142-2 "
        "L492-142-3 L496-142-7 L500-146-0 L508-149-1 L513-152-0 L552-169-5 L556-169-9 L558-171-0 L572-179-1 "
        "L577-180-0 L715-237-2 L721-239-0 L735-249-1 L749-260-0 L750-261-0 L755-266-0 L759-270-0 L760-271-0 "
        "L796-305-0 L797-305-1 L803-305-7 L805-305-9 L816-314-0 L818-314-2 L822-315-0 L826-319-0 L828-321-0 "
        "L831-323-1 L850-340-0 L857-346-0 L863-350-0 L868-354-0 L872-357-0",
    "near-duplicate of a kept row": "L63-2-51 L75-2-63 L96-2-84 L99-2-87 L190-32-3 L295-73-2 L315-76-13 "
                                    "L489-142-0 L501-146-1 L505-148-2 L510-150-1 L515-154-0",
    "factual lookup that web search / Wikipedia / a knowledge tool answers":
        "I23 I25 I29 I32 I34 I35 I41 I42 I44 I53 I85 I87 I96 I105 I107 I119 I126 I132 I135 I137 I139 I140 I141 "
        "I142 I143 I145 I147 I151 I152 I153 I154 I155 I159 I160 I162 I164 I165 I175 I181 I183 I189 I200 I225 "
        "L13-2-1 L38-2-26 L61-2-49 L129-11-4 L131-11-6 L136-13-2 L140-13-6 L144-13-10 L165-21-1 L241-45-0 "
        "L269-57-4 L307-76-5 L335-79-0 L336-79-1 L369-81-30 L380-81-41 L469-130-1 L479-135-1 L481-136-1 "
        "L485-139-0 L543-168-6 L734-249-0 L810-309-0 L817-314-1 L824-317-0 L852-342-0 L853-343-0 L855-345-0",
    "calculation / finance": "I11 I14 I18 I72 I73 L356-81-17 L675-216-0 L733-248-0",
    "law (MetaTool LawTool)": "I86 I89 I91 I93",
    "places, local services, housing, travel, things to do": "I37 I92 I101 I210 I213 I223 I236 I237 L330-76-28 "
        "L354-81-15 L568-176-0 L569-177-0 L581-182-1 L582-182-2 L583-182-3 L584-182-4 L586-182-6 L595-190-0 "
        "L596-191-0 L640-203-0 L643-203-3 L646-205-0 L648-205-2 L650-205-4 L651-206-0 L652-206-1 L653-206-2 "
        "L662-211-2 L665-211-5 L671-214-0 L672-215-0 L674-215-2 L678-219-0 L681-220-1 L690-225-0 L696-226-0 "
        "L705-231-0 L745-256-0 L839-329-0",
    "shopping, product availability, fashion": "I163 I218 L183-31-2 L193-32-6 L209-32-22 L213-34-2 L215-34-4 "
        "L216-34-5 L230-36-1 L716-237-3 L746-257-0",
    "weather, time, calendar": "L110-7-0 L112-7-2 L158-19-0 L476-134-0 L574-179-3",
    "music, recipes, fitness, games": "I173 I176 I212 I221 L275-60-0 L276-60-1 L277-60-2 L278-60-3 L725-241-1 "
        "L829-322-0 L849-339-0",
    "a catalog tool serves it (memory, shell/desktop, code, images, MBTI, courses, puzzles, social, plants, jokes)":
        "I106 I127 I129 I130 I167 I168 I204 L122-9-2 L293-73-0 L324-76-22 L375-81-36 L379-81-40 L382-81-43 "
        "L397-81-58 L456-123-0 L507-149-0 L511-151-0 L527-162-2 L528-162-3 L530-164-0 L532-164-2 L537-168-0 "
        "L539-168-2 L542-168-5 L545-168-8 L546-168-9 L564-172-5 L812-310-0 L815-313-0 L840-330-0",
    "domain / IP / DNS info (Whois MCP, MetaTool URLTool serve it)": "L16-2-4 L18-2-6 L22-2-10 L26-2-14 "
        "L33-2-21 L43-2-31 L48-2-36 L55-2-43 L68-2-56 L100-2-88",
    "comments on social sites (reads like a Reddit/Twitter/Slack request)": "L30-2-18 L73-2-61 L76-2-64 L101-2-89",
}
BFCL_FILES = ("BFCL_v4_irrelevance.json", "BFCL_v4_live_irrelevance.json")


def bfcl_full_id(short: str) -> str:
    return ("live_irrelevance_" if short[0] == "L" else "irrelevance_") + short[1:]


def bfcl_candidates(shared: Path):
    """(id, file, text) for every row: the text of its last user message."""
    for fname in BFCL_FILES:
        with open(shared / "data/bfcl" / fname, encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                row = json.loads(line)
                users = [m for turn in row["question"] for m in turn if m.get("role") == "user"]
                yield row["id"], fname, (users[-1]["content"] if users else "").strip()


def bfcl_filter(shared: Path) -> tuple[list, Counter]:
    rescued = {bfcl_full_id(k) for k in BFCL_KEEP_RESCUED}
    manual = {}
    for reason, ids in BFCL_MANUAL_DROP.items():
        for short in ids.split():
            assert bfcl_full_id(short) not in manual, short
            manual[bfcl_full_id(short)] = reason
    kept, stats, seen, used = [], Counter(), set(), set()
    for rid, fname, text in bfcl_candidates(shared):
        if not any(ch.isalnum() for ch in text) or len(text) > MAX_QUERY_CHARS or not text.isascii():
            stats["empty, over 300 chars or non-ASCII"] += 1
            continue
        key = re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()
        if key in seen:
            stats["exact duplicate"] += 1
            continue
        seen.add(key)
        hit = BFCL_KEYWORD_RE.search(text)
        if hit and rid not in rescued:
            stats["keyword"] += 1
            continue
        if rid in rescued:
            assert hit, f"{rid} is in BFCL_KEEP_RESCUED but no keyword fires"
            used.add(rid)
        elif rid in manual:
            stats["manual: " + manual[rid]] += 1
            used.add(rid)
            continue
        kept.append((rid, fname, text))
    unused = (rescued | set(manual)) - used
    assert not unused, f"BFCL lists name rows that never reach the manual pass: {sorted(unused)}"
    return kept, stats


def build_bfcl(shared: Path, log) -> dict[str, bytes]:
    kept, stats = bfcl_filter(shared)
    rows = [qrow(f"bfcl-{rid}", text, [], f"{fname}#{rid}") for rid, fname, text in kept]
    order = sorted(range(len(rows)), key=lambda i: rows[i]["id"])
    rng("bfcl-split").shuffle(order)
    dev_idx = set(order[: len(rows) // 2])
    dev = [r for i, r in enumerate(rows) if i in dev_idx]
    test = [r for i, r in enumerate(rows) if i not in dev_idx]
    log(f"bfcl: kept {len(rows)} (dev {len(dev)}, test {len(test)}); dropped: "
        + ", ".join(f"{k} {v}" for k, v in sorted(stats.items())))
    return {"bfcl-none.jsonl": jsonl(rows), "bfcl-none-dev.jsonl": jsonl(dev), "bfcl-none-test.jsonl": jsonl(test)}


# --------------------------------------------------------------------------------------------------------------
# MCP-Zero corpus (internal use only: never copy its texts here). Our hand-written queries -> split + hold-out.
# --------------------------------------------------------------------------------------------------------------

MZ_QUERIES = "mcpzero-queries.jsonl"
MZ_HOLDOUT = "mcpzero-holdout-servers.txt"


def mcpzero_rows(shared: Path) -> list[dict]:
    return read_jsonl(shared / "data/mcp-zero-mcptools/mcp_tools.jsonl")


def mcpzero_catalog(shared: Path, held: set[str] = frozenset()) -> dict[str, set[str]]:
    servers: dict[str, set[str]] = defaultdict(set)
    for row in mcpzero_rows(shared):
        if row["name"] not in held:
            servers[row["name"]].update(t["name"] for t in row.get("tools") or [])
    return dict(servers)


def gold_servers(row: dict) -> set[str]:
    return {p["server"] for g in row["relevant"] for p in g}


def split_by_server(rows: list, purpose: str) -> tuple[list, list, list[str]]:
    """Splits positives so that queries sharing a gold server land in the same split. Queries are linked through
    shared servers; while the largest linked component holds more than 40% of the positives, the server found in
    most of its queries is declared a hub and ignored for linking (only hubs may appear in both splits).
    Components are then placed, largest first, on the side that keeps the single and multi counts most even, then
    improved by moving / swapping components while that evens them further; `none` queries alternate. Returns
    (dev, test, hubs)."""
    r = rng(purpose)
    pos = [q for q in rows if q["relevant"]]
    neg = [q for q in rows if not q["relevant"]]
    hubs: list[str] = []

    def components():
        parent = list(range(len(pos)))

        def find(i):
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        first: dict[str, int] = {}
        for i, q in enumerate(pos):
            for s in sorted(gold_servers(q) - set(hubs)):
                if s in first:
                    parent[find(i)] = find(first[s])
                else:
                    first[s] = i
        comps = defaultdict(list)
        for i in range(len(pos)):
            comps[find(i)].append(pos[i])
        return list(comps.values())

    while True:
        comps = components()
        biggest = max(comps, key=len)
        if len(biggest) <= 0.4 * len(pos):
            break
        count = Counter(s for q in biggest for s in gold_servers(q) - set(hubs))
        hubs.append(min(count, key=lambda s: (-count[s], s)))
    comps.sort(key=lambda c: min(q["id"] for q in c))
    r.shuffle(comps)
    comps.sort(key=len, reverse=True)  # stable: equal sizes keep the shuffled order
    kinds = [Counter(q["kind"] for q in comp) for comp in comps]
    side = [0] * len(comps)  # 0 = dev, 1 = test

    def imbalance():
        d = Counter()
        for k, s in zip(kinds, side):
            d.update({kind: n if s == 0 else -n for kind, n in k.items()})
        return d["single"] ** 2 + d["multi"] ** 2

    for i in range(len(comps)):  # greedy, largest first
        side[i] = min((0, 1), key=lambda s: (side.__setitem__(i, s) or imbalance(), s))
    improved = True
    while improved:  # then single moves and pairwise swaps while they reduce the imbalance
        improved = False
        best = imbalance()
        for i in range(len(comps)):
            for j in [None, *range(i + 1, len(comps))]:
                if j is not None and side[i] == side[j]:
                    continue
                side[i] ^= 1
                if j is not None:
                    side[j] ^= 1
                if imbalance() < best:
                    best, improved = imbalance(), True
                else:
                    side[i] ^= 1
                    if j is not None:
                        side[j] ^= 1
    split = {"dev": [], "test": []}
    for comp, s in zip(comps, side):
        split["dev" if s == 0 else "test"].extend(comp)
    neg = sorted(neg, key=lambda q: q["id"])
    r.shuffle(neg)
    for n, q in enumerate(neg):  # `none` queries alternate
        split["dev" if n % 2 == 0 else "test"].append(q)
    order = {q["id"]: i for i, q in enumerate(rows)}
    dev = sorted(split["dev"], key=lambda q: order[q["id"]])
    test = sorted(split["test"], key=lambda q: order[q["id"]])
    return dev, test, hubs


def build_mcpzero(shared: Path, log) -> dict[str, bytes]:
    queries = read_jsonl(OUT_DIR / MZ_QUERIES)
    dev, test, hubs = split_by_server(queries, "mcpzero-split")
    shared_servers = sorted(set().union(*map(gold_servers, dev)) & set().union(*map(gold_servers, test)))
    log(f"mcpzero split: dev {len(dev)} ({dict(Counter(q['kind'] for q in dev))}), test {len(test)} "
        f"({dict(Counter(q['kind'] for q in test))}); hubs ignored for linking: {hubs}; "
        f"servers in both splits: {shared_servers}")
    held = holdout_half([row["name"] for row in mcpzero_rows(shared)], "mcpzero-holdout")
    dev_holdout, stats = relabel(dev, held)
    log(f"mcpzero hold-out: {len(held)} of {len(set(r['name'] for r in mcpzero_rows(shared)))} server names held out; "
        f"dev re-labelled: {dict(stats)}")
    return {
        "mcpzero-dev.jsonl": jsonl(dev),
        "mcpzero-test.jsonl": jsonl(test),
        MZ_HOLDOUT: "".join(f"{name}\n" for name in sorted(held)).encode("utf-8"),
        "mcpzero-dev-holdout.jsonl": jsonl(dev_holdout),
    }


def read_holdout_names() -> set[str]:
    return {line.rstrip("\n") for line in (OUT_DIR / MZ_HOLDOUT).read_text(encoding="utf-8").splitlines() if line}


def write_mcpzero_holdout_catalog(shared: Path, out: Path) -> None:
    """The MCP-Zero corpus minus the held-out servers, as unchanged `mcp_tools.jsonl` lines (toolscout's importer
    detects that format), so the remaining-servers catalog is made at eval time and never committed."""
    held = read_holdout_names()
    src = shared / "data/mcp-zero-mcptools/mcp_tools.jsonl"
    kept = 0
    with open(src, encoding="utf-8") as f, open(out, "w", encoding="utf-8", newline="\n") as w:
        for line in f:
            if line.strip() and json.loads(line)["name"] not in held:
                w.write(line if line.endswith("\n") else line + "\n")
                kept += 1
    print(f"wrote {out}: {kept} server rows ({len(held)} names held out)")


# --------------------------------------------------------------------------------------------------------------
# all / check
# --------------------------------------------------------------------------------------------------------------

BUILDERS = {"livemcpbench": build_livemcpbench, "metatool": build_metatool, "bfcl": build_bfcl,
            "mcpzero": build_mcpzero}


def build(names, shared: Path, log) -> dict[str, bytes]:
    files = {}
    for name in names:
        files.update(BUILDERS[name](shared, log))
    return files


def catalog_from_file(path: Path) -> dict[str, set[str]]:
    """Reads one of our catalog JSONL files and checks the fields our reader needs."""
    servers: dict[str, set[str]] = defaultdict(set)
    for n, row in enumerate(read_jsonl(path), 1):
        for key in ("server_id", "name", "source", "tools"):
            assert key in row, f"{path.name} line {n}: no {key!r}"
        assert {"kind", "origin"} <= set(row["source"]), f"{path.name} line {n}: bad source"
        servers[row["name"]]
        for t in row["tools"]:
            assert isinstance(t["tool"], dict) and t["tool"].get("name") == t["name"], f"{path.name} line {n}"
            servers[row["name"]].add(t["name"])
    return dict(servers)


def check(shared: Path) -> int:
    errors: list[str] = []
    catalogs = {
        "livemcpbench": livemcpbench_catalog(shared),
        "metatool": catalog_from_file(OUT_DIR / "metatool-catalog.jsonl"),
        "metatool-holdout": catalog_from_file(OUT_DIR / "metatool-catalog-holdout.jsonl"),
        "mcpzero": mcpzero_catalog(shared),
        "mcpzero-holdout": mcpzero_catalog(shared, read_holdout_names()),
        "any": None,  # BFCL: none-only, valid against any catalog
    }
    query_files = {
        "livemcpbench.jsonl": "livemcpbench",
        "metatool-dev.jsonl": "metatool", "metatool-test.jsonl": "metatool", "metatool-dev-small.jsonl": "metatool",
        "metatool-dev-holdout.jsonl": "metatool-holdout",
        "bfcl-none.jsonl": "any", "bfcl-none-dev.jsonl": "any", "bfcl-none-test.jsonl": "any",
        MZ_QUERIES: "mcpzero", "mcpzero-dev.jsonl": "mcpzero", "mcpzero-test.jsonl": "mcpzero",
        "mcpzero-dev-holdout.jsonl": "mcpzero-holdout",
    }
    loaded = {}
    print(f"{'file':32} {'catalog':17} {'rows':>5} {'single':>6} {'multi':>6} {'none':>5} {'bytes':>8}")
    for fname, cat_name in query_files.items():
        path = OUT_DIR / fname
        if not path.exists():
            errors.append(f"{fname}: missing")
            continue
        rows = read_jsonl(path)
        loaded[fname] = rows
        catalog = catalogs[cat_name]
        ids = Counter(r.get("id") for r in rows)
        errors += [f"{fname}: duplicate id {i}" for i, c in ids.items() if c > 1]
        for row in rows:
            where = f"{fname} {row.get('id')}"
            extra = set(row) - {"id", "query", "relevant", "kind", "source"}
            if extra or not {"id", "query", "relevant", "kind"} <= set(row):
                errors.append(f"{where}: bad keys {sorted(row)}")
                continue
            if not isinstance(row["query"], str) or not any(ch.isalnum() for ch in row["query"]):
                errors.append(f"{where}: empty query")
            groups = row["relevant"]
            want = "none" if not groups else ("single" if len(groups) == 1 else "multi")
            if row["kind"] != want:
                errors.append(f"{where}: kind {row['kind']!r} but {len(groups)} groups")
            for g in groups:
                if not isinstance(g, list) or not g:
                    errors.append(f"{where}: empty group")
                    continue
                pairs = [(p.get("server"), p.get("tool")) for p in g]
                if len(set(pairs)) != len(pairs) or any(set(p) != {"server", "tool"} for p in g):
                    errors.append(f"{where}: malformed or repeated pair in {g}")
                for server, tool in pairs:
                    if catalog is None:
                        errors.append(f"{where}: a positive in a none-only file")
                    elif server not in catalog:
                        errors.append(f"{where}: server {server!r} not in the {cat_name} catalog")
                    elif tool not in catalog[server]:
                        errors.append(f"{where}: tool {server!r}/{tool!r} not in the {cat_name} catalog")
        kinds = Counter(r["kind"] for r in rows)
        size = path.stat().st_size
        print(f"{fname:32} {cat_name:17} {len(rows):5} {kinds['single']:6} {kinds['multi']:6} {kinds['none']:5} {size:8}")
        if (fname.startswith("metatool") or fname.startswith("bfcl")) and size >= MAX_FILE_BYTES:
            errors.append(f"{fname}: {size} bytes, over {MAX_FILE_BYTES}")
    for fname in ("metatool-catalog.jsonl", "metatool-catalog-holdout.jsonl"):
        size = (OUT_DIR / fname).stat().st_size
        print(f"{fname:32} {'(catalog)':17} {len(read_jsonl(OUT_DIR / fname)):5} servers{'':14} {size:8}")
    print(f"{MZ_HOLDOUT:32} {'(server names)':17} {len(read_holdout_names()):5}")

    def ids(f):
        return {r["id"] for r in loaded.get(f, [])}

    def texts(f):
        return {norm(r["query"]) for r in loaded.get(f, [])}

    for a, b in (("metatool-dev.jsonl", "metatool-test.jsonl"), ("bfcl-none-dev.jsonl", "bfcl-none-test.jsonl"),
                 ("mcpzero-dev.jsonl", "mcpzero-test.jsonl")):
        if ids(a) & ids(b) or texts(a) & texts(b):
            errors.append(f"{a} and {b} share rows")
    for sub, sup in (("metatool-dev-small.jsonl", "metatool-dev.jsonl"), ("metatool-dev-holdout.jsonl",
                     "metatool-dev.jsonl"), ("mcpzero-dev-holdout.jsonl", "mcpzero-dev.jsonl")):
        if not ids(sub) <= ids(sup):
            errors.append(f"{sub} has rows that are not in {sup}")
    if ids("bfcl-none.jsonl") != ids("bfcl-none-dev.jsonl") | ids("bfcl-none-test.jsonl"):
        errors.append("bfcl-none.jsonl is not the union of its dev and test files")
    if ids(MZ_QUERIES) != ids("mcpzero-dev.jsonl") | ids("mcpzero-test.jsonl"):
        errors.append("mcpzero dev + test do not cover mcpzero-queries.jsonl")

    # Our LiveMCPBench mapping must equal the one in derived_tasks_gold.jsonl (tool name -> every server with it).
    derived = {d["task_id"]: d for d in read_jsonl(shared / "data/livemcpbench/derived_tasks_gold.jsonl")}
    for row in loaded.get("livemcpbench.jsonl", []):
        d = derived[row["source"].split("#", 1)[1]]
        want = [sorted(g["servers"]) for g in d["gold_tool_servers"] if g["servers"]] or [
            [LMB_SOLE_MENTION_ALIASES[t][0]] for t in d["unresolved_tools"] if t in LMB_SOLE_MENTION_ALIASES]
        have = [sorted(p["server"] for p in g) for g in row["relevant"]]
        if want != have or row["query"] != d["query"].strip():
            errors.append(f"livemcpbench.jsonl {row['id']}: differs from derived_tasks_gold.jsonl")

    # Freshness: regenerating must reproduce the committed bytes.
    fresh = build(BUILDERS, shared, lambda _msg: None)
    for fname, data in sorted(fresh.items()):
        path = OUT_DIR / fname
        if not path.exists() or path.read_bytes() != data:
            errors.append(f"{fname}: stale (run `python3 benches/eval/convert.py all`)")

    for e in errors:
        print("ERROR", e, file=sys.stderr)
    print("check:", "OK" if not errors else f"{len(errors)} error(s)")
    return 1 if errors else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["all", "check", "mcpzero-holdout-catalog", "metatool-train", "bfcl-multiple",
                                        "small-catalogs", *BUILDERS])
    ap.add_argument("out", nargs="?", help="output path for mcpzero-holdout-catalog and metatool-train")
    ap.add_argument("--shared", type=Path,
                    default=Path(os.environ.get("TOOLSCOUT_SHARED", REPO.parent / "shared")))
    args = ap.parse_args()
    shared = args.shared.resolve()
    if not (shared / "data").is_dir():
        ap.error(f"no data/ under {shared} (pass --shared or set TOOLSCOUT_SHARED)")
    if args.command == "check":
        return check(shared)
    if args.command == "small-catalogs":
        if not args.out:
            ap.error("small-catalogs needs an output folder")
        write_small_catalogs(shared, Path(args.out))
        return 0
    if args.command == "bfcl-multiple":
        if not args.out:
            ap.error("bfcl-multiple needs an output folder")
        write_bfcl_multiple(shared, Path(args.out))
        return 0
    if args.command == "metatool-train":
        if not args.out:
            ap.error("metatool-train needs an output path")
        write_metatool_train(shared, Path(args.out))
        return 0
    if args.command == "mcpzero-holdout-catalog":
        if not args.out:
            ap.error("mcpzero-holdout-catalog needs an output path")
        write_mcpzero_holdout_catalog(shared, Path(args.out))
        return 0
    names = list(BUILDERS) if args.command == "all" else [args.command]
    files = build(names, shared, print)
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    for fname, data in sorted(files.items()):
        (OUT_DIR / fname).write_bytes(data)
        print(f"wrote data/eval/{fname} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
