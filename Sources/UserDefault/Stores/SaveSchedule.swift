/// Which deferred save of a Foundation suite is due, if any. A write asks for one when
/// none is due. A save that leaves nothing waiting (``FoundationSaving/saveNow()``, an
/// exclusive update) did the due save's work, so that save goes stale: its timer wakes and
/// does nothing, and the next write's own save comes a full window after that write.
///
/// A flag cleared by every save instead let a save made by hand leave its timer armed
/// while the next write armed another: each such save added a chain of timers, and the
/// suite was saved more often than its window asks. (``FileStore`` keeps its deferred flush
/// after a `flush()` instead, so that a write-and-flush loop does not arm a timer per write;
/// saves by hand of a Foundation suite are rare.)
struct SaveSchedule {
  /// The number of the save that is due; `nil` when none is.
  private var due: UInt64?
  private var numbered: UInt64 = 0

  /// A write: the number of a save to schedule, or `nil` when one is due already.
  mutating func requestSave() -> UInt64? {
    guard due == nil else { return nil }
    numbered += 1
    due = numbered
    return numbered
  }

  /// Save `number`'s timer woke: whether it is the save that is due (then the next write
  /// asks for another), or a stale one that must do nothing.
  mutating func begin(_ number: UInt64) -> Bool {
    guard due == number else { return false }
    due = nil
    return true
  }

  /// Save `number` failed and changes still wait: whether to run it again, which is so
  /// unless a write asked for another save since it began.
  mutating func retry(_ number: UInt64) -> Bool {
    guard due == nil else { return false }
    due = number
    return true
  }

  /// Everything written is saved: the save that is due has nothing left to do.
  mutating func caughtUp() {
    due = nil
  }
}
