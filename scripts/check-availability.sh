#!/usr/bin/env bash
# Apple platforms cannot be built on the project's Linux machines, so this script stands
# in for the compiler's availability check there: it greps the package's sources for
# symbols that need a newer OS than the manifest's floor (macOS 14, iOS 17, tvOS 17,
# watchOS 10, visionOS 1: the Observation framework's) and fails if one is used outside an
# availability gate. It is a list of known traps, not a proof: a symbol missing from the
# list below passes unseen. Availability of each entry as read from the toolchain's
# .swiftinterface files (lib/swift/linux/*.swiftmodule).
#
# A use is accepted when the file gates it:
#   - it sits in the block of an `if #available(…)`, after a `guard #available(…)` in the
#     same block, or in a declaration marked `@available(…)` (braces are counted, so
#     keep the gate and its block in the usual layout), or
#   - the use sits in Linux-only code: a branch of `#if !canImport(Darwin)`,
#     `canImport(Glibc)`, `canImport(Musl)` or `os(Linux)`, or the `#else` of
#     `#if canImport(Darwin)`, or
#   - the line carries `// availability: checked` with a reason (for a use the grep
#     cannot see is safe, e.g. a back-deployed API).
# Comment lines (`//`, `///`) are ignored.
#
# Usage: scripts/check-availability.sh [directory…]   (default: Sources Tests)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$#" -gt 0 ]; then roots=("$@"); else roots=(Sources Tests); fi

# pattern (Python regex) | what it is and when Apple platforms got it. Not listed because
# they are below the floor: Duration and its .seconds/.milliseconds/.components, Clock,
# Task.sleep(for:) (macOS 13 / iOS 16); Regex literals, URL.documentsDirectory and the
# other URL directory properties (macOS 13 / iOS 16); .formatted() (macOS 12 / iOS 15);
# AsyncStream, makeStream, TaskLocal (macOS 10.15 / iOS 13); Observable,
# ObservationRegistrar, withObservationTracking (macOS 14 / iOS 17: the floor itself).
symbols=(
  '^\s*import\s+Synchronization\b|Synchronization module: Atomic and Mutex, macOS 15 / iOS 18 / tvOS 18 / watchOS 11 / visionOS 2'
  '\bAtomic<|Synchronization.Atomic: macOS 15 / iOS 18 / tvOS 18 / watchOS 11 / visionOS 2'
  '\bAtomicLazyReference\b|Synchronization.AtomicLazyReference: macOS 15 / iOS 18'
  '\bMutex<|Synchronization.Mutex: macOS 15 / iOS 18 / tvOS 18 / watchOS 11 / visionOS 2'
  '\bObservations\s*[({<]|Observation.Observations (async sequence): macOS 26 / iOS 26'
  '\bInlineArray\b|InlineArray: macOS 26 / iOS 26'
  '\b(Mutable)?(Raw)?Span\b|Span / RawSpan: macOS 26 / iOS 26 (back-deployed only with the toolchain library)'
  '\bUTF8Span\b|UTF8Span: macOS 26 / iOS 26'
  '\bTask\.immediate\b|Task.immediate: macOS 26 / iOS 26'
  'Task\([^)]*name:|Task(name:): macOS 26 / iOS 26'
  'String\(validating:|String(validating:): macOS 15 / iOS 18'
  '\.attoseconds\b|Duration.attoseconds: macOS 15 / iOS 18'
  'withTaskExecutorPreference|TaskExecutor|task executor preference: macOS 15 / iOS 18'
  '@isolated\(any\)|@isolated(any) function types need the Swift 6 runtime: macOS 15 / iOS 18'
  '\bU?Int128\b|Int128 and UInt128: macOS 15 / iOS 18 / tvOS 18 / watchOS 11 / visionOS 2'
)

list=$(mktemp)
trap 'rm -f "$list"' EXIT
printf '%s\n' "${symbols[@]}" >"$list"

if ! python3 - "$list" "${roots[@]}" <<'PYTHON'
import os, re, sys

roots = sys.argv[2:]
symbols = []
for line in open(sys.argv[1]).read().splitlines():
    pattern, reason = line.rsplit("|", 1)
    symbols.append((re.compile(pattern), reason))

linux_condition = re.compile(r"!canImport\(Darwin\)|canImport\((Glibc|Musl)\)|os\(Linux\)")
gate = re.compile(r"(if|guard)\s+#available\(|@available\(")
failures = 0
paths = sorted(
    os.path.join(d, f) for root in roots for d, _, fs in os.walk(root) for f in fs
    if f.endswith(".swift"))
for path in paths:
    lines = open(path, encoding="utf-8").read().split("\n")
    stack = []  # per #if: [is this branch Linux-only, was the #if canImport(Darwin)]
    gates = []  # [kind, depth before the gate line, whether its block has opened]
    depth = 0
    for number, text in enumerate(lines, 1):
        directive = text.strip()
        if directive.startswith("#if "):
            condition = directive[4:]
            stack.append([bool(linux_condition.search(condition)),
                          condition.strip() == "canImport(Darwin)"])
            continue
        if directive.startswith("#elseif ") and stack:
            stack[-1][0] = bool(linux_condition.search(directive[8:]))
            continue
        if directive == "#else" and stack:
            stack[-1][0] = stack[-1][1]
            continue
        if directive == "#endif" and stack:
            stack.pop()
            continue
        if directive.startswith("//"):
            continue
        code = re.sub(r"//.*$", "", re.sub(r'"(\\.|[^"\\])*"', '""', text))
        if gate.search(code):
            gates.append(["guard" if "guard" in code else "block", depth, False])
        gated = bool(gates)
        depth += code.count("{") - code.count("}")
        for g in gates:
            if depth > g[1]:
                g[2] = True
        # A block gate ends when its block closes; an @available on a declaration with
        # no body (a stored property) covers that one declaration line.
        gates = [g for g in gates
                 if (g[0] == "guard" and depth >= g[1])
                 or (g[0] == "block" and (depth > g[1] or (not g[2] and (
                     directive.startswith("@") or gate.search(code)))))]
        if "// availability: checked" in text or any(b[0] for b in stack) or gated:
            continue
        for pattern, reason in symbols:
            if pattern.search(code):
                print(f"{path}:{number}: {directive}\n    needs: {reason}")
                failures += 1
sys.exit(1 if failures else 0)
PYTHON
then
  echo "uses of symbols newer than the platform floor, not gated" >&2
  echo "(gate with @available / if #available, or Linux-only #if; see the header)" >&2
  exit 1
fi
echo "availability: no ungated symbol newer than macOS 14 / iOS 17 / tvOS 17 / watchOS 10 / visionOS 1"
