#!/usr/bin/env python3
"""Fails when a public symbol of a documented module has no summary line (issue 26, item 2).

DocC publishes every public symbol of a library product; one without a doc comment appears with
"No overview available", and DocC itself does not warn. This check reads the symbol graphs that
`swift package generate-documentation` extracted (the folder is found under .build, or given as
the first argument) and reports, as `file:line: ...`, each public or open symbol declared in this
repository whose doc comment is missing or starts with an empty line.

Symbols the compiler makes (synthesized conformances, protocol extension members copied onto
each conforming type) are not reported: they are declared elsewhere, and are checked there.

Usage: scripts/doc-coverage.py [SYMBOL_GRAPH_FOLDER] [--modules A,B,...]
Exit status 0 when every symbol has a summary, 1 otherwise, 2 when no symbol graph was found.
"""
import glob
import json
import os
import sys
from urllib.parse import unquote, urlparse

# The modules that have a documentation catalog: the library products (Package.swift).
DOCUMENTED = ["TrellisModel", "TrellisRuntime", "TrellisScenario", "TrellisTestKit", "TrellisWire", "TrellisCLI"]


def symbol_graph_files(root, modules):
    """Every `Module.symbols.json` and `Module@Other.symbols.json` of the modules, newest first."""
    found = {}
    for path in glob.glob(os.path.join(root, "**", "*.symbols.json"), recursive=True):
        name = os.path.basename(path)[: -len(".symbols.json")]
        module = name.split("@", 1)[0]
        if module in modules:
            # The plugin may leave graphs of several extractions: keep the newest of each name.
            if name not in found or os.path.getmtime(path) > os.path.getmtime(found[name]):
                found[name] = path
    return sorted(found.values())


def summary_of(symbol):
    comment = symbol.get("docComment")
    if not comment:
        return None
    lines = [line.get("text", "") for line in comment.get("lines", [])]
    return lines[0].strip() if lines and lines[0].strip() else None


def main(arguments):
    modules = DOCUMENTED
    folders = []
    iterator = iter(arguments)
    for argument in iterator:
        if argument == "--modules":
            modules = next(iterator, "").split(",")
        else:
            folders.append(argument)
    repository = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
    root = folders[0] if folders else os.path.join(repository, ".build")
    files = symbol_graph_files(root, set(modules))
    seen_modules = {os.path.basename(path).split("@", 1)[0].split(".", 1)[0] for path in files}
    missing_modules = [m for m in modules if m not in seen_modules]
    if missing_modules:
        print(f"doc-coverage: no symbol graph of {', '.join(missing_modules)} under {root} "
              f"(run `swift package generate-documentation` first)", file=sys.stderr)
        return 2
    sources = os.path.join(repository, "Sources") + os.sep
    problems = set()
    checked = 0
    for path in files:
        with open(path, encoding="utf-8") as file:
            graph = json.load(file)
        for symbol in graph.get("symbols", []):
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            if "::SYNTHESIZED::" in symbol.get("identifier", {}).get("precise", ""):
                continue
            location = symbol.get("location")
            if not location:
                continue
            file_path = os.path.realpath(unquote(urlparse(location.get("uri", "")).path))
            if not file_path.startswith(sources):
                continue
            checked += 1
            if summary_of(symbol) is None:
                line = location.get("position", {}).get("line", 0) + 1
                kind = symbol.get("kind", {}).get("displayName", "symbol").lower()
                name = ".".join(symbol.get("pathComponents", [])) or symbol.get("names", {}).get("title", "?")
                problems.add((os.path.relpath(file_path, repository), line,
                              f"public {kind} `{name}` has no summary line (///)"))
    for file_path, line, message in sorted(problems):
        print(f"{file_path}:{line}: {message}", file=sys.stderr)
    if problems:
        print(f"doc-coverage: {len(problems)} of {checked} public symbols of {', '.join(modules)} "
              f"have no summary", file=sys.stderr)
        return 1
    print(f"doc-coverage: all {checked} public symbols of {len(modules)} modules have a summary")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
