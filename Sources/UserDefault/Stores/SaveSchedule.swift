/// Which deferred save of a Foundation suite is due, if any. A write asks for one when
/// none is due. A save that leaves nothing waiting (``FoundationSaving/saveNow()``, an
/// exclusive update) did the due save's work, so that save goes stale: its timer wakes and
/// does nothing, and the next write's own save comes a full window after that write.
/// (``FileStore`` keeps its deferred flush after a `flush()` instead, so that a
/// write-and-flush loop does not arm a timer per write. Here a save by hand or an exclusive
/// update reads and replaces the file, beside which the timer the next write arms is
/// small.)
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

  /// A save succeeded. When it left nothing pending, the save that is due has nothing to
  /// do; a write made during the save leaves its key pending, and the due save for it.
  mutating func markSaved(leavingPending: Bool) {
    if !leavingPending { due = nil }
  }
}
