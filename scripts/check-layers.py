#!/usr/bin/env python3
"""Checks that the core module's folders are layers: a file names no type declared in a
folder above its own, and no two folders name each other (directly or in a cycle).

A reference is a type name declared at the top level of a file in another folder, used
in code (comments and string literals are not code). Extensions count: `extension X` in
a file names X. The order, top first, is LAYERS below; the README's "Architecture"
section says what each layer holds.

Usage: scripts/check-layers.py [--graph]   (exit status 1 on any upward reference)
"""
import os
import re
import sys
from collections import defaultdict

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "UserDefault")

# Top first. A folder may name types of the folders after it, never of those before it.
LAYERS = [
    "Surfaces",
    "Migration",
    "Keys",
    "Bridging",
    "Stores",
    "Engine",
    "PropertyLists",
    "Diagnostics",
    "Internal",
]

DECLARATION = re.compile(
    r"^(?:(?:public|package|internal|private|fileprivate|open|final|indirect|nonisolated"
    r"|@[\w.]+(?:\([^)]*\))?)\s+)*(?:struct|class|enum|protocol|actor|typealias)\s+(\w+)",
    re.M)
IDENTIFIER = re.compile(r"\b[A-Z]\w*\b")


def code_of(text):
    """The text with comments and string literals blanked, so only code is searched."""
    out = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            i = n if j < 0 else j + 3
            out.append('""')
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            out.append('""')
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def main():
    files = {}
    for folder in sorted(os.listdir(ROOT)):
        path = os.path.join(ROOT, folder)
        if not os.path.isdir(path) or folder.endswith(".docc"):
            continue
        if folder not in LAYERS:
            print(f"check-layers: folder {folder}/ is not in LAYERS; place it in the order")
            return 1
        for dirpath, _, names in os.walk(path):
            for name in names:
                if name.endswith(".swift"):
                    full = os.path.join(dirpath, name)
                    with open(full, encoding="utf-8") as handle:
                        files[full] = (folder, code_of(handle.read()))
    owner = {}
    for full, (folder, code) in files.items():
        for name in DECLARATION.findall(code):
            if name in owner and owner[name][0] != folder:
                print(f"check-layers: {name} is declared in both {owner[name][0]}/ and {folder}/")
                return 1
            owner[name] = (folder, full)
    edges = defaultdict(set)
    upward = []
    for full, (folder, code) in files.items():
        rank = LAYERS.index(folder)
        seen = set()
        for line_number, line in enumerate(code.split("\n"), 1):
            for name in IDENTIFIER.findall(line):
                if name not in owner or name in seen:
                    continue
                target = owner[name][0]
                if target == folder:
                    continue
                seen.add(name)
                edges[folder].add(target)
                if LAYERS.index(target) < rank:
                    relative = os.path.relpath(full, os.path.join(ROOT, "..", ".."))
                    upward.append(f"{relative}:{line_number}: {folder}/ names {name} of {target}/")
    if "--graph" in sys.argv:
        for folder in LAYERS:
            print(f"{folder} -> {', '.join(sorted(edges[folder], key=LAYERS.index)) or '(nothing)'}")
    if upward:
        print(f"check-layers: {len(upward)} references run up the layers:")
        print("\n".join(sorted(upward)))
        return 1
    print(f"check-layers: {len(files)} files in {len(LAYERS)} layers, every reference points down")
    return 0


if __name__ == "__main__":
    sys.exit(main())
