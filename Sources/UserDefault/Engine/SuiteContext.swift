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

  /// Drops what the cache must forget of changed keys and tells observers; outside every
  /// lock.
  func announce(_ changes: [ChangeHub.Change]) {
    for change in changes { announce(change) }
  }

  func announce(_ change: ChangeHub.Change) {
    announce(change.name, path: change.trackingPath) { change }
  }

  /// A change of `name`, made by `change` only when a listener takes it: Observation's
  /// trackers alone need no change built and dropped.
  ///
  /// A suite that sees every write drops the key's cached value: it trusts entries
  /// uncompared. Elsewhere (Foundation instances) every read compares the entry's object
  /// with the stored one, so an old entry is never handed out: only the record of a
  /// failure is dropped, so that a bad value written again is reported again. Dropping
  /// every entry cost every write of a read key a hash of the name.
  func announce(_ name: String, path: TrackedKeys.Path?, _ change: () -> ChangeHub.Change) {
    if seesEveryWrite { cache.invalidate(name) } else { cache.forgetFailure(name) }
    hub.publish(name, path: path, change)
  }
}

/// Where a suite's observer groups are found: by stored name and bridge.
struct ObserverGroupKey: Hashable {
  let name: String
  let bridge: ObjectIdentifier
}
