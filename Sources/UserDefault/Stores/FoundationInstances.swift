import Foundation
import PropertyListCodec

/// Finds the backend of a Foundation `UserDefaults` instance, remembered by identity.
///
/// Foundation does not say which suite an instance belongs to. On Linux the instance's
/// private `suite` field is read by reflection, once per instance; if that field is not
/// found (another Foundation version), the instance gets a backend of its own, never the
/// standard suite's, and this is reported once. On Apple platforms private fields are not
/// read: `.standard` is its suite, and any other instance gets a backend of its own
/// (Darwin's instances of one suite share values by themselves, and the notifications
/// Darwin posts after every write reach observers of every instance). A subclass of
/// `UserDefaults` other than ``PreferencesStore`` keeps its own storage, so it gets a
/// backend of its own as well.
enum FoundationInstances {
  private struct Known {
    /// Weak, so the table keeps no instance alive (nor, for one with a backend of its own,
    /// that backend): the entry of an instance that is gone is stale, and is swept. Compared
    /// by identity before the entry is used, so an instance at the address of one that is
    /// gone never gets the other's backend.
    weak var instance: UserDefaults?
    let backend: FoundationSuite
  }

  private struct Table {
    var known: [ObjectIdentifier: Known] = [:]
    /// The entry count at which stale entries are swept next: twice the count left by the
    /// last sweep, so a sweep costs each resolve a constant share.
    var sweepAt = minimumSweep
    var isUnidentifiedReported = false

    /// The backend of `defaults`, if its entry is live.
    func backend(of defaults: UserDefaults) -> FoundationSuite? {
      guard let known = known[ObjectIdentifier(defaults)], known.instance === defaults else {
        return nil
      }
      return known.backend
    }

    mutating func remember(_ defaults: UserDefaults, _ backend: FoundationSuite) {
      known[ObjectIdentifier(defaults)] = Known(instance: defaults, backend: backend)
      guard known.count >= sweepAt else { return }
      known = known.filter { $0.value.instance != nil }
      sweepAt = max(Self.minimumSweep, known.count * 2)
    }

    static let minimumSweep = 256
  }

  private static let table = Lock(Table())

  /// The instances remembered that are still alive.
  static func liveInstances() -> [UserDefaults] {
    table.withLock { $0.known.values.compactMap(\.instance) }
  }

  /// The number of instances remembered, stale entries included (for tests).
  static var rememberedCount: Int { table.withLock { $0.known.count } }

  /// The backend of `defaults`. `suiteField` names the private field that holds an
  /// instance's suite name in swift-corelibs-foundation (a parameter so that tests can
  /// make the probe miss).
  static func backend(of defaults: UserDefaults, suiteField: String = "suite") -> FoundationSuite {
    withBackend(of: defaults, suiteField: suiteField) { $0 }
  }

  /// Calls `body` with the backend of `defaults`, borrowed: a read through here pays no
  /// retain and release of the backend (46 of a Foundation read's 12,900 instructions).
  ///
  /// The thread's record keeps the backend alive while `body` runs, as long as `body`
  /// resolves no other instance on this thread (which would replace the record). Besides,
  /// every backend has another holder while `body` runs: ``SuiteRegistry`` holds a suite's
  /// for the life of the process, and this type's table one an instance has of its own for
  /// as long as that instance lives, which the caller's `defaults` guarantees.
  ///
  /// - Parameters:
  ///   - defaults: The instance whose backend is wanted.
  ///   - suiteField: The private field naming the suite (see ``backend(of:suiteField:)``).
  ///   - body: What to do with the backend; it must not keep it.
  /// - Returns: What `body` returns.
  ///
  ///     FoundationInstances.withBackend(of: defaults) { $0.object(forKey: "k") }
  static func withBackend<Result>(
    of defaults: UserDefaults, suiteField: String = "suite", _ body: (FoundationSuite) -> Result
  ) -> Result {
    LastResolved.withCurrent { last in
      if let backend = last.backend(of: defaults) { return backend._withUnsafeGuaranteedRef(body) }
      let backend = resolve(defaults, suiteField: suiteField)
      last.remember(defaults, backend)
      return body(backend)
    }
  }

  private static func resolve(_ defaults: UserDefaults, suiteField: String) -> FoundationSuite {
    if let backend = table.withLock({ $0.backend(of: defaults) }) { return backend }
    ExitFlush.install()
    let suite = Suite(of: defaults, suiteField: suiteField)
    let backend: FoundationSuite
    switch suite {
    case .standard: backend = SuiteRegistry.foundationSuite(named: nil, fallback: defaults)
    case .named(let name): backend = SuiteRegistry.foundationSuite(named: name, fallback: defaults)
    case .own(let description, _):
      backend = FoundationSuite(
        name: description, defaults: defaults, saving: .none, holdsInstance: false)
    }
    let (found, reportUnidentified) = table.withLock { table -> (FoundationSuite, Bool) in
      // Another thread may have resolved the instance meanwhile: its backend wins.
      if let known = table.backend(of: defaults) { return (known, false) }
      table.remember(defaults, backend)
      guard case .own(_, let isFault) = suite else { return (backend, false) }
      defer { if isFault { table.isUnidentifiedReported = true } }
      return (backend, isFault && !table.isUnidentifiedReported)
    }
    if reportUnidentified, case .own(let description, _) = suite {
      DefaultsDiagnostics.report(
        .invalidSuite, key: nil, suite: description,
        "the suite of a UserDefaults instance could not be identified; it gets its own cache and observers, and the library does not save it"
      )
    }
    return found
  }

  /// Which suite an instance belongs to.
  enum Suite: Equatable {
    case standard
    case named(String)
    /// A backend scoped to the instance, named `description`; `isFault` when its suite
    /// should have been found and was not.
    case own(description: String, isFault: Bool)

    init(of defaults: UserDefaults, suiteField: String) {
      if defaults === UserDefaults.standard {
        self = .standard
        return
      }
      let description = "\(type(of: defaults)) instance"
      guard type(of: defaults) == UserDefaults.self else {
        self = .own(description: description, isFault: false)
        return
      }
      #if canImport(Darwin)
        self = .own(description: description, isFault: false)
      #else
        self =
          Self.reflecting(defaults, field: suiteField)
          ?? .own(description: description, isFault: true)
      #endif
    }

    /// The suite named by the instance's private field, if the field is found.
    static func reflecting(_ defaults: UserDefaults, field: String) -> Suite? {
      var mirror: Mirror? = Mirror(reflecting: defaults)
      while let current = mirror {
        for child in current.children where child.label == field {
          guard let name = child.value as? String? else { return nil }
          return name.map(Suite.named) ?? .standard
        }
        mirror = current.superclassMirror
      }
      return nil
    }
  }

}

/// The last instance the current thread resolved, and its backend, so that reads repeated
/// on one instance skip the table's lock (one `pthread_getspecific` instead). It holds the
/// instance strongly, so the address it compares cannot be reused while it is here; an
/// instance's backend never changes once resolved. Only its own thread touches it (an ended
/// thread's is released on another, see ``PerThread``).
private final class LastResolved {
  private var instance: UserDefaults?
  private var backend: FoundationSuite?

  /// The backend remembered for `defaults`, if `defaults` is the instance remembered,
  /// unretained: it lives as long as this record holds it, until the thread's next
  /// ``remember(_:_:)``.
  func backend(of defaults: UserDefaults) -> Unmanaged<FoundationSuite>? {
    guard instance === defaults, let backend else { return nil }
    return Unmanaged.passUnretained(backend)
  }

  func remember(_ instance: UserDefaults, _ backend: FoundationSuite) {
    (self.instance, self.backend) = (instance, backend)
  }

  /// Calls `body` with the current thread's record, borrowed (see ``PerThread``).
  static func withCurrent<Result>(_ body: (LastResolved) -> Result) -> Result {
    perThread.withCurrent(body)
  }

  private static let perThread = PerThread { LastResolved() }
}
