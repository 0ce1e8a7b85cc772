/// What a writer of a preferences file has reported, so a failure met on every retry,
/// poll or flush is reported once until something succeeds.
struct FailureReports {
  /// A damaged file that could not be moved aside, reported: never written over.
  private(set) var stuckDamage: PreferencesFile.Identity?
  private var lastFailure: String?
  /// A damaged file seen by a look that repairs nothing, left for the next look.
  private var unrepairedDamage: PreferencesFile.Identity?

  /// Whether `failure` differs from the last one reported; it is the last one from now on.
  mutating func isNew(_ failure: String) -> Bool {
    defer { lastFailure = failure }
    return lastFailure != failure
  }

  /// Whether this stuck damaged file is another than the last reported; it is from now on.
  mutating func isNewStuckDamage(_ identity: PreferencesFile.Identity?) -> Bool {
    defer { stuckDamage = identity }
    return stuckDamage != identity
  }

  /// Whether `identity` is a damaged file not seen before; it is the one seen from now on.
  mutating func isFirstSightOfDamage(_ identity: PreferencesFile.Identity?) -> Bool {
    defer { unrepairedDamage = identity }
    return identity == nil || unrepairedDamage != identity
  }

  /// A write succeeded: the next failure is new.
  mutating func writeSucceeded() { lastFailure = nil }

  /// The file was read or written whole: no damaged file is stuck in its place.
  mutating func fileIsSound() { stuckDamage = nil }
}
