#!/usr/bin/env python3
"""Checks that the core module's folders are layers: a file names nothing declared in a
folder above its own, so no two folders name each other (directly or in a cycle).

A reference is, in code (comments and string literals are not code):
- a type declared at the top level of a file in another folder (`extension X` names X),
  or a type nested in an extension of another module's type, named qualified
  (`UserDefaults.Key`);
- a function, initialiser or property that a folder adds in an extension of a type it
  does not declare (`extension UserDefaults { func value(_:forKey:) }`), used in another
  folder. A function or initialiser is known by its name and argument labels: a call
  matches when its labels are the declaration's less parameters with a default or a
  function type, and when no other declaration of that name fits it too.

Limits (it reads text, it does not type-check): subscripts are not followed; a property
is not followed into a folder that declares anything of the same name itself (a local
constant, a closure parameter, a function parameter with a label); names that protocols of the standard library require
(`description`, …) are not followed; a nested type used unqualified is not seen.
The order, top first, is LAYERS below; CONTRIBUTING.md's "Architecture" section says what
each layer holds. The property-list codec beneath them all is a target of its own
(Sources/PropertyListCodec), whose boundary the compiler enforces: it is not read here.

Usage: scripts/check-layers.py [--graph] [--self-test]
  exit status 1 on any upward reference. --self-test first checks the checker: a made-up
  file in Stores/ that uses one thing of each kind from higher folders must be caught.
"""
import os
import re
import sys
from collections import defaultdict

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "UserDefault")

# Top first. A folder may name types of the folders after it, never of those before it.
# Names the library's extensions give members that the standard library or Foundation
# also has on other types (`removeValue(forKey:)` of a dictionary): their calls cannot be
# told apart by text, so they are not followed.
SHARED_NAMES = {"removeValue", "description", "debugDescription", "hash", "hashValue", "rawValue"}

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
EXTENSION = re.compile(r"^(?:(?:public|package|internal|private|fileprivate)\s+)?extension\s+([\w.]+)", re.M)
MEMBER = re.compile(
    r"^  (?:(?:public|package|internal|private|fileprivate|open|static|class|final|override"
    r"|mutating|nonmutating|consuming|borrowing|@[\w.]+(?:\([^)]*\))?)\s+)*"
    r"(?:(func|var|let)\s+(`?\w+`?)|(init)[?!]?\s*(?=[<(]))", re.M)


def split_top_level(text):
    """`text` split at the commas outside brackets, parentheses, braces and generic
    arguments (a `<` right after a name opens them; `->` and comparisons do not count)."""
    parts, depth, start = [], 0, 0
    angles = 0
    for i, c in enumerate(text):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "<" and i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_"):
            angles += 1
        elif c == ">" and angles > 0 and text[i - 1] not in " -":
            angles -= 1
        elif c == "," and depth == 0 and angles == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p for p in parts if p.strip()]


def enclosed(text, open_at, opening="(", closing=")"):
    """The text between the bracket at `open_at` and the one that closes it."""
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] == opening:
            depth += 1
        elif text[i] == closing:
            depth -= 1
            if depth == 0:
                return text[open_at + 1:i]
    return text[open_at + 1:]


def parameters(declaration):
    """(label or None, skippable) for each parameter of a declaration's list."""
    result = []
    for part in split_top_level(declaration):
        head, _, rest = part.partition(":")
        names = head.split()
        label = names[0] if names else None
        skippable = "=" in rest or "->" in rest
        result.append((None if label == "_" else label, skippable))
    return result


def call_labels(arguments):
    labels = []
    for part in split_top_level(arguments):
        match = re.match(r"\s*(\w+)\s*:(?!:)", part)
        labels.append(match.group(1) if match else None)
    return labels


def matches(declared, labels):
    """Whether a call with `labels` can call a declaration with `declared` parameters."""
    def walk(d, c):
        if c == len(labels):
            return all(skippable for _, skippable in declared[d:])
        if d == len(declared):
            return False
        label, skippable = declared[d]
        if label == labels[c] and walk(d + 1, c + 1):
            return True
        return skippable and walk(d + 1, c)
    return walk(0, 0)


def signature(kind, name, params):
    """A member's identity: a property by its name, a function or initialiser by its name
    and labels."""
    return (name, tuple(label for label, _ in params)) if params is not None else name


def members_in(body):
    """(kind, name, parameters) of each member declared one level into `body`; a property
    of a function type is a "closure", callable with unlabelled arguments."""
    for m in MEMBER.finditer(body):
        if m.group(3):
            kind, name = "init", "init"
        else:
            kind, name = m.group(1), m.group(2).strip("`")
        params = None
        if kind in ("func", "init"):
            params = parameters(enclosed(body, body.find("(", m.end())))
        elif "->" in body[m.end():body.find("\n", m.end())]:
            kind = "closure"
        yield kind, name, params


NESTED = re.compile(
    r"^  (?:(?:public|package|internal|private|fileprivate|open|final|indirect"
    r"|@[\w.]+(?:\([^)]*\))?)\s+)*(?:struct|class|enum|protocol|actor|typealias)\s+(\w+)", re.M)


def extension_members(files, owner):
    """Members added by extensions of types a folder does not declare (Foundation's, or
    a nested type), by signature: signature -> list of (folder, kind, name, parameters);
    and the types such extensions nest (`UserDefaults.Key`), by qualified name -> folder."""
    members = defaultdict(list)
    nested = {}
    for full, (folder, code) in files.items():
        for m in EXTENSION.finditer(code):
            base = m.group(1).split(".")[0]
            if base in owner and owner[base][0] == folder and "." not in m.group(1):
                continue  # a type of its own folder: its members are that type's
            body = enclosed(code, code.find("{", m.end()), "{", "}")
            for kind, name, params in members_in(body):
                members[signature(kind, name, params)].append((folder, kind, name, params))
            if base not in owner:
                for name in NESTED.findall(body):
                    nested[m.group(1) + "." + name] = folder
    return members, nested


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


SELF_TEST = """
func probeLayers(_ defaults: UserDefaults) -> Any {
  _ = defaults.value(URL?.self, forKey: "x")
  _ = Int(withKey: "x", in: defaults)
  _ = defaults.access
  _ = UserDefaults.KeyChange<Int>.self
  return ObserverGroup<Int>.self
}
"""
# What the self-test must find: a type, a nested type, a function, an initialiser and a
# property, each named from a folder below the one that declares it.
SELF_TEST_FINDINGS = 5


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
    if "--self-test" in sys.argv:
        files[os.path.join(ROOT, "Stores", "SelfTest.swift")] = ("Stores", code_of(SELF_TEST))
    owner = {}
    for full, (folder, code) in files.items():
        for name in DECLARATION.findall(code):
            if name in owner and owner[name][0] != folder:
                print(f"check-layers: {name} is declared in both {owner[name][0]}/ and {folder}/")
                return 1
            owner[name] = (folder, full)
    edges = defaultdict(set)
    upward = []
    members, nested = extension_members(files, owner)
    # Every declaration anywhere, by name, to tell which one a call calls: a call follows
    # a member only when no other function (or closure property) of that name fits it. A
    # property is not followed in a folder that declares one of the same name itself.
    functions = defaultdict(list)
    property_folders = defaultdict(set)
    for full, (folder, code) in files.items():
        # Shifted to two columns, so that top-level and nested declarations are seen too.
        shifted = "\n".join("  " + line.lstrip() if re.match(r"^(?:    )*\S", line) else line
                             for line in code.split("\n"))
        for kind, name, params in members_in(shifted):
            if kind in ("func", "init"):
                functions[name].append(params)
            elif kind == "closure":
                functions[name].append(None)
        # Properties and local constants alike, at any depth, closure parameters, and
        # function parameters written with a label (`on backend: any StoreBackend`).
        for m in re.finditer(
                r"\b(?:let|var)\s+(\w+)|[{,(]\s*(\w+)\s+in\b|[(,]\s*\w+\s+(\w+)\s*:", code):
            property_folders[m.group(1) or m.group(2) or m.group(3)].add(folder)
    calls = {
        "func": lambda name: r"(?<![\w])" + re.escape(name) + r"\s*\(",
        "init": lambda name: r"(?:\b[A-Z][\w.]*(?:<[\w.?, \[\]:]*>)?|\.init)\s*\(",
        "var": lambda name: r"(?<![\w])" + re.escape(name) + r"\b(?!\s*[(:])",
    }
    for key, places in members.items():
        if len(places) != 1:
            continue
        target, kind, name, params = places[0]
        if name in SHARED_NAMES or kind == "closure":
            continue
        pattern = re.compile(calls.get(kind, calls["var"])(name))
        for full, (folder, code) in files.items():
            if folder == target:
                continue
            if kind not in ("func", "init") and folder in property_folders[name]:
                continue
            for m in pattern.finditer(code):
                before = code[max(0, m.start() - 12):m.start()]
                if re.search(r"(func|var|let|case)\s+$", before):
                    continue
                if kind in ("func", "init"):
                    labels = call_labels(enclosed(code, m.end() - 1))
                    fitting = [p for p in functions[name]
                               if (all(l is None for l in labels) if p is None else matches(p, labels))]
                    if fitting != [params]:
                        continue
                edges[folder].add(target)
                if LAYERS.index(target) < LAYERS.index(folder):
                    line_number = code.count("\n", 0, m.start()) + 1
                    relative = os.path.relpath(full, os.path.join(ROOT, "..", ".."))
                    upward.append(f"{relative}:{line_number}: {folder}/ uses {name} of {target}/")
                break
    for full, (folder, code) in files.items():
        rank = LAYERS.index(folder)
        seen = set()
        for line_number, line in enumerate(code.split("\n"), 1):
            for qualified, target in nested.items():
                if target != folder and qualified not in seen and re.search(
                        r"\b" + re.escape(qualified) + r"\b", line):
                    seen.add(qualified)
                    edges[folder].add(target)
                    if LAYERS.index(target) < rank:
                        relative = os.path.relpath(full, os.path.join(ROOT, "..", ".."))
                        upward.append(
                            f"{relative}:{line_number}: {folder}/ names {qualified} of {target}/")
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
    if "--self-test" in sys.argv:
        caught = [line for line in upward if "SelfTest.swift" in line]
        if len(caught) != SELF_TEST_FINDINGS:
            print(f"check-layers: the self-test's {SELF_TEST_FINDINGS} upward references gave {caught}")
            return 1
        upward = [line for line in upward if "SelfTest.swift" not in line]
        print(f"check-layers: the self-test's {len(caught)} upward references were caught")
    if upward:
        print(f"check-layers: {len(upward)} references run up the layers:")
        print("\n".join(sorted(upward)))
        return 1
    print(f"check-layers: {len(files)} files in {len(LAYERS)} layers, every reference points down")
    return 0


if __name__ == "__main__":
    sys.exit(main())
