#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A mutex with a condition variable whose timed waits follow a monotonic clock.
///
/// Why not `NSCondition` or `DispatchSemaphore`: on Linux both wait until a wall-clock
/// deadline (`CLOCK_REALTIME`), so setting the clock back during a wait stretches the wait
/// by as much. Like ``PerThread``, built on POSIX threads only (Linux, Musl, Darwin).
final class MonotonicCondition: @unchecked Sendable {
  // Used only through POSIX calls, safe from any thread.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let condition: UnsafeMutablePointer<pthread_cond_t>

  init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    precondition(pthread_mutex_init(mutex, nil) == 0, "no mutex")
    condition = .allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    #if canImport(Darwin)
      // Waits below are relative: no clock to choose.
      precondition(pthread_cond_init(condition, nil) == 0, "no condition variable")
    #else
      var attributes = pthread_condattr_t()
      pthread_condattr_init(&attributes)
      defer { pthread_condattr_destroy(&attributes) }
      precondition(
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC) == 0
          && pthread_cond_init(condition, &attributes) == 0,
        "no condition variable on the monotonic clock")
    #endif
  }

  deinit {
    pthread_cond_destroy(condition)
    condition.deinitialize(count: 1)
    condition.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  func lock() { pthread_mutex_lock(mutex) }
  func unlock() { pthread_mutex_unlock(mutex) }

  /// Wakes every thread waiting in ``wait(nanoseconds:)``.
  func broadcast() { pthread_cond_broadcast(condition) }

  /// Waits for ``broadcast()``, `nanoseconds`, or a spurious wake-up; the lock held.
  func wait(nanoseconds: Int) {
    precondition(nanoseconds >= 0, "a wait cannot be negative")
    #if canImport(Darwin)
      var relative = timespec(
        tv_sec: numericCast(nanoseconds / 1_000_000_000),
        tv_nsec: numericCast(nanoseconds % 1_000_000_000))
      pthread_cond_timedwait_relative_np(condition, mutex, &relative)
    #else
      var deadline = timespec()
      clock_gettime(CLOCK_MONOTONIC, &deadline)
      let total = Int(deadline.tv_nsec) + nanoseconds
      deadline.tv_sec += numericCast(total / 1_000_000_000)
      deadline.tv_nsec = numericCast(total % 1_000_000_000)
      pthread_cond_timedwait(condition, mutex, &deadline)
    #endif
  }
}
