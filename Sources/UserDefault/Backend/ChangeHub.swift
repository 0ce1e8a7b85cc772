import Foundation
import Synchronization

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

    /// The change from `old` to `new`; `nil` when both hold the same value (or nothing).
    init?(name: String, from old: Any?, to new: Any?) {
      switch (old, new) {
      case (nil, nil): return nil
      case (let old?, let new?) where PropertyListEquality.isEqual(old, new): return nil
      default: self.init(name: name, oldObject: old, newObject: new)
      }
    }
  }

  typealias Listener = @Sendable (Change) -> Void

  private struct State {
    var nextID: UInt64 = 0
    /// Listeners by stored name; the empty name holds listeners of every key.
    var listeners: [String: [UInt64: Listener]] = [:]
  }

  let suite: String?
  private let state = Lock(State())
  /// How many listeners exist; lets writes skip all observation work when zero.
  private let listenerCount = Atomic<Int>(0)
  let tracking = TrackedKeys()

  init(suite: String?) {
    self.suite = suite
  }

  /// Whether anyone listens to `name`. Cost with no listener at all: one atomic load.
  func hasListeners(for name: String) -> Bool {
    guard listenerCount.load(ordering: .relaxed) > 0 else { return false }
    return state.withLock {
      $0.listeners[name]?.isEmpty == false || $0.listeners[""]?.isEmpty == false
    }
  }

  /// Adds a listener for the given names (every name when empty); returns its id.
  func add(names: [String], _ listener: @escaping Listener) -> UInt64 {
    let id = state.withLock { state in
      state.nextID += 1
      for name in names.isEmpty ? [""] : names {
        state.listeners[name, default: [:]][state.nextID] = listener
      }
      return state.nextID
    }
    listenerCount.add(1, ordering: .relaxed)
    return id
  }

  /// Removes a listener. After this returns, the listener is not called again by any
  /// change published later; a call already running on another thread may still finish.
  func remove(_ id: UInt64) {
    let removed = state.withLock { state in
      var found = false
      for name in Array(state.listeners.keys) {
        if state.listeners[name]?.removeValue(forKey: id) != nil { found = true }
        if state.listeners[name]?.isEmpty == true { state.listeners[name] = nil }
      }
      return found
    }
    if removed { listenerCount.subtract(1, ordering: .relaxed) }
  }

  /// Set by `UserDefaults.withoutPropagation(_:)`: changes made meanwhile reach no
  /// listener (the Observation framework is still told).
  @TaskLocal static var isPropagationSuppressed = false

  /// Tells listeners of `change.name` and Observation-framework trackers of that key.
  func publish(_ change: Change) {
    if HubBypass.isOn.load(ordering: .relaxed) { return }
    tracking.didChange(change.name, path: change.trackingPath)
    guard listenerCount.load(ordering: .relaxed) > 0, !Self.isPropagationSuppressed else {
      return
    }
    let listeners = state.withLock { state in
      Array((state.listeners[change.name] ?? [:]).values)
        + Array((state.listeners[""] ?? [:]).values)
    }
    for listener in listeners { listener(change) }
  }
}
