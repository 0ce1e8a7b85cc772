import Foundation

/// Finds the backend of a Foundation `UserDefaults` instance, remembered by identity.
///
/// Foundation does not say which suite an instance belongs to. On Linux its private
/// `suite` field is read by reflection, once; without that field, the instance gets a
/// backend of its own (reported once). On Apple platforms `.standard` is its suite and
/// any other instance gets its own (Darwin shares values and notifications itself). So
/// does a subclass other than ``PreferencesStore``, which keeps its own storage.
enum FoundationInstances {
  private struct Known {
    /// Weak, so the table keeps no instance alive; stale entries are swept. Compared by
    /// identity, so a new instance at a dead one's address never gets its backend.
    weak var instance: UserDefaults?
    let backend: FoundationSuite
  }

  private struct Table {
    var known: [ObjectIdentifier: Known] = [:]
    /// Twice the count left by the last sweep: each resolve pays a constant share.
    var sweepAt = minimumSweep
    var isUnidentifiedReported = false

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

  static func liveInstances() -> [UserDefaults] {
    table.withLock { $0.known.values.compactMap(\.instance) }
  }

  /// The number of instances remembered, stale entries included (for tests).
  static var rememberedCount: Int { table.withLock { $0.known.count } }

  /// `suiteField`: the private field naming the suite, a parameter so tests can miss it.
  static func backend(of defaults: UserDefaults, suiteField: String = "suite") -> FoundationSuite {
    withBackend(of: defaults, suiteField: suiteField) { $0 }
  }

  /// Calls `body` with the backend of `defaults`, borrowed: a read pays no retain and
  /// release. Safe: ``SuiteRegistry`` holds a suite's backend for ever, and the table an
  /// instance's own for as long as `defaults` lives.
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
      // Another thread resolved it meanwhile: its backend wins.
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

/// The last instance the thread resolved and its backend, so repeated reads skip the
/// table's lock. Held strongly, so the address it compares cannot be reused.
private final class LastResolved {
  private var instance: UserDefaults?
  private var backend: FoundationSuite?

  /// Unretained: it lives until the thread's next ``remember(_:_:)``.
  func backend(of defaults: UserDefaults) -> Unmanaged<FoundationSuite>? {
    guard instance === defaults, let backend else { return nil }
    return Unmanaged.passUnretained(backend)
  }

  func remember(_ instance: UserDefaults, _ backend: FoundationSuite) {
    (self.instance, self.backend) = (instance, backend)
  }

  static func withCurrent<Result>(_ body: (LastResolved) -> Result) -> Result {
    perThread.withCurrent(body)
  }

  private static let perThread = PerThread { LastResolved() }
}
