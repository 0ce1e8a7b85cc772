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

  /// The stored property-list object, as stored.
  ///
  /// - Parameters:
  ///   - key: The key to read; its first use registers its stored name.
  /// - Returns: The stored object, or `nil` when nothing is stored.
  ///
  /// `let raw = books.object(forKey: .title)`
  public func object(forKey key: Keys) -> Any? { read(Any.self, key) }
  /// The stored string.
  ///
  /// - Parameters:
  ///   - key: The key to read; its first use registers its stored name.
  /// - Returns: The string, or `nil` when nothing is stored or the stored value is not a string
  ///   (reported).
  ///
  /// `let title = books.string(forKey: .title)`
  public func string(forKey key: Keys) -> String? { read(String.self, key) }
  /// The stored array of property-list objects.
  ///
  /// - Parameters:
  ///   - key: The key to read; its first use registers its stored name.
  /// - Returns: The array, or `nil` when nothing is stored or the stored value is not an array
  ///   (reported).
  ///
  /// `let items = books.array(forKey: .title)`
  public func array(forKey key: Keys) -> [Any]? { read([Any].self, key) }
  /// The stored array of strings.
  ///
  /// - Parameters:
  ///   - key: The key to read; its first use registers its stored name.
  /// - Returns: The strings, or `nil` when nothing is stored or the stored value is anything but an
  ///   array of strings (reported).
  ///
  /// `let tags = books.stringArray(forKey: .title)`
  public func stringArray(forKey key: Keys) -> [String]? { read([String].self, key) }
  /// The stored dictionary.
  ///
  /// - Parameters:
  ///   - key: The key to read; its first use registers its stored name.
  /// - Returns: The dictionary, or `nil` when nothing is stored or the stored value is not a
  ///   dictionary with string keys (reported).
  ///
  /// `let info = books.dictionary(forKey: .title)`
  public func dictionary(forKey key: Keys) -> [String: Any]? { read([String: Any].self, key) }
  /// The stored data.
  ///
  /// - Parameters:
  ///   - key: The key to read; its first use registers its stored name.
  /// - Returns: The data, or `nil` when nothing is stored or the stored value is not data
  ///   (reported).
  ///
  /// `let blob = books.data(forKey: .title)`
  public func data(forKey key: Keys) -> Data? { read(Data.self, key) }
  /// The stored URL, kept whole (web URLs included, not only file paths).
  ///
  /// - Parameters:
  ///   - key: The key to read; its first use registers its stored name.
  /// - Returns: The URL, or `nil` when nothing is stored or the stored value is not a URL
  ///   (reported).
  ///
  /// `let link = books.url(forKey: .title)`
  public func url(forKey key: Keys) -> URL? { read(URL.self, key) }
  /// The stored Boolean.
  ///
  /// - Parameters:
  ///   - key: The key to read; its first use registers its stored name.
  /// - Returns: The Boolean; `false` when nothing is stored or the stored value is not a Boolean
  ///   (reported).
  ///
  /// `let isRead = books.bool(forKey: .id)`
  public func bool(forKey key: Keys) -> Bool { read(Bool.self, key) ?? false }
  /// The stored integer.
  ///
  /// - Parameters:
  ///   - key: The key to read; its first use registers its stored name.
  /// - Returns: The integer, or `nil` when nothing is stored (unlike `UserDefaults`, which answers
  ///   0) or the stored value is not an integer (reported).
  ///
  /// `let id = books.integer(forKey: .id)`
  public func integer(forKey key: Keys) -> Int? { read(Int.self, key) }
  /// The stored double.
  ///
  /// - Parameters:
  ///   - key: The key to read; its first use registers its stored name.
  /// - Returns: The double, or `nil` when nothing is stored or the stored value cannot be read
  ///   as a double (reported).
  ///
  /// `let rating = books.double(forKey: .id)`
  public func double(forKey key: Keys) -> Double? { read(Double.self, key) }
  /// The stored float.
  ///
  /// - Parameters:
  ///   - key: The key to read; its first use registers its stored name.
  /// - Returns: The float, or `nil` when nothing is stored or the stored value cannot be read as
  ///   a float (reported).
  ///
  /// `let rating = books.float(forKey: .id)`
  public func float(forKey key: Keys) -> Float? { read(Float.self, key) }

  // MARK: Setters

  /// Stores a property-list value; `nil` removes.
  ///
  /// The value is checked part by part first: one that is not a property list is refused and
  /// reported, and nothing is written. Cost: the check, then the store's write.
  ///
  /// - Parameters:
  ///   - value: A property list (`String`, a number, `Data`, `Date`, arrays and
  ///     dictionaries of them), or `nil` to remove the stored value.
  ///   - key: The key to store under; its first use registers its stored name.
  ///
  /// `books.set("Dune", forKey: .title)`
  public func set(_ value: Any?, forKey key: Keys) {
    userDefaults.storeReportingErrors(value, forKey: name(of: key))
  }
  /// Stores a URL whole (not only its path); `nil` removes.
  ///
  /// - Parameters:
  ///   - value: The URL, or `nil` to remove the stored value.
  ///   - key: The key to store under; its first use registers its stored name.
  ///
  /// `books.set(URL(string: "https://example.com/dune"), forKey: .title)`
  public func set(_ value: URL?, forKey key: Keys) {
    userDefaults.set(value, as: URL?.self, forKey: name(of: key))
  }
  /// Stores a Boolean.
  ///
  /// - Parameters:
  ///   - value: The Boolean to store.
  ///   - key: The key to store under; its first use registers its stored name.
  ///
  /// `books.set(true, forKey: .id)`
  public func set(_ value: Bool, forKey key: Keys) {
    userDefaults.set(value, as: Bool.self, forKey: name(of: key))
  }
  /// Stores an integer.
  ///
  /// - Parameters:
  ///   - value: The integer to store.
  ///   - key: The key to store under; its first use registers its stored name.
  ///
  /// `books.set(5, forKey: .id)`
  public func set(_ value: Int, forKey key: Keys) {
    userDefaults.set(value, as: Int.self, forKey: name(of: key))
  }
  /// Stores a double.
  ///
  /// - Parameters:
  ///   - value: The double to store.
  ///   - key: The key to store under; its first use registers its stored name.
  ///
  /// `books.set(4.5, forKey: .id)`
  public func set(_ value: Double, forKey key: Keys) {
    userDefaults.set(value, as: Double.self, forKey: name(of: key))
  }
  /// Stores a float (read back exactly).
  ///
  /// - Parameters:
  ///   - value: The float to store.
  ///   - key: The key to store under; its first use registers its stored name.
  ///
  /// `books.set(Float(4.5), forKey: .id)`
  public func set(_ value: Float, forKey key: Keys) {
    userDefaults.set(value, as: Float.self, forKey: name(of: key))
  }

  /// Removes the stored value, so the key reads as absent; observers are told.
  ///
  /// - Parameter key: The key whose value to remove.
  ///
  /// `books.removeObject(forKey: .title)`
  public func removeObject(forKey key: Keys) {
    userDefaults.removeValue(forKey: name(of: key))
  }
}

extension SafeDefaults where Keys: CaseIterable {
  /// Removes the stored value of every key this type declares.
  ///
  /// `books.removeAll()` (for a `BookDefaults` whose `Keys` are `CaseIterable`)
  public func removeAll() {
    for key in Keys.allCases { removeObject(forKey: key) }
  }
}
