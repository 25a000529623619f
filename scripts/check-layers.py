#!/usr/bin/env python3
"""Fails when a ReleaseKit folder uses a type declared in a folder above it (DESIGN.md §2).

Layers, each using only those to its right:
  Execution → Planning → Pipeline → Steps → {Apple, AppStoreConnect, GitHub} → {Versioning, Artifacts} → HTTP → Support
Folders of one brace group do not use each other; Support depends on nothing of ours.

It reads every Swift file, collects the top-level type names each folder declares, then looks for those names
as whole words in the code of every other folder (comments and string literals removed). A use of a name
declared in a folder that is not strictly to the right is a violation: `file:line: Folder uses Name (Other)`.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "ReleaseKit")
LAYERS = [["Execution"], ["Planning"], ["Pipeline"], ["Steps"], ["Apple", "AppStoreConnect", "GitHub"],
          ["Versioning", "Artifacts"], ["HTTP"], ["Support"]]
RANK = {folder: index for index, group in enumerate(LAYERS) for folder in group}
DECLARATION = re.compile(r"^(?:public |internal |package |fileprivate |private |final |indirect |@\w+ )*"
                         r"(?:struct|class|enum|protocol|actor|typealias)\s+([A-Z]\w*)", re.M)
NESTED = re.compile(r"^\s*(?:public |internal |package |fileprivate |private |final |indirect |@\w+ )*"
                    r"(?:struct|class|enum|protocol|actor|typealias)\s+([A-Z]\w*)", re.M)
WORD = re.compile(r"\b[A-Z]\w*\b")


def strip(source):
    """Removes comments and the text of string literals (keeping `\\(...)` interpolations, which are code) and
    keeps line breaks, so line numbers stay right."""
    out, i, n = [], 0, len(source)

    def interpolation(j):
        # source[j] is the "(" after a backslash: copy the balanced code inside, return the index after ")".
        depth, k = 0, j
        while k < n:
            if source[k] == "(":
                depth += 1
            elif source[k] == ")":
                depth -= 1
                if depth == 0:
                    out.append(" " + strip(source[j + 1:k]) + " ")
                    return k + 1
            k += 1
        return n

    while i < n:
        if source.startswith("//", i):
            j = source.find("\n", i)
            i = n if j < 0 else j
        elif source.startswith("/*", i):
            j = source.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * source.count("\n", i, j))
            i = j
        elif source[i] == '"':
            multi = source.startswith('"""', i)
            close = '"""' if multi else '"'
            j = i + len(close)
            while j < n and not source.startswith(close, j) and (multi or source[j] != "\n"):
                if source[j] == "\\" and j + 1 < n and source[j + 1] == "(":
                    j = interpolation(j + 1)
                    continue
                if source[j] == "\n":
                    out.append("\n")
                j += 2 if source[j] == "\\" else 1
            i = j + len(close)
        else:
            out.append(source[i])
            i += 1
    return "".join(out)


def files():
    for folder in sorted(os.listdir(ROOT)):
        base = os.path.join(ROOT, folder)
        if not os.path.isdir(base):
            continue
        for directory, _, names in os.walk(base):
            for name in sorted(names):
                if name.endswith(".swift"):
                    yield folder, os.path.join(directory, name)


def main():
    sources = {path: (folder, strip(open(path, encoding="utf-8").read())) for folder, path in files()}
    unknown = sorted({folder for folder, _ in sources.values() if folder not in RANK})
    if unknown:
        print(f"check-layers: folders not in the layer list: {', '.join(unknown)}", file=sys.stderr)
        return 1
    owner = {}
    local = {}  # every name a folder declares at any depth: its own nested `Option` is not Steps' `Option`
    for path, (folder, code) in sources.items():
        for name in DECLARATION.findall(code):
            owner.setdefault(name, folder)
        local.setdefault(folder, set()).update(NESTED.findall(code))
    problems = []
    for path, (folder, code) in sorted(sources.items()):
        for number, line in enumerate(code.split("\n"), start=1):
            for name in set(WORD.findall(line)):
                other = owner.get(name)
                if other is None or other == folder or RANK[other] > RANK[folder] or name in local[folder]:
                    continue
                relative = os.path.relpath(path, os.path.join(ROOT, "..", ".."))
                problems.append(f"{relative}:{number}: {folder} uses {name} ({other})")
    for problem in problems:
        print(problem)
    if problems:
        print(f"check-layers: {len(problems)} uses against the layer order", file=sys.stderr)
        return 1
    print("check-layers: every folder uses only the layers to its right")
    return 0


if __name__ == "__main__":
    sys.exit(main())
