import Foundation

/// Saving of what the library writes to Foundation's `UserDefaults` on Linux.
///
/// Foundation on Linux saves nothing until `synchronize()` (not even at exit), and then
/// truncates and rewrites the live file unlocked. So the library saves the keys it wrote
/// within ``window`` and at normal exit, with its own atomic writer under a `flock`. A
/// failed save is reported; with neither `XDG_CONFIG_HOME` nor `HOME` set nothing is
/// saved. On Apple platforms Foundation saves by itself and none of this runs.
public enum FoundationSaving {
  /// The longest time between a write and the save that makes it durable.
  public static let window: Duration = .milliseconds(100)

  /// Whether writes are recorded for saving: on unless ``bootstrap(isEnabled:)`` turned
  /// it off.
  package static var isEnabled: Bool { enabled.withLock { $0.isEnabled } }
  private static let enabled = Lock((isEnabled: true, isBootstrapped: false))

  /// Chooses, once for the process, whether the library saves what it writes to
  /// Foundation's suites: call it at launch in a process that must not touch the user's
  /// preference files. The first call decides, as with swift-log's
  /// `LoggingSystem.bootstrap`, so no linked library can change it behind its back.
  ///
  /// - Parameter isEnabled: Whether writes are saved (the default when never called).
  /// - Returns: `true` when this call decided; `false` when an earlier one had.
  ///
  /// `FoundationSaving.bootstrap(isEnabled: false)`
  @discardableResult
  public static func bootstrap(isEnabled: Bool) -> Bool {
    enabled.withLock { state in
      guard !state.isBootstrapped else { return false }
      state = (isEnabled: isEnabled, isBootstrapped: true)
      return true
    }
  }

  /// Saves every Foundation suite the library wrote since its last save, now, and waits.
  /// Cost per suite with unsaved keys: one read of its file, one atomic replacement and two
  /// `fsync`s.
  ///
  /// - Returns: `true` when every save succeeded; `false` (and reported) when one failed.
  ///
  /// `FoundationSaving.saveNow()`
  @discardableResult
  public static func saveNow() -> Bool {
    var succeeded = true
    let suites = SuiteRegistry.backends().lazy.compactMap { $0 as? FoundationSuite }
    for suite in suites where suite.hasUnsavedChanges {
      do throws(DefaultsError) { try suite.flush() } catch { succeeded = false }
    }
    return succeeded
  }
}
