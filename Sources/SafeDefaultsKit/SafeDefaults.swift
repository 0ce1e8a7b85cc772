@_exported import Foundation
@_exported import UserDefault

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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
/// stored name in one suite are reported as a ``DefaultsDiagnostic/Kind/keyCollision``.
public protocol SafeDefaults {
  associatedtype Keys: DefaultsKey
  /// The store to use; `.standard` unless the conforming type says otherwise.
  var userDefaults: UserDefaults { get }
}

extension SafeDefaults {
  public var userDefaults: UserDefaults { .libraryDefault }

  @usableFromInline
  func name(of key: Keys) -> String {
    let name = key.uniqueValue
    KeyRegistry.registerEnumKey(
      name: name, in: userDefaults, declaredBy: "\(Self.self).Keys.\(key.rawValue)",
      owner: String(reflecting: Self.self))
    return name
  }

  /// `key` resolved for `Value` in this type's store: registered, its bridge and key
  /// path found. Done once per key, type, store and thread; then found in the thread's
  /// memo without a lock or a hash (see ``ResolvedKeys``).
  @inlinable
  func resolved<Value>(_ key: Keys, as _: Value.Type) -> ResolvedName<Value> {
    let defaults = userDefaults
    let bits = ResolvedKeys.bits(of: key)
    let memo = ResolvedKeys.current
    if let bits, let hit = memo.find(Self.self, Value.self, defaults, bits) {
      return unsafeDowncast(hit, to: ResolvedKeys.Entry<Value>.self).name
    }
    let name = ResolvedName<Value>(self.name(of: key))
    if let bits, ResolvedKeys.isEnum(key) {
      memo.keep(
        ResolvedKeys.Entry(defaults: defaults, name: name), Self.self, Value.self, defaults, bits)
    }
    return name
  }

  @inlinable
  func read<Value>(_ type: Value.Type, _ key: Keys) -> Value? {
    userDefaults.value(resolved(key, as: Value.self))
  }

  @inlinable
  func write<Value>(_ value: Value?, _ key: Keys) {
    userDefaults.set(value, for: resolved(key, as: Value.self))
  }

  // MARK: Getters

  /// The stored property-list object, or `nil`.
  @inlinable public func object(forKey key: Keys) -> Any? { read(Any.self, key) }
  /// The stored string, or `nil` when absent or not a string.
  @inlinable public func string(forKey key: Keys) -> String? { read(String.self, key) }
  /// The stored array, or `nil`.
  @inlinable public func array(forKey key: Keys) -> [Any]? { read([Any].self, key) }
  /// The stored array of strings, or `nil` when absent or holding anything else.
  @inlinable public func stringArray(forKey key: Keys) -> [String]? { read([String].self, key) }
  /// The stored dictionary, or `nil`.
  @inlinable public func dictionary(forKey key: Keys) -> [String: Any]? {
    read([String: Any].self, key)
  }
  /// The stored data, or `nil`.
  @inlinable public func data(forKey key: Keys) -> Data? { read(Data.self, key) }
  /// The stored URL (kept whole, web URLs included), or `nil`.
  @inlinable public func url(forKey key: Keys) -> URL? { read(URL.self, key) }
  /// The stored Boolean; `false` when absent.
  @inlinable public func bool(forKey key: Keys) -> Bool { read(Bool.self, key) ?? false }
  /// The stored integer, or `nil` when absent (unlike `UserDefaults`, which answers 0).
  @inlinable public func integer(forKey key: Keys) -> Int? { read(Int.self, key) }
  /// The stored double, or `nil` when absent.
  @inlinable public func double(forKey key: Keys) -> Double? { read(Double.self, key) }
  /// The stored float, or `nil` when absent.
  @inlinable public func float(forKey key: Keys) -> Float? { read(Float.self, key) }

  // MARK: Setters

  /// Stores a property-list value; `nil` removes. A value that is not a property list is
  /// refused and reported, and nothing is written.
  public func set(_ value: Any?, forKey key: Keys) {
    userDefaults.storeReportingErrors(value, forKey: name(of: key))
  }
  /// Stores a URL whole (not only its path); `nil` removes.
  @inlinable
  public func set(_ value: URL?, forKey key: Keys) {
    write(value, key)
  }
  /// Stores a Boolean.
  @inlinable
  public func set(_ value: Bool, forKey key: Keys) {
    write(value, key)
  }
  /// Stores an integer.
  @inlinable
  public func set(_ value: Int, forKey key: Keys) {
    write(value, key)
  }
  /// Stores a double.
  @inlinable
  public func set(_ value: Double, forKey key: Keys) {
    write(value, key)
  }
  /// Stores a float (read back exactly).
  @inlinable
  public func set(_ value: Float, forKey key: Keys) {
    write(value, key)
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

/// Each thread's memo of resolved keys: a direct-mapped table keyed by the `SafeDefaults`
/// type, the value type, the store and the key's bits. A hit costs a thread-specific load,
/// four compares and no lock; the table is the thread's own, so it needs none. Only for
/// enum keys (the documented form), whose bits name the case; other keys resolve on every
/// call, as before.
@usableFromInline
final class ResolvedKeys {
  /// One resolved key. Keeps its store alive, so the store's address cannot be reused by
  /// another store while the entry exists.
  /// What every entry has, whatever its value type: the store it was resolved for.
  @usableFromInline
  class AnyEntry {
    @usableFromInline let defaults: UserDefaults

    @usableFromInline
    init(defaults: UserDefaults) {
      self.defaults = defaults
    }
  }

  @usableFromInline
  final class Entry<Value>: AnyEntry {
    @usableFromInline let name: ResolvedName<Value>

    @usableFromInline
    init(defaults: UserDefaults, name: ResolvedName<Value>) {
      self.name = name
      super.init(defaults: defaults)
    }
  }

  private struct Slot {
    var owner: ObjectIdentifier?
    var value: ObjectIdentifier?
    var bits: UInt64 = 0
    var entry: AnyObject?
  }

  private static let size = 256
  private var slots = [Slot](repeating: Slot(), count: size)

  /// The entry for the key, or `nil`.
  @usableFromInline
  func find(_ owner: Any.Type, _ value: Any.Type, _ defaults: UserDefaults, _ bits: UInt64)
    -> AnyObject?
  {
    let slot = slots[Self.index(owner, defaults, bits)]
    guard slot.owner == ObjectIdentifier(owner), slot.value == ObjectIdentifier(value),
      slot.bits == bits, let entry = slot.entry,
      // Every slot holds an Entry, so an AnyEntry.
      unsafeDowncast(entry, to: AnyEntry.self).defaults === defaults
    else { return nil }
    return entry
  }

  @usableFromInline
  func keep(
    _ entry: AnyObject, _ owner: Any.Type, _ value: Any.Type, _ defaults: UserDefaults,
    _ bits: UInt64
  ) {
    slots[Self.index(owner, defaults, bits)] = Slot(
      owner: ObjectIdentifier(owner), value: ObjectIdentifier(value), bits: bits, entry: entry)
  }

  private static func index(_ owner: Any.Type, _ defaults: UserDefaults, _ bits: UInt64) -> Int {
    let mixed =
      UInt(bitPattern: ObjectIdentifier(owner)) &* 0x9E37_79B9
      ^ UInt(bitPattern: ObjectIdentifier(defaults)) >> 4 ^ UInt(bits) &* 0x85EB_CA6B
    return Int(mixed % UInt(size))
  }

  /// The key's bytes as a number when they are few and plain (an enum's case), or `nil`.
  @inlinable
  static func bits<Key>(of key: Key) -> UInt64? {
    guard _isPOD(Key.self), MemoryLayout<Key>.size <= 8 else { return nil }
    var bits: UInt64 = 0
    withUnsafeBytes(of: key) { source in
      withUnsafeMutableBytes(of: &bits) { $0.copyMemory(from: source) }
    }
    return bits
  }

  /// Whether `key` is an enum case: only then do its bits alone decide its name.
  @usableFromInline
  static func isEnum<Key>(_ key: Key) -> Bool {
    Mirror(reflecting: key).displayStyle == .enum
  }

  /// This thread's memo, made on its first use and released when the thread ends.
  @usableFromInline
  static var current: ResolvedKeys {
    if let existing = pthread_getspecific(threadKey) {
      return Unmanaged<ResolvedKeys>.fromOpaque(existing).takeUnretainedValue()
    }
    let made = ResolvedKeys()
    pthread_setspecific(threadKey, Unmanaged.passRetained(made).toOpaque())
    return made
  }

  private static let threadKey: pthread_key_t = {
    var key = pthread_key_t()
    #if canImport(Darwin)
      pthread_key_create(&key) { Unmanaged<ResolvedKeys>.fromOpaque($0).release() }
    #else
      pthread_key_create(&key) { pointer in
        if let pointer { Unmanaged<ResolvedKeys>.fromOpaque(pointer).release() }
      }
    #endif
    return key
  }()
}
