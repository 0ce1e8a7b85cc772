#!/usr/bin/env bash
# Proves that products `UserDefault` and `DefaultEntry` can be depended on by version
# (`from:`) although the macro target, built against the toolchain's swift-syntax, has
# unsafe flags: SwiftPM 6.2 accepts a dependency's unsafe flags when its manifest's
# tools-version is 6.2 or later (before, it refused them by version). Then checks
# `DefaultEntry` by revision too.
# Usage: scripts/check-versioned-consumer.sh   (from anywhere; uses the committed HEAD)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

source "$root/scripts/consumer-lib.sh"
clone_head

core_source='import UserDefault
extension UserDefaults.Keys { static let runs = Key<Int>("runs", default: 0) }
let store = PreferencesStore.inMemory()
store[.runs] += 1
print("versioned core consumer: runs = \(store[.runs])")'

echo "== consumer of product UserDefault, from: \"1.0.0\""
make_consumer CoreConsumer ".package(url: \"$url\", from: \"1.0.0\")" UserDefault "$core_source"
(cd "$work/CoreConsumer" && swift build -q && swift run -q CoreConsumer)

echo "== consumer of product DefaultEntry, from: \"1.0.0\" (unsafe flags accepted: tools-version 6.2)"
make_consumer VersionedMacroConsumer ".package(url: \"$url\", from: \"1.0.0\")" DefaultEntry "$macro_source"
if ! (cd "$work/VersionedMacroConsumer" && swift build -q) >"$work/versioned-macro.log" 2>&1; then
  cat "$work/versioned-macro.log"
  echo "SwiftPM refused DefaultEntry by version" >&2
  exit 1
fi
(cd "$work/VersionedMacroConsumer" && swift run -q --skip-build VersionedMacroConsumer)

echo "== consumer of product DefaultEntry, revision:"
make_consumer RevisionMacroConsumer ".package(url: \"$url\", revision: \"$revision\")" DefaultEntry "$macro_source"
(cd "$work/RevisionMacroConsumer" && swift build -q && swift run -q RevisionMacroConsumer)
echo "== the README's manifest (app: UserDefault and DefaultEntry; tests: UserDefaultTesting)"
# The block after `<!-- snippet: manifest -->`, as it is, in a folder beside the clone so
# that `path: "../UserDefault"` finds it.
python3 - "$root/README.md" >"$work/MyApp.Package.swift" <<'EXTRACT'
import re, sys
text = open(sys.argv[1]).read()
found = re.search(r"<!-- snippet: manifest -->\s*```swift\n(.*?)```", text, re.S)
sys.exit("no manifest block in the README") if not found else print(found.group(1), end="")
EXTRACT
mkdir -p "$work/MyApp/Sources/MyApp" "$work/MyApp/Tests/MyAppTests"
cp "$work/MyApp.Package.swift" "$work/MyApp/Package.swift"
printf '%s\n' "$macro_source" >"$work/MyApp/Sources/MyApp/main.swift"
cat >"$work/MyApp/Tests/MyAppTests/MyAppTests.swift" <<'TESTS'
import Testing
import UserDefaultTesting

extension UserDefaults.Keys { static let launches = Key<Int>("launches", default: 0) }

@Test(.isolatedDefaults) func countsFromZero() {
  UserDefaults.standard[.launches] += 1
  #expect(UserDefaults.standard[.launches] == 1)
}
TESTS
(cd "$work/MyApp" && swift build -q --build-tests && swift run -q --skip-build MyApp &&
  swift test -q --skip-build 2>&1 | tail -2)
echo "== the README's manifest with its branch: line instead of path: (resolution)"
sed -e 's|^    \.package(path: "\.\./UserDefault")$|    // path|' \
  -e "s|^    // \.package(url: \"<the URL you cloned it from>\", branch: \"main\")$|    .package(url: \"$url\", branch: \"main\")|" \
  "$work/MyApp.Package.swift" >"$work/MyApp/Package.swift"
grep -q "branch: \"main\")$" "$work/MyApp/Package.swift" || { echo "no branch: line to use" >&2; exit 1; }
git -C "$work/UserDefault" branch -f main HEAD >/dev/null 2>&1 || true
(cd "$work/MyApp" && swift package resolve && swift package show-dependencies)
echo "versioned consumer check passed"
