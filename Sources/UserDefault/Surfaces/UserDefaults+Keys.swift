import Foundation

extension UserDefaults {
  /// The value stored under `key`, or its default; `nil` removes. A read costs a lookup,
  /// plus a decode when the value changed (unreadable: default, reported); a write an encode.
  ///
  /// - Parameters:
  ///   - key: The typed key.
  /// - Returns: The stored value, or the key's default when nothing readable is stored.
  ///
  /// `let theme = defaults[.theme]`
  @inlinable
  public subscript<Value>(key: Key<Value>) -> Value {
    get { value(key.descriptor) }
    set { write(newValue, for: key.descriptor) }
  }

  /// Removes the stored values of `keys`, so they read as their defaults.
  ///
  /// - Parameters:
  ///   - keys: Typed keys of any value types.
  ///
  /// `defaults.reset(.theme, .fontSize)`
  public func reset(_ keys: Keys...) {
    reset(keys)
  }

  /// Removes the stored values of `keys`, so they read as their defaults.
  ///
  /// - Parameters:
  ///   - keys: Typed keys of any value types.
  ///
  /// `defaults.reset([.theme, .fontSize])`
  public func reset(_ keys: [Keys]) {
    let access = self.access
    for case let key as any NamedKey in keys { access.remove(key.name) }
  }

  /// Whether the value of `key` equals its default. Cost: a read and a comparison.
  ///
  /// - Parameters:
  ///   - key: The typed key.
  /// - Returns: `true` when nothing readable is stored, else whether it equals the default.
  ///
  /// `let untouched = defaults.isDefaultValue(.theme)`
  public func isDefaultValue<Value: Equatable>(_ key: Key<Value>) -> Bool {
    guard let stored = read(key.descriptor) else { return true }
    return stored == key.defaultValue
  }

  /// Whether any domain of the search list (registered defaults included) holds `key`.
  /// Cost: one lookup, no decode.
  ///
  /// - Parameters:
  ///   - key: The typed key.
  /// - Returns: `true` when anything is stored under the key's name, readable or not.
  ///
  /// `let chosen = defaults.hasStoredValue(.theme)`
  public func hasStoredValue<Value>(_ key: Key<Value>) -> Bool {
    access.hasStoredValue(key.name)
  }
}
