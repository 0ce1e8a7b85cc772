import Foundation

/// Saves every suite with unsaved writes when the process exits normally, and when the
/// app goes to the background: iOS, tvOS and visionOS end a suspended app without running
/// `atexit` handlers, so the background is the last moment an app's writes can be saved.
enum ExitFlush {
  /// Installs the exit hook and the background observer once; later calls cost one check.
  static func install() { _ = installed }

  /// `UIApplication.didEnterBackgroundNotification`, by value, so no UIKit is needed.
  static let didEnterBackground = Notification.Name("UIApplicationDidEnterBackgroundNotification")

  private static let installed: Void = {
    atexit {
      ExitFlush.saveEverything()
      #if canImport(Darwin)
        // A process that is not an app (a command-line tool) may exit before `cfprefsd`
        // has its last writes unless it synchronizes (CFPreferencesAppSynchronize) first.
        for instance in FoundationInstances.liveInstances() { _ = instance.synchronize() }
      #endif
    }
    _ = NotificationCenter.default.addObserver(
      forName: didEnterBackground, object: nil, queue: nil
    ) { _ in
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
  }()

  /// Failures stay pending, reported where they happened.
  static func saveEverything() {
    for backend in SuiteRegistry.backends() where backend.hasUnsavedChanges {
      try? backend.flush()
    }
  }
}
