/// Where a store's flushes stand: whether a deferred flush is queued, and which of the
/// snapshots flushes took is durable. A flush call notes the snapshots taken before it
/// began; any later snapshot made durable holds its writes (group commit).
struct FlushProgress {
  /// Whether a deferred flush is queued. It stays queued after a ``FileStore/flush()``
  /// that took the changes, so writes until it runs ride on it: a write-and-flush loop does
  /// not arm a Dispatch timer, and wake its thread, per write.
  enum Schedule {
    case idle
    case queued
  }
  private(set) var schedule = Schedule.idle
  /// Snapshots taken so far, numbered from 1.
  private var snapshotsTaken: UInt64 = 0
  /// The newest snapshot written durably: everything written before it was taken is safe.
  private var durableSnapshot: UInt64 = 0

  /// A flush call's mark, taken as it begins.
  var mark: UInt64 { snapshotsTaken }

  /// Whether a snapshot taken after `mark` is durable, so the call's writes are.
  func isDurable(since mark: UInt64) -> Bool { durableSnapshot > mark }

  /// Numbers a snapshot being taken.
  mutating func takeSnapshot() -> UInt64 {
    snapshotsTaken += 1
    return snapshotsTaken
  }

  mutating func madeDurable(_ snapshot: UInt64) {
    durableSnapshot = max(durableSnapshot, snapshot)
  }

  /// Queues a deferred flush; `false` when one is queued already.
  mutating func queue() -> Bool {
    guard schedule == .idle else { return false }
    schedule = .queued
    return true
  }

  /// The queued flush runs (or is given up): a write from now on queues another.
  mutating func dequeue() {
    schedule = .idle
  }
}
