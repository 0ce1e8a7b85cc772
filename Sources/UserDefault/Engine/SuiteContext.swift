import Foundation
import PropertyListCodec

/// The library's state for one suite in this process: its name, decoded-value cache,
/// change hub and typed observer groups. Owned by the suite's
/// one backend, so every `UserDefaults` object of the suite shares it: an observer of
/// one object hears writes made through another.
final class SuiteContext: Sendable {
  /// The suite's name; `nil` for the standard suite.
  let name: String?
  /// Whether every write to the suite passes through the library (its own stores), so
  /// cached values can be trusted without looking at the stored object again.
  let seesEveryWrite: Bool
  let cache = DecodedValueCache()
  let hub: ChangeHub
  /// The typed observers of the suite, grouped by key and bridge (see ``ObserverGroup``);
  /// each group is an `ObserverGroup` of its own value type.
  let observerGroups = Lock<[ObserverGroupKey: AnyObject]>([:])
  private let observerIDs = Lock<UInt64>(0)

  init(name: String?, seesEveryWrite: Bool) {
    self.name = name
    self.seesEveryWrite = seesEveryWrite
    self.hub = ChangeHub(suite: name)
  }

  /// A number for a new observer, unique in the suite.
  func nextObserverID() -> UInt64 {
    observerIDs.withLock {
      $0 += 1
      return $0
    }
  }

  /// Drops the cached values of changed keys and tells their observers; called outside
  /// every lock, after the store holds the new values.
  func announce(_ changes: [ChangeHub.Change]) {
    for change in changes { announce(change) }
  }

  func announce(_ change: ChangeHub.Change) {
    cache.invalidate(change.name)
    hub.publish(change)
  }
}

/// Where a suite's observer groups are found: by stored name and bridge.
struct ObserverGroupKey: Hashable {
  let name: String
  let bridge: ObjectIdentifier
}
