import Foundation
import Testing

/// The package's executables are found beside the tests' bundle on a Mac under both
/// runners: xctest, which makes the bundle one of `Bundle.allBundles`, and
/// swiftpm-testing-helper (Swift Testing), which does not. Linux runs the test binary
/// itself, from the build directory.
@Suite struct HelperDiscoveryTests {
  @Test func theHelpersAreBesideTheTests() throws {
    let directory = ChildProcess.buildDirectory
    #expect(
      FileManager.default.isExecutableFile(
        atPath: directory.appendingPathComponent("UserDefaultTestHelper").path),
      "\(directory.path)")
    #if canImport(Darwin)
      // Found from the image holding this code, whichever runner loaded it.
      let bundle = try #require(ChildProcess.testBundleDirectory())
      if ProcessInfo.processInfo.environment["USERDEFAULT_TEST_HELPERS"] == nil {
        #expect(bundle.standardizedFileURL.path == directory.standardizedFileURL.path)
      }
    #endif
  }
}
