import Foundation

// The storable-type check, part wrappers: the siblings of `UserDefaultsWrapper`'s initializers, one per
// way the library stores a type. Only the ``UserDefaultable`` one is not disfavored, so a
// type that is none of these gets one error ("requires that 'Point' conform to
// 'UserDefaultable'") rather than a note per overload; the `& Codable` pairs keep a type
// that is also `Codable` stored as raw values without an ambiguity. Each passes its bridge
// to the one internal initializer (ValueBridge+Declared.swift).
//
// Written by scripts/generate-storable-overloads.py (CI checks it): change it there.

extension UserDefaultsWrapper {
  // MARK: A value with a default

  /// A value stored under `key`, reading `defaultValue` when nothing is stored, for a
  /// `RawRepresentable` type, stored as its raw value: `@UserDefaultsWrapper(key: "Value", default:
  /// .dark) var value: Theme`.
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
  /// `RawRepresentable` and `Codable`, stored as its raw value (not as JSON):
  /// `@UserDefaultsWrapper(key: "Value", default: .dark) var value: Theme`.
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
  /// as raw values: `@UserDefaultsWrapper(key: "Value", default: []) var value: [Theme]`.
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
  /// elements both `RawRepresentable` and `Codable`, stored as raw values (not as JSON):
  /// `@UserDefaultsWrapper(key: "Value", default: []) var value: [Theme]`.
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
  /// such a key was ambiguous: `@UserDefaultsWrapper(key: "Value", default: []) var value:
  /// [Theme]`.
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
  /// `Codable` type, stored as JSON (a collection element by element): `@UserDefaultsWrapper(key:
  /// "Value", default: Profile(name: "")) var value: Profile`.
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
  /// `[String: Any]` (or an optional of them) holding property-list values:
  /// `@UserDefaultsWrapper(key: "Value", default: []) var value: [Any]`.
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
  /// `RawRepresentable` type, stored as its raw value: `@UserDefaultsWrapper(key: "Value") var
  /// value: Theme?`.
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
  /// both `RawRepresentable` and `Codable`, stored as its raw value (not as JSON):
  /// `@UserDefaultsWrapper(key: "Value") var value: Theme?`.
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
  /// by element as raw values: `@UserDefaultsWrapper(key: "Value") var value: [Theme]?`.
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
  /// JSON): `@UserDefaultsWrapper(key: "Value") var value: [Theme]?`.
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
  /// without this overload such a key was ambiguous: `@UserDefaultsWrapper(key: "Value") var value:
  /// [Theme]?`.
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
  /// other `Codable` type, stored as JSON (a collection element by element):
  /// `@UserDefaultsWrapper(key: "Value") var value: Profile?`.
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
  /// or `[String: Any]` (or an optional of them) holding property-list values:
  /// `@UserDefaultsWrapper(key: "Value") var value: [Any]?`.
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
