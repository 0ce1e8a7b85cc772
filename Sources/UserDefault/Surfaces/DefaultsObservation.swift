import Foundation
import PropertyListCodec

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A registration made by `UserDefaults.observe(_:initial:_:)`; stops on ``cancel()`` or
/// when released. After `cancel()` returns the callback is not called again: a delivery on
/// another thread is waited for, and a callback may cancel itself.
public final class DefaultsObservation: Sendable {
  private let gate: DeliveryGate
  /// Takes the listener out of its hub (or its observer group); safe to call again.
  private let stop: @Sendable () -> Void

  init(gate: DeliveryGate, stop: @escaping @Sendable () -> Void) {
    self.gate = gate
    self.stop = stop
  }

  convenience init(hub: ChangeHub, id: UInt64, gate: DeliveryGate) {
    self.init(gate: gate) { hub.remove(id) }
  }

  /// Stops the observation. Cost: a few locks, and waiting for a delivery in progress.
  ///
  /// `observation.cancel()`
  public func cancel() {
    stop()
    gate.close()
  }

  deinit { cancel() }
}

/// A recursive lock held during each callback, so `close()` waits for a running delivery
/// yet a callback may cancel itself. ``Lock``, not `NSRecursiveLock`: every delivery to
/// every observer takes it, and Foundation's class is slower on Linux.
final class DeliveryGate: Sendable {
  private let isOpen = Lock(true, recursive: true)

  func deliver(_ body: () -> Void) {
    isOpen.whileLocked { isOpen in if isOpen { body() } }
  }

  func close() {
    isOpen.withLock { $0 = false }
  }
}
