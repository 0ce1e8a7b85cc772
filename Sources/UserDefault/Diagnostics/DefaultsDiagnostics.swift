import Foundation
import PropertyListCodec

/// The one place where the library reports problems it absorbed.
///
/// ```swift
/// DefaultsDiagnostics.handler = { event in logger.warning("\(event)") }
/// ```
///
/// The handler runs synchronously on the thread that met the problem, outside the
/// library's locks, so it may read or write defaults. Setting it costs a lock; reporting
/// costs a lock plus whatever the handler does.
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

  /// The handler of the innermost ``withHandler(_:operation:)`` of the current task.
  @TaskLocal private static var scoped: Handler?

  /// Runs `operation` with `handler` receiving the events this task and its child tasks
  /// raise, in place of the global ``handler``. Scopes nest; the innermost wins. Events
  /// raised on other threads (a background flush, the poll of a file) still go to the
  /// global handler.
  ///
  /// ```swift
  /// var events: [DefaultsDiagnostic] = []   // in a test: collect, then expect
  /// DefaultsDiagnostics.withHandler({ event in record(event) }) {
  ///   _ = defaults[.launchCount]   // a wrong type stored here reaches `record`
  /// }
  /// ```
  ///
  /// Cost: a task-local binding for the scope; each report reads it (tens of ns).
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

  /// ``withHandler(_:operation:)`` for asynchronous code: the scope covers the operation
  /// and every child task it starts.
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

  /// Sends an event to the current task's scoped handler, else the global one, on the
  /// calling thread.
  ///
  /// Cost: a task-local read and a lock to read the handler (not held while it runs),
  /// plus whatever the handler does.
  ///
  /// - Parameters:
  ///   - event: The problem to report.
  ///
  /// `DefaultsDiagnostics.report(event)`
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
