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
/// by as much.
final class MonotonicCondition: @unchecked Sendable {
  // The pthread objects are only used through the calls below, which POSIX makes safe
  // from any thread; what callers guard with `lock()` is theirs to keep.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let condition: UnsafeMutablePointer<pthread_cond_t>

  init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    condition = .allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    #if canImport(Darwin)
      pthread_cond_init(condition, nil)  // waits below are relative: no clock to choose
    #else
      var attributes = pthread_condattr_t()
      pthread_condattr_init(&attributes)
      pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
      pthread_cond_init(condition, &attributes)
      pthread_condattr_destroy(&attributes)
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

  /// Waits until ``broadcast()`` or `nanoseconds` pass (or spuriously); call with the lock
  /// held, which is let go during the wait and held again after.
  func wait(nanoseconds: Int) {
    #if canImport(Darwin)
      var relative = timespec(
        tv_sec: nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
      pthread_cond_timedwait_relative_np(condition, mutex, &relative)
    #else
      var deadline = timespec()
      clock_gettime(CLOCK_MONOTONIC, &deadline)
      let total = Int(deadline.tv_nsec) + nanoseconds
      deadline.tv_sec += total / 1_000_000_000
      deadline.tv_nsec = total % 1_000_000_000
      pthread_cond_timedwait(condition, mutex, &deadline)
    #endif
  }
}
