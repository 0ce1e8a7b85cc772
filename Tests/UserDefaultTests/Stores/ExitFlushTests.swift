import Foundation
import Testing

@testable import UserDefault

/// iOS, tvOS and visionOS end a suspended app without `atexit`: the library saves when the
/// app goes to the background. The notification is posted by name, so it can be posted here.
@Suite struct ExitFlushTests {
  @Test func enteringTheBackgroundSavesPendingWrites() throws {
    let directory = TemporaryDirectory()
    Diagnostics.installRecorder()
    // A window far longer than the test: only the background flush can save the write.
    let store = try PreferencesStore(
      suiteName: "app", directory: directory.path, flushWindow: .seconds(3_600))
    let path = directory.path + "/app.plist"
    store.set(5, forKey: "count")
    #expect(!FileManager.default.fileExists(atPath: path))
    NotificationCenter.default.post(name: ExitFlush.didEnterBackground, object: nil)
    let data = try #require(FileManager.default.contents(atPath: path))
    let plist =
      try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
    #expect(plist?["count"] as? Int == 5)
  }
}
