#if !canImport(Darwin)
  import Synchronization
#endif

/// A count that its owner keeps under its own lock, mirrored so that a hot path can learn
/// that it is zero without taking that lock.
///
/// Every write of a preference asks whether anyone listens, whether the decoded-value cache
/// records a failure, whether outside changes are watched; almost always the answer is no,
/// and each question was a lock taken and let go. The owner still keeps the count under
/// its lock and checks it there: the mirror only lets it skip the lock when the count is
/// zero. Set under the owner's lock, so a path that finds it nonzero and then takes the
/// lock sees the state the mirror came from, or a newer one. Sequentially consistent, as
/// the lock's order was: a path that wrote a value and then finds no listener is ordered
/// before any listener that registers later and then reads the value.
///
/// On Linux the mirror is an `Atomic`. On Apple platforms `Atomic` needs macOS 15 and
/// iOS 18, later than the package's platforms, so there the mirror always says the count
/// may be nonzero and every path takes its lock, as it did before. Cost: one atomic load
/// (Linux); nothing (Apple platforms).
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
