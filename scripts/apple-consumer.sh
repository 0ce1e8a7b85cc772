#!/usr/bin/env bash
# Builds an app's package that depends on this checkout by path and uses @DefaultEntry:
# with `swift build` (and runs it), then, where xcodebuild exists, for the iOS simulator
# the way an app in Xcode builds it (macro plugin for the Mac, library for the simulator).
# Used by .github/workflows/apple-platforms.yml; on Linux it does the SwiftPM part.
# Usage: scripts/apple-consumer.sh [DIR]   (DIR: where the package goes; default: temporary)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ "$#" -gt 0 ]; then
  app=$1
  mkdir -p "$app"
else
  app=$(mktemp -d)
  trap 'rm -rf "$app"' EXIT
fi
# A path dependency's identity is its folder's name (a CI checkout need not be "UserDefault").
identity=$(basename "$root")

mkdir -p "$app/Sources/AppSettings" "$app/Sources/AppMain"
cat >"$app/Package.swift" <<MANIFEST
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "AppConsumer",
  platforms: [.macOS(.v14), .iOS(.v17)],
  products: [.library(name: "AppSettings", targets: ["AppSettings"])],
  dependencies: [.package(path: "$root")],
  targets: [
    .target(
      name: "AppSettings", dependencies: [.product(name: "DefaultEntry", package: "$identity")]),
    .executableTarget(name: "AppMain", dependencies: ["AppSettings"]),
  ]
)
MANIFEST
cat >"$app/Sources/AppSettings/Settings.swift" <<'SWIFT'
import DefaultEntry

extension UserDefaults {
  @DefaultEntry(default: 0) public var launchCount: Int
  @DefaultEntry<String> public var userName: String?
}

/// What an app does at launch: counts it, in the store it is given.
public func recordLaunch(in store: UserDefaults) -> Int {
  store.launchCount += 1
  return store.launchCount
}
SWIFT
cat >"$app/Sources/AppMain/main.swift" <<'SWIFT'
import AppSettings
import DefaultEntry

let store = PreferencesStore.inMemory()
_ = recordLaunch(in: store)
print("app consumer: launches = \(recordLaunch(in: store)), user = \(store.userName ?? "none")")
SWIFT

cd "$app"
echo "== app consumer: swift build"
swift build
output=$(swift run --skip-build AppMain)
echo "$output"
[ "$output" = "app consumer: launches = 2, user = none" ] || {
  echo "unexpected app consumer output" >&2
  exit 1
}

if command -v xcodebuild >/dev/null; then
  echo "== app consumer: xcodebuild, iOS simulator"
  # -skipMacroValidation: CI cannot answer Xcode's "trust this macro?" prompt.
  xcodebuild build -scheme AppSettings -destination 'generic/platform=iOS Simulator' \
    -skipMacroValidation
else
  echo "== app consumer: no xcodebuild here, the iOS simulator build is left to macOS"
fi
echo "app consumer check passed"
