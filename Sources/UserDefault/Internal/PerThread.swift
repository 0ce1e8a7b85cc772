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
/// An ended thread's object is not released while the thread ends: it is set aside, and
/// the next thread to make its own object releases everything set aside. Releasing it
/// there would run deinitialisers (of stores, and whatever they hold) inside a
/// thread-specific-data destructor, and on Linux a destructor that reaches Dispatch on a
/// Dispatch worker thread after Dispatch's own cleanup for that thread has run makes
/// Dispatch clean up again and free its cached continuations a second time: the heap
/// corruption that aborted about half the full test runs ("malloc_consolidate():
/// unaligned fastbin chunk detected"; AddressSanitizer: "double-free in
/// _dispatch_cache_cleanup").
package final class PerThread<Value: AnyObject>: Sendable {
  @usableFromInline let key: pthread_key_t
  @usableFromInline let make: @Sendable () -> Value

  /// A key for objects made by `make`. Keys are never deleted: make one per use, in a
  /// `static let`.
  package init(_ make: @escaping @Sendable () -> Value) {
    self.make = make
    var key = pthread_key_t()
    #if canImport(Darwin)
      pthread_key_create(&key) { EndedThreads.setAside($0) }
    #else
      pthread_key_create(&key) { pointer in
        if let pointer { EndedThreads.setAside(pointer) }
      }
    #endif
    self.key = key
  }

  /// The current thread's object, made now if it has none.
  @inlinable
  package var current: Value {
    if let existing = pthread_getspecific(key) {
      return Unmanaged<Value>.fromOpaque(existing).takeUnretainedValue()
    }
    return makeCurrent()
  }

  @usableFromInline
  func makeCurrent() -> Value {
    let made = make()
    pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
    // After the thread has its object: a deinitialiser run here that comes back to this
    // key finds it, rather than making a second one over it.
    EndedThreads.releaseSetAside()
    return made
  }

  /// The key, for a hot path that reads it without going through this generic class
  /// (its metadata lookup cost a `SafeDefaults` read about 40 ns).
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
  /// Retained object pointers (`Unmanaged.toOpaque()` of a `passRetained`).
  private static let setAsideObjects = Lock<[UnsafeMutableRawPointer]>([])

  /// Called from a thread-specific-data destructor: only a lock and an append, nothing
  /// that could reach Dispatch.
  static func setAside(_ object: UnsafeMutableRawPointer) {
    setAsideObjects.withLock { $0.append(object) }
  }

  /// Releases what ended threads set aside (outside the lock: deinitialisers may run).
  static func releaseSetAside() {
    let objects = setAsideObjects.withLock { objects -> [UnsafeMutableRawPointer] in
      defer { objects = [] }
      return objects
    }
    for object in objects { Unmanaged<AnyObject>.fromOpaque(object).release() }
  }
}
