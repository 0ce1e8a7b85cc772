import Dispatch

/// The one scheduler of background flushes. Each backend keeps its own record of the flush
/// it scheduled (``FlushProgress``, ``SaveSchedule``), so a burst of writes schedules one;
/// this type retries a failed flush while changes wait, a second apart at least, rather
/// than wait for the next write or exit.
enum DeferredFlush {
  /// Runs `flush` on `queue`, `window` from now; if it fails and `rearm` says changes
  /// still wait (marking a flush scheduled as it says so), runs it again after
  /// `max(window, 1 s)`, until it succeeds or nothing waits.
  ///
  /// - Parameters:
  ///   - queue: Where the flush runs.
  ///   - window: How long from now.
  ///   - flush: The flush; by the time it takes its snapshot, it is no longer scheduled.
  ///   - rearm: Whether to try again after a failure; marks the flush scheduled when so.
  static func schedule(
    on queue: DispatchQueue, after window: Duration,
    flush: @escaping @Sendable () throws(DefaultsError) -> Void,
    rearm: @escaping @Sendable () -> Bool
  ) {
    SavingActivity.flushScheduled()
    queue.asyncAfter(deadline: .now() + dispatchInterval(window)) {
      defer { SavingActivity.flushEnded() }
      do throws(DefaultsError) {
        try flush()
      } catch {
        guard rearm() else { return }
        schedule(on: queue, after: max(window, .seconds(1)), flush: flush, rearm: rearm)
      }
    }
  }

  /// `duration` for Dispatch, whole seconds included, in the finest unit an `Int` holds:
  /// nanoseconds, where `Int` is 32 bits (arm64_32) only up to 2.1 s, then milliseconds,
  /// then whole seconds (clamped). Computed in `Int64`; none or less is now.
  static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
    guard duration > .zero else { return .nanoseconds(0) }
    let (seconds, attoseconds) = duration.components
    let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if !nanoseconds.overflow,
      case (let total, let carry) = nanoseconds.partialValue.addingReportingOverflow(
        attoseconds / 1_000_000_000),
      !carry, let exact = Int(exactly: total)
    {
      return .nanoseconds(exact)
    }
    let milliseconds = seconds.multipliedReportingOverflow(by: 1_000)
    // Whole milliseconds: the nanoseconds did not fit, so the duration is 2 s or more.
    if !milliseconds.overflow, let exact = Int(exactly: milliseconds.partialValue) {
      return .milliseconds(exact)
    }
    return .seconds(Int(clamping: seconds))
  }
}
