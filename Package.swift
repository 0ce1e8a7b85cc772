// swift-tools-version: 6.2
// 6.2: the library uses SendableMetatype (6.2) and Swift Testing's TestScoping (6.1).
import CompilerPluginSupport
import Foundation
import PackageDescription

let environment = ProcessInfo.processInfo.environment

/// The toolchain's own swift-syntax (`lib/swift/host`) if the macro can build against it:
/// no fetch needed (shared notes: macros-offline), but only Linux toolchains ship its
/// modules. `nil`: use the swift-syntax package. `USERDEFAULT_SWIFT_SYNTAX_PACKAGE=1` forces
/// the package, for a build that already compiles it (two SwiftSyntax copies cannot meet).
func toolchainHostLibraries() -> String? {
  #if os(Linux)
    guard environment["USERDEFAULT_SWIFT_SYNTAX_PACKAGE"] != "1" else { return nil }
    /// `lib/swift` of the toolchain running this manifest: it maps its PackageDescription.
    func runningToolchain() -> URL? {
      let maps = (try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)) ?? ""
      guard
        let line = maps.split(separator: "\n").first(where: {
          $0.hasSuffix("/libPackageDescription.so")
        }),
        let start = line.firstIndex(of: "/")
      else { return nil }
      var url = URL(fileURLWithPath: String(line[start...]))
      while url.path != "/" && url.lastPathComponent != "swift" { url.deleteLastPathComponent() }
      return url
    }
    /// `lib/swift` of the first `swift` on PATH.
    func pathToolchain() -> URL? {
      let swift = (environment["PATH"] ?? "").split(separator: ":").lazy
        .map { URL(fileURLWithPath: String($0)).appendingPathComponent("swift") }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }
      return swift?.resolvingSymlinksInPath().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("lib/swift")
    }
    // The override, checked like the rest; else this toolchain's copy or none (another
    // toolchain's plugin messages may differ).
    let override = environment["USERDEFAULT_SWIFT_HOST_LIBS"].flatMap { $0.isEmpty ? nil : $0 }
    guard
      let host = override
        ?? (runningToolchain() ?? pathToolchain())?.appendingPathComponent("host").path,
      ["SwiftSyntax", "SwiftCompilerPluginMessageHandling"].allSatisfy({
        FileManager.default.fileExists(atPath: "\(host)/\($0).swiftmodule")
      })
    else { return nil }
    return host
  #else
    return nil  // Xcode's toolchain ships no swift-syntax modules to build against.
  #endif
}

let hostLibraries = toolchainHostLibraries()
// The toolchain's libraries need unsafe flags (accepted from a dependency by version because
// this manifest is tools-version 6.2); the package needs none, but a fetch and a build.
let hostLibrarySettings: [SwiftSetting] = hostLibraries.map { [.unsafeFlags(["-I", $0])] } ?? []
let hostLibraryLinking: [LinkerSetting] =
  hostLibraries.map { [.unsafeFlags(["-L", $0, "-Xlinker", "-rpath", "-Xlinker", $0])] } ?? []
let swiftSyntaxProducts: [Target.Dependency] =
  hostLibraries != nil
  ? []
  : [
    "SwiftSyntax", "SwiftSyntaxMacros", "SwiftSyntaxBuilder", "SwiftDiagnostics", "SwiftParser",
    "SwiftSyntaxMacroExpansion", "_SwiftCompilerPluginMessageHandling",
  ].map { .product(name: $0, package: "swift-syntax") }

let swiftSyntaxPackage: Package.Dependency = .package(
  url: "https://github.com/swiftlang/swift-syntax.git", "603.0.2"..<"700.0.0")

/// swift-configuration's `Configuration` product, only when the trait is on.
let configurationProduct: Target.Dependency = .product(
  name: "Configuration", package: "swift-configuration",
  condition: .when(traits: ["Configuration"]))
/// swift-configuration's floor, spelled as its own manifest spells it, so that the
/// provider's declarations read `@available(Configuration 1.0, *)` as the protocol's do.
let configurationAvailability: SwiftSetting = .enableExperimentalFeature(
  "AvailabilityMacro=Configuration 1.0:macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0")

let package = Package(
  name: "UserDefault",
  // The floor is the Observation framework's: per-key Observation tracking sits in every
  // read. Everything later (Synchronization's Atomic and Mutex: macOS 15 / iOS 18) is kept
  // out of the libraries or gated with `#available`; scripts/check-availability.sh checks
  // it here, and .github/workflows/apple-platforms.yml builds the Apple platforms.
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
  products: [
    .library(name: "UserDefault", targets: ["UserDefault"]),
    .library(name: "DefaultEntry", targets: ["DefaultEntry"]),
    .library(name: "SafeDefaultsKit", targets: ["SafeDefaultsKit"]),
    .library(name: "UserDefaultTesting", targets: ["UserDefaultTesting"]),
    .executable(name: "UserDefaultExample", targets: ["UserDefaultExample"]),
    .executable(name: "defaults", targets: ["defaults"]),
    .library(name: "UserDefaultConfiguration", targets: ["UserDefaultConfiguration"]),
  ],
  // Off by default: a package that does not enable it fetches and builds nothing more, as
  // SwiftPM leaves out a dependency that only trait-guarded target dependencies name.
  traits: [
    .trait(
      name: "Configuration",
      description: "UserDefaultsProvider: stored preferences as a swift-configuration provider.")
  ],
  dependencies: [.package(url: "https://github.com/apple/swift-configuration", from: "1.0.0")]
    + (hostLibraries != nil ? [] : [swiftSyntaxPackage]),
  targets: [
    // The property-list codec (readers, writers, equality, `StoredObject`) and the
    // primitives it needs: a target of its own, so the compiler keeps it from naming
    // anything above it. The core reaches it with `package` access.
    .target(name: "PropertyListCodec"),
    // The privacy manifest: the required-reason APIs the library calls (UserDefaults, file
    // timestamps); Xcode merges it into the app's privacy report. Copied as it is.
    .target(
      name: "UserDefault", dependencies: ["PropertyListCodec"],
      resources: [.copy("PrivacyInfo.xcprivacy")]),
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
    .target(name: "DefaultsCommand", dependencies: ["UserDefault", "PropertyListCodec"]),
    .executableTarget(name: "defaults", dependencies: ["DefaultsCommand"]),
    // Empty without the trait; with it, follows swift-configuration's own floor (macOS 15,
    // iOS 18, ...) under the same availability macro, while the rest keeps the package's.
    .target(
      name: "UserDefaultConfiguration",
      dependencies: ["UserDefault", configurationProduct],
      swiftSettings: [configurationAvailability]
    ),
    .executableTarget(
      name: "UserDefaultTestHelper",
      dependencies: ["UserDefault", "SafeDefaultsKit", "DefaultEntry"]),
    .executableTarget(
      name: "UserDefaultBenchmarks",
      dependencies: ["UserDefault", "PropertyListCodec", "SafeDefaultsKit", "DefaultEntry"]),
    // Points the test process's HOME and XDG_CONFIG_HOME at a directory of its own before
    // any test runs, so `swift test` leaves nothing in the user's home whatever the order.
    .target(name: "TestProcessHome", path: "Tests/TestProcessHome"),
    .testTarget(
      name: "UserDefaultTests",
      dependencies: [
        "UserDefault", "PropertyListCodec", "SafeDefaultsKit", "DefaultEntry", "DefaultsCommand",
        "UserDefaultTesting",
        "UserDefaultTestHelper",
        "defaults",
        "TestProcessHome",
        "UserDefaultConfiguration", configurationProduct,
      ],
      swiftSettings: [configurationAvailability]
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
