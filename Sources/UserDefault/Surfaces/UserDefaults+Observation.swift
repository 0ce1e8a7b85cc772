import Foundation

extension UserDefaults {
  /// A change of one key's value.
  public struct KeyChange<Value> {
    /// The value before the change (or the default).
    public let oldValue: Value
    /// The value after the change (or the default).
    public let newValue: Value
  }

  /// Calls `callback` after each change of `key`'s value (also by other processes for a
  /// ``PreferencesStore``, and plain `set` calls Foundation notifies), not for an equal
  /// write; on the writing thread, outside the library's locks. Cost per observed write:
  /// a read of the old object and a decode per observer.
  ///
  /// - Parameters:
  ///   - key: The key to observe.
  ///   - initial: Whether to call `callback` once now, with the current value.
  ///   - callback: Given the value before and after each change.
  /// - Returns: The registration; the callback stops when it is cancelled or released.
  ///
  /// `let observation = defaults.observe(.theme) { change in apply(change.newValue) }`
  public func observe<Value>(
    _ key: Key<Value>, initial: Bool = false,
    _ callback: @escaping @Sendable (KeyChange<Value>) -> Void
  ) -> DefaultsObservation {
    observe(key.descriptor, initial: initial, callback)
  }

  /// The current value of `key` (if `initial`), then its value after each change. Buffers
  /// without bound; ends when the consuming task is cancelled.
  ///
  /// - Parameters:
  ///   - key: The key to follow.
  ///   - initial: Whether the sequence starts with the current value.
  /// - Returns: The values, as an asynchronous sequence.
  ///
  /// `for await theme in defaults.updates(.theme) { apply(theme) }`
  public func updates<Value>(_ key: Key<Value>, initial: Bool = true) -> AsyncStream<Value> {
    updates(key.descriptor, initial: initial)
  }

  /// The names of `keys` (if `initial`), then the name of a key each time it changes.
  ///
  /// ```swift
  /// for await _ in defaults.updates([.theme, .fontSize]) { render(defaults[.theme], defaults[.fontSize]) }
  /// ```
  ///
  /// - Parameters:
  ///   - keys: The keys to follow, typed keys of any value types.
  ///   - initial: Whether the sequence starts with the name of each key.
  /// - Returns: The names of changed keys; buffered, ends when its task is cancelled.
  public func updates(_ keys: [Keys], initial: Bool = true) -> AsyncStream<String> {
    let names = keys.compactMap { ($0 as? any NamedKey)?.name }
    let access = self.access
    let hub = access.suite.hub
    access.backend.watchOutsideChanges(of: names)
    return AsyncStream { continuation in
      let gate = DeliveryGate()
      let id = hub.add(names: names) { change in
        gate.deliver { _ = continuation.yield(change.name) }
      }
      if initial { for name in names { continuation.yield(name) } }
      let observation = DefaultsObservation(hub: hub, id: id, gate: gate)
      continuation.onTermination = { _ in observation.cancel() }
    }
  }

  /// Calls `callback` with the name of each key of this suite that changes; for tools.
  ///
  /// - Parameters:
  ///   - callback: Given each changed name, on the writing thread.
  /// - Returns: The registration; the callback stops when it is cancelled or released.
  ///
  /// `let observation = defaults.observeChanges { name in print("changed:", name) }`
  public func observeChanges(_ callback: @escaping @Sendable (_ name: String) -> Void)
    -> DefaultsObservation
  {
    let hub = access.suite.hub
    let gate = DeliveryGate()
    let id = hub.add(names: []) { change in gate.deliver { callback(change.name) } }
    return DefaultsObservation(hub: hub, id: id, gate: gate)
  }

  /// Runs `body` with its writes hidden from this process's observers and `updates`
  /// (still stored and seen elsewhere); for an observer that writes back.
  ///
  /// - Parameters:
  ///   - body: The work whose writes observers should not hear.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  ///
  /// `defaults.withoutPropagation { defaults[.theme] = .dark }`
  public func withoutPropagation<Result>(_ body: () throws -> Result) rethrows -> Result {
    try ChangeHub.$isPropagationSuppressed.withValue(true) { try body() }
  }

  func observe<Value: Sendable>(
    _ descriptor: KeyDescriptor<Value>, initial: Bool,
    _ callback: @escaping @Sendable (KeyChange<Value>) -> Void
  ) -> DefaultsObservation {
    let access = self.access
    let gate = DeliveryGate()
    access.backend.watchOutsideChanges(of: [descriptor.name])
    let stop = ObserverGroup.join(descriptor, in: access, gate: gate, callback)
    if initial {
      let current = value(descriptor)
      gate.deliver { callback(KeyChange(oldValue: current, newValue: current)) }
    }
    return DefaultsObservation(gate: gate, stop: stop)
  }

  func updates<Value: Sendable>(_ descriptor: KeyDescriptor<Value>, initial: Bool)
    -> AsyncStream<Value>
  {
    AsyncStream { continuation in
      let observation = observe(descriptor, initial: initial) { change in
        continuation.yield(change.newValue)
      }
      continuation.onTermination = { _ in observation.cancel() }
    }
  }
}
