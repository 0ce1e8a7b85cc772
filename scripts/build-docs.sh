#!/usr/bin/env bash
# Builds the DocC catalog of module UserDefault with the toolchain's docc and fails on any
# warning or on a public symbol of the module with no documentation comment.
# Output: .build/docs/UserDefault.doccarchive
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/docs
rm -rf "$out/symbols" "$out/UserDefault.doccarchive"
mkdir -p "$out/symbols"
swift build --target UserDefault >/dev/null
triple=$(swift -print-target-info | sed -n 's/.*"triple": "\([^"]*\)".*/\1/p' | head -1)
# symbolgraph-extract leaves out Foundation, which UserDefault re-exports (the compiler's
# own -emit-symbol-graph would document all of Foundation as part of this module).
swift symbolgraph-extract -module-name UserDefault -I .build/debug/Modules -target "$triple" \
  -output-dir "$out/symbols" -minimum-access-level public -skip-synthesized-members \
  -skip-inherited-docs
docc convert Sources/UserDefault/UserDefault.docc --additional-symbol-graph-dir "$out/symbols" \
  --fallback-display-name UserDefault --fallback-bundle-identifier org.userdefault.UserDefault \
  --output-path "$out/UserDefault.doccarchive" --warnings-as-errors 2>&1 | tee "$out/docc.log"
if grep -E "^(warning|error):" "$out/docc.log"; then
  echo "docc reported problems" >&2
  exit 1
fi
python3 scripts/undocumented-symbols.py "$out/symbols"
echo "documentation built: $out/UserDefault.doccarchive"
