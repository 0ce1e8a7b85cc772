import PropertyListCodec

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One object per thread, made on the thread's first use and reached through a
/// thread-specific key (one `pthread_getspecific` per use).
///
/// An ended thread's object is set aside, and released by the next thread that makes its
/// own. Released in a thread-specific-data destructor, its deinitialisers could reach
/// Dispatch after Dispatch's cleanup for that thread, which then frees its cached
/// continuations twice: heap corruption ("double-free in _dispatch_cache_cleanup").
package final class PerThread<Value: AnyObject>: Sendable {
  @usableFromInline let key: pthread_key_t
  @usableFromInline let make: @Sendable () -> Value

  /// A key for objects made by `make`. Keys are never deleted: make one per use, in a
  /// `static let`.
  package init(_ make: @escaping @Sendable () -> Value) {
    self.make = make
    var key = pthread_key_t()
    #if canImport(Darwin)
      let created = pthread_key_create(&key) { EndedThreads.setAside($0) }
    #else
      let created = pthread_key_create(&key) { pointer in
        if let pointer { EndedThreads.setAside(pointer) }
      }
    #endif
    // Without a key of its own, `key` could name another owner's slot, whose pointers
    // would then be taken for `Value`s.
    precondition(created == 0, "no thread-specific key left (error \(created))")
    self.key = key
    // Made now, not on first use inside a thread's destructors (its one-time
    // initialisation may reach Dispatch).
    _ = EndedThreads.endingKey
  }

  /// The current thread's object, made now if it has none.
  @inlinable
  package var current: Value { withCurrent { $0 } }

  /// Calls `body` with the thread's object borrowed, not retained (only the thread's end
  /// lets it go): no atomic retain and release on every read.
  @inlinable
  package func withCurrent<Result>(_ body: (Value) -> Result) -> Result {
    if let existing = pthread_getspecific(key) {
      return Unmanaged<Value>.fromOpaque(existing)._withUnsafeGuaranteedRef(body)
    }
    return body(makeCurrent())
  }

  @usableFromInline
  func makeCurrent() -> Value {
    let made = make()
    let pointer = Unmanaged.passRetained(made).toOpaque()
    // Out of memory for the slot: the object serves this use only, and is not leaked.
    guard pthread_setspecific(key, pointer) == 0 else {
      Unmanaged<Value>.fromOpaque(pointer).release()
      return made
    }
    // After the thread has its object, so a deinitialiser here finds it; never on an
    // ending thread. (A thread whose first object is made in another key's destructor
    // carries no mark, and releases there.)
    if !EndedThreads.isCurrentThreadEnding { EndedThreads.releaseSetAside() }
    return made
  }

  /// The key, for a hot path that skips this generic class's metadata lookup.
  package var threadKey: ThreadKey { ThreadKey(key: key) }
}

/// The key of a ``PerThread``: `pointer` is the current thread's object if it has one, not
/// retained (valid while the thread runs: only the thread's end lets go of it).
package struct ThreadKey: Sendable {
  @usableFromInline let key: pthread_key_t

  @usableFromInline init(key: pthread_key_t) { self.key = key }

  @inlinable
  package var pointer: UnsafeMutableRawPointer? { pthread_getspecific(key) }
}

/// Objects of ended threads, waiting to be released on a thread that is not ending.
enum EndedThreads {
  private static let setAsideObjects = Lock<[UnsafeMutableRawPointer]>([])

  /// Marks threads whose destructors have begun. The slot's destructor sets it again once,
  /// so it lasts one more round; not for ever, as the thread sanitizer crashed on code run
  /// in the last round.
  static let endingKey: pthread_key_t = {
    var key = pthread_key_t()
    let created = pthread_key_create(&key) { mark in
      if Int(bitPattern: mark) == 1 {
        pthread_setspecific(EndedThreads.endingKey, UnsafeMutableRawPointer(bitPattern: 2))
      }
    }
    precondition(created == 0, "no thread-specific key left (error \(created))")
    return key
  }()

  static func markCurrentThreadEnding() {
    if pthread_getspecific(endingKey) == nil {
      pthread_setspecific(endingKey, UnsafeMutableRawPointer(bitPattern: 1))
    }
  }

  /// Called from a thread-specific-data destructor: only a lock and an append, nothing
  /// that could reach Dispatch.
  static func setAside(_ object: UnsafeMutableRawPointer) {
    markCurrentThreadEnding()
    setAsideObjects.withLock { $0.append(object) }
  }

  /// Whether the thread is running its destructors.
  static var isCurrentThreadEnding: Bool { pthread_getspecific(endingKey) != nil }

  /// Releases what ended threads set aside (outside the lock: deinitialisers may run).
  static func releaseSetAside() {
    let objects = setAsideObjects.withLock { objects -> [UnsafeMutableRawPointer] in
      defer { objects = [] }
      return objects
    }
    for object in objects { Unmanaged<AnyObject>.fromOpaque(object).release() }
  }
}
