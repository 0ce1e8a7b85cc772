#!/usr/bin/env bash
# Proves that a consumer whose default isolation is the main actor (Xcode 26's templates:
# `swiftSettings: [.defaultIsolation(MainActor.self)]`) can use every surface from
# nonisolated code: typed keys, `@DefaultEntry` entries and the keys the macro generates
# (from a `nonisolated` function and from `Task.detached`), both `@UserDefault` forms (a
# string key, a typed key) and the key-path one, `UserDefaultsWrapper` and `SafeDefaults`.
# Declarations the consumer writes itself take the module's isolation, as in any module:
# they are marked `nonisolated` where nonisolated code uses them. The macro's generated key
# needs no such mark (`UserDefaults.onMainKey` below belongs to a main-actor entry).
# Usage: scripts/check-main-actor-consumer.sh   (from anywhere; uses the committed HEAD)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

source "$root/scripts/consumer-lib.sh"
clone_head

consumer=$work/MainActorConsumer
mkdir -p "$consumer/Sources/MainActorConsumer" "$work/config" "$work/home"
cat >"$consumer/Package.swift" <<MANIFEST
// swift-tools-version: 6.2
import PackageDescription
let package = Package(
  name: "MainActorConsumer",
  dependencies: [.package(url: "$url", from: "1.0.0")],
  targets: [
    .executableTarget(
      name: "MainActorConsumer",
      dependencies: [
        .product(name: "DefaultEntry", package: "UserDefault"),
        .product(name: "SafeDefaultsKit", package: "UserDefault"),
      ],
      swiftSettings: [.defaultIsolation(MainActor.self)]
    )
  ]
)
MANIFEST
cat >"$consumer/Sources/MainActorConsumer/main.swift" <<'SOURCE'
import DefaultEntry
import SafeDefaultsKit

extension UserDefaults.Keys { nonisolated static let count = Key<Int>("count", default: 0) }

nonisolated extension UserDefaults {
  @DefaultEntry(default: 0) var runs: Int
  @DefaultEntry<String> var nickname: String?
}
// An entry left on the main actor: its generated key is still reachable from anywhere.
extension UserDefaults { @DefaultEntry(default: 1) var onMain: Int }

nonisolated struct Settings {
  @UserDefault("flag", defaultValue: false) var flag: Bool
  @UserDefault(.count) var count
  @UserDefault(\.runs) var runs
}
nonisolated final class Member {
  @UserDefaultsWrapper<String>(key: "FirstName", default: "John") var firstName
}
nonisolated struct BookDefaults: SafeDefaults {
  enum Keys: String, DefaultsKey { case id }
}

/// One pass over every surface; returns what it read.
nonisolated func everySurface(_ name: String) -> String {
  let defaults = UserDefaults.standard
  defaults[.count] += 1
  defaults.runs += 1
  defaults.nickname = name
  defaults[UserDefaults.onMainKey] += 1
  let settings = Settings()
  settings.flag = true
  let member = Member()
  member.firstName = name
  let books = BookDefaults()
  books.set(defaults[.count], forKey: .id)
  return [
    "count \(defaults[.count])", "runs \(defaults.runs) key \(UserDefaults.runsKey.name)",
    "nickname \(defaults.nickname ?? "-")", "onMain \(defaults[UserDefaults.onMainKey])",
    "flag \(settings.flag)", "wrapped \(settings.count) \(settings.runs)",
    "member \(member.firstName)", "book \(books.integer(forKey: .id) ?? -1)",
  ].joined(separator: ", ")
}

print("nonisolated: " + everySurface("plain"))
print("detached: " + (await Task.detached { everySurface("detached") }.value))
print("main actor: onMain \(UserDefaults.standard.onMain) runs \(UserDefaults.standard.runs)")
SOURCE

echo "== a consumer with default isolation MainActor, every surface from nonisolated code"
expected='nonisolated: count 1, runs 1 key key_runs, nickname plain, onMain 2, flag true, wrapped 1 1, member plain, book 1
detached: count 2, runs 2 key key_runs, nickname detached, onMain 3, flag true, wrapped 2 2, member detached, book 2
main actor: onMain 3 runs 2'
(cd "$consumer" && swift build -q)
output=$(cd "$consumer" && XDG_CONFIG_HOME="$work/config" HOME="$work/home" \
  swift run -q --skip-build MainActorConsumer)
printf '%s\n' "$output"
if [ "$output" != "$expected" ]; then
  printf 'expected:\n%s\n' "$expected" >&2
  exit 1
fi
echo "main-actor consumer check passed"
