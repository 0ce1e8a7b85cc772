"""Checks the documentation of a module's public symbols; exits 1 on any finding.

Usage: undocumented-symbols.py <symbol-graph-dir> [<doccarchive>]

1. Every public symbol has a documentation comment.
2. Given the built archive, every public symbol (extension members included) has a page.
3. Every public operation declared in this package documents its contract. An operation
   is a symbol of kind swift.func, swift.method, swift.type.method, swift.init,
   swift.subscript or swift.macro (operators, swift.func.op, are left out), plus the
   `wrappedValue` and `projectedValue` properties of the property wrappers. Its comment
   must have:
   - `- Parameters:` with a `- name:` item for each parameter, or `- Parameter name:`
     lines, naming every parameter by its internal name or its argument label (the
     symbol graph's functionSignature.parameters; for macros, which have none, the
     declaration's parameter names). A parameter whose name is `_` is documented by its
     label (`from _: Old.Type` as `- from:`, which DocC also asks for); one with neither
     has no name to document and is not asked for;
   - `- Returns:` when it returns anything but `Void` / `()` (functions, methods,
     subscripts; not initializers, macros or properties);
   - `- Throws:` when its declaration has the keyword `throws` or `rethrows` outside the
     parameter list (a closure parameter's `throws` does not count);
   - an example, which is one of:
       * a fenced code block (a line starting with ```);
       * an indented code block (a line indented 4 or more spaces that follows a blank
         line);
       * an inline code span (single backticks, it may wrap across comment lines) that
         makes a call or a subscript: an identifier, `)`, `]`, `>` or `?` immediately
         followed by `(` or `[`, as in `defaults.reset(.theme)`, `defaults[.theme]`,
         `Key<Int>("n", default: 0)` or `@DefaultEntry(default: 0) var count: Int`;
       * an inline code span that assigns: ` = ` with code on both sides, as in
         `settings.isDiscountProvided = true`.
         A span that is only a symbol's name is not an example: `reset(_:)`,
         `Migration.init(from:to:)` (only argument labels between the parentheses), or
         `removeAll()` (no receiver, no arguments). ``Double-backtick`` links never count.

Skipped everywhere: symbols that take their documentation from elsewhere (protocol
requirement implementations, default implementations, overrides: DocC shows the
requirement's documentation) and the standard library's usual conformances by name
(`==`, `hash(into:)`, `description`, `init(from:)`, `encode(to:)`, ...). Skipped by check
3: symbols marked deprecated (`@available(*, deprecated)`) and symbols with no source
location in this package's Sources.
"""
import json
import pathlib
import re
import sys

INHERITED = {"description", "==(_:_:)", "hash(into:)", "init(from:)", "encode(to:)",
             "init(rawValue:)", "rawValue", "hashValue", "debugDescription"}
OPERATION_KINDS = {"swift.func", "swift.method", "swift.type.method", "swift.init",
                   "swift.subscript", "swift.macro"}
WRAPPER_PROPERTIES = {"wrappedValue", "projectedValue"}
NO_RETURN_KINDS = {"swift.init", "swift.macro"}

PARAMETERS_HEADER = re.compile(r"^\s*[-*+]\s+Parameters\s*:", re.IGNORECASE)
PARAMETER_ITEM = re.compile(r"^\s*[-*+]\s+(\w+)\s*:")
PARAMETER_SINGLE = re.compile(r"^\s*[-*+]\s+Parameter\s+(\w+)\s*:", re.IGNORECASE)
RETURNS = re.compile(r"^\s*[-*+]\s+Returns\s*:", re.IGNORECASE)
THROWS = re.compile(r"^\s*[-*+]\s+Throws\s*:", re.IGNORECASE)
FENCE = re.compile(r"^\s*```")
# A single-backtick span: not preceded or followed by another backtick.
CODE_SPAN = re.compile(r"(?<!`)`([^`]+)`(?!`)")
CALL = re.compile(r"[\w)\]>?][(\[]")
ASSIGNMENT = re.compile(r"\S = \S")
NAME_ONLY = re.compile(r"^[\w.]+\((?:\w+:)+\)$|^\w+\(\)$")


def doc_lines(symbol):
    return [line["text"] for line in symbol.get("docComment", {}).get("lines", [])]


def documented_parameters(lines):
    names = set()
    in_list = False
    list_indent = 0
    for line in lines:
        single = PARAMETER_SINGLE.match(line)
        if single:
            names.add(single.group(1))
            in_list = False
            continue
        if PARAMETERS_HEADER.match(line):
            in_list = True
            list_indent = len(line) - len(line.lstrip())
            continue
        if in_list:
            indent = len(line) - len(line.lstrip())
            item = PARAMETER_ITEM.match(line)
            if item and indent > list_indent:
                names.add(item.group(1))
            elif line.strip() and indent <= list_indent:
                in_list = False
    return names


def has_example(lines):
    previous_blank = True
    for line in lines:
        if FENCE.match(line):
            return True
        if line.startswith("    ") and line.strip() and previous_blank:
            return True
        previous_blank = not line.strip()
    for span in CODE_SPAN.findall("\n".join(lines)):
        span = " ".join(span.split())
        if ASSIGNMENT.search(span) or (CALL.search(span) and not NAME_ONLY.match(span)):
            return True
    return False


def parameter_names(symbol, kind):
    signature = symbol.get("functionSignature")
    if signature is not None:
        return [(parameter.get("internalName", parameter["name"]), parameter["name"])
                for parameter in signature.get("parameters", [])]
    if kind != "swift.macro":
        return []
    # Macros carry no functionSignature: read `label name:` pairs from the declaration.
    # Each parameter is (internal name, argument label).
    names = []
    fragments = symbol["declarationFragments"]
    for index, fragment in enumerate(fragments):
        if fragment["kind"] == "externalParam":
            following = fragments[index + 2] if index + 2 < len(fragments) else None
            if following and following["kind"] == "internalParam":
                names.append((following["spelling"], fragment["spelling"]))
            else:
                names.append((fragment["spelling"], fragment["spelling"]))
    return names


def returns_value(symbol, kind):
    if kind in NO_RETURN_KINDS or kind == "swift.property":
        return False
    returned = "".join(
        fragment["spelling"] for fragment in symbol.get("functionSignature", {}).get("returns", []))
    return returned.replace(" ", "") not in ("", "()", "Void")


def throws(symbol):
    # Only the declaration's own `throws`: one inside the parentheses belongs to the type of
    # a closure parameter (`_ body: () throws -> Void`), which does not make the call throw.
    depth = 0
    for fragment in symbol["declarationFragments"]:
        spelling = fragment["spelling"]
        if fragment["kind"] == "keyword" and spelling.strip() in ("throws", "rethrows"):
            if depth == 0:
                return True
        elif fragment["kind"] == "text":
            depth += spelling.count("(") - spelling.count(")")
    return False


def deprecated(symbol):
    return any(
        entry.get("isUnconditionallyDeprecated") or "deprecated" in entry
        for entry in symbol.get("availability", []))


def contract_problems(symbol, kind):
    lines = doc_lines(symbol)
    problems = []
    documented = documented_parameters(lines)
    absent = []
    for internal, label in parameter_names(symbol, kind):
        name = label if internal == "_" else internal
        if name != "_" and internal not in documented and label not in documented:
            absent.append(name)
    if absent:
        problems.append("no - Parameters: entry for " + ", ".join(absent))
    if returns_value(symbol, kind) and not any(RETURNS.match(line) for line in lines):
        problems.append("no - Returns:")
    if throws(symbol) and not any(THROWS.match(line) for line in lines):
        problems.append("no - Throws:")
    if not has_example(lines):
        problems.append("no example")
    return problems


archive = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else None
with_pages = set()
if archive:
    for page in (archive / "data" / "documentation").rglob("*.json"):
        data = json.loads(page.read_text())
        precise = data.get("metadata", {}).get("externalID")
        if precise:
            with_pages.add(precise)

missing = []
incomplete = []
for path in sorted(pathlib.Path(sys.argv[1]).glob("*.symbols.json")):
    graph = json.loads(path.read_text())
    inheriting = {
        relationship["source"]
        for relationship in graph["relationships"]
        if "sourceOrigin" in relationship
        or relationship["kind"] in ("defaultImplementationOf", "overrides")
    }
    for symbol in graph["symbols"]:
        name = symbol["names"]["title"]
        precise = symbol["identifier"]["precise"]
        kind = symbol["kind"]["identifier"]
        uri = symbol.get("location", {}).get("uri", "?")
        location = uri.split("/Sources/")[-1]
        if symbol.get("location"):
            location += f":{symbol['location']['position']['line'] + 1}"
        path_name = ".".join(symbol["pathComponents"])
        if archive and kind != "swift.extension" and precise not in with_pages:
            missing.append(f"no page: {path_name} ({location})")
        if kind == "swift.extension" or name in INHERITED or precise in inheriting:
            continue
        if not symbol.get("docComment"):
            missing.append(f"{path_name} ({location})")
            continue
        operation = kind in OPERATION_KINDS or (
            kind == "swift.property" and name in WRAPPER_PROPERTIES)
        if not operation or deprecated(symbol) or "/Sources/" not in uri:
            continue
        problems = contract_problems(symbol, kind)
        if problems:
            incomplete.append(f"{path_name} ({location}): {'; '.join(problems)}")

for line in missing:
    print("undocumented:", line)
for line in incomplete:
    print("incomplete:", line)
if missing:
    print(f"{len(missing)} public symbols have no documentation comment or page",
          file=sys.stderr)
if incomplete:
    print(f"{len(incomplete)} public operations lack - Parameters:, - Returns:, - Throws: "
          "or an example", file=sys.stderr)
if missing or incomplete:
    sys.exit(1)
print("every public symbol is documented")
