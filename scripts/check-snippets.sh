#!/usr/bin/env bash
# Builds every ```swift block of README.md and of the DocC articles
# (Sources/*/*.docc/*.md) in the Swift 6 language mode against the package, so the
# documentation cannot drift from the API.
#
# How blocks become code:
#   - Each block is its own executable target (its own module, a main.swift, so top-level
#     statements and `for await` compile), depending on the products UserDefault,
#     DefaultEntry, SafeDefaultsKit and UserDefaultTesting (blocks of tests compile there too). Blocks are only built, never run.
#   - Nothing is added to a block: it must carry its own imports (`import UserDefault`, …),
#     as a reader who copies it must. A block that compiles here compiles as shown.
#   - `<!-- snippet: partial -->` on the line before the fence: the block is deliberately
#     incomplete (elides code with …, shows a manifest fragment); it is skipped.
#   - `<!-- snippet: manifest -->`: a package manifest; skipped here, and built as a
#     consumer package by scripts/check-versioned-consumer.sh.
#   - `<!-- snippet: configuration -->`: needs the package trait `Configuration` and
#     swift-configuration (the UserDefaultConfiguration catalog); skipped here, and built
#     with the trait by scripts/check-configuration-provider.sh.
#   - `<!-- snippet: continues -->` on the line before the fence: the block reads on from
#     the previous block of the same document and is appended to its target.
#   - No hidden prelude: a `<!-- snippet-prelude … -->` comment (code prepended to every
#     later block, invisible when the Markdown is rendered) is refused. A block declares
#     the types and functions it uses (`Theme`, `Profile`) where the reader sees them.
#   - The Getting Started article's manifest (`<!-- snippet: manifest -->`) must be the
#     README's, character for character, so the two cannot give different instructions.
#   - Each piece carries a `#sourceLocation` directive, so a compiler error names the
#     Markdown file and line; failing blocks are listed at the end and the script exits 1.
#
# The package: a scratch package in .build/snippets that depends on this one by local path
# (`.package(path:)`). SwiftPM accepts the macro target's unsafe flags from a path
# dependency (it refuses them only for dependencies by version; see
# shared notes: macros-offline and scripts/check-versioned-consumer.sh), so no copy of the
# package and no extra flags are needed. The first run builds the library again in the
# scratch package's own .build (about a minute on two cores); later runs are incremental.
#
# Usage: scripts/check-snippets.sh [markdown-file…]   (default: README.md and the articles)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

if [ "$#" -gt 0 ]; then documents=("$@"); else documents=(README.md Sources/*/*.docc/*.md); fi

scratch="$root/.build/snippets"
mkdir -p "$scratch"
rm -rf "$scratch/Sources"
mkdir -p "$scratch/Sources"

# Writes Sources/<target>/main.swift for each unit and prints the target names, then a
# summary line "# built N skipped M" on standard error.
python3 - "$scratch" "$(basename "$root")" "${documents[@]}" >"$scratch/targets" <<'PYTHON'
import os, re, sys

scratch, package_identity, documents = sys.argv[1], sys.argv[2], sys.argv[3:]
units = []  # (target, [(document, first line, code)])
skipped = 0
built = 0
for document in documents:
    lines = open(document, encoding="utf-8").read().split("\n")
    previous = None
    index = 0
    while index < len(lines):
        text = lines[index]
        if text.strip().startswith("<!-- snippet-prelude"):
            sys.exit(f"{document}:{index + 1}: a snippet-prelude hides code from the reader; "
                     "declare what the block needs in the block")
        fence = re.match(r"^(\s*)```swift\s*$", text)
        if not fence:
            index += 1
            continue
        indent = len(fence.group(1))
        end = index + 1
        while not re.match(r"^\s*```\s*$", lines[end]):
            end += 1
        code = "\n".join(line[indent:] for line in lines[index + 1:end])
        marker = ""
        back = index - 1
        while back >= 0 and not lines[back].strip():
            back -= 1
        if back >= 0:
            found = re.match(r"^\s*<!-- snippet: (\w+) -->\s*$", lines[back])
            marker = found.group(1) if found else ""
        piece = (document, index + 2, code)
        if marker in ("partial", "manifest", "configuration"):
            skipped += 1
            index = end + 1
            continue
        built += 1
        if marker == "continues" and previous is not None:
            previous[1].append(piece)
        else:
            name = re.sub(r"\W", "_", os.path.splitext(os.path.basename(document))[0])
            previous = (f"Snippet_{name}_{index + 1}", [piece])
            units.append(previous)
        index = end + 1

for target, pieces in units:
    os.makedirs(f"{scratch}/Sources/{target}")
    with open(f"{scratch}/Sources/{target}/main.swift", "w") as out:
        for document, line, code in pieces:
            path = os.path.abspath(document)
            out.write(f'#sourceLocation(file: "{path}", line: {line})\n{code}\n#sourceLocation()\n')
    print(target)
def manifest(document):
    found = re.search(r"<!-- snippet: manifest -->\s*```swift\n(.*?)```",
                      open(document, encoding="utf-8").read(), re.S)
    return found.group(1) if found else None

getting_started = "Sources/UserDefault/UserDefault.docc/GettingStarted.md"
if os.path.exists("README.md") and os.path.exists(getting_started):
    if manifest("README.md") is None or manifest("README.md") != manifest(getting_started):
        sys.exit(f"{getting_started}: its manifest block must be the README's, unchanged")

print(f"# building {built} block(s) in {len(units)} target(s), "
      f"skipped {skipped} partial block(s)", file=sys.stderr)
PYTHON

identity=$(basename "$root")
{
  echo "// swift-tools-version: 6.0"
  echo "// Generated by scripts/check-snippets.sh: one executable target per documentation block."
  echo "import PackageDescription"
  echo "let products: [Target.Dependency] = ["
  for product in UserDefault DefaultEntry SafeDefaultsKit UserDefaultTesting; do
    echo "  .product(name: \"$product\", package: \"$identity\"),"
  done
  echo "]"
  echo "let package = Package("
  echo "  name: \"Snippets\","
  echo "  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],"
  echo "  dependencies: [.package(path: \"$root\")],"
  echo "  targets: ["
  while IFS= read -r target; do
    echo "    .executableTarget(name: \"$target\", dependencies: products),"
  done <"$scratch/targets"
  echo "  ],"
  echo "  swiftLanguageModes: [.v6]"
  echo ")"
} >"$scratch/Package.swift"

echo "== building $(wc -l <"$scratch/targets") snippet target(s) in $scratch"
status=0
(cd "$scratch" && swift build 2>&1) >"$scratch/build.log" || status=$?
# Diagnostics that point into the documents (the #sourceLocation lines).
grep -E "^/.*\.md:[0-9]+:[0-9]+: (error|warning)" "$scratch/build.log" | sort -u >"$scratch/problems" || true
if [ "$status" != 0 ] || [ -s "$scratch/problems" ]; then
  if [ -s "$scratch/problems" ]; then
    sed "s|^$root/||" "$scratch/problems"
  else
    tail -30 "$scratch/build.log"
  fi
  echo "documentation snippets do not build cleanly (full log: $scratch/build.log)" >&2
  exit 1
fi
echo "all documentation snippets build"
