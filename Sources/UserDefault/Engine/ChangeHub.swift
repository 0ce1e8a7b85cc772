import Foundation
import PropertyListCodec

/// One suite's changes: every write path reports here, every form of observation listens.
/// A change carries objects, so each listener decodes with its own key. Listeners run on
/// the writing thread outside every lock, so they may read and write defaults.
final class ChangeHub: Sendable {
  struct Change: @unchecked Sendable {
    // Property-list objects are immutable values, only read after being handed over.
    let name: String
    let oldObject: Any?
    let newObject: Any?
    /// From a typed writer: saves Observation a lookup.
    var trackingPath: TrackedKeys.Path?

    init(name: String, oldObject: Any?, newObject: Any?) {
      self.name = name
      self.oldObject = oldObject
      self.newObject = newObject
    }

    init?(name: String, from old: Any?, to new: Any?) {
      if Self.isSame(old, new) { return nil }
      self.init(name: name, oldObject: old, newObject: new)
    }

    /// Whether `old` and `new` are both absent, or the same value of the same type.
    static func isSame(_ old: Any?, _ new: Any?) -> Bool {
      // Each side unwrapped once: a switch over the pair built a tuple, copying both again.
      guard let old else { return new == nil }
      guard let new else { return false }
      return PropertyListEquality.isEqual(old, new)
    }

    /// `nil` when both hold the same value of the same type: the library's one comparison
    /// for every diff (`FileStore`'s write inlines it).
    init?(name: String, from old: StoredObject?, to new: StoredObject?) {
      switch (old, new) {
      case (nil, nil): return nil
      case (let old?, let new?) where old.isSame(as: new): return nil
      default: self.init(name: name, oldObject: old?.object, newObject: new?.object)
      }
    }
  }

  /// Updates `known` and returns the changes, to announce outside locks.
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
    /// The empty name holds listeners of every key.
    var listeners: [String: Listeners] = [:]
    /// Zero lets writes skip all observation work. Changed only in place: a whole `State`
    /// assigned would not run the `didSet` that keeps the mirror.
    var listenerCount = 0 {
      didSet { listenerMirror.set(listenerCount) }
    }
    let listenerMirror: MirroredCount
  }

  let suite: String?
  /// ``State/listenerCount``, readable without the lock: on Linux a write while nobody
  /// listens anywhere in the suite, almost always the case, takes no lock here.
  private let listenerMirror = MirroredCount()
  private let state: Lock<State>
  let tracking = TrackedKeys()

  init(suite: String?) {
    self.suite = suite
    self.state = Lock(State(listenerMirror: listenerMirror))
  }

  /// Whether a change of `name` would reach a listener. Cost: without listeners anywhere
  /// in the suite, an atomic load on Linux; else a lock and up to two lookups.
  func hasListeners(for name: String) -> Bool {
    guard listenerMirror.mayBeNonzero else { return false }
    return state.withLock {
      $0.listenerCount > 0
        && ($0.listeners[name]?.isEmpty == false || $0.listeners[""]?.isEmpty == false)
    }
  }

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

  /// Set by `UserDefaults.withoutPropagation(_:)`; Observation is still told.
  @TaskLocal static var isPropagationSuppressed = false

  /// Tells Observation's trackers of `name` (through `path`, when known) and its listeners,
  /// for whom `change` is made, only when there are some. Typed observers of one key
  /// listen as one group, which decodes once (``ObserverGroup``). Cost beyond
  /// Observation's: without listeners anywhere in the suite, an atomic load on Linux; else
  /// a lock and up to two lookups.
  func publish(_ name: String, path: TrackedKeys.Path?, _ change: () -> Change) {
    // Nobody listens: only Observation is told, as the locked path below would tell it.
    guard listenerMirror.mayBeNonzero else { return tracking.didChange(name, path: path) }
    let taken: (named: Listeners?, any: Listeners?) = state.withLock { state in
      if state.listenerCount == 0 { return (nil, nil) }
      return (state.listeners[name], state.listeners[""])
    }
    tracking.didChange(name, path: path)
    guard taken.named != nil || taken.any != nil else { return }
    // The task-local is costly to read: only when someone listens.
    guard !Self.isPropagationSuppressed else { return }
    let change = change()
    for entry in taken.named ?? [] { entry.listener(change) }
    for entry in taken.any ?? [] { entry.listener(change) }
  }
}
