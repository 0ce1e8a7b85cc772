import Foundation

/// Saves every suite with unsaved writes when the process exits normally, and when the
/// app, watch app or app extension goes to the background: iOS, tvOS, watchOS and visionOS
/// end a suspended process without running `atexit` handlers, so the background is the last
/// moment its writes can be saved. (A macOS app's sudden termination: ``SavingActivity``.)
enum ExitFlush {
  /// Installs the exit hook and the background observer once; later calls cost one check.
  static func install() { _ = installed }

  /// What each kind of Apple process is told when it goes to the background, by value so
  /// no UIKit or WatchKit is needed: an app (`UIApplication.didEnterBackgroundNotification`),
  /// a watchOS app (`WKApplication.didEnterBackgroundNotification`), and an app extension
  /// whose host goes (`NSExtensionHostDidEnterBackground`).
  static let backgroundNotifications: [Notification.Name] = [
    "UIApplicationDidEnterBackgroundNotification", "WKApplicationDidEnterBackgroundNotification",
    "NSExtensionHostDidEnterBackgroundNotification",
  ].map { Notification.Name($0) }

  private static let installed: Void = {
    atexit {
      ExitFlush.saveEverything()
      #if canImport(Darwin)
        // A process that is not an app (a command-line tool) may exit before `cfprefsd`
        // has its last writes unless it synchronizes (CFPreferencesAppSynchronize) first.
        for instance in FoundationInstances.liveInstances() { _ = instance.synchronize() }
      #endif
    }
    for name in backgroundNotifications {
      _ = NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { _ in
        #if os(iOS) || os(tvOS) || os(visionOS) || os(watchOS)
          // The expiring activity asks for time to finish; when it is refused or runs out
          // (`expired`), what is not saved yet stays pending for the next attempt.
          ProcessInfo.processInfo.performExpiringActivity(withReason: "Saving preferences") {
            expired in
            if !expired { ExitFlush.saveEverything() }
          }
        #else
          ExitFlush.saveEverything()
        #endif
      }
    }
  }()

  /// Failures stay pending, reported where they happened.
  static func saveEverything() {
    for backend in SuiteRegistry.backends() where backend.hasUnsavedChanges {
      try? backend.flush()
    }
  }
}
