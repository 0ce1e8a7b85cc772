import Foundation

/// A type stored in `UserDefaults` through a property-list base value.
///
/// Conform by converting to and from a ``PropertyListValue`` ``BaseType``:
///
/// ```swift
/// struct Celsius: UserDefaultable {
///   var degrees: Double
///   init?(storableValue: Double) { degrees = storableValue }
///   var storableValue: Double { degrees }
/// }
/// ```
///
/// `RawRepresentable` (stored as the raw value, which wins) and `Codable` (JSON string)
/// types conform with an empty declaration; keys and wrappers need it only for
/// ``init(withKey:in:)`` and ``store(in:withKey:)`` in hand-written entries.
public protocol UserDefaultable {
  /// The property-list form the value is stored as.
  associatedtype BaseType: PropertyListValue
  /// Makes a value from its stored form.
  ///
  /// - Parameters:
  ///   - storableValue: The stored form, already read back as a ``BaseType``.
  ///
  /// `let warm = Celsius(storableValue: 21.5)`
  init?(storableValue: BaseType)
  /// The form the value is stored as.
  var storableValue: BaseType { get }

  /// The stored form of `value`. The library calls this, not ``storableValue``, so that a
  /// failure (a JSON encoding error) is reported and nothing written.
  ///
  /// - Parameters:
  ///   - value: The value to store.
  /// - Returns: The form `value` is stored as.
  /// - Throws: ``DefaultsError`` when `value` has no stored form; the default never throws.
  ///
  /// `let degrees = try Celsius.storableValue(of: Celsius(storableValue: 21.5)!)`
  static func storableValue(of value: Self) throws(DefaultsError) -> BaseType

  /// The value whose stored form is `base`, or an error that says why `base` is not one.
  ///
  /// - Parameters:
  ///   - base: The stored form, already read back as a ``BaseType``.
  /// - Returns: The value `base` stands for.
  /// - Throws: ``DefaultsError`` with ``DefaultsDiagnostic/Kind/undecodableValue`` when `base`
  ///   is not a valid value.
  ///
  /// `let warm = try Celsius.decoded(from: 21.5)`
  static func decoded(from base: BaseType) throws(DefaultsError) -> Self
}

extension UserDefaultable {
  public static func storableValue(of value: Self) throws(DefaultsError) -> BaseType {
    value.storableValue
  }
  public static func decoded(from base: BaseType) throws(DefaultsError) -> Self {
    guard let value = Self(storableValue: base) else {
      throw DefaultsError(
        .undecodableValue,
        "stored \(String(describing: base).prefix(80)) is not a valid \(Self.self)")
    }
    return value
  }
}

extension UserDefaultable {
  static func required(_ base: BaseType) throws(DefaultsError) -> Self {
    guard let value = Self(storableValue: base) else {
      throw DefaultsError(.undecodableValue, "not a valid \(Self.self)")
    }
    return value
  }
}

// MARK: - Values that are their own base type

extension UserDefaultable where Self: PropertyListValue, BaseType == Self {
  public init?(storableValue: Self) { self = storableValue }
  public var storableValue: Self { self }
}

// Primitives are also Codable; this more specific extension keeps them out of JSON.
extension UserDefaultable where Self: PropertyListValue & Codable, BaseType == Self {
  public init?(storableValue: Self) { self = storableValue }
  public var storableValue: Self { self }
  public static func storableValue(of value: Self) throws(DefaultsError) -> Self { value }
  public static func decoded(from base: Self) throws(DefaultsError) -> Self { base }
}

/// A value stored through a string that parses back with a failable initializer.
/// URL, UUID and Decimal are Codable too; this keeps them out of JSON.
@_documentation(visibility: internal)
public protocol StringStorable: UserDefaultable, Codable where BaseType == String {}

extension StringStorable {
  public static func storableValue(of value: Self) throws(DefaultsError) -> String {
    value.storableValue
  }
  public static func decoded(from base: String) throws(DefaultsError) -> Self {
    guard let value = Self(storableValue: base) else {
      throw DefaultsError(.undecodableValue, "\(base.debugDescription) is not a valid \(Self.self)")
    }
    return value
  }
}

extension Bool: UserDefaultable { public typealias BaseType = Bool }
extension String: UserDefaultable { public typealias BaseType = String }
extension Data: UserDefaultable { public typealias BaseType = Data }
extension Date: UserDefaultable { public typealias BaseType = Date }
extension Double: UserDefaultable { public typealias BaseType = Double }
extension Float: UserDefaultable { public typealias BaseType = Float }
extension Int: UserDefaultable { public typealias BaseType = Int }
extension Int8: UserDefaultable { public typealias BaseType = Int8 }
extension Int16: UserDefaultable { public typealias BaseType = Int16 }
extension Int32: UserDefaultable { public typealias BaseType = Int32 }
extension Int64: UserDefaultable { public typealias BaseType = Int64 }
extension UInt: UserDefaultable { public typealias BaseType = UInt }
extension UInt8: UserDefaultable { public typealias BaseType = UInt8 }
extension UInt16: UserDefaultable { public typealias BaseType = UInt16 }
extension UInt32: UserDefaultable { public typealias BaseType = UInt32 }
extension UInt64: UserDefaultable { public typealias BaseType = UInt64 }

// MARK: - Values stored through a string

/// Stored as `absoluteString`: Foundation on Linux would keep only the path of a web URL.
extension URL: StringStorable {
  public init?(storableValue: String) { self.init(string: storableValue) }
  public var storableValue: String { absoluteString }
}

/// Stored as its canonical string (`"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"`).
extension UUID: StringStorable {
  public init?(storableValue: String) { self.init(uuidString: storableValue) }
  public var storableValue: String { uuidString }
}

/// Stored as its decimal string: Foundation on Linux truncates a stored `Decimal` to an integer.
extension Decimal: StringStorable {
  public init?(storableValue: String) {
    self.init(string: storableValue, locale: Locale(identifier: "en_US_POSIX"))
  }
  public var storableValue: String {
    NSDecimalNumber(decimal: self).description(withLocale: Locale(identifier: "en_US_POSIX"))
  }
}

// MARK: - Collections and optionals

extension Array: UserDefaultable where Element: UserDefaultable {
  public init?(storableValue: [Element.BaseType]) {
    guard let elements = try? CollectionElements.map(storableValue, Element.required) else {
      return nil
    }
    self = elements
  }
  public var storableValue: [Element.BaseType] { map(\.storableValue) }
  public static func storableValue(of value: Self) throws(DefaultsError) -> [Element.BaseType] {
    try CollectionElements.map(value, Element.storableValue(of:))
  }
  public static func decoded(from base: [Element.BaseType]) throws(DefaultsError) -> Self {
    try CollectionElements.map(base, Element.decoded(from:))
  }
}

/// Stored as an array; reading an array with duplicates keeps one of each.
extension Set: UserDefaultable where Element: UserDefaultable {
  public init?(storableValue: [Element.BaseType]) {
    guard let elements = [Element](storableValue: storableValue) else { return nil }
    self.init(elements)
  }
  public var storableValue: [Element.BaseType] { map(\.storableValue) }
  public static func storableValue(of value: Self) throws(DefaultsError) -> [Element.BaseType] {
    try [Element].storableValue(of: Array(value))
  }
  public static func decoded(from base: [Element.BaseType]) throws(DefaultsError) -> Self {
    Set(try [Element].decoded(from: base))
  }
}

extension Dictionary: UserDefaultable where Key == String, Value: UserDefaultable {
  public init?(storableValue: [String: Value.BaseType]) {
    guard let values = try? CollectionElements.mapValues(storableValue, Value.required) else {
      return nil
    }
    self = values
  }
  public var storableValue: [String: Value.BaseType] { mapValues(\.storableValue) }
  public static func storableValue(of value: Self) throws(DefaultsError) -> [String: Value.BaseType]
  {
    try CollectionElements.mapValues(value, Value.storableValue(of:))
  }
  public static func decoded(from base: [String: Value.BaseType]) throws(DefaultsError) -> Self {
    try CollectionElements.mapValues(base, Value.decoded(from:))
  }
}

/// An optional is stored as its wrapped value; storing `nil` removes the stored value.
extension Optional: UserDefaultable where Wrapped: UserDefaultable {
  public init?(storableValue: Wrapped.BaseType?) {
    guard let base = storableValue else {
      self = nil
      return
    }
    guard let value = Wrapped(storableValue: base) else { return nil }
    self = value
  }
  public var storableValue: Wrapped.BaseType? { self?.storableValue }
  public static func storableValue(of value: Self) throws(DefaultsError) -> Wrapped.BaseType? {
    guard let value else { return nil }
    return try Wrapped.storableValue(of: value)
  }
  public static func decoded(from base: Wrapped.BaseType?) throws(DefaultsError) -> Self {
    guard let base else { return nil }
    return try Wrapped.decoded(from: base)
  }
}

// MARK: - Empty-declaration conformances

extension UserDefaultable where Self: RawRepresentable, RawValue: UserDefaultable {
  public init?(storableValue: RawValue.BaseType) {
    guard let value: Self = RawValueStorage.value(from: storableValue) else { return nil }
    self = value
  }
  public var storableValue: RawValue.BaseType { rawValue.storableValue }
  public static func storableValue(of value: Self) throws(DefaultsError) -> RawValue.BaseType {
    try RawValue.storableValue(of: value.rawValue)
  }
  public static func decoded(from base: RawValue.BaseType) throws(DefaultsError) -> Self {
    try RawValueStorage.decoded(from: base)
  }
}

/// Shared by both raw-value extensions (the `Codable` one must beat JSON's).
enum RawValueStorage {
  static func value<T: RawRepresentable>(from base: T.RawValue.BaseType) -> T?
  where T.RawValue: UserDefaultable {
    T.RawValue(storableValue: base).flatMap(T.init(rawValue:))
  }

  static func decoded<T: RawRepresentable>(from base: T.RawValue.BaseType) throws(DefaultsError)
    -> T
  where T.RawValue: UserDefaultable {
    try value(ofRaw: try T.RawValue.decoded(from: base))
  }

  static func value<T: RawRepresentable>(ofRaw raw: T.RawValue) throws(DefaultsError) -> T {
    guard let value = T(rawValue: raw) else {
      throw DefaultsError(.undecodableValue, "\(raw) is not a raw value of \(T.self)")
    }
    return value
  }
}

/// Stored as a JSON string made by ``JSONCoding/shared``.
extension UserDefaultable where Self: Codable {
  public init?(storableValue: String) {
    guard let value = try? Self.decoded(from: storableValue) else { return nil }
    self = value
  }
  /// The JSON text; empty if encoding fails (the library uses ``storableValue(of:)``).
  public var storableValue: String { (try? Self.storableValue(of: self)) ?? "" }
  public static func storableValue(of value: Self) throws(DefaultsError) -> String {
    try JSONValueCoding<Self>(json: .shared).text(of: value)
  }
  public static func decoded(from base: String) throws(DefaultsError) -> Self {
    try JSONValueCoding<Self>(json: .shared).decode(base)
  }
}

// A type that is both RawRepresentable and Codable is stored as its raw value.
extension UserDefaultable where Self: RawRepresentable & Codable, RawValue: UserDefaultable {
  public init?(storableValue: RawValue.BaseType) {
    guard let value: Self = RawValueStorage.value(from: storableValue) else { return nil }
    self = value
  }
  public var storableValue: RawValue.BaseType { rawValue.storableValue }
  public static func storableValue(of value: Self) throws(DefaultsError) -> RawValue.BaseType {
    try RawValue.storableValue(of: value.rawValue)
  }
  public static func decoded(from base: RawValue.BaseType) throws(DefaultsError) -> Self {
    try RawValueStorage.decoded(from: base)
  }
}
