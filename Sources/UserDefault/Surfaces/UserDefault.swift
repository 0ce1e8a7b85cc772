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
/// All forms share one bridging and cache, so they store each type alike. Assigning `nil`
/// removes the stored value. `$property` is a ``StoredValue``.
///
/// On a `static var` in Swift 6 mode, isolate the type to a global actor (`@MainActor`):
/// Swift 6.3 refuses `nonisolated(unsafe)` on a wrapped property.
@propertyWrapper
public struct UserDefault<Value> {
  // One of the two is set. Not an enum: matching the box out of a case retained it on
  // every read. Boxed, so a read does not copy the whole descriptor.
  @usableFromInline let key: DescriptorBox<Value>?
  @usableFromInline let entry: ReferenceWritableKeyPath<UserDefaults, Value>?
  @usableFromInline let defaults: UserDefaults

  /// A value stored under `key`, reading `defaultValue` when nothing is stored. Registers
  /// `key` with ``KeyRegistry``; an invalid name is reported and its writes refused. The
  /// `RawRepresentable`, `Codable` and collection siblings behave alike.
  ///
  /// - Parameters:
  ///   - key: The stored name.
  ///   - defaultValue: What the property reads when nothing (readable) is stored.
  ///   - suite: The `UserDefaults` to use (default `UserDefaults.libraryDefault`).
  ///   - defaults: The same parameter under another name.
  ///   - encoder: The JSON encoder for values stored as JSON.
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

  /// Not available: this wrapper's default is labelled `defaultValue:`, as in the wrapper
  /// it stands in for (`default:` is the label of ``UserDefaults/Key`` and
  /// `UserDefaultsWrapper`). Declared so the compiler says so and offers the fix.
  ///
  /// - Parameters:
  ///   - key: The stored name.
  ///   - defaultValue: What the property would read when nothing is stored.
  ///   - suite: The `UserDefaults` to use.
  ///   - defaults: The same parameter under another name.
  ///
  /// Write `@UserDefault("is_discount_provided", defaultValue: false) var flag: Bool`.
  @available(
    *, unavailable, renamed: "init(_:defaultValue:suite:defaults:)",
    message: "the string-key wrapper's default is labelled defaultValue:"
  )
  public init(
    _ key: String, default defaultValue: Value, suite: UserDefaults? = nil,
    defaults: UserDefaults? = nil
  ) {
    fatalError("unavailable")
  }

  /// An optional value stored under `key`; `nil` when nothing is stored.
  ///
  /// - Parameters:
  ///   - key: The stored name.
  ///   - suite: The `UserDefaults` to use (default `UserDefaults.libraryDefault`).
  ///   - defaults: The same parameter under another name.
  ///   - encoder: The JSON encoder for values stored as JSON.
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

  /// The value of a typed key, in `defaults`.
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

  /// The value of an entry declared on `UserDefaults` (by `@DefaultEntry` or by hand);
  /// reads and writes run its getter and setter on `defaults`.
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

  /// The stored value, or the default when nothing readable is stored. A read costs a
  /// lookup, plus a decode when the value changed; a write an encode and the store's write
  /// (a value that cannot be stored is reported, not written).
  ///
  /// `settings.isDiscountProvided = true`
  @inlinable
  public var wrappedValue: Value {
    get {
      // No binding: binding the box retains it.
      if key != nil { return defaults.value(key.unsafelyUnwrapped.descriptor) }
      return defaults[keyPath: entry.unsafelyUnwrapped]
    }
    nonmutating set {
      if key != nil {
        defaults.write(newValue, for: key.unsafelyUnwrapped.descriptor)
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
