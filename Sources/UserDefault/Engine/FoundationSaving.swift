import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Makes what the library writes to a Foundation `UserDefaults` reach the disk on Linux.
///
/// Foundation on Linux saves nothing until `synchronize()` is called (not even at exit),
/// and its save re-reads, merges and rewrites the file with no lock between processes.
/// After a write through the library, a save is scheduled within ``window`` (writes in
/// the window share one save) and one is made at normal exit. Each save holds an
/// advisory `flock` on `<suite>.plist.lock` beside every file it writes, so processes
/// using the library do not interleave their read-merge-write cycles. A failed save
/// (read-only or missing directory) is reported as ``DefaultsDiagnostic/Kind/failedSave``;
/// with neither `XDG_CONFIG_HOME` nor `HOME` set nothing is saved (Foundation would write
/// to `/.config`) and that is reported too. On Apple platforms Foundation saves by
/// itself and none of this runs.
public enum FoundationSaving {
  /// The longest time between a write and the save that makes it durable.
  public static let window: Duration = .milliseconds(100)

  private struct Pending: @unchecked Sendable {
    // UserDefaults is documented thread-safe (Foundation on Linux locks inside); the box
    // only carries the instance to the saving queue, under `state`'s lock.
    let defaults: UserDefaults
    let suite: String?
  }

  /// Whether writes schedule saves. Turn off in a test process that must not touch the
  /// user's preference files (Foundation itself writes nothing without `synchronize()`).
  public static var isEnabled: Bool {
    get { state.withLock { $0.isEnabled } }
    set { state.withLock { $0.isEnabled = newValue } }
  }

  private struct State {
    var isEnabled = true
    var pending: [String: Pending] = [:]
    var isScheduled = false
    var exitHookInstalled = false
  }

  private static let state = Lock(State())
  private static let queue = DispatchQueue(label: "UserDefault.FoundationSaving")

  static func scheduleSave(of defaults: UserDefaults, suite: SuiteContext) {
    #if !canImport(Darwin)
      let schedule = state.withLock { state in
        guard state.isEnabled else { return false }
        state.pending[suite.name ?? ""] = Pending(defaults: defaults, suite: suite.name)
        if !state.exitHookInstalled {
          state.exitHookInstalled = true
          atexit { _ = FoundationSaving.saveNow() }
        }
        defer { state.isScheduled = true }
        return !state.isScheduled
      }
      if schedule {
        queue.asyncAfter(deadline: .now() + .milliseconds(100)) { _ = saveNow() }
      }
    #endif
  }

  /// Saves every suite the library wrote since the last save, now, and waits.
  /// Returns `false` (and reports) when a save failed. Cost: one `synchronize()`, which on
  /// Linux rewrites every changed suite of the process.
  @discardableResult
  public static func saveNow() -> Bool {
    let pending = state.withLock { state in
      defer {
        state.pending = [:]
        state.isScheduled = false
      }
      return Array(state.pending.values)
    }
    guard let first = pending.first else { return true }
    guard let directory = PreferencesLocation.directory() else {
      for item in pending {
        DefaultsDiagnostics.report(
          .failedSave, key: nil, suite: item.suite,
          "neither XDG_CONFIG_HOME nor HOME is set; values stay in memory and are not saved")
      }
      return false
    }
    let names = pending.map { $0.suite ?? PreferencesLocation.standardSuiteName }.sorted()
    let locks = names.map { FileLock(path: directory + "/" + $0 + ".plist.lock") }
    defer { for lock in locks { lock.unlock() } }
    if first.defaults.synchronize() { return true }
    for item in pending {
      DefaultsDiagnostics.report(
        .failedSave, key: nil, suite: item.suite,
        "Foundation could not write the preferences file in \(directory); values stay in memory")
    }
    return false
  }
}

/// Where Foundation on Linux keeps preference files.
enum PreferencesLocation {
  /// `$XDG_CONFIG_HOME` when it is an absolute path, else `$HOME/.config`; `nil` when
  /// neither is usable.
  static func directory(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> String?
  {
    if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg }
    if let home = environment["HOME"], !home.isEmpty { return home + "/.config" }
    return nil
  }

  /// The file name Foundation gives the standard suite: the executable's name.
  static var standardSuiteName: String { ProcessInfo.processInfo.processName }
}

/// An advisory exclusive `flock` on a side file, held until `unlock()`.
final class FileLock {
  private var descriptor: Int32

  /// Opens (creating, mode 0600) and locks `path`, waiting for other holders. When the
  /// file cannot be opened the lock is a no-op: saving must not fail because of it.
  init(path: String) {
    descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    if descriptor >= 0 {
      while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
    }
  }

  func unlock() {
    guard descriptor >= 0 else { return }
    flock(descriptor, LOCK_UN)
    close(descriptor)
    descriptor = -1
  }

  deinit { unlock() }
}
