import Foundation

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

  /// Sends an event to the current handler, on the calling thread.
  ///
  /// Cost: a lock to read the handler (not held while it runs), plus whatever the handler does.
  ///
  /// - Parameters:
  ///   - event: The problem to report.
  ///
  /// `DefaultsDiagnostics.report(event)`
  static func report(_ event: DefaultsDiagnostic) {
    let handler = current.withLock { $0 }
    handler(event)
  }

  static func report(
    _ kind: DefaultsDiagnostic.Kind, key: String?, suite: String?, _ message: String
  ) {
    report(DefaultsDiagnostic(kind: kind, key: key, suite: suite, message: message))
  }
}
