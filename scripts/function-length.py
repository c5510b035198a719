#!/usr/bin/env python3
"""Fails when a function in Sources/ is longer than the limit (80 lines, issue 23): from the line
of its `func`, `init`, `deinit` or `subscript` to its closing brace. A long function is several
ideas in one place; split it into functions that each say one. Usage: function-length.py [LIMIT]"""
import os
import re
import sys

LIMIT = int(sys.argv[1]) if len(sys.argv) > 1 else 80
DECLARATION = re.compile(r'^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:(?:public|package|private|fileprivate|internal|open|static|class|final|override|mutating|nonmutating|nonisolated|convenience|required|isolated|consuming|borrowing|dynamic|lazy)(?:\([^)]*\))?\s+)*(func|init|deinit|subscript)\b')
STRING = re.compile(r'#*"(?:\\.|[^"\\])*"#*')


def code_lines(lines):
    """Each line with string literals, multi-line string bodies and comments blanked out."""
    in_block_string = False
    in_block_comment = False
    for line in lines:
        text = line
        if in_block_string:
            if '"""' in text:
                in_block_string = False
                text = text.split('"""', 1)[1]
            else:
                yield ''
                continue
        if in_block_comment:
            if '*/' in text:
                in_block_comment = False
                text = text.split('*/', 1)[1]
            else:
                yield ''
                continue
        if text.count('"""') % 2 == 1:
            in_block_string = True
            text = text.split('"""', 1)[0]
        text = STRING.sub('""', text)
        text = text.split('//', 1)[0]
        if '/*' in text and '*/' not in text:
            in_block_comment = True
            text = text.split('/*', 1)[0]
        yield text


def long_functions(path):
    with open(path, encoding='utf-8') as handle:
        raw = handle.read().split('\n')
    code = list(code_lines(raw))
    for start, line in enumerate(code):
        if not DECLARATION.match(line):
            continue
        depth, opened = 0, False
        for end in range(start, len(code)):
            for character in code[end]:
                if character == '{':
                    depth += 1
                    opened = True
                elif character == '}':
                    depth -= 1
            if opened and depth <= 0:
                break
            # A protocol requirement or a declaration without a body ends at its line.
            if not opened and end > start and not code[end].strip().startswith(('->', 'where', 'throws', 'async', ')')) \
                    and code[end].strip() and not code[end - 1].rstrip().endswith((',', '(')):
                break
        if opened and end - start + 1 > LIMIT:
            yield start + 1, end - start + 1, raw[start].strip()


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'Sources')
    found = []
    for folder, _, files in os.walk(root):
        for name in sorted(files):
            if name.endswith('.swift'):
                path = os.path.join(folder, name)
                for line, length, text in long_functions(path):
                    found.append(f"{os.path.relpath(path, os.path.join(root, '..'))}:{line}: {length} lines (at most {LIMIT}): {text[:80]}")
    for entry in found:
        print(entry, file=sys.stderr)
    if found:
        print(f"function-length: {len(found)} functions longer than {LIMIT} lines", file=sys.stderr)
        return 1
    print(f"function-length: no function in Sources/ is longer than {LIMIT} lines")
    return 0


if __name__ == '__main__':
    sys.exit(main())
