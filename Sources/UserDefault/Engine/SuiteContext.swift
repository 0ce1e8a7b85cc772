import Foundation
import PropertyListCodec

/// The library's state for one suite in this process, owned by its one backend, so an
/// observer of one object hears writes made through another.
final class SuiteContext: Sendable {
  /// `nil` for the standard suite.
  let name: String?
  /// Whether every write passes through the library, so cached values can be trusted.
  let seesEveryWrite: Bool
  let cache = DecodedValueCache()
  let hub: ChangeHub
  /// Each group is an ``ObserverGroup`` of its own value type.
  let observerGroups = Lock<[ObserverGroupKey: AnyObject]>([:])
  private let observerIDs = Lock<UInt64>(0)

  init(name: String?, seesEveryWrite: Bool) {
    self.name = name
    self.seesEveryWrite = seesEveryWrite
    self.hub = ChangeHub(suite: name)
  }

  func nextObserverID() -> UInt64 {
    observerIDs.withLock {
      $0 += 1
      return $0
    }
  }

  /// Drops changed keys' cached values and tells observers; outside every lock.
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
