# Sourced by the consumer checks (check-versioned-consumer.sh, check-swift-syntax-package.sh):
# a clone of the committed HEAD tagged 1.0.0, and consumer packages of one product.
# Expects $root (this repository) and $work (a scratch directory).

# Clones HEAD into $work/UserDefault (the URL's last component is the package's identity)
# and tags it 1.0.0; sets $url and $revision.
clone_head() {
  git clone --quiet "$root" "$work/UserDefault"
  # -f: the repository may carry its own 1.0.0 tag; the check is about HEAD.
  git -C "$work/UserDefault" tag -f 1.0.0 >/dev/null
  revision=$(git -C "$work/UserDefault" rev-parse HEAD)
  url="file://$work/UserDefault"
}

make_consumer() { # name, dependency line, product, source
  mkdir -p "$work/$1/Sources/$1"
  cat >"$work/$1/Package.swift" <<MANIFEST
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
  name: "$1",
  dependencies: [$2],
  targets: [.executableTarget(name: "$1", dependencies: [.product(name: "$3", package: "UserDefault")])]
)
MANIFEST
  printf '%s\n' "$4" >"$work/$1/Sources/$1/main.swift"
}

# shellcheck disable=SC2034  # used by the scripts that source this file
macro_source='import DefaultEntry
extension UserDefaults { @DefaultEntry(default: 0) var runs: Int }
let store = PreferencesStore.inMemory()
store.runs += 1
print("macro consumer: runs = \(store.runs)")'
