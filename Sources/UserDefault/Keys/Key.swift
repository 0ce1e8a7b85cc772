import Foundation

extension UserDefaults {
  /// The namespace for typed keys: declare them as static members in an extension.
  ///
  /// ```swift
  /// extension UserDefaults.Keys {
  ///   static let launchCount = Key<Int>("launchCount", default: 0)
  /// }
  /// UserDefaults.standard[.launchCount] += 1
  /// ```
  ///
  /// ``Key`` inherits from it so `.launchCount` is found from a `Key<Int>` context.
  open class Keys: @unchecked Sendable {
    fileprivate init() {}

    /// Lets `Key<Int>(…)` be written unqualified inside `extension UserDefaults.Keys`.
    public typealias Key<Value: Sendable> = UserDefaults.Key<Value>
  }

  /// A typed, named value in any `UserDefaults`: its stored name, its type and its default.
  ///
  /// For ``UserDefaultable``, `RawRepresentable` and `Codable` types and their collections
  /// and optionals. Making one registers it with ``KeyRegistry``; an invalid name is
  /// reported and its writes refused.
  public final class Key<Value: Sendable>: Keys, @unchecked Sendable {
    // Immutable `let`s of Sendable types; `@unchecked` only because the superclass is open.

    /// The name the value is stored under.
    public let name: String
    @usableFromInline let descriptor: KeyDescriptor<Value>

    init(
      name: String, defaultValue: DefaultValue<Value>, bridge: ValueBridge<Value>,
      file: StaticString, line: UInt
    ) {
      self.name = name
      self.descriptor = KeyDescriptor(name: name, bridge: bridge, defaultValue: defaultValue)
      super.init()
      KeyName.validate(name, suite: nil)
      KeyRegistry.register(
        name: name, suite: nil, valueType: Value.self, declaredBy: "Key \(file):\(line)",
        defaultValue: defaultValue.summary)
    }

    /// A key whose value reads as `defaultValue` when nothing is stored.
    ///
    /// - Parameters:
    ///   - name: The name the value is stored under.
    ///   - defaultValue: What the key reads as when nothing readable is stored.
    ///   - file: Where the key is declared, for the key registry.
    ///   - line: Where the key is declared, for the key registry.
    ///
    /// `static let launchCount = Key<Int>("launchCount", default: 0)`
    public convenience init(
      _ name: String, default defaultValue: Value, file: StaticString = #fileID, line: UInt = #line
    ) where Value: UserDefaultable {
      self.init(
        name: name, defaultValue: .constant(defaultValue), bridge: .native(), file: file, line: line
      )
    }

    /// A key whose default is computed on each read that finds nothing, such as "now".
    ///
    /// - Parameters:
    ///   - name: The name the value is stored under.
    ///   - makeDefault: Makes the default; called on each read that finds nothing readable.
    ///   - file: Where the key is declared, for the key registry.
    ///   - line: Where the key is declared, for the key registry.
    ///
    /// `static let firstLaunch = Key<Date>("firstLaunch", default: { Date() })`
    public convenience init(
      _ name: String, default makeDefault: @escaping @Sendable () -> Value,
      file: StaticString = #fileID, line: UInt = #line
    ) where Value: UserDefaultable {
      self.init(
        name: name, defaultValue: .computed(makeDefault), bridge: .native(), file: file, line: line
      )
    }

    /// An optional key, `nil` when nothing is stored.
    ///
    /// - Parameters:
    ///   - name: The name the value is stored under.
    ///   - file: Where the key is declared, for the key registry.
    ///   - line: Where the key is declared, for the key registry.
    ///
    /// `static let nickname = Key<String?>("nickname")`
    public convenience init<Wrapped>(
      _ name: String, file: StaticString = #fileID, line: UInt = #line
    ) where Value == Wrapped?, Wrapped: UserDefaultable {
      self.init(
        name: name, defaultValue: .constant(nil), bridge: .optional(ValueBridge<Wrapped>.native()),
        file: file, line: line)
    }

    /// The value this key reads as when nothing is stored (evaluated now for a computed default).
    public var defaultValue: Value { descriptor.defaultValue.value }
  }
}

extension UserDefaults.Key: CustomStringConvertible {
  /// The key as it is declared: `Key<Theme>("theme", default: system)`.
  public var description: String {
    "Key<\(Value.self)>(\(name.debugDescription), default: \(descriptor.defaultValue.summary))"
  }
}

protocol NamedKey {
  var name: String { get }
}

extension UserDefaults.Key: NamedKey {}
