@_exported import Foundation
@_exported import UserDefault

/// A key of a ``SafeDefaults`` type: a `String`-backed enum case.
///
/// ```swift
/// enum Keys: String, DefaultsKey {
///   case id, title
///   var uniqueValue: String { "BookDefaults.\(rawValue)" }   // optional
/// }
/// ```
public protocol DefaultsKey: RawRepresentable where RawValue == String {
  /// The name the value is stored under; the raw value unless the key says otherwise.
  var uniqueValue: String { get }
}

extension DefaultsKey {
  public var uniqueValue: String { rawValue }
}

/// Enum-keyed access to `UserDefaults`, with optional numeric getters (`nil` when nothing
/// is stored, where `UserDefaults` answers 0).
///
/// ```swift
/// struct BookDefaults: SafeDefaults {
///   enum Keys: String, DefaultsKey { case id, title }
/// }
/// let books = BookDefaults()
/// books.set(5, forKey: .id)
/// books.integer(forKey: .id)   // Optional(5)
/// ```
///
/// Every call goes through the library's bridging, so values read and write exactly as
/// with typed keys: a stored value of the wrong type reads as `nil` (reported), a value
/// Foundation cannot store is refused (reported), and `nil` removes. The first use of
/// each key registers its stored name; two `SafeDefaults` types whose keys share a
/// stored name in one suite are reported as a `DefaultsDiagnostic.Kind.keyCollision`.
public protocol SafeDefaults {
  /// The enum naming the type's keys; each case's ``DefaultsKey/uniqueValue`` is its stored name.
  associatedtype Keys: DefaultsKey
  /// The store to use; `.standard` unless the conforming type says otherwise.
  var userDefaults: UserDefaults { get }
}

extension SafeDefaults {
  public var userDefaults: UserDefaults { .libraryDefault }

  private func name(of key: Keys) -> String {
    let name = key.uniqueValue
    KeyRegistry.registerEnumKey(
      name: name, in: userDefaults, declaredBy: "\(Self.self).Keys.\(key.rawValue)",
      owner: String(reflecting: Self.self))
    return name
  }

  private func read<Value>(_ type: Value.Type, _ key: Keys) -> Value? {
    userDefaults.value(Value?.self, forKey: name(of: key))
  }

  // MARK: Getters

  /// The stored property-list object, or `nil`.
  public func object(forKey key: Keys) -> Any? { read(Any.self, key) }
  /// The stored string, or `nil` when absent or not a string.
  public func string(forKey key: Keys) -> String? { read(String.self, key) }
  /// The stored array, or `nil`.
  public func array(forKey key: Keys) -> [Any]? { read([Any].self, key) }
  /// The stored array of strings, or `nil` when absent or holding anything else.
  public func stringArray(forKey key: Keys) -> [String]? { read([String].self, key) }
  /// The stored dictionary, or `nil`.
  public func dictionary(forKey key: Keys) -> [String: Any]? { read([String: Any].self, key) }
  /// The stored data, or `nil`.
  public func data(forKey key: Keys) -> Data? { read(Data.self, key) }
  /// The stored URL (kept whole, web URLs included), or `nil`.
  public func url(forKey key: Keys) -> URL? { read(URL.self, key) }
  /// The stored Boolean; `false` when absent.
  public func bool(forKey key: Keys) -> Bool { read(Bool.self, key) ?? false }
  /// The stored integer, or `nil` when absent (unlike `UserDefaults`, which answers 0).
  public func integer(forKey key: Keys) -> Int? { read(Int.self, key) }
  /// The stored double, or `nil` when absent.
  public func double(forKey key: Keys) -> Double? { read(Double.self, key) }
  /// The stored float, or `nil` when absent.
  public func float(forKey key: Keys) -> Float? { read(Float.self, key) }

  // MARK: Setters

  /// Stores a property-list value; `nil` removes. A value that is not a property list is
  /// refused and reported, and nothing is written.
  public func set(_ value: Any?, forKey key: Keys) {
    userDefaults.storeReportingErrors(value, forKey: name(of: key))
  }
  /// Stores a URL whole (not only its path); `nil` removes.
  public func set(_ value: URL?, forKey key: Keys) {
    userDefaults.set(value, as: URL?.self, forKey: name(of: key))
  }
  /// Stores a Boolean.
  public func set(_ value: Bool, forKey key: Keys) {
    userDefaults.set(value, as: Bool.self, forKey: name(of: key))
  }
  /// Stores an integer.
  public func set(_ value: Int, forKey key: Keys) {
    userDefaults.set(value, as: Int.self, forKey: name(of: key))
  }
  /// Stores a double.
  public func set(_ value: Double, forKey key: Keys) {
    userDefaults.set(value, as: Double.self, forKey: name(of: key))
  }
  /// Stores a float (read back exactly).
  public func set(_ value: Float, forKey key: Keys) {
    userDefaults.set(value, as: Float.self, forKey: name(of: key))
  }

  /// Removes the stored value.
  public func removeObject(forKey key: Keys) {
    userDefaults.removeValue(forKey: name(of: key))
  }
}

extension SafeDefaults where Keys: CaseIterable {
  /// Removes the stored value of every key this type declares.
  public func removeAll() {
    for key in Keys.allCases { removeObject(forKey: key) }
  }
}
