#!/usr/bin/env python3
"""Writes a flat scenario for measuring `trellis validate` at scale (issue 27).

    flat-scenario.py N FILE   a root `view` with N leaf children, each {"kind":"view"}

One controller a line, without indentation; docs/performance.md gives the figures.
"""
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    count, path = int(sys.argv[1]), sys.argv[2]
    ids = [f"c{index}" for index in range(count)]
    with open(path, "w") as out:
        out.write('{"scenario":"flat: one root view with %d leaves",\n' % count)
        out.write('"window":{"size":[320,568]},"root":"root",\n"controllers":{\n')
        out.write('"root":{"kind":"view","children":[\n')
        out.write(",\n".join(f'"{id}"' for id in ids))
        out.write("]},\n")
        out.write(",\n".join(f'"{id}":{{"kind":"view"}}' for id in ids))
        out.write("}}\n")


if __name__ == "__main__":
    main()
