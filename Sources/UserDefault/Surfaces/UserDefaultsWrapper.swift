import Foundation

/// A property stored in `UserDefaults` under a string key, with a removable projected value.
///
/// ```swift
/// final class User {
///   @UserDefaultsWrapper<String>(key: "FirstName", default: "John") var firstName
///   @UserDefaultsWrapper(key: "Age") var age: Int?
///   @UserDefaultsWrapper(key: "Old", default: 6) var old: Int?
/// }
/// user.$firstName.removeObject()   // reads "John" again
/// user.old = nil                   // removes the stored value: reads 6 again
/// ```
///
/// Values may be any type the library stores (``UserDefaultable``, `RawRepresentable`,
/// `Codable`), and heterogeneous `[Any]` / `[String: Any]` of property-list values; a
/// non-property-list element is refused and reported, and nothing is written. A
/// non-optional property needs a default: without one it does not compile.
@propertyWrapper
public struct UserDefaultsWrapper<Value> {
  @usableFromInline let key: KeyDescriptor<Value>
  /// The store the value lives in.
  @usableFromInline let userDefaults: UserDefaults

  /// A value stored under `key`, reading `defaultValue` when nothing is stored. For an
  /// optional property, assigning `nil` removes the stored value, so it reads the default.
  ///
  /// Registers `key` with ``KeyRegistry`` and checks the name (an invalid name is reported
  /// and its writes are refused).
  ///
  /// Takes `RawRepresentable` (as the raw value) and `Codable` (JSON) types too, and
  /// collections and optionals of those: shown here, the siblings for them behave alike.
  ///
  /// - Parameters:
  ///   - key: The stored name.
  ///   - defaultValue: What the property reads when nothing readable is stored.
  ///   - userDefaults: The store to use; `UserDefaults.libraryDefault` unless given.
  ///   - file: Where the property is declared, for the key registry.
  ///   - line: Where the property is declared, for the key registry.
  ///
  /// `@UserDefaultsWrapper(key: "FirstName", default: "John") var firstName: String`
  public init(
    key: String, default defaultValue: Value, userDefaults: UserDefaults = .libraryDefault,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value: UserDefaultable {
    self.init(
      key: key, default: .constant(defaultValue), userDefaults: userDefaults, bridge: .native(),
      file: file, line: line)
  }

  /// An optional value stored under `key`; `nil` when nothing is stored.
  ///
  /// Takes `RawRepresentable` (as the raw value) and `Codable` (JSON) types too, and
  /// collections and optionals of those: shown here, the siblings for them behave alike.
  ///
  /// - Parameters:
  ///   - key: The stored name.
  ///   - userDefaults: The store to use; `UserDefaults.libraryDefault` unless given.
  ///   - file: Where the property is declared, for the key registry.
  ///   - line: Where the property is declared, for the key registry.
  ///
  /// `@UserDefaultsWrapper(key: "Age") var age: Int?`
  public init<Wrapped>(
    key: String, userDefaults: UserDefaults = .libraryDefault,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value == Wrapped?, Wrapped: UserDefaultable {
    self.init(
      key: key, default: .constant(nil), userDefaults: userDefaults,
      bridge: .optional(ValueBridge<Wrapped>.native()), file: file, line: line)
  }

  /// Not available: a non-optional value has nothing to read when nothing is stored, so it
  /// needs `default:`. Without this declaration the compiler answered with its generic
  /// inference errors.
  ///
  /// - Parameters:
  ///   - key: The stored name.
  ///   - userDefaults: The store to use.
  ///   - file: Where the property is declared.
  ///   - line: Where the property is declared.
  ///
  /// `@UserDefaultsWrapper(key: "Age", default: 0) var age: Int` instead.
  @available(
    *, unavailable,
    message:
      "a non-optional value needs `default:`, as in @UserDefaultsWrapper(key: \"Age\", default: 0) var age: Int; or make the property optional"
  )
  @_disfavoredOverload  // below the optional one next, which an optional of any type matches
  public init(
    key: String, userDefaults: UserDefaults = .libraryDefault,
    file: StaticString = #fileID, line: UInt = #line
  ) {
    fatalError("unavailable")
  }

  /// Not available: the optional's wrapped type is not one the library can store. Without
  /// this declaration the unavailable initializer above would answer, with its advice about
  /// `default:`, which does not apply.
  ///
  /// - Parameters:
  ///   - key: The stored name.
  ///   - userDefaults: The store to use.
  ///   - file: Where the property is declared.
  ///   - line: Where the property is declared.
  ///
  /// `@UserDefaultsWrapper(key: "Origin") var origin: Point?` for a `Point: Codable` instead.
  @available(
    *, unavailable,
    message:
      "the optional's wrapped type is not one the library can store: conform it to Codable or UserDefaultable"
  )
  public init<Wrapped>(
    key: String, userDefaults: UserDefaults = .libraryDefault,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value == Wrapped? {
    fatalError("unavailable")
  }

  /// The one initializer every form calls, with the bridge its overload chose.
  init(
    key: String, default defaultValue: DefaultValue<Value>, userDefaults: UserDefaults,
    bridge: ValueBridge<Value>, file: StaticString, line: UInt
  ) {
    self.key = KeyDescriptor(name: key, bridge: bridge, defaultValue: defaultValue)
    self.userDefaults = userDefaults
    self.key.declare(in: userDefaults, declaredBy: "@UserDefaultsWrapper \(file):\(line)")
  }

  /// The stored value, or the default when nothing readable is stored.
  ///
  /// Reading costs a lookup plus, when the stored value changed since the last read, one
  /// decode. Writing costs an encode and the store's write; a value that cannot be stored is
  /// reported and nothing is written.
  ///
  /// `user.firstName = "Ada"`
  ///
  /// Inlinable, so a read is specialised for `Value` where it is made, as a typed key's is.
  @inlinable
  public var wrappedValue: Value {
    get { userDefaults.value(key) }
    nonmutating set { userDefaults.access.write(newValue, for: key) }
  }

  /// The stored entry: `$property.removeObject()`, `$property.key`, and more.
  public var projectedValue: StoredValue<Value> {
    StoredValue(defaults: userDefaults, key: key)
  }
}
