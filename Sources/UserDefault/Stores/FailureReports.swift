/// What a writer of a preferences file has reported, so a failure met on every retry,
/// poll or flush is reported once until something succeeds.
struct FailureReports {
  /// A damaged file that could not be moved aside, reported: never written over.
  private(set) var stuckDamage: PreferencesFile.Identity?
  private var lastFailure: String?
  /// A damaged file a poll left for the next look.
  private var deferredDamage: PreferencesFile.Identity?

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

  /// Whether to leave the damaged file `identity` for the next look: yes unless the last
  /// look found it, unchanged. It is the one found from now on.
  mutating func shouldDeferRepair(of identity: PreferencesFile.Identity?) -> Bool {
    defer { deferredDamage = identity }
    return identity == nil || deferredDamage != identity
  }

  /// A write succeeded: the next failure is new.
  mutating func writeSucceeded() { lastFailure = nil }

  /// The file was read or written whole: no damaged file is stuck in its place.
  mutating func fileIsSound() { (stuckDamage, deferredDamage) = (nil, nil) }
}
