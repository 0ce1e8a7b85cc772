#if !canImport(Darwin)
  import Synchronization  // availability: checked (Linux only: no Apple availability applies)
#endif

/// A count that its owner keeps under its own lock, mirrored so that a hot path can learn
/// that it is zero without taking that lock.
///
/// The owner still keeps the count under its lock and checks it there: the mirror only
/// lets it skip the lock when the count is zero. Why a skipped lock loses nothing: the
/// mirror is set only under the owner's lock, once per change of the count, so every
/// value a load can find is the count at some release of the lock, and a load that finds
/// zero decides as a lock taken at that release would have. What the load cannot see is a
/// change made after it, which a lock taken at the same moment could not see either; a
/// change that happened before it (the same thread, or ordered by any lock) is seen, by
/// the atomic's coherence alone. Sequentially consistent for simplicity: relaxed loads
/// and stores would be as correct.
///
/// On Linux the mirror is an `Atomic`. On Apple platforms `Atomic` needs macOS 15 and
/// iOS 18, later than the package's platforms, so there the mirror always says the count
/// may be nonzero and every path takes its owner's lock. Cost: one atomic load (Linux);
/// nothing (Apple platforms).
final class MirroredCount: Sendable {
  #if !canImport(Darwin)
    private let value = Atomic<Int>(0)
  #endif

  init() {}

  /// Whether the owner's count may be nonzero: `false` only when it was zero when last set.
  var mayBeNonzero: Bool {
    #if canImport(Darwin)
      true
    #else
      value.load(ordering: .sequentiallyConsistent) != 0
    #endif
  }

  /// Mirrors the owner's count; called under the owner's lock after each change.
  func set(_ count: Int) {
    #if !canImport(Darwin)
      value.store(count, ordering: .sequentiallyConsistent)
    #endif
  }
}
