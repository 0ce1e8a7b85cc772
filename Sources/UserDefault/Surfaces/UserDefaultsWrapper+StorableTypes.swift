import Foundation

// The storable-type check, part wrappers: the siblings of `UserDefaultsWrapper`'s initializers.
//
// Each initializer that takes a value type exists once per way the library stores a type.
// The ``UserDefaultable`` one is the only one not disfavored, so a type that is none of these
// gets one error, "requires that 'Point' conform to 'UserDefaultable'", instead of "no exact
// matches" and a note per overload. The pairs with `& Codable` keep a type that is also
// `Codable` stored as raw values without an ambiguity between two disfavored siblings, and
// the one with `RawRepresentable & _RawValueContainer & Codable` does the same for arrays an
// app's own extension makes `RawRepresentable` (checked in scripts/macro-diagnostics).
// Each sibling passes the bridge of its way of storing to the one internal initializer
// (ValueBridge+Declared.swift), so how a type is stored follows from the overload the
// compiler picked. The siblings are hidden from the documentation, which shows the
// UserDefaultable initializer of each form.
//
// Written by scripts/generate-storable-overloads.py (CI checks it): change it there.

extension UserDefaultsWrapper {
  // MARK: A value with a default

  /// A value stored under `key`, reading `defaultValue` when nothing is stored, for a
  /// `RawRepresentable` type, stored as its raw value.
  ///
  /// - Parameters:
  ///   - key: The stored name.
  ///   - defaultValue: What the property reads when nothing readable is stored.
  ///   - userDefaults: The store to use; `UserDefaults.libraryDefault` unless given.
  ///   - file: Where the property is declared, for the key registry.
  ///   - line: Where the property is declared, for the key registry.
  ///
  /// `@UserDefaultsWrapper(key: "Value", default: .dark) var value: Theme`
  @_disfavoredOverload @_documentation(visibility: internal)
  public init(
    key: String, default defaultValue: Value, userDefaults: UserDefaults = .libraryDefault,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value: RawRepresentable, Value.RawValue: UserDefaultable {
    self.init(
      key: key, default: .constant(defaultValue), userDefaults: userDefaults, bridge: .rawValue(),
      file: file, line: line)
  }

  /// A value stored under `key`, reading `defaultValue` when nothing is stored, for a type both
  /// `RawRepresentable` and `Codable`, stored as its raw value (not as JSON).
  ///
  /// - Parameters:
  ///   - key: The stored name.
  ///   - defaultValue: What the property reads when nothing readable is stored.
  ///   - userDefaults: The store to use; `UserDefaults.libraryDefault` unless given.
  ///   - file: Where the property is declared, for the key registry.
  ///   - line: Where the property is declared, for the key registry.
  ///
  /// `@UserDefaultsWrapper(key: "Value", default: .dark) var value: Theme`
  @_disfavoredOverload @_documentation(visibility: internal)
  public init(
    key: String, default defaultValue: Value, userDefaults: UserDefaults = .libraryDefault,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value: RawRepresentable & Codable, Value.RawValue: UserDefaultable {
    self.init(
      key: key, default: .constant(defaultValue), userDefaults: userDefaults, bridge: .rawValue(),
      file: file, line: line)
  }

  /// A value stored under `key`, reading `defaultValue` when nothing is stored, for an array, set,
  /// string-keyed dictionary or optional of `RawRepresentable` elements, stored element by element
  /// as raw values.
  ///
  /// - Parameters:
  ///   - key: The stored name.
  ///   - defaultValue: What the property reads when nothing readable is stored.
  ///   - userDefaults: The store to use; `UserDefaults.libraryDefault` unless given.
  ///   - file: Where the property is declared, for the key registry.
  ///   - line: Where the property is declared, for the key registry.
  ///
  /// `@UserDefaultsWrapper(key: "Value", default: []) var value: [Theme]`
  @_disfavoredOverload @_documentation(visibility: internal)
  public init(
    key: String, default defaultValue: Value, userDefaults: UserDefaults = .libraryDefault,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value: _RawValueContainer {
    self.init(
      key: key, default: .constant(defaultValue), userDefaults: userDefaults,
      bridge: .rawValueContainer(),
      file: file, line: line)
  }

  /// A value stored under `key`, reading `defaultValue` when nothing is stored, for a container of
  /// elements both `RawRepresentable` and `Codable`, stored as raw values (not as JSON).
  ///
  /// - Parameters:
  ///   - key: The stored name.
  ///   - defaultValue: What the property reads when nothing readable is stored.
  ///   - userDefaults: The store to use; `UserDefaults.libraryDefault` unless given.
  ///   - file: Where the property is declared, for the key registry.
  ///   - line: Where the property is declared, for the key registry.
  ///
  /// `@UserDefaultsWrapper(key: "Value", default: []) var value: [Theme]`
  @_disfavoredOverload @_documentation(visibility: internal)
  public init(
    key: String, default defaultValue: Value, userDefaults: UserDefaults = .libraryDefault,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value: _RawValueContainer & Codable {
    self.init(
      key: key, default: .constant(defaultValue), userDefaults: userDefaults,
      bridge: .rawValueContainer(),
      file: file, line: line)
  }

  /// A value stored under `key`, reading `defaultValue` when nothing is stored, for a container of
  /// raw-value elements that is itself `RawRepresentable` (as an app's own extension may make every
  /// `Codable` array, for SwiftUI's `@AppStorage`), stored as that raw value; without this overload
  /// such a key was ambiguous.
  ///
  /// - Parameters:
  ///   - key: The stored name.
  ///   - defaultValue: What the property reads when nothing readable is stored.
  ///   - userDefaults: The store to use; `UserDefaults.libraryDefault` unless given.
  ///   - file: Where the property is declared, for the key registry.
  ///   - line: Where the property is declared, for the key registry.
  ///
  /// `@UserDefaultsWrapper(key: "Value", default: []) var value: [Theme]`
  @_disfavoredOverload @_documentation(visibility: internal)
  public init(
    key: String, default defaultValue: Value, userDefaults: UserDefaults = .libraryDefault,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value: RawRepresentable & _RawValueContainer & Codable, Value.RawValue: UserDefaultable {
    self.init(
      key: key, default: .constant(defaultValue), userDefaults: userDefaults, bridge: .rawValue(),
      file: file, line: line)
  }

  /// A value stored under `key`, reading `defaultValue` when nothing is stored, for any other
  /// `Codable` type, stored as JSON (a collection element by element).
  ///
  /// - Parameters:
  ///   - key: The stored name.
  ///   - defaultValue: What the property reads when nothing readable is stored.
  ///   - userDefaults: The store to use; `UserDefaults.libraryDefault` unless given.
  ///   - file: Where the property is declared, for the key registry.
  ///   - line: Where the property is declared, for the key registry.
  ///
  /// `@UserDefaultsWrapper(key: "Value", default: Profile(name: "")) var value: Profile`
  @_disfavoredOverload @_documentation(visibility: internal)
  public init(
    key: String, default defaultValue: Value, userDefaults: UserDefaults = .libraryDefault,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value: Codable {
    self.init(
      key: key, default: .constant(defaultValue), userDefaults: userDefaults, bridge: .codable(),
      file: file, line: line)
  }

  /// A value stored under `key`, reading `defaultValue` when nothing is stored, for `[Any]` or
  /// `[String: Any]` (or an optional of them) holding property-list values.
  ///
  /// - Parameters:
  ///   - key: The stored name.
  ///   - defaultValue: What the property reads when nothing readable is stored.
  ///   - userDefaults: The store to use; `UserDefaults.libraryDefault` unless given.
  ///   - file: Where the property is declared, for the key registry.
  ///   - line: Where the property is declared, for the key registry.
  ///
  /// `@UserDefaultsWrapper(key: "Value", default: []) var value: [Any]`
  @_disfavoredOverload @_documentation(visibility: internal)
  public init(
    key: String, default defaultValue: Value, userDefaults: UserDefaults = .libraryDefault,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value: _PropertyListContainer {
    self.init(
      key: key, default: .constant(defaultValue), userDefaults: userDefaults,
      bridge: .propertyListContainer(),
      file: file, line: line)
  }

  // MARK: An optional value

  /// An optional value stored under `key`, `nil` when nothing is stored, for an optional of a
  /// `RawRepresentable` type, stored as its raw value.
  ///
  /// - Parameters:
  ///   - key: The stored name.
  ///   - userDefaults: The store to use; `UserDefaults.libraryDefault` unless given.
  ///   - file: Where the property is declared, for the key registry.
  ///   - line: Where the property is declared, for the key registry.
  ///
  /// `@UserDefaultsWrapper(key: "Value") var value: Theme?`
  @_disfavoredOverload @_documentation(visibility: internal)
  public init<Wrapped>(
    key: String, userDefaults: UserDefaults = .libraryDefault,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value == Wrapped?, Wrapped: RawRepresentable, Wrapped.RawValue: UserDefaultable {
    self.init(
      key: key, default: .constant(nil), userDefaults: userDefaults,
      bridge: .optional(ValueBridge<Wrapped>.rawValue()), file: file,
      line: line)
  }

  /// An optional value stored under `key`, `nil` when nothing is stored, for an optional of a type
  /// both `RawRepresentable` and `Codable`, stored as its raw value (not as JSON).
  ///
  /// - Parameters:
  ///   - key: The stored name.
  ///   - userDefaults: The store to use; `UserDefaults.libraryDefault` unless given.
  ///   - file: Where the property is declared, for the key registry.
  ///   - line: Where the property is declared, for the key registry.
  ///
  /// `@UserDefaultsWrapper(key: "Value") var value: Theme?`
  @_disfavoredOverload @_documentation(visibility: internal)
  public init<Wrapped>(
    key: String, userDefaults: UserDefaults = .libraryDefault,
    file: StaticString = #fileID, line: UInt = #line
  )
  where Value == Wrapped?, Wrapped: RawRepresentable & Codable, Wrapped.RawValue: UserDefaultable {
    self.init(
      key: key, default: .constant(nil), userDefaults: userDefaults,
      bridge: .optional(ValueBridge<Wrapped>.rawValue()), file: file,
      line: line)
  }

  /// An optional value stored under `key`, `nil` when nothing is stored, for an optional of an
  /// array, set, string-keyed dictionary or optional of `RawRepresentable` elements, stored element
  /// by element as raw values.
  ///
  /// - Parameters:
  ///   - key: The stored name.
  ///   - userDefaults: The store to use; `UserDefaults.libraryDefault` unless given.
  ///   - file: Where the property is declared, for the key registry.
  ///   - line: Where the property is declared, for the key registry.
  ///
  /// `@UserDefaultsWrapper(key: "Value") var value: [Theme]?`
  @_disfavoredOverload @_documentation(visibility: internal)
  public init<Wrapped>(
    key: String, userDefaults: UserDefaults = .libraryDefault,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value == Wrapped?, Wrapped: _RawValueContainer {
    self.init(
      key: key, default: .constant(nil), userDefaults: userDefaults,
      bridge: .optional(ValueBridge<Wrapped>.rawValueContainer()), file: file,
      line: line)
  }

  /// An optional value stored under `key`, `nil` when nothing is stored, for an optional of a
  /// container of elements both `RawRepresentable` and `Codable`, stored as raw values (not as
  /// JSON).
  ///
  /// - Parameters:
  ///   - key: The stored name.
  ///   - userDefaults: The store to use; `UserDefaults.libraryDefault` unless given.
  ///   - file: Where the property is declared, for the key registry.
  ///   - line: Where the property is declared, for the key registry.
  ///
  /// `@UserDefaultsWrapper(key: "Value") var value: [Theme]?`
  @_disfavoredOverload @_documentation(visibility: internal)
  public init<Wrapped>(
    key: String, userDefaults: UserDefaults = .libraryDefault,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value == Wrapped?, Wrapped: _RawValueContainer & Codable {
    self.init(
      key: key, default: .constant(nil), userDefaults: userDefaults,
      bridge: .optional(ValueBridge<Wrapped>.rawValueContainer()), file: file,
      line: line)
  }

  /// An optional value stored under `key`, `nil` when nothing is stored, for an optional of a
  /// container of raw-value elements that is itself `RawRepresentable` (as an app's own extension
  /// may make every `Codable` array, for SwiftUI's `@AppStorage`), stored as that raw value;
  /// without this overload such a key was ambiguous.
  ///
  /// - Parameters:
  ///   - key: The stored name.
  ///   - userDefaults: The store to use; `UserDefaults.libraryDefault` unless given.
  ///   - file: Where the property is declared, for the key registry.
  ///   - line: Where the property is declared, for the key registry.
  ///
  /// `@UserDefaultsWrapper(key: "Value") var value: [Theme]?`
  @_disfavoredOverload @_documentation(visibility: internal)
  public init<Wrapped>(
    key: String, userDefaults: UserDefaults = .libraryDefault,
    file: StaticString = #fileID, line: UInt = #line
  )
  where
    Value == Wrapped?, Wrapped: RawRepresentable & _RawValueContainer & Codable,
    Wrapped.RawValue: UserDefaultable
  {
    self.init(
      key: key, default: .constant(nil), userDefaults: userDefaults,
      bridge: .optional(ValueBridge<Wrapped>.rawValue()), file: file,
      line: line)
  }

  /// An optional value stored under `key`, `nil` when nothing is stored, for an optional of any
  /// other `Codable` type, stored as JSON (a collection element by element).
  ///
  /// - Parameters:
  ///   - key: The stored name.
  ///   - userDefaults: The store to use; `UserDefaults.libraryDefault` unless given.
  ///   - file: Where the property is declared, for the key registry.
  ///   - line: Where the property is declared, for the key registry.
  ///
  /// `@UserDefaultsWrapper(key: "Value") var value: Profile?`
  @_disfavoredOverload @_documentation(visibility: internal)
  public init<Wrapped>(
    key: String, userDefaults: UserDefaults = .libraryDefault,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value == Wrapped?, Wrapped: Codable {
    self.init(
      key: key, default: .constant(nil), userDefaults: userDefaults,
      bridge: .optional(ValueBridge<Wrapped>.codable()), file: file,
      line: line)
  }

  /// An optional value stored under `key`, `nil` when nothing is stored, for an optional of `[Any]`
  /// or `[String: Any]` (or an optional of them) holding property-list values.
  ///
  /// - Parameters:
  ///   - key: The stored name.
  ///   - userDefaults: The store to use; `UserDefaults.libraryDefault` unless given.
  ///   - file: Where the property is declared, for the key registry.
  ///   - line: Where the property is declared, for the key registry.
  ///
  /// `@UserDefaultsWrapper(key: "Value") var value: [Any]?`
  @_disfavoredOverload @_documentation(visibility: internal)
  public init<Wrapped>(
    key: String, userDefaults: UserDefaults = .libraryDefault,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value == Wrapped?, Wrapped: _PropertyListContainer {
    self.init(
      key: key, default: .constant(nil), userDefaults: userDefaults,
      bridge: .optional(ValueBridge<Wrapped>.propertyListContainer()), file: file,
      line: line)
  }
}
