import Foundation

// The storable-type check, part string-key properties: the siblings of `UserDefault`'s initializers, one per
// way the library stores a type. Only the ``UserDefaultable`` one is not disfavored, so a
// type that is none of these gets one error ("requires that 'Point' conform to
// 'UserDefaultable'") rather than a note per overload; the `& Codable` pairs keep a type
// that is also `Codable` stored as raw values without an ambiguity. Each passes its bridge
// to the one internal initializer (ValueBridge+Declared.swift).
//
// Written by scripts/generate-storable-overloads.py (CI checks it): change it there.

extension UserDefault {
  // MARK: A value with a default

  /// A value stored under `key`, reading `defaultValue` when nothing is stored, for a
  /// `RawRepresentable` type, stored as its raw value: `@UserDefault("value", defaultValue: .dark)
  /// var value: Theme`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public init(
    _ key: String, defaultValue: Value, suite: UserDefaults? = nil, defaults: UserDefaults? = nil,
    encoder: JSONEncoder? = nil, decoder: JSONDecoder? = nil,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value: RawRepresentable, Value.RawValue: UserDefaultable {
    self.init(
      key, default: .constant(defaultValue), suite: suite, defaults: defaults,
      bridge: .rawValue(), file: file, line: line)
  }

  /// A value stored under `key`, reading `defaultValue` when nothing is stored, for a type both
  /// `RawRepresentable` and `Codable`, stored as its raw value (not as JSON):
  /// `@UserDefault("value", defaultValue: .dark) var value: Theme`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public init(
    _ key: String, defaultValue: Value, suite: UserDefaults? = nil, defaults: UserDefaults? = nil,
    encoder: JSONEncoder? = nil, decoder: JSONDecoder? = nil,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value: RawRepresentable & Codable, Value.RawValue: UserDefaultable {
    self.init(
      key, default: .constant(defaultValue), suite: suite, defaults: defaults,
      bridge: .rawValue(), file: file, line: line)
  }

  /// A value stored under `key`, reading `defaultValue` when nothing is stored, for an array, set,
  /// string-keyed dictionary or optional of `RawRepresentable` elements, stored element by element
  /// as raw values: `@UserDefault("value", defaultValue: []) var value: [Theme]`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public init(
    _ key: String, defaultValue: Value, suite: UserDefaults? = nil, defaults: UserDefaults? = nil,
    encoder: JSONEncoder? = nil, decoder: JSONDecoder? = nil,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value: _RawValueContainer {
    self.init(
      key, default: .constant(defaultValue), suite: suite, defaults: defaults,
      bridge: .rawValueContainer(), file: file, line: line)
  }

  /// A value stored under `key`, reading `defaultValue` when nothing is stored, for a container of
  /// elements both `RawRepresentable` and `Codable`, stored as raw values (not as JSON):
  /// `@UserDefault("value", defaultValue: []) var value: [Theme]`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public init(
    _ key: String, defaultValue: Value, suite: UserDefaults? = nil, defaults: UserDefaults? = nil,
    encoder: JSONEncoder? = nil, decoder: JSONDecoder? = nil,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value: _RawValueContainer & Codable {
    self.init(
      key, default: .constant(defaultValue), suite: suite, defaults: defaults,
      bridge: .rawValueContainer(), file: file, line: line)
  }

  /// A value stored under `key`, reading `defaultValue` when nothing is stored, for a container of
  /// raw-value elements that is itself `RawRepresentable` (as an app's own extension may make every
  /// `Codable` array, for SwiftUI's `@AppStorage`), stored as that raw value; without this overload
  /// such a key was ambiguous: `@UserDefault("value", defaultValue: []) var value: [Theme]`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public init(
    _ key: String, defaultValue: Value, suite: UserDefaults? = nil, defaults: UserDefaults? = nil,
    encoder: JSONEncoder? = nil, decoder: JSONDecoder? = nil,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value: RawRepresentable & _RawValueContainer & Codable, Value.RawValue: UserDefaultable {
    self.init(
      key, default: .constant(defaultValue), suite: suite, defaults: defaults,
      bridge: .rawValue(), file: file, line: line)
  }

  /// A value stored under `key`, reading `defaultValue` when nothing is stored, for any other
  /// `Codable` type, stored as JSON (a collection element by element): `@UserDefault("value",
  /// defaultValue: Profile(name: "")) var value: Profile`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public init(
    _ key: String, defaultValue: Value, suite: UserDefaults? = nil, defaults: UserDefaults? = nil,
    encoder: JSONEncoder? = nil, decoder: JSONDecoder? = nil,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value: Codable {
    self.init(
      key, default: .constant(defaultValue), suite: suite, defaults: defaults,
      bridge: .codable(json: .custom(encoder: encoder, decoder: decoder)), file: file, line: line)
  }

  /// A value stored under `key`, reading `defaultValue` when nothing is stored, for `[Any]` or
  /// `[String: Any]` (or an optional of them) holding property-list values: `@UserDefault("value",
  /// defaultValue: []) var value: [Any]`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public init(
    _ key: String, defaultValue: Value, suite: UserDefaults? = nil, defaults: UserDefaults? = nil,
    encoder: JSONEncoder? = nil, decoder: JSONDecoder? = nil,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value: _PropertyListContainer {
    self.init(
      key, default: .constant(defaultValue), suite: suite, defaults: defaults,
      bridge: .propertyListContainer(), file: file, line: line)
  }

  // MARK: An optional value

  /// An optional value stored under `key`, `nil` when nothing is stored, for an optional of a
  /// `RawRepresentable` type, stored as its raw value: `@UserDefault("value") var value: Theme?`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public init<Wrapped>(
    _ key: String, suite: UserDefaults? = nil, defaults: UserDefaults? = nil,
    encoder: JSONEncoder? = nil, decoder: JSONDecoder? = nil,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value == Wrapped?, Wrapped: RawRepresentable, Wrapped.RawValue: UserDefaultable {
    self.init(
      key, default: .constant(nil), suite: suite, defaults: defaults,
      bridge: .optional(ValueBridge<Wrapped>.rawValue()), file: file, line: line)
  }

  /// An optional value stored under `key`, `nil` when nothing is stored, for an optional of a type
  /// both `RawRepresentable` and `Codable`, stored as its raw value (not as JSON):
  /// `@UserDefault("value") var value: Theme?`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public init<Wrapped>(
    _ key: String, suite: UserDefaults? = nil, defaults: UserDefaults? = nil,
    encoder: JSONEncoder? = nil, decoder: JSONDecoder? = nil,
    file: StaticString = #fileID, line: UInt = #line
  )
  where Value == Wrapped?, Wrapped: RawRepresentable & Codable, Wrapped.RawValue: UserDefaultable {
    self.init(
      key, default: .constant(nil), suite: suite, defaults: defaults,
      bridge: .optional(ValueBridge<Wrapped>.rawValue()), file: file, line: line)
  }

  /// An optional value stored under `key`, `nil` when nothing is stored, for an optional of an
  /// array, set, string-keyed dictionary or optional of `RawRepresentable` elements, stored element
  /// by element as raw values: `@UserDefault("value") var value: [Theme]?`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public init<Wrapped>(
    _ key: String, suite: UserDefaults? = nil, defaults: UserDefaults? = nil,
    encoder: JSONEncoder? = nil, decoder: JSONDecoder? = nil,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value == Wrapped?, Wrapped: _RawValueContainer {
    self.init(
      key, default: .constant(nil), suite: suite, defaults: defaults,
      bridge: .optional(ValueBridge<Wrapped>.rawValueContainer()), file: file, line: line)
  }

  /// An optional value stored under `key`, `nil` when nothing is stored, for an optional of a
  /// container of elements both `RawRepresentable` and `Codable`, stored as raw values (not as
  /// JSON): `@UserDefault("value") var value: [Theme]?`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public init<Wrapped>(
    _ key: String, suite: UserDefaults? = nil, defaults: UserDefaults? = nil,
    encoder: JSONEncoder? = nil, decoder: JSONDecoder? = nil,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value == Wrapped?, Wrapped: _RawValueContainer & Codable {
    self.init(
      key, default: .constant(nil), suite: suite, defaults: defaults,
      bridge: .optional(ValueBridge<Wrapped>.rawValueContainer()), file: file, line: line)
  }

  /// An optional value stored under `key`, `nil` when nothing is stored, for an optional of a
  /// container of raw-value elements that is itself `RawRepresentable` (as an app's own extension
  /// may make every `Codable` array, for SwiftUI's `@AppStorage`), stored as that raw value;
  /// without this overload such a key was ambiguous: `@UserDefault("value") var value: [Theme]?`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public init<Wrapped>(
    _ key: String, suite: UserDefaults? = nil, defaults: UserDefaults? = nil,
    encoder: JSONEncoder? = nil, decoder: JSONDecoder? = nil,
    file: StaticString = #fileID, line: UInt = #line
  )
  where
    Value == Wrapped?, Wrapped: RawRepresentable & _RawValueContainer & Codable,
    Wrapped.RawValue: UserDefaultable
  {
    self.init(
      key, default: .constant(nil), suite: suite, defaults: defaults,
      bridge: .optional(ValueBridge<Wrapped>.rawValue()), file: file, line: line)
  }

  /// An optional value stored under `key`, `nil` when nothing is stored, for an optional of any
  /// other `Codable` type, stored as JSON (a collection element by element): `@UserDefault("value")
  /// var value: Profile?`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public init<Wrapped>(
    _ key: String, suite: UserDefaults? = nil, defaults: UserDefaults? = nil,
    encoder: JSONEncoder? = nil, decoder: JSONDecoder? = nil,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value == Wrapped?, Wrapped: Codable {
    self.init(
      key, default: .constant(nil), suite: suite, defaults: defaults,
      bridge: .optional(
        ValueBridge<Wrapped>.codable(json: .custom(encoder: encoder, decoder: decoder))),
      file: file, line: line)
  }

  /// An optional value stored under `key`, `nil` when nothing is stored, for an optional of `[Any]`
  /// or `[String: Any]` (or an optional of them) holding property-list values:
  /// `@UserDefault("value") var value: [Any]?`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public init<Wrapped>(
    _ key: String, suite: UserDefaults? = nil, defaults: UserDefaults? = nil,
    encoder: JSONEncoder? = nil, decoder: JSONDecoder? = nil,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value == Wrapped?, Wrapped: _PropertyListContainer {
    self.init(
      key, default: .constant(nil), suite: suite, defaults: defaults,
      bridge: .optional(ValueBridge<Wrapped>.propertyListContainer()), file: file, line: line)
  }
}
