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
///
/// Cost: a key's first use on a thread resolves and registers its stored name (under a
/// lock); after that a get or set finds it in the thread's own memo, with no lock, and
/// costs what a typed key on the same store costs plus about 10 ns (the Performance
/// article, "A store's read found by number").
public protocol SafeDefaults {
  /// The enum naming the type's keys; each case's ``DefaultsKey/uniqueValue`` is its stored name.
  associatedtype Keys: DefaultsKey
  /// The store to use: `UserDefaults.libraryDefault` (`.standard` unless the app chose
  /// another) unless the conforming type says otherwise.
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

  /// Runs `body` with `key` resolved for `Value` in this type's store: registered, its
  /// bridge and key path found. Done once per key, type, store and thread; then found in
  /// the thread's memo without a lock or a hash (see ``ResolvedKeys``).
  @inlinable
  func withResolved<Value, Result>(
    _ key: Keys, as _: Value.Type, _ body: (ResolvedKeys.Entry<Value>) -> Result
  ) -> Result {
    // The store's identity, not the store: holding it would cost a retain per call. An
    // entry holds its store, so a live entry with this identity is this store.
    let store = ObjectIdentifier(userDefaults)
    let bits = ResolvedKeys.bits(of: key)
    if let bits, let hit = ResolvedKeys.find(Self.self, Value.self, store, bits) {
      return hit.borrow(as: Value.self, body)
    }
    let defaults = userDefaults
    let entry = ResolvedKeys.Entry(defaults: defaults, name: ResolvedName<Value>(name(of: key)))
    if let bits, ResolvedKeys.isEnum(key) {
      ResolvedKeys.keep(entry, Self.self, Value.self, defaults, bits)
    }
    return body(entry)
  }

  @inlinable
  func read<Value>(_ type: Value.Type, _ key: Keys) -> Value? {
    withResolved(key, as: Value.self) { $0.value() }
  }

  @inlinable
  func write<Value>(_ value: Value?, _ key: Keys) {
    withResolved(key, as: Value.self) { $0.set(value) }
  }

  // MARK: Getters

  /// The stored property-list object, as stored.
  ///
  /// - Parameters:
  ///   - key: The key to read; its first use registers its stored name.
  /// - Returns: The stored object, or `nil` when nothing is stored.
  ///
  /// `let raw = books.object(forKey: .title)`
  @inlinable public func object(forKey key: Keys) -> Any? { read(Any.self, key) }
  /// The stored string.
  ///
  /// - Parameters:
  ///   - key: The key to read; its first use registers its stored name.
  /// - Returns: The string, or `nil` when nothing is stored or the stored value is not a string
  ///   (reported).
  ///
  /// `let title = books.string(forKey: .title)`
  @inlinable public func string(forKey key: Keys) -> String? { read(String.self, key) }
  /// The stored array of property-list objects.
  ///
  /// - Parameters:
  ///   - key: The key to read; its first use registers its stored name.
  /// - Returns: The array, or `nil` when nothing is stored or the stored value is not an array
  ///   (reported).
  ///
  /// `let items = books.array(forKey: .title)`
  @inlinable public func array(forKey key: Keys) -> [Any]? { read([Any].self, key) }
  /// The stored array of strings.
  ///
  /// - Parameters:
  ///   - key: The key to read; its first use registers its stored name.
  /// - Returns: The strings, or `nil` when nothing is stored or the stored value is anything but an
  ///   array of strings (reported).
  ///
  /// `let tags = books.stringArray(forKey: .title)`
  @inlinable public func stringArray(forKey key: Keys) -> [String]? { read([String].self, key) }
  /// The stored dictionary.
  ///
  /// - Parameters:
  ///   - key: The key to read; its first use registers its stored name.
  /// - Returns: The dictionary, or `nil` when nothing is stored or the stored value is not a
  ///   dictionary with string keys (reported).
  ///
  /// `let info = books.dictionary(forKey: .title)`
  @inlinable public func dictionary(forKey key: Keys) -> [String: Any]? {
    read([String: Any].self, key)
  }
  /// The stored data.
  ///
  /// - Parameters:
  ///   - key: The key to read; its first use registers its stored name.
  /// - Returns: The data, or `nil` when nothing is stored or the stored value is not data
  ///   (reported).
  ///
  /// `let blob = books.data(forKey: .title)`
  @inlinable public func data(forKey key: Keys) -> Data? { read(Data.self, key) }
  /// The stored URL, kept whole (web URLs included, not only file paths).
  ///
  /// - Parameters:
  ///   - key: The key to read; its first use registers its stored name.
  /// - Returns: The URL, or `nil` when nothing is stored or the stored value is not a URL
  ///   (reported).
  ///
  /// `let link = books.url(forKey: .title)`
  @inlinable public func url(forKey key: Keys) -> URL? { read(URL.self, key) }
  /// The stored Boolean.
  ///
  /// - Parameters:
  ///   - key: The key to read; its first use registers its stored name.
  /// - Returns: The Boolean; `false` when nothing is stored or the stored value is not a Boolean
  ///   (reported).
  ///
  /// `let isRead = books.bool(forKey: .id)`
  @inlinable public func bool(forKey key: Keys) -> Bool { read(Bool.self, key) ?? false }
  /// The stored integer.
  ///
  /// - Parameters:
  ///   - key: The key to read; its first use registers its stored name.
  /// - Returns: The integer, or `nil` when nothing is stored (unlike `UserDefaults`, which answers
  ///   0) or the stored value is not an integer (reported).
  ///
  /// `let id = books.integer(forKey: .id)`
  @inlinable public func integer(forKey key: Keys) -> Int? { read(Int.self, key) }
  /// The stored double.
  ///
  /// - Parameters:
  ///   - key: The key to read; its first use registers its stored name.
  /// - Returns: The double, or `nil` when nothing is stored or the stored value cannot be read
  ///   as a double (reported).
  ///
  /// `let rating = books.double(forKey: .id)`
  @inlinable public func double(forKey key: Keys) -> Double? { read(Double.self, key) }
  /// The stored float.
  ///
  /// - Parameters:
  ///   - key: The key to read; its first use registers its stored name.
  /// - Returns: The float, or `nil` when nothing is stored or the stored value cannot be read as
  ///   a float (reported).
  ///
  /// `let rating = books.float(forKey: .id)`
  @inlinable public func float(forKey key: Keys) -> Float? { read(Float.self, key) }

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
  @inlinable
  public func set(_ value: URL?, forKey key: Keys) {
    write(value, key)
  }
  /// Stores a Boolean.
  ///
  /// - Parameters:
  ///   - value: The Boolean to store.
  ///   - key: The key to store under; its first use registers its stored name.
  ///
  /// `books.set(true, forKey: .id)`
  @inlinable
  public func set(_ value: Bool, forKey key: Keys) {
    write(value, key)
  }
  /// Stores an integer.
  ///
  /// - Parameters:
  ///   - value: The integer to store.
  ///   - key: The key to store under; its first use registers its stored name.
  ///
  /// `books.set(5, forKey: .id)`
  @inlinable
  public func set(_ value: Int, forKey key: Keys) {
    write(value, key)
  }
  /// Stores a double.
  ///
  /// - Parameters:
  ///   - value: The double to store.
  ///   - key: The key to store under; its first use registers its stored name.
  ///
  /// `books.set(4.5, forKey: .id)`
  @inlinable
  public func set(_ value: Double, forKey key: Keys) {
    write(value, key)
  }
  /// Stores a float (read back exactly).
  ///
  /// - Parameters:
  ///   - value: The float to store.
  ///   - key: The key to store under; its first use registers its stored name.
  ///
  /// `books.set(Float(4.5), forKey: .id)`
  @inlinable
  public func set(_ value: Float, forKey key: Keys) {
    write(value, key)
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

/// Each thread's memo of resolved keys: a direct-mapped table keyed by the `SafeDefaults`
/// type, the value type, the store and the key's bits. A hit costs a thread-specific load,
/// four compares and a class check of the entry, borrowed without a retain (see ``Hit``),
/// and no lock: the table is the thread's own. Only for enum keys (the documented form),
/// whose bits name the case; other keys resolve on every call.
@usableFromInline
final class ResolvedKeys {
  /// What every entry has, whatever its value type: the store it was resolved for. It
  /// keeps the store alive, so the store's address cannot be reused by another store
  /// while the entry exists.
  @usableFromInline
  class AnyEntry {
    @usableFromInline let defaults: UserDefaults

    @usableFromInline
    init(defaults: UserDefaults) {
      self.defaults = defaults
    }
  }

  /// One resolved key. Reads and writes through its own stored name, so that a call
  /// borrows the name rather than copying it (a copy retains each of its parts).
  @usableFromInline
  final class Entry<Value>: AnyEntry {
    @usableFromInline let name: ResolvedName<Value>

    @usableFromInline
    init(defaults: UserDefaults, name: ResolvedName<Value>) {
      self.name = name
      super.init(defaults: defaults)
    }

    /// The stored value, as a typed key reads it.
    @inlinable
    func value() -> Value? { defaults.value(name) }

    /// Stores `value` as a typed key writes it; `nil` removes.
    @inlinable
    func set(_ value: Value?) { defaults.set(value, for: name) }
  }

  /// An entry found in the current thread's memo.
  ///
  /// Only the memo holds the entry, and only `keep` on this same thread can replace it: a
  /// read that decodes through user code, or a write whose observers run, may use another
  /// key meanwhile. So while any borrow is in progress on the thread, `keep` sets the
  /// replaced entry aside instead of releasing it, and the last borrow to end lets go of
  /// what was set aside.
  @usableFromInline
  struct Hit {
    @usableFromInline let memo: Unmanaged<ResolvedKeys>
    @usableFromInline let entry: Unmanaged<AnyEntry>

    @usableFromInline
    init(memo: Unmanaged<ResolvedKeys>, entry: Unmanaged<AnyEntry>) {
      self.memo = memo
      self.entry = entry
    }

    /// Runs `body` with the entry, which was kept for `Value`, held for the call.
    @inlinable
    func borrow<Value, Result>(as _: Value.Type, _ body: (Entry<Value>) -> Result) -> Result {
      memo._withUnsafeGuaranteedRef { $0.borrows += 1 }
      defer { memo._withUnsafeGuaranteedRef { $0.endBorrow() } }
      // Not retained: the memo holds the entry, and `keep` sets it aside rather than
      // release it while a borrow is in progress. Every entry kept under `Value` is an
      // `Entry<Value>`, checked all the same by its class: one compare, where `as!` goes
      // through the runtime's general cast.
      return entry._withUnsafeGuaranteedRef { kept in
        precondition(
          ObjectIdentifier(type(of: kept)) == ObjectIdentifier(Entry<Value>.self),
          "a SafeDefaults memo entry was kept under another value type")
        return body(unsafeDowncast(kept, to: Entry<Value>.self))
      }
    }
  }

  private struct Slot {
    var owner: ObjectIdentifier?
    var value: ObjectIdentifier?
    var bits: UInt64 = 0
    var entry: AnyEntry?
  }

  private static let size = 256
  // Unchecked exclusivity: only this memo's own thread touches these (it is reached
  // through a thread-specific key), so the run-time access checks could never fire, and
  // they cost more than the rest of a hit.
  @exclusivity(unchecked) private var slots = [Slot](repeating: Slot(), count: size)
  /// Borrows of entries in progress on this thread (see ``Hit``).
  @exclusivity(unchecked) @usableFromInline var borrows = 0
  /// Entries replaced while a borrow was in progress, released when the last one ends.
  @exclusivity(unchecked) @usableFromInline var setAside: [AnyEntry] = []

  @inlinable
  func endBorrow() {
    borrows -= 1
    if borrows == 0, !setAside.isEmpty { setAside.removeAll() }
  }

  /// The current thread's entry for the key, or `nil`.
  @usableFromInline
  static func find(
    _ owner: Any.Type, _ value: Any.Type, _ store: ObjectIdentifier, _ bits: UInt64
  ) -> Hit? {
    guard let pointer = threadKey.pointer else { return nil }
    let memo = Unmanaged<ResolvedKeys>.fromOpaque(pointer)
    return memo._withUnsafeGuaranteedRef { memo -> Unmanaged<AnyEntry>? in
      memo.slots.withUnsafeBufferPointer { slots in
        let slot = slots.baseAddress! + index(owner, store, bits)
        guard slot.pointee.owner == ObjectIdentifier(owner),
          slot.pointee.value == ObjectIdentifier(value), slot.pointee.bits == bits,
          let entry = slot.pointee.entry, ObjectIdentifier(entry.defaults) == store
        else { return nil }
        return Unmanaged.passUnretained(entry)
      }
    }.map { Hit(memo: memo, entry: $0) }
  }

  /// Keeps `entry` in the current thread's memo, in place of whatever shared its slot.
  @usableFromInline
  static func keep(
    _ entry: AnyEntry, _ owner: Any.Type, _ value: Any.Type, _ defaults: UserDefaults,
    _ bits: UInt64
  ) {
    let memo = current
    let index = index(owner, ObjectIdentifier(defaults), bits)
    if memo.borrows > 0, let replaced = memo.slots[index].entry { memo.setAside.append(replaced) }
    memo.slots[index] = Slot(
      owner: ObjectIdentifier(owner), value: ObjectIdentifier(value), bits: bits, entry: entry)
  }

  private static func index(_ owner: Any.Type, _ store: ObjectIdentifier, _ bits: UInt64) -> Int {
    let mixed =
      UInt(bitPattern: ObjectIdentifier(owner)) &* 0x9E37_79B9
      ^ UInt(bitPattern: store) >> 4 ^ UInt(truncatingIfNeeded: bits ^ bits >> 32) &* 0x85EB_CA6B
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

  /// This thread's memo, made on its first use and released after the thread ends.
  private static var current: ResolvedKeys { perThread.current }

  private static let perThread = PerThread { ResolvedKeys() }
  private static let threadKey = perThread.threadKey
}
