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
    // Two engines of one file each kept their own count, and the later save won.
    #expect(result.output == "11 11\n")
    let file = directory.path + "/UserDefaultTestHelper.plist"
    #expect(try PropertyListFile.values(at: file)["hits"] as? Int == 11)
  }
}
