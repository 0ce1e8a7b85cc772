import Foundation
import PropertyListCodec

/// Saving of what the library writes to Foundation's `UserDefaults` on Linux.
///
/// Foundation on Linux saves nothing until `synchronize()`, then truncates the live file
/// unlocked. So the library saves the keys it wrote within ``window`` and at exit,
/// atomically under a `flock`. Apple platforms' Foundation saves by itself.
public enum FoundationSaving {
  /// The longest time between a write and the save that makes it durable, unless a save
  /// failed (it is tried again a second apart at least, while keys wait) or waits for the
  /// file's lock.
  public static let window: Duration = .milliseconds(100)

  package static var isEnabled: Bool { enabled.withLock { $0.isEnabled } }
  private static let enabled = Lock((isEnabled: true, isBootstrapped: false))

  /// Chooses once whether the library saves what it writes to Foundation's suites; for a
  /// process that must not touch preference files. The first call decides.
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

  /// Saves every Foundation suite with unsaved keys now, and waits. Cost per suite: a
  /// read of its file and one atomic replacement.
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
