// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "UserDefault",
  products: [
    .library(name: "UserDefault", targets: ["UserDefault"]),
    .library(name: "SafeDefaultsKit", targets: ["SafeDefaultsKit"]),
    .executable(name: "UserDefaultExample", targets: ["UserDefaultExample"]),
  ],
  targets: [
    .target(name: "UserDefault"),
    .target(name: "SafeDefaultsKit", dependencies: ["UserDefault"]),
    .executableTarget(name: "UserDefaultExample", dependencies: ["UserDefault", "SafeDefaultsKit"]),
    .executableTarget(name: "UserDefaultTestHelper", dependencies: ["UserDefault"]),
    .executableTarget(name: "UserDefaultBenchmarks", dependencies: ["UserDefault"]),
    .testTarget(
      name: "UserDefaultTests",
      dependencies: ["UserDefault", "SafeDefaultsKit", "UserDefaultTestHelper"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
