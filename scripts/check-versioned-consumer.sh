#!/usr/bin/env bash
# Proves that product `UserDefault` can be depended on by version (`from:`) although the
# same package holds the macro target, which needs unsafe flags; then records what SwiftPM
# does with product `DefaultEntry` by version and checks the supported way (by revision).
# Usage: scripts/check-versioned-consumer.sh   (from anywhere; uses the committed HEAD)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

git clone --quiet "$root" "$work/UserDefault"
# -f: the repository may carry its own 1.0.0 tag; the check is about HEAD.
git -C "$work/UserDefault" tag -f 1.0.0 >/dev/null
revision=$(git -C "$work/UserDefault" rev-parse HEAD)
url="file://$work/UserDefault"

make_consumer() { # name, dependency line, product, source
  mkdir -p "$work/$1/Sources/$1"
  cat >"$work/$1/Package.swift" <<MANIFEST
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
  name: "$1",
  dependencies: [$2],
  targets: [.executableTarget(name: "$1", dependencies: [.product(name: "$3", package: "UserDefault")])]
)
MANIFEST
  printf '%s\n' "$4" >"$work/$1/Sources/$1/main.swift"
}

core_source='import UserDefault
extension UserDefaults.Keys { static let runs = Key<Int>("runs", default: 0) }
let store = PreferencesStore.inMemory()
store[.runs] += 1
print("versioned core consumer: runs = \(store[.runs])")'

macro_source='import DefaultEntry
extension UserDefaults { @DefaultEntry(default: 0) var runs: Int }
let store = PreferencesStore.inMemory()
store.runs += 1
print("macro consumer: runs = \(store.runs)")'

echo "== consumer of product UserDefault, from: \"1.0.0\""
make_consumer CoreConsumer ".package(url: \"$url\", from: \"1.0.0\")" UserDefault "$core_source"
(cd "$work/CoreConsumer" && swift build -q && swift run -q CoreConsumer)

echo "== consumer of product DefaultEntry, from: \"1.0.0\" (expected to be refused)"
make_consumer VersionedMacroConsumer ".package(url: \"$url\", from: \"1.0.0\")" DefaultEntry "$macro_source"
if (cd "$work/VersionedMacroConsumer" && swift build -q) >"$work/versioned-macro.log" 2>&1; then
  echo "SwiftPM accepted DefaultEntry by version"
else
  echo "SwiftPM refused, as documented in the README:"
  grep -m1 -i "unsafe" "$work/versioned-macro.log" || tail -3 "$work/versioned-macro.log"
fi

echo "== consumer of product DefaultEntry, revision: (the supported way)"
make_consumer RevisionMacroConsumer ".package(url: \"$url\", revision: \"$revision\")" DefaultEntry "$macro_source"
(cd "$work/RevisionMacroConsumer" && swift build -q && swift run -q RevisionMacroConsumer)
echo "versioned consumer check passed"
