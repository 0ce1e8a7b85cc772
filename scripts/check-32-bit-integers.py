#!/usr/bin/env python3
"""Finds, in the library targets an app links (Apple Watch's arm64_32 included, where `Int`
is 32 bits), integer code that traps or does not compile there although it works in 64
bits:

- a plain conversion to `Int` or `UInt` of an `Int64`, `UInt64`, `Double` or `Float`
  (`Int(x)`): it traps where the value needs more than 32 bits. Say what happens instead:
  `Int(exactly:)` (and handle `nil`), `Int(clamping:)` or `Int(truncatingIfNeeded:)`, or
  keep the arithmetic in `Int64`;
- an integer literal typed `Int` beyond `Int32`, or `UInt` beyond `UInt32`
  (`case 0...0xFFFF_FFFF` over an `Int`): it does not compile there.

It reads the compiler's typed syntax tree (`swiftc -dump-ast`), not the text, so a
conversion is judged by the types the compiler chose: no guess from names. That tree is of
this platform, 64 bits: a value typed `Int` here (`time_t`, `Int(stat.st_size)` on Linux)
is `Int` on the watch too and is not a conversion; arithmetic that overflows an `Int`
without any conversion (`seconds * 1_000_000_000` on an `Int`) is not seen.

Needs a debug build (`swift build`): it type-checks each target against the modules that
build made. About 15 s.

Usage: scripts/check-32-bit-integers.py [--self-test]
  exit status 1 on any finding. --self-test first checks the checker on a made-up file
  with each kind of finding and each accepted form.
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
# The library targets: what an app (a watch app too) links. Executables, the macro
# (it runs on the build machine) and the `defaults` tool's library run on 64-bit hosts.
TARGETS = ["PropertyListCodec", "UserDefault", "SafeDefaultsKit", "UserDefaultTesting", "DefaultEntry"]

WIDE = r"(?:Int64|UInt64|Double|Float|Float80|CGFloat)"
# The generic conversion (`init<T: BinaryInteger>(_:)`, from Int64 or UInt64) and the
# concrete ones from floating-point types (`Int.init(_: Double)`).
CONVERSION = re.compile(
    r'declref_expr .*location=(\S+) .*decl="Swift\.\(file\)\.\w+ extension\.init\(_:\) '
    r"\[with \(substitution_map generic_signature=<[^>]*> Self -> (U?Int) T -> (" + WIDE + r")\)"
)
FLOAT_CONVERSION = re.compile(
    r'declref_expr .*type="\((U?Int)\.Type\) -> \((' + WIDE + r')\) -> U?Int" location=(\S+) '
    r'.*decl="Swift\.\(file\)\.U?Int\.init\(_:\)"'
)
LITERAL = re.compile(
    r'integer_literal_expr type="(U?Int)" location=(\S+) .*?(negative )?value="([^"]+)"')
LIMITS = {"Int": 2**31 - 1, "UInt": 2**32 - 1}


def findings_in(dump):
    found = []
    for line in dump.splitlines():
        match = CONVERSION.search(line)
        floating = FLOAT_CONVERSION.search(line)
        if match or floating:
            place, target, source = match.groups() if match else (
                floating.group(3), floating.group(1), floating.group(2))
            found.append(f"{place}: {target}({source}) traps where Int is 32 bits; "
                         f"use {target}(exactly:), {target}(clamping:), "
                         f"{target}(truncatingIfNeeded:) or keep it in 64 bits")
            continue
        match = LITERAL.search(line)
        if match:
            kind, place, negative, digits = match.groups()
            minus = "-" if negative else ""
            value = int(digits.replace("_", ""), 0)
            if value > LIMITS[kind] + (1 if minus else 0):
                found.append(f"{place}: the literal {minus}{digits} is no {kind} where Int is "
                             f"32 bits; compute in Int64 or UInt64")
    return sorted(set(found))


def dump(module, files, package, modules):
    """The typed tree of `files` as one module: on standard output for one file, on standard
    error for several (swiftc's choice); a failed type-check ends the check."""
    command = ["swiftc", "-dump-ast", "-swift-version", "6", "-parse-as-library",
               "-module-name", module] + files
    if package:
        command += ["-package-name", package]
    if modules:
        command += ["-I", modules]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, errors="replace")
    if result.returncode != 0:
        sys.exit(f"check-32-bit-integers: swiftc could not type-check {module}:\n"
                 + "\n".join(line for line in result.stderr.splitlines() if "error:" in line))
    return result.stdout + result.stderr


SELF_TEST = """
func conversions(_ wide: Int64, _ unsigned: UInt64, _ real: Double, _ narrow: Int32) -> Int {
  let found = Int(wide) + Int(unsigned) + Int(real) + Int(bitPattern: UInt(unsigned))
  let accepted = Int(exactly: wide) ?? Int(clamping: unsigned) + Int(truncatingIfNeeded: wide)
  return found + accepted + Int(narrow) + Int(exactly: real)! + Int(Int32(truncatingIfNeeded: wide))
}
func literals(_ value: Int, _ count: UInt) -> UInt64 {
  switch value {
  case 0...0xFFFF: return UInt64(count &* 0x9E37_79B9)
  case 0...0xFFFF_FFFF: return UInt64(5_000_000_000 as Int) + 0xFFFF_FFFF_FFFF
  default: return UInt64(count) + UInt64(-2_147_483_648 as Int)
  }
}
"""
# Int(wide), Int(unsigned), Int(real), UInt(unsigned); the literals 0xFFFF_FFFF and
# 5_000_000_000 as Int. Not: the accepted forms, Int(Int32), UInt64 literals, the Int32.min
# literal, a UInt literal within UInt32.
SELF_TEST_FINDINGS = 6


def self_test():
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "SelfTest.swift")
        with open(path, "w") as handle:
            handle.write(SELF_TEST)
        found = findings_in(dump("SelfTest", [path], None, None))
    if len(found) != SELF_TEST_FINDINGS:
        print("\n".join(found))
        sys.exit(f"check-32-bit-integers: the self-test's {SELF_TEST_FINDINGS} findings gave {len(found)}")
    print(f"check-32-bit-integers: the self-test's {len(found)} findings were found")


def build_settings():
    modules = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.strip() + "/Modules"
    if not os.path.isdir(modules):
        sys.exit(f"check-32-bit-integers: no {modules}: run `swift build` first")
    # The package name SwiftPM gave the targets (`package` access needs the same one).
    package = None
    manifest = os.path.join(ROOT, ".build", "debug.yaml")
    if os.path.exists(manifest):
        found = re.search(r'"-package-name","([^"]+)"', open(manifest).read())
        package = found.group(1) if found else None
    return modules, package or os.path.basename(ROOT).lower()


def main():
    if "--self-test" in sys.argv:
        self_test()
    modules, package = build_settings()
    found = []
    for target in TARGETS:
        folder = os.path.join("Sources", target)
        files = sorted(os.path.join(dirpath, name)
                       for dirpath, _, names in os.walk(os.path.join(ROOT, folder))
                       for name in names if name.endswith(".swift"))
        files = [os.path.relpath(path, ROOT) for path in files]
        found += findings_in(dump(target, files, package, modules))
    for finding in found:
        print(finding)
    if found:
        sys.exit(f"check-32-bit-integers: {len(found)} findings in {', '.join(TARGETS)}")
    print(f"check-32-bit-integers: no integer code that traps where Int is 32 bits in {', '.join(TARGETS)}")


main()
