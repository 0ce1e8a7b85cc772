import Foundation
import Synchronization

/// The library's state for one suite: its decoded-value cache, its change hub and, for
/// Foundation-backed suites on Linux, its saving. Shared by every `UserDefaults` instance
/// of the same suite in the process, so observers of one instance hear writes made
/// through another.
final class SuiteContext: Sendable {
  /// The suite's name; `nil` for the standard suite.
  let name: String?
  /// Whether every write to the suite passes through the library (its own stores), so
  /// cached values can be trusted without looking at the stored object again.
  let seesEveryWrite: Bool
  let cache = DecodedValueCache()
  let hub: ChangeHub
  private let notifications = Lock<FoundationChangeNotifications?>(nil)

  /// Drops the cached values of changed keys and tells their observers; called outside
  /// every lock, after the store holds the new values.
  func announce(_ changes: [ChangeHub.Change]) {
    for change in changes {
      cache.invalidate(change.name)
      hub.publish(change)
    }
  }

  /// The suite's notification watcher, if a key of it was ever observed.
  var foundationNotificationsIfWatched: FoundationChangeNotifications? {
    notifications.withLock { $0 }
  }

  /// The suite's notification watcher, made and subscribed by `make` the first time.
  func foundationNotifications(
    _ make: () -> FoundationChangeNotifications
  ) -> FoundationChangeNotifications {
    let (watcher, isNew) = notifications.withLock { current in
      if let current { return (current, false) }
      let made = make()
      current = made
      return (made, true)
    }
    if isNew { watcher.subscribe() }
    return watcher
  }

  init(name: String?, seesEveryWrite: Bool) {
    self.name = name
    self.seesEveryWrite = seesEveryWrite
    self.hub = ChangeHub(suite: name)
  }

  /// The context of a Foundation suite; the same object for every instance of the suite.
  static func foundation(named name: String?) -> SuiteContext {
    foundationContexts.withLock { contexts in
      let key = name ?? ""
      if let context = contexts[key] { return context }
      let context = SuiteContext(name: name, seesEveryWrite: false)
      contexts[key] = context
      return context
    }
  }

  private static let foundationContexts = Lock<[String: SuiteContext]>([:])
}

extension UserDefaults {
  /// The library's path to this instance: bridging, cache and notification in one place.
  /// Cost: for the library's own stores a cast; for Foundation instances a cast plus one
  /// lock and lookup (the suite name is found once per instance).
  @usableFromInline
  var access: DefaultsAccess {
    // A class cast: cheaper than asking for a protocol conformance on every read.
    if let store = self as? PreferencesStore {
      return DefaultsAccess(defaults: self, suite: store.suiteContext, engine: store.engine)
    }
    return DefaultsAccess(
      defaults: self, suite: FoundationInstances.context(of: self), engine: nil)
  }
}

/// Finds the suite of a Foundation `UserDefaults` instance, which Foundation does not
/// expose: through reflection once per instance, remembered by identity.
enum FoundationInstances {
  private struct Known: @unchecked Sendable {
    // Kept alive by the table, so its address cannot be reused by another instance while
    // the entry exists (a weak reference would cost a weak load on every read). Never used
    // to reach the instance: UserDefaults is only compared by identity here.
    let instance: UserDefaults
    let context: SuiteContext
  }

  private struct Table {
    var known: [ObjectIdentifier: Known] = [:]
    /// Insertion order, so the oldest entry goes first when the table is full.
    var order: [ObjectIdentifier] = []
  }

  /// Instances remembered at most; beyond, the oldest is forgotten (and, if still in use,
  /// found again by reflection on its next use).
  static let capacity = 256
  private static let table = Lock(Table())

  static func context(of defaults: UserDefaults) -> SuiteContext {
    let id = ObjectIdentifier(defaults)
    if let known = table.withLock({ $0.known[id] }) { return known.context }
    let context = SuiteContext.foundation(named: suiteName(of: defaults))
    table.withLock { table in
      guard table.known[id] == nil else { return }
      if table.order.count >= capacity {
        table.known[table.order.removeFirst()] = nil
      }
      table.known[id] = Known(instance: defaults, context: context)
      table.order.append(id)
    }
    return context
  }

  /// The suite name an instance was created with; `nil` for `.standard`.
  static func suiteName(of defaults: UserDefaults) -> String? {
    if defaults === UserDefaults.standard { return nil }
    var mirror: Mirror? = Mirror(reflecting: defaults)
    while let current = mirror {
      for child in current.children where child.label == "suite" || child.label == "_suiteName" {
        if let name = child.value as? String? { return name }
      }
      mirror = current.superclassMirror
    }
    return nil
  }
}
