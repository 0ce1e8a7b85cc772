#!/usr/bin/env bash
# Checks what the compiler prints for each mistake made with @DefaultEntry, and for a value
# type the library cannot store, through real compiler runs with the built macro plugin
# (the expansion tests call the macro directly and cannot see what the compiler adds:
# cascades, lost locations, overload failures; the storable-type check is overload
# resolution, which only the compiler can show).
#
# Each file in scripts/macro-diagnostics/ is type-checked on its own. Its `// expect:`
# lines list every diagnostic the compiler must print for it, and no other may appear:
#   // expect: LINE:COLUMN: SEVERITY: MESSAGE
# (the compiler's " (from macro '…')" suffix dropped; a fix-it shows as a note carrying
# its message; an error inside a macro's expansion shows as "<macro expansion>: …", its
# place in the generated buffer dropped). A file with no `// expect:` line must type-check
# with no diagnostic at all. `// swift-version: 5` type-checks a file in that language
# mode (else 6).
#
# Usage: scripts/check-macro-diagnostics.sh [case.swift…]   (default: every case)
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== building the DefaultEntry module and its macro plugin"
swift build --target DefaultEntry >/dev/null
bin=$(swift build --show-bin-path)
plugin="$bin/DefaultEntryMacros-tool"
modules="$bin/Modules"
[ -d "$modules" ] || modules="$bin"  # older SwiftPM layouts keep modules in the bin path
[ -x "$plugin" ] || { echo "no macro plugin at $plugin" >&2; exit 1; }

cases_dir=scripts/macro-diagnostics
if [ "$#" -gt 0 ]; then cases=("$@"); else cases=("$cases_dir"/*.swift); fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

failures=0
for path in "${cases[@]}"; do
  name=$(basename "$path")
  version=6
  if grep -q '^// swift-version: 5$' "$path"; then version=5; fi

  sed -n 's|^// expect: ||p' "$path" | sort >"$scratch/expected"

  status=0
  (cd "$(dirname "$path")" && swiftc -typecheck -swift-version "$version" \
    -diagnostic-style llvm -module-cache-path "$bin/ModuleCache" \
    -load-plugin-executable "$plugin#DefaultEntryMacros" -I "$modules" \
    "$name") >"$scratch/output" 2>&1 || status=$?

  # Every diagnostic line, wherever it points (also "<unknown>:0: error: …"). One in the
  # package's own sources (a note at a declaration) is named by its path in the package,
  # without line and column, which change with every edit of that file.
  grep -E "^[^ ]*: (error|warning|note|remark): " "$scratch/output" \
    | sed -E "s|^$name:||; s/ \(from macro '[^']*'\)\$//; s|^$PWD/(Sources/[^:]*):[0-9]+:[0-9]+:|\1:|" \
    | sed -E "s|^[^ ]*/@__swiftmacro_[^:]*:[0-9]+:[0-9]+:|<macro expansion>:|" \
    | sort >"$scratch/actual" || true

  expects_error=0
  if grep -q ': error: ' "$scratch/expected"; then expects_error=1; fi
  if ! diff -u "$scratch/expected" "$scratch/actual" >"$scratch/diff"; then
    echo "FAIL $name: diagnostics differ (- expected, + printed):"
    sed -n '3,$p' "$scratch/diff"
    failures=$((failures + 1))
  elif [ "$expects_error" = 1 ] && [ "$status" = 0 ]; then
    echo "FAIL $name: expected errors, but the compiler succeeded"
    failures=$((failures + 1))
  elif [ "$expects_error" = 0 ] && [ "$status" != 0 ]; then
    echo "FAIL $name: the compiler failed (status $status) with no error expected:"
    cat "$scratch/output"
    failures=$((failures + 1))
  else
    echo "ok   $name ($(grep -c ': error: ' "$scratch/actual" || true) error(s))"
  fi
done

if [ "$failures" -gt 0 ]; then
  echo "$failures of ${#cases[@]} macro diagnostic case(s) failed" >&2
  exit 1
fi
echo "all ${#cases[@]} macro diagnostic cases print what they expect"
