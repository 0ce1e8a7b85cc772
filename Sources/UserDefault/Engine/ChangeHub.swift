import Foundation

/// The change hub of one suite: every write path of the library reports here, and every
/// form of observation (callbacks, async sequences, the Observation framework) listens
/// here.
///
/// A change carries the stored objects before and after, so each listener decodes with
/// its own key and a hub needs no knowledge of value types. Listeners are called on the
/// writing thread, after the store holds the new value, outside every lock of the
/// library, so they may read and write defaults.
final class ChangeHub: Sendable {
  /// What changed under one stored name.
  struct Change: @unchecked Sendable {
    // Property-list objects are immutable values (strings, numbers, data, collections of
    // them); they are only read after being handed over.
    let name: String
    let oldObject: Any?
    let newObject: Any?
    /// The key path for Observation, when a typed writer had it: saves a lookup.
    var trackingPath: TrackedKeys.Path?

    init(name: String, oldObject: Any?, newObject: Any?) {
      self.name = name
      self.oldObject = oldObject
      self.newObject = newObject
    }

    /// The change between objects as Foundation hands them out.
    init?(name: String, from old: Any?, to new: Any?) {
      self.init(name: name, from: old.map { .other($0) }, to: new.map { .other($0) })
    }

    /// The change from `old` to `new`, or `nil` when both hold the same value of the same
    /// type: the library's one comparison for every diff (`FileStore`'s write inlines it).
    ///
    /// - Parameters:
    ///   - name: The stored name.
    ///   - old: The object stored before, or `nil`.
    ///   - new: The object stored now, or `nil` for a removal.
    /// - Returns: The change, carrying both objects as `Any`, or `nil`. Cost: a comparison
    ///   of the two objects (see ``StoredObject/isSame(as:)``).
    init?(name: String, from old: StoredObject?, to new: StoredObject?) {
      switch (old, new) {
      case (nil, nil): return nil
      case (let old?, let new?) where old.isSame(as: new): return nil
      default: self.init(name: name, oldObject: old?.object, newObject: new?.object)
      }
    }
  }

  /// The one diff of remembered objects against current ones, for changes made
  /// elsewhere: updates `known` and returns the changes, to announce outside locks.
  ///
  /// - Parameters:
  ///   - known: The objects as last seen, updated in place.
  ///   - names: The names to compare.
  ///   - current: The object stored now under a name, or `nil`.
  /// - Returns: A change for each name whose object differs. Cost: one comparison a name.
  static func reconcile(
    _ known: inout [String: StoredObject], names: some Sequence<String>,
    with current: (String) -> StoredObject?
  ) -> [Change] {
    var changes: [Change] = []
    for name in names {
      let new = current(name)
      guard let change = Change(name: name, from: known[name], to: new) else { continue }
      known[name] = new
      changes.append(change)
    }
    return changes
  }

  typealias Listener = @Sendable (Change) -> Void

  /// An array, so a change takes them with one retain, not a copy of every closure.
  private typealias Listeners = ContiguousArray<(id: UInt64, listener: Listener)>

  private struct State {
    var nextID: UInt64 = 0
    /// Listeners by stored name; the empty name holds listeners of every key.
    var listeners: [String: Listeners] = [:]
    /// Zero lets writes skip all observation work.
    var listenerCount = 0
  }

  let suite: String?
  // One lock for the listeners and their count, so a write takes one uncontended lock.
  // Not `Synchronization.Atomic`, which needs macOS 15 / iOS 18; the lock is the suite's.
  private let state = Lock(State())
  let tracking = TrackedKeys()

  init(suite: String?) {
    self.suite = suite
  }

  /// Whether anyone listens to `name`. Cost: one uncontended lock and unlock.
  func hasListeners(for name: String) -> Bool {
    state.withLock {
      $0.listenerCount > 0
        && ($0.listeners[name]?.isEmpty == false || $0.listeners[""]?.isEmpty == false)
    }
  }

  /// Adds a listener for `names` (every name when empty); returns its id.
  func add(names: [String], _ listener: @escaping Listener) -> UInt64 {
    let id = state.withLock { state in
      state.nextID += 1
      for name in names.isEmpty ? [""] : names {
        state.listeners[name, default: []].append((state.nextID, listener))
      }
      state.listenerCount += 1
      return state.nextID
    }
    return id
  }

  /// After this returns, the listener is not called for later changes; a call running on
  /// another thread may still finish.
  func remove(_ id: UInt64) {
    state.withLock { state in
      var found = false
      for name in Array(state.listeners.keys) {
        guard let index = state.listeners[name]?.firstIndex(where: { $0.id == id }) else {
          continue
        }
        found = true
        state.listeners[name]!.remove(at: index)
        if state.listeners[name]!.isEmpty { state.listeners[name] = nil }
      }
      if found { state.listenerCount -= 1 }
    }
  }

  /// Set by `UserDefaults.withoutPropagation(_:)`: changes made meanwhile reach no
  /// listener (the Observation framework is still told).
  @TaskLocal static var isPropagationSuppressed = false

  /// Tells listeners of `change.name` and Observation-framework trackers of that key.
  ///
  /// Cost per listener: its call. Typed observers of one key listen as one group, which
  /// decodes the change once however many they are (see ``ObserverGroup``).
  func publish(_ change: Change) {
    // Empty when nobody listens: one lock either way.
    let taken: (named: Listeners?, any: Listeners?) = state.withLock { state in
      if state.listenerCount == 0 { return (nil, nil) }
      return (state.listeners[change.name], state.listeners[""])
    }
    tracking.didChange(change.name, path: change.trackingPath)
    guard taken.named != nil || taken.any != nil else { return }
    // The task-local is costly to read: only when someone listens.
    guard !Self.isPropagationSuppressed else { return }
    for entry in taken.named ?? [] { entry.listener(change) }
    for entry in taken.any ?? [] { entry.listener(change) }
  }
}
