import Foundation

/// The default that `UserDefaults.withDefault(_:operation:)` gives a task and its child
/// tasks: the instance the library uses instead of `UserDefaults.standard` there.
///
/// A task-local, so it follows structured concurrency (`async let`, task groups) and not a
/// detached task; read only while some scope is open somewhere in the process, and only for
/// `.standard` (see ``CountedTaskLocal``): a read of any other instance pays nothing.
enum ScopedDefault {
  /// A `UserDefaults` carried by a task-local; Foundation documents `UserDefaults` as
  /// thread-safe (its methods lock inside) though it does not declare it `Sendable`.
  struct Scoped: @unchecked Sendable {
    let defaults: UserDefaults
  }

  private static let scoped = CountedTaskLocal<Scoped>()

  /// The innermost scope's default on the current task, if any.
  static var current: UserDefaults? { scoped.current?.defaults }

  /// Runs `operation` with `defaults` as the task's default.
  static func with<Result>(_ defaults: UserDefaults, _ operation: () throws -> Result) rethrows
    -> Result
  {
    try scoped.with(Scoped(defaults: defaults), operation)
  }

  /// Runs `operation` with `defaults` as the default of the task and its child tasks.
  static func with<Result>(
    _ defaults: UserDefaults, isolation: isolated (any Actor)?,
    _ operation: () async throws -> Result
  ) async rethrows -> Result {
    try await scoped.with(Scoped(defaults: defaults), isolation: isolation, operation)
  }
}
