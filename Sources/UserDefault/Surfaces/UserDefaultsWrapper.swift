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
/// Values: any type the library stores, and `[Any]` / `[String: Any]` of property-list
/// values (another element is reported, not written). A non-optional needs a default.
@propertyWrapper
public struct UserDefaultsWrapper<Value> {
  /// Boxed: the wrapper is copied wherever its owner is (a SwiftUI view, say), and a
  /// descriptor's fields would each be retained on every copy.
  @usableFromInline let box: DescriptorBox<Value>
  @usableFromInline let userDefaults: UserDefaults

  @inlinable var key: KeyDescriptor<Value> { box.descriptor }

  /// A value stored under `key`, reading `defaultValue` when nothing is (assigning `nil`
  /// to an optional removes it). Registers `key` with ``KeyRegistry``; an invalid name is
  /// reported and its writes refused.
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

  /// Not available: a non-optional value needs `default:`. Declared so the compiler says
  /// so instead of giving generic inference errors.
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

  /// Not available: the wrapped type is not storable. Declared so the one above does not
  /// answer with its advice about `default:`.
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

  init(
    key: String, default defaultValue: DefaultValue<Value>, userDefaults: UserDefaults,
    bridge: ValueBridge<Value>, file: StaticString, line: UInt
  ) {
    self.box = DescriptorBox(KeyDescriptor(name: key, bridge: bridge, defaultValue: defaultValue))
    self.userDefaults = userDefaults
    self.box.descriptor.declare(
      in: userDefaults, declaredBy: "@UserDefaultsWrapper \(file):\(line)")
  }

  /// The stored value, or the default when nothing readable is stored. A read costs a
  /// lookup, plus a decode when the value changed; a write an encode and the store's write
  /// (a value that cannot be stored is reported, not written).
  ///
  /// `user.firstName = "Ada"`
  @inlinable
  public var wrappedValue: Value {
    // `box.descriptor`, not `key`: a computed property hands back a copy of the
    // descriptor, a retain and release of each of its references on every call.
    get { userDefaults.value(box.descriptor) }
    nonmutating set { userDefaults.write(newValue, for: box.descriptor) }
  }

  /// The stored entry: `$property.removeObject()`, `$property.key`, and more.
  public var projectedValue: StoredValue<Value> {
    StoredValue(defaults: userDefaults, key: key)
  }
}
