"""Writes a plain listing of one catalog (each server, then each tool's name and description) for a person
or a helper agent writing hand-written requests against it (data/eval/fresh43/README.md). Standard library
only; server names as the importers name them.

    python3 benches/eval/catalog_listing.py mcpzero|live|docker|demo OUT.txt [--shared DIR]
"""
import argparse
import json
import os


def short(text, n=300):
    text = (text or "").replace("\n", " ").strip()
    return text if len(text) <= n else text[:n] + "…"


def mcpzero(shared):
    with open(os.path.join(shared, "data/mcp-zero-mcptools/mcp_tools.jsonl")) as f:
        rows = [json.loads(line) for line in f]
    return [(r["name"], r.get("description") or r.get("summary"),
             [(t["name"], t.get("description")) for t in r.get("tools", [])]) for r in rows]


def live(path):
    with open(path) as f:
        rows = json.load(f)
    out = []
    for r in rows:
        tools = [(t["name"], t.get("description"))
                 for v in (r.get("tools") or {}).values() for t in v.get("tools", [])]
        out.append((r["name"], r.get("description"), tools))
    return out


def docker(shared):
    with open(os.path.join(shared, "data/docker-mcp-registry/servers_with_tools.jsonl")) as f:
        rows = [json.loads(line) for line in f]
    return [(r["server"], r.get("description"), [(t["name"], t.get("description")) for t in r.get("tools", [])])
            for r in rows]


def demo(root):
    with open(os.path.join(root, "data/catalog/reference-servers.jsonl")) as f:
        rows = [json.loads(line) for line in f]
    servers = [(r["name"], r.get("description") or r.get("title"),
                [(t["name"], t["tool"].get("description")) for t in r["tools"]]) for r in rows]
    return servers + live(os.path.join(root, "data/catalog/livemcpbench-tools.json"))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("catalog", choices=["mcpzero", "live", "docker", "demo"])
    p.add_argument("out")
    p.add_argument("--shared", default=os.environ.get("TOOLSCOUT_SHARED", "../shared"))
    a = p.parse_args()
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    servers = {
        "mcpzero": lambda: mcpzero(a.shared),
        "live": lambda: live(os.path.join(a.shared, "data/livemcpbench/tools.json")),
        "docker": lambda: docker(a.shared),
        "demo": lambda: demo(root),
    }[a.catalog]()
    with open(a.out, "w") as f:
        for name, desc, tools in servers:
            f.write(f"## SERVER: {name}\n{short(desc, 400)}\n")
            for tool, tdesc in tools:
                f.write(f"- {tool}: {short(tdesc)}\n")
            f.write("\n")
    print(f"{a.out}: {len(servers)} servers, {sum(len(s[2]) for s in servers)} tools")


if __name__ == "__main__":
    main()
