import Synchronization

/// Every key the program has declared, so that two declarations sharing a stored name
/// are caught.
///
/// A collision is two declarations with one stored name, in suites that can meet (a
/// typed key is not tied to a suite, so it meets every suite), that disagree on the value
/// type, or that come from two different `SafeDefaults` types (the trap of the enum-keyed
/// design). Each colliding pair is reported once through ``DefaultsDiagnostics``, naming
/// both declarations; both keep working. Cost: one lock and one lookup per registration.
public enum KeyRegistry {
  /// One declaration of a stored name.
  public struct Declaration: Hashable, Sendable, CustomStringConvertible {
    /// The stored name.
    public let name: String
    /// The suite the declaration is bound to; `nil` for typed keys, which can be used with any.
    public let suite: String?
    /// The declared value type, as written in Swift.
    public let valueType: String
    /// Who declared it: a source location, or the `SafeDefaults` type.
    public let declaredBy: String
    /// For `SafeDefaults` keys, the conforming type; two different owners of one name collide.
    public let owner: String?

    public var description: String {
      "\(declaredBy) (\(valueType) in \(suite ?? "any suite"))"
    }

    func collides(with other: Declaration) -> Bool {
      guard name == other.name, suite == nil || other.suite == nil || suite == other.suite else {
        return false
      }
      if let owner, let otherOwner = other.owner, owner != otherOwner { return true }
      return valueType != other.valueType
    }
  }

  private struct State {
    var byName: [String: [Declaration]] = [:]
    var reported: Set<[Declaration]> = []
  }

  private static let state = Lock(State())

  /// Every declaration registered so far, sorted by name.
  public static var declarations: [Declaration] {
    state.withLock { $0.byName.values.flatMap { $0 } }.sorted { $0.name < $1.name }
  }

  static func register(
    name: String, suite: String?, valueType: Any.Type, declaredBy: String, owner: String? = nil
  ) {
    let declaration = Declaration(
      name: name, suite: suite, valueType: String(reflecting: valueType), declaredBy: declaredBy,
      owner: owner)
    let collisions: [Declaration] = state.withLock { state in
      var existing = state.byName[name, default: []]
      guard !existing.contains(declaration) else { return [] }
      let clashing = existing.filter { $0.collides(with: declaration) }
      existing.append(declaration)
      state.byName[name] = existing
      return clashing.filter { state.reported.insert([$0, declaration]).inserted }
    }
    for other in collisions {
      DefaultsDiagnostics.report(
        .keyCollision, key: name, suite: suite ?? other.suite,
        "stored name \"\(name)\" is declared by \(other) and by \(declaration); they overwrite each other"
      )
    }
  }
}
