#!/usr/bin/env bash
# Full-size multi-process check of the store (the test suite runs it with 250 keys each):
# four processes write 1,000 distinct keys each to one suite at the same time, flushing
# every 10 writes; afterwards all 4,000 keys must be in the file with their values.
# Usage: scripts/four-writers.sh [keys-per-writer]
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000}
swift build --product UserDefaultTestHelper >/dev/null
helper=$(swift build --show-bin-path)/UserDefaultTestHelper
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export XDG_CONFIG_HOME="$scratch" HOME="$scratch"
start=$(date +%s.%N)
for writer in 0 1 2 3; do
  "$helper" store-write shared "w$writer" "$count" &
done
wait
end=$(date +%s.%N)
status=0
for writer in 0 1 2 3; do
  "$helper" store-verify shared "w$writer" "$count" || status=1
done
echo "4 writers x $count keys in $(awk "BEGIN { printf \"%.1f\", $end - $start }") s; all present: $([ $status = 0 ] && echo yes || echo NO)"
exit $status
