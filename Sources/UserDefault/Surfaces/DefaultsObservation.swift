import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A registration made by `UserDefaults.observe(_:initial:_:)`; stops on ``cancel()`` or
/// when released.
///
/// After `cancel()` returns, the callback is not called again: a delivery running on
/// another thread is waited for, and cancelling from inside the callback is allowed.
public final class DefaultsObservation: Sendable {
  private let gate: DeliveryGate
  /// Takes the listener out of its hub (or its observer group); safe to call again.
  private let stop: @Sendable () -> Void

  init(gate: DeliveryGate, stop: @escaping @Sendable () -> Void) {
    self.gate = gate
    self.stop = stop
  }

  /// A registration of the hub listener `id`.
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

/// Serialises deliveries with cancellation: a recursive lock held during each callback,
/// so `close()` waits for a running delivery but a callback may cancel itself.
///
/// A pthread mutex rather than `NSRecursiveLock`: every delivery to every observer takes
/// it, and Foundation's class costs twice as much per lock and unlock on Linux.
final class DeliveryGate: @unchecked Sendable {
  // `isOpen` is read and written only while holding `mutex`.
  #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  #else
    private let mutex = NSRecursiveLock()
  #endif
  private var isOpen = true

  init() {
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
      mutex = .allocate(capacity: 1)
      mutex.initialize(to: pthread_mutex_t())
      var attributes = pthread_mutexattr_t()
      pthread_mutexattr_init(&attributes)
      pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
      pthread_mutex_init(mutex, &attributes)
      pthread_mutexattr_destroy(&attributes)
    #endif
  }

  deinit {
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
      pthread_mutex_destroy(mutex)
      mutex.deallocate()
    #endif
  }

  func deliver(_ body: () -> Void) {
    lock()
    defer { unlock() }
    if isOpen { body() }
  }

  func close() {
    lock()
    isOpen = false
    unlock()
  }

  private func lock() {
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
      pthread_mutex_lock(mutex)
    #else
      mutex.lock()
    #endif
  }

  private func unlock() {
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
      pthread_mutex_unlock(mutex)
    #else
      mutex.unlock()
    #endif
  }
}
