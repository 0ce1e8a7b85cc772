"""Lists public symbols of the module that have no documentation comment, and, given the
built archive, public symbols that have no page in it; exits 1 if any.

Symbols that implement a protocol requirement or override a superclass member take
their documentation from the requirement or the overridden member (DocC shows it), so
they are skipped, as are the standard library's usual conformances by name.
"""
import json
import pathlib
import sys

INHERITED = {"description", "==(_:_:)", "hash(into:)", "init(from:)", "encode(to:)",
             "init(rawValue:)", "rawValue", "hashValue", "debugDescription"}

archive = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else None
pages = set()
if archive:
    for page in (archive / "data" / "documentation").rglob("*.json"):
        try:
            identifier = json.loads(page.read_text()).get("identifier", {}).get("url", "")
        except ValueError:
            continue
        pages.add(identifier)
    with_pages = set()
    for page in (archive / "data" / "documentation").rglob("*.json"):
        data = json.loads(page.read_text())
        precise = data.get("metadata", {}).get("externalID")
        if precise:
            with_pages.add(precise)

missing = []
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
        if archive and kind != "swift.extension" and precise not in with_pages:
            location = symbol.get("location", {}).get("uri", "?").split("/Sources/")[-1]
            missing.append(f"no page: {'.'.join(symbol['pathComponents'])} ({location})")
        if kind == "swift.extension":
            continue
        if symbol.get("docComment") or name in INHERITED:
            continue
        if symbol["identifier"]["precise"] in inheriting:
            continue
        location = symbol.get("location", {}).get("uri", "?").split("/Sources/")[-1]
        missing.append(f"{'.'.join(symbol['pathComponents'])} ({location})")

for line in missing:
    print("undocumented:", line)
if missing:
    print(f"{len(missing)} public symbols have no documentation comment", file=sys.stderr)
    sys.exit(1)
print("every public symbol is documented")
