#!/usr/bin/env bash
# Builds the DocC archive of each library module (UserDefault, DefaultEntry,
# SafeDefaultsKit) with the toolchain's docc, and fails when:
#   - docc warns or errs;
#   - a module's archive is missing;
#   - a public symbol, including members the modules add to Foundation's and the standard
#     library's types (extension symbols), has no page in its module's archive;
#   - a public symbol has no documentation comment (scripts/undocumented-symbols.py).
# Output: .build/docs/<Module>.doccarchive
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/docs
modules=(UserDefault DefaultEntry SafeDefaultsKit UserDefaultTesting)
triple=$(swift -print-target-info | sed -n 's/.*"triple": "\([^"]*\)".*/\1/p' | head -1)
for module in "${modules[@]}"; do
  swift build --target "$module" >/dev/null
done
for module in "${modules[@]}"; do
  symbols="$out/symbols/$module"
  archive="$out/$module.doccarchive"
  rm -rf "$symbols" "$archive"
  mkdir -p "$symbols"
  # symbolgraph-extract leaves out Foundation, which the modules re-export (the compiler's
  # own -emit-symbol-graph would document all of Foundation as part of each module).
  # Extension block symbols give what a module adds to Foundation and Swift types a page.
  swift symbolgraph-extract -module-name "$module" -I .build/debug/Modules -target "$triple" \
    -output-dir "$symbols" -minimum-access-level public -skip-synthesized-members \
    -skip-inherited-docs -emit-extension-block-symbols
  docc convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$symbols" \
    --fallback-display-name "$module" --fallback-bundle-identifier "org.userdefault.$module" \
    --output-path "$archive" --warnings-as-errors 2>&1 | tee "$out/$module.docc.log"
  if grep -E "^(warning|error):" "$out/$module.docc.log"; then
    echo "docc reported problems for $module" >&2
    exit 1
  fi
  [ -d "$archive/data/documentation" ] || { echo "no archive for $module" >&2; exit 1; }
  python3 scripts/undocumented-symbols.py "$symbols" "$archive"
  echo "documentation built: $archive"
done
