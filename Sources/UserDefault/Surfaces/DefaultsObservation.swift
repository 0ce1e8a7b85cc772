import Foundation

/// A registration made by `UserDefaults.observe(_:initial:_:)`; stops on ``cancel()`` or
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
  ///
  /// `observation.cancel()`
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
