import Foundation
import PropertyListCodec

/// A `UserDefaults` subclass carrying its own backend, to which every call is sent: how a
/// backend is added without touching the rest of the library.
protocol BackendCarrier: UserDefaults {
  /// The same object for the instance's whole life.
  var carriedBackend: any StoreBackend { get }
}

/// Finds the backend of a `UserDefaults` instance, remembered by identity.
///
/// Foundation does not say which suite an instance belongs to: on Linux its private
/// `suite` field is read by reflection, once (missing: a backend of its own, reported). On
/// Apple platforms any instance but `.standard` gets its own: Darwin shares values itself.
enum FoundationInstances {
  struct Known {
    /// Weak, so the table keeps no instance alive; stale entries are swept. Compared by
    /// identity, so a new instance at a dead one's address never gets its backend.
    weak var instance: UserDefaults?
    let backend: any StoreBackend
    /// The backend's, kept so a read tells the Observation framework without asking the
    /// backend for it (a call through the protocol that retains and releases).
    let tracking: TrackedKeys
    /// A scoped default stands in for the standard suite.
    let isStandard: Bool

    init(instance: UserDefaults, backend: any StoreBackend, isStandard: Bool) {
      self.instance = instance
      self.backend = backend
      self.tracking = backend.context.hub.tracking
      self.isStandard = isStandard
    }
  }

  private struct Table {
    var known: [ObjectIdentifier: Known] = [:]
    /// Twice the count left by the last sweep: each resolve pays a constant share.
    var sweepAt = minimumSweep
    var isUnidentifiedReported = false

    func entry(of defaults: UserDefaults) -> Known? {
      guard let known = known[ObjectIdentifier(defaults)], known.instance === defaults else {
        return nil
      }
      return known
    }

    mutating func remember(_ defaults: UserDefaults, _ entry: Known) {
      known[ObjectIdentifier(defaults)] = entry
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

  /// Stale entries included (for tests).
  static var rememberedCount: Int { table.withLock { $0.known.count } }

  /// `suiteField`: a parameter so tests can miss it.
  static func backend(
    of defaults: UserDefaults, suiteField: String = "suite"
  ) -> any StoreBackend {
    withBackend(of: defaults, suiteField: suiteField) { backend, _, _ in backend }
  }

  /// The thread's last resolved instance, else one lock and lookup.
  static func withBackend<Result>(
    of defaults: UserDefaults, suiteField: String = "suite",
    _ body: (_ backend: any StoreBackend, _ tracking: TrackedKeys, _ isStandard: Bool) -> Result
  ) -> Result {
    LastResolved.withCurrent { last in
      if let entry = last.entry(of: defaults) {
        last.beginBorrow()
        defer { last.endBorrow() }
        return entry._withUnsafeGuaranteedRef { body($0.backend, $0.tracking, $0.isStandard) }
      }
      let known = resolve(defaults, suiteField: suiteField)
      last.remember(defaults, known)
      return body(known.backend, known.tracking, known.isStandard)
    }
  }

  private static func resolve(_ defaults: UserDefaults, suiteField: String) -> Known {
    if let known = table.withLock({ $0.entry(of: defaults) }) { return known }
    ExitFlush.install()
    let suite = Suite(of: defaults, suiteField: suiteField)
    let backend: any StoreBackend
    switch suite {
    case .standard: backend = SuiteRegistry.foundationSuite(named: nil, fallback: defaults)
    case .named(let name): backend = SuiteRegistry.foundationSuite(named: name, fallback: defaults)
    case .carried: backend = (defaults as! any BackendCarrier).carriedBackend
    case .own(let description, _):
      backend = FoundationSuite(
        name: description, defaults: defaults, saving: .none, holdsInstance: false)
    }
    let entry = Known(instance: defaults, backend: backend, isStandard: suite == .standard)
    let (found, reportUnidentified) = table.withLock { table -> (Known, Bool) in
      // Another thread resolved it meanwhile: its backend wins.
      if let known = table.entry(of: defaults) { return (known, false) }
      table.remember(defaults, entry)
      guard case .own(_, let isFault) = suite else { return (entry, false) }
      defer { if isFault { table.isUnidentifiedReported = true } }
      return (entry, isFault && !table.isUnidentifiedReported)
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
    case carried
    /// `isFault`: its suite should have been found and was not.
    case own(description: String, isFault: Bool)

    init(of defaults: UserDefaults, suiteField: String) {
      if defaults === UserDefaults.standard {
        self = .standard
        return
      }
      if defaults is any BackendCarrier {
        self = .carried
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

/// So repeated reads skip the table's lock. Holds the instance strongly, so the address it
/// compares cannot be reused.
///
/// Its own entry, not a ``FoundationInstances/Known``: copying that copies a weak
/// reference. A call borrows the entry unretained, as retains and releases are atomic
/// operations (figures in the Performance article). Only this thread touches it: a call
/// made inside a borrow (an observer's read of another instance) that replaces the entry
/// sets the old one aside until the last borrow ends, rather than release it.
private final class LastResolved {
  final class Entry {
    let instance: UserDefaults
    let backend: any StoreBackend
    let tracking: TrackedKeys
    let isStandard: Bool

    init(_ instance: UserDefaults, _ known: FoundationInstances.Known) {
      (self.instance, self.backend) = (instance, known.backend)
      (self.tracking, self.isStandard) = (known.tracking, known.isStandard)
    }
  }

  // Unchecked exclusivity: only this object's own thread touches these (it is reached
  // through a thread-specific key), and the run-time checks cost more than a borrow.
  /// Unretained: `kept` holds it.
  @exclusivity(unchecked) private var entry: Unmanaged<Entry>?
  @exclusivity(unchecked) private var kept: Entry?
  /// Borrows of the entry in progress on this thread.
  @exclusivity(unchecked) private var borrows = 0
  /// Entries replaced while a borrow was in progress, released when the last one ends.
  @exclusivity(unchecked) private var setAside: [Entry] = []

  /// The entry, if it is `instance`'s, to borrow between ``beginBorrow()`` and
  /// ``endBorrow()``.
  @inline(__always)
  func entry(of instance: UserDefaults) -> Unmanaged<Entry>? {
    guard let entry, entry._withUnsafeGuaranteedRef({ $0.instance === instance }) else {
      return nil
    }
    return entry
  }

  @inline(__always)
  func beginBorrow() {
    borrows += 1
  }

  @inline(__always)
  func endBorrow() {
    borrows -= 1
    guard borrows == 0, !setAside.isEmpty else { return }
    // Emptied before the entries go: releasing one may end an instance whose deinit
    // reads through the library on this thread.
    let released = setAside
    setAside = []
    _ = released
  }

  func remember(_ instance: UserDefaults, _ known: FoundationInstances.Known) {
    let new = Entry(instance, known)
    entry = .passUnretained(new)
    let replaced = kept
    kept = new
    if borrows > 0, let replaced { setAside.append(replaced) }
    // Otherwise `replaced` goes here, once `entry` and `kept` name the new one.
  }

  static func withCurrent<Result>(_ body: (LastResolved) -> Result) -> Result {
    perThread.withCurrent(body)
  }

  private static let perThread = PerThread { LastResolved() }
}
