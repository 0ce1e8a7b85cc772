import Foundation

/// The default that `UserDefaults.withDefault(_:operation:)` gives a task and its child
/// tasks: the instance the library uses instead of `UserDefaults.standard` there.
///
/// A task-local, read only for `.standard` while a scope is open (``CountedTaskLocal``).
enum ScopedDefault {
  /// Foundation documents `UserDefaults` as thread-safe, though not `Sendable`.
  struct Scoped: @unchecked Sendable {
    let defaults: UserDefaults
  }

  private static let scoped = CountedTaskLocal<Scoped>()

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
