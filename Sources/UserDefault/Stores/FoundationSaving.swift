import Foundation
import PropertyListCodec

/// Saving of what the library writes to Foundation's `UserDefaults` on Linux.
///
/// Foundation on Linux saves nothing until `synchronize()` is called (not even at exit),
/// and its save truncates and rewrites the live file with no lock between processes. After
/// a write through the library, the library saves the keys it wrote within ``window``
/// (writes in the window share one save) and at normal exit, with its own atomic writer
/// under an advisory `flock` on `<suite>.plist.lock`; see the README's "default path".
/// A failed save (read-only or missing directory, a damaged file that cannot be moved
/// aside, a suite name that would leave the preferences directory) is reported; with
/// neither `XDG_CONFIG_HOME` nor `HOME` set nothing is saved (Foundation would write to
/// `/.config`) and that is reported too. On Apple platforms Foundation saves by itself and
/// none of this runs.
public enum FoundationSaving {
  /// The longest time between a write and the save that makes it durable.
  public static let window: Duration = .milliseconds(100)

  /// Whether writes are recorded for saving: on unless ``bootstrap(isEnabled:)`` turned
  /// it off.
  package static var isEnabled: Bool { enabled.withLock { $0.isEnabled } }
  private static let enabled = Lock((isEnabled: true, isBootstrapped: false))

  /// Chooses, once for the process, whether the library saves what it writes to
  /// Foundation's suites. Call it before the first write, at launch, in a process that
  /// must not touch the user's preference files (Foundation itself writes nothing without
  /// `synchronize()`); writes made while off are never saved by the library. The first
  /// call decides: later calls change nothing, as with swift-log's
  /// `LoggingSystem.bootstrap`, so that no library the program links can turn saving
  /// back on or off behind its back.
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
    for suite in SuiteRegistry.foundationSuites() where suite.hasUnsavedChanges {
      do throws(DefaultsError) { try suite.flush() } catch { succeeded = false }
    }
    return succeeded
  }
}
