import Foundation
import TestProcessHome
import Testing

@testable import UserDefault

/// `swift test` run by a user with a real HOME must leave nothing there, whatever order
/// the tests run in: the test process's preference places are a directory of its own.
@Suite struct TestProcessHomeTests {
  @Test(.linuxFiles) func preferencesOfTheTestProcessGoToADirectoryOfItsOwn() throws {
    let home = try #require(userdefault_test_process_home().map { String(cString: $0) })
    let environment = ProcessInfo.processInfo.environment
    #expect(home.contains("/UserDefaultTests-home-"))
    #expect(environment["HOME"] == home)
    #expect(environment["XDG_CONFIG_HOME"] == home + "/.config")
    #expect(FileManager.default.fileExists(atPath: home))
    // Where a store or the library's saving of a Foundation suite would write.
    let directory = try #require(PreferencesFile.defaultDirectory())
    #expect(directory.hasPrefix(home + "/"))
  }
}
