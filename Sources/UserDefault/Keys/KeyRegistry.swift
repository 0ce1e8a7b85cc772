import PropertyListCodec

/// Every key the program has declared, so that two sharing a stored name are caught: in
/// suites that can meet, with different value types or `SafeDefaults` owners. Each pair is
/// reported once; both keep working. Cost: a lock and a lookup per registration.
public enum KeyRegistry {
  /// One declaration of a stored name.
  public struct Declaration: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The stored name.
    public let name: String
    /// The suite it is bound to; `nil` for typed keys, which fit any.
    public let suite: String?
    /// The declared value type, as written in Swift (`URL`, `[Theme]`), without modules.
    public let valueType: String
    /// With its module (`App.Theme`); not exported.
    fileprivate(set) var typeIdentity = ""
    /// Who declared it: a source location, or the `SafeDefaults` type.
    public let declaredBy: String
    /// For `SafeDefaults` keys, the conforming type; two owners of one name collide.
    public let owner: String?
    /// The default as text (`"0"`, `"nil"`); `nil` for enum keys.
    public let defaultValue: String?

    // Not the default: a computed one (a date) must not make a new declaration.
    public static func == (lhs: Declaration, rhs: Declaration) -> Bool {
      (lhs.name, lhs.suite, lhs.typeIdentity, lhs.declaredBy, lhs.owner)
        == (rhs.name, rhs.suite, rhs.typeIdentity, rhs.declaredBy, rhs.owner)
    }

    public func hash(into hasher: inout Hasher) {
      hasher.combine(name)
      hasher.combine(suite)
      hasher.combine(typeIdentity)
      hasher.combine(declaredBy)
      hasher.combine(owner)
    }

    public var description: String {
      "\(declaredBy) (\(valueType) in \(suite ?? "any suite"))"
    }

    func collides(with other: Declaration) -> Bool {
      guard name == other.name, suite == nil || other.suite == nil || suite == other.suite else {
        return false
      }
      if let owner, let otherOwner = other.owner, owner != otherOwner { return true }
      return typeIdentity != other.typeIdentity
    }

    private enum CodingKeys: String, CodingKey {
      case name, suite, valueType, declaredBy, owner, defaultValue
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
    name: String, suite: String?, valueType: Any.Type, declaredBy: String, owner: String? = nil,
    defaultValue: String? = nil
  ) {
    var declaration = Declaration(
      name: name, suite: suite, valueType: String(describing: valueType), declaredBy: declaredBy,
      owner: owner, defaultValue: defaultValue)
    declaration.typeIdentity = String(reflecting: valueType)
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

extension KeyRegistry {
  /// Those bound to `suite` (`nil`: all) and typed keys. Cost: a copy of the registry.
  static func declarations(usableIn suite: String?) -> [Declaration] {
    declarations.filter { suite == nil || $0.suite == nil || $0.suite == suite }
  }

  /// One tab-separated line per declaration: name, type, default, suite, declared by.
  ///
  /// - Parameters:
  ///   - suite: A suite name to list only what can be used with it; `nil` for everything.
  /// - Returns: The lines, joined by newlines; empty when nothing is declared.
  ///
  /// `print(KeyRegistry.exportText())`
  public static func exportText(suite: String? = nil) -> String {
    declarations(usableIn: suite).map { declaration in
      "\(declaration.name)\t\(declaration.valueType)\tdefault \(declaration.defaultValue ?? "none")"
        + "\t\(declaration.suite ?? "any suite")\t\(declaration.declaredBy)"
    }.joined(separator: "\n")
  }

  /// The declarations as a JSON array (sorted keys, one object per declaration).
  ///
  /// - Parameters:
  ///   - suite: A suite name to list only what can be used with it; `nil` for everything.
  /// - Returns: UTF-8 JSON text; `[]` when nothing is declared or encoding fails.
  ///
  /// `let json = KeyRegistry.exportJSON(suite: "group.app")`
  public static func exportJSON(suite: String? = nil) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return (try? encoder.encode(declarations(usableIn: suite))) ?? Data("[]".utf8)
  }
}

extension KeyRegistry {
  package static func registerEnumKey(
    name: String, in defaults: UserDefaults, declaredBy: String, owner: String
  ) {
    register(
      name: name, suite: defaults.access.suite.name ?? "standard", valueType: Any.self,
      declaredBy: declaredBy, owner: owner)
  }
}
