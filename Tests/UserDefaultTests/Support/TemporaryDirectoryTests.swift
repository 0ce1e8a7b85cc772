import Foundation
import Testing

@testable import UserDefault

/// `swift test` leaves nothing in the temporary directory: a store whose save failed on
/// purpose keeps its writes pending, and its retry or the exit flush would otherwise make
/// the test's directory again after the test removed it.
@Suite("Test directories", .linuxFiles)
struct TemporaryDirectoryTests {
  @Test("A store's failed save is not made again into a removed test directory")
  func aRemovedDirectoryStaysRemoved() throws {
    let store: PreferencesStore
    let path: String
    do {
      let directory = TemporaryDirectory()
      path = directory.path
      let frozen = directory.path + "/frozen.plist"
      try PropertyListSerialization.data(fromPropertyList: ["a": 1], format: .xml, options: 0)
        .write(to: URL(fileURLWithPath: frozen))
      chmod(frozen, 0o444)
      store = try PreferencesStore(suiteName: "frozen", directory: directory.path)
      store[UserDefaults.Key<Int>("b", default: 0)] = 2
      #expect(throws: DefaultsError.self) { try store.flush() }
      withExtendedLifetime(directory) {}
    }
    // What the retry and the exit flush do: without the directory's cleanup, this save
    // succeeds and makes the directory again.
    try? store.flush()
    #expect(!FileManager.default.fileExists(atPath: path))
  }
}
