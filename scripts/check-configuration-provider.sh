#!/usr/bin/env bash
# The swift-configuration provider (product UserDefaultConfiguration, package trait
# `Configuration`), offline, on the committed HEAD:
#   1. a plain consumer of `UserDefault` (no trait) resolves and builds with no mirror and
#      git allowed only file:// URLs: users who do not enable the trait fetch nothing more;
#      so does a clone of the package itself (`swift package resolve`, no trait);
#   2. in a clone with the vendored mirror (../shared/vendor/packages-mirror.sh, set in the
#      clone's own .swiftpm, never this checkout's), the package and its tests build with
#      the trait, warnings in its own targets failing, and the provider's tests run;
#   3. the UserDefaultConfiguration catalog builds with docc, warnings failing, and every
#      public symbol of the module is documented (from the clone's trait build);
#   4. a consumer with the trait, resolved through the mirror: reads what the `defaults`
#      tool writes (-int, -string, -bool, -float, -array, an untyped 8080) through
#      ConfigReader, gets defaults for missing keys, and sees another process's `defaults
#      write` in watchInt on a PreferencesStore and on a Foundation instance, the default
#      on Linux (each latency is printed); and every
#      `<!-- snippet: configuration -->` block of the UserDefaultConfiguration catalog
#      builds in it as shown.
# Preferences go to a throw-away XDG_CONFIG_HOME and HOME. Takes some minutes on 2 cores:
# the library is built three times (plain consumer, clone with tests, trait consumer).
# Usage: scripts/check-configuration-provider.sh [vendor directory]
#   (default: ../shared/vendor beside the repository, as check-swift-syntax-package.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
vendor=${1:-$root/../shared/vendor}
[ -x "$vendor/packages-mirror.sh" ] || vendor=/work/shared/vendor
[ -x "$vendor/packages-mirror.sh" ] || { echo "no vendored mirror (packages-mirror.sh) found" >&2; exit 1; }
vendor=$(cd "$vendor" && pwd)
work=$(mktemp -d)
reader=""
trap '[ -z "$reader" ] || kill "$reader" 2>/dev/null || true; rm -rf "$work"' EXIT
export XDG_CONFIG_HOME="$work/config" HOME="$work/home"
mkdir -p "$XDG_CONFIG_HOME" "$HOME"

source "$root/scripts/consumer-lib.sh"
clone_head
configuration_url=https://github.com/apple/swift-configuration

# Only file:// git URLs: a fetch from the network fails at once rather than trying.
offline() { GIT_ALLOW_PROTOCOL=file "$@"; }

echo "== without the trait: the package and a plain consumer resolve nothing more, no mirror"
(cd "$work/UserDefault" && offline swift package resolve && swift package show-dependencies) \
  >"$work/plain-clone.log" 2>&1 || { cat "$work/plain-clone.log"; exit 1; }
if grep -q swift-configuration "$work/plain-clone.log"; then
  cat "$work/plain-clone.log"; echo "the package resolves swift-configuration without the trait" >&2; exit 1
fi
plain_source='import UserDefault
extension UserDefaults.Keys { static let runs = Key<Int>("runs", default: 0) }
let store = PreferencesStore.inMemory()
store[.runs] += 1
print("plain consumer: runs = \(store[.runs])")'
make_consumer PlainConsumer ".package(url: \"$url\", from: \"1.0.0\")" UserDefault "$plain_source"
(cd "$work/PlainConsumer" && offline swift build -q && swift run -q --skip-build PlainConsumer &&
  swift package show-dependencies) | tee "$work/plain-consumer.log"
[ ! -d "$work/PlainConsumer/.swiftpm/configuration" ] || { echo "the plain consumer has a mirror" >&2; exit 1; }
if grep -q swift-configuration "$work/plain-consumer.log" "$work/PlainConsumer/Package.resolved"; then
  echo "a consumer without the trait resolved swift-configuration" >&2; exit 1
fi

echo "== with the trait, through the vendored mirror: build (warnings are errors), provider tests"
(cd "$work/UserDefault" && "$vendor/packages-mirror.sh" "$work/vendored" >/dev/null)
(cd "$work/UserDefault" && offline swift build --build-tests --traits Configuration 2>&1) |
  tee "$work/trait-build.log" | grep -E "error|warning:|Build complete" || true
grep -q "Build complete" "$work/trait-build.log" || { tail -30 "$work/trait-build.log"; exit 1; }
if grep -E "^$work/UserDefault/(Sources|Tests)/.*: warning:" "$work/trait-build.log"; then
  echo "compiler warnings in the package's own targets (trait Configuration)" >&2; exit 1
fi
(cd "$work/UserDefault" &&
  swift test --skip-build --traits Configuration --filter UserDefaultsProviderTests 2>&1) |
  tee "$work/trait-tests.log" | grep -E "✘|passed after|failed|skipped|other-process" || true
grep -q "Test run with .* passed" "$work/trait-tests.log" || { echo "provider tests failed" >&2; exit 1; }

echo "== the UserDefaultConfiguration catalog (docc, warnings are errors, every public symbol documented)"
# As scripts/build-docs.sh does for the other modules, which it builds without the trait.
(
  cd "$work/UserDefault"
  triple=$(swift -print-target-info | sed -n 's/.*"triple": "\([^"]*\)".*/\1/p' | head -1)
  csystem=$(dirname "$(find .build/checkouts -name module.modulemap -path "*CSystem*" | head -1)")
  mkdir -p "$work/symbols"
  swift symbolgraph-extract -module-name UserDefaultConfiguration -I .build/debug/Modules \
    -I "$csystem" -target "$triple" -output-dir "$work/symbols" -minimum-access-level public \
    -skip-synthesized-members -skip-inherited-docs -emit-extension-block-symbols
  docc convert Sources/UserDefaultConfiguration/UserDefaultConfiguration.docc \
    --additional-symbol-graph-dir "$work/symbols" --fallback-display-name UserDefaultConfiguration \
    --fallback-bundle-identifier org.userdefault.UserDefaultConfiguration \
    --output-path "$work/UserDefaultConfiguration.doccarchive" --warnings-as-errors 2>&1
) | tee "$work/docc.log"
if grep -E "^(warning|error):" "$work/docc.log"; then
  echo "docc reported problems for UserDefaultConfiguration" >&2; exit 1
fi
[ -d "$work/UserDefaultConfiguration.doccarchive/data/documentation" ] || { echo "no archive" >&2; exit 1; }
python3 "$root/scripts/undocumented-symbols.py" "$work/symbols" "$work/UserDefaultConfiguration.doccarchive"

echo "== a consumer with the trait: the defaults tool's values, defaults, another process's write"
consumer="$work/ConfigConsumer"
mkdir -p "$consumer/Sources/ConfigConsumer"
cat >"$consumer/Sources/ConfigConsumer/main.swift" <<'SWIFT'
import Configuration
import Foundation
import UserDefault
import UserDefaultConfiguration

/// Written at once: the script reads the lines while the program runs.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "read":
  // A Foundation instance, as in the article; the tool wrote the suite's file.
  let config = ConfigReader(providers: [
    EnvironmentVariablesProvider(), UserDefaultsProvider(suiteName: "tool"),
  ])
  say("port \(config.int(forKey: "port", default: 0))")
  say("retries \(config.int(forKey: "retries", default: 0))")
  say("name \(config.string(forKey: "name", default: "?"))")
  say("verbose \(config.bool(forKey: "verbose", default: false))")
  say("ratio \(config.double(forKey: "ratio", default: 0))")
  say("hosts \(config.stringArray(forKey: "hosts", default: []))")
  say("ports \(config.intArray(forKey: "ports", default: []))")
  say("missing \(config.int(forKey: "http.missing", default: 30))")
case "watch":
  // `watch store|foundation <value>`: until the value arrives, or 20 s (the bound, not the
  // wait). `foundation` is Foundation's instance, the default on Linux.
  let rest = Array(arguments.dropFirst())
  let target = Int(rest.count > 1 ? rest[1] : "") ?? 45
  let provider =
    rest.first == "foundation"
    ? UserDefaultsProvider(suiteName: "tool")
    : UserDefaultsProvider(defaults: try PreferencesStore(suiteName: "tool"))
  let config = ConfigReader(provider: provider)
  let bound = Task {
    try await Task.sleep(for: .seconds(20))
    say("timeout")
    exit(1)
  }
  try await config.watchInt(forKey: "http.timeout", default: 30) { updates in
    for await value in updates {
      say("value \(value)")
      if value == target { break }
    }
  }
  bound.cancel()
default:
  say("usage: ConfigConsumer read | watch store|foundation <value>")
  exit(2)
}
SWIFT

# The catalog's blocks marked `<!-- snippet: configuration -->`, one executable target
# each, the document's `<!-- snippet-prelude … -->` first, as scripts/check-snippets.sh
# builds the others.
python3 - "$consumer" "$root"/Sources/UserDefaultConfiguration/UserDefaultConfiguration.docc/*.md \
  >"$work/snippet-targets" <<'PYTHON'
import os, re, sys
consumer, documents = sys.argv[1], sys.argv[2:]
count = 0
for document in documents:
    lines = open(document, encoding="utf-8").read().split("\n")
    prelude, index = [], 0
    while index < len(lines):
        text = lines[index]
        if text.strip().startswith("<!-- snippet-prelude"):
            end = index + 1
            while not lines[end].strip().startswith("-->"):
                end += 1
            prelude.append((index + 2, "\n".join(lines[index + 1:end])))
            index = end + 1
            continue
        if not re.match(r"^```swift\s*$", text):
            index += 1
            continue
        end = index + 1
        while not re.match(r"^```\s*$", lines[end]):
            end += 1
        back = index - 1
        while back >= 0 and not lines[back].strip():
            back -= 1
        if back >= 0 and lines[back].strip() == "<!-- snippet: configuration -->":
            count += 1
            target = f"Snippet{count}"
            os.makedirs(f"{consumer}/Sources/{target}")
            code = "\n".join(lines[index + 1:end])
            # The block first: its imports must stand as shown, before the prelude.
            path = os.path.abspath(document)
            with open(f"{consumer}/Sources/{target}/main.swift", "w") as out:
                out.write(f'#sourceLocation(file: "{path}", line: {index + 2})\n{code}\n#sourceLocation()\n')
                for line, text in prelude:
                    out.write(f'#sourceLocation(file: "{path}", line: {line})\n{text}\n#sourceLocation()\n')
            print(target)
        index = end + 1
if count == 0:
    sys.exit("no configuration snippets found in the catalog")
PYTHON
{
  echo "// swift-tools-version: 6.2"
  echo "import PackageDescription"
  echo "let products: [Target.Dependency] = ["
  echo "  .product(name: \"UserDefault\", package: \"UserDefault\"),"
  echo "  .product(name: \"UserDefaultConfiguration\", package: \"UserDefault\"),"
  echo "  .product(name: \"Configuration\", package: \"swift-configuration\"),"
  echo "]"
  echo "let package = Package("
  echo "  name: \"ConfigConsumer\","
  echo "  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],"
  echo "  dependencies: ["
  echo "    .package(url: \"$url\", from: \"1.0.0\", traits: [\"Configuration\"]),"
  echo "    .package(url: \"$configuration_url\", from: \"1.0.0\"),"
  echo "  ],"
  echo "  targets: ["
  echo "    .executableTarget(name: \"ConfigConsumer\", dependencies: products),"
  while IFS= read -r target; do
    echo "    .executableTarget(name: \"$target\", dependencies: products),"
  done <"$work/snippet-targets"
  echo "  ]"
  echo ")"
} >"$consumer/Package.swift"
(cd "$consumer" && "$vendor/packages-mirror.sh" "$work/vendored-consumer" >/dev/null)
(cd "$consumer" && offline swift build 2>&1) >"$work/consumer-build.log" ||
  { grep -E "error|warning:" "$work/consumer-build.log" | sort -u | head -30; tail -5 "$work/consumer-build.log"; exit 1; }
if grep -E "\.md:[0-9]+:[0-9]+: (error|warning)" "$work/consumer-build.log"; then
  echo "configuration snippets do not build cleanly" >&2; exit 1
fi
echo "built the consumer and $(wc -l <"$work/snippet-targets") configuration snippet(s) of the catalog"
(cd "$consumer" && swift build -q --product defaults)
bin=$(cd "$consumer" && swift build --show-bin-path)
tool="$bin/defaults"

"$tool" write tool port 8080
"$tool" write tool retries -int 3
"$tool" write tool name -string Ada
"$tool" write tool verbose -bool true
"$tool" write tool ratio -float 0.75
"$tool" write tool hosts -array a.example b.example
"$tool" write tool ports -array 80 443
# A clean environment: the environment provider comes first, and a PORT or NAME set by the
# machine would win.
env -i PATH="$PATH" HOME="$HOME" XDG_CONFIG_HOME="$XDG_CONFIG_HOME" "$bin/ConfigConsumer" read |
  tee "$work/read.txt"
cat >"$work/expected.txt" <<'EXPECTED'
port 8080
retries 3
name Ada
verbose true
ratio 0.75
hosts ["a.example", "b.example"]
ports [80, 443]
missing 30
EXPECTED
diff "$work/expected.txt" "$work/read.txt" || { echo "the consumer read other values" >&2; exit 1; }

# The watcher's lines come through a FIFO, each awaited with a bound (read -t). Both
# backends: a store (polled) and Foundation's instance (the library's file watch).
watch_backend() {
  local backend=$1 start=$2 target=$3 line written arrived
  rm -f "$work/watch.fifo"
  mkfifo "$work/watch.fifo"
  "$bin/ConfigConsumer" watch "$backend" "$target" >"$work/watch.fifo" &
  reader=$!
  exec 3<"$work/watch.fifo"
  read -r -t 20 -u 3 line && [ "$line" = "value $start" ] ||
    { echo "$backend: watch did not start: '${line:-}'" >&2; exit 1; }
  echo "$backend, watching: $line"
  "$tool" write tool http.timeout -int "$target"
  written=$(date +%s%N)
  read -r -t 20 -u 3 line || { echo "$backend: no change within 20 s" >&2; exit 1; }
  arrived=$(date +%s%N)
  [ "$line" = "value $target" ] || { echo "$backend: watch saw '$line', not 'value $target'" >&2; exit 1; }
  wait "$reader"
  reader=""
  exec 3<&-
  echo "$backend: another process's write reached watchInt $(((arrived - written) / 1000000)) ms after the defaults tool exited ($line)"
}
watch_backend store 30 45
watch_backend foundation 45 46
echo "configuration provider check passed"
