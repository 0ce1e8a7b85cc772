import Foundation

#if !canImport(Darwin)
  import Synchronization  // availability: checked (Linux only: no Apple availability applies)
#endif

/// The default that `UserDefaults.withDefault(_:operation:)` gives a task and its child
/// tasks: the instance the library uses instead of `UserDefaults.standard` there.
///
/// A task-local, so it follows structured concurrency (`async let`, task groups) and not a
/// detached task. Reading a task-local costs tens of nanoseconds, so it is read only while
/// some scope is open somewhere in the process (``isOpenAnywhere``: one atomic load on
/// Linux), and only for `.standard`: a read outside every scope pays that load and nothing
/// else, and a read of any other instance not even that.
enum ScopedDefault {
  /// A `UserDefaults` carried by a task-local; Foundation documents `UserDefaults` as
  /// thread-safe (its methods lock inside) though it does not declare it `Sendable`.
  struct Scoped: @unchecked Sendable {
    let defaults: UserDefaults
  }

  @TaskLocal private static var scoped: Scoped?

  #if !canImport(Darwin)
    /// Scopes open in the process, in any task.
    private static let openScopes = Atomic<Int>(0)
  #else
    private static let openScopes = Lock(0)
  #endif

  /// Whether a scope is open in any task: when not, no read looks at the task-local.
  static var isOpenAnywhere: Bool {
    #if !canImport(Darwin)
      openScopes.load(ordering: .sequentiallyConsistent) > 0
    #else
      openScopes.withLock { $0 > 0 }
    #endif
  }

  /// The innermost scope's default on the current task, if any.
  static var current: UserDefaults? {
    isOpenAnywhere ? scoped?.defaults : nil
  }

  private static func open() {
    #if !canImport(Darwin)
      openScopes.add(1, ordering: .sequentiallyConsistent)
    #else
      openScopes.withLock { $0 += 1 }
    #endif
  }

  private static func close() {
    #if !canImport(Darwin)
      openScopes.subtract(1, ordering: .sequentiallyConsistent)
    #else
      openScopes.withLock { $0 -= 1 }
    #endif
  }

  /// Runs `operation` with `defaults` as the task's default.
  static func with<Result>(_ defaults: UserDefaults, _ operation: () throws -> Result) rethrows
    -> Result
  {
    open()
    defer { close() }
    return try $scoped.withValue(Scoped(defaults: defaults), operation: operation)
  }

  /// Runs `operation` with `defaults` as the default of the task and its child tasks.
  static func with<Result>(
    _ defaults: UserDefaults, isolation: isolated (any Actor)?,
    _ operation: () async throws -> Result
  ) async rethrows -> Result {
    open()
    defer { close() }
    return try await $scoped.withValue(
      Scoped(defaults: defaults), operation: operation, isolation: isolation)
  }
}
