import Dispatch

/// The one scheduler of background flushes, for every backend that saves its writes
/// later: the library's store (within its flush window) and the saver of a Foundation
/// suite (within ``FoundationSaving/window``).
///
/// Each backend keeps its own "a flush is scheduled" flag, under the lock that records its
/// writes, so that a burst of writes schedules one flush; this type runs the flush and
/// retries a failed one (a full disk, a directory that cannot be made) while changes
/// wait, a second apart at least: otherwise they would wait for the next write or the
/// process's exit.
enum DeferredFlush {
  /// Runs `flush` on `queue`, `window` from now; if it fails and `rearm` says changes
  /// still wait (marking a flush scheduled as it says so), runs it again after
  /// `max(window, 1 s)`, until it succeeds or nothing waits.
  ///
  /// - Parameters:
  ///   - queue: Where the flush runs.
  ///   - window: How long from now.
  ///   - flush: The flush; it clears the backend's flag before taking its snapshot.
  ///   - rearm: Whether to try again after a failure; sets the backend's flag when so.
  static func schedule(
    on queue: DispatchQueue, after window: Duration,
    flush: @escaping @Sendable () throws(DefaultsError) -> Void,
    rearm: @escaping @Sendable () -> Bool
  ) {
    queue.asyncAfter(deadline: .now() + dispatchInterval(window)) {
      do throws(DefaultsError) {
        try flush()
      } catch {
        guard rearm() else { return }
        schedule(on: queue, after: max(window, .seconds(1)), flush: flush, rearm: rearm)
      }
    }
  }

  /// `duration` for Dispatch, whole seconds included (a window of 2 s is 2 s, not 0).
  static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
    let (seconds, attoseconds) = duration.components
    return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
  }
}
