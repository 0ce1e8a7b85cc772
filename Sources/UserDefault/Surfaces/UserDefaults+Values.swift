import Foundation

extension UserDefaults {
  /// The value under `name` read as `type`, for keys named at run time. Cost: a lookup,
  /// plus a decode when the value changed.
  ///
  /// - Parameters:
  ///   - type: The type to read the value as, spelled as an optional (`Theme?.self`).
  ///   - name: The stored name.
  /// - Returns: The value, or `nil` when nothing readable is stored (reported).
  ///
  /// `let theme = defaults.value(Theme?.self, forKey: "theme")`
  public func value<Value>(_ type: Value?.Type, forKey name: String) -> Value? {
    read(KeyDescriptor<Value?>(name: name, bridge: .shared, defaultValue: .constant(nil)))
      ?? nil
  }

  package func set<Value>(_ value: Value, as type: Value.Type, forKey name: String) {
    write(
      value, for: KeyDescriptor(name: name, bridge: .shared, defaultValue: .constant(value)))
  }

  /// Stores a property list after checking it (`nil` removes): where `set(_:forKey:)`
  /// would crash on Linux, this refuses. Cost: a walk of the value, then the write.
  ///
  /// - Parameters:
  ///   - value: A property list, or `nil` to remove the stored value.
  ///   - name: The stored name.
  /// - Throws: ``DefaultsError`` (and writes nothing) when any part of `value` is not a
  ///   property list, or `name` is not a valid key name.
  ///
  /// `try defaults.store(["light", "dark"], forKey: "themes")`
  public func store(_ value: Any?, forKey name: String) throws(DefaultsError) {
    try access.writeObject(value, forName: name)
  }

  package func storeReportingErrors(_ value: Any?, forKey name: String) {
    backend.storeReportingErrors(value, forName: name)
  }

  /// Removes the stored value under `name` and tells the library's observers.
  ///
  /// - Parameters:
  ///   - name: The stored name.
  ///
  /// `defaults.removeValue(forKey: "theme")`
  public func removeValue(forKey name: String) {
    access.remove(name)
  }
}
