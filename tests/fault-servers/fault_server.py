#!/usr/bin/env python3
"""A purpose-built misbehaving MCP server (stdio, newline-delimited JSON-RPC), for the crawler's fault suite.

Usage: fault_server.py MODE
Modes: ok, hang-before-init, hang-after-init, crash-mid-list, garbage-stdout, huge-schema, deep-schema,
duplicate-names, missing-description, endless-pagination, slow-start, non-utf8, ignore-eof.
Standard library only; never touches the network.
"""
import json
import os
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "ok"
out = sys.stdout.buffer


def send(obj):
    out.write(json.dumps(obj).encode() + b"\n")
    out.flush()


def tool(name, description="A well-behaved tool.", schema=None):
    t = {"name": name, "inputSchema": schema or {"type": "object", "properties": {"x": {"type": "string"}}}}
    if description is not None:
        t["description"] = description
    return t


def tools_page(cursor):
    if MODE == "duplicate-names":
        return [tool("twin"), tool("twin", "Same name again."), tool("single")], None
    if MODE == "missing-description":
        return [tool("undescribed", None), tool("described")], None
    if MODE == "huge-schema":
        big = {"type": "object", "properties": {f"p{i}": {"type": "string", "description": "x" * 1000} for i in range(2000)}}
        return [tool("huge", "Huge schema.", big), tool("small")], None
    if MODE == "deep-schema":
        node = {"type": "string"}
        for i in range(60):
            node = {"type": "object", "properties": {"n": node}}
        schema = {"type": "object", "$defs": {"deep": node}, "properties": {"a": {"$ref": "#/$defs/deep"}}}
        return [tool("deep", "Deeply nested schema with $ref/$defs.", schema)], None
    if MODE == "endless-pagination":
        n = int(cursor or "0")
        return [tool(f"page_{n}")], str(n + 1)
    return [tool("alpha"), tool("beta")], None


def main():
    if MODE == "slow-start":
        time.sleep(3)
    if MODE == "hang-before-init":
        time.sleep(3600)
    if MODE == "garbage-stdout":
        out.write(b"\x00\x01 banner \xff\xfe\n{not json\n[1,2,3]\n{\"level\":\"info\"}\n")
        out.flush()
    for raw in sys.stdin.buffer:
        try:
            msg = json.loads(raw)
        except ValueError:
            continue
        method, mid = msg.get("method"), msg.get("id")
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": mid, "result": {
                "protocolVersion": msg["params"].get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {}}, "serverInfo": {"name": f"fault-{MODE}", "version": "1.0"}}})
        elif method == "tools/list":
            if MODE == "hang-after-init":
                time.sleep(3600)
            if MODE == "crash-mid-list":
                out.write(b'{"jsonrpc": "2.0", "id": ' + str(mid).encode() + b', "result": {"tools": [{"name": "par')
                out.flush()
                os._exit(3)
            if MODE == "non-utf8":
                out.write(b'{"jsonrpc":"2.0","id":' + str(mid).encode() + b',"result":{"tools":[{"name":"caf\xe9","inputSchema":{}}]}}\n')
                out.flush()
                continue
            tools, next_cursor = tools_page((msg.get("params") or {}).get("cursor"))
            result = {"tools": tools}
            if next_cursor is not None:
                result["nextCursor"] = next_cursor
            send({"jsonrpc": "2.0", "id": mid, "result": result})
        elif mid is not None and method is not None:
            send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": "method not found"}})
    if MODE == "ignore-eof":
        time.sleep(3600)


if __name__ == "__main__":
    main()
