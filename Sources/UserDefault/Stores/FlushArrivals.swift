import Dispatch

/// The flushes of one store that have been asked for and not yet returned, so that the
/// flush about to write can gather the writes of flushes still arriving into its one file
/// replacement (group commit), instead of leaving them a second replacement.
///
/// On two cores, eight threads that each write and flush at once do not all run before
/// the first of them takes its snapshot: the others are still waiting for a processor,
/// and their writes then need a second replacement. A flush that sees contention (another
/// flush waiting now, or one that arrived while the last replacement was written) blocks
/// briefly before its snapshot, so those threads run, write, and join it; a flush alone
/// never waits.
final class FlushArrivals: @unchecked Sendable {
  // Every stored property below `condition` is read and written with `condition` locked.
  private let condition = MonotonicCondition()
  private var inFlight = 0
  private var arrivals: UInt64 = 0
  /// ``arrivals`` when the writing flush took its snapshot.
  private var arrivalsAtSnapshot: UInt64 = 0
  /// Whether a flush arrived while the last replacement was being written: it needed
  /// another replacement, so flushes are contending.
  private var lastReplacementLeftWaiters = false

  /// How long the writing flush waits for the next arrival before it writes, in ns.
  static let quietPeriod = 30_000
  /// How long it waits at most, arrivals or not, in ns.
  static let longestWait = 300_000

  /// Called when a flush is asked for.
  func arrive() {
    condition.lock()
    inFlight += 1
    arrivals &+= 1
    condition.broadcast()
    condition.unlock()
  }

  /// Called when a flush returns.
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
      // Taken a little before the real snapshot (the flush still locks the file): a
      // flush arriving in between is counted as left waiting, which at worst makes the
      // next flush gather for nothing.
      arrivalsAtSnapshot = arrivals
      condition.unlock()
    }
    guard inFlight > 1 || lastReplacementLeftWaiters else { return }
    let giveUp = DispatchTime.now().uptimeNanoseconds + UInt64(Self.longestWait)
    var seen = arrivals
    while true {
      let now = DispatchTime.now().uptimeNanoseconds
      if now >= giveUp { return }
      condition.wait(nanoseconds: min(Self.quietPeriod, Int(giveUp - now)))
      if arrivals == seen { return }  // quiet (or a spurious wake-up: then write now)
      seen = arrivals
    }
  }

  /// Called by the flush that wrote, after its replacement: whether flushes arrived
  /// after its snapshot decides whether the next writing flush gathers.
  func replacementFinished() {
    condition.lock()
    lastReplacementLeftWaiters = arrivals != arrivalsAtSnapshot
    condition.unlock()
  }
}
