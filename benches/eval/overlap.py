#!/usr/bin/env python3
"""Drops from a new hand-written dev set every request that is too close to a held-out one.

    python3 benches/eval/overlap.py NEW.jsonl OUT.jsonl HELD.jsonl [HELD.jsonl ...]

Two requests over the same catalog written by different hands often ask for the same thing in nearly the
same words ("void invoice in_… in stripe"): tuning on such a dev request would tune on the test request.
A request is dropped when its content words (lowercase, three letters or more, function words aside)
overlap a held-out request's with a Jaccard index of at least 0.25, or when the two share a gold tool and
their words overlap above 0.12. Only ids and counts are printed: the held-out texts are not shown.
"""
import json
import re
import sys

STOP = set("the a an to in on of for my me and it is i our with from at this that be can you please what s".split())
NEAR, SAME_GOLD = 0.25, 0.12


def words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOP and len(w) > 2}


def gold(row: dict) -> set[tuple[str, str]]:
    return {(t["server"], t["tool"]) for intent in row.get("relevant", []) for t in intent}


def main() -> None:
    new, out, held_files = sys.argv[1], sys.argv[2], sys.argv[3:]
    held = [json.loads(line) for f in held_files for line in open(f, encoding="utf-8") if line.strip()]
    kept, dropped = [], []
    for line in open(new, encoding="utf-8"):
        if not line.strip():
            continue
        row = json.loads(line)
        a, g = words(row["query"]), gold(row)
        close = False
        for h in held:
            b = words(h["query"])
            jaccard = len(a & b) / max(1, len(a | b))
            if jaccard >= NEAR or (g & gold(h) and jaccard > SAME_GOLD):
                close = True
                break
        (dropped if close else kept).append((row["id"], line))
    with open(out, "w", encoding="utf-8") as f:
        f.writelines(line for _, line in kept)
    print(f"kept {len(kept)}, dropped {len(dropped)}: {' '.join(i for i, _ in dropped)}")


if __name__ == "__main__":
    main()
