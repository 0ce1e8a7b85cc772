import Foundation

/// A property stored in `UserDefaults`: by string key, by typed key, or through an entry
/// declared on `UserDefaults`.
///
/// ```swift
/// struct AppSettings {
///   @UserDefault("is_discount_provided", defaultValue: false) var isDiscountProvided: Bool
///   @UserDefault("default_user") var defaultUser: User?        // any Codable type
///   @UserDefault(.theme) var theme                              // a typed key
///   @UserDefault(\.exampleWithDefault) var example              // an entry on UserDefaults
/// }
/// ```
///
/// Every form reads and writes through the library's one bridging and cache, so they
/// agree with each other and with typed keys on how each type is stored. Assigning `nil`
/// to an optional removes the stored value. `$property` is a ``StoredValue``.
///
/// On a `static var` in the Swift 6 language mode, isolate the enclosing type to a global
/// actor (`@MainActor enum Flags { @UserDefault("flag", defaultValue: false) static var
/// flag: Bool }`): Swift 6.3 refuses `nonisolated(unsafe)` on a wrapped property. Typed
/// keys (`UserDefaults.Key`, `static let`) need neither.
@propertyWrapper
public struct UserDefault<Value> {
  // Exactly one of `key` and `entry` is set. Not an enum: matching the box out of a case
  // retained and released it on every read. Boxed, so a read does not copy (and retain)
  // the whole descriptor.
  @usableFromInline let key: DescriptorBox<Value>?
  @usableFromInline let entry: ReferenceWritableKeyPath<UserDefaults, Value>?
  @usableFromInline let defaults: UserDefaults

  // MARK: String keys (Codable values, no declaration needed)

  /// A value stored under `key`, reading `defaultValue` when nothing is stored.
  ///
  /// Registers `key` with ``KeyRegistry`` and checks the name (an invalid name is reported
  /// and its writes are refused).
  ///
  /// Takes `RawRepresentable` (as the raw value) and `Codable` (JSON) types too, and
  /// collections and optionals of those: shown here, the siblings for them behave alike.
  ///
  /// - Parameters:
  ///   - key: The stored name.
  ///   - defaultValue: What the property reads when nothing (readable) is stored.
  ///   - suite: The `UserDefaults` to use (`UserDefaults.libraryDefault`, normally
  ///     `.standard`, when neither this nor `defaults` is given).
  ///   - defaults: The same parameter under the other name the seed designs used.
  ///   - encoder: The JSON encoder for values stored as JSON (`Codable` types that are
  ///     neither property-list types nor `RawRepresentable`).
  ///   - decoder: The JSON decoder for those values.
  ///   - file: Where the property is declared, for the key registry.
  ///   - line: Where the property is declared, for the key registry.
  ///
  /// `@UserDefault("is_discount_provided", defaultValue: false) var isDiscountProvided: Bool`
  public init(
    _ key: String, defaultValue: Value, suite: UserDefaults? = nil, defaults: UserDefaults? = nil,
    encoder: JSONEncoder? = nil, decoder: JSONDecoder? = nil,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value: UserDefaultable {
    self.init(
      key, default: .constant(defaultValue), suite: suite, defaults: defaults, bridge: .native(),
      file: file, line: line)
  }

  /// An optional value stored under `key`; `nil` when nothing is stored.
  ///
  /// Takes `RawRepresentable` (as the raw value) and `Codable` (JSON) types too, and
  /// collections and optionals of those: shown here, the siblings for them behave alike.
  ///
  /// - Parameters:
  ///   - key: The stored name.
  ///   - suite: The `UserDefaults` to use (`UserDefaults.libraryDefault`, normally
  ///     `.standard`, when neither this nor `defaults` is given).
  ///   - defaults: The same parameter under the other name the seed designs used.
  ///   - encoder: The JSON encoder for values stored as JSON (`Codable` types that are
  ///     neither property-list types nor `RawRepresentable`).
  ///   - decoder: The JSON decoder for those values.
  ///   - file: Where the property is declared, for the key registry.
  ///   - line: Where the property is declared, for the key registry.
  ///
  /// `@UserDefault("default_user") var defaultUser: User?`
  public init<Wrapped>(
    _ key: String, suite: UserDefaults? = nil, defaults: UserDefaults? = nil,
    encoder: JSONEncoder? = nil, decoder: JSONDecoder? = nil,
    file: StaticString = #fileID, line: UInt = #line
  ) where Value == Wrapped?, Wrapped: UserDefaultable {
    self.init(
      key, default: .constant(nil), suite: suite, defaults: defaults,
      bridge: .optional(ValueBridge<Wrapped>.native()), file: file, line: line)
  }

  /// What every string-key form calls; `defaults`, then `suite`, then the library's
  /// default choose the store. `bridge`: how its overload stores the value.
  init(
    _ key: String, default defaultValue: DefaultValue<Value>, suite: UserDefaults?,
    defaults chosen: UserDefaults?, bridge: ValueBridge<Value>, file: StaticString, line: UInt
  ) {
    let defaults = chosen ?? suite ?? .libraryDefault
    let descriptor = KeyDescriptor(name: key, bridge: bridge, defaultValue: defaultValue)
    self.key = DescriptorBox(descriptor)
    self.entry = nil
    self.defaults = defaults
    descriptor.declare(in: defaults, declaredBy: "@UserDefault \(file):\(line)")
  }

  // MARK: Typed keys

  /// The value of a typed key, in `defaults`. The key was registered and checked when it was
  /// made.
  ///
  /// - Parameters:
  ///   - key: The typed key: its stored name, type and default.
  ///   - defaults: The store to use; `UserDefaults.libraryDefault` unless given.
  ///
  /// `@UserDefault(.theme) var theme`
  public init(_ key: UserDefaults.Key<Value>, defaults: UserDefaults = .libraryDefault)
  where Value: Sendable {
    self.key = DescriptorBox(key.descriptor)
    self.entry = nil
    self.defaults = defaults
  }

  // MARK: Entries declared on UserDefaults

  /// The value of an entry declared on `UserDefaults` (by `@DefaultEntry` or by hand with
  /// ``UserDefaultable/init(withKey:in:)`` and ``UserDefaultable/store(in:withKey:)``).
  ///
  /// Reads and writes run the entry's getter and setter on `defaults`.
  ///
  /// - Parameters:
  ///   - keyPath: The entry, as a key path of `UserDefaults`.
  ///   - defaults: The store to use; `UserDefaults.libraryDefault` unless given.
  ///
  /// `@UserDefault(\.exampleWithDefault) var example`
  public init(
    _ keyPath: ReferenceWritableKeyPath<UserDefaults, Value>,
    defaults: UserDefaults = .libraryDefault
  ) {
    self.key = nil
    self.entry = keyPath
    self.defaults = defaults
  }

  // MARK: Value

  /// The stored value, or the default when nothing readable is stored.
  ///
  /// Reading costs a lookup plus, when the stored value changed since the last read, one
  /// decode. Writing costs an encode and the store's write; a value that cannot be stored is
  /// reported and nothing is written.
  ///
  /// `settings.isDiscountProvided = true`
  ///
  /// Inlinable, so a read is specialised for `Value` where it is made.
  @inlinable
  public var wrappedValue: Value {
    get {
      // Tested, then unwrapped without a binding: binding the box copies (retains) it.
      if key != nil { return defaults.value(key.unsafelyUnwrapped.descriptor) }
      return defaults[keyPath: entry.unsafelyUnwrapped]
    }
    nonmutating set {
      if key != nil {
        defaults.access.write(newValue, for: key.unsafelyUnwrapped.descriptor)
      } else {
        defaults[keyPath: entry.unsafelyUnwrapped] = newValue
      }
    }
  }

  /// The stored entry: its key, removal, and whether it holds the default.
  ///
  /// `$isDiscountProvided.removeObject()`
  public var projectedValue: StoredValue<Value> {
    if let key { return StoredValue(defaults: defaults, key: key.descriptor) }
    return StoredValue(defaults: defaults, entry: entry.unsafelyUnwrapped)
  }
}

/// A key descriptor held by reference (see ``UserDefault/key``).
@usableFromInline
final class DescriptorBox<Value> {
  @usableFromInline let descriptor: KeyDescriptor<Value>

  init(_ descriptor: KeyDescriptor<Value>) {
    self.descriptor = descriptor
  }
}

extension DescriptorBox: Sendable where Value: Sendable {}
