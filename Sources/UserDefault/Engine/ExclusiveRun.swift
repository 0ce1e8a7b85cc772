import Foundation

/// The one entry to ``StoreBackend/exclusively(_:)`` for the library's read-then-write
/// operations (`update(_:_:)`, `transaction(_:)`, migrations): it remembers, per thread,
/// which suites the thread is inside a run of, so that a second run of the same suite
/// started from inside the first (from its body, or from an observer it tells) is refused
/// with an error instead of waiting for a lock its own thread holds.
enum ExclusiveRun {
  /// The backends whose run the current thread is inside, innermost last.
  private final class OpenRuns {
    var backends: [ObjectIdentifier] = []
  }
  private static let open = PerThread { OpenRuns() }

  /// Runs `body` through `suiteBackend`'s ``StoreBackend/exclusively(_:)``.
  ///
  /// Cost beyond the run: a thread-specific lookup and an append.
  ///
  /// - Throws: ``DefaultsError`` of kind ``DefaultsDiagnostic/Kind/nestedUpdate`` when the
  ///   current thread is already inside a run of the same suite (nothing is run), or what
  ///   the run throws.
  static func run<Output>(
    on suiteBackend: any StoreBackend,
    _ body: (_ commit: () throws(DefaultsError) -> Void) throws(DefaultsError) -> Output
  ) throws(DefaultsError) -> Output {
    let identity = ObjectIdentifier(suiteBackend)
    let runs = open.current
    guard !runs.backends.contains(identity) else {
      throw nested(suite: suiteBackend.context.name)
    }
    runs.backends.append(identity)
    defer { runs.backends.removeLast() }
    return try suiteBackend.exclusively(body)
  }

  /// Whether the current thread is inside a run of `suiteBackend`: a flush asked for there is
  /// left to the run's commit, which holds the locks the flush would wait for.
  static func isOpen(on suiteBackend: any StoreBackend) -> Bool {
    open.current.backends.contains(ObjectIdentifier(suiteBackend))
  }

  /// The error of a run started inside another of the same suite.
  static func nested(suite: String?) -> DefaultsError {
    DefaultsError(
      .nestedUpdate,
      "an update, transaction or migration of suite \(suite ?? "standard") was started "
        + "inside another of the same suite (its body, or an observer it told); it was "
        + "refused and wrote nothing: make the change in the outer body instead")
  }
}
