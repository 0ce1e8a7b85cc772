/// Which deferred save of a Foundation suite is due, if any. A write asks for one when
/// none is due. A save that leaves nothing waiting (``FoundationSaving/saveNow()``, an
/// exclusive update) did the due save's work, so that save goes stale: its timer wakes and
/// does nothing, and the next write's own save comes a full window after that write.
/// (``FileStore`` keeps its deferred flush after a `flush()` instead, so that a
/// write-and-flush loop does not arm a timer per write; saves by hand of a Foundation
/// suite are rare.)
struct SaveSchedule {
  /// The number of the save that is due; `nil` when none is.
  private var due: UInt64?
  private var lastNumber: UInt64 = 0

  /// A write: the number of a save to schedule, or `nil` when one is due already.
  mutating func requestSave() -> UInt64? {
    guard due == nil else { return nil }
    lastNumber += 1
    due = lastNumber
    return lastNumber
  }

  /// Save `number` is about to take its snapshot: whether it is the save that is due
  /// (then the next write asks for another), or a stale one that must do nothing.
  mutating func startIfDue(_ number: UInt64) -> Bool {
    guard due == number else { return false }
    due = nil
    return true
  }

  /// Save `number` failed and changes still wait: whether to run it again, which is so
  /// when no save is due (a write asked for none since it started, and no other failed
  /// save is being tried again).
  mutating func rescheduleIfIdle(_ number: UInt64) -> Bool {
    guard due == nil else { return false }
    due = number
    return true
  }

  /// Call when nothing is pending after a save: the save that is due has nothing to do.
  mutating func markCaughtUp() {
    due = nil
  }
}
