#!/usr/bin/env python3
"""Writes a synthetic JSON Lines trace (SPEC §6) for measuring `trellis trace` at scale.

    synthetic-trace.py deep N  FILE [K]   one step whose events form a single cause chain N deep
                                      (over K controllers taken in turn: every one by default)
    synthetic-trace.py wide N  FILE   one step delivering to N controllers, each asking one query
    synthetic-trace.py cycle N FILE   a damaged trace: N events whose causes form one cycle

The lines are what `trellis run --trace` writes; docs/performance.md gives the figures.
"""
import json
import sys

RUN = "synthetic: generated to measure trace reading at scale (scripts/synthetic-trace.py)"


def line(seq, cause, controller, step, kind, message, payload, transition=1):
    return json.dumps({
        "v": "1.0", "run": RUN, "node": "main", "seq": seq, "lamport": seq,
        "cause": None if cause is None else f"main#{cause}", "controller": controller,
        "transition": transition, "step": step, "kind": kind, "message": message,
        "payload": payload, "time": 0,
    }, separators=(",", ":"))


def header(seq, description):
    return line(seq, None, "window", 1, "step", "step", {"number": 1, "description": description}, None)


def main():
    if len(sys.argv) not in (4, 5) or sys.argv[1] not in ("deep", "wide", "cycle"):
        sys.exit(__doc__)
    shape, count, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    controllers = int(sys.argv[4]) if len(sys.argv) == 5 else count
    with open(path, "w") as out:
        if shape == "deep":
            out.write(header(1, "resizeWindow 568x320") + "\n")
            for i in range(count):
                out.write(line(i + 2, i + 1, f"C{i % controllers}", 1, "delivery", "viewWillTransition", {"to": [568, 320]}) + "\n")
        elif shape == "wide":
            out.write(header(1, "resizeWindow 568x320") + "\n")
            seq = 1
            for i in range(count):
                seq += 1
                out.write(line(seq, 1, f"C{i}", 1, "delivery", "viewWillTransition", {"to": [568, 320]}) + "\n")
                seq += 1
                out.write(line(seq, seq - 1, f"C{i}", 1, "query", "sizeForChild",
                               {"child": f"D{i}", "parent": [568, 320], "answer": [568, 320]}) + "\n")
        else:
            for i in range(count):
                cause = count if i == 0 else i
                out.write(line(i + 1, cause, f"C{i}", 0, "delivery", "viewWillTransition", {"to": [568, 320]}) + "\n")


main()
