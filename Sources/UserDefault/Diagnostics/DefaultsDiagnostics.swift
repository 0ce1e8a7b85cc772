import Foundation
import PropertyListCodec

/// The one place where the library reports problems it absorbed.
///
/// ```swift
/// DefaultsDiagnostics.handler = { event in logger.warning("\(event)") }
/// ```
///
/// The handler runs on the thread that met the problem, outside the library's locks.
/// Setting or reporting costs a lock.
public enum DefaultsDiagnostics {
  /// A function that receives each event.
  public typealias Handler = @Sendable (DefaultsDiagnostic) -> Void

  /// The handler that writes one line per event to standard error.
  public static let standardError: Handler = { event in
    FileHandle.standardError.write(Data((event.description + "\n").utf8))
  }

  private static let current = Lock<Handler>(standardError)

  /// The handler in force; ``standardError`` until replaced.
  public static var handler: Handler {
    get { current.withLock { $0 } }
    set { current.withLock { $0 = newValue } }
  }

  @TaskLocal private static var scoped: Handler?

  /// Runs `operation` with `handler` receiving this task's events instead of ``handler``;
  /// the innermost wins. Events on other threads (a background flush) still go globally.
  ///
  /// ```swift
  /// let events = Mutex<[DefaultsDiagnostic]>([])   // in a test: collect, then expect
  /// DefaultsDiagnostics.withHandler({ event in events.withLock { $0.append(event) } }) {
  ///   _ = defaults[.launchCount]   // a wrong type stored here reaches `events`
  /// }
  /// ```
  ///
  /// Cost: a task-local binding; each report reads it.
  ///
  /// - Parameters:
  ///   - handler: Receives the events raised inside `operation`.
  ///   - operation: The code to run.
  /// - Returns: What `operation` returns.
  /// - Throws: What `operation` throws.
  public static func withHandler<Result>(
    _ handler: @escaping Handler, operation: () throws -> Result
  ) rethrows -> Result {
    try $scoped.withValue(handler, operation: operation)
  }

  /// ``withHandler(_:operation:)`` for asynchronous code, child tasks included.
  ///
  /// - Parameters:
  ///   - handler: Receives the events raised inside `operation`.
  ///   - isolation: The actor the operation runs on; the caller's, by default.
  ///   - operation: The code to run.
  /// - Returns: What `operation` returns.
  /// - Throws: What `operation` throws.
  ///
  /// `await DefaultsDiagnostics.withHandler({ print($0) }) { await model.load() }`
  public static func withHandler<Result>(
    _ handler: @escaping Handler, isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> Result
  ) async rethrows -> Result {
    try await $scoped.withValue(handler, operation: operation, isolation: isolation)
  }

  /// To the task's scoped handler, else the global one; the lock is not held while it runs.
  static func report(_ event: DefaultsDiagnostic) {
    let handler = scoped ?? current.withLock { $0 }
    handler(event)
  }

  package static func report(
    _ kind: DefaultsDiagnostic.Kind, key: String?, suite: String?, _ message: String
  ) {
    report(DefaultsDiagnostic(kind: kind, key: key, suite: suite, message: message))
  }
}
