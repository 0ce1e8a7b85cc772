import Foundation
import PropertyListCodec

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
    /// The name's key path for the Observation framework, when the writer had it at hand
    /// (a typed write); saves looking it up.
    var trackingPath: TrackedKeys.Path?

    init(name: String, oldObject: Any?, newObject: Any?) {
      self.name = name
      self.oldObject = oldObject
      self.newObject = newObject
    }

    /// The change from `old` to `new` objects as Foundation hands them out, compared as
    /// the store compares its own (see the other initialiser).
    init?(name: String, from old: Any?, to new: Any?) {
      self.init(name: name, from: old.map { .other($0) }, to: new.map { .other($0) })
    }

    /// The change from `old` to `new`, or `nil` when both hold the same value of the same
    /// property-list type (or nothing): the library's one comparison of a stored object
    /// with its replacement (``StoredObject/isSame(as:)``), for every diff. A store's own
    /// write makes the same test inline (`FileStore`), where passing optionals cost copies.
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

  /// The one diff of remembered objects against current ones, for every reader that
  /// finds changes made elsewhere (a store taking in its file, a Foundation suite told
  /// that something changed): for each of `names`, compares `known[name]` with
  /// `current(name)`, brings `known` up to date, and returns the changes, for the caller
  /// to announce outside its locks.
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

  /// The listeners of one name, in the order they were added. Kept as an array so that a
  /// change takes them with one retain of the buffer, not a copy of 1,000 closures.
  private typealias Listeners = ContiguousArray<(id: UInt64, listener: Listener)>

  private struct State {
    var nextID: UInt64 = 0
    /// Listeners by stored name; the empty name holds listeners of every key.
    var listeners: [String: Listeners] = [:]
    /// How many listeners exist; lets writes skip all observation work when zero.
    var listenerCount = 0
  }

  let suite: String?
  // One lock for the listeners and their count, so a write reads both in one uncontended
  // lock and unlock (about 20 ns on Linux). `Synchronization.Atomic`
  // would make the count a 1 ns load, but it needs macOS 15 / iOS 18, later than the
  // package's floor; the lock is the suite's own, so writers to other suites never meet it.
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

  /// Adds a listener for the given names (every name when empty); returns its id.
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

  /// Removes a listener. After this returns, the listener is not called again by any
  /// change published later; a call already running on another thread may still finish.
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
    // Reading the task-local costs about 100 ns: only when someone listens.
    guard !Self.isPropagationSuppressed else { return }
    for entry in taken.named ?? [] { entry.listener(change) }
    for entry in taken.any ?? [] { entry.listener(change) }
  }
}
