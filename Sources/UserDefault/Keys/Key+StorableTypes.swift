import Foundation

// The storable-type check, part keys: the siblings of `UserDefaults.Key`'s initializers, one per
// way the library stores a type. Only the ``UserDefaultable`` one is not disfavored, so a
// type that is none of these gets one error ("requires that 'Point' conform to
// 'UserDefaultable'") rather than a note per overload; the `& Codable` pairs keep a type
// that is also `Codable` stored as raw values without an ambiguity. Each passes its bridge
// to the one internal initializer (ValueBridge+Declared.swift).
//
// Written by scripts/generate-storable-overloads.py (CI checks it): change it there.

extension UserDefaults.Key {
  // MARK: A key with a default

  /// A key that reads as `defaultValue` when nothing is stored, for a `RawRepresentable` type,
  /// stored as its raw value: `static let value = Key<Theme>("value", default: .dark)`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public convenience init(
    _ name: String, default defaultValue: Value, file: StaticString = #fileID, line: UInt = #line
  ) where Value: RawRepresentable, Value.RawValue: UserDefaultable {
    self.init(
      name: name, defaultValue: .constant(defaultValue), bridge: .rawValue(), file: file, line: line
    )
  }

  /// A key that reads as `defaultValue` when nothing is stored, for a type both `RawRepresentable`
  /// and `Codable`, stored as its raw value (not as JSON): `static let value = Key<Theme>("value",
  /// default: .dark)`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public convenience init(
    _ name: String, default defaultValue: Value, file: StaticString = #fileID, line: UInt = #line
  ) where Value: RawRepresentable & Codable, Value.RawValue: UserDefaultable {
    self.init(
      name: name, defaultValue: .constant(defaultValue), bridge: .rawValue(), file: file, line: line
    )
  }

  /// A key that reads as `defaultValue` when nothing is stored, for an array, set, string-keyed
  /// dictionary or optional of `RawRepresentable` elements, stored element by element as raw
  /// values: `static let value = Key<[Theme]>("value", default: [])`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public convenience init(
    _ name: String, default defaultValue: Value, file: StaticString = #fileID, line: UInt = #line
  ) where Value: _RawValueContainer {
    self.init(
      name: name, defaultValue: .constant(defaultValue), bridge: .rawValueContainer(), file: file,
      line: line)
  }

  /// A key that reads as `defaultValue` when nothing is stored, for a container of elements both
  /// `RawRepresentable` and `Codable`, stored as raw values (not as JSON): `static let value =
  /// Key<[Theme]>("value", default: [])`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public convenience init(
    _ name: String, default defaultValue: Value, file: StaticString = #fileID, line: UInt = #line
  ) where Value: _RawValueContainer & Codable {
    self.init(
      name: name, defaultValue: .constant(defaultValue), bridge: .rawValueContainer(), file: file,
      line: line)
  }

  /// A key that reads as `defaultValue` when nothing is stored, for a container of raw-value
  /// elements that is itself `RawRepresentable` (as an app's own extension may make every `Codable`
  /// array, for SwiftUI's `@AppStorage`), stored as that raw value; without this overload such a
  /// key was ambiguous: `static let value = Key<[Theme]>("value", default: [])`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public convenience init(
    _ name: String, default defaultValue: Value, file: StaticString = #fileID, line: UInt = #line
  ) where Value: RawRepresentable & _RawValueContainer & Codable, Value.RawValue: UserDefaultable {
    self.init(
      name: name, defaultValue: .constant(defaultValue), bridge: .rawValue(), file: file, line: line
    )
  }

  /// A key that reads as `defaultValue` when nothing is stored, for any other `Codable` type,
  /// stored as JSON (a collection element by element): `static let value = Key<Profile>("value",
  /// default: Profile(name: ""))`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public convenience init(
    _ name: String, default defaultValue: Value, file: StaticString = #fileID, line: UInt = #line
  ) where Value: Codable {
    self.init(
      name: name, defaultValue: .constant(defaultValue), bridge: .codable(), file: file, line: line)
  }

  // MARK: A key with a computed default

  /// A key whose default is computed on each read that finds nothing stored, for a
  /// `RawRepresentable` type, stored as its raw value: `static let value = Key<Theme>("value",
  /// default: { .dark })`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public convenience init(
    _ name: String, default makeDefault: @escaping @Sendable () -> Value,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value: RawRepresentable, Value.RawValue: UserDefaultable {
    self.init(
      name: name, defaultValue: .computed(makeDefault), bridge: .rawValue(), file: file, line: line)
  }

  /// A key whose default is computed on each read that finds nothing stored, for a type both
  /// `RawRepresentable` and `Codable`, stored as its raw value (not as JSON): `static let value =
  /// Key<Theme>("value", default: { .dark })`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public convenience init(
    _ name: String, default makeDefault: @escaping @Sendable () -> Value,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value: RawRepresentable & Codable, Value.RawValue: UserDefaultable {
    self.init(
      name: name, defaultValue: .computed(makeDefault), bridge: .rawValue(), file: file, line: line)
  }

  /// A key whose default is computed on each read that finds nothing stored, for an array, set,
  /// string-keyed dictionary or optional of `RawRepresentable` elements, stored element by element
  /// as raw values: `static let value = Key<[Theme]>("value", default: { [] })`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public convenience init(
    _ name: String, default makeDefault: @escaping @Sendable () -> Value,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value: _RawValueContainer {
    self.init(
      name: name, defaultValue: .computed(makeDefault), bridge: .rawValueContainer(), file: file,
      line: line)
  }

  /// A key whose default is computed on each read that finds nothing stored, for a container of
  /// elements both `RawRepresentable` and `Codable`, stored as raw values (not as JSON): `static
  /// let value = Key<[Theme]>("value", default: { [] })`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public convenience init(
    _ name: String, default makeDefault: @escaping @Sendable () -> Value,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value: _RawValueContainer & Codable {
    self.init(
      name: name, defaultValue: .computed(makeDefault), bridge: .rawValueContainer(), file: file,
      line: line)
  }

  /// A key whose default is computed on each read that finds nothing stored, for a container of
  /// raw-value elements that is itself `RawRepresentable` (as an app's own extension may make every
  /// `Codable` array, for SwiftUI's `@AppStorage`), stored as that raw value; without this overload
  /// such a key was ambiguous: `static let value = Key<[Theme]>("value", default: { [] })`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public convenience init(
    _ name: String, default makeDefault: @escaping @Sendable () -> Value,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value: RawRepresentable & _RawValueContainer & Codable, Value.RawValue: UserDefaultable {
    self.init(
      name: name, defaultValue: .computed(makeDefault), bridge: .rawValue(), file: file, line: line)
  }

  /// A key whose default is computed on each read that finds nothing stored, for any other
  /// `Codable` type, stored as JSON (a collection element by element): `static let value =
  /// Key<Profile>("value", default: { Profile(name: "") })`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public convenience init(
    _ name: String, default makeDefault: @escaping @Sendable () -> Value,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value: Codable {
    self.init(
      name: name, defaultValue: .computed(makeDefault), bridge: .codable(), file: file, line: line)
  }

  // MARK: An optional key

  /// An optional key, `nil` when nothing is stored, for an optional of a `RawRepresentable` type,
  /// stored as its raw value: `static let value = Key<Theme?>("value")`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public convenience init<Wrapped>(
    _ name: String, file: StaticString = #fileID, line: UInt = #line
  ) where Value == Wrapped?, Wrapped: RawRepresentable, Wrapped.RawValue: UserDefaultable {
    self.init(
      name: name, defaultValue: .constant(nil), bridge: .optional(ValueBridge<Wrapped>.rawValue()),
      file: file, line: line)
  }

  /// An optional key, `nil` when nothing is stored, for an optional of a type both
  /// `RawRepresentable` and `Codable`, stored as its raw value (not as JSON): `static let value =
  /// Key<Theme?>("value")`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public convenience init<Wrapped>(
    _ name: String, file: StaticString = #fileID, line: UInt = #line
  )
  where Value == Wrapped?, Wrapped: RawRepresentable & Codable, Wrapped.RawValue: UserDefaultable {
    self.init(
      name: name, defaultValue: .constant(nil), bridge: .optional(ValueBridge<Wrapped>.rawValue()),
      file: file, line: line)
  }

  /// An optional key, `nil` when nothing is stored, for an optional of an array, set, string-keyed
  /// dictionary or optional of `RawRepresentable` elements, stored element by element as raw
  /// values: `static let value = Key<[Theme]?>("value")`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public convenience init<Wrapped>(
    _ name: String, file: StaticString = #fileID, line: UInt = #line
  ) where Value == Wrapped?, Wrapped: _RawValueContainer {
    self.init(
      name: name, defaultValue: .constant(nil),
      bridge: .optional(ValueBridge<Wrapped>.rawValueContainer()), file: file, line: line)
  }

  /// An optional key, `nil` when nothing is stored, for an optional of a container of elements both
  /// `RawRepresentable` and `Codable`, stored as raw values (not as JSON): `static let value =
  /// Key<[Theme]?>("value")`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public convenience init<Wrapped>(
    _ name: String, file: StaticString = #fileID, line: UInt = #line
  ) where Value == Wrapped?, Wrapped: _RawValueContainer & Codable {
    self.init(
      name: name, defaultValue: .constant(nil),
      bridge: .optional(ValueBridge<Wrapped>.rawValueContainer()), file: file, line: line)
  }

  /// An optional key, `nil` when nothing is stored, for an optional of a container of raw-value
  /// elements that is itself `RawRepresentable` (as an app's own extension may make every `Codable`
  /// array, for SwiftUI's `@AppStorage`), stored as that raw value; without this overload such a
  /// key was ambiguous: `static let value = Key<[Theme]?>("value")`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public convenience init<Wrapped>(
    _ name: String, file: StaticString = #fileID, line: UInt = #line
  )
  where
    Value == Wrapped?, Wrapped: RawRepresentable & _RawValueContainer & Codable,
    Wrapped.RawValue: UserDefaultable
  {
    self.init(
      name: name, defaultValue: .constant(nil), bridge: .optional(ValueBridge<Wrapped>.rawValue()),
      file: file, line: line)
  }

  /// An optional key, `nil` when nothing is stored, for an optional of any other `Codable` type,
  /// stored as JSON (a collection element by element): `static let value = Key<Profile?>("value")`.
  @_disfavoredOverload @_documentation(visibility: internal)
  public convenience init<Wrapped>(
    _ name: String, file: StaticString = #fileID, line: UInt = #line
  ) where Value == Wrapped?, Wrapped: Codable {
    self.init(
      name: name, defaultValue: .constant(nil), bridge: .optional(ValueBridge<Wrapped>.codable()),
      file: file, line: line)
  }
}
