#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// State guarded by a mutual-exclusion lock.
///
/// Not `Synchronization.Mutex`: on Linux it is built on raw futex calls the thread
/// sanitizer cannot see, so every access under it reads as a race; a pthread mutex keeps
/// `swift test --sanitize=thread` meaningful, at about the same cost. A recursive lock
/// lets a callback cancel its own observation during delivery.
@usableFromInline
package final class Lock<State>: @unchecked Sendable {
  // `state` is only read or written between locking and unlocking `mutex`.
  #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  #else
    @usableFromInline let mutex: NSLocking
  #endif
  @usableFromInline let state: UnsafeMutablePointer<State>

  /// - Parameters:
  ///   - initialState: The state the lock guards.
  ///   - recursive: Whether the holding thread may take the lock again.
  package init(_ initialState: State, recursive: Bool = false) {
    state = .allocate(capacity: 1)
    state.initialize(to: initialState)
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
      mutex = .allocate(capacity: 1)
      mutex.initialize(to: pthread_mutex_t())
      if recursive {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
      } else {
        pthread_mutex_init(mutex, nil)
      }
    #else
      mutex = recursive ? NSRecursiveLock() : NSLock()
    #endif
  }

  deinit {
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
      pthread_mutex_destroy(mutex)
      mutex.deallocate()
    #endif
    state.deinitialize(count: 1)
    state.deallocate()
  }

  /// Runs `body` with exclusive access to the state. Not reentrant, even on a recursive
  /// lock: `body` holds the state `inout` (see ``whileLocked(_:)``).
  @inlinable
  package func withLock<Result, Failure: Error>(
    _ body: (inout State) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    lock()
    defer { unlock() }
    return try body(&state.pointee)
  }

  /// Runs `body` with a copy of the state, holding the lock: on a recursive lock `body`
  /// may take it again, as it holds no access to the state.
  @inlinable
  package func whileLocked<Result>(_ body: (State) -> Result) -> Result {
    lock()
    defer { unlock() }
    let current = state.pointee
    return body(current)
  }

  @inlinable
  func lock() {
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
      pthread_mutex_lock(mutex)
    #else
      mutex.lock()
    #endif
  }

  @inlinable
  func unlock() {
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
      pthread_mutex_unlock(mutex)
    #else
      mutex.unlock()
    #endif
  }
}
