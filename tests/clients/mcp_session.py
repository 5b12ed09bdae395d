"""One MCP session with `toolscout mcp`, driven by the official Python MCP SDK (PyPI `mcp`).

Usage: mcp_session.py MODE ANSWER -- COMMAND [ARGS...] < steps.json
  MODE    legacy (initialize handshake; the server asks for confirmation with elicitation/create) or
          auto (2026-07-28 discover; confirmation comes back as an InputRequiredResult the SDK fulfils)
  ANSWER  accept | decline | none (no elicitation callback: the client declares no elicitation support)
  steps   a JSON list of {"discover": NEED} and {"call": [SERVER, TOOL, ARGUMENTS]}

Prints one JSON object: {"protocol": VERSION, "steps": [...], "asked": [ELICITATION MESSAGES]}.
"""

import asyncio
import json
import sys

import mcp_types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters


async def main() -> None:
    mode, answer = sys.argv[1], sys.argv[2]
    command = sys.argv[sys.argv.index("--") + 1 :]
    steps = json.load(sys.stdin)
    asked: list[str] = []

    async def elicit(_context, params):
        asked.append(params.message)
        if answer == "accept":
            return types.ElicitResult(action="accept", content={"confirm": True})
        return types.ElicitResult(action="decline")

    server = StdioServerParameters(command=command[0], args=command[1:])
    options = {"mode": mode}
    if answer != "none":
        options["elicitation_callback"] = elicit
    out = []
    async with Client(server, **options) as client:
        for step in steps:
            if "discover" in step:
                result = await client.call_tool("discover_tools", {"need": step["discover"]})
                s = result.structured_content or {}
                out.append(
                    {
                        "status": s.get("status"),
                        "tools": [
                            {"id": f"{t['server_id']}/{t['name']}", "class": t["risk"]["class"]}
                            for t in s.get("tools", [])
                        ],
                        "reason": s.get("reason"),
                    }
                )
            else:
                server_id, tool, arguments = step["call"]
                result = await client.call_tool(
                    "call_tool", {"server": server_id, "tool": tool, "arguments": arguments}
                )
                text = "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")
                out.append({"is_error": bool(result.is_error), "text": text})
        protocol = getattr(client.session, "protocol_version", None)
    print(json.dumps({"protocol": protocol, "steps": out, "asked": asked}))


asyncio.run(main())
