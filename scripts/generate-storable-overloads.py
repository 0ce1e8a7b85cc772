#!/usr/bin/env python3
"""Writes the sibling overloads of the storable-type check, the three *+StorableTypes.swift
files: each initializer of Key, UserDefault and UserDefaultsWrapper that takes a value
type, once per way of storing (SHAPES below). Swift cannot make every Codable type conform
to one protocol, so each way needs its own constrained signature; this script is the one
place they are written, so that a change to an initializer is made once.

Usage: scripts/generate-storable-overloads.py          rewrite the files (then swift format)
       scripts/generate-storable-overloads.py --check  fail if the files differ from it
"""
import os, shutil, subprocess, sys, tempfile, textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILES = {
    "key": "Sources/UserDefault/Keys/Key+StorableTypes.swift",
    "ud": "Sources/UserDefault/Surfaces/UserDefault+StorableTypes.swift",
    "w": "Sources/UserDefault/Surfaces/UserDefaultsWrapper+StorableTypes.swift",
}

SHAPES = [
  # (constraint with T as the checked type, summary, example type, example value)
  ("T: RawRepresentable, T.RawValue: UserDefaultable",
   "a `RawRepresentable` type, stored as its raw value", "Theme", ".dark", "rawValue()"),
  ("T: RawRepresentable & Codable, T.RawValue: UserDefaultable",
   "a type both `RawRepresentable` and `Codable`, stored as its raw value (not as JSON)",
   "Theme", ".dark", "rawValue()"),
  ("T: _RawValueContainer",
   "an array, set, string-keyed dictionary or optional of `RawRepresentable` elements, stored element by element as raw values",
   "[Theme]", "[]", "rawValueContainer()"),
  ("T: _RawValueContainer & Codable",
   "a container of elements both `RawRepresentable` and `Codable`, stored as raw values (not as JSON)",
   "[Theme]", "[]", "rawValueContainer()"),
  ("T: RawRepresentable & _RawValueContainer & Codable, T.RawValue: UserDefaultable",
   "a container of raw-value elements that is itself `RawRepresentable` (as an app's own extension may make every `Codable` array, for SwiftUI's `@AppStorage`), stored as that raw value; without this overload such a key was ambiguous",
   "[Theme]", "[]", "rawValue()"),
  ("T: Codable",
   "any other `Codable` type, stored as JSON (a collection element by element)", "Profile",
   "Profile(name: \"\")", "codable({json})"),
  ("T: _PropertyListContainer",
   "`[Any]` or `[String: Any]` (or an optional of them) holding property-list values",
   "[Any]", "[]", "propertyListContainer()"),
]

def doc(lines, indent="  "):
    out = []
    for line in lines:
        out.append(indent + ("/// " + line if line else "///"))
    return "\n".join(out)

def overloads(decl_template, example, primary, subject, optional, shapes, indent="  ", json=""):
    pieces = []
    for constraint, summary, example_type, example_value, factory in shapes:
        if optional:
            where = "Value == Wrapped?, " + constraint.replace("T.", "Wrapped.").replace("T:", "Wrapped:")
        else:
            where = constraint.replace("T.", "Value.").replace("T:", "Value:")
        what = ("an optional of " + summary) if optional else summary
        # The siblings are hidden from the documentation, so a summary and an example are
        # all Quick Help needs; the parameters are those of the documented initializer.
        lines = textwrap.wrap(f"{primary}, for {what}: " + example.replace("{T}", example_type).replace("{V}", example_value) + ".", 96 - len(indent))
        factory = factory.replace("{json}", json)
        if optional:
            bridge = ".optional(ValueBridge<Wrapped>." + factory + ")"
        else:
            bridge = "." + factory
        body = decl_template.format(where=where, bridge=bridge)
        # Hidden from the documentation: it shows one initializer per form (the
        # UserDefaultable one, whose summary names every storable type), not each sibling.
        pieces.append(doc(lines, indent) + "\n" + indent + "@_disfavoredOverload @_documentation(visibility: internal)\n" + textwrap.indent(body, indent))
    return "\n\n".join(pieces)

header = """import Foundation

// The storable-type check, part {part}: the siblings of {subject}'s initializers, one per
// way the library stores a type. Only the ``UserDefaultable`` one is not disfavored, so a
// type that is none of these gets one error ("requires that 'Point' conform to
// 'UserDefaultable'") rather than a note per overload; the `& Codable` pairs keep a type
// that is also `Codable` stored as raw values without an ambiguity. Each passes its bridge
// to the one internal initializer (ValueBridge+Declared.swift).
//
// Written by scripts/generate-storable-overloads.py (CI checks it): change it there.
"""

# ---- Key
key_shapes = SHAPES[:6]
k1 = """public convenience init(
  _ name: String, default defaultValue: Value, file: StaticString = #fileID, line: UInt = #line
) where {where} {{
  self.init(
    name: name, defaultValue: .constant(defaultValue), bridge: {bridge}, file: file, line: line)
}}"""
k2 = """public convenience init(
  _ name: String, default makeDefault: @escaping @Sendable () -> Value,
  file: StaticString = #fileID, line: UInt = #line
) where {where} {{
  self.init(
    name: name, defaultValue: .computed(makeDefault), bridge: {bridge}, file: file, line: line)
}}"""
k3 = """public convenience init<Wrapped>(
  _ name: String, file: StaticString = #fileID, line: UInt = #line
) where {where} {{
  self.init(name: name, defaultValue: .constant(nil), bridge: {bridge}, file: file, line: line)
}}"""
key = header.format(part="keys", subject="`UserDefaults.Key`") + "\nextension UserDefaults.Key {\n"
key += "  // MARK: A key with a default\n\n"
key += overloads(k1, "`static let value = Key<{T}>(\"value\", default: {V})`",
                 "A key that reads as `defaultValue` when nothing is stored", "Key", False, key_shapes)
key += "\n\n  // MARK: A key with a computed default\n\n"
key += overloads(k2, "`static let value = Key<{T}>(\"value\", default: { {V} })`",
                 "A key whose default is computed on each read that finds nothing stored", "Key", False, key_shapes)
key += "\n\n  // MARK: An optional key\n\n"
key += overloads(k3, "`static let value = Key<{T}?>(\"value\")`",
                 "An optional key, `nil` when nothing is stored", "Key", True, key_shapes)
key += "\n}\n"
OUTPUT = {"key": key}

# ---- UserDefault (string keys)
u1 = """public init(
  _ key: String, defaultValue: Value, suite: UserDefaults? = nil, defaults: UserDefaults? = nil,
  encoder: JSONEncoder? = nil, decoder: JSONDecoder? = nil,
  file: StaticString = #fileID, line: UInt = #line
) where {where} {{
  self.init(
    key, default: .constant(defaultValue), suite: suite, defaults: defaults,
    bridge: {bridge}, file: file, line: line)
}}"""
u2 = """public init<Wrapped>(
  _ key: String, suite: UserDefaults? = nil, defaults: UserDefaults? = nil,
  encoder: JSONEncoder? = nil, decoder: JSONDecoder? = nil,
  file: StaticString = #fileID, line: UInt = #line
) where {where} {{
  self.init(
    key, default: .constant(nil), suite: suite, defaults: defaults,
    bridge: {bridge}, file: file, line: line)
}}"""
ud = header.format(part="string-key properties", subject="`UserDefault`") + "\nextension UserDefault {\n"
ud += "  // MARK: A value with a default\n\n"
ud += overloads(u1, "`@UserDefault(\"value\", defaultValue: {V}) var value: {T}`",
                "A value stored under `key`, reading `defaultValue` when nothing is stored", "UserDefault", False, SHAPES,
                json="json: .custom(encoder: encoder, decoder: decoder)")
ud += "\n\n  // MARK: An optional value\n\n"
ud += overloads(u2, "`@UserDefault(\"value\") var value: {T}?`",
                "An optional value stored under `key`, `nil` when nothing is stored", "UserDefault", True, SHAPES,
                json="json: .custom(encoder: encoder, decoder: decoder)")
ud += "\n}\n"
OUTPUT["ud"] = ud

# ---- UserDefaultsWrapper
w1 = """public init(
  key: String, default defaultValue: Value, userDefaults: UserDefaults = .libraryDefault,
  file: StaticString = #fileID, line: UInt = #line
) where {where} {{
  self.init(
    key: key, default: .constant(defaultValue), userDefaults: userDefaults, bridge: {bridge},
    file: file, line: line)
}}"""
w2 = """public init<Wrapped>(
  key: String, userDefaults: UserDefaults = .libraryDefault,
  file: StaticString = #fileID, line: UInt = #line
) where {where} {{
  self.init(
    key: key, default: .constant(nil), userDefaults: userDefaults, bridge: {bridge}, file: file,
    line: line)
}}"""
w = header.format(part="wrappers", subject="`UserDefaultsWrapper`") + "\nextension UserDefaultsWrapper {\n"
w += "  // MARK: A value with a default\n\n"
w += overloads(w1, "`@UserDefaultsWrapper(key: \"Value\", default: {V}) var value: {T}`",
               "A value stored under `key`, reading `defaultValue` when nothing is stored", "UserDefaultsWrapper", False, SHAPES)
w += "\n\n  // MARK: An optional value\n\n"
w += overloads(w2, "`@UserDefaultsWrapper(key: \"Value\") var value: {T}?`",
               "An optional value stored under `key`, `nil` when nothing is stored", "UserDefaultsWrapper", True, SHAPES)
w += "\n}\n"
OUTPUT["w"] = w


def write_formatted(directory):
    """Writes every file under `directory`, formatted as the repository's sources are."""
    paths = []
    for name, relative in FILES.items():
        path = os.path.join(directory, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as handle:
            handle.write(OUTPUT[name])
        paths.append(path)
    subprocess.run(["swift", "format", "-i", *paths], check=True)
    return paths


if "--check" in sys.argv[1:]:
    scratch = tempfile.mkdtemp()
    try:
        write_formatted(scratch)
        stale = [
            relative for relative in FILES.values()
            if open(os.path.join(scratch, relative)).read()
            != open(os.path.join(ROOT, relative)).read()
        ]
    finally:
        shutil.rmtree(scratch)
    if stale:
        print("not what scripts/generate-storable-overloads.py writes (run it):", *stale, sep="\n  ")
        sys.exit(1)
    print("the storable-type overloads are what the generator writes")
else:
    write_formatted(ROOT)
