/// What a writer of a preferences file has reported already, so that a failure met again
/// on every attempt (a retry a second later, each poll, each flush) is reported once until
/// something succeeds. Kept under its writer's lock by the library's store and by the saver
/// of a Foundation suite alike.
struct FailureReports {
  /// A damaged file that could not be moved aside, already reported: not reported again,
  /// and never written over.
  private(set) var stuckDamage: PreferencesFile.Identity?
  private var lastFailure: String?

  /// Whether `failure` differs from the last one reported; it is the last one from now on.
  mutating func isNew(_ failure: String) -> Bool {
    defer { lastFailure = failure }
    return lastFailure != failure
  }

  /// Whether the damaged file with `identity`, which could not be moved aside, is another
  /// than the one reported last; it is the one reported from now on.
  mutating func isNewStuckDamage(_ identity: PreferencesFile.Identity?) -> Bool {
    defer { stuckDamage = identity }
    return stuckDamage != identity
  }

  /// A write succeeded: the next failure is new.
  mutating func writeSucceeded() { lastFailure = nil }

  /// The file was read or written whole: no damaged file is stuck in its place.
  mutating func fileIsSound() { stuckDamage = nil }
}
