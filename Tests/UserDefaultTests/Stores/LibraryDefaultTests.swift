import Foundation
import Testing

@testable import UserDefault

/// `PreferencesStore.makeLibraryDefault()` changes the default of a whole process, so it is
/// tried in a child process.
@Suite("The library's default store", .linuxFiles)
struct LibraryDefaultTests {
  @Test("After makeLibraryDefault(), the library's calls on .standard go to the chosen store")
  func standardGoesToTheChosenStore() throws {
    let directory = TemporaryDirectory()
    let result = try ChildProcess.run(
      "UserDefaultTestHelper", ["library-default", "hits"],
      environment: ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path])
    #expect(result.status == 0, "\(result.error)")
    // Before, the two went to two engines of one file, each kept its own count, and the
    // later save won: the file held 1.
    #expect(result.output == "11 11 true\n")
    let file = directory.path + "/UserDefaultTestHelper.plist"
    #expect(try PropertyListFile.values(at: file)["hits"] as? Int == 11)
  }
}
