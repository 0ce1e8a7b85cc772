import Foundation
import Testing

@testable import UserDefault

/// Apple's mobile platforms end a suspended process without `atexit`: the library saves
/// when an app, a watch app or an extension's host goes to the background. The
/// notifications are observed by name, so they can be posted here.
@Suite struct ExitFlushTests {
  @Test(arguments: ExitFlush.backgroundNotifications)
  func enteringTheBackgroundSavesPendingWrites(notification: Notification.Name) throws {
    let directory = TemporaryDirectory()
    Diagnostics.installRecorder()
    // A window far longer than the test: only the background flush can save the write.
    let store = try PreferencesStore(
      suiteName: "app", directory: directory.path, flushWindow: .seconds(3_600))
    let path = directory.path + "/app.plist"
    store.set(5, forKey: "count")
    #expect(!FileManager.default.fileExists(atPath: path))
    NotificationCenter.default.post(name: notification, object: nil)
    let data = try #require(FileManager.default.contents(atPath: path))
    let plist =
      try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
    #expect(plist?["count"] as? Int == 5)
  }
}
