import Foundation

extension UserDefaults {
  /// The value stored under `key`, or its default. Setting `nil` on an optional key
  /// removes the stored value.
  ///
  /// Reading costs a lookup plus, when the stored value changed since the last read, one
  /// decode (decoded values are cached per suite). A stored value that cannot be read returns the
  /// default and is reported. Writing costs an encode and the store's write.
  @inlinable
  public subscript<Value>(key: Key<Value>) -> Value {
    get { access.value(key.descriptor) }
    set { access.write(newValue, for: key.descriptor) }
  }

  /// Removes the stored values of `keys`, so they read as their defaults.
  public func reset(_ keys: Keys...) {
    reset(keys)
  }

  /// Removes the stored values of `keys`, so they read as their defaults.
  public func reset(_ keys: [Keys]) {
    let access = self.access
    for case let key as any NamedKey in keys { access.remove(key.name) }
  }

  /// Whether the current value of `key` equals its default: true whenever nothing
  /// readable is stored, even for a computed default that differs on each read.
  public func isDefaultValue<Value: Equatable>(_ key: Key<Value>) -> Bool {
    guard let stored = access.read(key.descriptor) else { return true }
    return stored == key.defaultValue
  }

  /// Whether a value is stored under `key` (registered defaults count as stored).
  public func hasStoredValue<Value>(_ key: Key<Value>) -> Bool {
    access.hasStoredValue(key.name)
  }
}
