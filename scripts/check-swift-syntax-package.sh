#!/usr/bin/env bash
# Builds the package the way Xcode (and a Linux toolchain without swift-syntax modules)
# builds it: the macro against the swift-syntax package, with no unsafe flags. With
# USERDEFAULT_SWIFT_HOST_LIBS at an empty directory the manifest must fall back to the
# package; the example and the macro tests then build and run, and so does a consumer of
# product DefaultEntry by version (`from:`) that gets the same environment.
#
# No network here: swift-syntax resolves from the vendored mirror
# ($USERDEFAULT_SWIFT_SYNTAX_VENDOR, else ../shared/vendor, else /work/shared/vendor).
# With none, from the network; when that fails too, the check is SKIPPED (exit 0).
# swift-syntax builds from source once (about two minutes on 2 cores): the consumer
# builds in the clone's build directory, so it reuses those products.
# Usage: scripts/check-swift-syntax-package.sh   (from anywhere; uses the committed HEAD)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$root/scripts/consumer-lib.sh"
swift_syntax_url=https://github.com/swiftlang/swift-syntax.git

timed() { # label, command…: runs the command, then prints how long it took
  local label=$1 start=$SECONDS status=0
  shift
  "$@" || status=$?
  echo "-- $label: $((SECONDS - start)) s"
  return "$status"
}

depends_on_swift_syntax() { # in a package root: does its manifest name swift-syntax?
  swift package describe --type json >"$work/describe.json"
  grep -q '"identity" : "swift-syntax"' "$work/describe.json"
}

if [ -n "${USERDEFAULT_SWIFT_SYNTAX_VENDOR:-}" ]; then
  vendor=$USERDEFAULT_SWIFT_SYNTAX_VENDOR
  [ -x "$vendor/swift-syntax-mirror.sh" ] || {
    echo "USERDEFAULT_SWIFT_SYNTAX_VENDOR=$vendor holds no swift-syntax-mirror.sh" >&2
    exit 1
  }
else
  vendor=""
  for candidate in "$root/../shared/vendor" /work/shared/vendor; do
    if [ -x "$candidate/swift-syntax-mirror.sh" ]; then vendor=$candidate && break; fi
  done
fi

clone_head
cd "$work/UserDefault"

echo "== default mode: the toolchain's swift-syntax where it has the modules (Linux)"
unset USERDEFAULT_SWIFT_SYNTAX_PACKAGE USERDEFAULT_SWIFT_HOST_LIBS
resources=$(swift -print-target-info | sed -n 's/.*"runtimeResourcePath" *: *"\(.*\)".*/\1/p')
if [ "$(uname -s)" = Linux ] && [ -e "$resources/host/SwiftSyntax.swiftmodule" ] &&
  [ -e "$resources/host/SwiftCompilerPluginMessageHandling.swiftmodule" ]; then
  if depends_on_swift_syntax; then
    echo "the manifest depends on swift-syntax although $resources/host has its modules" >&2
    exit 1
  fi
  echo "no swift-syntax dependency: the macro builds against $resources/host"
else
  depends_on_swift_syntax || {
    echo "no toolchain swift-syntax modules, yet no swift-syntax dependency" >&2
    exit 1
  }
  echo "this toolchain has no swift-syntax modules: the default is the package already"
fi

echo "== package mode: USERDEFAULT_SWIFT_HOST_LIBS at an empty directory"
mkdir "$work/empty-host"
export USERDEFAULT_SWIFT_HOST_LIBS="$work/empty-host"
depends_on_swift_syntax || {
  echo "the manifest did not fall back to the swift-syntax package" >&2
  exit 1
}
if [ -n "$vendor" ]; then
  "$vendor/swift-syntax-mirror.sh" "$work/mirror"
  mirror="$work/mirror/swift-syntax"
fi
if ! swift package resolve >"$work/resolve.log" 2>&1; then
  cat "$work/resolve.log"
  if [ -n "$vendor" ]; then
    echo "swift-syntax did not resolve from the vendored mirror ($vendor)" >&2
    exit 1
  fi
  echo "SKIPPED: the swift-syntax package check. No vendored swift-syntax" \
    "($root/../shared/vendor, /work/shared/vendor, \$USERDEFAULT_SWIFT_SYNTAX_VENDOR)" \
    "and $swift_syntax_url did not resolve (no network?): see the error above."
  exit 0
fi
swift package show-dependencies

echo "== build, warnings in the package's own targets are errors"
# The whole log is kept; the progress lines are left out of the output.
timed "build with tests (swift-syntax from source)" \
  swift build --build-tests 2>&1 | tee "$work/build.log" | grep -v '^\[[0-9]*/[0-9]*\] '
if grep -E "^$work/UserDefault/(Sources|Tests)/.*: warning:" "$work/build.log"; then
  echo "compiler warnings in the package's own targets" >&2
  exit 1
fi

echo "== example"
XDG_CONFIG_HOME="$work/config" HOME="$work/home" swift run --skip-build UserDefaultExample |
  tee "$work/example.log"
grep -q 'run 1 time' "$work/example.log" || { echo "the example did not count its run" >&2; exit 1; }

echo "== macro tests"
swift test --skip-build --filter DefaultEntryMacrosTests >"$work/test.log" 2>&1 ||
  { cat "$work/test.log"; exit 1; }
# A filter that matches nothing passes too.
grep -E "Test run with [1-9][0-9]* tests? .*passed" "$work/test.log" || {
  cat "$work/test.log"
  echo "no macro test ran" >&2
  exit 1
}

echo "== consumer of product DefaultEntry, from: \"1.0.0\", its dependency in package mode"
make_consumer VersionedMacroConsumer ".package(url: \"$url\", from: \"1.0.0\")" DefaultEntry \
  "$macro_source"
cd "$work/VersionedMacroConsumer"
# The mirror is per package root. The same repository as the clone's: a second one would
# be another commit, whose checkout would rebuild swift-syntax.
[ -z "$vendor" ] ||
  swift package config set-mirror --original "$swift_syntax_url" --mirror "$mirror"
# The clone's build directory: swift-syntax's checkout and products are reused.
scratch=(--scratch-path "$work/UserDefault/.build")
swift package "${scratch[@]}" show-dependencies | tee "$work/consumer-dependencies.log"
# swift-syntax reaches this graph only through the dependency's manifest, and only when
# that manifest saw USERDEFAULT_SWIFT_HOST_LIBS.
grep -q "── swift-syntax<" "$work/consumer-dependencies.log" || {
  echo "the dependency's manifest did not see USERDEFAULT_SWIFT_HOST_LIBS" >&2
  exit 1
}
timed "consumer build" swift build -q "${scratch[@]}"
output=$(swift run -q --skip-build "${scratch[@]}" VersionedMacroConsumer)
echo "$output"
[ "$output" = "macro consumer: runs = 1" ] || { echo "unexpected consumer output" >&2; exit 1; }
echo "swift-syntax package check passed ($SECONDS s)"
