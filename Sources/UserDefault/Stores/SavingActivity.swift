import Foundation
import PropertyListCodec

/// Keeps an Apple app alive while preferences wait to be saved or are being saved.
///
/// - macOS: sudden termination kills an app without `atexit`, so it is disabled from a
///   write's scheduled flush until that flush ends (ProcessInfo counts the calls).
/// - iOS, tvOS, watchOS, visionOS: a save runs inside an expiring activity, so the process
///   is not suspended while it holds a file's lock (a process suspended holding a lock in
///   an App Group container is killed, `0xdead10cc`); and it waits at most
///   ``lockWait`` for the lock, as another process holding it may be suspended.
/// - Linux: nothing; these cost nothing there.
enum SavingActivity {
  /// How long a save on Apple's mobile platforms waits for another process's lock.
  static let lockWait: Duration = .seconds(2)

  /// A flush was scheduled: pending writes exist until ``flushEnded()``.
  static func flushScheduled() {
    #if os(macOS)
      ProcessInfo.processInfo.disableSuddenTermination()
    #endif
  }

  /// The flush scheduled by ``flushScheduled()`` ran (saved or not).
  static func flushEnded() {
    #if os(macOS)
      ProcessInfo.processInfo.enableSuddenTermination()
    #endif
  }

  /// Runs `body` under `file`'s lock (a save, or an update's read-modify-write), inside an
  /// expiring activity on the iOS family.
  static func save<Result>(
    _ file: PreferencesFile, _ body: () throws(DefaultsError) -> Result
  ) throws(DefaultsError) -> Result {
    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
      // The activity lasts while its first call runs: that call waits for the save to end.
      // A second call with `expired` says time is up: a save still waiting for the lock
      // gives up (one that holds it is a write and an fsync from done).
      let saved = DispatchSemaphore(value: 0)
      let isExpired = Lock(false)
      ProcessInfo.processInfo.performExpiringActivity(withReason: "Saving preferences") {
        expired in
        if expired {
          isExpired.withLock { $0 = true }
          saved.signal()
        } else {
          saved.wait()
        }
      }
      defer { saved.signal() }
      return try file.withLock(
        waitingAtMost: lockWait, unless: { isExpired.withLock { $0 } }, body)
    #else
      return try file.withLock(body)
    #endif
  }
}
