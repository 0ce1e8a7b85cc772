// swift-tools-version: 6.0
import CompilerPluginSupport
import Foundation
import PackageDescription

/// Where the toolchain keeps the swift-syntax libraries its own macros use; the macro
/// plugin builds against them because no package can be fetched
/// (see shared notes: macros-offline). Found without a hard-coded path: an override in
/// `USERDEFAULT_SWIFT_HOST_LIBS`, else the toolchain this manifest runs under (Linux maps
/// its PackageDescription library), else `swift` on `PATH`.
func toolchainHostLibraries() -> String {
  let environment = ProcessInfo.processInfo.environment
  if let override = environment["USERDEFAULT_SWIFT_HOST_LIBS"], !override.isEmpty {
    return override
  }
  if let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) {
    for line in maps.split(separator: "\n") {
      guard let start = line.firstIndex(of: "/"), line.hasSuffix("libPackageDescription.so")
      else { continue }
      var url = URL(fileURLWithPath: String(line[start...]))
      while url.path != "/" && url.lastPathComponent != "swift" {
        url.deleteLastPathComponent()
      }
      let host = url.appendingPathComponent("host").path
      if FileManager.default.fileExists(atPath: host) { return host }
    }
  }
  for directory in (environment["PATH"] ?? "").split(separator: ":") {
    let swift = URL(fileURLWithPath: String(directory)).appendingPathComponent("swift")
    guard FileManager.default.isExecutableFile(atPath: swift.path) else { continue }
    let toolchain = swift.resolvingSymlinksInPath().deletingLastPathComponent()
      .deletingLastPathComponent()
    return toolchain.appendingPathComponent("lib/swift/host").path
  }
  return "/usr/lib/swift/host"
}

/// Set `USERDEFAULT_SWIFT_SYNTAX_PACKAGE=1` when the build already compiles the swift-syntax
/// package (another macro package): two copies of SwiftSyntax cannot meet in one build, so
/// the macro then uses the package instead of the toolchain's copy, with no unsafe flags.
/// Needs network access to fetch it (not tested on the offline build machines).
let usesSwiftSyntaxPackage =
  ProcessInfo.processInfo.environment["USERDEFAULT_SWIFT_SYNTAX_PACKAGE"] == "1"

let hostLibraries = toolchainHostLibraries()
let hostLibrarySettings: [SwiftSetting] =
  usesSwiftSyntaxPackage ? [] : [.unsafeFlags(["-I", hostLibraries])]
let hostLibraryLinking: [LinkerSetting] =
  usesSwiftSyntaxPackage
  ? [] : [.unsafeFlags(["-L", hostLibraries, "-Xlinker", "-rpath", "-Xlinker", hostLibraries])]
let swiftSyntaxProducts: [Target.Dependency] =
  usesSwiftSyntaxPackage
  ? [
    "SwiftSyntax", "SwiftSyntaxMacros", "SwiftSyntaxBuilder", "SwiftDiagnostics", "SwiftParser",
    "SwiftSyntaxMacroExpansion", "SwiftCompilerPluginMessageHandling",
  ].map { .product(name: $0, package: "swift-syntax") }
  : []

let package = Package(
  name: "UserDefault",
  // The floor is the Observation framework's: per-key Observation tracking sits in every
  // read. Everything later (Synchronization's Atomic and Mutex: macOS 15 / iOS 18) is kept
  // out of the libraries or gated with `#available`; scripts/check-availability.sh checks
  // it. Apple platforms are not built by this project's CI (README, "Platforms").
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
  products: [
    .library(name: "UserDefault", targets: ["UserDefault"]),
    .library(name: "DefaultEntry", targets: ["DefaultEntry"]),
    .library(name: "SafeDefaultsKit", targets: ["SafeDefaultsKit"]),
    .library(name: "UserDefaultTesting", targets: ["UserDefaultTesting"]),
    .executable(name: "UserDefaultExample", targets: ["UserDefaultExample"]),
    .executable(name: "defaults", targets: ["defaults"]),
  ],
  dependencies: usesSwiftSyntaxPackage
    ? [.package(url: "https://github.com/swiftlang/swift-syntax.git", "600.0.0"..<"700.0.0")] : [],
  targets: [
    .target(name: "UserDefault"),
    .target(name: "SafeDefaultsKit", dependencies: ["UserDefault"]),
    .target(name: "UserDefaultTesting", dependencies: ["UserDefault"]),
    .macro(
      name: "DefaultEntryMacros",
      dependencies: swiftSyntaxProducts,
      swiftSettings: hostLibrarySettings,
      linkerSettings: hostLibraryLinking
    ),
    .target(name: "DefaultEntry", dependencies: ["UserDefault", "DefaultEntryMacros"]),
    .executableTarget(
      name: "UserDefaultExample", dependencies: ["UserDefault", "SafeDefaultsKit", "DefaultEntry"]),
    .target(name: "DefaultsCommand", dependencies: ["UserDefault"]),
    .executableTarget(name: "defaults", dependencies: ["DefaultsCommand"]),
    .executableTarget(
      name: "UserDefaultTestHelper",
      dependencies: ["UserDefault", "SafeDefaultsKit", "DefaultEntry"]),
    .executableTarget(
      name: "UserDefaultBenchmarks", dependencies: ["UserDefault", "SafeDefaultsKit"]),
    .testTarget(
      name: "UserDefaultTests",
      dependencies: [
        "UserDefault", "SafeDefaultsKit", "DefaultEntry", "DefaultsCommand", "UserDefaultTesting",
        "UserDefaultTestHelper",
        "defaults",
      ]
    ),
    .testTarget(
      name: "DefaultEntryMacrosTests",
      dependencies: ["DefaultEntryMacros"] + swiftSyntaxProducts,
      swiftSettings: hostLibrarySettings,
      linkerSettings: hostLibraryLinking
    ),
  ],
  swiftLanguageModes: [.v6]
)
