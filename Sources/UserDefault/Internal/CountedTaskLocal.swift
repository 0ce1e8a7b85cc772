import PropertyListCodec

#if !canImport(Darwin)
  import Synchronization  // availability: checked (Linux only: no Apple availability applies)
#endif

/// A task-local value, and a count of the scopes that set it, open anywhere in the process.
///
/// Reading a task-local is costly, so a read first asks ``isSetAnywhere``: outside every
/// scope it pays one atomic load on Linux, and an uncontended lock on Apple platforms,
/// where `Atomic` needs macOS 15 / iOS 18.
final class CountedTaskLocal<Value: Sendable>: Sendable {
  private let local = TaskLocal<Value?>(wrappedValue: nil)
  #if !canImport(Darwin)
    private let openScopes = Atomic<Int>(0)
  #else
    private let openScopes = Lock(0)
  #endif

  var isSetAnywhere: Bool {
    #if !canImport(Darwin)
      openScopes.load(ordering: .sequentiallyConsistent) > 0
    #else
      openScopes.withLock { $0 > 0 }
    #endif
  }

  var current: Value? { isSetAnywhere ? local.get() : nil }

  /// Runs `operation` with `value` set for the current task (and, for the async form, its
  /// child tasks).
  func with<Result>(_ value: Value, _ operation: () throws -> Result) rethrows -> Result {
    adjust(by: 1)
    defer { adjust(by: -1) }
    return try local.withValue(value, operation: operation)
  }

  func with<Result>(
    _ value: Value, isolation: isolated (any Actor)?, _ operation: () async throws -> Result
  ) async rethrows -> Result {
    adjust(by: 1)
    defer { adjust(by: -1) }
    return try await local.withValue(value, operation: operation, isolation: isolation)
  }

  private func adjust(by change: Int) {
    #if !canImport(Darwin)
      openScopes.add(change, ordering: .sequentiallyConsistent)
    #else
      openScopes.withLock { $0 += change }
    #endif
  }
}
