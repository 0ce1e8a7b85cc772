import Dispatch

/// The flushes of one store asked for and not yet returned, so the flush about to write
/// can gather flushes still arriving into its one replacement (group commit).
///
/// On few cores, threads that write and flush at once do not all run before the first
/// takes its snapshot. Under contention a flush waits briefly before its snapshot, so
/// they write and join it; a flush alone never waits.
final class FlushArrivals: @unchecked Sendable {
  // Every stored property below `condition` is read and written with `condition` locked.
  private let condition = MonotonicCondition()
  private var inFlight = 0
  private var arrivals: UInt64 = 0
  private var arrivalsAtSnapshot: UInt64 = 0
  /// A flush arrived during the last replacement: flushes are contending.
  private var lastReplacementLeftWaiters = false

  /// How long the writing flush waits for the next arrival before it writes, in ns.
  static let quietPeriod = 30_000
  /// How long it waits at most, arrivals or not, in ns.
  static let longestWait = 300_000

  func arrive() {
    condition.lock()
    inFlight += 1
    arrivals &+= 1
    condition.broadcast()
    condition.unlock()
  }

  func leave() {
    condition.lock()
    inFlight -= 1
    condition.unlock()
  }

  /// Called by the flush about to take its snapshot: under contention, waits until no
  /// flush has arrived for ``quietPeriod`` (at most ``longestWait``); alone, returns at once.
  func gather() {
    condition.lock()
    defer {
      // A little before the real snapshot: at worst the next flush gathers for nothing.
      arrivalsAtSnapshot = arrivals
      condition.unlock()
    }
    guard inFlight > 1 || lastReplacementLeftWaiters else { return }
    let giveUp = DispatchTime.now().uptimeNanoseconds + UInt64(Self.longestWait)
    var seen = arrivals
    while true {
      let now = DispatchTime.now().uptimeNanoseconds
      if now >= giveUp { return }
      // Clamping never bites (what is left is below longestWait); a plain Int(UInt64)
      // would read as a trap where Int is 32 bits.
      condition.wait(nanoseconds: min(Self.quietPeriod, Int(clamping: giveUp - now)))
      if arrivals == seen { return }  // quiet (or a spurious wake-up: then write now)
      seen = arrivals
    }
  }

  /// Flushes arriving after the snapshot make the next writing flush gather.
  func replacementFinished() {
    condition.lock()
    lastReplacementLeftWaiters = arrivals != arrivalsAtSnapshot
    condition.unlock()
  }
}
