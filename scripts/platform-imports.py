#!/usr/bin/env python3
"""Fails on a platform import or a Linux-only call that no condition guards (issue 26, item 3).

Trellis is supported on macOS by construction but built and tested only on Linux here, so
nothing on Linux would notice a library that cannot compile on Darwin. This check reads every
Swift and C file under the given folders (Sources/ and the runner of Examples/ by default) and
reports, as `file:line: reason`:

- an `import` of a C library module (Glibc, Musl, Darwin, WinSDK, ...) that is not inside an
  `#if` / `#elseif` branch testing `canImport(ThatModule)` or an `os(...)`;
- a call or constant that exists on Linux only (eventfd, epoll, CLOCK_MONOTONIC_COARSE, ...)
  outside a branch testing `os(Linux)`, `canImport(Glibc)` or `canImport(Musl)`;
- in C, a Linux-only header included outside `#if defined(__linux__)` / `#ifdef __linux__`.

Exit status 0 when there is none, 1 otherwise.
"""
import os
import re
import sys

PLATFORM_MODULES = {"Glibc", "Musl", "Darwin", "WinSDK", "ucrt", "CRT", "Android", "Bionic", "WASILibc"}
LINUX_ONLY_SWIFT = re.compile(
    r"\b(eventfd|EFD_[A-Z]+|epoll_\w+|EPOLL\w*|CLOCK_MONOTONIC_COARSE|CLOCK_REALTIME_COARSE|"
    r"CLOCK_BOOTTIME|pipe2|accept4|signalfd|timerfd_\w+|inotify_\w+|prctl|PR_SET_\w+|memfd_create|"
    r"sched_getaffinity|sched_setaffinity|SOCK_CLOEXEC|SOCK_NONBLOCK|MSG_NOSIGNAL|pidfd_\w+)\b")
LINUX_ONLY_HEADER = re.compile(
    r"#\s*include\s*<(sys/(eventfd|epoll|signalfd|timerfd|inotify|prctl|sysinfo)\.h|linux/[^>]+)>")
LINUX_CONDITION = re.compile(r"os\(Linux\)|canImport\((Glibc|Musl)\)|defined\(__linux__\)|__linux__")
SWIFT_IMPORT = re.compile(r"^\s*(?:@[\w()]+\s+)*import\s+(?:(?:struct|class|enum|func|var|let|typealias|protocol)\s+)?(\w+)")


def strip_comment(line):
    """The line without a `//` comment (string literals holding `//` are not a concern here)."""
    index = line.find("//")
    return line if index < 0 else line[:index]


def check_swift(path, lines):
    problems = []
    # One entry per open `#if`: the condition of the branch we are in.
    branches = []
    in_block_comment = False
    for number, raw in enumerate(lines, start=1):
        line = raw
        if in_block_comment:
            if "*/" not in line:
                continue
            line = line.split("*/", 1)[1]
            in_block_comment = False
        if "/*" in line and "*/" not in line.split("/*", 1)[1]:
            in_block_comment = True
            line = line.split("/*", 1)[0]
        code = strip_comment(line).strip()
        if code.startswith("#if"):
            branches.append(code[3:].strip())
            continue
        if code.startswith("#elseif"):
            if branches:
                branches[-1] = code[len("#elseif"):].strip()
            continue
        if code.startswith("#else"):
            if branches:
                branches[-1] = "!(" + branches[-1] + ")"
            continue
        if code.startswith("#endif"):
            if branches:
                branches.pop()
            continue
        match = SWIFT_IMPORT.match(code)
        if match and match.group(1) in PLATFORM_MODULES:
            module = match.group(1)
            guarded = any(
                (f"canImport({module})" in condition or "os(" in condition) and not condition.startswith("!(")
                for condition in branches)
            if not guarded:
                problems.append(f"{path}:{number}: `import {module}` outside `#if canImport({module})`: "
                                f"it cannot compile where {module} does not exist")
            continue
        found = LINUX_ONLY_SWIFT.search(code)
        if found and not any(LINUX_CONDITION.search(c) and not c.startswith("!(") for c in branches):
            problems.append(f"{path}:{number}: `{found.group(1)}` exists on Linux only: "
                            f"put it under `#if os(Linux)` with another way for the other systems")
    return problems


def check_c(path, lines):
    problems = []
    branches = []
    for number, raw in enumerate(lines, start=1):
        code = raw.strip()
        if re.match(r"#\s*if", code):
            branches.append(code)
        elif re.match(r"#\s*el", code) and branches:
            branches[-1] = "#else " + branches[-1] if re.match(r"#\s*else", code) else code
        elif re.match(r"#\s*endif", code) and branches:
            branches.pop()
        elif LINUX_ONLY_HEADER.search(code):
            if not any("__linux__" in c and not c.startswith("#else") and "!" not in c for c in branches):
                problems.append(f"{path}:{number}: Linux-only header outside `#if defined(__linux__)`")
    return problems


def main(roots):
    problems = []
    for root in roots:
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = sorted(d for d in subfolders if not d.startswith(".build") and not d.startswith("."))
            for name in sorted(files):
                path = os.path.join(folder, name)
                if name.endswith(".swift"):
                    with open(path, encoding="utf-8") as file:
                        problems += check_swift(path, file.read().split("\n"))
                elif name.endswith((".h", ".c")):
                    with open(path, encoding="utf-8") as file:
                        problems += check_c(path, file.read().split("\n"))
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"platform-imports: {len(problems)} unguarded platform dependenc"
              f"{'y' if len(problems) == 1 else 'ies'} (macOS is supported by construction: README)",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["Sources", "Examples/Runner/Sources"]))
