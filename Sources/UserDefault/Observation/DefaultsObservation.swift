import Foundation

/// A registration made by ``UserDefaults/observe(_:initial:_:)``; stops on ``cancel()`` or
/// when released.
///
/// After `cancel()` returns, the callback is not called again: a delivery running on
/// another thread is waited for, and cancelling from inside the callback is allowed.
public final class DefaultsObservation: Sendable {
  private let hub: ChangeHub
  private let id: UInt64
  private let gate: DeliveryGate

  init(hub: ChangeHub, id: UInt64, gate: DeliveryGate) {
    self.hub = hub
    self.id = id
    self.gate = gate
  }

  /// Stops the observation. Cost: one lock, and waiting for a delivery in progress.
  public func cancel() {
    hub.remove(id)
    gate.close()
  }

  deinit { cancel() }
}

/// Serialises deliveries with cancellation: a recursive lock held during each callback,
/// so `close()` waits for a running delivery but a callback may cancel itself.
final class DeliveryGate: @unchecked Sendable {
  // `isOpen` is read and written only while holding `lock`.
  private let lock = NSRecursiveLock()
  private var isOpen = true

  func deliver(_ body: () -> Void) {
    lock.lock()
    defer { lock.unlock() }
    if isOpen { body() }
  }

  func close() {
    lock.lock()
    isOpen = false
    lock.unlock()
  }
}

extension UserDefaults {
  /// A change of one key's value.
  public struct KeyChange<Value> {
    /// The value before the change (the default when nothing was stored).
    public let oldValue: Value
    /// The value after the change (the default when the value was removed).
    public let newValue: Value
  }

  /// Calls `callback` after each change of `key`'s stored value made through the library
  /// (any surface, any instance of the same suite), and by other processes when this is a
  /// ``PreferencesStore``. Writing a value equal to the stored one does not call it.
  ///
  /// The callback runs on the writing thread after the store holds the new value, outside
  /// the library's locks, so it may read and write defaults. With `initial: true` it is
  /// also called once now with the current value as both old and new.
  public func observe<Value>(
    _ key: Key<Value>, initial: Bool = false,
    _ callback: @escaping @Sendable (KeyChange<Value>) -> Void
  ) -> DefaultsObservation {
    let access = self.access
    let descriptor = key.descriptor
    let gate = DeliveryGate()
    let id = access.suite.hub.add(names: [key.name]) { change in
      let change = KeyChange(
        oldValue: Self.decode(change.oldObject, descriptor),
        newValue: Self.decode(change.newObject, descriptor))
      gate.deliver { callback(change) }
    }
    if initial {
      let value = access.value(descriptor)
      gate.deliver { callback(KeyChange(oldValue: value, newValue: value)) }
    }
    return DefaultsObservation(hub: access.suite.hub, id: id, gate: gate)
  }

  /// The current value of `key` (unless `initial` is false), then its value after each
  /// change, in order. The sequence buffers every value not yet consumed (unbounded),
  /// ends when the consuming task is cancelled, and then stops listening.
  public func updates<Value>(_ key: Key<Value>, initial: Bool = true) -> AsyncStream<Value> {
    AsyncStream { continuation in
      let observation = observe(key, initial: initial) { change in
        continuation.yield(change.newValue)
      }
      continuation.onTermination = { _ in observation.cancel() }
    }
  }

  private static func decode<Value>(_ object: Any?, _ key: KeyDescriptor<Value>) -> Value {
    guard let object, let value = try? key.bridge.decode(object) else {
      return key.defaultValue.value
    }
    return value
  }
}
